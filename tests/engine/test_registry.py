"""The plug-in structure: rulesets of rule modules, order handlers, hooks, module state
(docs/extending.md).

A tiny test-only rule module (in a ruleset of its own, built per test; nothing global is
changed) proves that an order kind and hooks can be added without touching engine.py.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
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
from taistelukentta.rules.abilities import HIDE, hide_order
from taistelukentta.rules.context import Tx, cache_for
from taistelukentta.rules.orders import BASE_KINDS, order_kind, parse_order
from taistelukentta.rules.recon import ContactLevel
from taistelukentta.rules.registry import HOOK_NAMES, OrderHandler, Plan
from taistelukentta.rules.ruleset import (
    DEFAULT_MODULES,
    RuleModule,
    Ruleset,
    default_ruleset,
)
from taistelukentta.rules.state import Side, UnitState

from .conftest import build, open_rows, with_contact
from .test_notation import orders

SQUAD = "jaakariryhma"
RED = "motorisoitu_jalkavakiryhma"
MODULE_KINDS = [k for k in default_ruleset().vocabulary.kinds if k not in BASE_KINDS]


def game(ruleset: Ruleset | None = None) -> GameState:
    sc = build(
        open_rows(14, 8),
        [("1R1", SQUAD, (1, 1)), ("1R2", SQUAD, (1, 3))],
        [("R1", RED, (6, 1))],
    )
    return new_game(sc, 3, ruleset=ruleset)


def with_hooks(*hooks: tuple[str, Callable[..., Any]]) -> Ruleset:
    """The default ruleset with a test module of ``hooks`` after its own."""
    return default_ruleset().with_modules(RuleModule("t", hooks=tuple(hooks)))


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
        hide_order(u.id)
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


def plugin_ruleset() -> Ruleset:
    """The default ruleset, its own ``hide`` (rules/abilities.py) taken out and the test
    module's ``hide`` and hooks added."""
    module = RuleModule(
        MOD,
        orders=(OrderHandler(HIDE, _check_hide, _execute_hide, _legal_hide, module=MOD),),
        hooks=tuple(_HOOKS),
    )
    return default_ruleset().without(HIDE).with_modules(module)


@pytest.fixture
def plugin() -> Ruleset:
    return plugin_ruleset()


# --------------------------------------------------------------------------- tests


def test_base_kinds_are_handled_by_the_engine() -> None:
    rules = default_ruleset()
    assert rules.module_names == DEFAULT_MODULES
    for kind in BASE_KINDS - {OrderKind.DONE}:
        h = rules.handler(kind)
        # A rule module may extend a base kind (abilities: attack/fire `with W`, recon).
        assert h is not None and h.module in DEFAULT_MODULES
    for kind in MODULE_KINDS:
        h = rules.handler(kind)
        assert h is None or h.module != "engine"


def test_extensions_chain_in_module_order() -> None:
    """abilities extends the ``attack`` company built on the engine's, as the module list
    declares (not as the modules happen to be imported): both extensions take part."""
    seen: list[str] = []

    def tag(name: str) -> Callable[[OrderHandler], OrderHandler]:
        def extend(prev: OrderHandler) -> OrderHandler:
            def check(state: GameState, seat: str, side: Side, order: Order) -> Plan:
                seen.append(name)
                return prev.check(state, seat, side, order)

            return OrderHandler(prev.kind, check, prev.execute, prev.legal, prev.phases, name)

        return extend

    rules = default_ruleset().with_modules(
        RuleModule("a", extends=((OrderKind.MOVE, tag("a")),)),
        RuleModule("b", extends=((OrderKind.MOVE, tag("b")),)),
    )
    st_ = game(rules)
    check_order(st_, "pl1", Order.move("1R1", (2, 1)))
    assert seen == ["b", "a"]  # the last module's extension runs first, then the earlier
    assert rules.handler(OrderKind.MOVE) is not None
    assert default_ruleset().handler(OrderKind.MOVE).module == "engine"  # type: ignore[union-attr]
    with pytest.raises(ValueError, match="no earlier module handles"):
        Ruleset([RuleModule("x", extends=((OrderKind.MOVE, tag("x")),))])


def test_rulesets_keep_their_own_caches_per_scenario() -> None:
    st_ = game()
    other = game(with_hooks())
    assert st_.scenario is not other.scenario
    assert cache_for(st_).rules is default_ruleset()
    assert cache_for(other).rules is other.ruleset
    same_sc = new_game(st_.scenario, 3, ruleset=other.ruleset)
    assert cache_for(same_sc) is not cache_for(st_)
    assert cache_for(same_sc).scenario is cache_for(st_).scenario


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
    """Every module kind is handled in the default ruleset: a ruleset without the kind's
    handler exercises the refusal of an unhandled kind."""
    kind = parse_kind(text)
    rules = default_ruleset().without(kind)
    st_ = game(rules)
    assert rules.handler(kind) is None
    assert default_ruleset().handler(kind) is not None  # the default is left alone
    with pytest.raises(IllegalOrderError) as info:
        apply_text(st_, "pl1", text)
    assert not is_legal(st_, "pl1", parse_order(text))
    assert all(o.kind != kind for o in legal_orders(st_, "pl1"))
    assert "not available" in info.value.en
    assert "käytettävissä" in info.value.fi


