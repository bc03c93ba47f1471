"""The browser table's features one by one, in Debian's chromium against a real server:
language switch, accessibility (axe-core), the odds panel against the engine's numbers,
reconnection after a server restart, the GM's side switch and undo."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.server.live import Seat, Server, create, seats
from tests.web.browser import TablePage, open_table, token_of

AXE = Path(__file__).resolve().parents[2] / "web" / "node_modules" / "axe-core" / "axe.min.js"

pytestmark = pytest.mark.slow


def test_finnish_by_default_english_switch_kept_in_local_storage(
    browser: Any, web_server: Server
) -> None:
    game = create(web_server)
    tp = open_table(browser, "pl1", game["seats"]["pl1"]["url"])
    page = tp.page
    assert page.locator("html").get_attribute("lang") == "fi"
    assert "Kierros 1/6" in page.locator("#round").inner_text()
    assert page.locator("#phase").inner_text() == "komentovaihe"
    assert page.locator("#done").inner_text() == "Valmis"
    page.select_option("#lang", "en")
    assert "Round 1/6" in page.locator("#round").inner_text()
    assert page.locator("#phase").inner_text() == "command phase"
    assert page.locator("#done").inner_text() == "Done"
    assert page.locator("html").get_attribute("lang") == "en"
    assert json.loads(tp.storage()) == {"tk20.lang": "en"}  # a setting, never game data
    page.reload()
    tp.wait_ready()
    assert "Round 1/6" in page.locator("#round").inner_text()
    page.select_option("#lang", "fi")
    assert page.locator("#phase").inner_text() == "komentovaihe"
    page.context.close()


def test_table_and_lobby_pass_axe_without_serious_violations(
    browser: Any, web_server: Server
) -> None:
    game = create(web_server)
    tp = open_table(browser, "co", game["seats"]["co"]["url"])
    pages = [tp.page]
    lobby = tp.page.context.new_page()
    lobby.goto(web_server.base + "/")
    lobby.locator("form.create").first.wait_for(timeout=15000)
    pages.append(lobby)
    for page in pages:
        page.add_script_tag(path=str(AXE))
        result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
        bad = [
            f"{v['id']}: {v['help']} ({len(v['nodes'])})"
            for v in result["violations"]
            if v["impact"] in ("serious", "critical")
        ]
        assert not bad, bad
    tp.page.context.close()


def _game_with_a_target(server: Server) -> tuple[dict[str, Any], Seat, str]:
    """A game of ``nakyvissa`` (tests/web/variants.py): Red's R13 stands SPOTTED next to
    1st Platoon from the start, so pl1 may attack it in Blue's first turn; (game, pl1,
    ``attack 1R1 R13``). By construction: nothing is waited for, nothing can skip."""
    game = create(server, "nakyvissa")
    pl1 = seats(server, game)["pl1"]
    orders = pl1.get("/orders").json()["orders"]
    order = "attack 1R1 R13"
    assert order in orders, orders
    return game, pl1, order


def test_odds_panel_shows_the_engines_odds_with_rule_ids(browser: Any, web_server: Server) -> None:
    game, pl1, order = _game_with_a_target(web_server)
    _kind, unit, target = order.split()
    view = pl1.view()["view"]
    where = {u["id"]: (u["cell"][0], u["cell"][1]) for u in view["units"]}
    want = pl1.get("/odds", order=order).json()
    tp = open_table(browser, "pl1", game["seats"]["pl1"]["url"])
    tp.click_cell(where[unit])
    tp.page.wait_for_function(
        f"document.getElementById('map').dataset.selected === '{unit}'", timeout=3000
    )
    x, y = tp.cell_point(where[target])
    tp.page.mouse.move(x, y)
    panel = tp.page.locator(f'#oddsbox .odds[data-order="{order}"]')
    panel.wait_for(timeout=3000)
    for degree, p in want["odds"]["outcomes"].items():
        shown = panel.locator(f'li[data-degree="{degree}"] b').inner_text()
        # Finnish decimal comma, one decimal: within the rounding of the shown digit.
        assert re.fullmatch(r"\d+,\d %", shown), shown
        assert abs(float(shown[:-2].replace(",", ".")) - p * 100) <= 0.05 + 1e-9, (degree, p)
    text = panel.inner_text()
    for term in want["terms"]:
        assert term["rule"] in text
    exp = re.search(r"Odotettu vahinko: (\d+,\d\d)", text)
    assert exp is not None
    shown_damage = float(exp.group(1).replace(",", "."))
    assert abs(shown_damage - want["odds"]["expected_damage"]) <= 0.005 + 1e-9
    tp.page.context.close()


def test_page_reconnects_after_the_server_restarts(browser: Any, tmp_path: Path) -> None:
    from tests.server.live import Server as Proc

    srv = Proc(f"sqlite:///{tmp_path / 'tk20.sqlite3'}", tmp_path / "server.log").start()
    try:
        game = create(srv)
        s = seats(srv, game)
        tp = open_table(browser, "co", game["seats"]["co"]["url"])
        tp.page.wait_for_selector("#conn.on", timeout=5000)
        srv.stop()
        tp.page.wait_for_selector("#conn.off", timeout=5000)
        srv.start()
        tp.page.wait_for_selector("#conn.on", timeout=15000)
        before = tp.version()
        pl1 = s["pl1"]
        body = pl1.get("/orders").json()
        move = next(o for o in body["orders"] if o.startswith("move "))
        assert pl1.order(move, body["version"]).status_code == 200
        tp.page.wait_for_function(f"Number(document.body.dataset.version) > {before}", timeout=1000)
        tp.page.context.close()
    finally:
        srv.stop()


def test_gm_switches_to_blues_view_and_undoes_an_order(browser: Any, web_server: Server) -> None:
    game = create(web_server)
    s = seats(web_server, game)
    pl1 = s["pl1"]
    body = pl1.get("/orders").json()
    move = next(o for o in body["orders"] if o.startswith("move "))
    assert pl1.order(move, body["version"]).status_code == 200
    tp = open_table(browser, "gm", game["seats"]["gm"]["url"])
    page = tp.page
    red = [u["id"] for u in s["gm"].view()["view"]["units"] if u["side"] == "red"]
    assert any(page.locator(f'button.unitbtn[data-unit="{r}"]').count() for r in red)
    group = page.locator('#battle-groups li[data-group="bg1"]').inner_text()
    assert all(r in group for r in red), group  # Red's battle group with its units
    page.select_option("#view-as", "blue")
    page.wait_for_function("!document.querySelector('button.unitbtn[data-unit=\"R11\"]')")
    assert all(page.locator(f'button.unitbtn[data-unit="{r}"]').count() == 0 for r in red)
    page.select_option("#view-as", "gm")
    page.locator('button.unitbtn[data-unit="R11"]').wait_for(timeout=3000)
    unit = move.split()[1]
    moved = next(u for u in s["gm"].view()["view"]["units"] if u["id"] == unit)["cell"]
    page.once("dialog", lambda d: d.accept())
    page.click("#undo")
    page.wait_for_function("document.querySelector('.log') && true", timeout=3000)
    for _ in range(30):
        now = next(u for u in s["gm"].view()["view"]["units"] if u["id"] == unit)["cell"]
        if now != moved:
            break
        page.wait_for_timeout(100)
    assert now != moved  # the move was taken back
    page.context.close()


def _press_towards(page: Any, start: tuple[int, int], goal: tuple[int, int]) -> None:
    """Arrow keys from ``start`` to ``goal`` on the focused map."""
    dx, dy = goal[0] - start[0], goal[1] - start[1]
    for _ in range(abs(dx)):
        page.keyboard.press("ArrowRight" if dx > 0 else "ArrowLeft")
    for _ in range(abs(dy)):
        page.keyboard.press("ArrowDown" if dy > 0 else "ArrowUp")


def _xy(text: str) -> tuple[int, int]:
    x, y = text.split(",")
    return int(x), int(y)


def _cursor(page: Any) -> str:
    return str(page.evaluate("document.getElementById('map').dataset.cursor"))


def _select_with_n(page: Any, uid: str) -> None:
    """Press N until own unit ``uid`` is selected. The map publishes its selection when it
    draws (a frame later), so each press waits for the selection to change before it is
    read: a stale read would stop one unit too late."""
    sel = "document.getElementById('map').dataset.selected"
    for _ in range(12):
        before = page.evaluate(sel)
        page.keyboard.press("n")
        page.wait_for_function(f"(b) => {sel} !== b", arg=before)
        if page.evaluate(sel) == uid:
            return
    raise AssertionError(f"N never selected {uid}")


def test_orders_given_without_the_mouse_by_the_map_cursor(browser: Any, web_server: Server) -> None:
    """Issue 11: the map cursor. Tab reaches the map, N selects a unit, the arrows move a
    visible cursor whose cell is announced (aria-live), Enter picks the cell exactly as a
    click: a target (the odds shown, the confirmation cancelled with Esc), a move
    destination, and a mine search's cell from its menu (Esc stops picking, an illegal cell
    does nothing). No mouse event is sent."""
    game = create(web_server, "nakyvissa")
    pl1 = seats(web_server, game)["pl1"]
    legal = pl1.get("/orders").json()["orders"]
    tp = open_table(browser, "pl1", game["seats"]["pl1"]["url"])
    page = tp.page
    for _ in range(40):  # the map is reachable with Tab
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement?.id") == "map":
            break
    assert page.evaluate("document.activeElement?.id") == "map"
    assert page.evaluate("document.getElementById('map').matches(':focus-visible')")
    # N: the next own unit, the cursor on it
    _select_with_n(page, "1R1")
    page.wait_for_function("document.getElementById('map').dataset.cursor === '7,6'")
    info = page.locator("#cursor-info")
    assert info.get_attribute("aria-live") == "polite"
    assert "Ruutu 7,6" in info.inner_text() and "1R1" in info.inner_text()

    # A target: the cursor on R13 shows the odds as a hover does; Enter offers the attack.
    _press_towards(page, (7, 6), (10, 6))
    page.wait_for_function("document.getElementById('map').dataset.cursor === '10,6'")
    assert "Ruutu 10,6" in info.inner_text() and "R13" in info.inner_text()
    page.locator('#oddsbox .odds[data-order="attack 1R1 R13"]').wait_for(timeout=3000)
    page.keyboard.press("Enter")
    page.locator('dialog[open] button.send[data-order="attack 1R1 R13"]').wait_for(timeout=3000)
    before = tp.version()
    page.keyboard.press("Escape")  # cancelled: nothing sent, the focus back on the map
    page.wait_for_function("!document.querySelector('dialog[open]')")
    assert page.evaluate("document.activeElement?.id") == "map"

    # A move destination: arrows to a legal cell, Enter, Enter confirms (the focused button).
    moves = {_xy(o.split()[2]) for o in legal if o.startswith("move 1R1 ")}
    goal = min(moves, key=lambda c: (abs(c[0] - 7) + abs(c[1] - 9), c))
    _press_towards(page, (10, 6), goal)
    text = info.inner_text()
    assert f"Ruutu {goal[0]},{goal[1]}" in text and f"move 1R1 {goal[0]},{goal[1]}" in text
    page.keyboard.press("Enter")
    order = f"move 1R1 {goal[0]},{goal[1]}"
    page.locator(f'dialog[open] button.send[data-order="{order}"]').wait_for(timeout=3000)
    assert page.evaluate("document.activeElement?.dataset.order") == order
    page.keyboard.press("Enter")
    _version_after(tp, before)
    where = {u["id"]: tuple(u["cell"]) for u in pl1.view()["view"]["units"]}
    assert where["1R1"] == goal

    # A mine search from its menu: the pick button (Enter) puts the cursor on the nearest
    # cell to pick; Esc stops; an illegal cell does nothing; a legal one is confirmed.
    page.locator("#map").focus()
    _select_with_n(page, "1R2")
    pattern = "search 1R2 X,Y"
    cells = {
        _xy(o.split()[2])
        for o in pl1.get("/orders").json()["orders"]
        if o.startswith("search 1R2 ")
    }
    button = page.locator(f'#menu-mines button.pick[data-pattern="{pattern}"]')
    button.focus()
    page.keyboard.press("Enter")
    page.wait_for_function(
        f"document.getElementById('map').dataset.picking === '{pattern}'", timeout=3000
    )
    assert page.evaluate("document.activeElement?.id") == "map"
    start = _xy(_cursor(page))
    assert start in cells
    page.keyboard.press("Escape")
    page.wait_for_function("document.getElementById('map').dataset.picking === ''")
    button = page.locator(f'#menu-mines button.pick[data-pattern="{pattern}"]')
    button.focus()
    page.keyboard.press("Enter")
    page.wait_for_function(f"document.getElementById('map').dataset.picking === '{pattern}'")
    far = (max(cells)[0] + 3, max(cells)[1])
    _press_towards(page, start, far)
    assert "ei valittavissa" in info.inner_text()
    page.keyboard.press("Enter")  # not a cell to pick: nothing opens
    assert page.locator("dialog[open]").count() == 0
    goal = max(cells)
    _press_towards(page, far, goal)
    search = f"search 1R2 {goal[0]},{goal[1]}"
    assert f"Enter: {search}" in info.inner_text()
    page.keyboard.press("Enter")
    page.locator(f'dialog[open] button.send[data-order="{search}"]').wait_for(timeout=3000)
    before = tp.version()
    page.keyboard.press("Enter")
    _version_after(tp, before)
    page.wait_for_function("document.getElementById('map').dataset.picking === ''")
    log = pl1.view()["view"]["log"]
    assert log[-1]["kind"] == "mine_search", [e["kind"] for e in log[-5:]]
    page.context.close()


def _version_after(tp: TablePage, before: int) -> None:
    tp.page.wait_for_function(f"Number(document.body.dataset.version) > {before}", timeout=5000)


def _blue_then_red(s: dict[str, Seat], red: list[str]) -> None:
    """Blue's seats end every phase of their turn; the GM gives ``red``'s orders and ends
    every phase of Red's turn."""

    def done_while_legal(names: tuple[str, ...]) -> None:
        for _ in range(10):
            acted = False
            for name in names:
                body = s[name].get("/orders").json()
                if "done" in body["orders"]:
                    r = s[name].order("done", body["version"])
                    assert r.status_code == 200, r.text
                    acted = True
            if not acted:
                return
        raise AssertionError(f"{names} still to act")

    done_while_legal(("co", "pl1", "pl2"))
    for order in red:
        body = s["gm"].get("/orders").json()
        assert order in body["orders"], order
        r = s["gm"].order(order, body["version"])
        assert r.status_code == 200, r.text
    done_while_legal(("gm",))


