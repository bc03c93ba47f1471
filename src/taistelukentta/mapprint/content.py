"""What one print may show, built from a whitelist per side.

A running game's print (:func:`content_for_view`) is built from the viewer's view alone
(:func:`taistelukentta.views.view_for`): the side's own units where they are now, the enemy
it spots, its other contacts where it last placed them, the mine cells it knows.

The drawing code (:mod:`taistelukentta.mapprint.draw`) sees only a :class:`PrintContent`,
never the scenario: whatever is not copied here cannot reach the paper. A players' print
(``blue`` or ``red``) holds the map, the title and the objectives (public: both sides have
the briefing); Blue's print adds Blue's own set-up and Blue-laid minefields. Red's set-up,
Red's minefields, fortified cells and the GM's notes are in the GM's print only (Red is the
game master's side: its set-up is the GM's preparation, 004).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from taistelukentta.content.scenario import Scenario
from taistelukentta.grid.gamemap import GameMap
from taistelukentta.i18n import GLOSSARY
from taistelukentta.views.models import AnyView, GMMinesView, GMView, KnownMinefieldCell, UnitView

PrintSide = Literal["blue", "red", "gm"]
PRINT_SIDES: tuple[str, ...] = ("blue", "red", "gm")
Cell = tuple[int, int]


@dataclass(frozen=True)
class PrintUnit:
    """A counter on the print: its set-up position, or in a running game where it is now."""

    id: str
    side: Literal["blue", "red"]
    cell: Cell
    label: str
    detail: str = ""
    """Under the counter in a running game: TK and statuses (``7/10 Tärähtänyt``)."""


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
class PrintContact:
    """An enemy the side knows of but does not see (R-REC-2): its opaque label, the
    contact's level and where the side last placed it — a cell or an area."""

    label: str
    level: str
    cells: tuple[Cell, ...]
    """One cell (a known position) or the area's cells (x0, y0, size)."""


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
    contacts: tuple[PrintContact, ...] = ()
    situation: str = ""
    """A running game's moment (round, game over, own losses), in the page header."""
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


def _level_word(level: str, lang: str) -> str:
    pair = GLOSSARY.get(level)
    return level if pair is None else pair[1 if lang == "en" else 0]


def _unit_detail(u: UnitView, lang: str) -> str:
    """TK and statuses under a counter (``7/10 Tärähtänyt``)."""
    words = [GLOSSARY[s][1 if lang == "en" else 0] if s in GLOSSARY else s for s in u.statuses]
    return " ".join([f"{u.strength}/{u.max_strength}", *words])


def _known_mines(known: Sequence[KnownMinefieldCell]) -> tuple[PrintMinefield, ...]:
    """The cells a side knows to be mined, as one field per connected group of a type."""
    by_type: dict[str, set[Cell]] = {}
    for k in known:
        by_type.setdefault(k.type or "?", set()).add((k.cell[0], k.cell[1]))
    out: list[PrintMinefield] = []
    for mine_type, cells in sorted(by_type.items()):
        left = set(cells)
        while left:
            group, todo = set(), [min(left)]
            while todo:
                c = todo.pop()
                if c not in left:
                    continue
                left.discard(c)
                group.add(c)
                todo.extend((c[0] + dx, c[1] + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1))
            out.append(PrintMinefield("", mine_type, tuple(sorted(group))))
    return tuple(out)


def content_for_view(view: AnyView, scenario: Scenario, lang: str) -> PrintContent:
    """The print of a running (or finished) game from one viewer's view: a side's print
    shows its own units where they are now (TK, statuses), the enemy units it spots, its
    other contacts where it last placed them, the minefield cells it knows and the
    objectives; the GM's print shows every unit and minefield. Built from the view only
    (plus the public map and the side's own set-up for its fortified cells): nothing the
    viewer cannot see reaches the paper."""
    side: PrintSide = "gm" if isinstance(view, GMView) else view.side
    title = _pick(lang, view.title.fi, view.title.en)
    objectives = tuple(
        PrintObjective(
            o.id, _pick(lang, o.name.fi, o.name.en), o.vp, tuple((c[0], c[1]) for c in o.cells)
        )
        for o in view.objectives
    )
    units = tuple(
        PrintUnit(u.id, u.side, (u.cell[0], u.cell[1]), u.id, _unit_detail(u, lang))
        for u in view.units
    )
    contacts: tuple[PrintContact, ...] = ()
    minefields: tuple[PrintMinefield, ...] = ()
    if isinstance(view, GMView):
        fields = view.mines.fields if isinstance(view.mines, GMMinesView) else None
        minefields = tuple(
            PrintMinefield(f.id, f.type, tuple((c[0], c[1]) for c in f.cells))
            for f in fields or ()
            if f.cells
        )
        fortified = tuple(sorted((c[0], c[1]) for c in scenario.fortifications))
        lost = [*view.destroyed.blue, *view.destroyed.red]
    else:
        spotted = {u.id for u in view.units}
        found: list[PrintContact] = []
        for c in view.contacts:
            if c.unit is not None and c.unit in spotted:
                continue
            if c.area is not None:
                x0, y0, size = c.area
                cells = tuple((x, y) for x in range(x0, x0 + size) for y in range(y0, y0 + size))
            elif c.cell is not None:
                cells = ((c.cell[0], c.cell[1]),)
            else:
                continue
            found.append(PrintContact(c.label, _level_word(c.level, lang), cells))
        contacts = tuple(found)
        if view.mines is not None:
            minefields = _known_mines(view.mines.known)
        own = {(p.cell[0], p.cell[1]) for s, _, p in scenario.placements() if s == view.side}
        fortified = tuple(sorted((c[0], c[1]) for c in scenario.fortifications if c in own))
        lost = list(view.destroyed.own)
    rounds = _pick(lang, "kierros", "round")
    situation = f"{rounds} {view.turn}/{view.rounds}"
    if view.finished:
        situation += _pick(lang, " · peli päättynyt", " · game over")
    if lost:
        names = sorted(lost)
        shown = ", ".join(names[:8]) + (f" +{len(names) - 8}" if len(names) > 8 else "")
        situation += _pick(lang, " · menetetyt: ", " · lost: ") + shown
    return PrintContent(
        game_map=scenario.map,
        title=title,
        side=side,
        lang=lang,
        objectives=objectives,
        units=units,
        minefields=minefields,
        fortified=fortified,
        contacts=contacts,
        situation=situation,
    )
