"""Start-up benchmark (issue 7): how long a player waits for one ``tk20`` command.

Run by hand: ``.venv/bin/python benchmarks/bench_startup.py [--runs N]``. Not part of the
tests.

Each command runs as a fresh process (``python -m taistelukentta``, the same interpreter as
the ``tk20`` script) on a ``demo`` game created first (``tk20 new demo --seed 7``); ``order``
gets a fresh copy of that game for every run, so each run applies the same order to the
same position. The reference is ``python -c pass`` timed the same way in the same run. The
best wall time and the best CPU time (user + system of the process) of ``--runs`` runs are
printed with their ratios to the reference's; the goal is at most 6× (and < 0.3 s wall) for
``show``, ``orders`` and ``order``. On a machine shared with other work the CPU figures are
the steadier ones. Every command's output is checked once (exit status 0, the expected
text) before timing.

Byte-code caching is on (``PYTHONDONTWRITEBYTECODE`` is removed from the environment and
one untimed run writes the caches), as for an installed ``tk20``. ``--src DIR`` runs the
package found in ``DIR`` (e.g. an unpacked older commit's ``src``) instead of the installed
one, to measure a before/after pair in one session.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

PY = sys.executable
TK20 = [PY, "-m", "taistelukentta"]
ORDER = "move 1JJ 0,3"
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def _run(argv: list[str]) -> str:
    done = subprocess.run(argv, capture_output=True, text=True, check=False, env=ENV)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({done.returncode}): {done.stderr}")
    return done.stdout


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def best_times(
    argv: list[str], runs: int, before: Callable[[], None] | None = None
) -> tuple[float, float]:
    """Best wall-clock and best CPU seconds of ``runs`` runs of ``argv`` (``before`` runs
    untimed before each)."""
    wall = cpu = float("inf")
    for _ in range(runs):
        if before is not None:
            before()
        c0 = _children_cpu()
        t0 = time.perf_counter()
        subprocess.run(
            argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, env=ENV
        )
        wall = min(wall, time.perf_counter() - t0)
        cpu = min(cpu, _children_cpu() - c0)
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--src", type=Path, default=None, help="run the package in this dir")
    args = parser.parse_args()
    if args.src is not None:
        ENV["PYTHONPATH"] = str(args.src.resolve())
    with tempfile.TemporaryDirectory() as tmp:
        game = Path(tmp) / "g.json"
        fresh = Path(tmp) / "fresh.json"
        _run([*TK20, "new", "demo", "--seed", "7", "--out", str(fresh)])

        def reset() -> None:
            shutil.copyfile(fresh, game)

        reset()
        commands: list[tuple[str, list[str], str]] = [
            ("show --as pl1", [*TK20, "show", str(game), "--as", "pl1"], "pl1"),
            ("show --as gm --json", [*TK20, "show", str(game), "--as", "gm", "--json"], "{"),
            ("orders --as pl1", [*TK20, "orders", str(game), "--as", "pl1"], ORDER),
            ("order --as pl1", [*TK20, "order", str(game), "--as", "pl1", ORDER], "1JJ"),
            ("--help", [*TK20, "--help"], "show"),
        ]
        for name, argv, expect in commands:  # each answers, and answers what it should
            reset()
            out = _run(argv)
            assert expect in out, f"{name}: {expect!r} not in its output"

        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        ref_wall, ref_cpu = best_times([PY, "-c", "pass"], args.runs)
        print(
            f"best of {args.runs} runs, load {load:.1f}; reference python -c pass: "
            f"{ref_wall * 1000:.1f} ms wall, {ref_cpu * 1000:.1f} ms CPU"
        )
        print(f"{'command':<22} {'wall':>9} {'ratio':>7} {'CPU':>9} {'ratio':>7}")
        for name, argv, _ in commands:
            before = reset if name.startswith("order ") else None
            wall, cpu = best_times(argv, args.runs, before)
            print(
                f"{name:<22} {wall * 1000:6.0f} ms {wall / ref_wall:6.1f}× "
                f"{cpu * 1000:6.0f} ms {cpu / max(ref_cpu, 1e-3):6.1f}×"
            )


if __name__ == "__main__":
    main()
