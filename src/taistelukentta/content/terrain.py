"""Loading the terrain table (R-TER-1, -2, -4) from TOML: ``data/terrain.toml`` by default.

The table itself (:class:`~taistelukentta.grid.terrain.TerrainTable`) is pure data in
``grid``; reading and checking the file is content's job, so a game master can change the
values without code.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, model_validator

from taistelukentta.content.loader import data_path, find_line, load_model
from taistelukentta.errors import DataError
from taistelukentta.grid.terrain import MapLimits, TerrainTable, TerrainType

_ID_RE = re.compile(r"^[a-z][a-z0-9_]*\Z")


class _TerrainEntry(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name_fi: str = Field(min_length=1)
    name_en: str = Field(min_length=1)
    move_cost: float | None = Field(default=None, gt=0)
    impassable: bool = False
    cover: int = Field(ge=0)
    sight_limit: int | None = Field(default=None, ge=0)
    char: str = Field(min_length=1, max_length=1)

    @model_validator(mode="after")
    def _cost_or_impassable(self) -> _TerrainEntry:
        if self.impassable and self.move_cost is not None:
            raise ValueError("give either move_cost or impassable = true, not both")
        if not self.impassable and self.move_cost is None:
            raise ValueError("move_cost is missing (or set impassable = true)")
        if self.char.isspace():
            raise ValueError("char must not be whitespace")
        return self


class _MapLimits(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    max_width: int = Field(default=1000, ge=1)
    max_height: int = Field(default=1000, ge=1)
    max_cells: int = Field(default=1_000_000, ge=1)
    max_elevation: int = Field(default=100_000, ge=0)


class _TerrainFile(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    terrain: dict[str, _TerrainEntry] = Field(min_length=1)
    legend: dict[str, list[str]] = Field(default_factory=dict)
    map_limits: _MapLimits = Field(default_factory=_MapLimits)


def load_terrain(path: Path | str | None = None) -> TerrainTable:
    """Load and validate a terrain table (default: the bundled ``data/terrain.toml``)."""
    p = Path(path) if path is not None else data_path("terrain.toml")
    model = load_model(p, _TerrainFile)
    text = p.read_text(encoding="utf-8")
    problems: list[str] = []

    def where(*loc: str) -> str:
        line = find_line(text, loc)
        return f"{'.'.join(loc)}" + (f" (line {line})" if line is not None else "")

    types: list[TerrainType] = []
    seen_chars: dict[str, str] = {}
    for tid, e in model.terrain.items():
        if not _ID_RE.match(tid):
            problems.append(f"{where('terrain', tid)}: id must be lower-case letters, digits, _")
        if e.char in seen_chars:
            problems.append(
                f"{where('terrain', tid, 'char')}: char {e.char!r} is already used by "
                f"{seen_chars[e.char]!r}"
            )
        seen_chars[e.char] = tid
        types.append(
            TerrainType(tid, e.name_fi, e.name_en, e.move_cost, e.cover, e.sight_limit, e.char)
        )
    legend: dict[str, tuple[str, ...]] = {}
    for char, features in model.legend.items():
        if len(char) != 1 or char.isspace():
            problems.append(f"{where('legend', char)}: a legend key must be one visible character")
        if char in seen_chars:
            problems.append(
                f"{where('legend', char)}: {char!r} is already the char of {seen_chars[char]!r}"
            )
        if not features:
            problems.append(f"{where('legend', char)}: list at least one terrain id")
        for f in features:
            if f not in model.terrain:
                problems.append(
                    f"{where('legend', char)}: unknown terrain {f!r}; known: "
                    + ", ".join(model.terrain)
                )
        legend[char] = tuple(features)
    if problems:
        raise DataError(str(p), problems)
    return TerrainTable(types, legend, MapLimits(**model.map_limits.model_dump()))


@cache
def default_terrain() -> TerrainTable:
    """The bundled terrain table, loaded once."""
    return load_terrain()
