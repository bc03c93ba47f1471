"""The print of a running game (issue 14): each side's current knowledge, read back.

A Blue print shows Blue's units where they are now (TK, statuses), the Red units Blue spots,
its other contacts where it last placed them and the mine cells it knows — never a Red unit
Blue does not see, nor a Red minefield; the GM's print shows everything as it stands. Both
the PDF text and the rendered pixels are checked, for the library call, ``tk20 map`` on a
game file and (tests/server/test_print_editor.py) the server's ``/print``."""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET
from functools import cache
from pathlib import Path

import numpy as np
from matplotlib.image import imread
from pypdf import PdfReader
from typer.testing import CliRunner

from taistelukentta.bots.players import make_bot
from taistelukentta.bots.runner import bot_order
from taistelukentta.cli.app import app
from taistelukentta.content.scenario import load_scenario
from taistelukentta.mapprint import (
    game_print_content,
    render_pdf,
    render_png,
    render_svg_pages,
)
from taistelukentta.mapprint.layout import plan
from taistelukentta.rules import GameState, apply, new_game
from taistelukentta.rules.orders import format_order
from taistelukentta.rules.turn_order import next_seat
from taistelukentta.storage.gamefile import GameRecord, OrderEntry, save_game
from taistelukentta.views import view_for
from taistelukentta.views.models import SideView

DPI = 127  # 5 px per mm
BLUE_FILL = (0xCF, 0xE0, 0xFF)
RED_FILL = (0xFF, 0xD0, 0xCC)


@cache
def _running() -> tuple[GameState, tuple[OrderEntry, ...]]:
    """The demo played by the computer until Blue spots a Red unit and knows another only
    as a contact (an area), with Blue's units moved from their set-up."""
    scenario = load_scenario("demo")
    state = new_game(scenario, 7)
    orders: list[OrderEntry] = []
    start = {p.id: p.cell for side, _, p in scenario.placements() if side == "blue"}
    for i in range(200):
        seat = next_seat(state)
        assert seat is not None, "the game ended before the situation the test needs"
        order = bot_order(state, seat, make_bot("baseline", i))
        state, _ = apply(state, seat, order)
        orders.append(OrderEntry(seat, format_order(order)))
        view = view_for(state, "blue", log_limit=0)
        assert isinstance(view, SideView)
        moved = [u for u in view.own_units() if u.cell != start[u.id]]
        unseen = [c for c in view.contacts if c.unit is None and c.area is not None]
        if view.enemy_units() and unseen and len(moved) >= 3 and next_seat(state) is not None:
            return state, tuple(orders)
    raise AssertionError("no running situation with contacts in 200 orders")


def _tokens(text: str) -> set[str]:
    return set(re.findall(r"[\w/-]+", text))


def _svg_text(data: bytes) -> str:
    root = ET.fromstring(data)
    return "\n".join("".join(el.itertext()) for el in root.iter("{http://www.w3.org/2000/svg}text"))


def _pdf_tokens(data: bytes) -> set[str]:
    return _tokens("\n".join(p.extract_text() for p in PdfReader(io.BytesIO(data)).pages))


def _red_secrets(state: GameState, seen: set[str]) -> set[str]:
    """Red's ids Blue does not see, every minefield id and the GM's marking."""
    s = state.scenario
    red = {p.id for side, _, p in s.placements() if side == "red"}
    return (red - seen) | {m.id for m in s.secrets.minefields} | {"PELINJOHTAJAN", "MASTER"}


_PAGES: dict[tuple[int, int], np.ndarray] = {}


def _fill_at(content: object, cell: tuple[int, int], colour: tuple[int, int, int]) -> int:
    """Pixels of ``colour`` in the middle of ``cell`` on the page that shows it (0 if none)."""
    sheet = plan(content.game_map.width, content.game_map.height, "A4")  # type: ignore[attr-defined]
    for tile in sheet.tiles:
        if tile.x0 <= cell[0] < tile.x1 and tile.y0 <= cell[1] < tile.y1:
            break
    else:
        raise AssertionError(cell)
    key = (id(content), tile.index)
    if key not in _PAGES:
        png = render_png(content, "A4", tile.index, dpi=DPI)  # type: ignore[arg-type]
        _PAGES[key] = np.asarray(imread(io.BytesIO(png), format="png")[..., :3] * 255, dtype=float)
    rgb = _PAGES[key]
    px = (sheet.map_left + (cell[0] - tile.x0) * 10) * 5
    py = (sheet.map_top + (cell[1] - tile.y0) * 10) * 5
    box = rgb[int(py) + 15 : int(py) + 35, int(px) + 12 : int(px) + 38]
    close = np.all(np.abs(box - np.array(colour)) < 6, axis=-1)
    return int(close.sum())


