"""The end of a game in the browser (issue 11): the after-action report, the reveal and the
browser's own dice check (web/src/dice.ts) of a real finished game — and the same check
failing, naming the roll, when the export it reads has one die changed."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.server.live import Server, blue_done_until, create, seats
from tests.web.browser import open_table

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def finished(web_server: Server) -> dict[str, Any]:
    game = create(web_server, computer=["gm"])
    blue_done_until(web_server, seats(web_server, game))
    return game


def test_report_reveal_and_verify_dice_of_a_finished_game(
    browser: Any, web_server: Server, finished: dict[str, Any]
) -> None:
    tp = open_table(browser, "co", finished["seats"]["co"]["url"])
    page = tp.page
    report = page.locator("#report")
    report.wait_for(timeout=5000)
    assert "Peli päättyi" in report.inner_text()
    page.click("#reveal")
    page.click("#verify")
    ok = page.locator("#verified")
    ok.wait_for(timeout=15000)
    assert "ok" in (ok.get_attribute("class") or ""), page.locator("#verify-result").inner_text()
    text = page.locator("#verify-result").inner_text()
    export = json.loads(seats(web_server, finished)["co"].get("/export").text)
    rolls = sum(len(e["data"].get("rolls") or []) for e in export["state"]["events"])
    assert rolls > 0
    assert f"{rolls}/{rolls} heittoa" in text
    page.context.close()


def test_verify_dice_fails_on_a_changed_die_and_names_the_roll(
    browser: Any, web_server: Server, finished: dict[str, Any]
) -> None:
    tp = open_table(browser, "co", finished["seats"]["co"]["url"])
    page = tp.page
    changed: dict[str, int] = {}

    def tamper(route: Any) -> None:
        doc = json.loads(route.fetch().text())
        for ev in doc["state"]["events"]:
            for r in ev["data"].get("rolls") or []:
                if r["expr"] == "d20" and not changed:
                    r["dice"][0] = r["dice"][0] % 20 + 1
                    r["kept"] = list(r["dice"])
                    r["total"] = r["dice"][0] + r["modifier"]
                    changed["seq"] = r["seq"]
        route.fulfill(json=doc)

    page.route("**/export", tamper)
    page.locator("#report").wait_for(timeout=5000)
    page.click("#reveal")
    page.click("#verify")
    bad = page.locator("#verified")
    bad.wait_for(timeout=15000)
    assert "bad" in (bad.get_attribute("class") or "")
    text = page.locator("#verify-result").inner_text()
    assert f"heitto {changed['seq']} " in text, text
    page.context.close()
