"""A broken scenario file gives one DataError naming the file, the key, the line and the problem."""

from __future__ import annotations

from pathlib import Path

import pytest

from taistelukentta.content.scenario import load_scenario, load_scenario_file
from taistelukentta.errors import DataError
from tests.scenarios.conftest import BASE

# (test id, text to replace in BASE ("" = append), replacement, key path, message, line marker)
# The problem must name the key path, say the message, and give the line of the marker.
CASES: list[tuple[str, str, str, str, str, str | None]] = [
    (
        "unknown card",
        'card = "jaakariryhma"',
        'card = "jaakariryhmä"',
        "blue.seats[1].units[1].card",
        "unknown unit card 'jaakariryhmä'",
        "jaakariryhmä",
    ),
    (
        "card of the other side",
        'card = "bmp2"',
        'card = "cv9030"',
        "red.battle_groups[0].units[1].card",
        "is a blue card",
        "cv9030",
    ),
    (
        "duplicate unit id",
        '{ id = "R2", card = "bmp2"',
        '{ id = "1R1", card = "bmp2"',
        "red.battle_groups[0].units[1].id",
        "duplicate unit id '1R1'",
        '{ id = "1R1", card = "bmp2"',
    ),
    (
        "cell off the map",
        "cell = [7, 4]",
        "cell = [8, 4]",
        "red.battle_groups[0].units[0].cell",
        "off the map (8×5)",
        "[8, 4]",
    ),
    (
        "impassable cell",
        "cell = [1, 1] }",
        "cell = [4, 2] }",
        "blue.seats[1].units[1].cell",
        "is impassable (water)",
        "[4, 2]",
    ),
    (
        "both sides in one cell",
        "cell = [6, 4]",
        "cell = [1, 1]",
        "red.battle_groups[0].units[1].cell",
        "units of both sides in cell 1,1 (1R1, R2)",
        '{ id = "R2"',
    ),
    (
        "strength above the card's maximum",
        "cell = [7, 4] }",
        "cell = [7, 4], strength = 99 }",
        "red.battle_groups[0].units[0].strength",
        "exceeds the card's maximum 9",
        "strength = 99",
    ),
    (
        "seat without units",
        """units = [
  { id = "1JJ", card = "joukkueenjohtaja", cell = [1, 0] },
  { id = "1R1", card = "jaakariryhma", cell = [1, 1] },
]""",
        "units = []",
        "blue.seats[1].units",
        "seat 'pl1' has no units",
        "units = []",
    ),
    (
        "leader not one of the seat's units",
        'leader = "1JJ"',
        'leader = "R1"',
        "blue.seats[1].leader",
        "leader 'R1' is not one of the units of seat 'pl1'",
        'leader = "R1"',
    ),
    (
        "leader with the wrong card role",
        'leader = "1JJ"',
        'leader = "1R1"',
        "blue.seats[1].leader",
        "whose role is 'none', not 'platoon_leader'",
        'leader = "1R1"',
    ),
    (
        "battle group leader not one of its units",
        'name = "Vihollinen"',
        'name = "Vihollinen"\nleader = "1R1"',
        "red.battle_groups[0].leader",
        "leader '1R1' is not one of the units of battle group 'bg1'",
        'leader = "1R1"',
    ),
    (
        "two company commanders",
        'role = "platoon_leader"',
        'role = "company_commander"',
        "blue.seats",
        "exactly one seat must have role 'company_commander', found 2",
        "[[blue.seats]]",
    ),
    (
        "no company commander",
        'id = "co"\nrole = "company_commander"',
        'id = "pl2"\nrole = "platoon_leader"',
        "blue.seats",
        "exactly one seat must have role 'company_commander', found 0",
        "[[blue.seats]]",
    ),
    (
        "seat id not co/plN",
        'id = "pl1"',
        'id = "xo"',
        "blue.seats[1].id",
        "seat id 'xo' must be 'co' or 'pl1', 'pl2', …",
        'id = "xo"',
    ),
    (
        "platoon seats with a gap",
        'id = "pl1"',
        'id = "pl3"',
        "blue.seats",
        "platoon seats must be numbered pl1 … pl1 without gaps, found pl3",
        "[[blue.seats]]",
    ),
    (
        "co seat with the platoon role",
        'role = "company_commander"',
        'role = "platoon_leader"',
        "blue.seats[0].role",
        "seat 'co' must have role 'company_commander'",
        'role = "platoon_leader"',
    ),
    (
        "battle group id",
        'id = "bg1"',
        'id = "bg2"',
        "red.battle_groups",
        "battle groups must be numbered bg1 … bg1",
        "[[red.battle_groups]]",
    ),
    (
        "unknown option override",
        "",
        "\n[options]\nstaking_limit = 3\n",
        "options.staking_limit",
        "staking_limit",
        "staking_limit = 3",
    ),
    (
        "objective off the map",
        "cells = [[5, 1]]",
        "cells = [[5, 9]]",
        "objectives[0].cells[0]",
        "cell 5,9 of objective 'kukkula' is off the map",
        "[[5, 9]]",
    ),
    (
        "duplicate objective id",
        "",
        '\n[[objectives]]\nid = "kukkula"\nname = "Toinen"\ncells = [[2, 2]]\nvp = 1\n',
        "objectives",
        "objective id 'kukkula' is used 2 times",
        'id = "kukkula"',
    ),
    (
        "minefield off the map",
        "",
        '\n[[secrets.minefields]]\nid = "m1"\ntype = "AP"\nat = [7, 4]\n',
        "secrets.minefields[0].cells",
        "cell 8,4 of minefield 'm1' is off the map",
        "at = [7, 4]",
    ),
    (
        "minefield under an enemy unit",
        "",
        '\n[[secrets.minefields]]\nid = "m1"\ntype = "AT"\nat = [0, 0]\n',
        "secrets.minefields[0].cells",
        "minefield 'm1' lies under blue unit 'KP' at 0,0",
        "at = [0, 0]",
    ),
    (
        "minefield box of the wrong shape",
        "",
        '\n[[secrets.minefields]]\nid = "m1"\ntype = "AP"\nshape = "box"\n'
        "cells = [[0, 3], [1, 3], [2, 3], [3, 3]]\n",
        "secrets.minefields[0].cells",
        "a box is 2×2 adjacent cells",
        "cells = [[0, 3]",
    ),
    (
        "minefield strip with a hole",
        "",
        '\n[[secrets.minefields]]\nid = "m1"\ntype = "AP"\nshape = "strip"\n'
        "cells = [[0, 3], [1, 3], [2, 3], [5, 3]]\n",
        "secrets.minefields[0].cells",
        "a strip is 4 cells in a row or a column",
        "cells = [[0, 3]",
    ),
    (
        "organic rounds for a unit that does not exist",
        "",
        "\n[secrets.organic_rounds]\nKRH = 4\n",
        "secrets.organic_rounds.KRH",
        "no unit 'KRH' in the scenario",
        "KRH = 4",
    ),
    (
        "organic rounds for a unit without organic fire support",
        "",
        "\n[secrets.organic_rounds]\n1R1 = 4\n",
        "secrets.organic_rounds.1R1",
        "unit '1R1' has no organic fire support",
        "1R1 = 4",
    ),
    (
        "empty title",
        'title = { fi = "Koe", en = "Test" }',
        'title = { fi = "Koe", en = "" }',
        "title.en",
        "at least 1 character",
        "title = {",
    ),
    (
        "off-board requests without weapons",
        "",
        "\n[secrets.fire_support]\noff_board_requests = 2\n",
        "secrets.fire_support.weapons",
        "no weapons",
        None,
    ),
    (
        "map file not found",
        'map = "tiny.toml"',
        'map = "missing.toml"',
        "map",
        "map file 'missing.toml' not found",
        'map = "missing.toml"',
    ),
    (
        "missing key",
        "rounds = 3\n",
        "",
        "rounds",
        "Field required",
        None,
    ),
    (
        "misspelt key",
        "rounds = 3",
        "rounds = 3\nround = 4",
        "round",
        "Extra inputs are not permitted",
        "round = 4",
    ),
    (
        "cell of the wrong type",
        "cell = [1, 1] }",
        'cell = "B2" }',
        "blue.seats[1].units[1].cell",
        "valid tuple",
        '"B2"',
    ),
    (
        "unknown side to move first",
        'first_side = "blue"',
        'first_side = "green"',
        "first_side",
        "'blue' or 'red'",
        'first_side = "green"',
    ),
    (
        "unit id with a space",
        '{ id = "R1",',
        '{ id = "R 1",',
        "red.battle_groups[0].units[0].id",
        "String should match pattern",
        '{ id = "R 1",',
    ),
    (
        "minefield 'at' and 'cells' together",
        "",
        '\n[[secrets.minefields]]\nid = "m1"\ntype = "AP"\nat = [0, 3]\ncells = [[0, 3]]\n',
        "secrets.minefields[0]",
        "give either 'at' or 'cells'",
        None,
    ),
]


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    return path