def test_blue_print_of_a_running_game_shows_blue_knowledge_now() -> None:
    state, _ = _running()
    view = view_for(state, "blue", log_limit=0)
    assert isinstance(view, SideView)
    content = game_print_content(state, "blue", "fi")
    own = {u.id: u for u in view.own_units()}
    seen = {u.id for u in view.enemy_units()}
    printed = {u.id: u for u in content.units}
    # own units where they are now, with TK; the spotted enemy; nothing else
    assert {k for k, u in printed.items() if u.side == "blue"} == set(own)
    assert {k for k, u in printed.items() if u.side == "red"} == seen
    for uid, u in own.items():
        assert printed[uid].cell == u.cell
        assert printed[uid].detail.startswith(f"{u.strength}/{u.max_strength}")
    areas = [c for c in content.contacts if len(c.cells) > 1]
    assert areas and all(c.label.startswith("c") for c in content.contacts)
    assert not content.minefields or all(not m.id for m in content.minefields)
    # read back: PDF and SVG text hold the own units and no Red secret
    secrets = _red_secrets(state, seen)
    pdf = _pdf_tokens(render_pdf(content))
    svg = _tokens("\n".join(_svg_text(p) for p in render_svg_pages(content)))
    assert set(own) <= pdf and "kierros" in pdf and "Tiedossa" in pdf
    assert not (secrets & pdf), secrets & pdf
    assert not (secrets & svg), secrets & svg
    # pixels: a Blue counter where a moved unit is now, none where it started
    start = {p.id: p.cell for side, _, p in state.scenario.placements() if side == "blue"}
    now = {u.cell for u in own.values()}
    moved = next(u for u in own.values() if start[u.id] not in now)
    assert _fill_at(content, moved.cell, BLUE_FILL) > 50
    assert _fill_at(content, start[moved.id], BLUE_FILL) == 0
    # no Red counter where an unseen Red unit stands
    hidden = [u for u in state.units.values() if u.side == "red" and u.id not in seen]
    assert hidden
    for hid in hidden[:2]:
        if hid.cell not in {p.cell for p in printed.values()}:
            assert _fill_at(content, hid.cell, RED_FILL) == 0


def test_gm_print_of_a_running_game_shows_everything_now() -> None:
    state, _ = _running()
    content = game_print_content(state, "gm", "en")
    alive = {u.id: u.cell for u in state.units.values()}
    assert {u.id: u.cell for u in content.units} == alive
    assert {m.id for m in content.minefields} <= {m.id for m in state.scenario.secrets.minefields}
    assert content.minefields and not content.contacts
    text = _pdf_tokens(render_pdf(content))
    assert {u for u, _ in alive.items()} <= text and "MASTER" in text and "round" in text


def test_cli_map_of_a_game_file_prints_each_side_as_it_stands(tmp_path: Path) -> None:
    state, orders = _running()
    game = tmp_path / "game.json"
    save_game(
        game,
        GameRecord("demo", 7, list(orders), state.to_dict(), state.state_hash()),
    )
    runner = CliRunner()
    out = tmp_path / "blue.pdf"
    result = runner.invoke(app, ["map", str(game), "--side", "blue", "--out", str(out)])
    assert result.exit_code == 0, result.output
    view = view_for(state, "blue", log_limit=0)
    assert isinstance(view, SideView)
    seen = {u.id for u in view.enemy_units()}
    text = _pdf_tokens(out.read_bytes())
    assert {u.id for u in view.own_units()} <= text
    assert not (_red_secrets(state, seen) & text)
    assert {f"{u.strength}/{u.max_strength}" for u in view.own_units()} <= text
    gm = tmp_path / "gm.pdf"
    result = runner.invoke(app, ["map", str(game), "--side", "gm", "--out", str(gm)])
    assert result.exit_code == 0, result.output
    red_now = {u.id for u in state.units.values() if u.side == "red"}
    assert red_now <= _pdf_tokens(gm.read_bytes())
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "tk20-game"}', encoding="utf-8")
    result = runner.invoke(app, ["map", str(broken), "--out", str(tmp_path / "b.pdf")])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert not (tmp_path / "b.pdf").exists()
