"""`tk20 move`, `tk20 los`, `tk20 reach` through the real command."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from taistelukentta.cli.app import app
from taistelukentta.content.loader import data_path
from taistelukentta.content.maps import load_map
from taistelukentta.grid import line_of_sight, reachable

runner = CliRunner()
EXAMPLE = str(data_path("maps", "example.toml"))
WORKED = "road,road,field,field,field,swamp,swamp,swamp"


def _json(args: list[str]) -> dict[str, object]:
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert isinstance(data, dict)
    return data


def test_r_ter_3_move_worked_example_json() -> None:
    data = _json(["move", "--movement", "7", "--path", WORKED, "--json"])
    assert data["cells"] == 7
    steps = data["steps"]
    assert isinstance(steps, list) and len(steps) == 7
    assert steps[0] == {"terrain": "road", "cost": 0.5, "remaining": 6.5}
    assert steps[-1] == {"terrain": "swamp", "cost": 2.0, "remaining": 0.0}


def test_move_human_output_in_finnish_and_english() -> None:
    fi = runner.invoke(app, ["move", "--movement", "7", "--path", WORKED])
    assert fi.exit_code == 0 and "Suo" in fi.output and "7/8" in fi.output
    en = runner.invoke(app, ["--lang", "en", "move", "--movement", "7", "--path", WORKED])
    assert en.exit_code == 0 and "Swamp" in en.output and "Stopped" in en.output


def test_move_accepts_finnish_terrain_names() -> None:
    data = _json(["move", "-L", "2", "--path", "tie,metsä", "--json"])
    assert data["cells"] == 2


def test_move_bad_arguments_exit_2() -> None:
    r = runner.invoke(app, ["move", "--movement", "7", "--path", "road,lava"])
    assert r.exit_code == 2 and "lava" in r.output
    r = runner.invoke(app, ["--lang", "en", "move", "--movement", "-1", "--path", "road"])
    assert r.exit_code == 2 and "at least 0" in r.output


def test_r_ter_4_los_json_matches_library() -> None:
    m = load_map(EXAMPLE)
    for a, b in (((0, 0), (9, 0)), ((3, 3), (6, 4)), ((1, 1), (5, 1))):
        data = _json(
            ["los", EXAMPLE, "--from", f"{a[0]},{a[1]}", "--to", f"{b[0]},{b[1]}", "--json"]
        )
        s = line_of_sight(m, a, b)
        assert data["visible"] == s.visible and data["distance"] == s.distance
        assert data["cover"] == s.cover and data["limited_by"] == s.limited_by
    data = _json(["los", EXAMPLE, "--from", "0,0", "--to", "9,0", "--json"])
    assert data["visible"] is False and data["limited_by"] == "forest"


def test_los_human_output() -> None:
    r = runner.invoke(app, ["--lang", "en", "los", EXAMPLE, "--from", "0,0", "--to", "9,0"])
    assert r.exit_code == 0 and "Forest" in r.output and "no" in r.output


def test_reach_json_lists_sorted_cells() -> None:
    data = _json(["reach", EXAMPLE, "--from", "1,1", "--movement", "3", "--json"])
    cells = data["cells"]
    assert isinstance(cells, list)
    want = sorted(reachable(load_map(EXAMPLE), (1, 1), 3))
    assert [tuple(c) for c in cells] == want
    assert [1, 1] in cells and [5, 1] in cells


def test_reach_human_output_draws_the_map() -> None:
    r = runner.invoke(app, ["reach", EXAMPLE, "--from", "1,1", "--movement", "3"])
    assert r.exit_code == 0
    assert "@" in r.output and "*" in r.output and "Metsä" in r.output


def test_grid_commands_bad_input_exit_2(tmp_path: Path) -> None:
    r = runner.invoke(app, ["reach", EXAMPLE, "--from", "1,99", "--movement", "3"])
    assert r.exit_code == 2 and "1,99" in r.output
    r = runner.invoke(app, ["los", EXAMPLE, "--from", "a,b", "--to", "1,1"])
    assert r.exit_code == 2 and "--from" in r.output
    bad = tmp_path / "bad.toml"
    bad.write_text('terrain = """\n..\n.?\n"""\n', encoding="utf-8")
    r = runner.invoke(app, ["--lang", "en", "reach", str(bad), "--from", "0,0", "--movement", "3"])
    assert r.exit_code == 2 and "unknown character '?'" in r.output
    assert "Traceback" not in r.output
    r = runner.invoke(app, ["reach", EXAMPLE, "--from", "1,1", "--movement", "-2"])
    assert r.exit_code == 2
