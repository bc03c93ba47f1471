"""The terminal game's screen (issue 9): it fits 80×24, its map window and key, marks that
read without colour, the live score and the end screen, and ``show --window``."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path

import pytest
from rich.text import Text
from typer.testing import CliRunner

from taistelukentta.bots import simulate
from taistelukentta.cli.app import app
from taistelukentta.cli.common import set_colour
from taistelukentta.cli.mapdraw import (
    ENEMY_LETTERS,
    SIDE_STYLE,
    TERRAIN_DRAW,
    Window,
    pick_window,
    side_lists,
    view_marks,
)
from taistelukentta.cli.screen import play_screen
from taistelukentta.content.scenario import load_scenario
from taistelukentta.rules import GameState, apply, new_game
from taistelukentta.rules.recon import ContactLevel
from taistelukentta.rules.victory import score
from taistelukentta.storage.gamefile import load_game
from taistelukentta.views import view_for
from taistelukentta.views.models import SideView
from taistelukentta.views.score import score_of
from tests.engine.conftest import with_contact, with_unit

runner = CliRunner()


@pytest.fixture(autouse=True)
def _colour_back() -> Iterator[None]:
    """A test may turn colours off: back on (the language is reset by the conftest)."""
    yield
    set_colour(True)


@lru_cache(maxsize=2)
def _played(scenario: str, seed: int) -> tuple[GameState, ...]:
    """Every state of a bot game (both sides computer)."""
    scen = load_scenario(scenario)
    state = new_game(scen, seed)
    _, played = simulate(scen, seed)
    out = [state]
    for p in played:
        state, _ = apply(state, p.seat, p.order)
        out.append(state)
    return tuple(out)


def _screen(state: GameState, side: str, width: int = 79, height: int = 24) -> list[Text]:
    view = view_for(state, side)
    return play_screen(
        view,
        state.scenario,
        score_of(view, state.scenario.victory),
        ["viesti " * 30, *(f"rivi {i}" for i in range(20))],
        kp="co 5, pl1 3, pl2 3",
        width=width,
        height=height,
    )


@pytest.mark.parametrize("scenario", ["demo", "terasvalli"])
@pytest.mark.parametrize(("width", "height"), [(79, 24), (119, 40)])
def test_play_screen_fits_the_terminal(scenario: str, width: int, height: int) -> None:
    """Every screen of a whole game, both sides: at most height-1 lines (the prompt is the
    last) of at most ``width`` columns, long messages cut to the room left."""
    states = _played(scenario, 3)
    for state in states[:: max(1, len(states) // 12)]:
        for side in ("blue", "red"):
            lines = _screen(state, side, width, height)
            assert len(lines) <= height - 1
            assert all(line.cell_len <= width for line in lines), [
                line.plain for line in lines if line.cell_len > width
            ]
            text = "\n".join(line.plain for line in lines)
            assert "VP nyt" in text or "Lopulliset VP" in text
            assert "rivi 19" in text  # the newest message is shown
            assert "riviä välissä" in text and "viesti" in text  # the cut said, first kept


def test_play_screen_map_window_is_around_own_units() -> None:
    state = _played("terasvalli", 3)[0]
    view = view_for(state, "blue")
    own = [u.cell for u in view.units]
    window = pick_window(60, 40, 40, 13, own)
    assert window.width == 40 and window.height == 13
    xs, ys = [c[0] for c in own], [c[1] for c in own]
    centre = ((min(xs) + max(xs)) // 2, (min(ys) + max(ys)) // 2)
    assert centre in window or window.x0 in (0, 20) or window.y0 in (0, 27)
    # kept inside the map at the edges
    assert pick_window(60, 40, 40, 13, [(0, 0)]) == pick_window(60, 40, 40, 13, [(1, 1)])
    assert pick_window(60, 40, 40, 13, [(59, 39)]).x0 == 20
    assert pick_window(30, 20, 80, 50, []).width == 30  # never wider than the map


def test_marks_read_without_colour() -> None:
    """Objectives, own units, enemies, contacts: each a character of its own without colour;
    water is drawn unlike a Blue unit."""
    state = new_game(load_scenario("demo"), 7)
    state = with_contact(state, "blue", "R11", ContactLevel.SPOTTED)
    state = with_contact(state, "blue", "R12", ContactLevel.KNOWN)
    view = view_for(state, "blue")
    marks = view_marks(view, colour=False)
    objective_cells = {c for o in view.objectives for c in o.cells}
    unit_cells = {u.cell for u in view.units}
    assert {marks.cells[c][0] for c in objective_cells - unit_cells} == {"O"}
    own = {marks.cells[u.cell][0] for u in view.units if u.side == "blue"}
    assert own <= set("K123456789&")
    letters = [letter for letter, _, _ in marks.enemies]
    assert letters == ["A"] and marks.enemies[0][2][0].id == "R11"
    listed = [line.plain for line in side_lists(view, marks, Window(0, 0, 30, 20), 60)]
    assert isinstance(view, SideView)
    label = next(c.label for c in view.contacts if c.unit == "R11")
    assert any(line.startswith(f"A R11/{label} ") for line in listed), listed
    terrain_chars = {char for _, char, *_ in TERRAIN_DRAW}
    assert not set(ENEMY_LETTERS) & (terrain_chars | own | {"K", "O"})
    assert [m for m, _, _ in marks.contacts] == ["!"]
    water = next(style for feat, _, style, *_ in TERRAIN_DRAW if feat == "water")
    assert "on blue" not in water and water != SIDE_STYLE["blue"]
    # with colour the objective keeps its terrain character under a coloured cell
    coloured = view_marks(view, colour=True)
    assert {coloured.cells[c][0] for c in objective_cells - unit_cells} == {""}


def test_two_units_in_one_cell_are_shown_as_such() -> None:
    state = new_game(load_scenario("demo"), 7)
    state = with_unit(state, "1R2", cell=state.units["1R1"].cell)
    marks = view_marks(view_for(state, "blue"), colour=False)
    cell = state.units["1R1"].cell
    assert marks.cells[cell][0] == "&"
    assert marks.stacks == [(cell, ["1R1", "1R2"])]
    out = "\n".join(line.plain for line in _screen(state, "blue"))
    assert "& 7,6: 1R1, 1R2" in out


def test_screen_shows_no_unseen_enemy() -> None:
    """A Red unit Blue has no SPOTTED contact on appears nowhere on Blue's screen: not its
    id, not a mark on its cell."""
    state = new_game(load_scenario("demo"), 7)
    out = "\n".join(line.plain for line in _screen(state, "blue"))
    for uid, unit in state.units.items():
        if unit.side == "red":
            assert uid not in out
    marks = view_marks(view_for(state, "blue"), colour=False)
    assert not marks.enemies


def test_r_turn_2_live_score_of_the_game_master_is_the_rules_score() -> None:
    """The game master's live score equals rules.victory.score at every point of a game;
    after the game every side's score is the final one of game_over."""
    states = _played("demo", 3)
    for state in states[::7]:
        exact = score_of(view_for(state, "gm"), state.scenario.victory)
        vp, _ = score(state.scenario, state.units, state.destroyed)
        if state.finished:
            vp = dict(state.vp or {})
        assert {s: p.total for s, p in exact.sides.items()} == vp
    last = states[-1]
    assert last.finished
    for side in ("blue", "red"):
        final = score_of(view_for(last, side), last.scenario.victory)
        assert final.final and final.winner == last.winner
        assert {s: p.total for s, p in final.sides.items()} == last.vp


