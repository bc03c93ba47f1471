"""The game map: terrain features and elevation per cell (pure geometry, no files).

Cell ``(x, y)`` is column ``x`` of row ``y``; each cell holds the features its map character
stands for in the legend. Reading map files (the TOML format a game master writes) is
:mod:`taistelukentta.content.maps`.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Any, Literal, TypeAlias

from taistelukentta.errors import ArgumentError
from taistelukentta.grid.geometry import Cell
from taistelukentta.grid.terrain import TerrainTable

if TYPE_CHECKING:  # numpy is imported when an array is first asked for (start-up, issue 7)
    import numpy as np
    import numpy.typing as npt

    FloatArray: TypeAlias = npt.NDArray[np.float64]
    IntArray: TypeAlias = npt.NDArray[np.int64]
    BoolArray: TypeAlias = npt.NDArray[np.bool_]

_INF = float("inf")

STEEP_ASCENT = 6
"""Default total ascent (contours) from which a move's uphill steps cost double (R-TER-5)."""
Corner = Literal["slip", "block_either"]
"""Corner rule of the line of sight (option ``los_corner``, R-TER-4)."""
CORNER_RULES: tuple[Corner, ...] = ("slip", "block_either")


def check_corner(corner: str) -> None:
    """ArgumentError unless ``corner`` is a known corner rule."""
    if corner not in CORNER_RULES:
        known = ", ".join(CORNER_RULES)
        raise ArgumentError(
            f"unknown corner rule {corner!r}; known: {known}",
            f"tuntematon kulmasääntö {corner!r}; tunnetut: {known}",
        )


def check_ascent_limit(ascent_limit: int) -> int:
    """``ascent_limit`` if it is a whole number >= 0; ArgumentError otherwise."""
    if isinstance(ascent_limit, bool) or not isinstance(ascent_limit, int) or ascent_limit < 0:
        raise ArgumentError(
            f"ascent_limit must be a whole number >= 0, got {ascent_limit!r}",
            f"nousurajan on oltava kokonaisluku >= 0, saatiin {ascent_limit!r}",
        )
    return ascent_limit


