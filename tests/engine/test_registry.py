"""The plug-in structure: order-handler registry, hooks, module state (docs/extending.md).

A tiny test-only rule module (registered per test, unregistered afterwards) proves that an
order kind and hooks can be added without touching engine.py.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

import pytest
from hypothesis import given, settings

from taistelukentta.errors import IllegalOrderError
from taistelukentta.rules import (
    GameState,
    Order,
    OrderKind,
    apply,
    apply_text,
    check_order,
    fire_targets,
    is_legal,
    legal_orders,
    new_game,
    view_extras,
)
from taistelukentta.rules.context import Tx
from taistelukentta.rules.orders import BASE_KINDS, parse_order
from taistelukentta.rules.plugins import load_plugins, loaded_plugins
from taistelukentta.rules.recon import ContactLevel
from taistelukentta.rules.registry import (
    HOOK_NAMES,
    OrderHandler,
    Plan,
    add_hook,
    handler_for,
    register_order,
    remove_hook,
    restore_handlers,
    saved_handlers,
    unregister_order,
)
from taistelukentta.rules.state import Side, UnitState

from .conftest import build, open_rows, with_contact
from .test_notation import orders

SQUAD = "jaakariryhma"
RED = "motorisoitu_jalkavakiryhma"
MODULE_KINDS = [k for k in OrderKind if k not in BASE_KINDS]


def game() -> GameState:
    sc = build(
        open_rows(14, 8),
        [("1R1", SQUAD, (1, 1)), ("1R2", SQUAD, (1, 3))],
        [("R1", RED, (6, 1))],
    )
    return new_game(sc, 3)


# --------------------------------------------------------------------------- a test module

MOD = "testmod"


def _check_hide(state: GameState, seat: str, side: Side, order: Order) -> Plan:
    assert order.unit is not None
    unit = state.units.get(order.unit)
    if unit is None or unit.side != side or unit.seat != seat:
        raise IllegalOrderError(f"you have no unit {order.unit!r}", "ei yksikköä")
    if unit.ext.get(MOD):
        raise IllegalOrderError(f"{unit.id} is already hidden", f"{unit.id} on jo piilossa")
    return Plan(unit=unit, cost=1, data="hidden")


def _execute_hide(tx: Tx, seat: str, order: Order, plan: Plan) -> None:
    assert order.unit is not None
    tx.set_unit_ext(order.unit, MOD, {"state": plan.data, "turn": tx.turn_no})
    hides = tx.ext(MOD, {"count": 0})["count"] + 1
    tx.set_ext(MOD, {"count": hides})
    tx.unit_event("hidden", order.unit, {})


def _legal_hide(state: GameState, seat: str, side: Side) -> Iterable[Order]:
    if state.kp.get(seat, 0) < 1:
        return []
    return [
        Order.hide(u.id)
        for u in sorted(state.units.values(), key=lambda u: u.id)
        if u.seat == seat and not u.ext.get(MOD)
    ]


def _refill(tx: Tx, side: Side, seat: str, amount: int) -> int:
    return amount + 10 if seat == "pl1" else amount


def _not_hidden(state: GameState, attacker: UnitState, target: str) -> tuple[str, str] | None:
    t = state.units.get(target)
    if t is not None and t.ext.get(MOD):
        return ("the target is hidden", "kohde on piilossa")
    return None


def _extras(state: GameState, viewer: str) -> dict[str, Any]:
    data = state.ext.get(MOD)
    if data is None:
        return {}
    return {MOD: data if viewer == "gm" else {"count": "?"}}


_HOOKS: list[tuple[str, Any]] = [
    ("kp_refill", _refill),
    ("can_be_targeted", _not_hidden),
    ("view_extras", _extras),
]


@pytest.fixture
def plugin() -> Iterator[None]:
    # A real module (rules/abilities.py) may own `hide`: borrow the kind, give it back.
    real = handler_for(OrderKind.HIDE)
    register_order(
        OrderHandler(OrderKind.HIDE, _check_hide, _execute_hide, _legal_hide), replace=True
    )
    for name, fn in _HOOKS:
        add_hook(name, fn)
    try:
        yield
    finally:
        unregister_order(OrderKind.HIDE)
        if real is not None:
            register_order(real)
        for name, fn in _HOOKS:
            remove_hook(name, fn)


# --------------------------------------------------------------------------- tests


def test_base_kinds_are_handled_by_the_engine() -> None:
    for kind in BASE_KINDS - {OrderKind.DONE}:
        h = handler_for(kind)
        # A rule module may wrap a base kind (abilities: attack/fire `with W`, recon).
        assert h is not None and (h.module == "engine" or h.module in loaded_plugins())
    for kind in MODULE_KINDS:
        h = handler_for(kind)
        assert h is None or h.module != "engine"


@pytest.mark.parametrize(
    "text",
    [
        "transfer pl1",
        "restore pl1",
        "tactic motti 5,5",
        "confirm R1",
        "promote pl1",
        "report 5,5",
        "organic 1R1 5,5 by 1R2",
        "boost 1R1",
        "strike k9 5,5 by 1R2",
        "clear 1R1",
        "rush 1R1",
        "search 1R1 2,1",
        "breach 1R1 2,1",
        "lay 1R1 2,1",
        "hide 1R1",
        "use 1R1 sniper R1",
    ],
)
def test_unregistered_kinds_are_refused_cleanly(text: str) -> None:
    """Every module kind is handled in this version: take the handler away for the test
    (and put the table back exactly) so the refusal of an unhandled kind is exercised."""
    st_ = game()
    kind = parse_kind(text)
    saved = saved_handlers()
    try:
        unregister_order(kind)
        assert handler_for(kind) is None
        with pytest.raises(IllegalOrderError) as info:
            apply_text(st_, "pl1", text)
        assert not is_legal(st_, "pl1", parse_order(text))
        assert all(o.kind != kind for o in legal_orders(st_, "pl1"))
    finally:
        restore_handlers(saved)
    assert handler_for(kind) is saved[kind]
    assert list(saved_handlers()) == list(saved)
    assert "not available" in info.value.en
    assert "käytettävissä" in info.value.fi


def parse_kind(text: str) -> OrderKind:
    return OrderKind(text.split()[0])


@settings(max_examples=150, deadline=None)
@given(orders())
def test_any_parsed_order_is_checked_without_crashing(order: Order) -> None:
    st_ = game()
    for seat in ("pl1", "co", "gm"):
        try:
            check_order(st_, seat, order)
        except IllegalOrderError as exc:
            assert exc.en and exc.fi


def test_register_twice_needs_replace() -> None:
    base = handler_for(OrderKind.MOVE)
    assert base is not None
    with pytest.raises(ValueError, match="already has a handler"):
        register_order(base)
    with pytest.raises(ValueError, match="unknown hook"):
        add_hook("on_everything", lambda: None)
    assert "on_enter_cell" in HOOK_NAMES


def test_plugin_adds_an_order_kind_and_hooks(plugin: None) -> None:
    st_ = game()
    # kp_refill ran at new_game's turn start: pl1 got +10.
    assert st_.kp["pl1"] == game_kp(st_) + 10
    listed = legal_orders(st_, "pl1")
    assert Order.hide("1R1") in listed and listed[-1] == Order.done()
    assert legal_orders(st_, "pl1", unit="1R2").count(Order.hide("1R2")) == 1
    before = st_.kp["pl1"]
    st2, events = apply_text(st_, "pl1", "hide 1R1")
    assert st2.kp["pl1"] == before - 1  # the engine paid plan.cost
    assert st2.units["1R1"].ext[MOD]["state"] == "hidden"
    assert st2.ext[MOD] == {"count": 1}
    assert st_.ext == {} and not st_.units["1R1"].ext  # copy-on-write
    assert [e.kind for e in events] == ["order", "hidden"]
    with pytest.raises(IllegalOrderError, match="already hidden"):
        apply(st2, "pl1", Order.hide("1R1"))
    assert Order.hide("1R1") not in legal_orders(st2, "pl1")
    # view_extras: the GM sees everything, a side what the module lets it see.
    assert view_extras(st2, "gm")[MOD] == {"count": 1}
    assert view_extras(st2, "red")[MOD] == {"count": "?"}


def game_kp(state: GameState) -> int:
    return state.scenario.options.kp_platoon_leader


def test_module_state_is_serialised_and_hashed(plugin: None) -> None:
    st_ = game()
    st2, _ = apply_text(st_, "pl1", "hide 1R1")
    d = st2.to_dict()
    back = GameState.from_dict(d, st2.scenario)
    assert back.state_hash() == st2.state_hash()
    assert back.units["1R1"].ext == st2.units["1R1"].ext and back.ext == st2.ext
    assert st2.state_hash() != st_.state_hash()
    assert "ext" not in st_.to_dict()  # no module state: the old format, unchanged


def test_can_be_targeted_hook_filters_targets(plugin: None) -> None:
    st_ = with_contact(game(), "red", "1R1", ContactLevel.SPOTTED)
    red_unit = st_.units["R1"]
    assert "1R1" in fire_targets(st_, red_unit.id)
    tx = Tx(st_)
    tx.set_unit_ext("1R1", MOD, {"state": "hidden"})
    hidden = tx.finish()
    assert "1R1" not in fire_targets(hidden, red_unit.id)


def test_on_enter_cell_stops_a_move_and_unit_moved_sees_it() -> None:
    moved: list[tuple[str, list[tuple[int, int]]]] = []

    entered: list[tuple[int, int]] = []

    def mine(tx: Tx, uid: str, cell: tuple[int, int]) -> bool:
        entered.append(cell)
        return True  # a minefield in every cell: the move stops after one step

    def seen(tx: Tx, uid: str, walked: list[tuple[int, int]]) -> None:
        moved.append((uid, list(walked)))

    add_hook("on_enter_cell", mine)
    add_hook("on_unit_moved", seen)
    try:
        st2, events = apply_text(game(), "pl1", "move 1R2 5,3")
    finally:
        remove_hook("on_enter_cell", mine)
        remove_hook("on_unit_moved", seen)
    assert len(entered) == 1
    assert st2.units["1R2"].cell == entered[0] != (1, 3)
    move = next(e for e in events if e.kind == "move")
    assert move.data["stopped_by"] == "hook"
    assert moved == [("1R2", entered)]


def test_movement_allowance_and_morale_hooks() -> None:
    def immobile(cache: Any, unit: UnitState, base: int) -> int:
        return 0 if unit.id == "1R1" else base

    add_hook("movement_allowance", immobile)
    try:
        st_ = game()
        assert not any(
            o.unit == "1R1" and o.kind == OrderKind.MOVE for o in legal_orders(st_, "pl1")
        )
        with pytest.raises(IllegalOrderError):
            apply_text(st_, "pl1", "move 1R1 2,1")
    finally:
        remove_hook("movement_allowance", immobile)
    assert is_legal(game(), "pl1", Order.move("1R1", (2, 1)))


def test_turn_hooks_run_in_order() -> None:
    calls: list[str] = []

    def start(tx: Tx, side: Side) -> None:
        calls.append(f"start:{side}")

    def fire(tx: Tx, side: Side) -> None:
        calls.append(f"fire:{side}")

    def end(tx: Tx, side: Side) -> None:
        calls.append(f"end:{side}")

    def begin(tx: Tx) -> None:
        calls.append("game")

    hooks: list[tuple[str, Callable[..., Any]]] = [
        ("on_game_start", begin),
        ("on_turn_start", start),
        ("on_fire_phase", fire),
        ("on_turn_end", end),
    ]
    for name, fn in hooks:
        add_hook(name, fn)
    try:
        st_ = game()
        for seat in ("co", "pl1"):
            st_, _ = apply(st_, seat, Order.done())
    finally:
        for name, fn in hooks:
            remove_hook(name, fn)
    assert calls[:4] == ["game", "start:blue", "fire:blue", "end:blue"]
    assert calls[4] == "start:red"


def test_load_plugins_skips_missing_modules() -> None:
    assert load_plugins(("no_such_rule_module",)) == load_plugins(())
