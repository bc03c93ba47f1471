"""Veteran abilities played by the engine (R-CAMP-3)."""

from __future__ import annotations

from typing import Any

import pytest

from taistelukentta.content.scenario import scenario_from_data
from taistelukentta.errors import DataError
from taistelukentta.rules.engine import new_game
from taistelukentta.rules.state import GameState
from taistelukentta.rules.status import morale_test
from tests.engine.conftest import Dice, build_data, open_rows
from tests.engine_company.helpers import surgery

SQUAD = "jaakariryhma"
RED = "motorisoitu_jalkavakiryhma"


def veteran_game(abilities: list[str], **options: Any) -> GameState:
    data = build_data(
        open_rows(12, 7, ","), [("1R1", SQUAD, (2, 3))], [("R1", RED, (9, 3))], options=options
    )
    for seat in data["blue"]["seats"]:
        for p in seat["units"]:
            if p["id"] == "1R1":
                p["veteran"] = abilities
    return new_game(scenario_from_data(data), 9)


def test_r_camp_3_parannettu_sisu_passes_one_failed_morale_test_per_battle(dice: Dice) -> None:
    st = veteran_game(["parannettu_sisu"])
    dice.script(4)  # M 2, DC 12: 6 → SUPPRESSED, but sisu passes it
    once = surgery(st, lambda tx: morale_test(tx, "1R1", 12, "test"))
    u = once.units["1R1"]
    assert (u.shaken, u.suppressed, u.retreating) == (None, None, None)
    assert u.ext["veteran"] == {"sisu": 1}
    dice.script(4)  # the second failure in the battle counts
    twice = surgery(once, lambda tx: morale_test(tx, "1R1", 12, "test"))
    assert twice.units["1R1"].suppressed == st.turn_no
    dice.script(4)
    plain = surgery(veteran_game([]), lambda tx: morale_test(tx, "1R1", 12, "test"))
    assert plain.units["1R1"].suppressed == st.turn_no


def test_r_camp_3_sisu_not_spent_on_a_passed_test_and_uses_are_an_option(dice: Dice) -> None:
    st = veteran_game(["parannettu_sisu"], sisu_uses_per_battle=2)
    dice.script(19)
    passed = surgery(st, lambda tx: morale_test(tx, "1R1", 12, "test"))
    assert "veteran" not in passed.units["1R1"].ext
    dice.script(1, 1)
    st2 = surgery(passed, lambda tx: morale_test(tx, "1R1", 12, "test"))
    st2 = surgery(st2, lambda tx: morale_test(tx, "1R1", 12, "test"))
    assert st2.units["1R1"].retreating is None and st2.units["1R1"].ext["veteran"] == {"sisu": 2}


def test_unknown_veteran_ability_refused() -> None:
    with pytest.raises(DataError, match="not a veteran ability"):
        veteran_game(["drone"])
