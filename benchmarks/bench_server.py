"""Server benchmark (issue 10): N concurrent games through HTTP + WebSocket.

Run by hand: ``.venv/bin/python benchmarks/bench_server.py [--games 50] [--orders 30]
[--db sqlite|postgres|both] [--two-processes] [--pace S]``. Not part of the tests. PostgreSQL needs
``TK20_TEST_PG_URL`` (``scripts/test-postgres`` prints one).

Each game has a WebSocket open for every seat (co, pl1, pl2, gm). One driver per game gives
random legal orders (``done`` three times in ten) for the seat to act, one at a time, and
after each order waits until every seat that must hear of it has its WebSocket message:
the GM for every order, every Blue seat for a Blue order. The latency of an order is from
the moment its POST is sent to the last of those messages. All games run at once.
Printed: p50/p95 of that latency, orders/s over the whole run, and the reference — p50 of
a trivial authenticated GET (``/seat``) measured between the orders of the same run — with
the ratio. ``--two-processes`` (PostgreSQL): two servers on one database; each game posts
through the first and has half its WebSockets on the second, so every order crosses
LISTEN/NOTIFY; it prints the one-process run on the same database kind beside it.
``--pace S``: a game gives at most one order every S seconds (players think); without it
the drivers give orders as fast as the server answers, so the run measures a saturated
server. A WebSocket the server closes is opened again with ``after`` = the last version
received, as a client resumes; such reconnects are counted and printed, and so is every
message that did not arrive within 30 s.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.server.live import Server, drop_pg_database, fresh_pg_database, pg_admin_url

SEATS = ("co", "pl1", "pl2", "gm")


class Game:
    """One game's clients and the arrival times of its seats' messages."""

    def __init__(self, created: dict[str, Any], post_base: str, ws_bases: dict[str, str]) -> None:
        self.id = created["id"]
        self.tokens = {s: created["seats"][s]["token"] for s in SEATS}
        self.post_base = post_base
        self.ws_bases = ws_bases
        self.arrived: dict[str, dict[int, float]] = {s: {} for s in SEATS}
        self.changed = asyncio.Event()
        self.reconnects: list[str] = []

    async def listen(self, seat: str) -> None:
        """Record every message's arrival; a closed connection is opened again with
        ``after`` = the last version received (as a real client resumes), and counted."""
        last = 0
        while True:
            url = (
                f"{self.ws_bases[seat]}/api/games/{self.id}/ws"
                f"?after={last}&token={self.tokens[seat]}"
            )
            try:
                async with websockets.connect(url, open_timeout=60) as ws:
                    async for raw in ws:
                        msg = json.loads(raw)
                        self.arrived[seat][msg["version"]] = time.perf_counter()
                        last = msg["version"]
                        self.changed.set()
                reason = "closed by the server"
            except (websockets.ConnectionClosed, OSError, TimeoutError) as exc:
                reason = f"{type(exc).__name__}: {exc}"
            self.reconnects.append(f"{seat}: {reason}")
            await asyncio.sleep(0.1)

    async def wait_for(self, cond: Any, timeout: float = 30.0) -> bool:
        """Until ``cond()`` holds (checked whenever a message arrives) or ``timeout``."""
        end = time.perf_counter() + timeout
        while not cond():
            self.changed.clear()
            if cond():
                break
            remaining = end - time.perf_counter()
            if remaining <= 0:
                return False
            try:
                await asyncio.wait_for(self.changed.wait(), remaining)
            except TimeoutError:
                return bool(cond())
        return True


async def drive(
    game: Game,
    http: httpx.AsyncClient,
    orders: int,
    rng: random.Random,
    out: dict[str, list[Any]],
    pace: float = 0.0,
) -> None:
    """Give ``orders`` orders in ``game``; record latencies and reference GETs. ``pace``:
    at most one order every ``pace`` seconds (a table's players think between orders);
    0 = each order as soon as the previous one has reached every seat."""
    gm_version = 0
    given = 0
    headers = {s: {"Authorization": f"Bearer {game.tokens[s]}"} for s in SEATS}
    base = f"{game.post_base}/api/games/{game.id}"
    start = time.perf_counter() + rng.random() * pace
    while given < orders:
        wait = start + given * pace - time.perf_counter()
        if wait > 0:
            await asyncio.sleep(wait)
        listing = None
        seat = ""
        for seat in SEATS:
            r = await http.get(f"{base}/orders", headers=headers[seat])
            body = r.json()
            if body["orders"]:
                listing = body
                break
        if listing is None:
            return  # the game is over
        choices = [o for o in listing["orders"] if o != "done"]
        order = "done" if not choices or rng.random() < 0.3 else rng.choice(choices)
        t0 = time.perf_counter()
        r = await http.post(
            f"{base}/orders",
            json={"order": order, "version": listing["version"]},
            headers=headers[seat],
        )
        if r.status_code != 200:
            continue
        version = r.json()["version"]
        gm_version += 1
        expect = [("gm", gm_version)]
        if seat != "gm":
            expect += [(s, version) for s in ("co", "pl1", "pl2")]
        ok = await game.wait_for(
            lambda want=tuple(expect): all(v in game.arrived[s] for s, v in want)
        )
        if not ok:
            missing = [f"{s}@{v}" for s, v in expect if v not in game.arrived[s]]
            out["lost"].append(1.0)
            out["missing"].append(f"{game.id}: {', '.join(missing)}")
            return
        out["latency"].append(max(game.arrived[s][v] for s, v in expect) - t0)
        given += 1
        t1 = time.perf_counter()
        await http.get(f"{base}/seat", headers=headers["co"])
        out["reference"].append(time.perf_counter() - t1)


async def run(bases: list[str], games: int, orders: int, pace: float = 0.0) -> dict[str, Any]:
    """The measured run against servers at ``bases`` (one or two)."""
    limits = httpx.Limits(max_connections=games * 2, max_keepalive_connections=games * 2)
    async with httpx.AsyncClient(timeout=60, limits=limits) as http:
        all_games = []
        for _ in range(games):
            r = await http.post(f"{bases[0]}/api/games", json={"scenario": "demo"})
            created = r.json()
            ws = {s: bases[i % len(bases)].replace("http", "ws") for i, s in enumerate(SEATS)}
            all_games.append(Game(created, bases[0], ws))
        listeners = [asyncio.create_task(g.listen(s)) for g in all_games for s in SEATS]
        await asyncio.sleep(1.0)
        out: dict[str, list[Any]] = {"latency": [], "reference": [], "lost": [], "missing": []}
        t0 = time.perf_counter()
        await asyncio.gather(
            *(drive(g, http, orders, random.Random(i), out, pace) for i, g in enumerate(all_games))
        )
        wall = time.perf_counter() - t0
        for task in listeners:
            task.cancel()
        await asyncio.gather(*listeners, return_exceptions=True)
    lat = sorted(out["latency"])
    ref = statistics.median(out["reference"])
    p50 = lat[len(lat) // 2]
    p95 = lat[int(len(lat) * 0.95)]
    return {
        "orders": len(lat),
        "lost": len(out["lost"]),
        "p50_ms": p50 * 1000,
        "p95_ms": p95 * 1000,
        "orders_per_s": len(lat) / wall,
        "reference_p50_ms": ref * 1000,
        "p95_over_reference": p95 / ref,
        "pace_s": pace,
        "reconnects": [r for g in all_games for r in g.reconnects],
        "missing": out["missing"],
    }


def _measure(
    kind: str, processes: int, games: int, orders: int, folder: Path, pace: float
) -> dict[str, Any]:
    if kind == "sqlite":
        url = f"sqlite:///{folder / f'bench-{processes}.sqlite3'}"
    else:
        admin = pg_admin_url()
        if admin is None:
            raise SystemExit("TK20_TEST_PG_URL is not set (scripts/test-postgres prints one)")
        url = fresh_pg_database(admin)
    servers = [Server(url, folder / f"server-{kind}-{i}.log").start() for i in range(processes)]
    try:
        result = asyncio.run(run([s.base for s in servers], games, orders, pace))
    finally:
        for s in servers:
            s.stop()
        if kind == "postgres":
            drop_pg_database(url)
    return {"db": kind, "processes": processes, "games": games, **result}


def main() -> None:
    """Parse the arguments, run, print one line per configuration (and JSON with --json)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--orders", type=int, default=30, help="orders per game")
    ap.add_argument("--db", choices=("sqlite", "postgres", "both"), default="both")
    ap.add_argument(
        "--pace",
        type=float,
        default=0.0,
        help="seconds between a game's orders (0: as fast as the server answers)",
    )
    ap.add_argument("--two-processes", action="store_true")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    kinds = ["sqlite", "postgres"] if args.db == "both" else [args.db]
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for kind in kinds:
            results.append(_measure(kind, 1, args.games, args.orders, Path(tmp), args.pace))
            if args.two_processes and kind == "postgres":
                results.append(_measure(kind, 2, args.games, args.orders, Path(tmp), args.pace))
    for r in results:
        print(
            f"{r['db']:8} processes={r['processes']} games={r['games']} orders={r['orders']} "
            f"lost={r['lost']}  p50 {r['p50_ms']:.1f} ms  p95 {r['p95_ms']:.1f} ms  "
            f"{r['orders_per_s']:.0f} orders/s  reference GET p50 {r['reference_p50_ms']:.1f} ms"
            f"  (p95 = {r['p95_over_reference']:.1f}x reference)  pace {r['pace_s']} s"
            f"  reconnects={len(r['reconnects'])}"
        )
        for line in [*r["missing"], *r["reconnects"]][:20]:
            print("   ", line)
    if args.json:
        print(json.dumps(results))


if __name__ == "__main__":
    main()
