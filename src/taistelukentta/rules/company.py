"""Company command: the company commander, command link, KP transfer, company tactics,
confirmed target, recon report and field promotion (RULES.md §10–11).

Public functions other modules use (pure, no dice):

- :func:`co_seat` / :func:`co_unit` — who commands the company now (R-LINK-3);
- :func:`in_command_link` — whether a Blue unit is in command link (R-LINK-1/2);
- :func:`line_cells` — the cells the straight line between two cells crosses.

Module state lives in ``GameState.ext["company"]`` (a JSON-safe dict, see
:data:`MODULE`) and in ``UnitState.ext["company"]`` for per-unit marks.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from taistelukentta.grid.geometry import Cell, chebyshev
from taistelukentta.rules.state import GameState

MODULE = "company"


# --------------------------------------------------------------------------- geometry


def line_cells(a: Cell, b: Cell) -> Iterator[Cell]:
    """The cells the straight line between the centres of ``a`` and ``b`` crosses, ``a``
    and ``b`` excluded (grid traversal; a line passing exactly through a cell corner
    goes diagonally and does not touch the two side cells)."""
    x, y = a
    x1, y1 = b
    dx, dy = abs(x1 - x), abs(y1 - y)
    sx = 1 if x1 > x else -1
    sy = 1 if y1 > y else -1
    err = dx - dy
    dx2, dy2 = dx * 2, dy * 2
    while (x, y) != (x1, y1):
        if err > 0:
            x += sx
            err -= dy2
        elif err < 0:
            y += sy
            err += dx2
        else:
            x += sx
            y += sy
            err += dx2 - dy2
        if (x, y) != (x1, y1):
            yield (x, y)


# --------------------------------------------------------------------------- who commands


def _ext(state: GameState) -> Mapping[str, Any]:
    value: Mapping[str, Any] = state.ext.get(MODULE) or {}
    return value


def _seat_leader(state: GameState, seat_id: str) -> str | None:
    """The leader unit id of a Blue seat as the scenario names it (or the first unit of
    the seat whose card has the seat's role)."""
    for seat in state.scenario.blue.seats:
        if seat.id != seat_id:
            continue
        if seat.leader is not None:
            return seat.leader
        cards = state.scenario.cards
        for placement in seat.units:
            card = cards.get(placement.card)
            if card is not None and card.role == seat.role:
                return placement.id
        return None
    return None


def _original_co_seat(state: GameState) -> str:
    for seat in state.scenario.blue.seats:
        if seat.role == "company_commander":
            return seat.id
    return "co"  # pragma: no cover - the scenario loader requires exactly one CO seat


def co_seat(state: GameState) -> str | None:
    """The Blue seat that is the company commander now: the scenario's CO seat, after a
    field promotion the promoted unit's seat (R-LINK-3); None while the company has no
    commander (the CO is lost and nobody is promoted yet, or it is leaderless)."""
    ext = _ext(state)
    if "promoted_seat" in ext:
        seat: str | None = ext["promoted_seat"]
        return seat if ext.get("promoted_unit") in state.units else None
    seat = _original_co_seat(state)
    unit = _seat_leader(state, seat)
    if unit is not None and unit not in state.units:
        return None
    return seat


def co_unit(state: GameState) -> str | None:
    """The unit id of the company commander now (None when there is none)."""
    ext = _ext(state)
    if "promoted_seat" in ext:
        uid: str | None = ext.get("promoted_unit")
        return uid if uid in state.units else None
    uid = _seat_leader(state, _original_co_seat(state))
    return uid if uid is not None and uid in state.units else None


def leaderless(state: GameState) -> bool:
    """The company has lost its commander and none is appointed (R-LINK-3)."""
    return co_unit(state) is None


def platoon_leader_unit(state: GameState, seat_id: str) -> str | None:
    """The platoon leader unit of Blue seat ``seat_id`` if it is on the map."""
    uid = _seat_leader(state, seat_id)
    return uid if uid is not None and uid in state.units else None


# --------------------------------------------------------------------------- command link


def _link_unit(state: GameState, unit_id: str) -> str:
    """Whose position decides ``unit_id``'s link: its platoon leader if that is on the
    map, else the unit itself (DEFAULT)."""
    unit = state.units[unit_id]
    leader = platoon_leader_unit(state, unit.group)
    return leader if leader is not None else unit_id


def _in_combat(state: GameState, uid: str) -> bool:
    """R-LINK-1 DEFAULT "in combat": the (Red) unit stands in a Blue unit's ZoC, or has
    fired or been fired at this round."""
    unit = state.units[uid]
    combat = _ext(state).get("combat")
    if combat and combat.get(uid) == state.round:
        return True
    r = state.scenario.options.zoc_radius
    return any(
        chebyshev(u.cell, unit.cell) <= r for u in state.units.values() if u.side != unit.side
    )


def _line_blocked(state: GameState, a: Cell, b: Cell) -> bool:
    mode = state.scenario.options.link_blocker
    if mode == "none":
        return False
    occ = state.occupancy()
    for cell in line_cells(a, b):
        for uid in occ.get(cell, ()):
            unit = state.units[uid]
            if unit.side != "red":
                continue
            if mode == "any_enemy_on_line" or _in_combat(state, uid):
                return True
    return False


def restored_this_turn(state: GameState, seat_id: str) -> bool:
    """A link of seat ``seat_id`` restored by the CO this turn (R-LINK-2)."""
    restored: Mapping[str, int] = _ext(state).get("restored") or {}
    return restored.get(seat_id) == state.turn_no


def in_command_link(state: GameState, unit_id: str) -> bool:
    """Whether unit ``unit_id`` is in command link (R-LINK-1/2).

    Red never uses the link rule: True. A Blue unit is in link when its platoon leader
    (the unit itself when that leader is gone, or for the CO's own units) is within
    ``link_range`` of the CO unit and no enemy unit blocks the line between them
    (``link_blocker``), or when the CO restored that platoon's link this turn. Without a
    company commander nobody is in link. A unit not on the map is not in link."""
    unit = state.units.get(unit_id)
    if unit is None:
        return False
    if unit.side == "red":
        return True
    co = co_unit(state)
    if co is None:
        return False
    if restored_this_turn(state, unit.group):
        return True
    who = _link_unit(state, unit_id)
    if who == co:
        return True
    a = state.units[who].cell
    b = state.units[co].cell
    if chebyshev(a, b) > state.scenario.options.link_range:
        return False
    return not _line_blocked(state, a, b)
