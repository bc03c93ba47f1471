"""Engine benchmark (issue 3): whole simulated games of a bundled scenario with a simple bot.

Run by hand: ``.venv/bin/python benchmarks/bench_engine.py [scenario] [games]``. Not part of
the tests. The bot is deliberately simple and uses only the engine's public API:

- command phase: a unit that sees a target defends (and fires in the fire phase); any
  other unit moves to the reachable cell nearest the closest objective it does not hold
  (a unit that began in an enemy ZoC defends); then ``done``;
- fire phase: every unit that may fire fires at its first target; then ``done``.

It prints games per second on one core; the target is ≥ 20 for ``demo``. It also checks
that replaying the recorded orders gives the same final state (determinism).
"""

from __future__ import annotations

import sys
import time

from taistelukentta.content.scenario import Scenario, load_scenario
from taistelukentta.grid.geometry import Cell, chebyshev
from taistelukentta.rules import (
    GameState,
    Order,
    Phase,
    apply,
    fire_targets,
    may_fire,
    move_destinations,
    new_game,
)
from taistelukentta.rules.context import cache_for


def bot_order(state: GameState, seat: str) -> Order:
    """The simple bot's next order for ``seat`` (``done`` when it has nothing left)."""
    cache = cache_for(state)
    mine = sorted((u for u in state.units.values() if u.seat == seat), key=lambda u: u.id)
    if state.phase == Phase.FIRE:
        for u in mine:
            if may_fire(cache, u, state.turn_no):
                targets = fire_targets(state, u.id)
                if targets:
                    return Order.fire(u.id, targets[0])
        return Order.done()
    goals: list[Cell] = [(o.cells[0][0], o.cells[0][1]) for o in state.scenario.objectives]
    for u in mine:
        if u.action is not None or u.retreating is not None or u.suppressed is not None:
            continue
        if fire_targets(state, u.id) or u.zoc_at_start or not goals:
            return Order.defend(u.id)
        goal = min(goals, key=lambda g: chebyshev(g, u.cell))
        dests = move_destinations(state, u.id)
        if dests:
            best = min(sorted(dests), key=lambda c: (chebyshev(c, goal), dests[c]))
            if chebyshev(best, goal) < chebyshev(u.cell, goal):
                return Order.move(u.id, best)
        return Order.defend(u.id)
    return Order.done()


def play(scenario: Scenario, seed: int) -> tuple[GameState, list[tuple[str, Order]]]:
    state = new_game(scenario, seed)
    played: list[tuple[str, Order]] = []
    while not state.finished:
        seat = next(s for s in state.seats(state.active) if s not in state.done)
        order = bot_order(state, seat)
        state, _ = apply(state, seat, order)
        played.append((seat, order))
    return state, played


def main() -> None:
    name = sys.argv[1] if len(sys.argv) > 1 else "demo"
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    scenario = load_scenario(name)
    play(scenario, 0)  # warm the per-scenario caches
    started = time.perf_counter()
    orders = 0
    results: dict[str, int] = {}
    for seed in range(games):
        final, played = play(scenario, seed)
        orders += len(played)
        results[str(final.winner)] = results.get(str(final.winner), 0) + 1
    elapsed = time.perf_counter() - started
    final, played = play(scenario, 7)
    again = new_game(scenario, 7)
    for seat, order in played:
        again, _ = apply(again, seat, order)
    assert again.state_hash() == final.state_hash(), "replay differs"
    print(
        f"{name}: {games} games, {orders} orders in {elapsed:.2f} s: "
        f"{games / elapsed:.1f} games/s, {orders / elapsed:.0f} orders/s; winners {results}"
    )


if __name__ == "__main__":
    main()
