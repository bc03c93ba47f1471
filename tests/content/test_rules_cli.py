"""`tk20 rules`, `tk20 units`, `tk20 unit ID`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from taistelukentta.cli import rules_cmds
from taistelukentta.cli.app import app
from taistelukentta.content.options import option_specs
from taistelukentta.content.units import UnitCard, load_unit_cards
from taistelukentta.i18n import set_language

from .test_options import RULE_IDS_WITH_DEFAULT_OR_VARIANT

runner = CliRunner()


@pytest.fixture(autouse=True)
def _finnish() -> object:
    yield
    set_language("fi")


def _json(args: list[str]) -> dict[str, object]:
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert isinstance(data, dict)
    return data


def test_rules_json_lists_every_option_and_rule_id() -> None:
    data = _json(["rules", "--json"])
    options = data["options"]
    assert isinstance(options, list)
    assert [o["name"] for o in options] == [s.name for s in option_specs()]
    rules = {o["rule"] for o in options}
    assert set(RULE_IDS_WITH_DEFAULT_OR_VARIANT) <= rules
    by_name = {o["name"]: o for o in options}
    assert by_name["hidden_radius"]["value"] == 2
    assert by_name["hidden_radius"]["variant"] == 5
    assert by_name["hidden_radius"]["kind"] == "variant"
    assert by_name["scatter"]["choices"] == ["corner", "corner_plus_d2", "2d4_d8_bullseye"]
    assert by_name["scatter"]["description"] == by_name["scatter"]["fi"]


def test_rules_json_in_english() -> None:
    data = _json(["--lang", "en", "rules", "--json"])
    options = data["options"]
    assert isinstance(options, list)
    assert all(o["description"] == o["en"] for o in options)
    assert data["language"] == "en"


def test_rules_table_shows_every_option_name() -> None:
    result = runner.invoke(app, ["rules"])
    assert result.exit_code == 0
    for spec in option_specs():
        assert spec.name in result.output
    assert "Sääntöoptiot" in result.output
    english = runner.invoke(app, ["--lang", "en", "rules"])
    assert "Rule options" in english.output and "variant" in english.output


def test_rules_filter_by_rule_id() -> None:
    data = _json(["rules", "--json", "--rule", "R-MOR"])
    options = data["options"]
    assert isinstance(options, list)
    assert options and all(o["rule"].startswith("R-MOR-") for o in options)
    single = _json(["rules", "--json", "--rule", "r-atk-4"])["options"]
    assert isinstance(single, list)
    assert {o["rule"] for o in single} == {"R-ATK-4"}
    bad = runner.invoke(app, ["rules", "--rule", "R-NOPE-1"])
    assert bad.exit_code == 2


def test_units_json_lists_every_card() -> None:
    data = _json(["units", "--json"])
    units = data["units"]
    assert isinstance(units, list)
    assert {u["id"] for u in units} == set(load_unit_cards())
    squad = next(u for u in units if u["id"] == "jaakariryhma")
    assert (squad["movement"], squad["firepower"], squad["cost_tp"]) == (7, "d6", 15)
    red = _json(["units", "--json", "--side", "red"])["units"]
    assert isinstance(red, list)
    assert {u["side"] for u in red} == {"red"}
    assert runner.invoke(app, ["units", "--side", "green"]).exit_code == 2


def test_units_table() -> None:
    result = runner.invoke(app, ["units"])
    assert result.exit_code == 0
    for card_id in load_unit_cards():
        assert card_id in result.output


def test_r_unit_4_unit_shows_one_card() -> None:
    data = _json(["unit", "jaakariryhma", "--json"])
    assert data["id"] == "jaakariryhma"
    assert data["skill"] == 2
    stats = data["stats"]
    assert isinstance(stats, dict) and stats["movement"] == 7
    result = runner.invoke(app, ["unit", "cv9030"])
    assert result.exit_code == 0
    assert "CV9030" in result.output and "30 mm" in result.output
    english = runner.invoke(app, ["--lang", "en", "unit", "cv9030"])
    assert "Weapons" in english.output and "Card overrides" in english.output


def test_unknown_unit_exits_2_naming_known_ids() -> None:
    result = runner.invoke(app, ["unit", "leopard"])
    assert result.exit_code == 2
    assert "leopard" in result.output
    assert "jaakariryhma" in result.output and "t72" in result.output
    assert "Traceback" not in result.output


def test_broken_cards_exit_2_with_file_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "rikki.toml").write_text('side = "blue"\n', encoding="utf-8")

    def broken() -> dict[str, UnitCard]:
        return load_unit_cards(tmp_path)

    monkeypatch.setattr(rules_cmds, "load_unit_cards", broken)
    result = runner.invoke(app, ["units"])
    assert result.exit_code == 2
    assert "rikki.toml" in result.output and "name" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
