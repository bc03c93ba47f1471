"""Start-up benchmark (issue 7): how long a player waits for one ``tk20`` command.

Run by hand: ``.venv/bin/python benchmarks/bench_startup.py [--runs N] [--cold-runs M]``.
Not part of the tests.

Each command runs as a fresh ``tk20`` process (``python -m taistelukentta``, the same entry
point as the ``tk20`` script: ``cli/launcher.py``) on a ``demo`` game created first (``tk20
new demo --seed 7``); ``order`` gets a fresh copy of that game for every run, so each run
applies the same order to the same position. The reference is ``python -c pass`` timed the
same way in the same run. Three figures per command, best of the runs:

- **in-process**: ``TK20_NO_RESIDENT=1``, the command imports and runs in its own process
  (what every command cost before the resident process; ``tests/test_cli_startup.py``
  guards this path);
- **cold**: no resident process running — the first command a player types: it runs
  in-process and then starts a resident process, detached (its start is not in these
  figures: it is printed once, below the table, as the resident process's own CPU);
- **warm**: a resident process running: the ``tk20`` process hands the command to a forked
  child of it. The CPU column counts the ``tk20`` process **and** the child's CPU, which
  the child reports to the client (``TK20_RESIDENT_CPU_FILE``).

Wall and CPU (user + system) with their ratios to the reference's; the goal is at most 6×
(and < 0.3 s wall) for ``show``, ``orders`` and ``order``. On a machine shared with other
work the CPU figures are the steadier ones. Every command's output is checked once (exit
status 0, the expected text) before timing, and the warm path's output is compared with the
in-process output byte for byte.

Byte-code caching is on (``PYTHONDONTWRITEBYTECODE`` is removed from the environment and
one untimed run writes the caches), as for an installed ``tk20``. ``--src DIR`` runs the
package found in ``DIR`` (e.g. an unpacked older commit's ``src``) instead of the installed
one, to measure a before/after pair in one session (a tree without a resident process gets
the in-process column only). The resident processes live in a temporary folder and are
stopped at the end.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import signal
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


def _run(argv: list[str], env: dict[str, str]) -> bytes:
    done = subprocess.run(argv, capture_output=True, check=False, env=env)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({done.returncode}): {done.stderr!r}")
    return done.stdout


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def best_times(
    argv: list[str],
    runs: int,
    env: dict[str, str],
    before: Callable[[], None] | None = None,
    extra_cpu: Callable[[], float] | None = None,
) -> tuple[float, float]:
    """Best wall-clock and best CPU seconds of ``runs`` runs of ``argv`` (``before`` runs
    untimed before each; ``extra_cpu`` gives CPU spent elsewhere for the run, read after
    it)."""
    wall = cpu = float("inf")
    for _ in range(runs):
        if before is not None:
            before()
        c0 = _children_cpu()
        t0 = time.perf_counter()
        subprocess.run(
            argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, env=env
        )
        wall = min(wall, time.perf_counter() - t0)
        used = _children_cpu() - c0
        if extra_cpu is not None:
            used += extra_cpu()
        cpu = min(cpu, used)
    return wall, cpu


class Resident:
    """The resident processes of a temporary folder."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.cpu_file = folder / "cpu.txt"
        self.lines = 0

    def pids(self) -> list[int]:
        found = []
        for lock in self.folder.glob("*.lock"):
            text = lock.read_text().strip()
            stat = Path(f"/proc/{text}/stat")
            if text.isdigit() and stat.exists() and not _zombie(stat):
                found.append(int(text))
        return found

    def stop(self) -> None:
        for pid in self.pids():
            os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + 30
        while self.pids() and time.monotonic() < deadline:
            time.sleep(0.02)
        if self.pids():
            raise SystemExit("a resident process did not stop")

    def wait_ready(self) -> int:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            pids = self.pids()
            if pids and any(True for _ in self.folder.glob("*.sock")):
                return pids[0]
            time.sleep(0.05)
        raise SystemExit("no resident process started")

    def child_cpu(self) -> float:
        """The CPU the resident children reported since the last call."""
        if not self.cpu_file.exists():
            return 0.0
        lines = self.cpu_file.read_text().splitlines()
        new, self.lines = lines[self.lines :], len(lines)
        return sum(float(a) + float(b) for a, b in (line.split() for line in new))


