"""Order handlers and hooks: how rule modules plug into the engine (docs/extending.md).

Every order kind is handled by an :class:`OrderHandler` registered here; the engine
(:mod:`taistelukentta.rules.engine`) keeps only the flow — seat, turn and phase checks,
dispatch, KP payment, the ``order`` event and moving the turn on. The base kinds (§3–10)
are registered by the engine itself; a rule module registers its own kinds and hook
functions when it is imported (see :mod:`taistelukentta.rules.plugins`).

Hooks are plain lists of functions in :data:`HOOKS`, called in registration order at fixed
places of the engine; an empty list costs one attribute lookup and an empty loop.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from taistelukentta.grid.geometry import Cell
from taistelukentta.rules.orders import Order, OrderKind
from taistelukentta.rules.state import GameState, Phase, Side, UnitState

if TYPE_CHECKING:
    from taistelukentta.rules.context import ScenarioCache, Tx


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
    called as above and its list is filtered (:func:`call_legal`)."""

    kind: OrderKind
    check: CheckFn
    execute: ExecuteFn
    legal: LegalFn | None = None
    phases: frozenset[Phase] = COMMAND_ONLY
    module: str = ""
    legal_moves: LegalFn | None = None


_HANDLERS: dict[OrderKind, OrderHandler] = {}
_BASE: dict[OrderKind, OrderHandler] = {}
_EXTRA_LEGAL: list[OrderHandler] = []


def register_order(handler: OrderHandler, *, replace: bool = False) -> None:
    """Register ``handler`` for its kind. A kind already handled needs ``replace=True``
    (a module that extends a base order wraps the handler :func:`handler_for` returns)."""
    old = _HANDLERS.get(handler.kind)
    if old is not None and not replace:
        raise ValueError(
            f"order kind {handler.kind.value!r} already has a handler (module {old.module!r})"
        )
    _HANDLERS[handler.kind] = handler
    _rebuild()


def register_base(handler: OrderHandler) -> None:
    """The engine's own handlers (§3–10); what :func:`unregister_order` falls back to."""
    _BASE[handler.kind] = handler
    _HANDLERS.setdefault(handler.kind, handler)
    _rebuild()


def unregister_order(kind: OrderKind) -> None:
    """Remove the module handler of ``kind`` (a base kind goes back to the engine's)."""
    _HANDLERS.pop(kind, None)
    if kind in _BASE:
        _HANDLERS[kind] = _BASE[kind]
    _rebuild()


def saved_handlers() -> dict[OrderKind, OrderHandler]:
    """A copy of the handler table, in registration order (for :func:`restore_handlers`:
    tests that unregister a kind put the table back exactly as it was)."""
    return dict(_HANDLERS)


def restore_handlers(saved: dict[OrderKind, OrderHandler]) -> None:
    """Put back a table from :func:`saved_handlers` (same handlers, same order)."""
    _HANDLERS.clear()
    _HANDLERS.update(saved)
    _rebuild()


def handler_for(kind: OrderKind) -> OrderHandler | None:
    """The handler of ``kind``, or None if no module handles it in this version."""
    return _HANDLERS.get(kind)


def module_handlers() -> tuple[OrderHandler, ...]:
    """Handlers whose legal orders the engine adds to ``legal_orders`` (every non-base
    handler with a ``legal`` or ``legal_moves`` function)."""
    return tuple(_EXTRA_LEGAL)


_TAKES_UNIT: dict[Callable[..., Any], bool] = {}


def takes_unit(fn: Callable[..., Any]) -> bool:
    """Whether a ``legal``/``legal_moves`` function takes the keyword-only ``unit``."""
    hit = _TAKES_UNIT.get(fn)
    if hit is None:
        try:
            param = inspect.signature(fn).parameters.get("unit")
        except (TypeError, ValueError):
            param = None
        hit = param is not None and param.kind is inspect.Parameter.KEYWORD_ONLY
        _TAKES_UNIT[fn] = hit
    return hit


def call_legal(
    fn: Callable[..., Iterable[Order]], state: GameState, seat: str, side: Side, unit: str | None
) -> Iterable[Order]:
    """``fn(state, seat, side)``, with ``unit=unit`` when a unit is asked for and ``fn``
    takes it (see :class:`OrderHandler`); the caller still filters by unit."""
    if unit is not None and takes_unit(fn):
        return fn(state, seat, side, unit=unit)
    return fn(state, seat, side)


def _rebuild() -> None:
    _EXTRA_LEGAL[:] = [
        h
        for k, h in _HANDLERS.items()
        if (h.legal is not None or h.legal_moves is not None) and _BASE.get(k) is not h
    ]


# --------------------------------------------------------------------------- hooks


