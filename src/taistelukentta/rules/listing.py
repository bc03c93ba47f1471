"""What a handler's per-unit listing of legal orders gets (docs/extending.md).

``legal_orders(state, seat)`` lists, for every unit of the seat in id order, the orders of
each handler that lists per unit (:attr:`OrderHandler.legal_unit
<taistelukentta.rules.registry.OrderHandler>`), in the ruleset's handler order — so one
unit's rally, defend, moves, attacks, disengage, withdraw and recon orders stand together
— then the per-seat lists of the handlers' ``legal``, then ``done``.

A :class:`Listing` is made once per ``legal_orders`` call and handed to every per-unit
function with the unit: the state, the seat and its side, the rule caches, the caller's
options (``recon_cells``, ``attack_moves``), and what several kinds of one unit need,
worked out once — the side's knowledge around the unit, the cells it can reach, the
side's spotted enemies and where it believes enemies are. Everything in it comes from
the seat's side's own knowledge.
"""

from __future__ import annotations

from collections.abc import Mapping

from taistelukentta.content.options import RuleOptions
from taistelukentta.grid.geometry import Cell
from taistelukentta.rules import command
from taistelukentta.rules.context import ScenarioCache
from taistelukentta.rules.movement import (
    Knowledge,
    destinations,
    knowledge,
    known_enemy_points,
)
from taistelukentta.rules.orders import OrderKind
from taistelukentta.rules.recon import ContactLevel
from taistelukentta.rules.state import Contact, GameState, Side, UnitState


class Listing:
    """One ``legal_orders`` call as the per-unit listings see it (see the module
    docstring). Read-only for them; the memos are filled on first use."""

    __slots__ = (
        "_dests",
        "_know",
        "_points",
        "_spotted",
        "_unit",
        "attack_moves",
        "cache",
        "contacts",
        "kp",
        "opts",
        "order",
        "recon_cells",
        "seat",
        "side",
        "state",
    )

    def __init__(
        self,
        state: GameState,
        seat: str,
        side: Side,
        cache: ScenarioCache,
        *,
        recon_cells: bool = True,
        attack_moves: bool = True,
    ) -> None:
        self.state = state
        self.seat = seat
        self.side = side
        self.cache = cache
        self.contacts: Mapping[str, Contact] = state.contacts[side]
        """The seat's side's contacts."""
        self.opts: RuleOptions = cache.opts
        self.kp: int = state.kp.get(seat, 0)
        """The seat's KP left."""
        self.recon_cells = recon_cells
        """False: the caller leaves out the orders listed per visible cell (recon)."""
        self.attack_moves = attack_moves
        """False: the caller leaves out the orders that move first (attack … from X,Y)."""
        self.order = cache.order
        """``order(kind, unit, cell, target, args)``: a shared, unchecked order value (the
        listing's orders are valid by construction)."""
        self._spotted: dict[str, Cell] | None = None
        self._points: list[Cell] | None = None
        self._unit: UnitState | None = None
        self._know: Knowledge | None = None
        self._dests: dict[Cell, float] | None = None

    def affordable(self, unit: UnitState, kind: OrderKind) -> bool:
        """Whether the seat can pay an order of base ``kind`` to ``unit`` (its KP, Red's
        battle-group cap)."""
        return self.pays(unit, command.order_cost(self.opts, kind))

    def pays(self, unit: UnitState, cost: int) -> bool:
        """Whether the seat can pay ``cost`` KP for an order to ``unit``."""
        state = self.state
        return (
            command.payment_problem(self.opts, state.kp, state.group_spent, self.seat, unit, cost)
            is None
        )

    def _for(self, unit: UnitState) -> None:
        if self._unit is not unit:
            self._unit = unit
            self._know = None
            self._dests = None

    def knowledge(self, unit: UnitState) -> Knowledge:
        """What the side knows around ``unit`` (blocked, stop and full cells, whether it
        stands in a spotted enemy's ZoC); worked out once per unit."""
        self._for(unit)
        know = self._know
        if know is None:
            know = self._know = knowledge(self.cache, self.state.units, self.contacts, unit)
        return know

    def destinations(self, unit: UnitState) -> dict[Cell, float]:
        """The cells ``unit``'s side believes it can move to (memoised; do not modify)."""
        self._for(unit)
        dests = self._dests
        if dests is None:
            dests = self._dests = destinations(self.cache, unit, self.knowledge(unit))
        return dests

    @property
    def spotted(self) -> dict[str, Cell]:
        """The side's SPOTTED enemies and their cells, in id order."""
        found = self._spotted
        if found is None:
            found = self._spotted = {
                uid: c.cell
                for uid, c in sorted(self.contacts.items())
                if c.level == ContactLevel.SPOTTED and c.cell is not None
            }
        return found

    @property
    def enemy_points(self) -> list[Cell]:
        """Where the side believes enemies are (spotted cells, known areas' centres)."""
        found = self._points
        if found is None:
            found = self._points = known_enemy_points(self.contacts)
        return found

    def __repr__(self) -> str:
        return f"Listing({self.seat!r}, turn {self.state.turn_no})"
