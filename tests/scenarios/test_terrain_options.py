"""R-TER-1 / R-TER-2 terrain rule options: the scenario's map uses the option values."""

from __future__ import annotations

import itertools
import tomllib
from pathlib import Path

import pytest

from taistelukentta.content.options import RuleOptions, load_options
from taistelukentta.content.scenario import (
    TERRAIN_OPTIONS,
    Scenario,
    scenario_from_data,
    terrain_for,
)
from taistelukentta.content.terrain import default_terrain
from taistelukentta.grid import line_of_sight
from taistelukentta.grid.movement import ASCENT_LIMIT
from tests.scenarios.conftest import BASE

# 8 × 5 cells; the base units stand on open ground at (0,0), (1,0), (1,1), (6,4), (7,4).
# building (3,2), thicket (4,2), forest (5,2), swamp (6,2), building + road (3,3).
OPTS_MAP = '''name = "Maastokoe"
terrain = """
........
........
...BTFS.
...U....
........
"""
'''
BUILDING, THICKET, FOREST, SWAMP, STREET = (3, 2), (4, 2), (5, 2), (6, 2), (3, 3)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("terrain_options")
    (d / "opts.toml").write_text(OPTS_MAP, encoding="utf-8")
    return d


def _scenario(folder: Path, **options: object) -> Scenario:
    text = BASE.replace('map = "tiny.toml"', 'map = "opts.toml"')
    data = tomllib.loads(text)
    data["options"] = dict(options)
    return scenario_from_data(data, source="opts.toml", text=text, base_dir=folder)


def test_r_ter_1_r_ter_2_bundled_terrain_agrees_with_option_defaults() -> None:
    opts = load_options()
    table = default_terrain()
    assert table.get("thicket").move_cost == float(opts.thicket_move_cost)
    assert table.get("building").impassable == opts.buildings_block_movement
    assert table.get("forest").cover == opts.forest_cover
    assert table.get("building").cover == opts.building_cover
    # so the defaults leave the bundled table exactly as it is
    assert list(terrain_for(opts)) == list(table)
    assert terrain_for(opts).legend == table.legend


def test_r_ter_1_thicket_move_cost_option_sets_the_maps_multiplier(folder: Path) -> None:
    assert _scenario(folder).map.move_cost_at(THICKET) == 4.0
    assert _scenario(folder, thicket_move_cost=2).map.move_cost_at(THICKET) == 2.0


def test_r_ter_1_buildings_block_movement_variant_makes_buildings_impassable(
    folder: Path,
) -> None:
    default = _scenario(folder).map
    assert default.move_cost_at(BUILDING) == 2.0 and not default.impassable[2, 3]
    m = _scenario(folder, buildings_block_movement=True).map
    assert m.move_cost_at(BUILDING) is None and m.impassable[2, 3]
    # a village street (building + road) is still entered by its road
    assert m.move_cost_at(STREET) == 0.5 and m.move_feature_at(STREET) == "road"
    # cover and sight of the building are unchanged
    assert m.cover_at(BUILDING) == 4 and m.sight_limit_at(BUILDING) == 2


def test_r_ter_2_forest_cover_variant_changes_forest_not_swamp(folder: Path) -> None:
    assert _scenario(folder).map.cover_at(FOREST) == 3
    m = _scenario(folder, forest_cover=4).map
    assert m.cover_at(FOREST) == 4
    assert m.cover_at(SWAMP) == 3


def test_r_ter_2_building_cover_variant(folder: Path) -> None:
    assert _scenario(folder).map.cover_at(BUILDING) == 4
    m = _scenario(folder, building_cover=6).map
    assert m.cover_at(BUILDING) == 6 and m.cover_at(STREET) == 6
    assert int(m.sight_cover[2, 3]) == 6  # the cover a line of sight through it gives


@pytest.mark.parametrize(
    ("thicket", "block", "forest", "building"),
    list(itertools.product([2, 4], [False, True], [3, 4], [4, 6])),
)
def test_r_ter_1_r_ter_2_terrain_for_applies_every_combination(
    thicket: int, block: bool, forest: int, building: int
) -> None:
    opts = load_options(
        overrides={
            "thicket_move_cost": thicket,
            "buildings_block_movement": block,
            "forest_cover": forest,
            "building_cover": building,
        }
    )
    t = terrain_for(opts)
    assert t.get("thicket").move_cost == thicket
    assert t.get("building").move_cost == (None if block else 2.0)
    assert t.get("forest").cover == forest
    assert t.get("building").cover == building
    base = default_terrain()
    changed = {tid for tid, _field in TERRAIN_OPTIONS.values()}
    for tt in t:
        if tt.id not in changed:
            assert tt == base.get(tt.id)
        assert (tt.sight_limit, tt.char, tt.name_fi) == (
            base.get(tt.id).sight_limit,
            base.get(tt.id).char,
            base.get(tt.id).name_fi,
        )


def test_terrain_options_name_real_options_and_terrains() -> None:
    for name, (tid, field) in TERRAIN_OPTIONS.items():
        assert name in RuleOptions.model_fields
        assert tid in default_terrain()
        assert field in ("move_cost", "cover")


def test_r_ter_4_r_ter_5_scenario_map_carries_los_corner_and_steep_ascent(folder: Path) -> None:
    default = _scenario(folder).map
    assert default.los_corner == "slip" and default.ascent_limit == 6
    m = _scenario(folder, los_corner="block_either", steep_ascent_contours=3).map
    assert m.los_corner == "block_either" and m.ascent_limit == 3
    # the building at (3,2) sits beside a corner the line (3,1) → (1,3) passes through
    assert line_of_sight(default, (3, 1), (1, 3)).cover == 0
    assert line_of_sight(m, (3, 1), (1, 3)).cover == 4


def test_r_ter_5_default_options_keep_the_maps_defaults() -> None:
    opts = load_options()
    assert opts.steep_ascent_contours == ASCENT_LIMIT
    assert opts.los_corner == "slip"
