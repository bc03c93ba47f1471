"""The table's overlays and order menus in Debian's chromium against a real server: the
ranges overlay (F) tints exactly the selected unit's weapon range; company tactics, mine
search and fire support are given from their menus (a cell picked on the map where the
order names one), each confirmed with its KP cost (and a fire request with its delay)."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from tests.server.live import Server, create, seats
from tests.web.browser import TablePage, open_table

pytestmark = pytest.mark.slow

PIXEL = """([x, y]) => {
  const c = document.getElementById('map');
  const d = c.getContext('2d').getImageData(Math.round(x), Math.round(y), 1, 1).data;
  return [d[0], d[1], d[2]];
}"""


def _local(tp: TablePage, cell: tuple[int, int]) -> tuple[float, float]:
    box = tp.page.locator("#map").bounding_box()
    x, y = tp.cell_point(cell)
    return x - box["x"], y - box["y"]


def _pixel(tp: TablePage, cell: tuple[int, int]) -> list[int]:
    return list(tp.page.evaluate(PIXEL, list(_local(tp, cell))))


def _select(tp: TablePage, unit: str, cell: tuple[int, int]) -> None:
    tp.click_cell(cell)
    tp.page.wait_for_function(
        f"document.getElementById('map').dataset.selected === '{unit}'", timeout=3000
    )


def test_ranges_overlay_tints_exactly_the_weapon_range(browser: Any, web_server: Server) -> None:
    game = create(web_server)
    pl1 = seats(web_server, game)["pl1"]
    view = pl1.view()["view"]
    w, h = view["map"]["width"], view["map"]["height"]
    taken = {tuple(u["cell"]) for u in view["units"]}
    for o in view["objectives"]:
        taken |= {tuple(c) for c in o["cells"]}
    unit = next(u for u in view["units"] if u.get("seat") == "pl1" and u.get("weapon"))
    ux, uy = unit["cell"]
    r = unit["weapon"]["range"]
    pairs = []
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1)):
        a = (ux + dx * r, uy + dy * r)
        b = (ux + dx * (r + 1), uy + dy * (r + 1))
        if all(0 <= c[0] < w and 0 <= c[1] < h and c not in taken for c in (a, b)):
            pairs.append((a, b))
    if not pairs:
        pytest.skip(f"no free cells at range {r} and {r + 1} of {unit['id']}")
    inside, outside = pairs[0]
    tp = open_table(browser, "pl1", game["seats"]["pl1"]["url"])
    _select(tp, unit["id"], (ux, uy))
    tp.page.mouse.move(0, 0)
    before_in, before_out = _pixel(tp, inside), _pixel(tp, outside)
    tp.page.locator("#map").focus()
    tp.page.keyboard.press("f")
    tp.page.wait_for_function("document.getElementById('map').dataset.ranges === '1'")
    tp.page.wait_for_timeout(100)
    after_in, after_out = _pixel(tp, inside), _pixel(tp, outside)
    assert after_in != before_in  # at the weapon's range: tinted
    assert after_in[0] >= after_in[1]  # towards red
    assert after_out == before_out  # one cell further: untouched
    tp.page.keyboard.press("f")
    tp.page.wait_for_function("document.getElementById('map').dataset.ranges === ''")
    tp.page.wait_for_timeout(100)
    assert _pixel(tp, inside) == before_in
    tp.page.context.close()


def _version_after(tp: TablePage, before: int) -> None:
    tp.page.wait_for_function(f"Number(document.body.dataset.version) > {before}", timeout=5000)


def test_company_tactic_from_its_menu_with_its_cost(browser: Any, web_server: Server) -> None:
    game = create(web_server)
    co = seats(web_server, game)["co"]
    legal = co.get("/orders").json()["orders"]
    order = next(o for o in legal if o.startswith("tactic sitova "))
    want = co.get("/cost", order=order).json()["kp"]
    tp = open_table(browser, "co", game["seats"]["co"]["url"])
    page = tp.page
    page.locator(f'#menu-tactics button.order[data-order="{order}"]').click()
    cost = page.locator(f'dialog[open] button.send[data-order="{order}"] .cost')
    cost.wait_for(timeout=5000)
    assert re.search(rf"\b{want} KP\b", cost.inner_text())
    before = tp.version()
    tp.confirm(order)
    _version_after(tp, before)
    log = co.view()["view"]["log"]
    assert any(e["kind"] == "tactic" and e["data"].get("tactic") == "sitova" for e in log)
    page.context.close()


def test_mine_search_picks_its_cell_on_the_map(browser: Any, web_server: Server) -> None:
    game = create(web_server)
    pl1 = seats(web_server, game)["pl1"]
    view = pl1.view()["view"]
    legal = pl1.get("/orders").json()["orders"]
    search = next(o for o in legal if o.startswith("search "))
    _kind, unit, cell_text = search.split()
    sx, sy = (int(v) for v in cell_text.split(","))
    cell = (sx, sy)
    pattern = f"search {unit} X,Y"
    where = next(tuple(u["cell"]) for u in view["units"] if u["id"] == unit)
    tp = open_table(browser, "pl1", game["seats"]["pl1"]["url"])
    page = tp.page
    _select(tp, unit, where)
    button = page.locator(f'#menu-mines button.pick[data-pattern="{pattern}"]')
    button.click()
    page.wait_for_function(
        f"document.getElementById('map').dataset.picking === '{pattern}'", timeout=3000
    )
    page.keyboard.press("Escape")  # Esc stops picking, the unit stays selected
    page.wait_for_function("document.getElementById('map').dataset.picking === ''")
    assert page.evaluate("document.getElementById('map').dataset.selected") == unit
    page.locator(f'#menu-mines button.pick[data-pattern="{pattern}"]').click()
    page.locator("#picking").wait_for(timeout=3000)
    far = (where[0] + 5, where[1] + 5)  # not a legal cell: nothing happens
    tp.click_cell(far)
    assert page.locator("dialog[open]").count() == 0
    tp.click_cell(cell)
    before = tp.version()
    tp.confirm(search)
    _version_after(tp, before)
    page.wait_for_function("document.getElementById('map').dataset.picking === ''")
    kinds = [e["kind"] for e in pl1.view()["view"]["log"]]
    assert "recon" in kinds or "mine_found" in kinds or "order" in kinds
    page.context.close()


def test_fire_support_request_shows_its_delay(browser: Any, web_server: Server) -> None:
    game = create(web_server, computer=["gm", "pl1", "pl2"])
    co = seats(web_server, game)["co"]
    order = None
    deadline = time.monotonic() + 40
    while time.monotonic() < deadline and order is None:
        body = co.get("/orders").json()
        hits = [o for o in body["orders"] if o.startswith("organic ")]
        if hits:
            order = hits[0]
        elif "done" in body["orders"]:
            co.order("done", body["version"])
        else:
            time.sleep(0.1)
    if order is None:
        pytest.skip("no organic fire request became legal in time")
    odds = co.get("/odds", order=order).json()["odds"]
    delay = odds["delay"]
    assert delay["rule"] == "R-ORG-1" and delay["min"] == delay["max"] >= 1
    tokens = order.split()
    pattern = " ".join("X,Y" if re.fullmatch(r"\d+,\d+", t) else t for t in tokens)
    cx, cy = (int(v) for v in tokens[2].split(","))
    cell = (cx, cy)
    tp = open_table(browser, "co", game["seats"]["co"]["url"])
    page = tp.page
    page.locator(f'#menu-fire button.pick[data-pattern="{pattern}"]').click()
    page.locator("#picking").wait_for(timeout=3000)
    tp.click_cell(cell)
    shown = page.locator("dialog[open] #strike-delay")
    shown.wait_for(timeout=5000)
    assert f"Viive: {delay['min']} oma" in shown.inner_text()
    assert "R-ORG-1" in shown.inner_text()
    before = tp.version()
    tp.confirm(order)
    _version_after(tp, before)
    page.locator("#pending-own li").first.wait_for(timeout=5000)
    page.context.close()
