"""``tk20 los`` / ``tk20 reach`` on a scenario or a game file with ``--as`` and ``--unit``,
and ``los``/``reach`` inside ``tk20 play`` (issue 9): a side uses only what it knows."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from taistelukentta.cli.app import app
from taistelukentta.content.scenario import load_scenario
from taistelukentta.errors import ArgumentError
from taistelukentta.grid import line_of_sight
from taistelukentta.rules import OrderKind, legal_orders, new_game
from taistelukentta.rules.recon import ContactLevel
from taistelukentta.storage.session import open_game
from taistelukentta.views.sight import side_reach
from tests.engine.conftest import with_contact, with_unit

runner = CliRunner()


def _json(args: list[str]) -> dict[str, Any]:
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert isinstance(data, dict)
    return data


def _err(args: list[str]) -> str:
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    return " ".join(result.output.split())


def test_r_ter_4_los_from_a_unit_of_a_game_file(game: Path) -> None:
    state = open_game(game).state
    start = state.units["1R1"].cell
    out = _json(["los", str(game), "--as", "pl1", "--unit", "1r1", "--to", "16,10"])
    sight = line_of_sight(state.scenario.map, start, (16, 10))
    assert out["from"] == list(start) and out["visible"] == sight.visible
    assert out["cover"] == sight.cover and out["limited_by"] == sight.limited_by
    # a scenario id gives its map
    by_id = _json(["los", "demo", "--from", f"{start[0]},{start[1]}", "--to", "16,10"])
    assert by_id["visible"] == sight.visible and by_id["cover"] == sight.cover


def test_r_rec_5_los_and_reach_name_no_unseen_enemy(game: Path) -> None:
    """An unseen Red unit gets the very answer a unit that does not exist gets."""
    unseen = _err(["los", str(game), "--as", "blue", "--unit", "1R1", "--to", "R11"])
    none = _err(["los", str(game), "--as", "blue", "--unit", "1R1", "--to", "R99"])
    assert unseen.replace("R11", "X") == none.replace("R99", "X")
    assert "tuntematon yksikkö" in unseen
    unseen = _err(["reach", str(game), "--as", "blue", "--unit", "R11"])
    none = _err(["reach", str(game), "--as", "blue", "--unit", "R99"])
    assert unseen.replace("R11", "X") == none.replace("R99", "X")
    # the game master names every unit
    assert _json(["reach", str(game), "--as", "gm", "--unit", "R11"])["unit"] == "R11"


def test_r_ter_3_reach_of_a_unit_is_its_legal_moves(game: Path) -> None:
    state = open_game(game).state
    moves = {
        o.cell
        for o in legal_orders(state, "pl1")
        if o.kind == OrderKind.MOVE and o.unit == "1R1" and o.cell is not None
    }
    out = _json(["reach", str(game), "--as", "pl1", "--unit", "1R1"])
    assert {tuple(c) for c in out["cells"]} == moves
    assert out["unit"] == "1R1" and out["from"] == list(state.units["1R1"].cell)
    text = runner.invoke(app, ["--no-color", "reach", str(game), "--as", "pl1", "--unit", "1R1"])
    assert text.exit_code == 0
    assert f"1R1 {len(moves)} ruutua saavutettavissa" in " ".join(text.stdout.split())


def test_r_zoc_1_reach_uses_only_the_sides_knowledge() -> None:
    """A Red unit next to 1R1 changes Blue's reach only once Blue has SPOTTED it."""
    base = new_game(load_scenario("demo"), 7)
    cell = base.units["1R1"].cell
    near = (cell[0] + 1, cell[1])
    moved = with_unit(base, "R11", cell=near)
    assert side_reach(moved, "blue", "1R1").cells == side_reach(base, "blue", "1R1").cells
    seen = with_contact(moved, "blue", "R11", ContactLevel.SPOTTED)
    assert near not in side_reach(seen, "blue", "1R1").cells
    assert near in side_reach(base, "blue", "1R1").cells
    with pytest.raises(ArgumentError, match="not one of your units"):
        side_reach(seen, "blue", "R11")


def test_los_reach_option_errors(game: Path) -> None:
    assert "--as" in _err(["reach", str(game), "--unit", "1R1"])
    assert "pelitiedoston" in _err(["los", "demo", "--as", "blue", "--unit", "1R1", "--to", "1,1"])
    assert "--from" in _err(["reach", "demo", "--movement", "3"])
    assert "pl9" in _err(["reach", str(game), "--as", "pl9", "--unit", "1R1"])
    assert "--movement" in _err(
        ["reach", str(game), "--as", "blue", "--unit", "1R1", "--movement", "3"]
    )


def test_los_and_reach_inside_play(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    script = "los 1R1 16, 10\nnäkyvyys 1r1 R99\nreach 1R1\nliikealue\nquit\n"
    result = runner.invoke(
        app, ["--no-color", "play", "demo", "--seed", "7", "--out", str(path)], input=script
    )
    assert result.exit_code == 0, result.output
    out = " ".join(result.stdout.split())
    assert "Näköyhteys 1R1 (7,6) → 16,10" in out
    assert "tuntematon yksikkö 'R99'" in out
    assert "1R1" in out and "ruutua saavutettavissa liikkeellä" in out
    assert "Käyttö: reach YKSIKKÖ" in out
    assert len(open_game(path).record.orders) == 0  # tools give no order
