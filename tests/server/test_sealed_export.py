"""Fair dice through the server (issue 8): before the end nobody — the GM included — gets
the seed, only its commitment. The GM's export before the end is *sealed* (no seed, no
stream position): ``tk20 replay`` checks it from its logged dice, ``tk20 show/order``
refuse it with a clear message, ``tk20 verify`` asks for the seed; after the end the
revealed seed checks every logged roll of that export against the commitment. Real
``tk20 serve`` processes on SQLite and PostgreSQL; the seed is looked for in every
answer, the server's log and the CLI's outputs (docs/server.md, "Fair dice")."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.fog.harness import scenario_data, toml_text
from tests.server.live import (
    CliRun,
    LiveServers,
    Seat,
    Server,
    create,
    seats,
    tk20_in_process,
)

SCENARIO = "demo_two_rounds"


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.slow)])
def short_server(request: pytest.FixtureRequest, live_servers: LiveServers) -> Server:
    """The test process's shared server of each database kind (its log at info level) with
    a two-round demo scenario in its scenario folder."""
    server = live_servers.get(str(request.param))
    data = scenario_data("demo")
    data["id"] = SCENARIO
    data["rounds"] = 2
    folder = live_servers.scenarios(str(request.param))
    (folder / f"{SCENARIO}.toml").write_text(toml_text(data), encoding="utf-8")
    return server


def _tk20(*args: str) -> CliRun:
    """``tk20 --lang en ARGS`` in-process (the texts checked here are the English ones)."""
    return tk20_in_process("--lang", "en", *args)


def _blue_turn(clients: dict[str, Seat]) -> None:
    """Every Blue seat fires if it can, else moves east, else says done, until Red's turn."""
    for _ in range(60):
        view = clients["co"].view()["view"]
        if view["finished"] or view["active_side"] != "blue":
            return
        for name in ("co", "pl1", "pl2", "pl3"):
            if name not in clients:
                continue
            body = clients[name].get("/orders").json()
            fight = [o for o in body["orders"] if o.startswith(("fire ", "attack "))]
            moves = [o for o in body["orders"] if o.startswith("move ")]
            east = max(moves, key=lambda o: int(o.rsplit(" ", 1)[1].split(",")[0]), default=None)
            pick = fight[0] if fight else east if east and _ < 6 else "done"
            if pick in body["orders"]:
                clients[name].order(pick, body["version"])
    raise AssertionError("Blue's turn did not end")


def _wait_blue_or_end(clients: dict[str, Seat]) -> dict[str, Any]:
    import time

    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        view: dict[str, Any] = clients["co"].view()["view"]
        if view["finished"] or view["active_side"] == "blue":
            return view
        time.sleep(0.05)
    raise AssertionError("the computer's turn did not end")


def test_gm_export_before_the_end_is_sealed_and_checked_by_the_seed_after_it(
    short_server: Server, tmp_path: Path
) -> None:
    created = create(short_server, scenario=SCENARIO, computer=["gm"])
    clients = seats(short_server, created)
    gm, co = clients["gm"], clients["co"]
    answers: list[str] = [json.dumps(created)]

    _blue_turn(clients)
    view = _wait_blue_or_end(clients)
    assert not view["finished"]  # round 2: the game goes on

    refused = co.get("/export")
    assert refused.status_code == 403
    message = refused.json()["error"]["message"]
    assert message["en"] == "only the GM may export before the end" and message["fi"]

    sealed = gm.get("/export")
    assert sealed.status_code == 200
    assert "-sealed.json" in sealed.headers["content-disposition"]
    doc = json.loads(sealed.text)
    assert doc["format"] == "tk20-sealed-game"
    assert doc["seed_commitment"] == created["seed_commitment"]
    assert "seed" not in doc and "seed" not in doc["state"]
    assert set(doc["state"]["roller"]) == {"version", "scheme", "seq"}  # no stream position
    rolls = [r for e in doc["state"]["events"] for r in (e["data"].get("rolls") or [])]
    assert rolls, "the game should have rolled by now (Red's computer turn)"
    sealed_path = tmp_path / "sealed.json"
    sealed_path.write_text(sealed.text, encoding="utf-8")
    for c in clients.values():
        answers += [c.get("/view").text, c.get("/events", after=0).text, c.get("/orders").text]

    # tk20 replay: the orders and the logged dice give the saved log and state
    replay = _tk20("replay", str(sealed_path), "--json")
    assert replay.returncode == 0, replay.stdout + replay.stderr
    report = json.loads(replay.stdout)
    assert report["ok"] and report["sealed"] and not report["dice_checked"]
    assert report["rolls"] == len(rolls) and report["orders"] == len(doc["orders"])
    # it cannot be played on, and says why
    show = ["show", str(sealed_path), "--as", "gm"]
    for args in (show, ["order", str(sealed_path), "done", "--as", "co"]):
        out = _tk20(*args)
        assert out.returncode != 0 and "Traceback" not in out.stdout + out.stderr
        assert "sealed export" in out.stdout + out.stderr
    # tk20 verify needs the seed, which nobody has yet
    early = _tk20("verify", str(sealed_path), "--json")
    assert early.returncode == 1 and "--seed" in json.loads(early.stdout)["problems"][0]
    # a changed die is caught by the replay
    tampered = json.loads(sealed.text)
    first = next(e for e in tampered["state"]["events"] if e["data"].get("rolls"))
    roll = first["data"]["rolls"][0]
    roll["dice"] = [d % 6 + 1 if d != roll["dice"][0] else d % 6 + 2 for d in roll["dice"]]
    from taistelukentta.storage.gamefile import log_hash

    tampered["log_hash"] = log_hash(tampered["state"])
    bad = tmp_path / "tampered.json"
    bad.write_text(json.dumps(tampered), encoding="utf-8")
    broken = _tk20("replay", str(bad), "--json")
    assert broken.returncode == 1 and "Traceback" not in broken.stdout + broken.stderr
    assert "roll" in " ".join(json.loads(broken.stdout)["problems"])

    # to the end
    for _ in range(4):
        _blue_turn(clients)
        if _wait_blue_or_end(clients)["finished"]:
            break
    assert co.view()["view"]["finished"]
    reveal = co.get("/reveal").json()
    seed = reveal["seed"]
    assert len(bytes.fromhex(seed)) == 32

    # the seed was nowhere before the end: not in the sealed export, any seat's answers,
    # the CLI's outputs of the export, nor the server's log
    outputs = [replay.stdout, replay.stderr, early.stdout, early.stderr]
    for text in [sealed.text, *answers, *outputs, short_server.log.read_text(errors="replace")]:
        assert seed not in text and seed.upper() not in text

    # after the end the revealed seed checks every logged roll of the sealed export
    checked = _tk20("verify", str(sealed_path), "--seed", seed, "--json")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    result = json.loads(checked.stdout)
    assert result["ok"] and result["dice_checked"] and result["rolls"] == len(rolls)
    wrong = ("0" if seed[0] != "0" else "1") + seed[1:]
    refused_seed = _tk20("verify", str(sealed_path), "--seed", wrong, "--json")
    assert refused_seed.returncode == 1
    assert "commitment" in " ".join(json.loads(refused_seed.stdout)["problems"])
    # the final export (with the seed) now goes to every seat
    final = co.get("/export")
    assert final.status_code == 200 and json.loads(final.text)["seed"] == seed
    final_path = tmp_path / "final.json"
    final_path.write_text(final.text, encoding="utf-8")
    whole = _tk20("verify", str(final_path), "--json")
    assert whole.returncode == 0 and json.loads(whole.stdout)["ok"], whole.stdout
