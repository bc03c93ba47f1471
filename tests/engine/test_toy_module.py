"""The toy module of docs/extending.md (``tests/engine/lookout.py``): one file added to a
ruleset, nothing central changed. Its order parses, is checked, costs KP, is listed, is
executed; its hooks take part; games of the default ruleset are not touched."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import pytest

from taistelukentta.content.scenario import Scenario
from taistelukentta.errors import IllegalOrderError, InvalidOrderError
from taistelukentta.rules import (
    Order,
    apply,
    apply_text,
    default_ruleset,
    legal_orders,
    new_game,
)
from taistelukentta.rules.context import Tx
from taistelukentta.rules.fire import hook_module_terms
from taistelukentta.rules.listing import Listing
from taistelukentta.rules.orders import (
    BASE_KINDS,
    OrderKind,
    module_syntax,
    order_kind,
    parse_order,
)
from taistelukentta.rules.registry import FIRE_ONLY, OrderHandler, Plan
from taistelukentta.rules.ruleset import (
    DEFAULT_MODULES,
    RuleModule,
    load_module,
    ruleset_from_names,
)
from taistelukentta.rules.state import GameState, Phase, Side, UnitState
from taistelukentta.views import view_for
from taistelukentta.views.models import SideView, view_schema

from . import lookout
from .conftest import build, open_rows

SQUAD = "jaakariryhma"
RED = "motorisoitu_jalkavakiryhma"


def _scenario() -> Scenario:
    return build(
        open_rows(14, 8),
        [("1R1", SQUAD, (1, 1)), ("1R2", SQUAD, (1, 2))],
        [("R1", RED, (6, 1))],
    )


def test_a_toy_module_plugs_in_through_a_ruleset() -> None:
    rules = default_ruleset().with_modules(lookout.rule_module())
    st = new_game(_scenario(), 1, ruleset=rules)
    order = Order(lookout.LOOKOUT, "1R1")
    assert order in legal_orders(st, "pl1")
    # its own keyword, grammar and text, from the game's ruleset
    assert rules.vocabulary.parse("tähystä 1R1") == order
    assert str(order) == "lookout 1R1" and parse_order("lookout 1R1", rules.vocabulary) == order
    assert "lookout" in rules.vocabulary.keywords() and "tähystä" in rules.vocabulary.keywords()
    with pytest.raises(InvalidOrderError, match=r"expected `lookout UNIT \[radius N\]`"):
        rules.vocabulary.parse("lookout")
    with pytest.raises(InvalidOrderError, match="unexpected '2R1'"):
        rules.vocabulary.parse("lookout 1R1 2R1")
    kp = st.kp["pl1"]
    st2, events = apply_text(st, "pl1", "lookout 1R1")
    assert st2.kp["pl1"] == kp - 1
    assert st2.units["1R1"].ext[lookout.MODULE] == {"turn": st2.turn_no, "radius": 1}
    assert [e.kind for e in events] == ["order", "lookout"]
    assert events[1].for_side("red") is None  # Red has no contact on 1R1: sees nothing
    with pytest.raises(IllegalOrderError, match="already a lookout"):
        apply(st2, "pl1", order)
    # its attack_modifiers hook: an attack on 1R2 (next to the lookout) gets -1
    terms = {t.name: t.bonus for t in hook_module_terms(st2, st2.units["R1"], "1R2")}
    assert terms.get("lookout") == -1
    # its view section: its own model under its own key, built from the viewer's knowledge
    blue = view_for(st2, "blue")
    assert isinstance(blue, SideView)
    assert blue.model_dump(mode="json")["lookout"] == {"units": ["1R1"]}
    assert view_for(st2, "red").model_dump(mode="json")["lookout"] == {"units": []}
    assert view_for(st2, "pl1").model_dump(mode="json")["lookout"] == {"units": ["1R1"]}
    assert view_for(st2, "gm").model_dump(mode="json")["lookout"] == {"units": ["1R1"]}
    schema = view_schema(rules)
    assert "LookoutView" in schema["$defs"]
    assert "lookout" in schema["$defs"]["SideView"]["properties"]
    # its on_turn_end hook: the lookout stands down when Blue's turn ends
    tx = Tx(st2)
    lookout.forget(tx, "blue")
    assert lookout.MODULE not in tx.finish().units["1R1"].ext


def test_a_toy_module_orders_carry_a_typed_field_of_their_own() -> None:
    """``lookout U radius N``: the module's own field (``LookoutArgs.radius``) is parsed,
    formatted, compared, logged and read by its hooks — nothing central knows it."""
    rules = default_ruleset().with_modules(lookout.rule_module())
    vocab = rules.vocabulary
    far = Order(lookout.LOOKOUT, "1R1", args=lookout.LookoutArgs(2))
    assert vocab.parse("tähystä 1R1 säde 2") == far == vocab.parse("lookout 1R1 radius 2")
    assert str(far) == vocab.format(far) == "lookout 1R1 radius 2"
    assert vocab.parse(str(far)) == far
    assert vocab.parse("lookout 1R1 radius 1") == Order(lookout.LOOKOUT, "1R1")
    assert far != Order(lookout.LOOKOUT, "1R1")
    with pytest.raises(InvalidOrderError, match="radius '9' is not 1-3"):
        vocab.parse("lookout 1R1 radius 9")
    with pytest.raises(InvalidOrderError, match="takes no module fields"):
        Order(OrderKind.DEFEND, "1R1", args=lookout.LookoutArgs(2))
    sc = build(
        open_rows(14, 8),
        [("1R1", SQUAD, (1, 1)), ("1R2", SQUAD, (1, 3))],
        [("R1", RED, (6, 1))],
    )
    st = new_game(sc, 1, ruleset=rules)
    near, _ = apply(st, "pl1", Order(lookout.LOOKOUT, "1R1"))
    wide, events = apply(st, "pl1", far)
    assert events[0].data["order"] == "lookout 1R1 radius 2"
    assert wide.units["1R1"].ext[lookout.MODULE]["radius"] == 2
    # 1R2 stands 2 cells from the lookout: covered with radius 2 only
    terms_near = {t.name: t.bonus for t in hook_module_terms(near, near.units["R1"], "1R2")}
    terms_wide = {t.name: t.bonus for t in hook_module_terms(wide, wide.units["R1"], "1R2")}
    assert "lookout" not in terms_near and terms_wide["lookout"] == -1


def test_a_toy_module_lists_its_order_with_each_units_base_orders() -> None:
    """``legal_unit``: each unit's ``lookout`` comes right after that unit's base orders;
    the rest of the list is the default ruleset's, in the same order."""
    rules = default_ruleset().with_modules(lookout.rule_module())
    st = new_game(_scenario(), 1, ruleset=rules)
    plain = legal_orders(new_game(_scenario(), 1), "pl1")
    listed = legal_orders(st, "pl1")
    assert [o for o in listed if o.kind != lookout.LOOKOUT] == plain
    first = listed.index(Order(lookout.LOOKOUT, "1R1"))
    assert listed[first - 1].unit == "1R1" and listed[first + 1].unit == "1R2"
    second = listed.index(Order(lookout.LOOKOUT, "1R2"))
    assert listed[second - 1].unit == "1R2"  # then the modules' per-seat lists, then done
    assert all(o.kind not in BASE_KINDS for o in listed[second + 1 : -1])
    assert legal_orders(st, "pl1", kinds=[lookout.LOOKOUT]) == [
        Order(lookout.LOOKOUT, "1R1"),
        Order(lookout.LOOKOUT, "1R2"),
        Order.done(),
    ]
    assert legal_orders(st, "pl1", unit="1R2", kinds=[lookout.LOOKOUT])[0].unit == "1R2"
    after, _ = apply(st, "pl1", Order(lookout.LOOKOUT, "1R1"))
    assert Order(lookout.LOOKOUT, "1R1") not in legal_orders(after, "pl1")
    assert Order(lookout.LOOKOUT, "1R2") in legal_orders(after, "pl1")


