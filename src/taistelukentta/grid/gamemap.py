"""The game map: terrain features and elevation per cell, and the map file format.

A map file is TOML a game master can write by hand::

    name = "Kylä"
    terrain = \"\"\"
    ..==..
    .FR=,,
    \"\"\"
    elevation = \"\"\"
    0 0 1 1 2 2
    0 1 1 2 2 3
    \"\"\"
    [legend]
    "R" = ["forest", "road"]

``terrain`` has one character per cell, rows top to bottom; cell ``(x, y)`` is column ``x``
of row ``y``. ``[legend]`` maps characters to lists of terrain ids and extends (or
overrides) the default legend of the terrain table. ``elevation`` (optional, contour lines)
has the same shape as ``terrain``.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from taistelukentta.content.loader import find_line, read_toml
from taistelukentta.errors import ArgumentError, DataError
from taistelukentta.grid.geometry import Cell
from taistelukentta.grid.terrain import TerrainTable, default_terrain

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

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


_MAP_KEYS = ("name", "terrain", "legend", "elevation")
_MAX_PROBLEMS = 20


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
        legend: Mapping[str, Sequence[str]] | None = None,
        terrain: TerrainTable | None = None,
        elevation: Sequence[Sequence[int]] | None = None,
        name: str = "",
        source: str = "<map>",
    ) -> None:
        table = terrain if terrain is not None else default_terrain()
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
        index = {ch: i for i, ch in enumerate(used)}
        codes = np.array([[index[ch] for ch in row] for row in rows], dtype=np.int64)
        n = len(used)
        move = np.full(n, np.inf)
        cover = np.zeros(n, dtype=np.int64)
        sight = np.full(n, np.inf)
        sight_cover = np.zeros(n, dtype=np.int64)
        self._sight_feature: dict[str, str | None] = {}
        self._move_feature: dict[str, str | None] = {}
        for ch, i in index.items():
            types = [table.get(f) for f in self.legend[ch]]
            costs = [t for t in types if t.move_cost is not None]
            if costs:
                fastest = min(costs, key=lambda t: t.move_cost or 0.0)
                move[i] = fastest.move_cost
                self._move_feature[ch] = fastest.id
            else:
                self._move_feature[ch] = None
            cover[i] = max(t.cover for t in types)
            limiting = [t for t in types if t.sight_limit is not None]
            if limiting:
                worst = min(limiting, key=lambda t: (t.sight_limit, -t.cover))
                sight[i] = worst.sight_limit
                sight_cover[i] = worst.cover
                self._sight_feature[ch] = worst.id
            else:
                self._sight_feature[ch] = None
        self.move_cost: FloatArray = _ro(move[codes])
        self.cover: IntArray = _ro(cover[codes])
        self.sight_limit: FloatArray = _ro(sight[codes])
        self.sight_cover: IntArray = _ro(sight_cover[codes])
        self.impassable: BoolArray = _ro(np.isinf(self.move_cost))
        if elevation is None:
            elev = np.zeros((self.height, width), dtype=np.int64)
        else:
            elev = np.asarray(elevation, dtype=np.int64)
            if elev.shape != (self.height, width):
                raise ArgumentError(
                    f"elevation has shape {elev.shape}, terrain {(self.height, width)}",
                    f"korkeuden muoto {elev.shape} ei vastaa maastoa {(self.height, width)}",
                )
        self.elevation: IntArray = _ro(elev.copy())
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
        if ascent_limit is not None:
            out.ascent_limit = check_ascent_limit(ascent_limit)
        if los_corner is not None:
            check_corner(los_corner)
            out.los_corner = los_corner
        return out

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

    def move_cost_at(self, cell: Cell) -> float | None:
        """Multiplier of a step into the cell: its fastest feature (R-TER-1); None = impassable."""
        v = float(self.move_cost[cell[1], cell[0]])
        return None if np.isinf(v) else v

    def move_feature_at(self, cell: Cell) -> str | None:
        """The feature whose multiplier counts for movement (None if impassable)."""
        return self._move_feature[self.char_at(cell)]

    def cover_at(self, cell: Cell) -> int:
        """Best cover bonus of the cell's features (R-TER-2)."""
        return int(self.cover[cell[1], cell[0]])

    def sight_limit_at(self, cell: Cell) -> int | None:
        """The most limiting sight limit of the cell's features (R-TER-4); None = no limit."""
        v = float(self.sight_limit[cell[1], cell[0]])
        return None if np.isinf(v) else int(v)

    def sight_feature_at(self, cell: Cell) -> str | None:
        """The feature that limits sight through the cell (None if none does)."""
        return self._sight_feature[self.char_at(cell)]

    def elevation_at(self, cell: Cell) -> int:
        """Height of the cell in contour lines (R-TER-5)."""
        return int(self.elevation[cell[1], cell[0]])

    def __repr__(self) -> str:
        return f"GameMap({self.name or self.source!r}, {self.width}x{self.height})"


def _ro(a: npt.NDArray[Any]) -> npt.NDArray[Any]:
    a.flags.writeable = False
    return a


# -- map files ---------------------------------------------------------------------------


def load_map(path: Path | str, terrain: TerrainTable | None = None) -> GameMap:
    """Read a map file; every problem becomes one DataError naming file, key, row/line."""
    p = Path(path)
    data = read_toml(p)
    return map_from_data(data, str(p), terrain, text=p.read_text(encoding="utf-8"))


