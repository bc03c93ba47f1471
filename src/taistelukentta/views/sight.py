"""Line of sight and reach as one viewer of a game may ask for them (``tk20 los/reach GAME
--as SIDE --unit ID``, and ``los``/``reach`` inside ``tk20 play``).

A side names only what its view shows: its own units, and enemy units it has SPOTTED. An
unknown id gets the same answer whether or not such an enemy exists (R-REC-5). Reach uses
the side's knowledge, as the move rules do (SPOTTED enemies block their cell and stop a
move in their zone of control; an unseen enemy changes nothing); line of sight is terrain
only (R-TER-4), which the map shows anyway.
"""

from __future__ import annotations

from dataclasses import dataclass

from taistelukentta.errors import ArgumentError
from taistelukentta.grid.geometry import Cell
from taistelukentta.grid.sight import Sight
from taistelukentta.rules.context import cache_for
from taistelukentta.rules.movement import destinations, knowledge
from taistelukentta.rules.state import GameState
from taistelukentta.views.models import OwnUnitView, UnitView
from taistelukentta.views.view import resolve_viewer, view_for


@dataclass(frozen=True)
class ReachAnswer:
    """Cells ``unit`` may move to this turn, as its side knows the board."""

    unit: str
    start: Cell
    movement: int
    cells: dict[Cell, float]
    """Destination -> allowance spent (start excluded)."""


def _visible(state: GameState, viewer: str) -> dict[str, UnitView]:
    view = view_for(state, viewer, log_limit=0, extras=False)
    return {u.id: u for u in view.units}


def _unknown(uid: str) -> ArgumentError:
    return ArgumentError(
        f"unknown unit {uid!r} (not one of your units nor a SPOTTED enemy)",
        f"tuntematon yksikkö {uid!r} (ei oma yksikkö eikä havaittu vihollinen)",
    )


def viewer_unit(state: GameState, viewer: str, uid: str, *, own: bool) -> UnitView:
    """The unit ``uid`` as ``viewer`` sees it: own units (every unit for the game master);
    with ``own=False`` also SPOTTED enemies. Anything else: the same "unknown unit"."""
    kind, _ = resolve_viewer(state, viewer)
    unit = _visible(state, viewer).get(uid)
    if unit is None:
        for known, u in _visible(state, viewer).items():  # case-insensitive ids
            if known.lower() == uid.lower():
                unit = u
                break
    if unit is None:
        raise _unknown(uid)
    if own and kind != "gm" and not (isinstance(unit, OwnUnitView) and unit.side == kind):
        raise ArgumentError(
            f"{unit.id} is not one of your units",
            f"{unit.id} ei ole oma yksikkösi",
        )
    return unit


def side_reach(state: GameState, viewer: str, uid: str) -> ReachAnswer:
    """Where ``uid`` (the viewer's own unit) may move now, from its side's knowledge."""
    seen = viewer_unit(state, viewer, uid, own=True)
    unit = state.units[seen.id]
    cache = cache_for(state)
    know = knowledge(cache, state.units, state.contacts[unit.side], unit)
    cells = destinations(cache, unit, know)
    return ReachAnswer(unit.id, unit.cell, cache.movement(unit), dict(cells))


def side_sight(state: GameState, a: Cell, b: Cell) -> Sight:
    """Line of sight from ``a`` to ``b`` on the game's map with its options (terrain only)."""
    cache = cache_for(state)
    cache.map.check_cell(a, "--from")
    cache.map.check_cell(b, "--to")
    return cache.sight(a, b)


def is_gm(state: GameState, viewer: str) -> bool:
    return resolve_viewer(state, viewer)[0] == "gm"
