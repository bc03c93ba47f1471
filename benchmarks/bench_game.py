"""Game-shell benchmark (issue 3): bot games per second, and the cost of views and order lists.

Run by hand: ``.venv/bin/python benchmarks/bench_game.py [--games N] [--rounds R]
[--profile]`` (on one core: ``taskset -c 0``). Not part of the tests.

1. Whole ``demo`` games with the baseline bot on both sides (``bots.simulate``: each order is
   chosen from the seat's view and its legal orders, fetched lazily), games per second on
   one core, by wall clock and by CPU time; the target is at least 20. A seed is played
   twice first to check the result is identical; every timed game is a fresh seed.
   ``--profile`` adds a wall-clock breakdown by layer (engine ``legal_orders`` / ``apply``,
   the bot, the views) and of a few engine internals.
2. ``view_for`` on ``terasvalli`` in the middle of a bot game, per viewer, with no log and
   with the whole log.
3. ``legal_orders`` on ``terasvalli`` for every Blue seat: the full list, without recon cells,
   and the bot's pruned list (``bots.runner.bot_legal_orders``).
"""

from __future__ import annotations

import argparse
import os
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from taistelukentta.bots import BaselineBot, runner, simulate
from taistelukentta.bots.runner import bot_legal_orders, bot_seed, run_bots
from taistelukentta.content.scenario import Scenario, load_scenario
from taistelukentta.rules import GameState, apply, engine, legal_orders, new_game
from taistelukentta.rules.orders import BASE_KINDS
from taistelukentta.rules.state import SIDES, Side
from taistelukentta.views import view_for


