"""Blue's version counts only the changes Blue has a message about, the same in every
process: a human GM's order Blue sees nothing of leaves Blue's version (and its WebSocket)
alone, and a second process that loads or catches up on the game from the database
numbers Blue's changes exactly as the process that took the orders."""

from __future__ import annotations

import json
import random
from typing import Any

from websockets.sync.client import connect

from tests.server.live import Seat, Server, create, seats


def _play(clients: dict[str, Seat], rng: random.Random) -> str:
    """One random legal order of the seat to act (``done`` one time in six); its seat."""
    for seat in ("co", "pl1", "pl2", "gm"):
        listing = clients[seat].get("/orders").json()
        if listing["orders"]:
            break
    else:
        raise AssertionError("no seat may act")
    moves = [o for o in listing["orders"] if o != "done"]
    order = "done" if not moves or rng.random() < 1 / 6 else rng.choice(moves)
    r = clients[seat].order(order, listing["version"])
    assert r.status_code == 200, r.text
    return seat


def _blue(clients: dict[str, Seat]) -> dict[str, Any]:
    out: dict[str, Any] = clients["co"].get("/events", after=0).json()
    return out


def test_blue_version_skips_hidden_gm_orders_in_every_process(
    server: Server, other_process: Server
) -> None:
    created = create(server)
    a = seats(server, created)
    rng = random.Random(11)
    hidden = 0
    with (
        connect(a["pl1"].ws_url(after=0), open_timeout=30, max_queue=None) as ws,
    ):
        b = seats(other_process, created)
        for played in range(1, 81):
            before = a["co"].get("/seat").json()["version"]
            seat = _play(a, rng)
            after = a["co"].get("/seat").json()["version"]
            # a fresh read through the other process (it catches up from the database)
            assert b["co"].get("/seat").json()["version"] == after
            if seat == "gm" and after == before:
                hidden += 1
            if hidden >= 2 and played >= 12:
                break
        assert hidden > 0, "no GM order was hidden from Blue: the test proves nothing"
        events = _blue(a)
        assert _blue(b) == events
        versions = [c["version"] for c in events["changes"]]
        assert versions == list(range(1, events["version"] + 1))
        got: list[dict[str, Any]] = []
        while len(got) < len(versions):
            got.append(json.loads(ws.recv(timeout=30)))
        assert got == events["changes"]