def parse_map(text: str, source: str = "<map>", terrain: TerrainTable | None = None) -> GameMap:
    """Parse map TOML text; ``source`` names it in errors."""
    from taistelukentta.content.loader import parse_toml

    return map_from_data(parse_toml(text, source), source, terrain, text=text)


def _first_row_line(text: str | None, key: str) -> int | None:
    """File line of the first line inside the multi-line string value of ``key``."""
    if text is None:
        return None
    line = find_line(text, (key,))
    if line is None:
        return None
    after = text.splitlines()[line - 1].split("=", 1)[-1].strip()
    for quote in ('"""', "'''"):
        if after.startswith(quote) and after[3:].strip() == "":
            return line + 1
    return line


def _split_rows(value: str) -> list[tuple[int, str]]:
    """(line offset, stripped text) of each row, without leading and trailing blank lines."""
    lines = [(i, ln.strip()) for i, ln in enumerate(value.split("\n"))]
    while lines and not lines[0][1]:
        lines.pop(0)
    while lines and not lines[-1][1]:
        lines.pop()
    return lines


def map_from_data(
    data: Mapping[str, Any],
    source: str,
    terrain: TerrainTable | None = None,
    *,
    text: str | None = None,
) -> GameMap:
    """Build a map from its TOML table (a map file, or a scenario's inlined ``[map]``).

    ``text`` (the TOML source, if any) lets errors name lines.
    """
    table = terrain if terrain is not None else default_terrain()
    problems: list[str] = []

    def at(*loc: str) -> str:
        line = find_line(text, loc) if text is not None else None
        return ".".join(loc) + (f" (line {line})" if line is not None else "")

    def cell_at(key: str, first: int | None, offset: int, r: int, c: int | None = None) -> str:
        pos = f"{key} row {r}" + (f", column {c}" if c is not None else "")
        return pos + (f" (line {first + offset})" if first is not None else "")

    for k in data:
        if k not in _MAP_KEYS:
            problems.append(f"{at(k)}: unknown key; allowed: {', '.join(_MAP_KEYS)}")
    name = data.get("name", "")
    if not isinstance(name, str):
        problems.append(f"{at('name')}: must be a string")
        name = ""

    legend: dict[str, tuple[str, ...]] = dict(table.legend)
    raw_legend = data.get("legend", {})
    if not isinstance(raw_legend, Mapping):
        problems.append(f"{at('legend')}: must be a table of character = [terrain ids]")
        raw_legend = {}
    for ch, feats in raw_legend.items():
        if len(ch) != 1 or ch.isspace():
            problems.append(f"{at('legend', ch)}: a legend key must be one visible character")
            continue
        if not isinstance(feats, list) or not feats or not all(isinstance(f, str) for f in feats):
            problems.append(
                f"{at('legend', ch)}: must be a non-empty list of terrain ids, "
                f'e.g. ["forest", "road"]'
            )
            continue
        bad = [f for f in feats if f not in table]
        for f in bad:
            problems.append(
                f"{at('legend', ch)}: unknown terrain {f!r}; known: {', '.join(table.ids)}"
            )
        if not bad:
            legend[ch] = tuple(feats)

    rows: list[str] = []
    raw_terrain = data.get("terrain")
    if raw_terrain is None:
        problems.append("terrain: missing (a multi-line string, one character per cell)")
    elif not isinstance(raw_terrain, str):
        problems.append(f"{at('terrain')}: must be a multi-line string, one character per cell")
    else:
        first = _first_row_line(text, "terrain")
        lines = _split_rows(raw_terrain)
        if not lines:
            problems.append(f"{at('terrain')}: the map has no rows")
        width = len(lines[0][1]) if lines else 0
        for r, (off, row) in enumerate(lines):
            if len(row) != width:
                problems.append(
                    f"{cell_at('terrain', first, off, r)}: {len(row)} cells, expected {width} "
                    f"(the width of row 0)"
                )
            for c, ch in enumerate(row):
                if ch not in legend:
                    problems.append(
                        f"{cell_at('terrain', first, off, r, c)}: unknown character {ch!r}; "
                        f"the legend has {''.join(sorted(legend))}"
                    )
            rows.append(row)

    elevation: list[list[int]] | None = None
    raw_elev = data.get("elevation")
    if raw_elev is not None:
        if not isinstance(raw_elev, str):
            problems.append(
                f"{at('elevation')}: must be a multi-line string of whole numbers per cell"
            )
        else:
            first = _first_row_line(text, "elevation")
            elines = _split_rows(raw_elev)
            elevation = []
            if rows and len(elines) != len(rows):
                problems.append(
                    f"{at('elevation')}: {len(elines)} rows, but terrain has {len(rows)}"
                )
            for r, (off, row) in enumerate(elines):
                values: list[int] = []
                for c, tok in enumerate(row.split()):
                    try:
                        values.append(int(tok))
                    except ValueError:
                        problems.append(
                            f"{cell_at('elevation', first, off, r, c)}: {tok!r} is not a whole "
                            f"number"
                        )
                        values.append(0)
                if rows and r < len(rows) and len(values) != len(rows[r]):
                    problems.append(
                        f"{cell_at('elevation', first, off, r)}: {len(values)} values, "
                        f"terrain row has {len(rows[r])}"
                    )
                elevation.append(values)
    if problems:
        if len(problems) > _MAX_PROBLEMS:
            extra = len(problems) - _MAX_PROBLEMS
            problems = [*problems[:_MAX_PROBLEMS], f"... and {extra} more"]
        raise DataError(source, problems)
    return GameMap(
        rows, legend=legend, terrain=table, elevation=elevation, name=name, source=source
    )