def best_of(fn: Callable[[], object], repeat: int = 5, number: int = 20) -> float:
    """Best mean seconds per call over ``repeat`` runs of ``number`` calls."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        best = min(best, (time.perf_counter() - t0) / number)
    return best


def bench_games(n: int, rounds: int, profile: bool) -> None:
    """``rounds`` rounds of ``n`` games each, every game a fresh seed (a seed played before
    would find the engine's memos warm for exactly its positions and look faster)."""
    scen = load_scenario("demo")
    a, _ = simulate(scen, 0)  # also warms the scenario caches (visibility, orders)
    b, _ = simulate(scen, 0)
    assert a.state_hash() == b.state_hash(), "simulate is not deterministic"
    print(f"demo, baseline bot on both sides, {rounds} × {n} games (load {_load()}):")
    for r in range(rounds):
        orders = 0
        module = 0
        w0, c0 = time.perf_counter(), time.process_time()
        for seed in range(1 + r * n, 1 + (r + 1) * n):
            _, played = simulate(scen, seed)
            orders += len(played)
            module += sum(1 for p in played if p.order.kind not in BASE_KINDS)
        wall, cpu = time.perf_counter() - w0, time.process_time() - c0
        ref = plain_reference()
        print(
            f"  {n / wall:5.1f} games/s wall clock, {n / cpu:5.1f} games/s CPU time "
            f"(target ≥ 20); {orders / n:.0f} orders/game ({module / n:.1f} of the rule "
            f"modules), {cpu / orders * 1000:.2f} ms CPU per order; "
            f"CPU per game / plain reference = {cpu / n / ref:.2f}"
        )
    print("  (CPU time = per core; wall clock is slower when other work shares the core)")
    if profile:
        breakdown(scen, n)


def plain_reference(size: int = 60, repeat: int = 8) -> float:
    """CPU seconds of a plain-Python workload of the engine's kind (breadth-first distances
    over a ``size``² grid with dicts and tuples, ``repeat`` times), best of 3: the
    reference the game figures are divided by, measured in the same run, so machines and
    loads compare."""
    best = float("inf")
    for _ in range(3):
        c0 = time.process_time()
        for r in range(repeat):
            start = (r % size, (r * 7) % size)
            dist = {start: 0}
            frontier = [start]
            while frontier:
                nxt = []
                for x, y in frontier:
                    d = dist[(x, y)] + 1
                    for dx in (-1, 0, 1):
                        for dy in (-1, 0, 1):
                            c = (x + dx, y + dy)
                            if 0 <= c[0] < size and 0 <= c[1] < size and c not in dist:
                                dist[c] = d
                                nxt.append(c)
                frontier = nxt
        best = min(best, time.process_time() - c0)
    return best


def _load() -> str:
    try:
        return " ".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:
        return "?"


def breakdown(scen: Scenario, n: int) -> None:
    """Wall-clock time per layer: the runner's calls, the bot and a few engine internals
    are wrapped with timers. Each layer is charged its own time only: the bot asks for its
    legal orders while it decides (``LazyOrders``), so the engine's ``legal_orders`` runs
    inside the bot's ``choose`` and is taken out of it. (cProfile was tried first: its
    per-call overhead inflates the Python-heavy bot and view code several times over and
    hid the real bottleneck.)"""
    acc: dict[str, float] = defaultdict(float)
    calls: dict[str, int] = defaultdict(int)
    inner: list[float] = [0.0]  # time of timed calls nested in the current one

    def timed(name: str, fn: Callable[..., Any], *, layer: bool = True) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            if not layer:  # an engine internal: reported inside its layer, not subtracted
                t0 = time.perf_counter()
                try:
                    return fn(*args, **kwargs)
                finally:
                    acc[name] += time.perf_counter() - t0
                    calls[name] += 1
            inner.append(0.0)
            t0 = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                dt = time.perf_counter() - t0
                nested = inner.pop()
                acc[name] += dt - nested
                calls[name] += 1
                inner[-1] += dt

        return wrapper

    saved_runner = {k: getattr(runner, k) for k in ("view_for", "legal_orders", "apply")}
    saved_choose = BaselineBot.choose
    saved_engine = {k: getattr(engine, k) for k in _ENGINE_PARTS if hasattr(engine, k)}
    try:
        runner.view_for = timed("views: view_for", runner.view_for)  # type: ignore[attr-defined]
        runner.legal_orders = timed("engine: legal_orders", runner.legal_orders)  # type: ignore[attr-defined]
        runner.apply = timed("engine: apply", runner.apply)  # type: ignore[attr-defined]
        BaselineBot.choose = timed("bot: choose (own time)", BaselineBot.choose)  # type: ignore[method-assign]
        for k, fn in saved_engine.items():
            setattr(engine, k, timed(f"  engine internals: {k}", fn, layer=False))
        t0 = time.perf_counter()
        for seed in range(10_001, 10_001 + n):  # seeds not played before: memos cold
            simulate(scen, seed)
        total = time.perf_counter() - t0
    finally:
        for k, fn in saved_runner.items():
            setattr(runner, k, fn)
        BaselineBot.choose = saved_choose  # type: ignore[method-assign]
        for k, fn in saved_engine.items():
            setattr(engine, k, fn)
    print("  where the time goes (wall clock, share of the whole run, per game, calls/game):")
    for name, secs in sorted(acc.items(), key=lambda kv: -kv[1]):
        print(
            f"    {name:<44} {secs / total * 100:5.1f} %  {secs / n * 1000:6.1f} ms"
            f"  {calls[name] / n:6.1f}"
        )
    rest = total - sum(v for k, v in acc.items() if not k.startswith(" "))
    print(f"    {'rest (runner, recon candidates)':<44} {rest / total * 100:5.1f} %")


_ENGINE_PARTS = (
    "destinations",
    "_listed",
    "_attack_move_orders",
    "_withdraw_orders",
    "plan_path",
    "_execute",
    "_advance",
)
"""Engine internals timed by ``--profile`` (skipped if renamed); ``destinations`` and
``_listed`` run inside ``legal_orders``, ``plan_path`` (checking a move), ``_execute`` and
``_advance`` (turn flow) inside ``apply``."""


def midgame(name: str, orders: int) -> GameState:
    """A state ``orders`` bot orders into a game of ``name`` (seed 1)."""
    scen = load_scenario(name)
    start = new_game(scen, 1)
    bots: dict[Side, BaselineBot] = {s: BaselineBot(bot_seed(1, s)) for s in SIDES}
    _, played = run_bots(start, bots)
    state = start
    for p in played[:orders]:
        state, _ = apply(state, p.seat, p.order)
    return state


def bench_views(state: GameState) -> None:
    print(
        f"terasvalli after {state.event_count} events (round {state.round}, "
        f"{state.active} {state.phase.value}): view_for per call"
    )
    for viewer in ("blue", "pl1", "red", "gm"):
        no_log = best_of(lambda v=viewer: view_for(state, v, log_limit=0))  # type: ignore[misc]
        full = best_of(lambda v=viewer: view_for(state, v), number=5)  # type: ignore[misc]
        print(f"  {viewer:<5} no log {no_log * 1000:6.2f} ms   whole log {full * 1000:6.2f} ms")


def bench_orders(state: GameState) -> None:
    print("terasvalli: legal_orders per call (count), Blue seats, same state")
    blue_turn = state
    if blue_turn.active != "blue":
        print("  (Red to move: Blue's lists are empty; skipped)")
        return
    for seat in blue_turn.seats("blue"):
        if seat in blue_turn.done:
            continue
        full = best_of(lambda s=seat: legal_orders(blue_turn, s))  # type: ignore[misc]
        n_full = len(legal_orders(blue_turn, seat))
        short = best_of(lambda s=seat: legal_orders(blue_turn, s, recon_cells=False))  # type: ignore[misc]
        n_short = len(legal_orders(blue_turn, seat, recon_cells=False))
        bot = best_of(lambda s=seat: bot_legal_orders(blue_turn, s))  # type: ignore[misc]
        n_bot = len(bot_legal_orders(blue_turn, seat))
        print(
            f"  {seat:<4} full {full * 1000:6.2f} ms ({n_full:5})   no recon "
            f"{short * 1000:6.2f} ms ({n_short:5})   bot list {bot * 1000:6.2f} ms ({n_bot:5})"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    bench_games(args.games, args.rounds, args.profile)
    state = midgame("terasvalli", 160)
    # find a Blue command phase at or after that point for the order lists
    bench_views(state)
    bench_orders(_blue_command(state))


def _blue_command(state: GameState) -> GameState:
    """The first state from ``state`` on where Blue is in its command phase (bot play)."""
    bots: dict[Side, BaselineBot] = {s: BaselineBot(bot_seed(2, s)) for s in SIDES}
    red: tuple[Side, ...] = ("red",)
    blue: tuple[Side, ...] = ("blue",)
    if state.active == "blue" and state.phase.value == "command":
        return state
    end, _ = run_bots(state, bots, sides=red)
    if end.active == "blue" and end.phase.value == "command":
        return end
    end, _ = run_bots(end, bots, sides=blue)
    end, _ = run_bots(end, bots, sides=red)
    return end


if __name__ == "__main__":
    main()
