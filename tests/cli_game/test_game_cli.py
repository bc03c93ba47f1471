"""``tk20 new/show/orders/order/replay/simulate/play`` through typer's CliRunner."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from taistelukentta.cli.app import app
from taistelukentta.storage.gamefile import load_game, save_game

runner = CliRunner()


def _flat(text: str) -> str:
    """Output with rich's line wrapping undone (whitespace runs become one space)."""
    return " ".join(text.split())


def _raw(args: list[str], input: str | None = None) -> str:
    result = runner.invoke(app, args, input=input)
    assert result.exit_code == 0, result.output
    return result.stdout


def _ok(args: list[str], input: str | None = None) -> str:
    return _flat(_raw(args, input))


def _json(args: list[str]) -> dict[str, Any]:
    out = _raw([*args, "--json"])
    data = json.loads(out)  # exactly one JSON object and nothing else
    assert isinstance(data, dict)
    return data


def test_new_default_path_and_random_seed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    data = _json(["new", "demo", "--seed", "12"])
    path = Path(data.pop("path"))
    assert data == {"scenario": "demo", "dice": "mt19937", "seed_commitment": None}
    assert path.parent == Path("games") and path.name.startswith("demo-")
    assert load_game(tmp_path / path).seed == 12
    first = _json(["new", "demo"])
    second = _json(["new", "demo"])
    # A fresh secret 256-bit seed, recorded in the file only: the output and the file name
    # give its SHA-256 commitment, never the seed.
    seeds = [load_game(tmp_path / d["path"]).seed for d in (first, second)]
    assert all(isinstance(s, bytes) and len(s) == 32 for s in seeds)
    assert seeds[0] != seeds[1]
    for d, s in zip((first, second), seeds, strict=True):
        assert isinstance(s, bytes)
        assert d["dice"] == "hmac-sha256"
        assert d["seed_commitment"] == hashlib.sha256(s).hexdigest()
        assert s.hex() not in json.dumps(d) and s.hex()[:8] not in d["path"]


def test_a_legacy_integer_seed_is_warned_of(tmp_path: Path) -> None:
    """Issue 8: an integer seed gives predictable dice and the old fog rules (kept for old
    files and repeatable tests): ``new`` and ``play`` say so on stderr, once; a secret or a
    64-hex-digit seed gives no warning. The JSON on stdout stays one object."""
    legacy = runner.invoke(app, ["new", "demo", "--seed", "12", "--out", str(tmp_path / "a.json")])
    assert legacy.exit_code == 0 and _flat(legacy.stderr).count("Varoitus: kokonaislukusiemen") == 1
    assert "64 heksanumeroa" in _flat(legacy.stderr)
    hexed = runner.invoke(
        app, ["new", "demo", "--seed", "ab" * 32, "--out", str(tmp_path / "b.json"), "--json"]
    )
    assert hexed.exit_code == 0 and hexed.stderr == ""
    assert json.loads(hexed.stdout)["dice"] == "hmac-sha256"
    fresh = runner.invoke(app, ["new", "demo", "--out", str(tmp_path / "c.json")])
    assert fresh.exit_code == 0 and fresh.stderr == ""
    played = runner.invoke(
        app, ["play", "demo", "--seed", "3", "--out", str(tmp_path / "d.json")], input="quit\n"
    )
    assert "kokonaislukusiemen" in _flat(played.stderr)


def test_new_refuses_to_overwrite_and_unknown_scenario(game: Path) -> None:
    result = runner.invoke(app, ["new", "demo", "--seed", "1", "--out", str(game)])
    assert result.exit_code == 2 and "on jo olemassa" in _flat(result.output)
    result = runner.invoke(app, ["new", "nosuch", "--out", str(game.with_name("x.json"))])
    assert result.exit_code == 2 and "nosuch" in _flat(result.output)
    assert "Traceback" not in result.output


