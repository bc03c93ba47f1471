"""``tk20 join INVITE``: the terminal client plays a seat through the server."""

from __future__ import annotations

import subprocess
import sys

from tests.server.live import Server, create, seats, tk20_in_process


def test_join_plays_a_seat_with_the_play_screen(server: Server) -> None:
    created = create(server, computer=["gm"])
    co = seats(server, created)["co"]
    listing = co.get("/orders").json()
    move = next(o for o in listing["orders"] if o.startswith("move KP "))
    url = created["seats"]["co"]["url"].replace("localhost", "127.0.0.1")
    run = subprocess.run(
        [sys.executable, "-m", "taistelukentta", "--lang", "en", "join", url],
        input=f"help\nfly away\n{move}\nquit\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    out = run.stdout
    assert "You play seat co" in out
    assert "Command points" in out  # the play screen's tables
    assert f"co orders: {move}" in out  # the seat's copy of its order's events
    assert co.view()["version"] == listing["version"] + 1  # applied on the server
    assert created["seats"]["co"]["token"] not in run.stderr
    # no server there: a message and exit status 2 (in-process: a crash fails the test)
    bad = tk20_in_process("join", "http://127.0.0.1:1/#game=ab&token=x")
    assert bad.returncode == 2 and "http://127.0.0.1:1" in bad.stderr, bad