FRAME = "new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"
SNAP = """([name, x, y, w, h]) => {
  const c = document.getElementById('map');
  const d = window.devicePixelRatio || 1;
  window.__snaps = window.__snaps || {};
  window.__snaps[name] = c.getContext('2d').getImageData(x * d, y * d, w * d, h * d).data;
}"""
INK = """([a, b]) => {
  const p = window.__snaps[a], q = window.__snaps[b];
  let s = 0;
  for (let i = 0; i < p.length; i += 4) {
    s += Math.abs(p[i] - q[i]) + Math.abs(p[i + 1] - q[i + 1]) + Math.abs(p[i + 2] - q[i + 2]);
  }
  return s;
}"""


def _marker_ink(tp: TablePage, cell: tuple[int, int]) -> int:
    """How much the last-known marker at ``cell`` changes the map: the summed colour
    difference of the 4×4 cells round it with the contacts layer (C) on and off."""
    box = tp.page.locator("#map").bounding_box()
    scale = float(tp.page.evaluate("document.getElementById('map').dataset.scale"))
    x, y = tp.cell_point((cell[0] - 1, cell[1] - 1))
    rect = [x - box["x"] - scale / 2, y - box["y"] - scale / 2, 4 * scale, 4 * scale]
    tp.page.evaluate(FRAME)
    tp.page.evaluate(SNAP, ["on", *rect])
    tp.page.keyboard.press("c")
    tp.page.evaluate(FRAME)
    tp.page.evaluate(SNAP, ["off", *rect])
    tp.page.keyboard.press("c")
    tp.page.evaluate(FRAME)
    return int(tp.page.evaluate(INK, ["on", "off"]))


