"""The typist's help (issue 9): "did you mean", case-insensitive ids, ``12, 7``, refusals
naming what works — from the seat's own knowledge only; and readable help texts."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from taistelukentta.cli.app import app, pick_language
from taistelukentta.cli.typing_help import known_names, normalise
from taistelukentta.content.scenario import load_scenario
from taistelukentta.errors import InvalidOrderError
from taistelukentta.rules import new_game
from taistelukentta.storage.gamefile import load_game

runner = CliRunner()
TK20 = str(Path(sys.executable).parent / "tk20")


@pytest.fixture
def game_seed() -> int:
    return 4


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_spaced_cell_and_lower_case_id_are_accepted(game: Path) -> None:
    out = runner.invoke(app, ["order", str(game), "--as", "pl1", "MOVE 1r1 2, 7"])
    assert out.exit_code == 0, out.output
    assert [o.order for o in load_game(game).orders] == ["move 1R1 2,7"]


def test_misspelt_verb_gets_did_you_mean(game: Path) -> None:
    before = game.read_bytes()
    out = runner.invoke(app, ["--lang", "en", "order", str(game), "--as", "pl1", "mvoe 1R1 2,7"])
    assert out.exit_code == 2
    assert "did you mean move?" in _flat(out.output)
    assert game.read_bytes() == before


def test_unknown_own_unit_gets_did_you_mean(game: Path) -> None:
    out = runner.invoke(app, ["--lang", "en", "order", str(game), "--as", "pl1", "move 1R9 2,7"])
    assert out.exit_code == 2
    assert "did you mean 1R3 / 1R2 / 1R1?" in _flat(out.output)


def test_hints_never_name_an_enemy_the_side_has_not_seen() -> None:
    """R12 stands on the map but Blue has no contact with it: its id is no name Blue may
    use, so no hint and no case-fixing ever produce it."""
    state = new_game(load_scenario("demo"), 4)
    names = known_names(state, "blue")
    assert "R12" in state.units and "R12" not in names
    assert normalise("attack 1R1 r12", names) == "attack 1R1 r12"
    assert all(n in state.units and state.units[n].side == "blue" for n in names)


def test_verb_typo_in_finnish() -> None:
    with pytest.raises(InvalidOrderError) as info:
        normalise("siirry 1R1 2,7", [])
    assert "tarkoititko siirrä" in info.value.fi


def test_english_help_has_no_finnish_and_no_bool() -> None:
    def help_text(args: list[str]) -> str:
        if not args:  # the group's own help: only ``tk20`` itself reads --lang before it
            return subprocess.run(
                [TK20, "--lang", "en", "--help"],
                capture_output=True,
                text=True,
                check=True,
                env={**os.environ, "COLUMNS": "80"},
            ).stdout
        done = runner.invoke(app, ["--lang", "en", *args, "--help"], env={"COLUMNS": "80"})
        assert done.exit_code == 0, done.output
        return done.stdout

    for args in (["order"], ["odds", "attack"], ["new"], ["play"], []):
        out = help_text(args)
        assert "<bool>" not in out
        for word in ("oletus", "Näytä", "Tulosta", "Pelitiedosto", "esim."):
            assert word not in out, (args, word, out)
    fi = runner.invoke(app, ["odds", "attack", "--help"])
    assert fi.exit_code == 0, fi.output
    assert "Näytä tämä ohje" in fi.stdout and "<bool>" not in fi.stdout


def test_pick_language() -> None:
    assert pick_language("Pelitiedosto / game file.", "en") == "Game file."
    assert pick_language("Pelitiedosto / game file.", "fi") == "Pelitiedosto / game file."
    assert pick_language("a / b / c", "en") == "a / b / c"


def test_rules_fit_80_columns() -> None:
    out = subprocess.run(
        [TK20, "rules"],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "COLUMNS": "80"},
    ).stdout
    assert max(len(line) for line in out.splitlines()) <= 80
    assert "diagonal_squeeze  R-GEO-3" in out


def test_units_explain_columns_and_show_weapon_ids() -> None:
    out = _flat(runner.invoke(app, ["--lang", "en", "units"]).output)
    assert "Columns: Str strength (TK)" in out
    assert "pst_ohjus" in out