def test_r_turn_2_side_score_ignores_an_unseen_enemy_on_an_objective() -> None:
    """Blue's estimate does not change when an unseen Red unit stands on an objective; it
    does when Blue sees it there."""
    base = new_game(load_scenario("demo"), 7)
    obj = base.scenario.objectives[0]
    moved = with_unit(base, "R11", cell=obj.cells[0])
    victory = base.scenario.victory

    def totals(state: GameState) -> dict[str, int]:
        return {s: p.total for s, p in score_of(view_for(state, "blue"), victory).sides.items()}

    assert totals(moved) == totals(base)
    seen = with_contact(moved, "blue", "R11", ContactLevel.SPOTTED)
    assert totals(seen)["red"] == totals(base)["red"] + obj.vp


def _strip(text: str) -> str:
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text)


def test_play_end_screen_explains_the_result(tmp_path: Path) -> None:
    """A game played to the end with done only: the end screen names the winner, the
    reason, every objective and each side's parts, adding up to the saved VP."""
    path = tmp_path / "end.json"
    result = runner.invoke(
        app, ["play", "demo", "--seed", "4", "--out", str(path)], input="done\n" * 40
    )
    assert result.exit_code == 0, result.output
    out = " ".join(_strip(result.stdout).split())  # rich's wrapping undone
    record = load_game(path)
    state = record.state or {}
    vp = state.get("vp") or {}
    assert "PELI PÄÄTTYI" in out and "R-TURN-2" in out
    assert "Myllykylän tienristeys (3 VP)" in out and "Kotkanmäki (2 VP)" in out
    assert f"Sininen {vp['blue']} VP, Punainen {vp['red']} VP" in out
    for side, key in (("Sininen", "blue"), ("Punainen", "red")):
        parts = re.search(
            rf"{side}: tavoitteet (\d+) \+ tuhotut (\d+) × 1 = \S+ \+ tappiot (\d+) × −1 = \S+ "
            rf"→ (-?\d+) VP",
            out,
        )
        assert parts is not None, out
        objectives, kills, losses, total = (int(g) for g in parts.groups())
        assert objectives + kills - losses == total == vp[key]