class GameMap:
    """A rectangular grid of cells, each holding one or more terrain features and a height.

    The numpy arrays (shape ``(height, width)``, indexed ``[y, x]``, read-only) serve the
    vectorised paths: ``move_cost`` (``inf`` = impassable), ``cover``, ``sight_limit``
    (``inf`` = no limit), ``sight_cover`` (best cover of the cell's sight-limiting features),
    ``elevation``.

    Two rule settings travel with the map (set by :meth:`with_rules`, e.g. from a scenario's
    options) and are what movement and sight use when not given a keyword of their own:
    ``ascent_limit`` (option ``steep_ascent_contours``, default 6) and ``los_corner``
    (option ``los_corner``, default ``"slip"``).
    """

    def __init__(
        self,
        rows: Sequence[str],
        *,
        terrain: TerrainTable,
        legend: Mapping[str, Sequence[str]] | None = None,
        elevation: Sequence[Sequence[int]] | None = None,
        name: str = "",
        source: str = "<map>",
    ) -> None:
        table = terrain
        full_legend: dict[str, tuple[str, ...]] = dict(table.legend)
        for ch, feats in (legend or {}).items():
            full_legend[ch] = tuple(feats)
        if not rows or not rows[0]:
            raise ArgumentError("a map needs at least one cell", "kartassa on oltava ruutuja")
        width = len(rows[0])
        if any(len(r) != width for r in rows):
            raise ArgumentError("map rows must all be equally wide", "rivien on oltava yhtä pitkiä")
        self.terrain = table
        self.name = name
        self.source = source
        self.width = width
        self.height = len(rows)
        self.rows: tuple[str, ...] = tuple(rows)
        used = sorted(set("".join(rows)))
        self.legend: dict[str, tuple[str, ...]] = {}
        for ch in used:
            if ch not in full_legend:
                raise ArgumentError(f"unknown map character {ch!r}", f"tuntematon merkki {ch!r}")
            feats = full_legend[ch]
            for f in feats:
                table.get(f)
            self.legend[ch] = feats
        move: dict[str, float] = {}
        cover: dict[str, int] = {}
        sight: dict[str, float] = {}
        sight_cover: dict[str, int] = {}
        self._sight_feature: dict[str, str | None] = {}
        self._move_feature: dict[str, str | None] = {}
        for ch in used:
            types = [table.get(f) for f in self.legend[ch]]
            costs = [t for t in types if t.move_cost is not None]
            if costs:
                fastest = min(costs, key=lambda t: t.move_cost or 0.0)
                move[ch] = float(fastest.move_cost or 0.0)
                self._move_feature[ch] = fastest.id
            else:
                move[ch] = _INF
                self._move_feature[ch] = None
            cover[ch] = max(t.cover for t in types)
            limiting = [t for t in types if t.sight_limit is not None]
            if limiting:
                worst = min(limiting, key=lambda t: (t.sight_limit, -t.cover))
                sight[ch] = float(worst.sight_limit or 0)
                sight_cover[ch] = worst.cover
                self._sight_feature[ch] = worst.id
            else:
                sight[ch] = _INF
                sight_cover[ch] = 0
                self._sight_feature[ch] = None
        self._move_of = move
        self._cover_of = cover
        self._sight_of = sight
        self._sight_cover_of = sight_cover
        self._elevation_rows: tuple[tuple[int, ...], ...]
        if elevation is None:
            self._elevation_rows = tuple((0,) * width for _ in range(self.height))
        else:
            if isinstance(elevation, str) or len(elevation) != self.height:
                shape = _shape(elevation)
                raise ArgumentError(
                    f"elevation has shape {shape}, terrain {(self.height, width)}",
                    f"korkeuden muoto {shape} ei vastaa maastoa {(self.height, width)}",
                )
            rows_e = []
            for row in elevation:
                if isinstance(row, str) or len(row) != width:
                    shape = _shape(elevation)
                    raise ArgumentError(
                        f"elevation has shape {shape}, terrain {(self.height, width)}",
                        f"korkeuden muoto {shape} ei vastaa maastoa {(self.height, width)}",
                    )
                rows_e.append(tuple(int(v) for v in row))
            self._elevation_rows = tuple(rows_e)
        self._memos: dict[str, dict[Any, Any]] = {}
        self.ascent_limit: int = STEEP_ASCENT
        """Total ascent from which a move's uphill steps cost double (R-TER-5)."""
        self.los_corner: Corner = "slip"
        """Corner rule of the line of sight (R-TER-4)."""

    def with_rules(
        self, *, ascent_limit: int | None = None, los_corner: Corner | None = None
    ) -> GameMap:
        """A copy using these rule settings by default (None keeps this map's setting).

        The cell arrays are shared (they are read-only).
        """
        out = copy.copy(self)
        out._memos = {}  # the copy's searches are its own
        if ascent_limit is not None:
            out.ascent_limit = check_ascent_limit(ascent_limit)
        if los_corner is not None:
            check_corner(los_corner)
            out.los_corner = los_corner
        return out

    def memo(self, name: str) -> dict[Any, Any]:
        """A named memo of derived data kept with this map object (the searches'
        recent results, …): it lives and dies with the map, so no key of it can meet
        another map's, and a copy made by :meth:`with_rules` starts its own. Its keeper
        decides its keys and its size."""
        found = self._memos.get(name)
        if found is None:
            found = self._memos.setdefault(name, {})
        return found

    # -- cells -------------------------------------------------------------------------
    def in_bounds(self, cell: Cell) -> bool:
        """True when ``cell`` is on the map."""
        return 0 <= cell[0] < self.width and 0 <= cell[1] < self.height

    def check_cell(self, cell: Cell, what: str = "cell") -> Cell:
        """Return ``cell`` if it is on the map; ArgumentError naming ``what`` otherwise."""
        if not self.in_bounds(cell):
            x, y = cell
            raise ArgumentError(
                f"{what} {x},{y} is off the map (x 0..{self.width - 1}, y 0..{self.height - 1})",
                f"{what} {x},{y} on kartan ulkopuolella "
                f"(x 0..{self.width - 1}, y 0..{self.height - 1})",
            )
        return cell

    def char_at(self, cell: Cell) -> str:
        """The legend character of ``cell``."""
        return self.rows[cell[1]][cell[0]]

    def features_at(self, cell: Cell) -> tuple[str, ...]:
        """The terrain ids the cell holds."""
        return self.legend[self.char_at(cell)]

    # -- arrays (built with numpy on first use; the per-cell accessors below need none) ---
    def _array(self, of: Mapping[str, float | int], dtype: str) -> Any:
        import numpy as np

        return _ro(np.array([[of[ch] for ch in row] for row in self.rows], dtype=dtype))

    @cached_property
    def move_cost(self) -> FloatArray:
        """Step multiplier per cell, ``inf`` = impassable (R-TER-1)."""
        out: FloatArray = self._array(self._move_of, "float64")
        return out

    @cached_property
    def cover(self) -> IntArray:
        """Best cover bonus per cell (R-TER-2)."""
        out: IntArray = self._array(self._cover_of, "int64")
        return out

    @cached_property
    def sight_limit(self) -> FloatArray:
        """Most limiting sight limit per cell, ``inf`` = no limit (R-TER-4)."""
        out: FloatArray = self._array(self._sight_of, "float64")
        return out

    @cached_property
    def sight_cover(self) -> IntArray:
        """Cover of the cell's sight-limiting feature (0 where none)."""
        out: IntArray = self._array(self._sight_cover_of, "int64")
        return out

    @cached_property
    def impassable(self) -> BoolArray:
        """True where no feature can be entered."""
        import numpy as np

        out: BoolArray = _ro(np.isinf(self.move_cost))
        return out

    @property
    def elevation_rows(self) -> tuple[tuple[int, ...], ...]:
        """Height per cell in contour lines, row by row (no numpy)."""
        return self._elevation_rows

    @cached_property
    def elevation(self) -> IntArray:
        """Height per cell in contour lines (R-TER-5)."""
        import numpy as np

        out: IntArray = _ro(np.array(self._elevation_rows, dtype=np.int64))
        return out

    def move_cost_at(self, cell: Cell) -> float | None:
        """Multiplier of a step into the cell: its fastest feature (R-TER-1); None = impassable."""
        v = self._move_of[self.char_at(cell)]
        return None if v == _INF else v

    def move_feature_at(self, cell: Cell) -> str | None:
        """The feature whose multiplier counts for movement (None if impassable)."""
        return self._move_feature[self.char_at(cell)]

    def cover_at(self, cell: Cell) -> int:
        """Best cover bonus of the cell's features (R-TER-2)."""
        return self._cover_of[self.char_at(cell)]

    def sight_limit_at(self, cell: Cell) -> int | None:
        """The most limiting sight limit of the cell's features (R-TER-4); None = no limit."""
        v = self._sight_of[self.char_at(cell)]
        return None if v == _INF else int(v)

    def sight_feature_at(self, cell: Cell) -> str | None:
        """The feature that limits sight through the cell (None if none does)."""
        return self._sight_feature[self.char_at(cell)]

    def elevation_at(self, cell: Cell) -> int:
        """Height of the cell in contour lines (R-TER-5)."""
        return self._elevation_rows[cell[1]][cell[0]]

    def __repr__(self) -> str:
        return f"GameMap({self.name or self.source!r}, {self.width}x{self.height})"


def _ro(a: Any) -> Any:
    a.flags.writeable = False
    return a


def _shape(elevation: Any) -> tuple[int, ...]:
    """The numpy-style shape of a (possibly ragged) elevation grid, for the error text."""
    import numpy as np

    try:
        return tuple(np.asarray(elevation, dtype=np.int64).shape)
    except ValueError:
        return (len(elevation),)
