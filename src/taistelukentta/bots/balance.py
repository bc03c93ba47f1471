"""Scenario balance at scale (``tk20 balance``): many computer-vs-computer games of one
scenario, seeds ``S … S+N−1``, played in this process, in a local process pool or on a Dask
cluster — and their summary (win rates with 95 % Wilson intervals, victory points, rounds,
survival per unit type, objective hold rates).

Every game is fixed by its seed alone (dice stream and both bots' seeds derive from it), and
the summary is built from the results sorted by seed, so the result is identical whatever
the number of workers or where they run. A worker gets only picklable, plain inputs
(:class:`GameSpec`, an integer seed) and hands back a small :class:`GameResult`; it loads
the scenario itself (once per process).

The runner holds the game state; the bots get their seat's view and legal orders only
(:func:`taistelukentta.bots.runner.run_bots`).
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from taistelukentta.bots.players import BOT_NAMES, Player, make_bot
from taistelukentta.bots.runner import bot_seed, run_bots
from taistelukentta.content.loader import parse_toml, read_text
from taistelukentta.content.options import spec_by_name
from taistelukentta.content.scenario import (
    Scenario,
    bundled_ids,
    scenario_from_data,
    scenarios_dir,
)
from taistelukentta.errors import ArgumentError
from taistelukentta.rules import SIDES, new_game
from taistelukentta.rules.state import Side
from taistelukentta.rules.victory import objective_holders

Z95 = 1.959963984540054
"""The two-sided 95 % quantile of the standard normal distribution."""


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95 % by default); ``(0.0, 1.0)`` for no
    trials."""
    if trials < 0 or not 0 <= successes <= trials:
        raise ValueError(
            f"wilson_interval: need 0 <= successes <= trials, got {successes}/{trials}"
        )
    if trials == 0:
        return (0.0, 1.0)
    n = float(trials)
    p = successes / n
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2.0 * n)) / denom
    half = z * math.sqrt(p * (1.0 - p) / n + z2 / (4.0 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


# ------------------------------------------------------------------------------ one game


@dataclass(frozen=True)
class GameSpec:
    """What every game of a run shares: the scenario (a bundled id or a file path), rule
    option overrides (sorted ``(name, value)`` pairs) and the bot of each side."""

    scenario: str
    blue: str = "baseline"
    red: str = "baseline"
    options: tuple[tuple[str, Any], ...] = ()

    def options_dict(self) -> dict[str, Any]:
        return dict(self.options)


@dataclass(frozen=True)
class GameResult:
    """One game's outcome, small and picklable."""

    seed: int
    winner: str
    vp: tuple[int, int]
    """(Blue, Red) victory points."""
    rounds: int
    orders: int
    survivors: tuple[tuple[str, str, int, int], ...]
    """Per (side, unit card): units at the start and units left at the end."""
    holders: tuple[tuple[str, str | None], ...]
    """Per objective: who held it at the end (None: contested)."""
    state_hash: str


@lru_cache(maxsize=16)
def scenario_with(ref: str, options_json: str = "{}") -> Scenario:
    """Scenario ``ref`` (a bundled id or a file) with rule option overrides given as a JSON
    object (cached per process: the engine's caches are per scenario object).
    ArgumentError for an unknown scenario, DataError for a bad option."""
    options: dict[str, Any] = json.loads(options_json)
    if ref in bundled_ids():
        path = scenarios_dir() / f"{ref}.toml"
    else:
        path = Path(ref)
        if not path.is_file():
            known = ", ".join(bundled_ids())
            raise ArgumentError(
                f"unknown scenario {ref!r}: neither a bundled scenario ({known}) "
                "nor a scenario file",
                f"tuntematon skenaario {ref!r}: ei valmis skenaario ({known}) "
                "eikä skenaariotiedosto",
            )
    text = read_text(path)
    data = parse_toml(text, str(path))
    if options:
        data["options"] = {**data.get("options", {}), **options}
    return scenario_from_data(
        data, source=str(path), text=text, base_dir=path.parent, default_id=path.stem
    )


def spec_scenario(spec: GameSpec) -> Scenario:
    return scenario_with(spec.scenario, json.dumps(spec.options_dict(), sort_keys=True))


def play_game(spec: GameSpec, seed: int) -> GameResult:
    """One whole game of ``spec`` with (legacy integer) dice seed ``seed``; each side's bot
    is seeded from the game seed (:func:`~taistelukentta.bots.runner.bot_seed`). A module
    level function of plain arguments, so process pools and Dask can run it."""
    scenario = spec_scenario(spec)
    state = new_game(scenario, seed)
    bots: dict[Side, Player] = {
        "blue": make_bot(spec.blue, bot_seed(seed, "blue")),
        "red": make_bot(spec.red, bot_seed(seed, "red")),
    }
    state, played = run_bots(state, bots)
    start: Counter[tuple[str, str]] = Counter()
    for side, _group, placement in scenario.placements():
        start[(side, placement.card)] += 1
    left: Counter[tuple[str, str]] = Counter((u.side, u.card) for u in state.units.values())
    vp = state.vp or {"blue": 0, "red": 0}
    holders = objective_holders(scenario, state.units)
    return GameResult(
        seed=seed,
        winner=str(state.winner),
        vp=(int(vp["blue"]), int(vp["red"])),
        rounds=int(state.round),
        orders=len(played),
        survivors=tuple((s, c, n, left[(s, c)]) for (s, c), n in sorted(start.items())),
        holders=tuple((o.id, holders[o.id]) for o in scenario.objectives),
        state_hash=state.state_hash(),
    )


def _play_many(spec: GameSpec, seeds: Sequence[int]) -> list[GameResult]:
    return [play_game(spec, s) for s in seeds]


# ------------------------------------------------------------------------------ running many


Progress = Callable[[GameResult], None]


def run_games(
    spec: GameSpec,
    seeds: Sequence[int],
    *,
    workers: int = 1,
    scheduler: str | None = None,
    local_cluster: bool = False,
    on_result: Progress | None = None,
) -> list[GameResult]:
    """Play a game of ``spec`` for every seed and return the results in seed order.

    ``scheduler`` (a Dask scheduler address, ``tcp://host:8786``) sends the games to that
    cluster; ``local_cluster`` starts a Dask ``LocalCluster`` of ``workers`` processes for
    the run; otherwise ``workers`` > 1 plays them in a local process pool and 1 in this
    process. ``on_result`` is called with each result as it arrives (in any order)."""
    if workers < 1:
        raise ArgumentError(
            f"--workers: at least 1, got {workers}", f"--workers: vähintään 1, saatiin {workers}"
        )
    spec_scenario(spec)  # a bad scenario or option fails here, before any worker starts
    results: dict[int, GameResult] = {}

    def got(r: GameResult) -> None:
        results[r.seed] = r
        if on_result is not None:
            on_result(r)

    if scheduler is not None or local_cluster:
        _run_dask(spec, seeds, workers, scheduler, got)
    elif workers == 1:
        for s in seeds:
            got(play_game(spec, s))
    else:
        _run_pool(spec, seeds, workers, got)
    return [results[s] for s in sorted(results)]


def _chunks(seeds: Sequence[int], size: int) -> Iterator[list[int]]:
    for i in range(0, len(seeds), size):
        yield list(seeds[i : i + size])


def _chunk_size(n: int, workers: int) -> int:
    # a few games per task (less overhead), but many tasks per worker (even load, a
    # smooth progress bar)
    return max(1, min(8, n // (workers * 8) or 1))


def _run_pool(spec: GameSpec, seeds: Sequence[int], workers: int, got: Progress) -> None:
    """A local process pool (forkserver: the workers start from a clean process, not from
    this one with its threads), with a bounded number of tasks in flight so memory stays
    flat however many games."""
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait

    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(["taistelukentta.bots.balance"])
    chunks = _chunks(seeds, _chunk_size(len(seeds), workers))
    with ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as pool:
        pending: set[Future[list[GameResult]]] = set()
        for chunk in chunks:
            pending.add(pool.submit(_play_many, spec, chunk))
            if len(pending) >= workers * 4:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for f in done:
                    for r in f.result():
                        got(r)
        for f in pending:
            for r in f.result():
                got(r)


def _distributed() -> Any:
    import importlib

    try:
        return importlib.import_module("distributed")  # untyped: used as Any
    except ImportError:  # pragma: no cover - an install without the extra
        raise ArgumentError(
            "Dask is not installed: pip install 'taistelukentta[balance]'",
            "Daskia ei ole asennettu: pip install 'taistelukentta[balance]'",
        ) from None


WORKER_CONFIG: dict[str, Any] = {
    "distributed.worker.multiprocessing-method": "forkserver",
    "distributed.worker.profile.enabled": False,
}
"""Dask settings for the LocalCluster started here (its workers get the parent's config):
worker processes forked from a forkserver that has already imported Dask and the game
engine (the default, ``spawn``, makes each worker import both again, and the first game on
each paid for it); no statistical profiler sampling the game's stack every 10 ms."""


def start_local_cluster(workers: int) -> Any:
    """A Dask ``LocalCluster`` of ``workers`` single-threaded worker processes (no
    dashboard), its workers forked from a forkserver that has Dask and this module
    imported already (:data:`WORKER_CONFIG`). The caller closes it."""
    import multiprocessing
    from multiprocessing import forkserver

    import dask

    dist = _distributed()
    # the forkserver process is started here with the imports a worker needs, before
    # Dask asks for it (the ``set_forkserver_preload`` of a running server is a no-op);
    # a process pool of this process (``_run_pool``) shares the same server
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(["distributed", "taistelukentta.bots.balance"])
    forkserver.ensure_running()
    with dask.config.set(WORKER_CONFIG):
        return dist.LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            worker_dashboard_address=None,
            silence_logs=logging.ERROR,
        )


def _run_dask(
    spec: GameSpec,
    seeds: Sequence[int],
    workers: int,
    scheduler: str | None,
    got: Progress,
) -> None:
    """The games as Dask tasks on the cluster at ``scheduler``, or on a LocalCluster of
    ``workers`` single-threaded processes started (and stopped) here."""
    dist = _distributed()
    cluster: Any = None
    try:
        if scheduler is None:
            cluster = start_local_cluster(workers)
            client = dist.Client(cluster)
        else:
            try:
                client = dist.Client(scheduler, timeout="10s")
            except (OSError, TimeoutError) as exc:
                raise ArgumentError(
                    f"--scheduler: cannot reach the Dask scheduler at {scheduler!r}: {exc}",
                    f"--scheduler: Dask-ajoitinta {scheduler!r} ei tavoiteta: {exc}",
                ) from None
        with client:
            n_workers = max(1, len(client.scheduler_info().get("workers", {})) or workers)
            chunks = _chunks(seeds, _chunk_size(len(seeds), n_workers))
            window = n_workers * 4
            running = dist.as_completed()
            for chunk in chunks:
                running.add(client.submit(_play_many, spec, chunk, pure=False))
                if running.count() >= window:
                    future = next(running)
                    for r in future.result():
                        got(r)
                    future.release()
            for future in running:
                for r in future.result():
                    got(r)
                future.release()
    finally:
        if cluster is not None:
            cluster.close()


# ------------------------------------------------------------------------------ summary


@dataclass
class _Tally:
    wins: Counter[str] = field(default_factory=Counter)
    vp: dict[str, Counter[int]] = field(default_factory=lambda: {s: Counter() for s in SIDES})
    rounds: Counter[int] = field(default_factory=Counter)
    start: Counter[tuple[str, str]] = field(default_factory=Counter)
    left: Counter[tuple[str, str]] = field(default_factory=Counter)
    held: dict[str, Counter[str]] = field(default_factory=dict)


def _distribution(c: Counter[int]) -> dict[str, int]:
    return {str(k): c[k] for k in sorted(c)}


def _mean(c: Counter[int]) -> float:
    n = sum(c.values())
    return round(sum(k * v for k, v in c.items()) / n, 4) if n else 0.0


def _interval(k: int, n: int) -> list[float]:
    lo, hi = wilson_interval(k, n)
    return [round(lo, 4), round(hi, 4)]


def summarise(spec: GameSpec, results: Sequence[GameResult]) -> dict[str, Any]:
    """The summary of a run (``tk20 balance --json``): deterministic for the same seeds."""
    t = _Tally()
    digest = hashlib.sha256()
    for r in sorted(results, key=lambda g: g.seed):
        t.wins[r.winner] += 1
        t.vp["blue"][r.vp[0]] += 1
        t.vp["red"][r.vp[1]] += 1
        t.rounds[r.rounds] += 1
        for side, card, n, left in r.survivors:
            t.start[(side, card)] += n
            t.left[(side, card)] += left
        for oid, holder in r.holders:
            t.held.setdefault(oid, Counter())[holder or "none"] += 1
        digest.update(f"{r.seed}:{r.state_hash};".encode())
    n = len(results)
    seeds = sorted(r.seed for r in results)
    wins = {k: t.wins[k] for k in ("blue", "red", "draw")}
    survival: dict[str, dict[str, dict[str, Any]]] = {s: {} for s in SIDES}
    for (side, card), start in sorted(t.start.items()):
        left = t.left[(side, card)]
        survival[side][card] = {
            "units": start,
            "survived": left,
            "rate": round(left / start, 4) if start else 0.0,
        }
    objectives = {
        oid: {k: round(c[k] / n, 4) if n else 0.0 for k in ("blue", "red", "none")}
        for oid, c in t.held.items()
    }
    return {
        "scenario": spec.scenario,
        "blue_bot": spec.blue,
        "red_bot": spec.red,
        "options": spec.options_dict(),
        "seeds": [seeds[0], seeds[-1]] if seeds else [],
        "games": n,
        "wins": wins,
        "blue_win_rate": round(wins["blue"] / n, 4) if n else 0.0,
        "blue_win_interval": _interval(wins["blue"], n),
        "red_win_rate": round(wins["red"] / n, 4) if n else 0.0,
        "red_win_interval": _interval(wins["red"], n),
        "draw_rate": round(wins["draw"] / n, 4) if n else 0.0,
        "vp": {s: {"mean": _mean(t.vp[s]), "distribution": _distribution(t.vp[s])} for s in SIDES},
        "rounds": {"mean": _mean(t.rounds), "distribution": _distribution(t.rounds)},
        "survival": survival,
        "objectives": objectives,
        "digest": digest.hexdigest(),
    }


# ------------------------------------------------------------------------------ options sweep


def parse_option_sweep(texts: Iterable[str]) -> list[tuple[str, list[Any]]]:
    """``NAME=V1,V2,…`` texts as (option, values), each value typed as the option's
    declared value (bool ``true``/``false``, integer, number or text). ArgumentError naming
    the option and value for a bad one."""
    out: list[tuple[str, list[Any]]] = []
    for text in texts:
        name, sep, rest = text.partition("=")
        name = name.strip()
        if not sep or not name or not rest.strip():
            raise ArgumentError(
                f"--option: expected NAME=V1,V2,…, got {text!r}",
                f"--option: odotettiin NIMI=A1,A2,…, saatiin {text!r}",
            )
        spec = spec_by_name(name)
        if spec is None:
            raise ArgumentError(
                f"--option: unknown rule option {name!r} (tk20 rules lists them)",
                f"--option: tuntematon sääntövalinta {name!r} (tk20 rules luettelee ne)",
            )
        values = [_typed(name, v.strip(), spec.value) for v in rest.split(",")]
        out.append((name, values))
    return out


def _typed(name: str, text: str, example: Any) -> Any:
    try:
        if isinstance(example, bool):
            low = text.lower()
            if low in ("true", "1", "yes", "kyllä"):
                return True
            if low in ("false", "0", "no", "ei"):
                return False
            raise ValueError(text)
        if isinstance(example, int):
            return int(text)
        if isinstance(example, float):
            return float(text)
    except ValueError:
        kind = type(example).__name__
        raise ArgumentError(
            f"--option {name}: {text!r} is not a valid {kind}",
            f"--option {name}: {text!r} ei ole kelvollinen arvo ({kind})",
        ) from None
    return text


def sweep_specs(base: GameSpec, sweep: Sequence[tuple[str, list[Any]]]) -> list[GameSpec]:
    """One spec per combination of the swept values (the first option varies slowest)."""
    combos: list[dict[str, Any]] = [{}]
    for name, values in sweep:
        combos = [{**c, name: v} for c in combos for v in values]
    out = []
    for combo in combos:
        opts = {**base.options_dict(), **combo}
        out.append(GameSpec(base.scenario, base.blue, base.red, tuple(sorted(opts.items()))))
    return out


def check_bot(name: str, side: str) -> str:
    if name not in BOT_NAMES:
        raise ArgumentError(
            f"--{side}: unknown bot {name!r} (choices: {', '.join(BOT_NAMES)})",
            f"--{side}: tuntematon tietokonepelaaja {name!r} (vaihtoehdot: {', '.join(BOT_NAMES)})",
        )
    return name
