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


def _with_veteran(data: dict[str, Any], ids: set[str], ability: str) -> dict[str, Any]:
    for force in (data["blue"]["seats"], data["red"]["battle_groups"]):
        for group in force:
            for p in group["units"]:
                if p["id"] in ids:
                    p["veteran"] = [ability]
    return data


def _street_game(urban: bool, **options: Any) -> GameState:
    rows = ["..BBB......."] * 7
    data = build_data(rows, [("1R1", SQUAD, (1, 3))], [("R1", RED, (11, 0))], options=options)
    if urban:
        _with_veteran(data, {"1R1"}, "kaupunkisissi")
    return new_game(scenario_from_data(data), 9)


def _reach(st: GameState) -> dict[tuple[int, int], float]:
    from taistelukentta.rules.context import cache_for
    from taistelukentta.rules.movement import destinations, knowledge

    cache = cache_for(st)
    unit = st.units["1R1"]
    return destinations(cache, unit, knowledge(cache, st.units, st.contacts["blue"], unit))


def test_r_camp_3_kaupunkisissi_moves_into_buildings_as_into_open_ground() -> None:
    plain, urban = _reach(_street_game(False)), _reach(_street_game(True))
    assert plain[(2, 3)] == 2.0 and urban[(2, 3)] == 1.0
    assert plain[(3, 3)] == 4.0 and urban[(3, 3)] == 2.0
    assert (6, 3) not in plain and urban[(6, 3)] == 5.0  # 5 steps, L 5


def test_r_camp_3_kaupunkisissi_under_buildings_block_movement() -> None:
    plain = _reach(_street_game(False, buildings_block_movement=True))
    urban = _reach(_street_game(True, buildings_block_movement=True))
    assert (2, 3) not in plain and not any(x >= 2 for x, _ in plain)
    assert urban[(2, 3)] == 1.0 and (6, 3) in urban


def test_r_camp_3_kaupunkisissi_lets_terasvalli_load_under_buildings_block_movement() -> None:
    from taistelukentta.content.loader import parse_toml, read_text
    from taistelukentta.content.scenario import scenarios_dir

    path = scenarios_dir() / "terasvalli.toml"

    def data() -> dict[str, Any]:
        d = parse_toml(read_text(path), str(path))
        d["options"] = {"buildings_block_movement": True}
        return d

    with pytest.raises(DataError, match="impassable") as refused:
        scenario_from_data(data(), base_dir=path.parent)
    in_buildings = {p.split("'")[1] for p in refused.value.problems if "impassable (building)" in p}
    assert in_buildings == {"R11", "R12", "R13", "R14", "R16"}
    scenario = scenario_from_data(
        _with_veteran(data(), in_buildings, "kaupunkisissi"), base_dir=path.parent
    )
    st = new_game(scenario, 4)
    assert {
        uid for uid in in_buildings if "building" in scenario.map.features_at(st.units[uid].cell)
    }
