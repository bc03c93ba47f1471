"""The scenario editor's model (issue 14): every bundled scenario round-trips (load → save
with no edit gives the same data, and the same scenario), an edited map is saved inline,
validation gives tk20's own problems as file/key/line/problem, and the TOML writer writes
what it is given."""

from __future__ import annotations

import copy
import tomllib
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from taistelukentta.content.editing import (
    empty_model,
    load_model,
    model_data,
    model_toml,
    split_problem,
    validate_model,
)
from taistelukentta.content.loader import parse_toml
from taistelukentta.content.scenario import (
    bundled_ids,
    load_scenario,
    scenario_from_data,
    scenarios_dir,
)
from taistelukentta.content.tomlwrite import dumps
from taistelukentta.errors import ArgumentError


def _scenario_of(text: str, sid: str) -> Any:
    data = parse_toml(text, f"{sid}.toml")
    return scenario_from_data(data, source=sid, base_dir=scenarios_dir(), default_id=sid)


def _comparable(scenario: Any) -> dict[str, Any]:
    dump: dict[str, Any] = scenario.model_dump(exclude={"map", "source", "rule_caches"})
    m = scenario.map
    dump["map"] = (m.name, m.rows, m.elevation.tolist(), m.legend)
    return dump


@pytest.mark.parametrize("sid", bundled_ids())
def test_every_bundled_scenario_round_trips(sid: str) -> None:
    original = (scenarios_dir() / f"{sid}.toml").read_text(encoding="utf-8")
    model = load_model(sid)
    text = model_toml(model)
    # The same data as the file (the map stays a reference to its file) ...
    assert tomllib.loads(text) == tomllib.loads(original)
    # ... through JSON too (the browser's copy) ...
    assert model_toml(copy.deepcopy(model)) == text
    # ... and the same scenario when loaded.
    assert _comparable(_scenario_of(text, sid)) == _comparable(load_scenario(sid))
    assert validate_model(model) == []
    # Published (self-contained): the map inline, still the same scenario.
    inline = model_toml(model, inline_map=True)
    assert isinstance(tomllib.loads(inline)["map"], dict)
    assert _comparable(_scenario_of(inline, sid)) == _comparable(load_scenario(sid))


def test_an_edited_map_is_saved_inline_with_the_edit() -> None:
    model = load_model("demo")
    row = model["map"]["rows"][3]
    model["map"]["rows"][3] = "W" + row[1:]
    model["map"]["elevation"][0][0] = 7
    data = model_data(model)
    assert isinstance(data["map"], dict)
    scenario = _scenario_of(model_toml(model), "demo")
    assert scenario.map.features_at((0, 3)) == ("water",)
    assert scenario.map.elevation_at((0, 0)) == 7


def test_validation_names_file_key_line_and_problem() -> None:
    model = load_model("demo")
    water = (
        next(
            (x, y)
            for y, row in enumerate(model["map"]["rows"])
            for x, ch in enumerate(row)
            if ch == "W"
        )
        if any("W" in r for r in model["map"]["rows"])
        else None
    )
    if water is None:
        model["map"]["rows"][0] = "W" + model["map"]["rows"][0][1:]
        water = (0, 0)
    model["scenario"]["blue"]["seats"][1]["units"][1]["cell"] = list(water)
    problems = validate_model(model)
    assert len(problems) == 1, problems
    p = problems[0]
    assert p["file"] == "demo.toml"
    assert p["key"] == "blue.seats[1].units[1].cell"
    assert isinstance(p["line"], int)
    assert "impassable" in p["problem"] and str(water[0]) in p["problem"]
    # The line is the saved file's line of that unit.
    line = model_toml(model).splitlines()[p["line"] - 1]
    assert '"1R1"' in line


def test_empty_model_lists_what_is_missing() -> None:
    model = empty_model(12, 8)
    assert len(model["map"]["rows"]) == 8 and len(model["map"]["rows"][0]) == 12
    keys = {p["key"] for p in validate_model(model)}
    assert keys == {"blue.seats[0].units", "red.battle_groups[0].units"}
    model["scenario"]["blue"]["seats"][0]["units"].append(
        {"id": "KP", "card": "komppanianpaallikko", "cell": [1, 1]}
    )
    model["scenario"]["blue"]["seats"][0]["leader"] = "KP"
    model["scenario"]["red"]["battle_groups"][0]["units"].append(
        {"id": "R1", "card": "komentoyksikko", "cell": [10, 6]}
    )
    assert validate_model(model) == []
    with pytest.raises(ArgumentError):
        empty_model(0, 5)
    with pytest.raises(ArgumentError):
        empty_model(501, 5)


def test_split_problem() -> None:
    assert split_problem("rounds (line 3): must be at least 1") == {
        "key": "rounds",
        "line": 3,
        "problem": "must be at least 1",
    }
    assert split_problem("no colon here")["key"] == ""


_keys = st.from_regex(r"[a-z][a-z0-9_]{0,6}", fullmatch=True) | st.text(min_size=1, max_size=6)
_scalars = (
    st.integers(-(2**63), 2**63 - 1)
    | st.booleans()
    | st.floats(allow_nan=False)
    | st.text(st.characters(codec="utf-8"), max_size=30)
)
_values = st.recursive(
    _scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_keys, inner, max_size=3),
    max_leaves=12,
)


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(_keys, _values, max_size=6))
# A key that is bare but for a trailing newline ("$" in a regular expression also matches
# before a final newline): written as a bare key, it broke the file.
@example({"0\n": []})
@example({"a": {"b\n": 1}})
def test_toml_writer_writes_what_it_is_given(data: dict[str, Any]) -> None:
    assert tomllib.loads(dumps(data)) == data


def test_the_model_names_no_file_outside_the_data() -> None:
    model = load_model("demo")
    model["origin"] = {"map_ref": "/etc/hostname.toml", "map_raw": None}
    model["scenario"]["map"] = "../../../../etc/passwd"
    data = model_data(model)
    assert isinstance(data["map"], dict)  # written inline, nothing read
    model["origin"] = {"map_ref": "../maps/demo.toml", "map_raw": None}
    assert isinstance(model_data(model)["map"], dict)
    assert validate_model(model) == []