FLARE = order_kind("flare")
"""A fire-phase kind of a test-only module, listed per unit."""


def _flare_module() -> RuleModule:
    def check(state: GameState, seat: str, side: Side, order: Order) -> Plan:
        unit = state.units.get(order.unit or "")
        if unit is None or unit.seat != seat or unit.fired:
            raise IllegalOrderError("no flare", "ei valoa")
        return Plan(unit=unit)

    def execute(tx: Tx, seat: str, order: Order, plan: Plan) -> None:
        assert plan.unit is not None
        tx.update(plan.unit.id, fired=True)

    def legal(listing: Listing, unit: UnitState) -> Iterable[Order]:
        return () if unit.fired else (listing.order(FLARE, unit.id),)

    return RuleModule(
        "flare",
        orders=(
            OrderHandler(FLARE, check, execute, phases=FIRE_ONLY, module="flare", legal_unit=legal),
        ),
        syntax=(module_syntax(FLARE, "flare UNIT", (), lambda k, w: Order(k, w.id())),),
    )


def test_a_fire_phase_kind_listed_per_unit_keeps_its_seat_open() -> None:
    """A seat with nothing to fire is done automatically in the fire phase of a game of the
    legacy dice (R-TURN-1), unless a module's fire-phase listing — per unit too — lists an
    order for it."""
    plain = new_game(_scenario(), 7)
    rules = default_ruleset().with_modules(_flare_module())
    st = new_game(_scenario(), 7, ruleset=rules)
    for seat in ("pl1", "co"):
        plain, _ = apply(plain, seat, Order.done())
        st, _ = apply(st, seat, Order.done())
    assert plain.active == "red"  # R1 out of reach: Blue's fire phase ended by itself
    assert (st.active, st.phase) == ("blue", Phase.FIRE) and not st.done
    assert legal_orders(st, "pl1") == [Order(FLARE, "1R1"), Order(FLARE, "1R2"), Order.done()]
    assert legal_orders(st, "co") == [Order(FLARE, "KP"), Order.done()]
    st, _ = apply(st, "co", Order(FLARE, "KP"))  # nothing left to list: done by itself
    assert st.done == {"co"}
    st, _ = apply(st, "pl1", Order(FLARE, "1R1"))
    assert st.phase == Phase.FIRE
    st, _ = apply(st, "pl1", Order(FLARE, "1R2"))
    assert st.active == "red"


