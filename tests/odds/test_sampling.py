"""Exact odds agree with 200 000 seeded samples of the real resolution functions.

Few hypothesis examples (each draws 200 000 rolls through the Roller and the rule
functions); the tolerance 0.01 is about nine standard errors at this sample size.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taistelukentta.dice.expr import DiceExpr
from taistelukentta.dice.roller import Advantage, Roller
from taistelukentta.odds.exact import attack_odds, morale_odds, recon_odds
from taistelukentta.rules.combat import resolve_attack
from taistelukentta.rules.morale import resolve_morale
from taistelukentta.rules.recon import resolve_recon

pytestmark = pytest.mark.slow  # 200 000 rolls per example; test_exact checks the odds fast

SAMPLES = 200_000
TOLERANCE = 0.01


def _close(exact: dict[str, Fraction], counts: Counter[str], samples: int) -> None:
    for key, p in exact.items():
        assert abs(counts[key] / samples - float(p)) < TOLERANCE, (key, counts[key], p)


@settings(max_examples=3, deadline=None, derandomize=True)
@given(
    seed=st.integers(0, 2**32),
    bonus=st.integers(-2, 10),
    defence=st.integers(8, 20),
    advantage=st.sampled_from(list(Advantage)),
)
def test_r_atk_4_exact_attack_odds_match_samples(
    seed: int, bonus: int, defence: int, advantage: Advantage
) -> None:
    damage = DiceExpr.parse("d6")
    roller = Roller(seed)
    counts: Counter[str] = Counter()
    damage_sum = 0
    for i in range(SAMPLES):
        result = resolve_attack(
            roller, bonus=bonus, defence=defence, damage=damage, advantage=advantage
        )
        counts[result.effect.lower()] += 1
        counts["natural_1"] += result.setback is not None
        damage_sum += result.damage
        if i % 10_000 == 0:
            roller.clear_log()
    odds = attack_odds(bonus, defence, advantage=advantage, damage=damage)
    _close({**odds.outcomes(), "natural_1": odds.natural_1}, counts, SAMPLES)
    assert abs(damage_sum / SAMPLES - float(odds.expected_damage)) < 0.05


@settings(max_examples=3, deadline=None, derandomize=True)
@given(
    seed=st.integers(0, 2**32),
    bonus=st.integers(-2, 8),
    dc=st.integers(8, 18),
    retreat_at=st.sampled_from([5, 10]),
)
def test_r_mor_2_exact_morale_odds_match_samples(
    seed: int, bonus: int, dc: int, retreat_at: int
) -> None:
    roller = Roller(seed)
    counts: Counter[str] = Counter()
    for i in range(SAMPLES):
        counts[resolve_morale(roller, bonus=bonus, dc=dc, retreat_at=retreat_at).outcome] += 1
        if i % 10_000 == 0:
            roller.clear_log()
    exact = morale_odds(bonus, dc, retreat_at=retreat_at).outcomes()
    renamed = Counter({("pass" if k == "PASS" else k.lower()): v for k, v in counts.items()})
    _close(exact, renamed, SAMPLES)


@settings(max_examples=3, deadline=None, derandomize=True)
@given(
    seed=st.integers(0, 2**32),
    bonus=st.integers(0, 8),
    stealth=st.integers(0, 4),
    cover=st.integers(0, 4),
    variant=st.booleans(),
)
def test_r_rec_2_exact_recon_odds_match_samples(
    seed: int, bonus: int, stealth: int, cover: int, variant: bool
) -> None:
    die = "d20" if variant else "d12"
    roller = Roller(seed)
    counts: Counter[str] = Counter()
    for i in range(SAMPLES):
        result = resolve_recon(
            roller,
            bonus=bonus,
            stealth=stealth,
            cover=cover,
            defender_die=die,
            use_stealth=not variant,
        )
        counts[result.level.code.lower()] += 1
        if i % 10_000 == 0:
            roller.clear_log()
    exact = recon_odds(bonus, stealth, cover, defender_die=die, use_stealth=not variant)
    _close(exact.outcomes(), counts, SAMPLES)
