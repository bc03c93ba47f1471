"""The browser table in Debian's chromium against a real `tk20 serve` (issue 11).

GM, co, pl1 and pl2 each in their own browser context: the GM creates a game of demo in
the lobby, every seat plays a whole round by clicking on the map, each page follows the
others' orders within a second, and no Blue page ever holds a Red unit id or cell its view
does not."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest

from tests.server.live import Seat, Server
from tests.web.browser import TablePage, cells_in, dumps, ids_in, open_table, token_of

BLUE = ("co", "pl1", "pl2")


def _seat(server: Server, url: str) -> Seat:
    game, token = token_of(url)
    return Seat(server, game, token)


def _create_in_lobby(browser: Any, server: Server) -> dict[str, str]:
    """The GM opens the lobby, creates a demo game by clicking; the seat links shown."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    page.goto(server.base + "/")
    form = page.locator('form.create[data-scenario="demo"]')
    form.wait_for(timeout=15000)
    # The lobby shows the briefing and a map preview of each scenario.
    assert page.locator("#scenario-demo canvas.preview").count() == 1
    assert page.locator("#scenario-demo .briefing").inner_text().strip()
    form.locator("button[type=submit]").click()
    page.locator("#scenario-demo li[data-seat]").first.wait_for(timeout=15000)
    links = {
        li.get_attribute("data-seat"): li.locator("a.seatlink").get_attribute("href")
        for li in page.locator("#scenario-demo li[data-seat]").all()
    }
    ctx.close()
    assert set(links) == {"gm", *BLUE}
    return {k: v for k, v in links.items() if k and v}


def _assert_no_leak(gm: Seat, seats: dict[str, Seat], pages: dict[str, TablePage]) -> None:
    """For every Blue page: its DOM, network answers and localStorage hold no Red unit id
    and no Red unit's cell that the seat's own view (and legal orders) do not hold."""
    everything = gm.view()["view"]
    red = {u["id"]: (u["cell"][0], u["cell"][1]) for u in everything["units"] if u["side"] == "red"}
    assert red
    for name in BLUE:
        seat, tp = seats[name], pages[name]
        held = dumps(seat.view()["view"]) + dumps(seat.get("/orders").json()["orders"])
        hidden_ids = set(red) - ids_in(held, set(red))
        hidden_cells = set(red.values()) - cells_in(held)
        network = "\n".join(body for _, body in tp.answers)
        # The map answer is the public terrain (rows and heights), the same for every seat.
        network_cells = "\n".join(body for url, body in tp.answers if not url.endswith("/map"))
        for where, text, cells_text in (
            ("DOM", tp.dom(), tp.dom()),
            ("network", network, network_cells),
            ("localStorage", tp.storage(), tp.storage()),
        ):
            leaked = ids_in(text, hidden_ids)
            assert not leaked, f"{name}: {where} names Red units {leaked} its view does not"
            spots = cells_in(cells_text) & hidden_cells
            assert not spots, f"{name}: {where} holds Red cells {spots} its view does not"


def _wait_followed(pages: list[TablePage], before: dict[str, int], limit: float = 1.0) -> None:
    """Every page in ``pages`` shows a newer version within ``limit`` seconds."""
    for tp in pages:
        tp.page.wait_for_function(
            f"Number(document.body.dataset.version) > {before[tp.seat]}",
            timeout=int(limit * 1000),
        )


