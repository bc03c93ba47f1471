"""Odds shown before an order (views/estimate.py): attacks with a chosen weapon and the
rule modules' modifiers (R-ATK-*, R-UNIT-3, R-CO-5), strike footprints (R-OFF-3/4, R-ORG-1)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from functools import lru_cache

import pytest

from taistelukentta.content.scenario import load_scenario
from taistelukentta.errors import ArgumentError
from taistelukentta.odds.strike import strike_odds
from taistelukentta.rules import GameState, apply, new_game, parse_order
from taistelukentta.rules.fire_support import organic_order, strike_order
from taistelukentta.rules.recon import ContactLevel
from taistelukentta.views import attack_estimate, strike_estimate
from tests.golden.test_golden_views import SCRIPT, SEED


@lru_cache(maxsize=4)
def _demo_after(n: int) -> GameState:
    state = new_game(load_scenario("demo"), SEED)
    for seat, text in SCRIPT[:n]:
        state, _ = apply(state, seat, parse_order(text))
    return state


def test_r_atk_2_estimate_matches_the_engines_roll_inputs() -> None:
    """Red's R14 fires at 1R3 (golden script order 23): the estimate's bonus, defence and
    advantage are the ones the engine then logs."""
    state = _demo_after(22)
    est = attack_estimate(state, "red", "R14", "1R3")
    _, events = apply(state, "gm", parse_order("fire R14 1R3"))
    attack = next(e for e in events if e.kind == "attack")
    assert (est.bonus, est.defence, est.advantage.value) == (
        attack.data["bonus"],
        attack.data["defence"],
        attack.data["advantage"],
    )
    assert dict(est.modifiers) == attack.data["modifiers"]


def test_r_unit_3_estimate_with_a_special_weapon() -> None:
    state = _demo_after(23)
    spotted = {uid for uid, c in state.contacts["blue"].items() if c.level == ContactLevel.SPOTTED}
    target = "R13" if "R13" in spotted else sorted(spotted)[0]
    basic = attack_estimate(state, "blue", "1R3", target)
    rpg = attack_estimate(state, "blue", "1R3", target, weapon="kertasinko")
    card = state.scenario.cards["jaakariryhma"]
    w = card.weapon("kertasinko")
    assert w is not None
    assert rpg.weapon == "kertasinko" and basic.weapon == card.basic_weapon.id
    assert dict(rpg.modifiers)["weapon"] == w.attack_bonus
    assert rpg.damage in (w.damage, w.at_damage)
    with pytest.raises(ArgumentError, match="nope"):
        attack_estimate(state, "blue", "1R3", target, weapon="nope")


def test_r_co_5_estimate_includes_a_confirmed_target_bonus() -> None:
    """The company module's attack modifier (confirmed target, R-CO-5) is Blue's own
    knowledge, so Blue's estimate includes it (through fire.hook_attack_modifiers)."""
    state = _demo_after(23)
    before = attack_estimate(state, "blue", "1R3", "R14")
    company = dict(state.ext.get("company") or {})
    company["confirmed"] = {"R14": 2}
    marked = replace(state, ext={**state.ext, "company": company})
    after = attack_estimate(marked, "blue", "1R3", "R14")
    assert dict(after.modifiers).get("company") == 2
    assert after.bonus == before.bonus + 2
    # the scratch transaction consumed nothing
    assert marked.ext["company"]["confirmed"] == {"R14": 2}


def test_r_org_1_organic_estimate_is_the_fixed_area() -> None:
    state = _demo_after(23)
    est = strike_estimate(state, "blue", organic_order("KRH", (16, 10), "KP"))
    assert est.odds is None and est.kind == "organic"
    assert (16, 10) in est.area
    r13 = [e for e in est.exposures if e.unit == "R13"]
    assert r13 and r13[0].p_hit == 1 and not r13[0].own


def test_r_off_3_strike_estimate_uses_the_contact_and_scatter_option() -> None:
    state = _demo_after(23)
    aimed = state.contacts["blue"]["R13"].cell
    assert aimed is not None
    est = strike_estimate(state, "blue", strike_order("k9", aimed, "KP"))
    assert est.contact == "spotted" and est.scatter == state.scenario.options.scatter
    exact = strike_odds("k9", "spotted", scatter=est.scatter)
    assert est.odds == exact
    by_offset = {(c.dx, c.dy): c for c in exact.cells}
    for e in est.exposures:
        c = by_offset[(e.cell[0] - aimed[0], e.cell[1] - aimed[1])]
        assert (e.p_hit, e.p_morale_test) == (c.p_hit, c.p_morale_test)
    assert any(e.unit == "R13" and e.p_hit == exact.p_aimed_hit for e in est.exposures)
    # an empty cell seen by no contact: the KNOWN scatter (wider)
    far = strike_estimate(state, "blue", strike_order("k9", (0, 0), "KP"))
    assert far.contact == "known" and len(far.area) > len(est.area)
    assert sum(c.p_hit for c in exact.cells) > Fraction(0)
