"""Two ``tk20 serve`` processes on one PostgreSQL database: an order given through one
reaches the other's WebSocket clients (LISTEN/NOTIFY), and seats ordering at once through
different processes lose nothing."""

from __future__ import annotations

import json
import threading
from pathlib import Path

from websockets.sync.client import connect

from tests.server.live import Seat, cleanup_db, create, new_db_url, running, seats
from tests.server.test_concurrency import _export, _orders_of, _seat_worker


def test_two_processes_share_one_postgres(tmp_path: Path) -> None:
    url = new_db_url("postgres", tmp_path)
    try:
        with running(url, tmp_path / "a.log") as a, running(url, tmp_path / "b.log") as b:
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
    finally:
        cleanup_db(url)
