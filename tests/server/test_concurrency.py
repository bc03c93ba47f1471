"""Races and crashes: no acknowledged order is ever lost.

- Three Blue seats order at once (threads released together); each retries on 409. Every
  order the server acknowledged is in the game's log exactly once.
- ``kill -9`` of the server during a stream of orders; after a restart on the same
  database every acknowledged order is there and the stored state equals the replay.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import httpx
import pytest

from tests.server.live import Seat, Server, cleanup_db, create, new_db_url, running, seats


def _export(gm: Seat) -> dict[str, object]:
    r = gm.get("/export")
    assert r.status_code == 200, r.text
    out: dict[str, object] = r.json()
    return out


def _orders_of(doc: dict[str, object]) -> list[tuple[str, str]]:
    orders = doc["orders"]
    assert isinstance(orders, list)
    return [(o["seat"], o["order"]) for o in orders]


def _seat_worker(
    seat: Seat, name: str, barrier: threading.Barrier, acked: list[tuple[str, str]], n: int
) -> None:
    barrier.wait()
    tries = 0
    while sum(1 for s, _ in acked if s == name) < n and tries < 200:
        tries += 1
        listing = seat.get("/orders").json()
        moves = [o for o in listing["orders"] if o.startswith(("move ", "defend "))]
        if not moves:
            return
        order = moves[tries % len(moves)]
        key = str(uuid.uuid4())
        r = seat.order(order, listing["version"], key=key)
        if r.status_code == 200:
            acked.append((name, order))
            # the same key again: the first answer, applied once
            again = seat.order(order, listing["version"], key=key)
            assert again.status_code == 200 and again.json() == r.json()
        else:
            assert r.status_code in (409, 422), r.text


def test_three_seats_racing_lose_no_acknowledged_order(server: Server) -> None:
    clients = seats(server, create(server))
    barrier = threading.Barrier(3)
    acked: list[tuple[str, str]] = []
    threads = [
        threading.Thread(target=_seat_worker, args=(clients[n], n, barrier, acked, 3))
        for n in ("co", "pl1", "pl2")
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert len(acked) >= 6
    logged = _orders_of(_export(clients["gm"]))
    assert sorted(logged) == sorted(acked)  # every acknowledged order, each once
    assert clients["co"].view()["version"] == len(acked)


def _stream(
    clients: dict[str, Seat], acked: list[tuple[int, str, str]], stop: threading.Event
) -> None:
    """Orders as fast as the server takes them: a move of the seat, else ``done``; the
    GM's version of each acknowledged order (one stream: the log's position)."""
    i = 0
    while not stop.is_set():
        name = ("co", "pl1", "pl2", "gm")[i % 4]
        i += 1
        c = clients[name]
        try:
            listing = c.get("/orders").json()
            if not listing["orders"]:
                continue
            moves = [o for o in listing["orders"] if o.startswith("move ")]
            order = moves[i % len(moves)] if moves and i % 5 else "done"
            r = c.order(order, listing["version"], key=str(uuid.uuid4()))
        except (httpx.HTTPError, ValueError):
            return  # the server is gone
        if r.status_code == 200:
            acked.append((len(acked) + 1, name, order))


@pytest.mark.slow  # two server starts, a stream of orders, a replay: a crash test, ~1 min
@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_kill_9_during_orders_loses_no_acknowledged_order(kind: str, tmp_path: Path) -> None:
    url = new_db_url(kind, tmp_path)
    try:
        first = Server(url, tmp_path / "first.log").start()
        try:
            created = create(first)
            clients = seats(first, created)
            acked: list[tuple[int, str, str]] = []
            stop = threading.Event()
            worker = threading.Thread(target=_stream, args=(clients, acked, stop))
            worker.start()
            deadline = time.monotonic() + 60
            while len(acked) < 15 and time.monotonic() < deadline:
                time.sleep(0.01)
            first.kill()  # kill -9 with orders in flight
            stop.set()
            worker.join(60)
        finally:
            first.kill()
        assert len(acked) >= 15
        with running(url, tmp_path / "second.log") as second:
            token = created["seats"]["gm"]["token"]
            gm = Seat(second, created["id"], token)
            doc = _export(gm)
            logged = _orders_of(doc)
            for version, name, order in acked:
                assert logged[version - 1] == (name, order), (version, name, order)
            path = tmp_path / "export.json"
            path.write_text(json.dumps(doc), encoding="utf-8")
            replay = subprocess.run(
                [sys.executable, "-m", "taistelukentta", "replay", str(path), "--json"],
                capture_output=True,
                text=True,
                timeout=300,
            )
            assert replay.returncode == 0, replay.stdout + replay.stderr
            report = json.loads(replay.stdout)  # sealed (the game goes on): the logged dice
            assert report["ok"] and report["sealed"] and report["orders"] == len(logged)
    finally:
        cleanup_db(url)
