"""The terrain table: movement multipliers, cover and sight limits (R-TER-1, -2, -4).

Pure data: the values live in ``data/terrain.toml`` so a game master can change them without
code, and :mod:`taistelukentta.content.terrain` reads them (``load_terrain``,
``default_terrain``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace

from taistelukentta.errors import ArgumentError


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


@dataclass(frozen=True, slots=True)
class MapLimits:
    """How large a map may be (``[map_limits]`` of terrain.toml): a bigger map is refused
    with an error naming the limit, before any grid is built."""

    max_width: int = 1000
    max_height: int = 1000
    max_cells: int = 1_000_000
    max_elevation: int = 100_000
    """Largest elevation (contour lines) a cell may have, up or down."""


class TerrainTable:
    """Every terrain type by id, plus the default map legend (character → features)."""

    def __init__(
        self,
        types: list[TerrainType],
        legend: dict[str, tuple[str, ...]] | None = None,
        limits: MapLimits | None = None,
    ) -> None:
        self.limits = limits if limits is not None else MapLimits()
        """The map-size and elevation limits (``[map_limits]``)."""
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
        return TerrainTable(types, dict(self.legend), self.limits)
