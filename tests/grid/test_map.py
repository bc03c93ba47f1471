"""The map file format and its errors; the most significant feature per action (§8)."""

from __future__ import annotations

from pathlib import Path

import pytest

from taistelukentta.content.maps import load_map, map_from_data, parse_map
from taistelukentta.errors import ArgumentError, DataError
from taistelukentta.grid import GameMap


def test_example_map_has_every_terrain_and_elevation(example: GameMap) -> None:
    assert (example.width, example.height) == (20, 15)
    seen = {f for y in range(15) for x in range(20) for f in example.features_at((x, y))}
    assert seen == set(example.terrain.ids)
    assert example.name == "Esimerkkikartta"
    assert example.elevation_at((13, 4)) == 9
    assert example.features_at((7, 7)) == ("water", "road")


def test_cell_is_column_x_row_y() -> None:
    m = parse_map('terrain = """\n.F\nW=\n"""\n')
    assert m.features_at((1, 0)) == ("forest",)
    assert m.features_at((0, 1)) == ("water",)
    assert m.features_at((1, 1)) == ("road",)


def test_r_ter_1_cell_moves_at_its_fastest_feature() -> None:
    m = parse_map('terrain = "RH"\n[legend]\nQ = ["thicket", "field"]\n')
    assert m.move_cost_at((0, 0)) == 0.5  # forest + road
    assert m.move_cost_at((1, 0)) == 0.5  # a bridge: water + road
    m2 = parse_map('terrain = "QW"\n[legend]\nQ = ["thicket", "field"]\n')
    assert m2.move_cost_at((0, 0)) == 1.0
    assert m2.move_cost_at((1, 0)) is None  # every feature impassable


def test_r_ter_2_cell_cover_is_its_best_feature() -> None:
    m = parse_map('terrain = "RU,"\n')
    assert m.cover_at((0, 0)) == 3
    assert m.cover_at((1, 0)) == 4
    assert m.cover_at((2, 0)) == 1


def test_r_ter_4_cell_sight_limit_is_its_most_limiting_feature() -> None:
    m = parse_map('terrain = "QR="\n[legend]\nQ = ["forest", "building"]\n')
    assert m.sight_limit_at((0, 0)) == 2
    assert m.sight_feature_at((0, 0)) == "building"
    assert m.sight_limit_at((1, 0)) == 5
    assert m.sight_limit_at((2, 0)) is None


def test_file_legend_extends_default_legend() -> None:
    m = parse_map('terrain = "xF"\n[legend]\nx = ["swamp", "road"]\n')
    assert m.features_at((0, 0)) == ("swamp", "road")
    assert m.features_at((1, 0)) == ("forest",)


def test_map_from_data_inline_table() -> None:
    m = map_from_data({"terrain": "..\n.F", "elevation": "0 1\n2 3"}, "scenario.toml [map]")
    assert m.elevation_at((1, 1)) == 3


def test_check_cell_names_the_cell(example: GameMap) -> None:
    with pytest.raises(ArgumentError, match="--from 20,3 is off the map"):
        example.check_cell((20, 3), "--from")


def _errors(text: str) -> str:
    with pytest.raises(DataError) as exc:
        parse_map(text, "kartta.toml")
    return str(exc.value)


def test_ragged_rows_name_row_and_line() -> None:
    msg = _errors('name = "x"\nterrain = """\n...\n..\n...\n"""\n')
    assert "kartta.toml" in msg
    assert "terrain row 1 (line 4): 2 cells, expected 3" in msg


def test_unknown_character_names_row_column_and_line() -> None:
    msg = _errors('terrain = """\n...\n.?.\n"""\n')
    assert "terrain row 1, column 1 (line 3): unknown character '?'" in msg


def test_unknown_terrain_in_legend_names_key_and_line() -> None:
    msg = _errors('terrain = "x"\n\n[legend]\nx = ["forest", "lava"]\n')
    assert "legend.x (line 4): unknown terrain 'lava'" in msg


def test_legend_value_must_be_a_list() -> None:
    msg = _errors('terrain = "x"\n[legend]\nx = "forest"\n')
    assert "legend.x" in msg and "list" in msg


def test_elevation_shape_mismatch() -> None:
    msg = _errors('terrain = """\n..\n..\n"""\nelevation = """\n0 0\n"""\n')
    assert "elevation" in msg and "1 rows, but terrain has 2" in msg
    msg = _errors('terrain = """\n..\n..\n"""\nelevation = """\n0 0\n0 0 0\n"""\n')
    assert "elevation row 1 (line 7): 3 values, terrain row has 2" in msg


def test_non_integer_elevation() -> None:
    msg = _errors('terrain = """\n..\n"""\nelevation = """\n0 x\n"""\n')
    assert "elevation row 0, column 1 (line 5): 'x' is not a whole number" in msg


def test_missing_terrain_and_unknown_key() -> None:
    msg = _errors('name = "x"\nsize = 3\n')
    assert "terrain: missing" in msg and "size" in msg


def test_toml_syntax_error_and_missing_file(tmp_path: Path) -> None:
    assert "TOML syntax error" in _errors('terrain = """\n')
    with pytest.raises(DataError, match="file not found"):
        load_map(tmp_path / "nope.toml")
