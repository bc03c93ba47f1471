"""R-TER-1, R-TER-2, R-TER-4 values in data/terrain.toml and the terrain loader's errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from taistelukentta.content.loader import data_path
from taistelukentta.content.terrain import load_terrain
from taistelukentta.errors import ArgumentError, DataError
from taistelukentta.grid import TerrainTable


def test_r_ter_1_movement_multipliers(table: TerrainTable) -> None:
    costs = {t.id: t.move_cost for t in table}
    assert costs == {
        "open": 1.0,
        "road": 0.5,
        "field": 1.0,
        "forest": 2.0,
        "swamp": 2.0,
        "thicket": 4.0,
        "building": 2.0,
        "water": None,
    }
    assert table.get("water").impassable


def test_r_ter_2_cover_bonuses(table: TerrainTable) -> None:
    cover = {t.id: t.cover for t in table}
    assert cover == {
        "open": 0,
        "road": 0,
        "field": 1,
        "forest": 3,
        "swamp": 3,
        "thicket": 4,
        "building": 4,
        "water": 0,
    }


def test_r_ter_4_sight_limits(table: TerrainTable) -> None:
    limits = {t.id: t.sight_limit for t in table}
    assert limits == {
        "open": None,
        "road": None,
        "field": None,
        "forest": 5,
        "swamp": 5,
        "thicket": 2,
        "building": 2,
        "water": None,
    }


def test_terrain_names_and_default_legend(table: TerrainTable) -> None:
    assert table.get("forest").name_fi == "Metsä"
    assert table.get("swamp").name_en == "Swamp"
    assert table.legend["F"] == ("forest",)
    assert table.legend["R"] == ("forest", "road")
    assert table.find("suo").id == "swamp"
    assert table.find("Thicket").id == "thicket"


def test_unknown_terrain_names_the_known_ids(table: TerrainTable) -> None:
    with pytest.raises(ArgumentError, match=r"unknown terrain 'lava'.*forest"):
        table.get("lava")


def _write(tmp_path: Path, body: str) -> Path:
    p = tmp_path / "terrain.toml"
    p.write_text(body, encoding="utf-8")
    return p


def test_broken_terrain_file_names_file_key_and_line(tmp_path: Path) -> None:
    good = data_path("terrain.toml").read_text(encoding="utf-8")
    broken = good.replace("cover = 3\nsight_limit = 5", "cover = -3\nsight_limit = 5", 1)
    p = _write(tmp_path, broken)
    with pytest.raises(DataError) as exc:
        load_terrain(p)
    msg = str(exc.value)
    assert str(p) in msg and "terrain.forest.cover" in msg and "line" in msg


def test_terrain_file_rejects_unknown_keys_and_missing_cost(tmp_path: Path) -> None:
    p = _write(
        tmp_path,
        '[terrain.mud]\nname_fi = "Muta"\nname_en = "Mud"\ncover = 0\nchar = "m"\ncolour = 1\n',
    )
    with pytest.raises(DataError, match=r"terrain\.mud\.colour"):
        load_terrain(p)
    p = _write(tmp_path, '[terrain.mud]\nname_fi = "M"\nname_en = "M"\ncover = 0\nchar = "m"\n')
    with pytest.raises(DataError, match="move_cost is missing"):
        load_terrain(p)


def test_terrain_file_rejects_duplicate_chars_and_bad_legend(tmp_path: Path) -> None:
    p = _write(
        tmp_path,
        '[terrain.a]\nname_fi = "A"\nname_en = "A"\nmove_cost = 1\ncover = 0\nchar = "x"\n'
        '[terrain.b]\nname_fi = "B"\nname_en = "B"\nmove_cost = 1\ncover = 0\nchar = "x"\n'
        '[legend]\nq = ["a", "nope"]\n',
    )
    with pytest.raises(DataError) as exc:
        load_terrain(p)
    msg = str(exc.value)
    assert "already used" in msg and "unknown terrain 'nope'" in msg