def test_last_known_marker_fades_and_is_the_same_in_a_world_with_another_secret(
    browser: Any, web_server: Server
) -> None:
    """Issue 11: last-known markers from the side's own log. On ``kadonnut`` Blue sees R13
    at 3,4 at the start; Red disengages it through the forest where no Blue unit sees it
    (R-REC-5: the contact ends). Blue's table shows the marker at 3,4, one round old, and
    its ink fades as rounds pass. Two worlds differ in secrets only (the seed, and where R13
    went: 0,0 or 5,0): pl1's marker list and the whole map canvas are identical."""
    worlds = []
    for dest in ("0,0", "5,0"):
        game = create(web_server, "kadonnut")
        s = seats(web_server, game)
        start = s["pl1"].view()["view"]
        seen = [c for c in start["contacts"] if c.get("unit") == "R13"]
        assert seen and seen[0]["level"] == "SPOTTED" and seen[0]["cell"] == [3, 4]
        _blue_then_red(s, [f"disengage R13 {dest}"])
        gm = {u["id"]: u["cell"] for u in s["gm"].view()["view"]["units"]}
        assert gm["R13"] == [int(v) for v in dest.split(",")]
        worlds.append((game, s))
    pages = [open_table(browser, "pl1", g["seats"]["pl1"]["url"]) for g, _ in worlds]
    for tp in pages:
        mark = tp.page.locator('#lastknown li[data-key="R13"]')
        mark.wait_for(timeout=5000)
        assert mark.get_attribute("data-cell") == "3,4"
        assert mark.get_attribute("data-age") == "1"
        assert "3,4" in mark.inner_text() and "1 kierros sitten" in mark.inner_text()
        tp.page.wait_for_function("document.getElementById('map').dataset.lastknown === '1'")
    a, b = pages
    canvas = "document.getElementById('map').toDataURL()"
    assert a.page.locator("#lastknown").inner_html() == b.page.locator("#lastknown").inner_html()
    assert a.page.evaluate(canvas) == b.page.evaluate(canvas)
    fresh = _marker_ink(a, (3, 4))
    assert fresh > 0
    for _game, s in worlds:  # two more rounds: the marker is three rounds old
        _blue_then_red(s, [])
        _blue_then_red(s, [])
    for tp in pages:
        tp.page.locator('#lastknown li[data-key="R13"][data-age="3"]').wait_for(timeout=5000)
    old = _marker_ink(a, (3, 4))
    assert 0 < old < fresh * 0.7, (old, fresh)  # fade(1) = 0.7 → fade(3) = 0.3
    assert a.page.locator("#lastknown").inner_html() == b.page.locator("#lastknown").inner_html()
    assert a.page.evaluate(canvas) == b.page.evaluate(canvas)
    for tp in pages:
        tp.page.context.close()


