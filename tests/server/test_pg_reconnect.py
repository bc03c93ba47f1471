"""PostgreSQL connections that die under a running server (the database restarted, or an
administrator ended them): the server replaces them and no request fails. The pool pings a
connection only after a second idle (``server/db.py`` ``PING_IDLE_S``; a ping at every
checkout cost a round trip per read); a connection found dead by its first statement is
replaced and that read tried once more (``games._once_more_if_dead``)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url
from websockets.sync.client import connect

from tests.server.live import (
    create,
    drop_pg_database,
    fresh_pg_database,
    require_pg,
    running,
    seats,
)


def _end_every_connection(url: str) -> int:
    """End every session on the server's database (as a restart does); how many."""
    import psycopg

    target = make_url(url)
    dsn = target.set(drivername="postgresql", database="postgres").render_as_string(
        hide_password=False
    )
    with psycopg.connect(dsn, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = %s AND pid <> pg_backend_pid()",
            (target.database,),
        ).fetchall()
    return len(rows)


@pytest.mark.slow
def test_requests_after_the_database_ended_every_connection_succeed(tmp_path: Path) -> None:
    url = fresh_pg_database(require_pg())
    try:
        with running(url, tmp_path / "server.log") as server:
            created = create(server)
            s = seats(server, created)
            co, gm = s["co"], s["gm"]
            before = co.view()
            assert gm.get("/seat").status_code == 200
            assert _end_every_connection(url) >= 1
            # At once (the connections idle for less than a second: not pinged): the
            # first read finds its connection dead and tries again on a new one.
            seat = co.get("/seat")
            assert seat.status_code == 200, seat.text
            order = next(o for o in before["orders"] if o != "done")
            posted = co.order(order, before["version"])
            assert posted.status_code == 200, posted.text
            assert _end_every_connection(url) >= 1
            time.sleep(1.5)  # idle for more than a second: pinged and replaced on checkout
            after = co.view()
            assert after["version"] == before["version"] + 1
            events = co.get("/events", after=before["version"])
            assert events.status_code == 200, events.text
            # A token the process has not seen yet: its seat is read from the database.
            assert _end_every_connection(url) >= 1
            pl1 = s["pl1"]
            with connect(pl1.ws_url(after=0), open_timeout=30) as ws:
                msg = json.loads(ws.recv(timeout=30))
                assert msg["version"] == before["version"] + 1
        log = (tmp_path / "server.log").read_text(errors="replace")
        assert "Traceback" not in log and "internal" not in log
    finally:
        drop_pg_database(url)
