"""What one print may show, built from a whitelist per side.

The drawing code (:mod:`taistelukentta.mapprint.draw`) sees only a :class:`PrintContent`,
never the scenario: whatever is not copied here cannot reach the paper. A players' print
(``blue`` or ``red``) holds the map, the title and the objectives (public: both sides have
the briefing); Blue's print adds Blue's own set-up and Blue-laid minefields. Red's set-up,
Red's minefields, fortified cells and the GM's notes are in the GM's print only (Red is the
game master's side: its set-up is the GM's preparation, 004).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from taistelukentta.content.scenario import Scenario
from taistelukentta.grid.gamemap import GameMap

PrintSide = Literal["blue", "red", "gm"]
PRINT_SIDES: tuple[str, ...] = ("blue", "red", "gm")
Cell = tuple[int, int]


@dataclass(frozen=True)
class PrintUnit:
    """A counter's set-up position on the print."""

    id: str
    side: Literal["blue", "red"]
    cell: Cell
    label: str


@dataclass(frozen=True)
class PrintObjective:
    id: str
    name: str
    vp: int
    cells: tuple[Cell, ...]


@dataclass(frozen=True)
class PrintMinefield:
    id: str
    type: str
    cells: tuple[Cell, ...]


@dataclass(frozen=True)
class PrintContent:
    """Everything a print draws (already filtered for its side and language)."""

    game_map: GameMap
    title: str
    side: PrintSide
    lang: str
    objectives: tuple[PrintObjective, ...] = ()
    units: tuple[PrintUnit, ...] = ()
    minefields: tuple[PrintMinefield, ...] = ()
    fortified: tuple[Cell, ...] = ()
    extra: dict[str, str] = field(default_factory=dict)


def _pick(lang: str, fi: str, en: str) -> str:
    return en if lang == "en" else fi


def content_for_map(game_map: GameMap, side: PrintSide, lang: str) -> PrintContent:
    """A bare map file's print: terrain only, titled with the map's name."""
    title = game_map.name or _pick(lang, "Kartta", "Map")
    return PrintContent(game_map=game_map, title=title, side=side, lang=lang)


def content_for_scenario(scenario: Scenario, side: PrintSide, lang: str) -> PrintContent:
    """A scenario's print for ``side``: see the module docstring for who sees what."""
    title = _pick(lang, scenario.title.fi, scenario.title.en)
    objectives = tuple(
        PrintObjective(
            o.id, _pick(lang, o.name.fi, o.name.en), o.vp, tuple((c[0], c[1]) for c in o.cells)
        )
        for o in scenario.objectives
    )
    units: list[PrintUnit] = []
    if side in ("blue", "gm"):
        for seat in scenario.blue.seats:
            for u in seat.units:
                units.append(PrintUnit(u.id, "blue", (u.cell[0], u.cell[1]), u.id))
    if side == "gm":
        for group in scenario.red.battle_groups:
            for u in group.units:
                units.append(PrintUnit(u.id, "red", (u.cell[0], u.cell[1]), u.id))
    minefields = tuple(
        PrintMinefield(m.id, m.type, tuple((c[0], c[1]) for c in m.cells))
        for m in scenario.secrets.minefields
        if side == "gm" or (side == "blue" and m.owner == "blue")
    )
    fortified: tuple[Cell, ...] = ()
    if side == "gm":
        fortified = tuple(sorted((c[0], c[1]) for c in scenario.fortifications))
    elif side == "blue":
        own = {u.cell for u in units}
        fortified = tuple(sorted((c[0], c[1]) for c in scenario.fortifications if c in own))
    return PrintContent(
        game_map=scenario.map,
        title=title,
        side=side,
        lang=lang,
        objectives=objectives,
        units=tuple(units),
        minefields=minefields,
        fortified=fortified,
    )
