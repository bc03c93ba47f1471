"""The roster in and out of a battle: slots filled by name or card, refusals, results."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from taistelukentta.bots.runner import simulate
from taistelukentta.content.loader import parse_toml, read_text
from taistelukentta.content.scenario import Scenario, scenario_from_data, scenarios_dir
from taistelukentta.rules.campaign import (
    Buy,
    CampaignError,
    CampaignRules,
    Roster,
    apply_action,
    apply_battle,
    new_roster,
)
from taistelukentta.rules.campaign_battle import (
    apply_overlay,
    battle_overlay,
    battle_result,
    kills_from_events,
    roster_units,
)
from taistelukentta.rules.engine import new_game

WHEN = "2026-12-01T18:00:00+00:00"
CARDS = {"jaakariryhma": (10, 1, 0)}


def demo_data() -> dict[str, Any]:
    path = scenarios_dir() / "demo.toml"
    return parse_toml(read_text(path), str(path))


def load(data: dict[str, Any]) -> Scenario:
    return scenario_from_data(data, source="demo", base_dir=scenarios_dir(), default_id="demo")


def demo_roster() -> tuple[Roster, Scenario]:
    scenario = load(demo_data())
    rules = CampaignRules.from_options(scenario.options)
    return new_roster("Demo", roster_units(scenario), rules, actor="gm", when=WHEN), scenario


def test_r_camp_5_roster_units_replace_blue_units_by_name() -> None:
    roster, scenario = demo_roster()
    assert {u.name for u in roster.units} == {
        p.id for side, _, p in scenario.placements() if side == "blue"
    }
    units = list(roster.units)
    units[2] = replace(units[2], xp=23, strength=4, abilities=("parannettu_sisu",))
    roster = replace(roster, units=tuple(units))
    data = demo_data()
    game = new_game(load(apply_overlay(data, battle_overlay(data, roster))), 1)
    u = game.units[units[2].name]
    assert (u.xp, u.strength) == (23, 4)
    assert game.scenario.unit(units[2].name).veteran == ["parannettu_sisu"]


def test_missing_unit_refused_unless_left_out_and_bought_unit_fills_the_slot() -> None:
    roster, _ = demo_roster()
    gone = roster.unit("1R2")
    assert gone is not None
    roster = replace(roster, units=tuple(u for u in roster.units if u.name != "1R2"), tp=20)
    data = demo_data()
    with pytest.raises(CampaignError, match=r"1R2 \(jaakariryhma\)"):
        battle_overlay(data, roster)
    left = battle_overlay(data, roster, leave_out=["1R2"])
    game = new_game(load(apply_overlay(data, left)), 1)
    assert "1R2" not in game.units and left["left_out"] == ["1R2"]
    bought = apply_action(roster, Buy("jaakariryhma", "1R9"), actor="gm", when=WHEN, cards=CARDS)
    overlay = battle_overlay(data, bought)
    assert overlay["slots"]["1R2"]["name"] == "1R9"
    game = new_game(load(apply_overlay(data, overlay)), 1)
    assert "1R9" in game.units and "1R2" not in game.units
    with pytest.raises(CampaignError, match="no such unit"):
        battle_overlay(data, roster, leave_out=["NOPE"])


def test_leaving_out_a_leader_drops_the_seat_leader() -> None:
    roster, _ = demo_roster()
    data = demo_data()
    scenario = load(apply_overlay(data, battle_overlay(data, roster, leave_out=["1JJ"])))
    assert scenario.seat("pl1").leader is None


def test_battle_result_of_a_computer_game_applies_by_rule() -> None:
    roster, _ = demo_roster()
    data = demo_data()
    scenario = load(apply_overlay(data, battle_overlay(data, roster)))
    state, played = simulate(scenario, 5)
    assert state.vp is not None and state.winner is not None
    events = [e for p in played for e in p.events]
    result = battle_result(
        game="g",
        scenario=scenario,
        roster=roster,
        units=state.units,
        destroyed=state.destroyed["blue"],
        winner=state.winner,
        blue_vp=state.vp["blue"],
        kills=kills_from_events(events),
    )
    after = apply_battle(roster, result, when=WHEN)
    fought = len(result.units)
    share = max(0, state.vp["blue"]) // fought
    for end in result.units:
        u = after.unit(end.name)
        if end.strength == 0:
            assert u is None and end.name in state.destroyed["blue"]
        else:
            assert u is not None and u.strength == state.units[end.name].strength
            damaged = u.damaged(roster.rules)
            assert u.xp == (share // 2 if damaged else share)
    red_destroyed = len(state.destroyed["red"])
    assert sum(kills_from_events(events).values()) <= red_destroyed


def _attack(attacker: str, target: str, kind: str = "attack") -> dict[str, Any]:
    return {"kind": "attack", "data": {"attacker": attacker, "target": target, "kind": kind}}


def _destroyed(unit: str, reason: str) -> dict[str, Any]:
    return {"kind": "destroyed", "data": {"unit": unit, "cell": [0, 0], "reason": reason}}


def test_r_camp_2_a_kill_is_credited_only_to_the_attack_that_destroyed() -> None:
    events = [
        _attack("1R1", "R1"),
        _destroyed("R1", "attack"),  # the attack destroyed it: credited
        _attack("1R2", "R2", "fire"),
        _destroyed("R2", "fire"),  # fire that destroyed: credited
        _attack("1R1", "R3"),  # damaged only ...
        _destroyed("R3", "strike:s1"),  # ... a strike destroyed it later: nobody
        _attack("1R2", "R4"),
        _destroyed("R4", "mine"),  # a mine: nobody
        _attack("1R1", "R5"),
        _destroyed("R5", "area_fire"),  # area fire: nobody
        _destroyed("R6", "attack"),  # no attack on record: nobody
    ]
    assert kills_from_events(events) == {"1R1": 1, "1R2": 1}
