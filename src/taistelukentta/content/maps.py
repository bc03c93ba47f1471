"""Map files: the TOML format a game master writes, read into a :class:`GameMap`.

A map file::

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
has the same shape as ``terrain``. Without a terrain table the bundled one is used
(:func:`taistelukentta.content.terrain.default_terrain`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from taistelukentta.content.loader import find_line, parse_toml, read_toml
from taistelukentta.content.terrain import default_terrain
from taistelukentta.errors import DataError
from taistelukentta.grid.gamemap import GameMap
from taistelukentta.grid.terrain import MapLimits, TerrainTable

_MAP_KEYS = ("name", "terrain", "legend", "elevation")
_MAX_PROBLEMS = 20


def load_map(path: Path | str, terrain: TerrainTable | None = None) -> GameMap:
    """Read a map file; every problem becomes one DataError naming file, key, row/line."""
    p = Path(path)
    data = read_toml(p)
    return map_from_data(data, str(p), terrain, text=p.read_text(encoding="utf-8"))


def parse_map(text: str, source: str = "<map>", terrain: TerrainTable | None = None) -> GameMap:
    """Parse map TOML text; ``source`` names it in errors."""
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


_INT_TOKEN = re.compile(r"^-?[0-9]+\Z")


def _size_problem(height: int, width: int, limits: MapLimits) -> str | None:
    """Why a map of this size is refused ([map_limits] in terrain.toml), or None."""
    if width > limits.max_width or height > limits.max_height:
        return (
            f"the map is {width}×{height} cells; at most {limits.max_width}×"
            f"{limits.max_height} ([map_limits] in terrain.toml)"
        )
    if width * height > limits.max_cells:
        return (
            f"the map has {width * height} cells; at most {limits.max_cells} "
            "([map_limits] max_cells in terrain.toml)"
        )
    return None


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
    limits = table.limits
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
        too_big = _size_problem(len(lines), max((len(r) for _, r in lines), default=0), limits)
        if too_big is not None:
            raise DataError(source, [f"{at('terrain')}: {too_big}"])
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
                    if not _INT_TOKEN.match(tok):
                        problems.append(
                            f"{cell_at('elevation', first, off, r, c)}: {tok[:24]!r} is not a "
                            f"whole number (digits 0-9, optional minus sign)"
                        )
                        values.append(0)
                        continue
                    if len(tok.lstrip("-")) > 12 or abs(int(tok)) > limits.max_elevation:
                        problems.append(
                            f"{cell_at('elevation', first, off, r, c)}: {tok[:24]} is out of "
                            f"range (at most ±{limits.max_elevation}, [map_limits] "
                            f"max_elevation in terrain.toml)"
                        )
                        values.append(0)
                        continue
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
