"""``tk20 show`` / ``tk20 play`` for issue 4's rules: found minefields and pending strikes
on the map and in the panel (to the right viewer only), the command panel, the full order
help, odds before fire requests and before fire with a chosen weapon."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from taistelukentta.bots import BaselineBot
from taistelukentta.bots.runner import bot_seed, run_bots
from taistelukentta.cli.app import app
from taistelukentta.content.scenario import load_scenario
from taistelukentta.rules import new_game
from taistelukentta.rules.ruleset import default_ruleset
from taistelukentta.rules.state import SIDES
from taistelukentta.storage.gamefile import load_game
from taistelukentta.storage.session import create_game
from tests.golden.test_golden_views import SCRIPT, SEED, STRIKE_ORDERED

runner = CliRunner()


def _run(args: list[str], input: str | None = None) -> str:
    result = runner.invoke(app, args, input=input)
    assert result.exit_code == 0, result.output
    return result.stdout


def _flat(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture(scope="module")
def pending_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """demo seed 11 after the golden script's organic strike order (pending, KP found and
    stands in the road minefield at 10,11)."""
    path = tmp_path_factory.mktemp("g") / "pending.json"
    session = create_game("demo", SEED, path, human="blue")
    for seat, text in SCRIPT[:STRIKE_ORDERED]:
        session.give(seat, text)
    return path


def _map_row(out: str, y: int) -> str:
    for line in out.splitlines():
        if line.startswith(f"{y:>2} "):
            return line[3:]
    raise AssertionError(f"no map row {y}")


def test_r_off_2_show_json_is_the_view(pending_game: Path) -> None:
    blue = json.loads(_run(["show", str(pending_game), "--as", "blue", "--json"]))
    red = json.loads(_run(["show", str(pending_game), "--as", "red", "--json"]))
    gm = json.loads(_run(["show", str(pending_game), "--as", "gm", "--json"]))
    for view in (blue, red, gm):
        assert {"command", "fire_support", "mines", "abilities"} <= set(view)
    assert [p["cell"] for p in blue["fire_support"]["pending"]] == [[16, 10]]
    assert "due" not in blue["fire_support"]["pending"][0]
    assert red["fire_support"]["pending"] == [] and red["command"] == {}
    assert gm["fire_support"]["pending"][0]["due"] == 5
    assert {"cell": [10, 11], "type": "AP"} in blue["mines"]["known"]


def test_r_org_1_show_marks_the_strike_for_its_side_only(pending_game: Path) -> None:
    blue = _run(["show", str(pending_game), "--as", "blue"])
    red = _run(["show", str(pending_game), "--as", "red"])
    gm = _run(["show", str(pending_game), "--as", "gm"])
    assert _map_row(blue, 10)[16] == "*"
    assert _map_row(gm, 10)[16] == "1"  # the GM sees the turns to impact
    # Red sees its own R13 there (battle group 1), no strike mark
    red_unit = json.loads(_run(["show", str(pending_game), "--as", "red", "--json"]))
    assert any(u["id"] == "R13" and u["cell"] == [16, 10] for u in red_unit["units"])
    assert _map_row(red, 10)[16] == "1"
    assert "Tulipyyntö matkalla" in _flat(blue) and "iskee" not in _flat(blue)
    assert "iskee 1 vuoron päästä" in _flat(gm)
    assert "Tulipyyntö matkalla" not in _flat(red)


def test_r_mine_2_show_marks_the_found_minefield(pending_game: Path) -> None:
    blue = _flat(_run(["show", str(pending_game), "--as", "blue"]))
    red = _flat(_run(["show", str(pending_game), "--as", "red"]))
    assert "KP on miinoitteessa ruudussa 10,11" in blue
    assert "miinoitteessa" not in red


def test_r_link_1_show_command_panel(pending_game: Path) -> None:
    out = _flat(_run(["--lang", "en", "show", str(pending_game), "--as", "pl1"]))
    assert "Command: Company commander co (KP); pl1 linked, pl2 linked" in out
    assert "Tactic this turn: no; Motti used: no" in out
    assert "Command points: co 4, pl1 3, pl2 3" in out
    red = _flat(_run(["--lang", "en", "show", str(pending_game), "--as", "red"]))
    assert "Command:" not in red


def test_play_help_lists_every_order_kind(tmp_path: Path) -> None:
    out = _run(
        ["--lang", "en", "play", "demo", "--seed", "3", "--out", str(tmp_path / "h.json")], "help\n"
    )
    for kind in default_ruleset().vocabulary.kinds:
        assert f"  {kind.value}" in out, kind


def test_r_org_1_play_shows_organic_odds_and_asks(tmp_path: Path) -> None:
    path = tmp_path / "o.json"
    session = create_game("demo", SEED, path, human="blue")
    for seat, text in SCRIPT[: STRIKE_ORDERED - 1]:
        session.give(seat, text)
    out = _flat(_run(["play", str(path)], "organic KRH 16,10 by KP\ne\nquit\n"))
    assert "ei hajontaa" in out and "R13 (vihollinen, 16,10): osuma 100,0 %" in out
    assert "Peruttu." in out
    assert not any(o.order.startswith("organic") for o in load_game(path).orders)
    out = _flat(_run(["play", str(path)], "organic KRH 16,10 by KP\nk\nquit\n"))
    assert any(o.order == "organic KRH 16,10 by KP" for o in load_game(path).orders)


@pytest.fixture(scope="module")
def strike_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """terasvalli seed 1 after the bots' first three Blue orders: the CO may call a K9
    strike on 19,11 with 1JJ observing (a SPOTTED contact there)."""
    scen = load_scenario("terasvalli")
    start = new_game(scen, 1)
    _, played = run_bots(start, {s: BaselineBot(bot_seed(1, s)) for s in SIDES})
    path = tmp_path_factory.mktemp("t") / "strike.json"
    session = create_game("terasvalli", 1, path, human="blue")
    for p in played[:3]:
        session.give(p.seat, p.order)
    return path


def test_r_off_3_play_shows_strike_odds_and_asks(strike_game: Path, tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    path.write_bytes(strike_game.read_bytes())
    out = _flat(_run(["play", str(path)], "strike k9 19,11 by 1JJ\ne\nquit\n"))
    assert "Tulipyyntö: K9 → 19,11 (kontakti Havaittu, hajonta corner)" in out
    assert "maaliruutu iskualueella 100,0 %" in out
    assert "Peruttu." in out
    n = len(load_game(path).orders)
    out = _flat(_run(["--lang", "en", "play", str(path)], "strike k9 19,11 by 1JJ\ny\nquit\n"))
    assert "Fire request: K9 → 19,11 (contact Spotted" in out
    record = load_game(path)
    assert len(record.orders) == n + 1 and record.orders[-1].order == "strike k9 19,11 by 1JJ"
    assert record.orders[-1].seat == "co"
    # the requesting side sees its strike without the delay; the other side nothing
    blue: dict[str, Any] = json.loads(_run(["show", str(path), "--as", "blue", "--json"]))
    red: dict[str, Any] = json.loads(_run(["show", str(path), "--as", "red", "--json"]))
    assert [p["weapon"] for p in blue["fire_support"]["pending"]] == ["k9"]
    assert not {"delay", "delay_die", "due"} & set(blue["fire_support"]["pending"][0])
    assert red["fire_support"]["pending"] == []
    gm: dict[str, Any] = json.loads(_run(["show", str(path), "--as", "gm", "--json"]))
    (strike,) = gm["fire_support"]["pending"]
    assert {"delay", "delay_die", "due"} <= set(strike) and strike["weapon"] == "k9"
    gm_text = _flat(_run(["show", str(path), "--as", "gm"]))
    assert f"(turn_no {strike['due']})" in gm_text


def test_r_unit_3_play_shows_odds_with_the_weapon(tmp_path: Path) -> None:
    path = tmp_path / "w.json"
    # seed 5: R13 comes into reach of 1R1 at 12,7 in Red's first turn (see test_game_cli)
    script = "move 1R1 12,7\ndone\ndone\ndone\nfire 1R1 R13 with jalkavakiaseistus\ne\nquit\n"
    out = _flat(_run(["play", "demo", "--seed", "5", "--out", str(path)], script))
    assert "Todennäköisyydet: 1R1 → R13 [jalkavakiaseistus]" in out
    assert "taito +" in out and "Peruttu." in out