def _zombie(stat: Path) -> bool:
    return stat.read_text().rsplit(") ", 1)[1].startswith("Z")


def _own_cpu(pid: int) -> float:
    """A process's CPU and that of its children it waited for (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(") ", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return sum(int(fields[i]) for i in (11, 12, 13, 14)) / ticks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="runs of the in-process/warm")
    parser.add_argument("--cold-runs", type=int, default=3, help="runs of the cold start")
    parser.add_argument("--src", type=Path, default=None, help="run the package in this dir")
    args = parser.parse_args()
    src = args.src.resolve() if args.src is not None else None
    if src is not None:
        ENV["PYTHONPATH"] = str(src)
    has_resident = (
        (src / "taistelukentta" / "cli" / "launcher.py").exists()
        if src is not None
        else Path(__file__)
        .resolve()
        .parents[1]
        .joinpath("src/taistelukentta/cli/launcher.py")
        .exists()
    )
    folder = Path(tempfile.mkdtemp(prefix="tk20b-"))  # short: a socket path's limit
    os.chmod(folder, 0o700)
    resident = Resident(folder / "run")
    resident.folder.mkdir(mode=0o700)
    in_process = {**ENV, "TK20_NO_RESIDENT": "1"}
    via = {k: v for k, v in ENV.items() if k != "TK20_NO_RESIDENT"}
    via["TK20_RESIDENT_DIR"] = str(resident.folder)
    via["TK20_RESIDENT_CPU_FILE"] = str(resident.cpu_file)
    try:
        _bench(args, folder, resident, in_process, via, has_resident)
    finally:
        resident.stop()
        shutil.rmtree(folder, ignore_errors=True)


def _bench(
    args: argparse.Namespace,
    tmp: Path,
    resident: Resident,
    in_process: dict[str, str],
    via: dict[str, str],
    has_resident: bool,
) -> None:
    game = tmp / "g.json"
    fresh = tmp / "fresh.json"
    _run([*TK20, "new", "demo", "--seed", "7", "--out", str(fresh)], in_process)

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
    outputs = {}
    for name, argv, expect in commands:  # each answers, and answers what it should
        reset()
        outputs[name] = _run(argv, in_process)
        assert expect.encode() in outputs[name], f"{name}: {expect!r} not in its output"
    start_cpu = None
    if has_resident:
        _run(commands[0][1], via)  # starts one
        start_cpu = _own_cpu(resident.wait_ready())
        for name, argv, _ in commands:  # the warm path prints the same bytes
            reset()
            assert _run(argv, via) == outputs[name], f"{name}: another output when warm"
        resident.child_cpu()

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    ref_wall, ref_cpu = best_times([PY, "-c", "pass"], args.runs, in_process)
    print(
        f"best of {args.runs} runs (cold: {args.cold_runs}), load {load:.1f}; reference "
        f"python -c pass: {ref_wall * 1000:.1f} ms wall, {ref_cpu * 1000:.1f} ms CPU"
    )

    def cell(wall: float, cpu: float) -> str:
        return (
            f"{wall * 1000:6.0f} ms {wall / ref_wall:5.1f}× "
            f"{cpu * 1000:5.0f} ms {cpu / max(ref_cpu, 1e-3):5.1f}×"
        )

    head = f"{'wall':>9} {'ratio':>6} {'CPU':>8} {'ratio':>6}"
    print(f"{'command':<22} {'in-process: ' + head:<36}  {'cold: ' + head:<36}  warm: {head}")
    for name, argv, _ in commands:
        before = reset if name.startswith("order ") else None
        row = [cell(*best_times(argv, args.runs, in_process, before))]
        if has_resident:

            def cold_before(before: Callable[[], None] | None = before) -> None:
                resident.wait_ready()  # the one the last run started: stopped when up
                resident.stop()
                if before is not None:
                    before()

            row.append(cell(*best_times(argv, args.cold_runs, via, cold_before)))
            resident.wait_ready()  # the one the last cold run started
            resident.child_cpu()
            row.append(cell(*best_times(argv, args.runs, via, before, resident.child_cpu)))
        print(f"{name:<22} " + "  ".join(row))
    if start_cpu is not None:
        print(
            f"a resident process's start (probe + imports + bundled scenarios, its own CPU, "
            f"once per package version): {start_cpu * 1000:.0f} ms CPU"
        )


if __name__ == "__main__":
    main()
