"""Game-shell benchmark (issue 3): bot games per second, and the cost of views and order lists.

Run by hand: ``.venv/bin/python benchmarks/bench_game.py [--games N] [--profile]``. Not part
of the tests.

1. Whole ``demo`` games with the baseline bot on both sides (``bots.simulate``: each order is
   chosen from the seat's view and its legal orders), games per second on one core; the
   target is at least 20. The same seed is played twice to check the result is identical.
   ``--profile`` adds a cProfile breakdown by layer (engine ``legal_orders`` / ``apply``,
   the bot, the views).
2. ``view_for`` on ``terasvalli`` in the middle of a bot game, per viewer, with no log and
   with the whole log.
3. ``legal_orders`` on ``terasvalli`` for every Blue seat: the full list, without recon cells,
   and the bot's pruned list (``bots.runner.bot_legal_orders``).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import time
from collections.abc import Callable

from taistelukentta.bots import BaselineBot, simulate
from taistelukentta.bots.runner import bot_legal_orders, bot_seed, run_bots
from taistelukentta.content.scenario import load_scenario
from taistelukentta.rules import GameState, apply, legal_orders, new_game
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


def bench_games(n: int, profile: bool) -> None:
    scen = load_scenario("demo")
    simulate(scen, 0)  # warm the scenario caches
    a, _ = simulate(scen, 1)
    b, _ = simulate(scen, 1)
    assert a.state_hash() == b.state_hash(), "simulate is not deterministic"
    orders = 0
    t0 = time.perf_counter()
    for seed in range(1, n + 1):
        _, played = simulate(scen, seed)
        orders += len(played)
    dt = time.perf_counter() - t0
    print(f"demo, baseline bot on both sides: {n} games in {dt:.2f} s")
    print(f"  {n / dt:.1f} games/s on one core (target ≥ 20); {orders / n:.0f} orders/game,")
    print(f"  {dt / orders * 1000:.2f} ms per order (view + legal orders + choice + apply)")
    if not profile:
        return
    prof = cProfile.Profile()
    prof.enable()
    for seed in range(1, min(n, 10) + 1):
        simulate(scen, seed)
    prof.disable()
    stats = pstats.Stats(prof, stream=io.StringIO())
    total = stats.total_tt  # type: ignore[attr-defined]
    wanted = {
        "legal_orders": "rules/engine.py",
        "apply": "rules/engine.py",
        "choose_order": "bots/baseline.py",
        "view_for": "views/view.py",
        "bot_legal_orders": "bots/runner.py",
    }
    print("  where the time goes (cumulative, share of the whole run):")
    raw: dict[tuple[str, int, str], tuple[int, int, float, float, object]] = stats.stats  # type: ignore[attr-defined]
    for (path, _line, name), (_cc, _nc, _tt, ct, _callers) in raw.items():
        if name in wanted and path.endswith(wanted[name]):
            print(f"    {name:<18} {ct / total * 100:5.1f} %")


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
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    bench_games(args.games, args.profile)
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