def test_show_views_json(game: Path) -> None:
    blue = _json(["show", str(game), "--as", "blue"])
    assert blue["side"] == "blue" and blue["turn"] == 1 and blue["active_side"] == "blue"
    assert all(u["side"] == "blue" for u in blue["units"])
    gm = _json(["show", str(game), "--as", "gm"])
    assert {u["side"] for u in gm["units"]} == {"blue", "red"}
    seat = _json(["show", str(game), "--as", "pl2"])
    assert seat["seat"] == "pl2" and "seat_command_points" in seat


def test_show_human_output_draws_the_map_in_finnish_and_english(game: Path) -> None:
    out = _ok(["show", str(game), "--as", "blue"])
    assert "012345678901234567890123456789" in out  # the map's ruler
    assert "Yksiköt" in out and "kierros 1/6" in out and "1R1" in out
    assert "R11" not in out  # no Red unit without a contact
    out_en = _ok(["--lang", "en", "show", str(game), "--as", "blue"])
    assert "Units" in out_en and "round 1/6" in out_en
    gm = _ok(["show", str(game), "--as", "gm"])
    assert "R11" in gm


def test_show_unknown_viewer_exits_2(game: Path) -> None:
    result = runner.invoke(app, ["show", str(game), "--as", "pl9"])
    assert result.exit_code == 2 and "pl9" in _flat(result.output)


def test_orders_lists_legal_orders(game: Path) -> None:
    data = _json(["orders", str(game), "--as", "pl1"])
    assert data["seat"] == "pl1" and data["phase"] == "command"
    assert "done" in data["orders"] and "defend 1R1" in data["orders"]
    assert all(not o.startswith("fire") for o in data["orders"])
    red = _json(["orders", str(game), "--as", "red"])
    assert red["seat"] == "gm" and red["orders"] == []  # not Red's turn
    out = _ok(["orders", str(game), "--as", "pl1"])
    assert "defend 1R1" in out


def test_order_applies_and_saves(game: Path) -> None:
    data = _json(["order", str(game), "--as", "pl1", "move 1R1 12,7"])
    assert data["order"] == "move 1R1 12,7"
    assert any(e["kind"] == "move" for e in data["events"])
    record = load_game(game)
    assert [(o.seat, o.order) for o in record.orders] == [("pl1", "move 1R1 12,7")]
    # The hash of the full state would be a fingerprint of what the seat may not know.
    assert "state_hash" not in data and str(record.state_hash) not in json.dumps(data)
    out = _ok(["order", str(game), "--as", "pl1", "puolusta 1R2"])
    assert "1R2" in out


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("move 1R1 99,99", "kartan ulkopuolella"),
        ("marssi 1R1", "tuntematon käsky"),
        ("move KP 3,3", "kuuluu paikalle co"),
        ("fire 1R1 R11", "tulivaiheessa"),
        ("", "tyhjä käsky"),
    ],
)
def test_bad_order_exits_2_and_leaves_the_file_unchanged(
    game: Path, text: str, needle: str
) -> None:
    before = game.read_bytes()
    result = runner.invoke(app, ["order", str(game), "--as", "pl1", text])
    assert result.exit_code == 2
    assert needle in _flat(result.output)
    assert "Traceback" not in result.output
    assert game.read_bytes() == before


def test_r_rec_5_error_does_not_tell_whether_an_unseen_enemy_exists(game: Path) -> None:
    """An attack on an unseen Red unit reads exactly like one on a unit that does not exist."""
    _ok(["order", str(game), "--as", "co", "done"])
    real = runner.invoke(app, ["order", str(game), "--as", "pl1", "attack 1R1 R11"])
    fake = runner.invoke(app, ["order", str(game), "--as", "pl1", "attack 1R1 R99"])
    assert real.exit_code == fake.exit_code == 2
    assert real.output.replace("R11", "X") == fake.output.replace("R99", "X")


