"""``tk20 odds attack|morale|recon`` through the real command shell."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from typer.testing import CliRunner

from taistelukentta.cli.app import app
from taistelukentta.dice.roller import Advantage
from taistelukentta.i18n import set_language
from taistelukentta.odds.exact import attack_odds, morale_odds, recon_odds

runner = CliRunner()


@pytest.fixture(autouse=True)
def _finnish_afterwards() -> Iterator[None]:
    yield
    set_language("fi")


def _json(args: list[str]) -> dict[str, float]:
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert isinstance(data, dict)
    return data


def test_attack_json_keys_and_values() -> None:
    data = _json(["odds", "attack", "--bonus", "3", "--defence", "14", "--json"])
    assert list(data) == ["heavy_hit", "hit", "pinning", "miss", "natural_1", "expected_damage"]
    assert data["heavy_hit"] + data["hit"] + data["pinning"] + data["miss"] == pytest.approx(1)
    assert data == {k: float(v) for k, v in attack_odds(3, 14).as_dict().items()}
    assert data["expected_damage"] == 2.625


def test_attack_damage_option_changes_expected_damage() -> None:
    data = _json(
        ["odds", "attack", "--bonus", "3", "--defence", "14", "--damage", "2d4+1", "--json"]
    )
    assert data["expected_damage"] == float(attack_odds(3, 14, damage="2d4+1").expected_damage)


def test_r_dice_4_cli_advantage_and_disadvantage_cancel() -> None:
    base = ["odds", "attack", "--bonus", "2", "--defence", "13", "--json"]
    both = _json([*base, "--advantage", "--disadvantage"])
    assert both == _json(base)
    adv = _json([*base, "--advantage"])
    assert adv["natural_1"] == float(attack_odds(2, 13, advantage=Advantage.ADVANTAGE).natural_1)
    dis = _json([*base, "--disadvantage"])
    assert dis["miss"] > both["miss"] > adv["miss"]


def test_morale_json() -> None:
    data = _json(["odds", "morale", "--bonus", "2", "--dc", "12", "--json"])
    assert list(data) == ["pass", "shaken", "suppressed", "retreating"]
    assert data == {k: float(v) for k, v in morale_odds(2, 12).as_dict().items()}


def test_recon_json() -> None:
    data = _json(["odds", "recon", "--bonus", "3", "--stealth", "2", "--cover", "3", "--json"])
    assert list(data) == ["none", "suspected", "known", "spotted"]
    assert data == {k: float(v) for k, v in recon_odds(3, 2, 3).as_dict().items()}


def test_human_output_is_finnish_by_default() -> None:
    result = runner.invoke(app, ["odds", "attack", "--bonus", "3", "--defence", "14"])
    assert result.exit_code == 0
    for word in ("Raskas osuma", "Normaali osuma", "Estotuli", "Puhdas huti", "25,0 %"):
        assert word in result.stdout
    morale = runner.invoke(app, ["odds", "morale", "--bonus", "2", "--dc", "12"])
    assert "Tärähtänyt" in morale.stdout and "55,0 %" in morale.stdout
    recon = runner.invoke(app, ["odds", "recon", "--bonus", "3", "--stealth", "2", "--cover", "3"])
    assert "Havaittu" in recon.stdout and "Epäily" in recon.stdout


def test_human_output_in_english() -> None:
    result = runner.invoke(
        app, ["--lang", "en", "odds", "attack", "--bonus", "3", "--defence", "14"]
    )
    assert result.exit_code == 0
    assert "Heavy hit" in result.stdout and "25.0 %" in result.stdout


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["odds", "attack", "--bonus", "3", "--defence", "14", "--damage", "2d7"], "2d7"),
        (["odds", "attack", "--bonus", "3", "--defence", "14", "--damage", "lots"], "lots"),
        (["odds", "morale", "--bonus", "2", "--dc", "100"], "--dc"),
        (["odds", "morale", "--bonus", "99", "--dc", "12"], "--bonus"),
        (["odds", "attack", "--bonus", "3", "--defence", "-4"], "--defence"),
        (["odds", "recon", "--bonus", "3", "--stealth", "2", "--cover", "77"], "--cover"),
    ],
)
def test_bad_arguments_exit_2_with_a_message(args: list[str], needle: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert needle in result.output
    assert "Traceback" not in result.output
    assert result.stdout == ""


def test_missing_option_exits_2() -> None:
    result = runner.invoke(app, ["odds", "morale", "--bonus", "2"])
    assert result.exit_code == 2
