"""The engine's scatter roll against the exact footprint odds (R-OFF-3, R-OFF-4).

Every dice sequence ``roll_scatter`` can ask for is enumerated (a roller that branches on
each die), so the engine's distribution is computed exactly and compared with
``odds.strike.strike_odds``; a seeded-roller sample checks the same within sampling error.
"""

from __future__ import annotations

import math
from collections import defaultdict
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taistelukentta.dice.roller import Roller
from taistelukentta.odds.strike import SCATTER_MODES, strike_odds
from taistelukentta.rules.fire_support import roll_scatter
from taistelukentta.rules.strike_geometry import WEAPONS, Cell, StrikeWeapon, adjacent_ring


class _NeedDie(Exception):
    def __init__(self, sides: int) -> None:
        self.sides = sides


class _Branching(Roller):
    """Takes dice from a fixed prefix and stops at the first die beyond it."""

    def __init__(self, prefix: list[int]) -> None:
        super().__init__(0)
        self.prefix = prefix
        self.sides: list[int] = []

    def _die(self, sides: int) -> int:
        if len(self.sides) >= len(self.prefix):
            raise _NeedDie(sides)
        self.sides.append(sides)
        return self.prefix[len(self.sides) - 1]


def engine_distribution(
    weapon: str | StrikeWeapon,
    contact: str,
    scatter: str,
    *,
    reroll: bool = False,
    known_shift: bool = True,
) -> tuple[dict[Cell, Fraction], dict[Cell, Fraction]]:
    """Exact P(hit) and P(morale test) per cell of the engine's ``roll_scatter``."""
    hit: dict[Cell, Fraction] = defaultdict(Fraction)
    test: dict[Cell, Fraction] = defaultdict(Fraction)
    stack: list[list[int]] = [[]]
    while stack:
        prefix = stack.pop()
        roller = _Branching(prefix)
        try:
            w = WEAPONS[weapon] if isinstance(weapon, str) else weapon
            sc = roll_scatter(
                roller,
                w,
                (0, 0),
                contact,
                scatter=scatter,
                reroll=reroll,
                known_shift=known_shift,
            )
        except _NeedDie as need:
            stack.extend([*prefix, v] for v in range(1, need.sides + 1))
            continue
        p = Fraction(1)
        for s in roller.sides:
            p /= s
        for c in sc.cells:
            hit[c] += p
            test[c] += p
        for c in adjacent_ring(sc.cells):
            test[c] += p
    return hit, test


@pytest.mark.parametrize("scatter", SCATTER_MODES)
@pytest.mark.parametrize("contact", ["known", "spotted"])
@pytest.mark.parametrize("weapon", ["k9", "mlrs"])
def test_r_off_4_engine_scatter_matches_strike_odds_exactly(
    weapon: str, contact: str, scatter: str
) -> None:
    hit, test = engine_distribution(weapon, contact, scatter)
    odds = strike_odds(weapon, contact, scatter=scatter)
    assert sum(hit.values()) == WEAPONS[weapon].size ** 2
    want_hit = {(c.dx, c.dy): c.p_hit for c in odds.cells if c.p_hit}
    want_test = {(c.dx, c.dy): c.p_morale_test for c in odds.cells}
    assert {c: p for c, p in hit.items() if p} == want_hit
    assert dict(test) == want_test


def test_r_fd_3_reroll_variant_pulls_the_strike_closer() -> None:
    """The skilled observer's reroll (000 variant) never spreads the strike further."""
    for scatter in SCATTER_MODES:
        plain, _ = engine_distribution("k9", "known", scatter)
        better, _ = engine_distribution("k9", "known", scatter, reroll=True)
        assert sum(better.values()) == 4
        assert better[(0, 0)] >= plain[(0, 0)]
    plain, _ = engine_distribution("k9", "known", "corner")
    better, _ = engine_distribution("k9", "known", "corner", reroll=True)
    assert better[(0, 0)] > plain[(0, 0)]


# Derandomised: a sampling test over ~80 cells at once has a small chance of a cell past
# 5 sigma for some seed (seen once in a landing run); the same examples every run keep it
# a check of the engine against the odds, not a lottery.
@settings(max_examples=6, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1), weapon=st.sampled_from(["k9", "mlrs"]))
def test_r_off_4_seeded_samples_agree_with_strike_odds(seed: int, weapon: str) -> None:
    n = 1500
    roller = Roller(seed)
    counts: dict[Cell, int] = defaultdict(int)
    for _ in range(n):
        sc = roll_scatter(roller, WEAPONS[weapon], (0, 0), "known")
        for c in sc.cells:
            counts[c] += 1
    for cell in strike_odds(weapon, "known").cells:
        p = float(cell.p_hit)
        got = counts.get((cell.dx, cell.dy), 0) / n
        sigma = math.sqrt(p * (1 - p) / n) if 0 < p < 1 else 0.0
        assert abs(got - p) <= 5 * sigma + 1e-9, (cell.dx, cell.dy, got, p)
