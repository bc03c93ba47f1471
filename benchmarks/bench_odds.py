"""Exact-odds benchmark (issue 2, item 4): exact attack odds vs Monte Carlo of the same attack.

Run by hand: ``.venv/bin/python benchmarks/bench_odds.py [--samples N]``. Not part of the tests.

For a few attacks it samples ``N`` (default 100 000) seeded attacks through the real
resolution function :func:`resolve_attack`, checks that every degree of effect, the
natural-1 rate and the mean damage agree with :func:`attack_odds` (within 0.01 / 0.05), then
prints the time of both and the ratio. The exact query is timed cold (this package's
cached dice distributions cleared, so icepool rebuilds them; icepool keeps internal caches of
its own) and warm (cached distributions). Target: ≥ 100× cold.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from collections.abc import Callable
from functools import partial
from typing import TypeVar

from taistelukentta.dice.expr import DiceExpr
from taistelukentta.dice.roller import Advantage, Roller
from taistelukentta.odds.exact import (
    AttackOdds,
    attack_odds,
    d20_distribution,
    damage_distribution,
)
from taistelukentta.rules.combat import resolve_attack

T = TypeVar("T")

CASES: list[tuple[str, int, int, Advantage, str]] = [
    ("d20+3 vs 14, d6", 3, 14, Advantage.NONE, "d6"),
    ("d20+5 vs 12, advantage, 2d4+1", 5, 12, Advantage.ADVANTAGE, "2d4+1"),
    ("d20+1 vs 16, disadvantage, d8", 1, 16, Advantage.DISADVANTAGE, "d8"),
]


def best_of(repeat: int, fn: Callable[[], T]) -> tuple[float, T]:
    """The fastest of ``repeat`` runs (seconds) and the last result."""
    best = float("inf")
    result: T
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return best, result


def monte_carlo(
    samples: int, bonus: int, defence: int, advantage: Advantage, damage: DiceExpr
) -> tuple[Counter[str], int]:
    """Sample ``samples`` attacks through the rules; counts by effect and total damage."""
    roller = Roller(20261129)
    counts: Counter[str] = Counter()
    damage_sum = 0
    for i in range(samples):
        result = resolve_attack(
            roller, bonus=bonus, defence=defence, damage=damage, advantage=advantage
        )
        counts[result.effect.lower()] += 1
        if result.natural == 1:
            counts["natural_1"] += 1
        damage_sum += result.damage
        if i % 10_000 == 0:
            roller.clear_log()
    return counts, damage_sum


def exact_cold(bonus: int, defence: int, advantage: Advantage, damage: DiceExpr) -> AttackOdds:
    """The exact query with every cached distribution thrown away first."""
    d20_distribution.cache_clear()
    damage_distribution.cache_clear()
    return attack_odds(bonus, defence, advantage=advantage, damage=damage)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--samples", type=int, default=100_000)
    args = parser.parse_args()
    samples: int = args.samples

    start = time.perf_counter()
    attack_odds(2, 13, advantage=Advantage.ADVANTAGE, damage="3d6")
    first = time.perf_counter() - start
    print(f"exact attack odds vs {samples:,} Monte Carlo samples of the same attack")
    print(f"first exact query in this process (icepool warming up): {first * 1e3:.2f} ms")
    print(f"{'attack':34} {'MC s':>8} {'exact cold ms':>14} {'warm ms':>8} {'ratio cold':>11}")
    worst = float("inf")
    for label, bonus, defence, advantage, damage_text in CASES:
        damage = DiceExpr.parse(damage_text)
        mc_time, (counts, damage_sum) = best_of(
            1, partial(monte_carlo, samples, bonus, defence, advantage, damage)
        )
        cold, odds = best_of(20, partial(exact_cold, bonus, defence, advantage, damage))
        warm, _ = best_of(
            200, partial(attack_odds, bonus, defence, advantage=advantage, damage=damage)
        )
        exact = {**odds.outcomes(), "natural_1": odds.natural_1}
        for key, p in exact.items():
            sampled = counts[key] / samples
            if abs(sampled - float(p)) >= 0.01:
                raise SystemExit(f"{label}: {key} sampled {sampled:.4f} vs exact {float(p):.4f}")
        if abs(damage_sum / samples - float(odds.expected_damage)) >= 0.05:
            raise SystemExit(f"{label}: mean damage differs")
        ratio = mc_time / cold
        worst = min(worst, ratio)
        print(f"{label:34} {mc_time:8.2f} {cold * 1e3:14.3f} {warm * 1e3:8.3f} {ratio:10.0f}×")
    verdict = "OK" if worst >= 100 else "BELOW TARGET"
    print(f"worst ratio (cold): {worst:.0f}× — target ≥ 100×: {verdict}")


if __name__ == "__main__":
    main()
