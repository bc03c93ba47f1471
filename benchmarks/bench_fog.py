"""Non-interference pair cost (issue 8): CPU seconds per game pair of ``tests/fog``, against
a simple reference measured in the same run.

Run by hand from the repository root: ``PYTHONPATH=. nice -n 10 .venv/bin/python
benchmarks/bench_fog.py [--pairs N] [--cli]``. Not part of the tests.

For every secret kind of ``tests/fog/test_noninterference.py`` it plays ``N`` pairs
(games 1…N, as the slow tier does) and reports CPU seconds per pair and per compared
order. The reference is one world played alone with nothing observed: per order the
seat's legal orders and ``apply`` (random choice), on the same scenario, as many orders.
With ``--cli`` every pair also goes through ``tk20`` at every 10th order (``CliWorlds``).
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path

from tests.fog import harness
from tests.fog import test_noninterference as t

from taistelukentta.rules import apply, legal_orders, new_game
from taistelukentta.rules.turn_order import next_seat


def reference(scenario: str, orders: int) -> float:
    """CPU seconds to play ``orders`` random legal orders in one world, observing nothing."""
    scen = harness.build(scenario)
    rng = random.Random(1)
    t0 = time.process_time()
    state = new_game(scen, bytes(32))
    for _ in range(orders):
        if state.finished:
            state = new_game(scen, rng.randbytes(32))
        seat = next_seat(state)
        assert seat is not None
        legal = legal_orders(state, seat)
        state, _ = apply(state, seat, legal[-1] if rng.random() < 0.15 else rng.choice(legal))
    return time.process_time() - t0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pairs", type=int, default=3)
    ap.add_argument("--cli", action="store_true")
    args = ap.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="tk20-bench-fog-"))
    total = ref_total = 0.0
    pairs = orders = 0
    print(
        f"{'secret':<20} {'pairs':>5} {'orders':>6} {'CPU s/pair':>10} {'ms/order':>8} {'ref':>6}"
    )
    for case in sorted(t.CASES):
        t0 = time.process_time()
        outs = [
            t._pair(case, g, cli=folder if args.cli else None, cli_every=10)
            for g in range(1, args.pairs + 1)
        ]
        cpu = time.process_time() - t0
        steps = max(1, sum(o.steps for o in outs))
        ref = reference(t.CASES[case].scenario, steps)
        total += cpu
        ref_total += ref
        pairs += len(outs)
        orders += steps
        print(
            f"{case:<20} {len(outs):>5} {steps:>6} {cpu / len(outs):>10.2f} "
            f"{1000 * cpu / steps:>8.1f} {cpu / ref:>5.1f}x"
        )
    print(
        f"all: {pairs} pairs, {orders} orders compared, {total:.1f} CPU s, "
        f"{total / pairs:.2f} CPU s per pair, {1000 * total / orders:.1f} ms per compared "
        f"order; one world alone {1000 * ref_total / orders:.2f} ms per order "
        f"(ratio {total / ref_total:.1f}x)"
    )


if __name__ == "__main__":
    main()
