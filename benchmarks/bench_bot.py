"""Computer players and ``tk20 balance`` (issue 13). Run by hand, not part of the tests:

``.venv/bin/python benchmarks/bench_bot.py turns [--games N] [--level L] [--budget B]`` —
the time of every side turn a computer player takes on ``terasvalli`` (each of its seats'
orders: the view, the legal orders it asks for and its decisions, not the engine's
``apply``), p50 / p95 / max by CPU time, for the tactical level (or ``--level search``, the
look-ahead player, whose rollouts are part of its decisions) against the baseline bot, and
the same for the baseline bot in the same games as the reference (ratio player /
baseline). ``--budget``: the player's budget (None: its default). Goal: p95 < 2 s per side
turn.

``.venv/bin/python benchmarks/bench_bot.py balance [--games N]`` — ``tk20 balance demo``
games per second with 1 and 2 local workers and through a Dask LocalCluster of 2 workers
(wall clock, the cluster's start included and excluded); goals ×1.8 (pool) and ×1.6 (Dask)
on this 2-core machine. The results of the three runs are checked to be identical.

``.venv/bin/python benchmarks/bench_bot.py memory [--games N] [--every K] [--workers W]`` —
``tk20 balance demo`` over N games (default 10 000) in a local pool of W workers (default
2), printing every K games (default 500) the games done, games/s and the resident memory
(RSS) of the parent process and of each child process (the pool's workers and the
forkserver): memory must stay flat however many games.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from typing import Any

from taistelukentta.bots.balance import GameSpec, run_games, summarise
from taistelukentta.bots.players import make_bot
from taistelukentta.bots.runner import bot_order, bot_seed
from taistelukentta.content.scenario import load_scenario
from taistelukentta.rules import apply, new_game, next_seat
from taistelukentta.rules.state import Side


def _load() -> str:
    return f"{os.getloadavg()[0]:.1f}"


def side_turns(games: int, level: str, first_seed: int, budget: int | None = None) -> None:
    scenario = load_scenario("terasvalli")
    turns: dict[str, list[float]] = {level: [], "baseline": []}
    for g in range(games):
        seed = first_seed + g
        for tactical_side in ("blue", "red"):
            names: dict[Side, str] = {
                "blue": level if tactical_side == "blue" else "baseline",
                "red": level if tactical_side == "red" else "baseline",
            }
            bots = {
                s: make_bot(names[s], bot_seed(seed, s), budget if names[s] == level else None)
                for s in names
            }
            state = new_game(scenario, seed)
            spent: dict[tuple[int, Side], float] = {}
            while not state.finished:
                seat = next_seat(state)
                assert seat is not None
                side: Side = state.active
                key = (state.turn_no, side)
                t0 = time.process_time()
                order = bot_order(state, seat, bots[side])
                spent[key] = spent.get(key, 0.0) + time.process_time() - t0
                state, _ = apply(state, seat, order)
            for (_turn, played), t in spent.items():
                turns[names[played]].append(t)
    print(
        f"terasvalli side turns, {games} seeds × both sides, budget {budget}, "
        f"load {_load()} (CPU seconds):"
    )
    p95 = {}
    for name, ts in turns.items():
        ts.sort()
        p95[name] = ts[int(0.95 * (len(ts) - 1))]
        print(
            f"  {name:9} n={len(ts):4}  p50 {statistics.median(ts):.3f}  "
            f"p95 {p95[name]:.3f}  max {ts[-1]:.3f}"
        )
    print(f"  p95 ratio {level}/baseline: {p95[level] / p95['baseline']:.1f}×")


def _balance_one(mode: str, games: int) -> None:
    """One of :func:`balance`'s runs, in a fresh process (so no run inherits another's
    imports, forkserver or warm caches); prints a JSON line."""
    import json

    spec = GameSpec("demo")
    seeds = list(range(1, games + 1))
    out: dict[str, Any] = {"mode": mode}
    t0 = time.perf_counter()
    if mode == "dask":
        from taistelukentta.bots.balance import start_local_cluster

        cluster = start_local_cluster(2)
        t1 = time.perf_counter()
        results = run_games(spec, seeds, workers=2, scheduler=cluster.scheduler_address)
        t2 = time.perf_counter()
        out["cpu"] = _cpu_seconds()
        cluster.close()
        t3 = time.perf_counter()
        out.update(start=t1 - t0, run=t2 - t1, close=t3 - t2)
    else:
        results = run_games(spec, seeds, workers=1 if mode == "one" else 2)
        out["cpu"] = _cpu_seconds()
    out["wall"] = time.perf_counter() - t0
    out["summary"] = summarise(spec, results)
    print(json.dumps(out))


def _cpu_seconds() -> dict[str, float]:
    """CPU seconds (user + system) of this process and of its live child processes."""
    import importlib

    psutil: Any = importlib.import_module("psutil")  # comes with Dask distributed
    me = psutil.Process()
    kids = 0.0
    for c in me.children(recursive=True):
        try:
            ct = c.cpu_times()
            kids += ct.user + ct.system
        except Exception:  # a child that has just exited
            pass
    mt = me.cpu_times()
    return {"parent": mt.user + mt.system, "children": kids}


def balance(games: int) -> None:
    import json
    import subprocess
    import sys

    rows: list[dict[str, Any]] = []
    for mode in ("one", "pool", "dask"):
        got = subprocess.run(
            [sys.executable, __file__, "balance-one", "--mode", mode, "--games", str(games)],
            check=True,
            capture_output=True,
            text=True,
        )
        rows.append(json.loads(got.stdout.strip().splitlines()[-1]))
    print(f"tk20 balance demo, {games} games, load {_load()} (wall clock, each in a new process):")
    base = rows[0]["wall"]
    labels = {
        "one": "1 worker",
        "pool": "2 workers (process pool)",
        "dask": "2 workers (Dask LocalCluster)",
    }
    for r in rows:
        t = r["wall"]
        print(f"  {labels[r['mode']]:30} {t:6.1f} s  {games / t:5.1f} games/s  ×{base / t:.2f}")
        assert r["summary"] == rows[0]["summary"], "the results differ"
    d = rows[2]
    print(
        f"  Dask: cluster start {d['start']:.1f} s, games {d['run']:.1f} s "
        f"(×{base / d['run']:.2f} without start and stop), stop {d['close']:.1f} s; "
        f"×{base / (d['start'] + d['run']):.2f} with the start, without the stop"
    )


def _rss_mb(proc: Any) -> float:
    try:
        return float(proc.memory_info().rss) / 2**20
    except Exception:  # a child that has just exited
        return 0.0


def memory(games: int, every: int, workers: int) -> None:
    import importlib

    # psutil comes with Dask distributed (the balance extra); untyped, used as Any
    psutil: Any = importlib.import_module("psutil")
    spec = GameSpec("demo")
    me = psutil.Process()
    done = 0
    t0 = time.perf_counter()
    print(f"tk20 balance demo, {games} games, {workers} workers, RSS every {every} games")
    print("  games  elapsed  games/s  load  parent MB  children MB (each)", flush=True)

    def sample() -> None:
        kids = sorted(_rss_mb(c) for c in me.children(recursive=True))
        t = time.perf_counter() - t0
        each = " ".join(f"{k:.0f}" for k in kids)
        print(
            f"  {done:5}  {t:7.0f}  {done / t:7.2f}  {_load():>4}  {_rss_mb(me):9.1f}  {each}",
            flush=True,
        )

    def on_result(_r: Any) -> None:
        nonlocal done
        done += 1
        if done % every == 0:
            sample()

    results = run_games(spec, list(range(1, games + 1)), workers=workers, on_result=on_result)
    summary = summarise(spec, results)
    print(f"  finished: {len(results)} games, wins {summary['wins']}, digest {summary['digest']}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("what", choices=["turns", "balance", "memory", "balance-one"])
    ap.add_argument("--mode", choices=["one", "pool", "dask"], default="one")
    ap.add_argument("--every", type=int, default=500)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--games", type=int, default=None)
    ap.add_argument("--level", default="normal")
    ap.add_argument("--budget", type=int, default=None)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    if a.what == "turns":
        side_turns(a.games or 4, a.level, a.seed, a.budget)
    elif a.what == "balance-one":
        _balance_one(a.mode, a.games or 200)
    elif a.what == "memory":
        memory(a.games or 10_000, a.every, a.workers)
    else:
        balance(a.games or 200)


if __name__ == "__main__":
    main()
