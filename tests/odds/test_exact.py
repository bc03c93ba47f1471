"""Exact odds (odds/exact.py) against hand values and an independent brute-force count."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taistelukentta.dice.expr import DIE_SIZES, DiceExpr
from taistelukentta.dice.roller import Advantage
from taistelukentta.odds.exact import (
    attack_damage_distribution,
    attack_odds,
    check_odds,
    d20_distribution,
    damage_distribution,
    mean,
    morale_odds,
    recon_odds,
)
from taistelukentta.rules.combat import Effect

ADVANTAGES = st.sampled_from(list(Advantage))
SMALL_DICE = st.builds(
    DiceExpr,
    count=st.integers(1, 3),
    sides=st.sampled_from([4, 6, 8]),
    modifier=st.integers(-2, 2),
)


def _kept_d20s(advantage: Advantage) -> list[tuple[int, Fraction]]:
    """Brute force: every equally likely fall of the dice and the die kept."""
    if advantage is Advantage.NONE:
        return [(n, Fraction(1, 20)) for n in range(1, 21)]
    pick = max if advantage is Advantage.ADVANTAGE else min
    return [(pick(a, b), Fraction(1, 400)) for a, b in itertools.product(range(1, 21), repeat=2)]


def _effect_by_hand(margin: int, natural: int) -> str:
    """R-ATK-4/5 written out again from RULES.md, independent of rules.combat."""
    if natural == 20:
        return "heavy_hit" if margin >= 0 else "pinning"
    if margin >= 5:
        return "heavy_hit"
    if margin >= 0:
        return "hit"
    if margin >= -4:
        return "pinning"
    return "miss"


def _dice_sums(expr: DiceExpr, times: int) -> list[int]:
    faces = range(1, expr.sides + 1)
    return [sum(roll) for roll in itertools.product(faces, repeat=expr.count * times)]


def test_r_atk_4_hand_checked_odds() -> None:
    odds = attack_odds(3, 14)
    # natural 16-20 heavy, 11-15 hit, 7-10 pinning, 1-6 miss.
    assert odds.outcomes() == {
        "heavy_hit": Fraction(1, 4),
        "hit": Fraction(1, 4),
        "pinning": Fraction(1, 5),
        "miss": Fraction(3, 10),
    }
    assert odds.natural_1 == Fraction(1, 20)
    assert odds.expected_damage == Fraction(1, 4) * Fraction(7, 2) + Fraction(1, 4) * 7


def test_r_atk_5_natural_20_floor_in_odds() -> None:
    odds = attack_odds(0, 40)
    assert odds.pinning == Fraction(1, 20)
    assert odds.miss == Fraction(19, 20)
    variant = attack_odds(0, 40, natural20_miss="morale_penalty")
    assert variant.miss == 1
    assert variant.morale_mark == Fraction(1, 20)


@pytest.mark.parametrize(
    ("advantage", "p1"),
    [
        (Advantage.NONE, Fraction(1, 20)),
        (Advantage.ADVANTAGE, Fraction(1, 400)),
        (Advantage.DISADVANTAGE, Fraction(39, 400)),
    ],
)
def test_r_dice_4_natural_1_odds_use_the_kept_die(advantage: Advantage, p1: Fraction) -> None:
    assert attack_odds(0, 10, advantage=advantage).natural_1 == p1


@settings(max_examples=40, deadline=None)
@given(
    bonus=st.integers(-10, 20),
    defence=st.integers(0, 35),
    advantage=ADVANTAGES,
    damage=SMALL_DICE,
)
def test_r_atk_4_odds_match_brute_force(
    bonus: int, defence: int, advantage: Advantage, damage: DiceExpr
) -> None:
    expected = dict.fromkeys(("heavy_hit", "hit", "pinning", "miss"), Fraction(0))
    for natural, p in _kept_d20s(advantage):
        expected[_effect_by_hand(natural + bonus - defence, natural)] += p
    odds = attack_odds(bonus, defence, advantage=advantage, damage=damage)
    assert odds.outcomes() == expected
    hit_sums = _dice_sums(damage, 1)
    heavy_sums = _dice_sums(damage, 2)
    e_hit = Fraction(sum(max(0, s + damage.modifier) for s in hit_sums), len(hit_sums))
    e_heavy = Fraction(sum(max(0, s + damage.modifier) for s in heavy_sums), len(heavy_sums))
    assert odds.expected_damage == expected["hit"] * e_hit + expected["heavy_hit"] * e_heavy


@settings(max_examples=60, deadline=None)
@given(
    bonus=st.integers(-30, 30),
    defence=st.integers(0, 60),
    advantage=ADVANTAGES,
    natural20_miss=st.sampled_from(["pinning", "morale_penalty"]),
)
def test_attack_odds_sum_to_exactly_one(
    bonus: int, defence: int, advantage: Advantage, natural20_miss: str
) -> None:
    odds = attack_odds(bonus, defence, advantage=advantage, natural20_miss=natural20_miss)  # type: ignore[arg-type]
    assert sum(odds.outcomes().values()) == 1
    assert all(0 <= p <= 1 for p in odds.outcomes().values())
    assert sum(p for _, p in attack_damage_distribution(bonus, defence, advantage=advantage)) == 1


@settings(max_examples=60, deadline=None)
@given(
    bonus=st.integers(-10, 20),
    defence=st.integers(0, 30),
    advantage=ADVANTAGES,
    damage=SMALL_DICE,
    damage_bonus=st.integers(-3, 3),
    damage_divisor=st.integers(1, 3),
)
def test_r_atk_4_damage_distribution_mean_is_expected_damage(
    bonus: int,
    defence: int,
    advantage: Advantage,
    damage: DiceExpr,
    damage_bonus: int,
    damage_divisor: int,
) -> None:
    """The damage distribution of an attack and its odds' expected damage agree exactly."""
    odds = attack_odds(
        bonus,
        defence,
        advantage=advantage,
        damage=damage,
        damage_bonus=damage_bonus,
        damage_divisor=damage_divisor,
    )
    dist = attack_damage_distribution(
        bonus,
        defence,
        advantage=advantage,
        damage=damage,
        damage_bonus=damage_bonus,
        damage_divisor=damage_divisor,
    )
    assert mean(dist) == odds.expected_damage
    assert dict(dist).get(0, Fraction(0)) >= odds.pinning + odds.miss


