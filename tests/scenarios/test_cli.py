"""`tk20 scenarios` and `tk20 scenario NAME` through the real command."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from taistelukentta.cli.app import app
from tests.scenarios.conftest import BASE

runner = CliRunner()

# Things only the game master may see, per bundled scenario.
DEMO_SECRETS = ("tiemiinoite", "tiedusteluryhmä", "KRH 4", "R12", "27,6")
TV_SECRETS = ("tiesulku", "kylanreuna", "tarkka-ampujapari", "R31", "53,17", "MLRS")


def _json(args: list[str]) -> dict[str, Any]:
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert isinstance(data, dict)
    return data


def test_scenarios_lists_both() -> None:
    result = runner.invoke(app, ["scenarios"])
    assert result.exit_code == 0, result.output
    for text in (
        "demo",
        "terasvalli",
        "Operaatio Teräsvalli",
        "Yhteenotto Myllykylässä",
        "30×20",
        "60×40",
    ):
        assert text in result.output
    en = runner.invoke(app, ["--lang", "en", "scenarios"])
    assert en.exit_code == 0 and "Clash at Myllykylä" in en.output and "Rounds" in en.output


def test_scenarios_json() -> None:
    data = _json(["scenarios", "--json"])
    rows = {row["id"]: row for row in data["scenarios"]}
    assert rows["demo"]["rounds"] == 6
    assert rows["terasvalli"]["map"] == {"width": 60, "height": 40}
    assert rows["terasvalli"]["forces"] == {
        "blue_seats": 4,
        "blue_units": 18,
        "red_battle_groups": 3,
    }
    assert rows["demo"]["title"] == "Yhteenotto Myllykylässä"


def test_scenario_demo_hides_secrets() -> None:
    result = runner.invoke(app, ["scenario", "demo"])
    assert result.exit_code == 0, result.output
    out = result.output
    for text in ("Myllykylän tienristeys", "1JJ", "2PST", "Kotkanmäki", "bg1", "--gm"):
        assert text in out, text
    for secret in DEMO_SECRETS:
        assert secret not in out, secret


def test_scenario_demo_gm_shows_secrets() -> None:
    result = runner.invoke(app, ["scenario", "demo", "--gm"])
    assert result.exit_code == 0, result.output
    for secret in DEMO_SECRETS:
        assert secret in result.output, secret


def test_scenario_terasvalli_secrets_only_for_gm() -> None:
    player = runner.invoke(app, ["--lang", "en", "scenario", "terasvalli"])
    gm = runner.invoke(app, ["--lang", "en", "scenario", "terasvalli", "--gm"])
    assert player.exit_code == 0 and gm.exit_code == 0
    assert "Operation Teräsvalli" in player.output
    for secret in TV_SECRETS:
        if secret == "MLRS":  # the briefing tells the players about their fire support
            continue
        secret_en = secret.replace("tarkka-ampujapari", "sniper pair")
        assert secret_en not in player.output, secret
        assert secret_en in gm.output, secret


def test_scenario_json_hides_secrets_and_enemy_positions() -> None:
    data = _json(["scenario", "demo", "--json"])
    assert "secrets" not in data
    assert all("units" not in group for group in data["battle_groups"])
    # Red's numbers are secret (R-REC-5): the players get the briefing's estimate only.
    assert data["battle_groups"][0]["unit_count"] is None
    # Teräsvalli's bg1 holds a HIDDEN sniper pair: no count that includes it is printed.
    tv = _json(["scenario", "terasvalli", "--json"])
    assert [g["unit_count"] for g in tv["battle_groups"]] == [None, None, None]
    assert "tiemiinoite" not in json.dumps(data)
    assert data["map"]["width"] == 30 and len(data["map"]["terrain"]) == 20
    assert data["seats"][0]["units"][0]["id"] == "KP"
    gm = _json(["scenario", "demo", "--json", "--gm"])
    assert gm["secrets"]["minefields"][0]["id"] == "tiemiinoite"
    assert gm["secrets"]["organic_rounds"] == {"KRH": 4}
    assert gm["battle_groups"][0]["units"][1]["cell"] == [27, 6]


def test_scenario_map_drawing_and_elevation() -> None:
    result = runner.invoke(app, ["scenario", "demo", "--elevation"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    # the terrain drawing: 20 rows of 30 cells after a y label
    rows = [ln for ln in lines if ln[:3].strip().isdigit() and len(ln) == 33]
    assert len(rows) == 40  # terrain and elevation
    assert "Korkeuskäyrät" in result.output
    assert rows[20 + 4][3 + 18] == "6"  # the top of Kotkanmäki (18,4)


def test_unknown_scenario_exits_2_naming_the_bundled_ids() -> None:
    result = runner.invoke(app, ["scenario", "nope"])
    assert result.exit_code == 2
    assert "demo" in result.output and "terasvalli" in result.output
    assert "Traceback" not in result.output


def test_broken_scenario_file_exits_2_with_the_problem(map_dir: Path) -> None:
    path = map_dir / "cli_broken.toml"
    path.write_text(BASE.replace('card = "bmp2"', 'card = "leopard"'), encoding="utf-8")
    result = runner.invoke(app, ["--lang", "en", "scenario", str(path)])
    assert result.exit_code == 2
    assert "leopard" in result.output and "red.battle_groups[0].units[1].card" in result.output
    assert "Traceback" not in result.output


def test_scenario_from_a_path(map_dir: Path) -> None:
    path = map_dir / "cli_ok.toml"
    path.write_text(BASE, encoding="utf-8")
    data = _json(["scenario", str(path), "--json"])
    assert data["id"] == "koe" and data["map"]["width"] == 8
