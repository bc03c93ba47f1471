"""The terrain table: movement multipliers, cover and sight limits (R-TER-1, -2, -4).

The values live in ``data/terrain.toml`` so a game master can change them without code.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, model_validator

from taistelukentta.content.loader import data_path, find_line, load_model
from taistelukentta.errors import ArgumentError, DataError

_ID_RE = re.compile(r"^[a-z][a-z0-9_]*$")


@dataclass(frozen=True, slots=True)
class TerrainType:
    """One terrain feature a cell can hold."""

    id: str
    name_fi: str
    name_en: str
    move_cost: float | None
    """Movement multiplier of a step into it (R-TER-1); ``None`` = impassable."""
    cover: int
    """Cover bonus it gives (R-TER-2)."""
    sight_limit: int | None
    """Units see each other through it only up to this many cells (R-TER-4); None = no limit."""
    char: str
    """Default one-character symbol in map files."""

    @property
    def impassable(self) -> bool:
        """True when no step may enter this feature."""
        return self.move_cost is None


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


class _TerrainFile(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    terrain: dict[str, _TerrainEntry] = Field(min_length=1)
    legend: dict[str, list[str]] = Field(default_factory=dict)


class TerrainTable:
    """Every terrain type by id, plus the default map legend (character → features)."""

    def __init__(
        self, types: list[TerrainType], legend: dict[str, tuple[str, ...]] | None = None
    ) -> None:
        self._types = {t.id: t for t in types}
        default: dict[str, tuple[str, ...]] = {t.char: (t.id,) for t in types}
        default.update(legend or {})
        self.legend: dict[str, tuple[str, ...]] = default
        """Default legend of map files: one character → the features of the cell."""

    def get(self, terrain_id: str) -> TerrainType:
        """The terrain type ``terrain_id``; ArgumentError naming the known ids otherwise."""
        try:
            return self._types[terrain_id]
        except KeyError:
            known = ", ".join(self._types)
            raise ArgumentError(
                f"unknown terrain {terrain_id!r}; known: {known}",
                f"tuntematon maasto {terrain_id!r}; tunnetut: {known}",
            ) from None

    def find(self, name: str) -> TerrainType:
        """Look a terrain up by id or by its Finnish or English name (case-insensitive)."""
        key = name.strip().lower()
        for t in self._types.values():
            if key in (t.id, t.name_fi.lower(), t.name_en.lower()):
                return t
        return self.get(name)

    @property
    def ids(self) -> tuple[str, ...]:
        """Every terrain id in file order."""
        return tuple(self._types)

    def __contains__(self, terrain_id: object) -> bool:
        return terrain_id in self._types

    def __iter__(self) -> Iterator[TerrainType]:
        return iter(self._types.values())

    def __len__(self) -> int:
        return len(self._types)

    def with_overrides(
        self,
        *,
        move_cost: Mapping[str, float | None] | None = None,
        cover: Mapping[str, int] | None = None,
    ) -> TerrainTable:
        """A copy with some terrains' movement multiplier and cover changed (rule options).

        ``move_cost`` maps a terrain id to its new multiplier (``None`` = impassable);
        ``cover`` maps a terrain id to its new cover bonus. Unknown ids, a multiplier that
        is not > 0 or a negative cover raise ArgumentError. The legend is kept.
        """
        costs = dict(move_cost or {})
        covers = dict(cover or {})
        for tid in [*costs, *covers]:
            self.get(tid)
        for tid, c in costs.items():
            if c is not None and not c > 0:
                raise ArgumentError(
                    f"move_cost of terrain {tid!r} must be > 0 or None, got {c}",
                    f"maaston {tid!r} liikekertoimen on oltava > 0 tai None, saatiin {c}",
                )
        for tid, v in covers.items():
            if v < 0:
                raise ArgumentError(
                    f"cover of terrain {tid!r} must be >= 0, got {v}",
                    f"maaston {tid!r} suojan on oltava >= 0, saatiin {v}",
                )
        types = [
            replace(
                t,
                move_cost=costs.get(t.id, t.move_cost),
                cover=covers.get(t.id, t.cover),
            )
            for t in self._types.values()
        ]
        return TerrainTable(types, dict(self.legend))


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
    return TerrainTable(types, legend)


_DEFAULT: TerrainTable | None = None


def default_terrain() -> TerrainTable:
    """The bundled terrain table, loaded once."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = load_terrain()
    return _DEFAULT
