"""The campaign's roster page in Debian's chromium against a real `tk20 serve` (issue 12):
the roster with XP bars, TT, TK, abilities; the GM restores TK and buys a unit (a TP
purchase), undoes; a player sees the roster but no spending; the lobby creates a campaign."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.server.live import Server


def _campaign(server: Server) -> dict[str, Any]:
    roster = {
        "tp": 20,
        "units": [
            {"name": "1R1", "card": "jaakariryhma", "xp": 17, "strength": 5, "label": "Susi"},
            {"name": "1R2", "card": "jaakariryhma", "xp": 24},
            {"name": "KP", "card": "komppanianpaallikko"},
        ],
        "seats": ["pl1"],
    }
    r = httpx.post(f"{server.base}/api/campaigns", json={"name": "Kiila", "roster": roster})
    assert r.status_code == 201, r.text
    made: dict[str, Any] = r.json()
    return made


def _cell(page: Any, unit: str, cls: str) -> str:
    text: str = page.locator(f'table.roster tr[data-unit="{unit}"] td.{cls}').inner_text()
    return text.strip()


@pytest.mark.slow
def test_roster_page_and_a_tp_purchase(browser: Any, web_server: Server) -> None:
    made = _campaign(web_server)
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    page.goto(made["seats"]["gm"]["url"])
    page.locator('table.roster tr[data-unit="1R1"]').wait_for(timeout=15000)
    assert "Susi" in page.locator('tr[data-unit="1R1"] th').inner_text()
    bar = page.locator('tr[data-unit="1R1"] progress')
    assert (bar.get_attribute("value"), bar.get_attribute("max")) == ("7", "10")
    assert _cell(page, "1R1", "tt") == "+3"  # K +2, 17 XP +1 (R-CAMP-3)
    assert _cell(page, "1R1", "tk") == "5/10"
    assert page.locator("#tp strong").inner_text() == "20"
    # restore 2 TK for 1 TP (R-CAMP-4)
    page.locator('button.restore[data-unit="1R1"]').click()
    page.wait_for_function("document.querySelector('#tp strong').textContent === '19'")
    assert _cell(page, "1R1", "tk") == "7/10"
    # buy a Jääkäriryhmä for 15 TP
    page.locator("form.buy input[name=name]").fill("1R3")
    page.locator("form.buy button[type=submit]").click()
    page.locator('table.roster tr[data-unit="1R3"]').wait_for(timeout=10000)
    assert page.locator("#tp strong").inner_text() == "4"
    assert _cell(page, "1R3", "tk") == "10/10"
    # a veteran ability for the unit with 24 XP
    page.locator("form.ability select[name=unit]").select_option("1R2")
    page.locator("form.ability select[name=ability]").select_option("kaupunkisissi")
    page.locator("form.ability button[type=submit]").click()
    page.wait_for_function(
        "document.querySelector('tr[data-unit=\"1R2\"] td.abilities').textContent"
        " === 'kaupunkisissi'"
    )
    # a refused purchase shows why and changes nothing
    page.locator("form.buy input[name=name]").fill("1R4")
    page.locator("form.buy button[type=submit]").click()
    page.locator("p.error").wait_for(timeout=10000)
    assert "15 TP" in page.locator("p.error").inner_text()
    assert page.locator("#tp strong").inner_text() == "4"
    # the GM undoes the ability, then the purchase
    page.locator("button.undo").click()
    page.wait_for_function(
        "document.querySelector('tr[data-unit=\"1R2\"] td.abilities').textContent !== "
        "'kaupunkisissi'"
    )
    page.locator("button.undo").click()
    page.wait_for_function("document.querySelector('#tp strong').textContent === '19'")
    assert page.locator('table.roster tr[data-unit="1R3"]').count() == 0
    assert page.locator("ol.history li").count() >= 6
    ctx.close()
    # a player: the roster, no spending, no undo
    ctx = browser.new_context()
    page = ctx.new_page()
    page.goto(made["seats"]["pl1"]["url"])
    page.locator('table.roster tr[data-unit="1R1"]').wait_for(timeout=15000)
    assert page.locator("form.buy").count() == 0 and page.locator("button.undo").count() == 0
    assert page.locator("button.restore").count() == 0
    ctx.close()


@pytest.mark.slow
def test_lobby_creates_a_campaign(browser: Any, web_server: Server) -> None:
    ctx = browser.new_context()
    page = ctx.new_page()
    page.goto(web_server.base + "/")
    form = page.locator("form.new-campaign")
    form.wait_for(timeout=15000)
    form.locator("input[name=campaign-name]").fill("Lobbysta")
    form.locator("select[name=campaign-scenario]").select_option("demo")
    form.locator("button[type=submit]").click()
    page.locator("#campaigns li[data-seat=gm] a.campaignlink").wait_for(timeout=15000)
    gm = page.locator("#campaigns li[data-seat=gm] a.campaignlink").get_attribute("href")
    assert gm and "#campaign=" in gm
    page.goto(gm)
    page.locator('table.roster tr[data-unit="1R1"]').wait_for(timeout=15000)
    assert "Lobbysta" in page.locator("h1").inner_text()
    ctx.close()
