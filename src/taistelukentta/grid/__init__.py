"""Geometry, terrain, the map, movement, reachable area and line of sight (issue 2).

Pure and deterministic; knows nothing of units or rules beyond RULES.md §2 and §8, and reads
no files: loading the terrain table and map files is :mod:`taistelukentta.content.terrain`
and :mod:`taistelukentta.content.maps`.
"""

from importlib import import_module
from typing import TYPE_CHECKING, Any

from taistelukentta.grid.gamemap import Corner, GameMap
from taistelukentta.grid.geometry import DIRECTIONS8, Cell, area, chebyshev, neighbours8
from taistelukentta.grid.terrain import TerrainTable, TerrainType

if TYPE_CHECKING:
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

# The searches and sight need numpy (and scipy): imported on first use, so a command that
# only reads the map (``tk20 show``) starts without them (issue 7, start-up).
_LAZY = {
    **dict.fromkeys(
        (
            "MoveResult",
            "Step",
            "cost_field",
            "move_along",
            "move_along_terrain",
            "path_to",
            "reachable",
        ),
        "movement",
    ),
    **dict.fromkeys(
        (
            "MAX_SIGHT",
            "Ray",
            "Sight",
            "elevation_modifier",
            "line_of_sight",
            "ray",
            "visible_cells",
        ),
        "sight",
    ),
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"taistelukentta.grid.{module}"), name)
    globals()[name] = value
    return value


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
    "elevation_modifier",
    "line_of_sight",
    "move_along",
    "move_along_terrain",
    "neighbours8",
    "path_to",
    "ray",
    "reachable",
    "visible_cells",
]
