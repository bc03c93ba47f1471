"""Geometry, terrain, the map, movement, reachable area and line of sight (issue 2).

Pure and deterministic; knows nothing of units or rules beyond RULES.md §2 and §8.
"""

from taistelukentta.grid.gamemap import Corner, GameMap, load_map, map_from_data, parse_map
from taistelukentta.grid.geometry import DIRECTIONS8, Cell, area, chebyshev, neighbours8
from taistelukentta.grid.movement import (
    MoveResult,
    Step,
    cost_field,
    move_along,
    move_along_terrain,
    path_to,
    reachable,
)
from taistelukentta.grid.sight import (
    MAX_SIGHT,
    Ray,
    Sight,
    elevation_modifier,
    line_of_sight,
    ray,
    visible_cells,
)
from taistelukentta.grid.terrain import TerrainTable, TerrainType, default_terrain, load_terrain

__all__ = [
    "DIRECTIONS8",
    "MAX_SIGHT",
    "Cell",
    "Corner",
    "GameMap",
    "MoveResult",
    "Ray",
    "Sight",
    "Step",
    "TerrainTable",
    "TerrainType",
    "area",
    "chebyshev",
    "cost_field",
    "default_terrain",
    "elevation_modifier",
    "line_of_sight",
    "load_map",
    "load_terrain",
    "map_from_data",
    "move_along",
    "move_along_terrain",
    "neighbours8",
    "parse_map",
    "path_to",
    "ray",
    "reachable",
    "visible_cells",
]