def _click_move(tp: TablePage, seat: Seat) -> str | None:
    """Select one of the seat's units on the map and click a reachable cell; confirm."""
    orders: list[str] = seat.get("/orders").json()["orders"]
    view = seat.view()["view"]
    where = {u["id"]: (u["cell"][0], u["cell"][1]) for u in view["units"]}
    moves = [o for o in orders if o.startswith("move ")]
    if not moves:
        return None
    unit = moves[0].split()[1]
    own = [o for o in moves if o.split()[1] == unit]
    occupied = {f"{c[0]},{c[1]}" for c in where.values()}
    free = [o for o in own if o.split()[2] not in occupied]
    target = free[len(free) // 2]
    x, y = (int(v) for v in target.split()[2].split(","))
    tp.click_cell(where[unit])
    tp.page.wait_for_function(
        f"document.getElementById('map').dataset.selected === '{unit}'", timeout=3000
    )
    # The reach overlay is the engine's list of the unit's move cells.
    reach = int(tp.page.evaluate("document.getElementById('map').dataset.reach"))
    assert reach == len(own)
    tp.click_cell((x, y))
    tp.confirm(target)
    return target


def _click_done(tp: TablePage) -> bool:
    """Click Done if the seat may end its phase now. The page may still show the button
    enabled from before its last order's refresh: when it turns disabled meanwhile (the
    seat's phase ended), nothing was clicked."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    btn = tp.page.locator("#done")
    if btn.count() == 0 or btn.is_disabled():
        return False
    try:
        btn.click(timeout=3000)
    except PlaywrightTimeout:
        if btn.count() and btn.is_disabled():
            return False
        raise
    tp.confirm("done")
    return True


@pytest.mark.slow
def test_a_round_of_demo_by_clicking_four_browsers(
    browser: Any, web_server: Server, tmp_path: Path
) -> None:
    links = _create_in_lobby(browser, web_server)
    seats = {name: _seat(web_server, url) for name, url in links.items()}
    pages = {name: open_table(browser, name, url) for name, url in links.items()}
    gm = seats["gm"]
    _assert_no_leak(gm, seats, pages)
    assert "1/6" in pages["co"].page.locator("#round").inner_text()

    # Blue's command phase: each seat moves a unit by clicking, then is done.
    for name in BLUE:
        tp = pages[name]
        others = [pages[o] for o in ("gm", *BLUE) if o != name]
        before = {o.seat: o.version() for o in others}
        order = _click_move(tp, seats[name])
        assert order is not None
        _wait_followed(others, before)
        _assert_no_leak(gm, seats, pages)
    for name in BLUE:
        before = {o.seat: o.version() for o in pages.values() if o.seat != name}
        if _click_done(pages[name]):
            _wait_followed([pages["gm"]], before)
        _assert_no_leak(gm, seats, pages)
    # Blue's fire phase and the turn to Red: every Blue seat done.
    deadline = time.monotonic() + 20
    while gm.view()["view"]["active_side"] == "blue" and time.monotonic() < deadline:
        for name in BLUE:
            pages[name].page.wait_for_timeout(300)
            _click_done(pages[name])
        _assert_no_leak(gm, seats, pages)
    assert gm.view()["view"]["active_side"] == "red"

    # Red (the GM) moves a unit by clicking and ends its phases.
    tp = pages["gm"]
    tp.page.wait_for_function(
        "document.querySelector('#done') && !document.querySelector('#done').disabled",
        timeout=5000,
    )
    assert _click_move(tp, gm) is not None
    _assert_no_leak(gm, seats, pages)
    deadline = time.monotonic() + 20
    while gm.view()["view"]["turn"] == 1 and time.monotonic() < deadline:
        tp.page.wait_for_timeout(300)
        _click_done(tp)
    assert gm.view()["view"]["turn"] == 2
    for name in BLUE:
        pages[name].page.wait_for_function(
            "document.getElementById('round').textContent.includes('2/6')", timeout=1000
        )
    _assert_no_leak(gm, seats, pages)
    for size, name in (((1366, 768), "laptop"), ((820, 1180), "tablet")):
        tp = open_table(browser, "pl1", links["pl1"], size)
        shot = Path(os.environ.get("TK20_SHOTS", tmp_path)) / f"table-{name}.png"
        tp.page.screenshot(path=str(shot))
        assert shot.stat().st_size > 20000
        tp.page.context.close()
