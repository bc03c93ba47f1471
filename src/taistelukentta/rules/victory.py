"""Victory points and the end of the game (R-TURN-2).

After the last round each side scores:

- every objective it holds: an own unit on one of the objective's cells and no enemy unit
  on any of them (DEFAULT: an objective nobody stands on stays with its
  ``holder_at_start``);
- ``destroyed_enemy_vp`` for each enemy unit destroyed;
- ``own_loss_vp`` (zero or negative) for each own unit lost.

The higher total wins; equal totals are a draw. The game also ends at once when one side
has no units left: the other side wins (its points are still counted and reported).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from taistelukentta.content.scenario import Scenario
from taistelukentta.rules.state import SIDES, Side, UnitState


def objective_holders(scenario: Scenario, units: Mapping[str, UnitState]) -> dict[str, Side | None]:
    """Who holds each objective now."""
    out: dict[str, Side | None] = {}
    for obj in scenario.objectives:
        cells = set(obj.cells)
        here = {u.side for u in units.values() if u.cell in cells}
        if len(here) == 1:
            out[obj.id] = next(iter(here))
        elif not here:
            out[obj.id] = obj.holder_at_start
        else:
            out[obj.id] = None
    return out


def score(
    scenario: Scenario,
    units: Mapping[str, UnitState],
    destroyed: Mapping[Side, Sequence[str]],
) -> tuple[dict[Side, int], dict[str, Any]]:
    """Victory points per side and their breakdown."""
    holders = objective_holders(scenario, units)
    v = scenario.victory
    vp: dict[Side, int] = {}
    detail: dict[str, Any] = {"objectives": holders}
    for side in SIDES:
        enemy: Side = "red" if side == "blue" else "blue"
        objectives = sum(o.vp for o in scenario.objectives if holders[o.id] == side)
        kills = len(destroyed[enemy]) * v.destroyed_enemy_vp
        losses = len(destroyed[side]) * v.own_loss_vp
        vp[side] = objectives + kills + losses
        detail[side] = {"objectives": objectives, "destroyed_enemy": kills, "own_losses": losses}
    return vp, detail


def winner_of(vp: Mapping[Side, int], eliminated: Side | None = None) -> str:
    """``"blue"``, ``"red"`` or ``"draw"``."""
    if eliminated is not None:
        return "red" if eliminated == "blue" else "blue"
    if vp["blue"] > vp["red"]:
        return "blue"
    if vp["red"] > vp["blue"]:
        return "red"
    return "draw"