def test_lobby_creates_a_game_with_rule_options_and_lists_the_gms_games(
    browser: Any, web_server: Server
) -> None:
    """Issue 11's lobby: rule options for the new game (a bad one refused with the server's
    words, nothing created), the computer's level, and "Omat pelit": the games this browser
    created, with their state read with the GM's link, kept over a reload, removable."""
    ctx = browser.new_context(viewport={"width": 1366, "height": 900})
    page = ctx.new_page()
    page.goto(web_server.base + "/")
    form = page.locator('form.create[data-scenario="demo"]')
    form.wait_for(timeout=15000)
    assert "Tällä selaimella ei ole luotu pelejä" in page.locator("#own-games").inner_text()
    form.locator("details.rule-options summary").click()
    form.locator("select.opt-name").select_option("thicket_move_cost")
    form.locator("input.opt-value").fill("3")  # not one of its choices (2, 4)
    form.locator("button.opt-add").click()
    assert (
        form.locator('li[data-option="thicket_move_cost"]')
        .inner_text()
        .startswith("thicket_move_cost = 3")
    )
    form.locator("button[type=submit]").click()
    error = page.locator("#scenario-demo .links .error")
    error.wait_for(timeout=10000)
    assert "thicket_move_cost" in error.inner_text()
    assert page.locator("#own-games li[data-game]").count() == 0
    form.locator('li[data-option="thicket_move_cost"] button').click()
    form.locator("select.opt-name").select_option("sight_max")
    form.locator("input.opt-value").fill("8")
    form.locator("button.opt-add").click()
    form.locator("select[name=level]").select_option("easy")
    form.locator("button[type=submit]").click()
    page.locator("#scenario-demo li[data-seat]").first.wait_for(timeout=15000)
    mine = page.locator("#own-games li[data-game]")
    assert mine.count() == 1
    game_id = mine.get_attribute("data-game")
    state = mine.locator('.state[data-state="running"]')
    state.wait_for(timeout=10000)
    assert "Kierros 1/6" in state.inner_text()
    gm_url = mine.locator("a.gmlink").get_attribute("href")
    assert gm_url and f"game={game_id}" in gm_url
    gm = seats(web_server, {"id": game_id, "seats": {"gm": {"token": token_of(gm_url)[1]}}})["gm"]
    exported = gm.get("/export")
    assert exported.status_code == 200, exported.text
    assert '"sight_max": 8' in exported.text.replace('"sight_max":8', '"sight_max": 8')
    page.reload()
    page.locator('#own-games li[data-game] .state[data-state="running"]').wait_for(timeout=10000)
    page.locator("#own-games li[data-game] button.forget").click()
    assert page.locator("#own-games li[data-game]").count() == 0
    ctx.close()
