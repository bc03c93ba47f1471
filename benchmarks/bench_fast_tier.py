"""The fast test tier's wall time (issue 7: ``pytest -m "not slow"`` under 90 s here), with
a reference measured in the same run, so that runs on a loaded or slower moment of the
machine compare.

Run by hand: ``.venv/bin/python benchmarks/bench_fast_tier.py [--runs N] [--src DIR]``.
Not part of the tests.

Each run is the README's fast-tier command (``python -m pytest -m "not slow" -n 2 -q -p
no:cacheprovider``) in a process of its own, timed by the wall clock, with the CPU of the
run and every process it waited for (``RUSAGE_CHILDREN``: the test processes, the servers
and the ``tk20`` processes they start). The reference is :func:`plain_reference` of
``bench_game.py`` (a plain-Python workload of the engine's kind, CPU seconds, best of 3),
taken before and after each run; the figures printed per run: wall, CPU, the reference
(the mean of its two readings) and wall / reference — the figure that compares across
moments of a shared machine. ``--src DIR`` runs the tests and the package of another tree
(e.g. a worktree of an older commit with its ``web_dist`` built) with this interpreter:
``DIR`` is the working directory and ``DIR/src`` comes first on ``PYTHONPATH``.

PostgreSQL is not needed (the fast tier runs the server on SQLite); the test processes'
throw-away files go to ``/dev/shm`` when it is there (``tests/conftest.py``).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_game import plain_reference

ROOT = Path(__file__).resolve().parents[1]
COMMAND = ["-m", "pytest", "-m", "not slow", "-n", "2", "-q", "-p", "no:cacheprovider"]


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_once(tree: Path, src: Path | None) -> dict[str, float | str]:
    """One fast-tier run in ``tree``: wall, CPU, the reference around it, the summary line."""
    env = {**os.environ, "TK20_NO_RESIDENT": "1"}
    if src is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(src), env.get("PYTHONPATH", "")]).rstrip(
            os.pathsep
        )
    before = plain_reference()
    cpu0, t0 = _children_cpu(), time.perf_counter()
    done = subprocess.run(
        [sys.executable, *COMMAND], cwd=tree, env=env, capture_output=True, text=True, check=False
    )
    wall, cpu = time.perf_counter() - t0, _children_cpu() - cpu0
    after = plain_reference()
    lines = done.stdout.strip().splitlines()
    summary = lines[-1] if lines else done.stderr.strip()[-200:]
    if done.returncode != 0:
        raise SystemExit(f"the fast tier failed in {tree}: {summary}")
    ref = (before + after) / 2
    return {"wall": wall, "cpu": cpu, "ref": ref, "ratio": wall / ref, "summary": summary}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--src", type=Path, default=None, help="another tree to run")
    args = parser.parse_args()
    tree = args.src.resolve() if args.src else ROOT
    src = tree / "src" if args.src else None
    print(f"fast tier of {tree}")
    print(f"{'run':>3}  {'wall s':>7}  {'CPU s':>7}  {'ref ms':>7}  {'wall/ref':>9}  summary")
    for i in range(1, args.runs + 1):
        r = run_once(tree, src)
        print(
            f"{i:>3}  {r['wall']:7.1f}  {r['cpu']:7.1f}  {float(r['ref']) * 1000:7.1f}  "
            f"{r['ratio']:9.0f}  {r['summary']}"
        )


if __name__ == "__main__":
    main()