def test_replay_ok_and_tampered(game: Path) -> None:
    _ok(["order", str(game), "--as", "pl1", "move 1R1 12,7"])
    _ok(["order", str(game), "--as", "co", "done"])
    data = _json(["replay", str(game)])
    assert data["ok"] and data["orders"] == 2 and data["state_hash"] == data["saved_hash"]
    assert "OK" in _ok(["replay", str(game)])
    # tamper with the saved state (a unit's strength), keep the recorded hash
    record = load_game(game)
    assert record.state is not None
    record.state["units"][0]["strength"] = 1
    save_game(game, record)
    result = runner.invoke(app, ["replay", str(game)])
    assert result.exit_code == 1 and "muokattu" in _flat(result.output)
    # tamper with an order: the replay no longer arrives at the saved hash
    record = load_game(game)
    record.orders[0] = type(record.orders[0])("pl1", "move 1R1 11,7")
    save_game(game, record)
    result = runner.invoke(app, ["--lang", "en", "replay", str(game), "--json"])
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert not data["ok"] and data["problems"]


@pytest.mark.slow  # three whole computer games (the recorded-games test replays in the fast tier)
def test_simulate_is_deterministic(tmp_path: Path) -> None:
    a = _json(["simulate", "demo", "--seed", "4"])
    b = _json(["simulate", "demo", "--seed", "4"])
    assert a == b
    assert set(a) >= {"winner", "victory_points", "rounds", "state_hash"}
    assert a["winner"] in ("blue", "red", "draw") and set(a["victory_points"]) == {"blue", "red"}
    out = tmp_path / "sim.json"
    _ok(["simulate", "demo", "--seed", "4", "--out", str(out)])
    assert _json(["replay", str(out)])["state_hash"] == a["state_hash"]


def test_play_piped_script_then_resume(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    script = "help\norders\nmove 1R1 12,7\nmarssi\nmap\ndone\ndone\nquit\n"
    out = _ok(["play", "demo", "--seed", "5", "--out", str(path)], input=script)
    assert "Tietokone (Punainen) pelasi" in out  # the computer took Red's turn
    assert "Peli tallennettu" in out
    record = load_game(path)
    assert record.human == "blue"
    seats = [o.seat for o in record.orders]
    assert ("pl1", "move 1R1 12,7") in [(o.seat, o.order) for o in record.orders]
    assert "gm" in seats  # Red's orders recorded too
    n = len(record.orders)
    # resume: the game goes on from the file; end of input saves and stops
    out = _ok(["--lang", "en", "play", str(path)], input="defend 1R2\n")
    assert "Game saved" in out
    assert len(load_game(path).orders) == n + 1
    assert _json(["replay", str(path)])["ok"]


def test_play_shows_odds_and_asks_before_firing(tmp_path: Path) -> None:
    path = tmp_path / "f.json"
    # seed 5: Red's R13 comes into reach of 1R1 at 12,7 in Red's first turn
    script = "move 1R1 12,7\ndone\ndone\ndone\nfire 1R1 R13\ne\nquit\n"
    out = _ok(["play", "demo", "--seed", "5", "--out", str(path)], input=script)
    assert "Todennäköisyydet: 1R1 → R13" in out and "Raskas osuma" in out
    assert "Peruttu." in out
    assert not any(o.order.startswith("fire") for o in load_game(path).orders)


def test_play_as_red(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    out = _ok(
        ["play", "demo", "--as", "red", "--seed", "3", "--out", str(path)], input="done\nquit\n"
    )
    assert "Tietokone (Sininen) pelasi" in out
    record = load_game(path)
    assert record.human == "red" and any(o.seat == "gm" for o in record.orders)


def test_play_bad_side_exits_2() -> None:
    result = runner.invoke(app, ["play", "demo", "--as", "green"])
    assert result.exit_code == 2 and "green" in _flat(result.output)


def test_play_resumed_game_goes_on_as_an_uninterrupted_one(tmp_path: Path) -> None:
    whole, split = tmp_path / "whole.json", tmp_path / "split.json"
    _ok(["play", "demo", "--seed", "8", "--out", str(whole)], input="done\ndone\ndone\nquit\n")
    _ok(["play", "demo", "--seed", "8", "--out", str(split)], input="done\nquit\n")
    _ok(["play", str(split)], input="done\ndone\nquit\n")
    a, b = load_game(whole), load_game(split)
    assert [(o.seat, o.order) for o in a.orders] == [(o.seat, o.order) for o in b.orders]
    assert a.state_hash == b.state_hash
    assert sum(o.seat == "gm" for o in a.orders) > 2  # the computer played in between
