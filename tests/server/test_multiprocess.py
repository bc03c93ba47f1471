"""Two ``tk20 serve`` processes on one PostgreSQL database: an order given through one
reaches the other's WebSocket clients (LISTEN/NOTIFY), and seats ordering at once through
different processes lose nothing."""

from __future__ import annotations

import json
import random
import threading
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from tests.server.live import LiveServers, Seat, create, seats
from tests.server.test_concurrency import _export, _orders_of, _seat_worker

pytestmark = pytest.mark.slow  # PostgreSQL only: the fast tier runs the server on SQLite


def test_two_processes_share_one_postgres(live_servers: LiveServers) -> None:
    a, b = live_servers.get("postgres"), live_servers.second("postgres")
    created = create(a)
    via_a = seats(a, created)
    via_b = seats(b, created)
    assert via_b["co"].view() == via_a["co"].view()  # B reads A's game
    with (
        connect(via_b["pl1"].ws_url(), open_timeout=30) as ws_b,
        connect(via_a["gm"].ws_url(), open_timeout=30) as ws_a,
    ):
        listing = via_a["co"].get("/orders").json()
        move = next(o for o in listing["orders"] if o.startswith("move "))
        assert via_a["co"].order(move, listing["version"]).status_code == 200
        got = json.loads(ws_b.recv(timeout=30))  # through the other process
        assert got["version"] == listing["version"] + 1
        listing = via_b["pl1"].get("/orders").json()
        move = next(o for o in listing["orders"] if o.startswith("move "))
        assert via_b["pl1"].order(move, listing["version"]).status_code == 200
        for _ in range(2):
            json.loads(ws_a.recv(timeout=30))  # both orders reach A's client
    # three seats at once, spread over the two processes
    game = create(b)
    clients: dict[str, Seat] = {
        "co": seats(a, game)["co"],
        "pl1": seats(b, game)["pl1"],
        "pl2": seats(a, game)["pl2"],
    }
    barrier = threading.Barrier(3)
    acked: list[tuple[str, str]] = []
    threads = [
        threading.Thread(target=_seat_worker, args=(clients[n], n, barrier, acked, 3))
        for n in clients
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert len(acked) >= 6
    logged = _orders_of(_export(seats(b, game)["gm"]))
    assert sorted(logged) == sorted(acked)


def _recv_until(ws: ClientConnection, version: int) -> list[dict[str, Any]]:
    """Every message until the one of ``version`` (each must come within 30 s)."""
    got: list[dict[str, Any]] = []
    while not got or got[-1]["version"] < version:
        got.append(json.loads(ws.recv(timeout=30)))
    return got


def test_every_committed_version_reaches_the_other_process_subscribers(
    live_servers: LiveServers,
) -> None:
    """A stream of orders given alternately through two processes: every WebSocket
    subscriber, on either process, gets every version of its seat once, in order, with the
    same content as ``GET /events`` (nothing lost, late or doubled across LISTEN/NOTIFY and
    the processes' caches)."""
    a, b = live_servers.get("postgres"), live_servers.second("postgres")
    created = create(a)
    procs = {"a": seats(a, created), "b": seats(b, created)}
    rng = random.Random(7)
    with (
        connect(procs["b"]["gm"].ws_url(after=0), open_timeout=30) as gm_b,
        connect(procs["a"]["gm"].ws_url(after=0), open_timeout=30) as gm_a,
        connect(procs["b"]["co"].ws_url(after=0), open_timeout=30) as co_b,
        connect(procs["a"]["pl2"].ws_url(after=0), open_timeout=30) as pl2_a,
    ):
        gm_version = 0
        for i in range(12):
            via = procs["ab"[i % 2]]
            for seat in ("co", "pl1", "pl2", "gm"):
                listing = via[seat].get("/orders").json()
                if listing["orders"]:
                    break
            choices = [o for o in listing["orders"] if o != "done"]
            order = "done" if not choices or rng.random() < 0.3 else rng.choice(choices)
            r = via[seat].order(order, listing["version"])
            assert r.status_code == 200, r.text
            gm_version += 1
        blue_events = procs["a"]["co"].get("/events", after=0).json()
        gm_events = procs["b"]["gm"].get("/events", after=0).json()
        assert gm_events["version"] == gm_version
        for ws in (gm_a, gm_b):
            assert _recv_until(ws, gm_version) == gm_events["changes"]
        for ws in (co_b, pl2_a):
            assert _recv_until(ws, blue_events["version"]) == blue_events["changes"]