def parse_kind(text: str) -> OrderKind:
    return order_kind(text.split()[0])


@settings(max_examples=150, deadline=None)
@given(orders())
def test_any_parsed_order_is_checked_without_crashing(order: Order) -> None:
    st_ = game()
    for seat in ("pl1", "co", "gm"):
        try:
            check_order(st_, seat, order)
        except IllegalOrderError as exc:
            assert exc.en and exc.fi


def test_a_kind_handled_twice_or_an_unknown_hook_is_refused() -> None:
    base = default_ruleset().handler(OrderKind.MOVE)
    assert base is not None
    with pytest.raises(ValueError, match="already has a handler"):
        default_ruleset().with_modules(RuleModule("again", orders=(base,)))
    with pytest.raises(ValueError, match="unknown hook"):
        with_hooks(("on_everything", lambda: None))
    with pytest.raises(ValueError, match="listed twice"):
        default_ruleset().with_modules(RuleModule("mines"))
    assert "on_enter_cell" in HOOK_NAMES


def test_plugin_adds_an_order_kind_and_hooks(plugin: Ruleset) -> None:
    st_ = game(plugin)
    # kp_refill ran at new_game's turn start: pl1 got +10.
    assert st_.kp["pl1"] == game_kp(st_) + 10
    listed = legal_orders(st_, "pl1")
    assert hide_order("1R1") in listed and listed[-1] == Order.done()
    assert legal_orders(st_, "pl1", unit="1R2").count(hide_order("1R2")) == 1
    before = st_.kp["pl1"]
    st2, events = apply_text(st_, "pl1", "hide 1R1")
    assert st2.kp["pl1"] == before - 1  # the engine paid plan.cost
    assert st2.units["1R1"].ext[MOD]["state"] == "hidden"
    assert st2.ext[MOD] == {"count": 1}
    assert st_.ext == {} and not st_.units["1R1"].ext  # copy-on-write
    assert [e.kind for e in events] == ["order", "hidden"]
    with pytest.raises(IllegalOrderError, match="already hidden"):
        apply(st2, "pl1", hide_order("1R1"))
    assert hide_order("1R1") not in legal_orders(st2, "pl1")
    # view_extras: the GM sees everything, a side what the module lets it see.
    assert view_extras(st2, "gm")[MOD] == {"count": 1}
    assert view_extras(st2, "red")[MOD] == {"count": "?"}


def game_kp(state: GameState) -> int:
    return state.scenario.options.kp_platoon_leader


def test_module_state_is_serialised_and_hashed(plugin: Ruleset) -> None:
    st_ = game(plugin)
    st2, _ = apply_text(st_, "pl1", "hide 1R1")
    d = st2.to_dict()
    back = GameState.from_dict(d, st2.scenario, plugin)
    assert back.ruleset is plugin
    assert back.state_hash() == st2.state_hash()
    assert back.units["1R1"].ext == st2.units["1R1"].ext and back.ext == st2.ext
    assert st2.state_hash() != st_.state_hash()
    assert "ext" not in st_.to_dict()  # no module state: the old format, unchanged


def test_can_be_targeted_hook_filters_targets(plugin: Ruleset) -> None:
    st_ = with_contact(game(plugin), "red", "1R1", ContactLevel.SPOTTED)
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

    rules = with_hooks(("on_enter_cell", mine), ("on_unit_moved", seen))
    st2, events = apply_text(game(rules), "pl1", "move 1R2 5,3")
    assert len(entered) == 1
    assert st2.units["1R2"].cell == entered[0] != (1, 3)
    move = next(e for e in events if e.kind == "move")
    assert move.data["stopped_by"] == "hook"
    assert moved == [("1R2", entered)]


def test_movement_allowance_and_morale_hooks() -> None:
    def immobile(cache: Any, unit: UnitState, base: int) -> int:
        return 0 if unit.id == "1R1" else base

    st_ = game(with_hooks(("movement_allowance", immobile)))
    assert not any(o.unit == "1R1" and o.kind == OrderKind.MOVE for o in legal_orders(st_, "pl1"))
    with pytest.raises(IllegalOrderError):
        apply_text(st_, "pl1", "move 1R1 2,1")
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
    st_ = game(with_hooks(*hooks))
    for seat in ("co", "pl1"):
        st_, _ = apply(st_, seat, Order.done())
    assert calls[:4] == ["game", "start:blue", "fire:blue", "end:blue"]
    assert calls[4] == "start:red"
