"""Order handlers and hooks: how rule modules plug into the engine (docs/extending.md).

Every order kind is handled by an :class:`OrderHandler`; the engine
(:mod:`taistelukentta.rules.engine`) keeps only the flow — seat, turn and phase checks,
dispatch, KP payment, the ``order`` event and moving the turn on. Which handlers and hooks a
game uses is its :class:`~taistelukentta.rules.ruleset.Ruleset` (built from a declared list
of rule modules); nothing here is a table shared by every game.

Hooks are tuples of functions in a :class:`Hooks` value, called in the ruleset's module
order at fixed places of the engine; an empty tuple costs one attribute lookup and an
empty loop.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from taistelukentta.grid.geometry import Cell
from taistelukentta.rules.orders import Order, OrderKind
from taistelukentta.rules.state import GameState, Phase, Side, UnitState

if TYPE_CHECKING:
    from taistelukentta.rules.context import ScenarioCache, Tx
    from taistelukentta.rules.listing import Listing


@dataclass(frozen=True, slots=True)
class Plan:
    """What checking an order found out, for executing it.

    ``unit`` is the unit ordered (it decides Red's battle-group cap; None for orders to no
    unit), ``path`` a planned path, ``cost`` the KP the engine takes from the seat before
    ``execute``, ``data`` anything else the handler wants to hand to ``execute``."""

    unit: UnitState | None = None
    path: list[Cell] | None = None
    cost: int = 0
    data: Any = None


CheckFn = Callable[[GameState, str, Side, Order], Plan]
ExecuteFn = Callable[["Tx", str, Order, Plan], None]
LegalFn = Callable[[GameState, str, Side], Iterable[Order]]
UnitLegalFn = Callable[["Listing", UnitState], Iterable[Order]]

COMMAND_ONLY = frozenset({Phase.COMMAND})
FIRE_ONLY = frozenset({Phase.FIRE})


@dataclass(frozen=True, slots=True)
class OrderHandler:
    """How one order kind is checked, executed and listed.

    - ``check(state, seat, side, order) -> Plan`` raises IllegalOrderError (English and
      Finnish) computed from ``side``'s own units and contacts only. The engine has
      already checked the seat, the turn, that the seat is not done and the phase. The
      engine checks the payment of ``plan.cost`` after ``check``.
    - ``execute(tx, seat, order, plan)`` changes the working copy; the KP are paid and the
      ``order`` event emitted before it is called.
    - ``legal(state, seat, side)`` lists the orders of this kind the seat may give now
      (each must pass ``check``); None lists none.
    - ``phases``: the phases the kind may be given in.
    - ``legal_moves(state, seat, side)`` lists the orders of this kind that move first
      (``attack U T from X,Y with W``); ``legal_orders(attack_moves=False)`` leaves them
      out without calling it. None lists none.

    A ``legal`` or ``legal_moves`` function may take a keyword-only ``unit: str | None``:
    ``legal_orders(unit=U)`` then passes ``unit=U`` and the function may list only unit
    U's orders (orders of other units are dropped anyway); without the keyword it is
    called as above and its list is filtered (:func:`call_legal`).

    - ``legal_unit(listing, unit)`` lists the orders of this kind one unit may be given
      now: ``legal_orders`` calls it for every unit of the seat in id order, each unit
      with every per-unit handler in the ruleset's handler order (so a unit's orders of
      all such kinds stand together), before the per-seat ``legal`` lists. ``listing`` is
      a :class:`~taistelukentta.rules.listing.Listing`: the state, seat, side, caches,
      the caller's ``recon_cells``/``attack_moves`` and the unit's knowledge and
      destinations worked out once for all kinds. The base kinds list this way."""

    kind: OrderKind
    check: CheckFn
    execute: ExecuteFn
    legal: LegalFn | None = None
    phases: frozenset[Phase] = COMMAND_ONLY
    module: str = ""
    legal_moves: LegalFn | None = None
    legal_unit: UnitLegalFn | None = None


def takes_unit(fn: Callable[..., Any]) -> bool:
    """Whether a ``legal``/``legal_moves`` function takes the keyword-only ``unit`` (see
    :class:`OrderHandler`; a ruleset works this out once per function)."""
    try:
        param = inspect.signature(fn).parameters.get("unit")
    except (TypeError, ValueError):
        param = None
    return param is not None and param.kind is inspect.Parameter.KEYWORD_ONLY


# --------------------------------------------------------------------------- hooks


@dataclass(frozen=True, slots=True)
class Hooks:
    """The hooks of a ruleset. Each is a tuple of functions called in the ruleset's module
    order; see docs/extending.md for where each is called and what it returns."""

    on_game_start: tuple[Callable[[Tx], None], ...] = ()
    """new_game, after the units are placed and both sides observed, before the first
    turn starts."""
    on_turn_start: tuple[Callable[[Tx, Side], None], ...] = ()
    """Start of a side's turn, after KP refill and the fresh-turn reset, before
    RETREATING units run."""
    kp_refill: tuple[Callable[[Tx, Side, str, int], int], ...] = ()
    """Per seat at the refill: gets the amount, returns the amount (chained)."""
    on_fire_phase: tuple[Callable[[Tx, Side], None], ...] = ()
    """The command phase has ended and the fire phase begins."""
    on_turn_end: tuple[Callable[[Tx, Side], None], ...] = ()
    """End of a side's turn, after statuses, before the KP reset."""
    on_enter_cell: tuple[Callable[[Tx, str, Cell], bool], ...] = ()
    """A moving unit entered a cell (each step of a move); True = it stops there."""
    movement_allowance: tuple[Callable[[ScenarioCache, UnitState, int], int], ...] = ()
    """A unit's movement allowance: gets the base (after strength effects), returns the
    allowance (chained). Only the unit (its ``ext``) and the scenario are at hand."""
    can_be_targeted: tuple[Callable[[GameState, UnitState, str], tuple[str, str] | None], ...] = ()
    """Whether ``attacker`` may attack/fire at enemy ``target`` (id): a reason (English,
    Finnish) or None. Must use only the attacker side's knowledge."""
    can_be_detected: tuple[Callable[[Tx, Side, str, int], bool], ...] = ()
    """Whether ``side`` may raise its contact on enemy ``uid`` to ``level`` (a
    ContactLevel value); False keeps the contact as it was."""
    attack_modifiers: tuple[Callable[[Tx, UnitState, UnitState], tuple[int, bool, bool]], ...] = ()
    """Extra (bonus, advantage, disadvantage) of a direct-fire attack."""
    attack_reroll: tuple[Callable[[Tx, UnitState, UnitState, str], bool], ...] = ()
    """After a direct-fire attack roll that did no damage (effect ``MISS`` or
    ``PINNING``): True = roll the attack again, once (the first hook saying so wins)."""
    after_attack: tuple[Callable[[Tx, str, str, dict[str, Any]], None], ...] = ()
    """After a direct-fire attack is logged (the ``attack`` event's data), before its
    setbacks, effects and damage are applied."""
    damage_modifier: tuple[Callable[[Tx, str, str, int], int], ...] = ()
    """The damage of a direct-fire attack (attacker id, target id, amount) → amount."""
    morale_modifiers: tuple[Callable[[Tx, UnitState], int], ...] = ()
    """Extra bonus of a unit's morale test (summed)."""
    morale_rescue: tuple[Callable[[Tx, UnitState, str], str | None], ...] = ()
    """After a morale test failed (``(tx, unit, outcome)``): a name (the veteran ability
    that passes it, R-CAMP-3) turns the outcome into PASS; None leaves it. The first hook
    naming one wins."""
    on_destroyed: tuple[Callable[[Tx, UnitState], None], ...] = ()
    """A unit was destroyed (already removed; gets its last state), before the adjacent
    units test morale."""
    on_unit_moved: tuple[Callable[[Tx, str, list[Cell]], None], ...] = ()
    """A unit has moved (the cells it walked), after contacts were updated."""
    view_extras: tuple[Callable[[GameState, str], dict[str, Any]], ...] = ()
    """What a viewer (``blue``, ``red`` or ``gm``) sees of module state; merged by
    :func:`view_extras`."""
    may_fire: tuple[Callable[[ScenarioCache, UnitState, int], bool], ...] = ()
    """``(cache, unit, turn_no)``: True lets a unit whose action would forbid fire (e.g. a
    withdrawal under Järjestäytynyt vetäytyminen) fire this fire phase; the unit must
    still not have fired and be able to fire."""


HOOK_NAMES = tuple(Hooks.__dataclass_fields__)