def _mutate(old: str, new: str) -> str:
    if not old:
        return BASE + new
    assert old in BASE, f"test case does not match the base scenario: {old!r}"
    return BASE.replace(old, new, 1)


def _line_of(text: str, marker: str) -> int:
    for number, line in enumerate(text.splitlines(), start=1):
        if marker.splitlines()[0] in line:
            return number
    raise AssertionError(f"marker {marker!r} not in the text")


def test_base_scenario_is_valid(map_dir: Path) -> None:
    scenario = load_scenario_file(_write(map_dir, "base", BASE))
    assert scenario.id == "koe"
    assert [s.id for s in scenario.blue.seats] == ["co", "pl1"]
    assert scenario.map.width == 8 and scenario.map.height == 5
    assert set(scenario.cards) == {
        "komppanianpaallikko",
        "joukkueenjohtaja",
        "jaakariryhma",
        "motorisoitu_jalkavakiryhma",
        "bmp2",
    }


@pytest.mark.parametrize(
    ("old", "new", "key", "message", "marker"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_broken_scenario_names_file_key_and_line(
    map_dir: Path, old: str, new: str, key: str, message: str, marker: str | None
) -> None:
    text = _mutate(old, new)
    path = _write(map_dir, "broken", text)
    with pytest.raises(DataError) as info:
        load_scenario_file(path)
    err = info.value
    assert err.path == str(path)
    assert str(path) in str(err)
    matching = [p for p in err.problems if p.startswith(key) and message in p]
    assert matching, f"no problem with key {key!r} and {message!r} in {err.problems}"
    if marker is not None:
        line = _line_of(text, marker)
        assert any(f"(line {line})" in p for p in matching), (line, matching)


def test_every_problem_is_listed_at_once(map_dir: Path) -> None:
    text = (
        BASE.replace('card = "jaakariryhma"', 'card = "tykki"')
        .replace("cell = [7, 4]", "cell = [70, 4]")
        .replace('leader = "1JJ"', 'leader = "X"')
        + "\n[options]\nno_such_option = 1\n"
    )
    with pytest.raises(DataError) as info:
        load_scenario_file(_write(map_dir, "many", text))
    problems = info.value.problems
    assert any("unknown unit card 'tykki'" in p for p in problems)
    assert any("off the map" in p for p in problems)
    assert any("leader 'X'" in p for p in problems)
    assert any("no_such_option" in p for p in problems)
    assert len(problems) >= 4


def test_toml_syntax_error_is_a_data_error(map_dir: Path) -> None:
    path = _write(map_dir, "syntax", BASE.replace("rounds = 3", "rounds = = 3"))
    with pytest.raises(DataError, match="TOML syntax error"):
        load_scenario_file(path)


def test_broken_inline_map_names_the_map_key(map_dir: Path) -> None:
    text = BASE.replace('map = "tiny.toml"\n', "") + '\n[map]\nterrain = """\n..\n.\n"""\n'
    with pytest.raises(DataError) as info:
        load_scenario_file(_write(map_dir, "inline_broken", text))
    assert any(p.startswith("map.terrain row 1") for p in info.value.problems), info.value


def test_load_scenario_accepts_a_path(map_dir: Path) -> None:
    path = _write(map_dir, "by_path", BASE)
    assert load_scenario(str(path)).id == "koe"
