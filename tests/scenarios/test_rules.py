"""Rule-ID tests of the scenario checks (R-GEO-4 stacking) with hypothesis."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taistelukentta.content.scenario import scenario_from_data
from taistelukentta.errors import DataError
from tests.scenarios.conftest import BASE

STACK_CELL = (2, 4)  # a road cell of the tiny map, away from every base unit


def _stacked(extra: int, limit: int | None, mixed: bool | None = None) -> str:
    """BASE with ``extra`` more rifle squads of pl1 on STACK_CELL, optional option overrides."""
    units = "".join(
        f'  {{ id = "X{i}", card = "jaakariryhma", cell = [{STACK_CELL[0]}, {STACK_CELL[1]}] }},\n'
        for i in range(extra)
    )
    text = BASE.replace(
        '  { id = "1R1", card = "jaakariryhma", cell = [1, 1] },\n',
        '  { id = "1R1", card = "jaakariryhma", cell = [1, 1] },\n' + units,
    )
    options = []
    if limit is not None:
        options.append(f"stacking_limit = {limit}")
    if mixed is not None:
        options.append(f"stacking_mixed_sides = {str(mixed).lower()}")
    if options:
        text += "\n[options]\n" + "\n".join(options) + "\n"
    return text


def _load(text: str, folder: Path) -> None:
    scenario_from_data(tomllib.loads(text), source="stack.toml", text=text, base_dir=folder)


@settings(max_examples=25, deadline=None)
@given(units=st.integers(min_value=1, max_value=5), limit=st.integers(min_value=1, max_value=4))
def test_r_geo_4_stacking_limit_in_scenario(map_dir: Path, units: int, limit: int) -> None:
    """R-GEO-4: more units in a cell than `stacking_limit` (data, not code) is an error."""
    text = _stacked(units, limit)
    if units <= limit:
        _load(text, map_dir)
        return
    with pytest.raises(DataError) as info:
        _load(text, map_dir)
    problems = [p for p in info.value.problems if "stacking limit" in p]
    assert len(problems) == 1
    assert f"{units} units in cell 2,4" in problems[0]
    assert f"the stacking limit is {limit}" in problems[0]
    # the key and line of the first unit over the limit
    over = f"X{limit}"
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if f'id = "{over}"' in ln)
    assert problems[0].startswith(f"blue.seats[1].units[{2 + limit}].cell (line {line})")


def test_r_geo_4_default_limit_is_two(map_dir: Path) -> None:
    _load(_stacked(2, None), map_dir)
    with pytest.raises(DataError, match="the stacking limit is 2"):
        _load(_stacked(3, None), map_dir)


def test_r_geo_4_never_both_sides_unless_the_option_allows(map_dir: Path) -> None:
    text = BASE.replace("cell = [6, 4]", "cell = [1, 1]")
    with pytest.raises(DataError, match="units of both sides in cell 1,1"):
        _load(text, map_dir)
    _load(text + "\n[options]\nstacking_mixed_sides = true\n", map_dir)
