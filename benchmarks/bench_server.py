"""Server benchmark (issue 10): N concurrent games through HTTP + WebSocket.

Run by hand: ``.venv/bin/python benchmarks/bench_server.py [--games 50] [--orders 30]
[--db sqlite|postgres|both] [--two-processes] [--pace S] [--saturate] [--no-refresh]
[--no-pin]``. Not part of the tests. PostgreSQL needs ``TK20_TEST_PG_URL``
(``scripts/test-postgres`` prints one).

Each game has a WebSocket open for every seat (co, pl1, pl2, gm). One driver per game gives
random legal orders (``done`` three times in ten) for the seat to act, one at a time, and
after each order waits until every seat that must hear of it has its WebSocket message:
the GM for every order, every Blue seat for a Blue order. The latency of an order is from
the moment its POST is sent to the last of those messages. All games run at once.

What a game is (the pace): a table of people. A seat's client does what the browser table
does (``web/src/table.ts``): on every WebSocket message it fetches its ``/view``, which
carries its legal orders (from a server before that: then its ``/orders``;
``--no-refresh``: it only listens). Orders come at random moments, on
average one every ``--pace`` seconds per game (exponential gaps; default 2 s — a quick
player who clicks a unit and a cell; people at a table think longer, computer seats are
played inside the server and never pass through HTTP). ``--saturate`` (or ``--pace 0``)
adds a run where each game gives its next order as soon as the last one has reached every
seat: that run measures the throughput of a saturated server (orders/s), not a latency a
table would see.

Client and server share the machine: by default (``--no-pin`` to turn off, and on a
machine of one core) the server processes run on the CPUs but the last and the benchmark
client on the last, so a CPU-starved client does not pass for a slow server. Printed per
run: p50/p95 of the latency, the p95 of a seat's refresh (message → view and orders
loaded), orders/s, the server's and the client's CPU time per order (from ``/proc`` and
``getrusage``), the reference — p50 of a trivial authenticated GET (``/seat``) between the
orders of the same run — and the load average; a histogram of the latencies, and the
median latency by how many other orders were under way (posted, not yet heard by every
seat) when an order was posted: latency that grows with that count is queueing. At the
end, every configuration's figures in one table with the load averages before and after.

Arrivals: the games' orders are independent (each game its own exponential gaps, from a
random first moment), so together they are about a Poisson stream of ``games / pace``
orders a second (25/s at the defaults) — no two games are synchronised, but by chance
several orders do arrive within a few milliseconds of each other, as they would from 50
real tables.

``--two-processes`` (PostgreSQL): two servers on one database; each game posts through
the first and has half its WebSockets (and their refreshes) on the second, so every order
crosses LISTEN/NOTIFY; the one-process run on the same database kind is printed beside
it. A WebSocket the server closes is opened again with ``after`` = the last version
received, as a client resumes; such reconnects are counted and printed, and so is every
message that did not arrive within 30 s.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.server.live import Server, drop_pg_database, fresh_pg_database, pg_admin_url

SEATS = ("co", "pl1", "pl2", "gm")
KEEP_ALIVE_REUSE_S = 3.0
"""An idle keep-alive connection is reused only this long (uvicorn closes it after 5 s)."""


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


class Http:
    """A minimal HTTP/1.1 keep-alive client on asyncio streams, for the benchmark only.

    httpx's pure-Python protocol handling cost the client ~5 ms of CPU per request here,
    more than the server's work: a CPU-starved client inflates every latency it measures.
    This one sends a request and reads ``Content-Length`` bytes back (uvicorn sets it on
    every answer of these endpoints), over a pool of connections per server."""

    def __init__(self) -> None:
        self._idle: dict[
            tuple[str, int], list[tuple[asyncio.StreamReader, asyncio.StreamWriter, float]]
        ] = {}
        self._open: list[asyncio.StreamWriter] = []

    async def request(
        self, method: str, url: str, headers: dict[str, str] | None = None, body: Any = None
    ) -> tuple[int, bytes]:
        """``(status, body)`` of one request to ``url`` (``http://HOST:PORT/path``)."""
        hostport, _, path = url.removeprefix("http://").partition("/")
        host, _, port = hostport.partition(":")
        key = (host, int(port))
        payload = b"" if body is None else json.dumps(body).encode()
        lines = [f"{method} /{path} HTTP/1.1", f"Host: {hostport}"]
        lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
        if body is not None:
            lines += ["Content-Type: application/json", f"Content-Length: {len(payload)}"]
        head = ("\r\n".join(lines) + "\r\n\r\n").encode() + payload
        pool = self._idle.setdefault(key, [])
        reused = False
        while pool:
            reader, writer, idle_since = pool.pop()
            # uvicorn closes a keep-alive connection idle for 5 s: a request sent on it
            # as it closes reads nothing back. Such a connection is not reused, and a
            # GET that fails on a reused one is sent again on a new one (as browsers do).
            if time.monotonic() - idle_since < KEEP_ALIVE_REUSE_S:
                reused = True
                break
            writer.close()
        if not reused:
            reader, writer = await asyncio.open_connection(*key)
            self._open.append(writer)
        writer.write(head)
        try:
            raw = await reader.readuntil(b"\r\n\r\n")
        except (OSError, asyncio.IncompleteReadError):
            if not reused or method != "GET":
                raise
            writer.close()
            return await self.request(method, url, headers, body)
        status_line, *header_lines = raw.decode("latin-1").split("\r\n")
        length = 0
        for line in header_lines:
            name, _, value = line.partition(":")
            if name.lower() == "content-length":
                length = int(value)
        data = await reader.readexactly(length) if length else b""
        pool.append((reader, writer, time.monotonic()))
        return int(status_line.split(" ", 2)[1]), data

    async def get(self, url: str, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
        """GET ``url``."""
        return await self.request("GET", url, headers)

    async def post(
        self, url: str, body: Any, headers: dict[str, str] | None = None
    ) -> tuple[int, bytes]:
        """POST ``body`` as JSON to ``url``."""
        return await self.request("POST", url, headers, body)

    async def close(self) -> None:
        """Close every connection."""
        for writer in self._open:
            writer.close()


class Game:
    """One game's clients and the arrival times of its seats' messages."""

    def __init__(
        self,
        created: dict[str, Any],
        post_base: str,
        bases: dict[str, str],
        http: Http,
        refresh: bool,
        out: dict[str, list[Any]],
    ) -> None:
        self.id = created["id"]
        self.tokens = {s: created["seats"][s]["token"] for s in SEATS}
        self.headers = {s: {"Authorization": f"Bearer {self.tokens[s]}"} for s in SEATS}
        self.post_base = post_base
        self.bases = bases
        self.http = http
        self.refresh = refresh
        self.out = out
        self.arrived: dict[str, dict[int, float]] = {s: {} for s in SEATS}
        self.changed = asyncio.Event()
        self.reconnects: list[str] = []
        self._refreshing: dict[str, asyncio.Task[None]] = {}
        self._busy: set[str] = set()
        """The seats whose refresh is under way."""
        self._again: dict[str, bool] = dict.fromkeys(SEATS, False)
        self.listing: dict[str, tuple[int, list[str]]] = {}
        self.gm_version = 0
        """The GM's version: the orders given so far."""
        """Per seat: ``(version, legal orders)`` its last refresh loaded."""

    async def listen(self, seat: str) -> None:
        """Record every message's arrival (and refresh the seat as the browser does); a
        closed connection is opened again with ``after`` = the last version received (as a
        real client resumes), and counted."""
        last: int | None = None  # first: only what comes after connecting
        ws_base = self.bases[seat].replace("http", "ws", 1)
        while True:
            url = f"{ws_base}/api/games/{self.id}/ws?token={self.tokens[seat]}"
            if last is not None:
                url += f"&after={last}"
            try:
                async with websockets.connect(url, open_timeout=60) as ws:
                    async for raw in ws:
                        now = time.perf_counter()
                        msg = json.loads(raw)
                        self.arrived[seat][msg["version"]] = now
                        last = msg["version"]
                        self.changed.set()
                        if self.refresh:
                            self._refresh(seat, now)
                reason = "closed by the server"
            except (websockets.ConnectionClosed, OSError, TimeoutError) as exc:
                reason = f"{type(exc).__name__}: {exc}"
            self.reconnects.append(f"{seat}: {reason}")
            await asyncio.sleep(0.1)

    def _refresh(self, seat: str, since: float) -> None:
        """``table.ts`` ``refresh()``: one at a time per seat; a message during one asks
        for another after it."""
        if seat in self._busy:
            self._again[seat] = True
            return
        self._busy.add(seat)
        self._refreshing[seat] = asyncio.create_task(self._do_refresh(seat, since))

    async def _do_refresh(self, seat: str, since: float) -> None:
        base = f"{self.bases[seat]}/api/games/{self.id}"
        while True:
            self._again[seat] = False
            try:
                _, raw = await self.http.get(f"{base}/view", headers=self.headers[seat])
                body = json.loads(raw)
                if "orders" not in body:  # a server from before the view carried them
                    _, raw = await self.http.get(f"{base}/orders", headers=self.headers[seat])
                    body = json.loads(raw)
            except (OSError, asyncio.IncompleteReadError) as exc:
                self.out["errors"].append(f"{seat} refresh: {type(exc).__name__}: {exc}")
                self._again[seat] = True
                await asyncio.sleep(0.1)
                continue
            self.listing[seat] = (body["version"], body["orders"])
            self.out["refresh"].append(time.perf_counter() - since)
            if not self._again[seat]:
                self._busy.discard(seat)
                self.changed.set()
                return
            since = time.perf_counter()

    def refreshed(self) -> bool:
        """Every seat's client has loaded its view and orders after its last message."""
        return len(self.listing) == len(SEATS) and not self._busy

    async def choose(self) -> tuple[str, dict[str, Any]] | None:
        """The seat to act and its ``{version, orders}``, None when the game is over:
        from the seats' refreshed lists (as a player picks from the table), or by asking
        each seat's ``/orders`` without ``refresh``."""
        if self.refresh:
            if not await self.wait_for(self.refreshed, 120.0):
                self.out["errors"].append(f"{self.id}: no refresh within 120 s")
                return None
            for seat in SEATS:
                version, orders = self.listing[seat]
                if orders:
                    return seat, {"version": version, "orders": orders}
            return None
        return await self.ask()

    async def ask(self) -> tuple[str, dict[str, Any]] | None:
        """The seat to act and its ``{version, orders}`` from each seat's ``/orders``."""
        base = f"{self.post_base}/api/games/{self.id}"
        for seat in SEATS:
            _, raw = await self.http.get(f"{base}/orders", headers=self.headers[seat])
            body = json.loads(raw)
            if body["orders"]:
                return seat, body
        return None

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


def pick(orders: list[str], rng: random.Random) -> str:
    """A random legal order, ``done`` three times in ten."""
    choices = [o for o in orders if o != "done"]
    return "done" if not choices or rng.random() < 0.3 else rng.choice(choices)


async def warm(game: Game, orders: int, rng: random.Random) -> None:
    """Play ``orders`` orders in ``game`` before the tables open (nobody listening):
    the measured orders then come in a game under way, whose views carry its log."""
    base = f"{game.post_base}/api/games/{game.id}"
    for _ in range(orders):
        chosen = await game.ask()
        if chosen is None:
            return
        seat, listing = chosen
        body = {"order": pick(listing["orders"], rng), "version": listing["version"]}
        status, _ = await game.http.post(f"{base}/orders", body, game.headers[seat])
        if status == 200:
            game.gm_version += 1


async def drive(game: Game, orders: int, rng: random.Random, pace: float = 0.0) -> None:
    """Give ``orders`` orders in ``game``; record latencies and reference GETs. ``pace``:
    on average one order every ``pace`` seconds at random moments (exponential gaps);
    0 = each order as soon as the previous one has reached every seat."""
    out = game.out
    http = game.http
    headers = game.headers
    given = 0
    base = f"{game.post_base}/api/games/{game.id}"
    due = time.perf_counter() + (rng.expovariate(1.0 / pace) if pace else 0.0)
    while given < orders:
        wait = due - time.perf_counter()
        if wait > 0:
            await asyncio.sleep(wait)
        chosen = await game.choose()
        if chosen is None:
            return  # the game is over
        seat, listing = chosen
        order = pick(listing["orders"], rng)
        t0 = time.perf_counter()
        busy = out["busy"]
        inflight = busy[0]
        busy[0] += 1
        status, raw = await http.post(
            f"{base}/orders", {"order": order, "version": listing["version"]}, headers[seat]
        )
        out["post"].append(time.perf_counter() - t0)
        if status != 200:
            busy[0] -= 1
            # As the browser table does on a 409: load the seat's view again before the
            # next try (not the same order again at once: a tight loop of refusals).
            out["refused"].append(status)
            if game.refresh:
                game.listing.pop(seat, None)
                game._refresh(seat, time.perf_counter())
            await asyncio.sleep(0.05)
            continue
        version = json.loads(raw)["version"]
        game.gm_version += 1
        expect = [("gm", game.gm_version)]
        if seat != "gm":
            expect += [(s, version) for s in ("co", "pl1", "pl2")]
        ok = await game.wait_for(
            lambda want=tuple(expect): all(v in game.arrived[s] for s, v in want)
        )
        busy[0] -= 1
        if not ok:
            missing = [f"{s}@{v}" for s, v in expect if v not in game.arrived[s]]
            out["lost"].append(1.0)
            out["missing"].append(f"{game.id}: {', '.join(missing)}")
            return
        out["latency"].append(max(game.arrived[s][v] for s, v in expect) - t0)
        out["inflight"].append(inflight)
        given += 1
        t1 = time.perf_counter()
        await http.get(f"{base}/seat", headers=headers["co"])
        out["reference"].append(time.perf_counter() - t1)
        due = max(due, t0) + (rng.expovariate(1.0 / pace) if pace else 0.0)


def _cpu_seconds(pid: int) -> float:
    """User + system CPU time of process ``pid`` (all its threads) so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


_T0 = time.perf_counter()


def _progress(what: str, pids: tuple[int, ...] = ()) -> None:
    """A progress line on stderr (elapsed time, the servers' CPU seconds so far)."""
    cpu = " ".join(f"{_cpu_seconds(p):.1f}" for p in pids)
    print(f"[{time.perf_counter() - _T0:7.1f} s] {what}  server CPU s: {cpu}", file=sys.stderr)


def _own_cpu() -> float:
    use = resource.getrusage(resource.RUSAGE_SELF)
    return use.ru_utime + use.ru_stime


async def run(
    bases: list[str],
    games: int,
    orders: int,
    pace: float = 0.0,
    refresh: bool = True,
    pids: tuple[int, ...] = (),
    warmup: int = 0,
) -> dict[str, Any]:
    """The measured run against servers at ``bases`` (one or two; ``pids``: their
    processes, for the CPU time), after ``warmup`` orders in every game."""
    out: dict[str, list[Any]] = {
        "latency": [],
        "reference": [],
        "refresh": [],
        "post": [],
        "lost": [],
        "missing": [],
        "refused": [],
        "errors": [],
        "busy": [0],
        "inflight": [],
    }
    http = Http()
    try:
        all_games = []
        for _ in range(games):
            _, raw = await http.post(f"{bases[0]}/api/games", {"scenario": "demo"})
            created = json.loads(raw)
            seat_bases = {s: bases[i % len(bases)] for i, s in enumerate(SEATS)}
            all_games.append(Game(created, bases[0], seat_bases, http, refresh, out))
        _progress(f"{games} games created")
        await asyncio.gather(
            *(warm(g, warmup, random.Random(10_000 + i)) for i, g in enumerate(all_games))
        )
        _progress(f"warm-up: {warmup} orders per game played", pids)
        listeners = [asyncio.create_task(g.listen(s)) for g in all_games for s in SEATS]
        if refresh:  # a browser table loads its view and orders when opened
            for g in all_games:
                for s in SEATS:
                    g._refresh(s, time.perf_counter())
        await asyncio.sleep(1.0)
        # Opening the tables (the first legal-order lists) is not part of the run.
        await asyncio.gather(*(g.wait_for(g.refreshed, 300.0) for g in all_games if refresh))
        _progress("tables open", pids)
        out["refresh"].clear()
        server0 = sum(_cpu_seconds(p) for p in pids)
        client0 = _own_cpu()
        t0 = time.perf_counter()
        await asyncio.gather(
            *(drive(g, orders, random.Random(i), pace) for i, g in enumerate(all_games))
        )
        await asyncio.sleep(0.5 if refresh else 0.0)  # the last refreshes
        _progress("measured orders given", pids)
        wall = time.perf_counter() - t0
        server_cpu = sum(_cpu_seconds(p) for p in pids) - server0
        client_cpu = _own_cpu() - client0
        for task in listeners:
            task.cancel()
        await asyncio.gather(*listeners, return_exceptions=True)
    finally:
        await http.close()
    lat = out["latency"]
    n = max(1, len(lat))
    return {
        "orders": len(lat),
        "lost": len(out["lost"]),
        "refused": len(out["refused"]),
        "p50_ms": _pct(lat, 0.5) * 1000,
        "p95_ms": _pct(lat, 0.95) * 1000,
        "max_ms": max(lat, default=float("nan")) * 1000,
        "refresh_p95_ms": _pct(out["refresh"], 0.95) * 1000,
        "post_p95_ms": _pct(out["post"], 0.95) * 1000,
        "orders_per_s": len(lat) / wall,
        "server_cpu_ms_per_order": server_cpu / n * 1000 if pids else float("nan"),
        "client_cpu_ms_per_order": client_cpu / n * 1000,
        "reference_p50_ms": statistics.median(out["reference"] or [float("nan")]) * 1000,
        "pace_s": pace,
        "refresh": refresh,
        "histogram": _histogram(lat),
        "by_inflight": _by_inflight(lat, out["inflight"]),
        "reconnects": [r for g in all_games for r in g.reconnects],
        "missing": out["missing"],
        "errors": out["errors"],
    }


HISTOGRAM_MS = (5, 10, 20, 30, 50, 75, 100, 150, 200, 300, 500)


def _histogram(latencies: list[float]) -> list[tuple[str, int]]:
    """How many latencies fall in each bucket of ``HISTOGRAM_MS`` (``"<5"`` … ``">=500"``)."""
    counts = [0] * (len(HISTOGRAM_MS) + 1)
    for value in latencies:
        ms = value * 1000
        counts[next((i for i, b in enumerate(HISTOGRAM_MS) if ms < b), len(HISTOGRAM_MS))] += 1
    names = [f"<{b}" for b in HISTOGRAM_MS] + [f">={HISTOGRAM_MS[-1]}"]
    return list(zip(names, counts, strict=True))


def _by_inflight(latencies: list[float], inflight: list[int]) -> list[tuple[str, int, float]]:
    """Latency p50 by how many other orders were under way (posted, not yet heard by every
    seat) when the order was posted: ``(group, orders, p50 ms)`` — queueing shows as a
    latency that grows with it."""
    groups: dict[str, list[float]] = {}
    for value, n in zip(latencies, inflight, strict=True):
        name = str(n) if n < 4 else ("4-7" if n < 8 else "8+")
        groups.setdefault(name, []).append(value)
    order = ["0", "1", "2", "3", "4-7", "8+"]
    return [(g, len(groups[g]), _pct(groups[g], 0.5) * 1000) for g in order if g in groups]


def _loop_factory() -> Any:
    """uvloop's event loop (uvicorn's, installed with it) for the client too, if present."""
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


def _pin(pid: int, cpus: set[int]) -> None:
    """Every thread of process ``pid`` onto ``cpus``."""
    for task in Path(f"/proc/{pid}/task").iterdir():
        os.sched_setaffinity(int(task.name), cpus)


def _measure(
    kind: str,
    processes: int,
    games: int,
    orders: int,
    folder: Path,
    pace: float,
    refresh: bool,
    pin: bool,
    warmup: int = 0,
) -> dict[str, Any]:
    if kind == "sqlite":
        url = f"sqlite:///{folder / f'bench-{processes}-{pace}.sqlite3'}"
    else:
        admin = pg_admin_url()
        if admin is None:
            raise SystemExit("TK20_TEST_PG_URL is not set (scripts/test-postgres prints one)")
        url = fresh_pg_database(admin)
    servers = [Server(url, folder / f"server-{kind}-{i}.log").start() for i in range(processes)]
    cpus = sorted(os.sched_getaffinity(0))
    pinned = pin and len(cpus) >= 2
    try:
        if pinned:
            for s in servers:
                assert s.proc is not None
                _pin(s.proc.pid, set(cpus[:-1]))
            os.sched_setaffinity(0, {cpus[-1]})
        pids = tuple(s.proc.pid for s in servers if s.proc is not None)
        bases = [s.base for s in servers]
        with asyncio.Runner(loop_factory=_loop_factory()) as runner:
            result = runner.run(run(bases, games, orders, pace, refresh, pids, warmup))
    finally:
        if pinned:
            os.sched_setaffinity(0, set(cpus))
        for s in servers:
            s.stop()
        if kind == "postgres":
            drop_pg_database(url)
    load = os.getloadavg()[0]
    return {
        "db": kind,
        "processes": processes,
        "games": games,
        "warmup": warmup,
        "pinned": pinned,
        "load": load,
        **result,
    }


def _report(r: dict[str, Any]) -> None:
    """One configuration's line (and its missing messages, reconnects, errors), at once."""
    print(
        f"{r['db']:8} processes={r['processes']} games={r['games']} warmup={r['warmup']} "
        f"pace={r['pace_s']:g}s "
        f"orders={r['orders']} lost={r['lost']} refused={r['refused']}  "
        f"p50 {r['p50_ms']:.1f} ms  p95 {r['p95_ms']:.1f} ms  max {r['max_ms']:.0f} ms  "
        f"POST answer p95 {r['post_p95_ms']:.1f} ms  "
        f"refresh p95 {r['refresh_p95_ms']:.1f} ms  {r['orders_per_s']:.1f} orders/s  "
        f"server CPU {r['server_cpu_ms_per_order']:.1f} ms/order  "
        f"client CPU {r['client_cpu_ms_per_order']:.1f} ms/order  "
        f"reference GET p50 {r['reference_p50_ms']:.1f} ms  "
        f"pinned={r['pinned']} load {r['load']:.1f}  reconnects={len(r['reconnects'])}",
        flush=True,
    )
    hist = "  ".join(f"{name} ms: {n}" for name, n in r["histogram"] if n)
    print(f"    latency histogram: {hist}", flush=True)
    groups = "  ".join(f"{g}: {n} orders p50 {ms:.1f} ms" for g, n, ms in r["by_inflight"])
    print(f"    by orders under way when posted: {groups}", flush=True)
    for line in [*r["missing"], *r["reconnects"], *r["errors"]][:20]:
        print("   ", line, flush=True)


def _summary(results: list[dict[str, Any]], load_before: tuple[float, float, float]) -> None:
    """Every configuration's figures in one table (to copy into docs/performance.md)."""
    print(
        f"\nsummary (load average before the first run: "
        f"{' '.join(f'{x:.2f}' for x in load_before)}; after the last: "
        f"{' '.join(f'{x:.2f}' for x in os.getloadavg())})",
        flush=True,
    )
    print(
        "| db | processes | pace | orders | p50 | p95 | max | orders/s | server CPU/order | load |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in results:
        pace = f"{r['pace_s']:g} s" if r["pace_s"] else "saturated"
        print(
            f"| {r['db']} | {r['processes']} | {pace} | {r['orders']} | "
            f"{r['p50_ms']:.1f} ms | {r['p95_ms']:.1f} ms | {r['max_ms']:.0f} ms | "
            f"{r['orders_per_s']:.1f} | {r['server_cpu_ms_per_order']:.1f} ms | "
            f"{r['load']:.1f} |",
            flush=True,
        )


def main() -> None:
    """Parse the arguments, run, print one line per configuration (and JSON with --json)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--orders", type=int, default=30, help="orders per game")
    ap.add_argument("--db", choices=("sqlite", "postgres", "both"), default="both")
    ap.add_argument(
        "--pace",
        type=float,
        default=2.0,
        help="mean seconds between a game's orders (0: as fast as the server answers)",
    )
    ap.add_argument("--saturate", action="store_true", help="also a run at pace 0 (throughput)")
    ap.add_argument(
        "--no-refresh",
        dest="refresh",
        action="store_false",
        help="seats only listen (no /view and /orders after each message)",
    )
    ap.add_argument(
        "--no-pin", dest="pin", action="store_false", help="do not pin server and client to CPUs"
    )
    ap.add_argument(
        "--warmup",
        type=int,
        default=40,
        help="orders played in every game before the measured ones (a game under way)",
    )
    ap.add_argument("--two-processes", action="store_true")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    kinds = ["sqlite", "postgres"] if args.db == "both" else [args.db]
    paces = [args.pace] + ([0.0] if args.saturate and args.pace else [])
    results = []
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        for kind in kinds:
            for pace in paces:
                common = (
                    args.games,
                    args.orders,
                    Path(tmp),
                    pace,
                    args.refresh,
                    args.pin,
                    args.warmup,
                )
                results.append(_measure(kind, 1, *common))
                _report(results[-1])
                if args.two_processes and kind == "postgres":
                    results.append(_measure(kind, 2, *common))
                    _report(results[-1])
    _summary(results, load_before)
    if args.json:
        print(json.dumps(results))


if __name__ == "__main__":
    main()