@dataclass(slots=True)
class Hooks:
    """The hook lists. Each list holds functions called in registration order; see
    docs/extending.md for where each is called and what it returns."""

    on_game_start: list[Callable[[Tx], None]] = field(default_factory=list)
    """new_game, after the units are placed and both sides observed, before the first
    turn starts."""
    on_turn_start: list[Callable[[Tx, Side], None]] = field(default_factory=list)
    """Start of a side's turn, after KP refill and the fresh-turn reset, before
    RETREATING units run."""
    kp_refill: list[Callable[[Tx, Side, str, int], int]] = field(default_factory=list)
    """Per seat at the refill: gets the amount, returns the amount (chained)."""
    on_fire_phase: list[Callable[[Tx, Side], None]] = field(default_factory=list)
    """The command phase has ended and the fire phase begins."""
    on_turn_end: list[Callable[[Tx, Side], None]] = field(default_factory=list)
    """End of a side's turn, after statuses, before the KP reset."""
    on_enter_cell: list[Callable[[Tx, str, Cell], bool]] = field(default_factory=list)
    """A moving unit entered a cell (each step of a move); True = it stops there."""
    movement_allowance: list[Callable[[ScenarioCache, UnitState, int], int]] = field(
        default_factory=list
    )
    """A unit's movement allowance: gets the base (after strength effects), returns the
    allowance (chained). Only the unit (its ``ext``) and the scenario are at hand."""
    can_be_targeted: list[Callable[[GameState, UnitState, str], tuple[str, str] | None]] = field(
        default_factory=list
    )
    """Whether ``attacker`` may attack/fire at enemy ``target`` (id): a reason (English,
    Finnish) or None. Must use only the attacker side's knowledge."""
    can_be_detected: list[Callable[[Tx, Side, str, int], bool]] = field(default_factory=list)
    """Whether ``side`` may raise its contact on enemy ``uid`` to ``level`` (a
    ContactLevel value); False keeps the contact as it was."""
    attack_modifiers: list[Callable[[Tx, UnitState, UnitState], tuple[int, bool, bool]]] = field(
        default_factory=list
    )
    """Extra (bonus, advantage, disadvantage) of a direct-fire attack."""
    attack_reroll: list[Callable[[Tx, UnitState, UnitState, str], bool]] = field(
        default_factory=list
    )
    """After a direct-fire attack roll that did no damage (effect ``MISS`` or
    ``PINNING``): True = roll the attack again, once (the first hook saying so wins)."""
    after_attack: list[Callable[[Tx, str, str, dict[str, Any]], None]] = field(default_factory=list)
    """After a direct-fire attack is logged (the ``attack`` event's data), before its
    setbacks, effects and damage are applied."""
    damage_modifier: list[Callable[[Tx, str, str, int], int]] = field(default_factory=list)
    """The damage of a direct-fire attack (attacker id, target id, amount) → amount."""
    morale_modifiers: list[Callable[[Tx, UnitState], int]] = field(default_factory=list)
    """Extra bonus of a unit's morale test (summed)."""
    on_destroyed: list[Callable[[Tx, UnitState], None]] = field(default_factory=list)
    """A unit was destroyed (already removed; gets its last state), before the adjacent
    units test morale."""
    on_unit_moved: list[Callable[[Tx, str, list[Cell]], None]] = field(default_factory=list)
    """A unit has moved (the cells it walked), after contacts were updated."""
    view_extras: list[Callable[[GameState, str], dict[str, Any]]] = field(default_factory=list)
    """What a viewer (``blue``, ``red`` or ``gm``) sees of module state; merged by
    :func:`view_extras`."""
    may_fire: list[Callable[[ScenarioCache, UnitState, int], bool]] = field(default_factory=list)
    """``(cache, unit, turn_no)``: True lets a unit whose action would forbid fire (e.g. a
    withdrawal under Järjestäytynyt vetäytyminen) fire this fire phase; the unit must
    still not have fired and be able to fire."""


HOOKS = Hooks()
"""The engine's hook lists (module-level, shared by every game)."""

HOOK_NAMES = tuple(Hooks.__dataclass_fields__)


def add_hook(name: str, fn: Callable[..., Any]) -> None:
    """Append ``fn`` to the hook ``name`` (ValueError for an unknown hook)."""
    _hook_list(name).append(fn)


def remove_hook(name: str, fn: Callable[..., Any]) -> None:
    """Remove ``fn`` from the hook ``name`` (no error if it is not there)."""
    hooks = _hook_list(name)
    if fn in hooks:
        hooks.remove(fn)


def _hook_list(name: str) -> list[Callable[..., Any]]:
    if name not in HOOK_NAMES:
        raise ValueError(f"unknown hook {name!r} (hooks: {', '.join(HOOK_NAMES)})")
    hooks: list[Callable[..., Any]] = getattr(HOOKS, name)
    return hooks


def view_extras(state: GameState, viewer: str) -> dict[str, Any]:
    """Module state a viewer may see: ``viewer`` is ``"blue"``, ``"red"`` or ``"gm"``
    (everything). One key per module, merged from the ``view_extras`` hooks."""
    out: dict[str, Any] = {}
    for fn in HOOKS.view_extras:
        out.update(fn(state, viewer))
    return out


def target_blocked(state: GameState, attacker: UnitState, target: str) -> tuple[str, str] | None:
    """The first ``can_be_targeted`` refusal, or None."""
    for fn in HOOKS.can_be_targeted:
        problem = fn(state, attacker, target)
        if problem is not None:
            return problem
    return None