@settings(max_examples=60, deadline=None)
@given(
    bonus=st.integers(-30, 30),
    dc=st.integers(1, 60),
    advantage=ADVANTAGES,
    retreat_at=st.sampled_from([5, 10]),
)
def test_morale_odds_sum_to_exactly_one(
    bonus: int, dc: int, advantage: Advantage, retreat_at: int
) -> None:
    odds = morale_odds(bonus, dc, advantage=advantage, retreat_at=retreat_at)
    assert sum(odds.outcomes().values()) == 1
    assert odds.retreating >= dict(d20_distribution(advantage))[1]


@settings(max_examples=60, deadline=None)
@given(
    bonus=st.integers(-30, 30),
    stealth=st.integers(-5, 10),
    cover=st.integers(0, 6),
    variant=st.booleans(),
    tie=st.sampled_from(["defender", "active"]),
)
def test_recon_odds_sum_to_exactly_one(
    bonus: int, stealth: int, cover: int, variant: bool, tie: str
) -> None:
    if variant:
        odds = recon_odds(bonus, stealth, cover, defender_die="d20", use_stealth=False, tie=tie)  # type: ignore[arg-type]
    else:
        odds = recon_odds(bonus, stealth, cover, tie=tie)  # type: ignore[arg-type]
    assert sum(odds.outcomes().values()) == 1


def test_r_mor_2_natural_1_retreats_in_odds() -> None:
    odds = morale_odds(30, 5)
    assert odds.passed == Fraction(19, 20)
    assert odds.retreating == Fraction(1, 20)


def test_r_mor_2_hand_checked_odds() -> None:
    # d20+2 vs 12: pass on 10-20, shaken 6-9, suppressed 2-5, retreat on 1 (and nothing else).
    odds = morale_odds(2, 12)
    assert odds.outcomes() == {
        "pass": Fraction(11, 20),
        "shaken": Fraction(4, 20),
        "suppressed": Fraction(4, 20),
        "retreating": Fraction(1, 20),
    }
    variant = morale_odds(2, 12, retreat_at=5)
    assert variant.suppressed == 0 and variant.retreating == Fraction(5, 20)


@settings(max_examples=30, deadline=None)
@given(
    bonus=st.integers(-5, 12),
    stealth=st.integers(0, 5),
    cover=st.integers(0, 4),
    use_stealth=st.booleans(),
    sides=st.sampled_from([12, 20]),
)
def test_r_rec_2_recon_odds_match_brute_force(
    bonus: int, stealth: int, cover: int, use_stealth: bool, sides: int
) -> None:
    counts = dict.fromkeys(("none", "suspected", "known", "spotted"), 0)
    for scout, target in itertools.product(range(1, 21), range(1, sides + 1)):
        margin = (scout + bonus) - (target + (stealth if use_stealth else 0) + cover)
        key = (
            "none"
            if margin <= 0
            else "suspected"
            if margin <= 4
            else "known"
            if margin <= 9
            else "spotted"
        )
        counts[key] += 1
    odds = recon_odds(bonus, stealth, cover, defender_die=f"d{sides}", use_stealth=use_stealth)
    assert odds.outcomes() == {k: Fraction(v, 20 * sides) for k, v in counts.items()}


def test_r_rec_1_hand_checked_none() -> None:
    # d20 vs d12, no modifiers: the scout fails when d20 <= d12: sum(t/20 for t=1..12)/12.
    assert recon_odds(0, 0, 0).none == Fraction(13, 40)


def test_r_dice_3_check_odds() -> None:
    assert check_odds(3, 13) == Fraction(11, 20)
    assert check_odds(0, 30) == 0
    assert check_odds(0, 13, advantage=Advantage.ADVANTAGE) == 1 - Fraction(12, 20) ** 2


@given(expr=st.builds(DiceExpr, st.integers(1, 4), st.sampled_from(DIE_SIZES), st.integers(0, 3)))
def test_damage_distribution_hit_mean_is_the_dice_mean(expr: DiceExpr) -> None:
    dist = damage_distribution(expr, Effect.HIT)
    assert sum(p for _, p in dist) == 1
    assert mean(dist) == expr.mean
    heavy = damage_distribution(expr, Effect.HEAVY_HIT)
    assert mean(heavy) == 2 * expr.mean - expr.modifier
    assert damage_distribution(expr, Effect.PINNING) == ((0, Fraction(1)),)


def test_r_atk_4_odds_follow_margin_options() -> None:
    # d20+0 vs 10 with heavy from +3 and pinning down to -6: heavy 13-20, hit 10-12,
    # pinning 4-9, miss 1-3.
    odds = attack_odds(0, 10, heavy_hit_margin=3, pinning_margin=-6)
    assert odds.outcomes() == {
        "heavy_hit": Fraction(8, 20),
        "hit": Fraction(3, 20),
        "pinning": Fraction(6, 20),
        "miss": Fraction(3, 20),
    }
