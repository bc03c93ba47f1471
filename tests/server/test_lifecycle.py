"""A game's life through the server: the computer's seats, GM undo, the end, reveal,
export into ``tk20 replay`` and ``tk20 verify``."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from tests.server.live import Server, blue_done_until, create, seats, tk20_in_process

_tk20 = tk20_in_process


@pytest.mark.slow
def test_computer_red_to_the_end_then_reveal_export_replay_verify(
    server: Server, tmp_path: Path
) -> None:
    created = create(server, computer=["gm"])
    clients = seats(server, created)
    co = clients["co"]
    assert co.get("/reveal").status_code == 403
    assert co.get("/export").status_code == 403
    assert clients["gm"].get("/export").status_code == 200  # the GM may export any time
    gm_post = clients["gm"].order("done", clients["gm"].view()["version"])
    assert gm_post.status_code == 403 and gm_post.json()["error"]["code"] == "computer_seat"
    final = blue_done_until(server, clients)
    assert final["finished"]
    reveal = co.get("/reveal").json()
    assert reveal["seed_commitment"] == created["seed_commitment"]
    assert len(bytes.fromhex(reveal["seed"])) == 32 and reveal["orders"]
    assert any(o["seat"] == "gm" for o in reveal["orders"])  # the computer played Red
    export = co.get("/export")
    assert export.status_code == 200
    path = tmp_path / "game.json"
    path.write_text(export.text, encoding="utf-8")
    replay = _tk20("replay", str(path), "--json")
    assert replay.returncode == 0, replay.stderr
    assert json.loads(replay.stdout)["state_hash"] == reveal["state_hash"]
    verify = _tk20("verify", str(path), "--json")
    assert verify.returncode == 0, verify.stdout + verify.stderr
    report = json.loads(verify.stdout)
    assert report["ok"] and report["rolls"] > 0
    doc = json.loads(export.text)
    doc["seed"] = ("0" if doc["seed"][0] != "0" else "1") + doc["seed"][1:]
    path.write_text(json.dumps(doc), encoding="utf-8")
    tampered = _tk20("verify", str(path), "--json")
    assert tampered.returncode == 1
    assert any("commitment" in p for p in json.loads(tampered.stdout)["problems"])


def test_gm_undo_replays_from_the_log_and_is_announced_to_every_seat(server: Server) -> None:
    clients = seats(server, create(server))
    co, pl1, gm = clients["co"], clients["pl1"], clients["gm"]
    before = {name: c.view() for name, c in clients.items()}
    orders = co.get("/orders").json()
    move = next(o for o in orders["orders"] if o.startswith("move "))
    with (
        connect(pl1.ws_url(), open_timeout=30) as ws_pl1,
        connect(gm.ws_url(), open_timeout=30) as ws_gm,
    ):
        assert co.order(move, orders["version"]).status_code == 200
        json.loads(ws_pl1.recv(timeout=30))
        json.loads(ws_gm.recv(timeout=30))
        undo = gm.http.post("/undo")
        assert undo.status_code == 200, undo.text
        assert undo.json()["events"] == [{"kind": "undo", "data": {}}]
        for ws in (ws_pl1, ws_gm):
            msg = json.loads(ws.recv(timeout=30))
            assert msg["events"] == [{"kind": "undo", "data": {}}]
    for name, c in clients.items():
        after = c.view()
        assert after["view"] == before[name]["view"]  # the order is gone, as if never given
        assert after["version"] == before[name]["version"] + 2  # but the log moved on
    nothing = httpx.post(
        f"{server.base}/api/games/{co.game}/undo",
        headers={"Authorization": f"Bearer {gm.token}"},
        timeout=30,
    )
    assert nothing.status_code == 409


@pytest.mark.slow  # a whole game against the "normal" computer player on the server
def test_computer_seats_play_at_the_level_asked_for(server: Server) -> None:
    """``computer_level`` when creating a game (docs/bots.md): the seats are played by
    that computer player; a level that does not exist is a clear 422, nothing created."""
    bad = httpx.post(
        f"{server.base}/api/games",
        json={"scenario": "demo", "computer": ["gm"], "computer_level": "grandmaster"},
        timeout=60,
    )
    assert bad.status_code == 422 and "computer_level" in bad.text
    created = create(server, computer=["gm"], computer_level="normal")
    assert created["computer_level"] == "normal" and created["computer"] == ["gm"]
    clients = seats(server, created)
    final = blue_done_until(server, clients)
    assert final["finished"]
    reveal = clients["co"].get("/reveal").json()
    assert any(o["seat"] == "gm" for o in reveal["orders"])  # the computer played Red


def test_the_computer_column_reads_rows_written_before_levels() -> None:
    from taistelukentta.server.games import computer_column, computer_level_of, computer_seats

    assert computer_column(["gm"], "baseline") == ["gm"]  # the old form, unchanged
    for level in ("easy", "normal", "hard"):
        value = computer_column(["co", "gm"], level)
        assert computer_seats(value) == ["co", "gm"] and computer_level_of(value) == level
    assert computer_seats(["gm"]) == ["gm"] and computer_level_of(["gm"]) == "baseline"


def test_export_keeps_the_games_rule_options_for_replay_and_verify(
    server: Server, tmp_path: Path
) -> None:
    """A game started with rule options: its (GM's, sealed: the game goes on) export names
    them, ``tk20 replay`` replays under them from the logged dice, ``tk20 verify`` asks for
    the seed, and a broken option in the file is a clear error."""
    options = {"stacking_limit": 1, "los_corner": "block_either"}
    created = create(server, options=options)
    clients = seats(server, created)
    for name in ("co", "pl1", "gm"):
        body = clients[name].get("/orders").json()
        if body["orders"]:
            move = next((o for o in body["orders"] if o.startswith("move ")), "done")
            assert clients[name].order(move, body["version"]).status_code == 200
    export = clients["gm"].get("/export")
    assert export.status_code == 200
    doc = json.loads(export.text)
    assert doc["format"] == "tk20-sealed-game" and "seed" not in doc
    assert doc["options"] == options
    path = tmp_path / "options.json"
    path.write_text(export.text, encoding="utf-8")
    replay = _tk20("replay", str(path), "--json")
    assert replay.returncode == 0, replay.stdout + replay.stderr
    report = json.loads(replay.stdout)
    assert report["ok"] and report["options"] == options and report["sealed"]
    verify = _tk20("verify", str(path), "--json")
    assert verify.returncode == 1 and "--seed" in verify.stdout
    doc["options"] = {"stacking_limit": "many"}
    path.write_text(json.dumps(doc), encoding="utf-8")
    broken = _tk20("replay", str(path))
    assert broken.returncode != 0
    assert "stacking_limit" in broken.stdout + broken.stderr
    assert "Traceback" not in broken.stdout + broken.stderr