def test_a_ruleset_names_its_modules_the_toy_one_by_its_path() -> None:
    """``DEFAULT_MODULES`` are file names of ``taistelukentta.rules``; a module elsewhere
    is named by its dotted path: nothing else lists them."""
    rules = ruleset_from_names([*DEFAULT_MODULES, "tests.engine.lookout"])
    assert rules.module_names == (*DEFAULT_MODULES, "lookout")
    assert rules.handler(lookout.LOOKOUT) is not None
    assert "tähystä" in rules.vocabulary.keywords()
    assert default_ruleset().module_names == DEFAULT_MODULES
    assert load_module("mines").name == "mines"
    with pytest.raises(ValueError, match="no rule module 'nosuch'"):
        load_module("nosuch")
    with pytest.raises(ValueError, match="has no rule_module"):
        load_module("taistelukentta.rules.orders")


def test_docs_extending_shows_the_toy_module_as_it_is() -> None:
    """docs/extending.md prints ``tests/engine/lookout.py`` whole: the same text."""
    root = Path(__file__).resolve().parents[2]
    doc = (root / "docs" / "extending.md").read_text(encoding="utf-8")
    source = Path(lookout.__file__).read_text(encoding="utf-8")
    assert f"```python\n{source}```" in doc


def test_the_default_ruleset_does_not_know_the_toy_module() -> None:
    st = new_game(_scenario(), 1)
    assert "lookout" not in view_for(st, "blue").model_dump(mode="json")
    assert type(view_for(st, "blue")) is SideView
    assert "LookoutView" not in view_schema()["$defs"]
    assert "lookout" not in default_ruleset().module_names
    assert "lookout" not in default_ruleset().vocabulary.keywords()
    with pytest.raises(InvalidOrderError, match="unknown order 'lookout'"):
        apply_text(st, "pl1", "lookout 1R1")
    with pytest.raises(IllegalOrderError):  # `use U lookout`: no such ability
        apply_text(st, "pl1", "use 1R1 lookout")
