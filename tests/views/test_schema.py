"""``tk20 schema``: one JSON Schema document for the typed views and events, valid JSON
Schema, that real views of played games validate against (and broken ones do not)."""

from __future__ import annotations

import copy
import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from typer.testing import CliRunner

from taistelukentta.bots.runner import simulate
from taistelukentta.cli.app import app
from taistelukentta.content.scenario import load_scenario
from taistelukentta.rules import GameState, apply, new_game
from taistelukentta.views import view_for
from taistelukentta.views.models import GMView, SeatView, SideView, view_schema


@cache
def _validator() -> Draft202012Validator:
    schema = view_schema()
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


@cache
def _states(name: str, seed: int) -> tuple[GameState, ...]:
    """Every 15th state of a bot game, and its end."""
    scen = load_scenario(name)
    _, played = simulate(scen, seed)
    state = new_game(scen, seed)
    out = [state]
    for n, p in enumerate(played, start=1):
        state, _ = apply(state, p.seat, p.order)
        if n % 15 == 0:
            out.append(state)
    out.append(state)
    return tuple(out)


def test_schema_is_valid_json_schema_with_defs() -> None:
    schema = view_schema()
    Draft202012Validator.check_schema(schema)
    for name in ("SideView", "SeatView", "GMView", "EventView", "OwnUnitView", "CommandView"):
        assert name in schema["$defs"], name
    assert json.loads(json.dumps(schema)) == schema


@pytest.mark.parametrize(
    ("name", "seed"), [("demo", 3), pytest.param("terasvalli", 2, marks=pytest.mark.slow)]
)
def test_r_rec_5_real_views_validate_against_the_schema(name: str, seed: int) -> None:
    """The JSON of every view (side, seat, game master; with the log, through a whole bot
    game to its end) is valid against the published schema, and parses back into the same
    typed model."""
    validator = _validator()
    checked = 0
    for state in _states(name, seed):
        for viewer in ("blue", "red", "gm", *state.seats("blue")):
            view = view_for(state, viewer)
            data = view.model_dump(mode="json")
            errors = [e.message for e in validator.iter_errors(data)]
            assert not errors, (viewer, errors[:3])
            model = {"gm": GMView, "blue": SideView, "red": SideView}.get(viewer, SeatView)
            assert model.model_validate_json(view.model_dump_json()) == view
            checked += 1
    assert checked > 20


def test_schema_rejects_a_renamed_or_extra_key() -> None:
    """A client built from the schema notices a renamed key: the schema can fail."""
    validator = _validator()
    good = view_for(_states("demo", 3)[1], "blue").model_dump(mode="json")
    assert validator.is_valid(good)
    renamed: dict[str, Any] = copy.deepcopy(good)
    renamed["units"][0]["hp"] = renamed["units"][0].pop("strength")
    assert not validator.is_valid(renamed)
    extra = copy.deepcopy(good)
    extra["fire_support"]["pending"] = [
        {"id": "s1", "kind": "off_board", "observer": "KP", "cell": [1, 1], "due": 3}
    ]
    assert not validator.is_valid(extra)  # a pending strike's due turn is the GM's (R-OFF-2)


def test_tk20_schema_prints_and_writes_the_document(tmp_path: Path) -> None:
    runner = CliRunner()
    printed = runner.invoke(app, ["schema"])
    assert printed.exit_code == 0, printed.output
    assert json.loads(printed.stdout) == view_schema()
    out = tmp_path / "views.schema.json"
    written = runner.invoke(app, ["schema", "--out", str(out)])
    assert written.exit_code == 0, written.output
    assert json.loads(out.read_text(encoding="utf-8")) == view_schema()
    bad = runner.invoke(app, ["schema", "--out", str(tmp_path / "no" / "such" / "dir.json")])
    assert bad.exit_code == 2 and "Traceback" not in bad.output
