"""Lookouts: the toy rule module of docs/extending.md, one file, nothing central changed.

``lookout U [radius N]`` (Finnish ``tähystä U [säde N]``, 1 KP) makes U a lookout for
this turn, watching N cells around it (1 unless given, at most 3); enemies attacking a
unit within a lookout's radius get −1. The module owns its order kind: its keyword,
grammar, its own typed field (``radius``, :class:`LookoutArgs`), check, execution,
listing and its view section.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from taistelukentta.errors import IllegalOrderError, InvalidOrderError
from taistelukentta.grid.geometry import chebyshev
from taistelukentta.rules.context import Tx
from taistelukentta.rules.listing import Listing
from taistelukentta.rules.orders import (
    Order,
    OrderArgs,
    OrderKind,
    OrderTokens,
    module_syntax,
    order_kind,
)
from taistelukentta.rules.registry import OrderHandler, Plan
from taistelukentta.rules.ruleset import RuleModule
from taistelukentta.rules.sections import ViewModel, ViewSection
from taistelukentta.rules.state import GameState, Side, UnitState

MODULE = "lookout"
LOOKOUT: OrderKind = order_kind("lookout")
"""The module's own order kind (declared here, as every module declares its kinds)."""


RADIUS_WORDS = ("radius", "säde", "sade")
MAX_RADIUS = 3


@dataclass(frozen=True, slots=True)
class LookoutArgs(OrderArgs):
    """The module's own field of ``lookout``: how far the lookout watches."""

    radius: int = 1

    def words(self) -> list[str]:
        return [] if self.radius == 1 else ["radius", str(self.radius)]


def read(kind: OrderKind, words: OrderTokens) -> Order:
    """``lookout U [radius N]``: the words after the keyword."""
    unit = words.id()
    radius = 1
    if words.take_if(RADIUS_WORDS):
        token = words.take()
        if not (token.isascii() and token.isdigit() and 1 <= int(token) <= MAX_RADIUS):
            raise InvalidOrderError(
                f"order {words.text!r}: radius {token!r} is not 1-{MAX_RADIUS}",
                f"käsky {words.text!r}: säde {token!r} ei ole 1-{MAX_RADIUS}",
            )
        radius = int(token)
    return Order(kind, unit, args=LookoutArgs(radius) if radius != 1 else None)


def radius_of(order: Order) -> int:
    return order.args.radius if isinstance(order.args, LookoutArgs) else 1


def check(state: GameState, seat: str, side: Side, order: Order) -> Plan:
    unit = state.units.get(order.unit or "")
    if unit is None or unit.side != side or unit.seat != seat:
        raise IllegalOrderError(
            f"you have no unit {order.unit!r}", f"sinulla ei ole yksikköä {order.unit!r}"
        )
    if (unit.ext.get(MODULE) or {}).get("turn") == state.turn_no:
        raise IllegalOrderError(f"{unit.id} is already a lookout", f"{unit.id} on jo tähystäjä")
    return Plan(unit=unit, cost=1)


def execute(tx: Tx, seat: str, order: Order, plan: Plan) -> None:
    assert plan.unit is not None
    tx.set_unit_ext(plan.unit.id, MODULE, {"turn": tx.turn_no, "radius": radius_of(order)})
    tx.unit_event("lookout", plan.unit.id, {})  # only its own side sees it


def legal(listing: Listing, unit: UnitState) -> Iterable[Order]:
    """Listed per unit (``legal_unit``): ``lookout U`` right after U's base orders."""
    if (unit.ext.get(MODULE) or {}).get("turn") == listing.state.turn_no:
        return ()
    if not listing.pays(unit, 1):
        return ()
    return (listing.order(LOOKOUT, unit.id),)


def lookout_penalty(tx: Tx, attacker: UnitState, target: UnitState) -> tuple[int, bool, bool]:
    near = any(
        u.side == target.side
        and u.ext.get(MODULE) is not None
        and chebyshev(u.cell, target.cell) <= u.ext[MODULE]["radius"]
        for u in tx.units.values()
    )
    return (-1 if near else 0, False, False)


def forget(tx: Tx, side: Side) -> None:  # lookouts stand down at turn end
    for u in list(tx.units_of(side)):
        if MODULE in u.ext:
            tx.set_unit_ext(u.id, MODULE, None)


class LookoutView(ViewModel):
    """The module's section of a view: the lookouts the viewer may know of (a side its
    own, the game master all)."""

    units: tuple[str, ...]


def section(state: GameState, viewer: str) -> LookoutView:
    return LookoutView(
        units=tuple(
            sorted(
                u.id
                for u in state.units.values()
                if u.ext.get(MODULE) is not None and (viewer == "gm" or u.side == viewer)
            )
        )
    )


def rule_module() -> RuleModule:
    return RuleModule(
        MODULE,
        orders=(OrderHandler(LOOKOUT, check, execute, module=MODULE, legal_unit=legal),),
        syntax=(module_syntax(LOOKOUT, "lookout UNIT [radius N]", ("tähystä", "tahysta"), read),),
        hooks=(("attack_modifiers", lookout_penalty), ("on_turn_end", forget)),
        view=ViewSection("lookout", LookoutView, LookoutView, section),
    )