def test_show_window_options(tmp_path: Path) -> None:
    path = tmp_path / "w.json"
    assert runner.invoke(app, ["new", "demo", "--seed", "7", "--out", str(path)]).exit_code == 0
    r = runner.invoke(
        app,
        ["show", str(path), "--as", "blue", "--window", "--centre", "15,10", "--size", "10x5"],
    )
    assert r.exit_code == 0, r.output
    assert "Ikkuna 10–19,8–12 (kartta 30×20" in r.stdout
    rows = [line for line in r.stdout.splitlines() if re.match(r"^\s?\d+ \S{10}$", line)]
    assert [int(line.split()[0]) for line in rows] == [8, 9, 10, 11, 12]
    whole = runner.invoke(app, ["show", str(path), "--as", "blue"])
    assert "Ikkuna" not in whole.stdout and " 19 " in whole.stdout + " 19 "
    for bad, word in (["--size", "10"], "--size"), (["--centre", "99,1"], "--centre"):
        r = runner.invoke(app, ["show", str(path), "--as", "blue", *bad])
        assert r.exit_code == 2 and word in r.output
    r = runner.invoke(app, ["show", str(path), "--as", "blue", "--full", "--window"])
    assert r.exit_code == 2 and "--full" in r.output


def test_no_color_option_marks_objectives(tmp_path: Path) -> None:
    path = tmp_path / "n.json"
    assert runner.invoke(app, ["new", "demo", "--seed", "7", "--out", str(path)]).exit_code == 0
    r = runner.invoke(app, ["--no-color", "show", str(path), "--as", "blue"])
    assert r.exit_code == 0
    row = next(line for line in r.stdout.splitlines() if line.startswith("10 "))
    assert row[3 + 14 : 3 + 17] == "OOO"  # the crossroads objective, x 14-16
    assert "O tavoite" in r.stdout


def test_odds_before_a_confirmation_are_shown_whole() -> None:
    """Messages are wrapped, not cut; with keep_messages the map gives them room."""
    state = _played("demo", 3)[0]
    view = view_for(state, "blue")
    odds = [f"rivi {i} " + "sana " * 20 for i in range(6)]  # 6 lines, each wraps to 2
    for keep in (False, True):
        lines = play_screen(
            view,
            state.scenario,
            score_of(view, state.scenario.victory),
            odds,
            kp="co 5",
            width=79,
            height=24,
            keep_messages=keep,
        )
        text = "\n".join(line.plain for line in lines)
        assert len(lines) <= 23 and all(line.cell_len <= 79 for line in lines)
        assert ("rivi 1 " in text) is keep  # cut in the middle unless kept
        assert "rivi 5 " in text and ("riviä välissä" in text) is not keep


def test_game_masters_map_letters_red_units() -> None:
    """Without colour the game master still tells the sides apart: Red's units lettered and
    listed, Blue's by platoon."""
    state = new_game(load_scenario("demo"), 7)
    marks = view_marks(view_for(state, "gm"), colour=False)
    red = {u.cell for u in state.units.values() if u.side == "red"}
    blue = {u.cell for u in state.units.values() if u.side == "blue"}
    assert {marks.cells[c][0] for c in red} <= set(ENEMY_LETTERS)
    assert {marks.cells[c][0] for c in blue} <= set("K123456789&")
    listed = {u.id for _, _, units in marks.enemies for u in units}
    assert listed == {uid for uid, u in state.units.items() if u.side == "red"}
