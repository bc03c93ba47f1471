"""Order notation: parse/format round trip and precise errors (docs/notation.md)."""

from __future__ import annotations

import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taistelukentta.errors import InvalidOrderError
from taistelukentta.rules.abilities import USE, hide_order, use_order
from taistelukentta.rules.company import (
    CONFIRM,
    PROMOTE,
    REPORT,
    RESTORE,
    TACTIC,
    TACTICS,
    TRANSFER,
    SeatArgs,
    confirm_order,
    promote_order,
    report_order,
    restore_order,
    tactic_order,
    transfer_order,
)
from taistelukentta.rules.fire_support import (
    ORGANIC,
    STRIKE,
    STRIKE_TYPES,
    boost_order,
    organic_order,
    strike_order,
)
from taistelukentta.rules.mines import (
    BREACH,
    LAY,
    SEARCH,
    breach_order,
    clear_order,
    lay_order,
    rush_order,
    search_order,
)
from taistelukentta.rules.orders import (
    Order,
    OrderKind,
    format_order,
    parse_order,
)
from taistelukentta.rules.ruleset import default_ruleset

# ``[A-Za-z0-9_-]{1,24}`` and ``[a-z0-9_]{1,32}``: drawn as text from an alphabet, which
# hypothesis makes far faster than the same set through ``st.from_regex``
ids = st.text(alphabet=string.ascii_letters + string.digits + "_-", min_size=1, max_size=24)
abilities = st.text(alphabet=string.ascii_lowercase + string.digits + "_", min_size=1, max_size=32)
cells = st.tuples(st.integers(0, 9999), st.integers(0, 9999))


@st.composite
def orders(draw: st.DrawFn) -> Order:
    kind = draw(st.sampled_from(list(default_ruleset().vocabulary.kinds)))
    if kind == OrderKind.DONE:
        return Order.done()
    unit = draw(ids)
    if kind in (
        OrderKind.MOVE,
        OrderKind.DISENGAGE,
        OrderKind.WITHDRAW,
        OrderKind.RECON,
        SEARCH,
        BREACH,
    ):
        return Order(kind, unit, draw(cells))
    if kind == LAY:
        return lay_order(unit, draw(cells), at=draw(st.booleans()))
    weapon = draw(st.none() | ids)
    if kind == OrderKind.ATTACK:
        return Order.attack(unit, draw(ids), draw(st.none() | cells), weapon)
    if kind == OrderKind.FIRE:
        return Order.fire(unit, draw(ids), weapon)
    if kind in (TRANSFER, RESTORE, PROMOTE):
        return Order(kind, args=SeatArgs(draw(ids)))
    if kind == TACTIC:
        name = draw(st.sampled_from(sorted(TACTICS)))
        need = TACTICS[name]
        if need == "cell":
            return tactic_order(name, cell=draw(cells))
        if need == "seat":
            return tactic_order(name, seat=draw(ids))
        return tactic_order(name, units=tuple(draw(st.lists(ids, min_size=1, max_size=3))))
    if kind == CONFIRM:
        return confirm_order(draw(ids))
    if kind == REPORT:
        return report_order(draw(cells))
    if kind == ORGANIC:
        return organic_order(unit, draw(cells), draw(ids), danger=draw(st.booleans()))
    if kind == STRIKE:
        return strike_order(
            draw(st.sampled_from(STRIKE_TYPES)), draw(cells), draw(ids), danger=draw(st.booleans())
        )
    if kind == USE:
        ability = draw(abilities)
        arg = draw(st.sampled_from(("none", "target", "cell")))
        if arg == "target":
            return use_order(unit, ability, target=draw(ids))
        if arg == "cell":
            return use_order(unit, ability, cell=draw(cells))
        return use_order(unit, ability)
    return Order(kind, unit)


@settings(max_examples=300, deadline=None)
@given(orders())
def test_notation_round_trip(order: Order) -> None:
    assert parse_order(format_order(order)) == order


@pytest.mark.parametrize(
    ("text", "order"),
    [
        ("move 1R1 12,7", Order.move("1R1", (12, 7))),
        ("defend 1R1", Order.defend("1R1")),
        ("attack 1R1 R3", Order.attack("1R1", "R3")),
        ("attack 1R1 R3 from 11,7", Order.attack("1R1", "R3", (11, 7))),
        ("disengage 1R1 10,6", Order.disengage("1R1", (10, 6))),
        ("withdraw 1R1 10,6", Order.withdraw("1R1", (10, 6))),
        ("rally 1R1", Order.rally("1R1")),
        ("recon 1R2 14,9", Order.recon("1R2", (14, 9))),
        ("fire 1R1 R3", Order.fire("1R1", "R3")),
        ("done", Order.done()),
        ("  MOVE   1R1   12,7 ", Order.move("1R1", (12, 7))),
        ("liiku 1R1 12,7", Order.move("1R1", (12, 7))),
        ("hyökkää 1R1 R3 from 11,7", Order.attack("1R1", "R3", (11, 7))),
        ("ammu 1R1 R3", Order.fire("1R1", "R3")),
        ("valmis", Order.done()),
        ("attack 1R1 R3 from 11,7 with at4", Order.attack("1R1", "R3", (11, 7), "at4")),
        ("fire 1R1 R3 with kiv", Order.fire("1R1", "R3", "kiv")),
        ("transfer pl1", transfer_order("pl1")),
        ("restore pl1", restore_order("pl1")),
        ("tactic motti 12,7", tactic_order("motti", cell=(12, 7))),
        ("tactic painopiste pl1", tactic_order("painopiste", seat="pl1")),
        ("taktiikka sitova pl2", tactic_order("sitova", seat="pl2")),
        ("tactic vetäytyminen 1R1 1R2", tactic_order("vetaytyminen", units=("1R1", "1R2"))),
        ("confirm R3", confirm_order("R3")),
        ("promote pl2", promote_order("pl2")),
        ("report 20,5", report_order((20, 5))),
        ("organic KRH 14,9 by 1R2 danger", organic_order("KRH", (14, 9), "1R2", danger=True)),
        ("boost KRH", boost_order("KRH")),
        ("strike k9 14,9 by 1R2", strike_order("k9", (14, 9), "1R2")),
        ("isku MLRS 14,9 tähystäjä 1R2 vaara", strike_order("mlrs", (14, 9), "1R2", danger=True)),
        ("clear PIO", clear_order("PIO")),
        ("rush 1R1", rush_order("1R1")),
        ("search PIO 3,4", search_order("PIO", (3, 4))),
        ("breach PIO 3,4", breach_order("PIO", (3, 4))),
        ("lay PIO 3,4", lay_order("PIO", (3, 4))),
        ("hide 1R1", hide_order("1R1")),
        ("use TA sniper R3", use_order("TA", "sniper", target="R3")),
        ("käytä TA smoke 3,4", use_order("TA", "smoke", cell=(3, 4))),
        ("use TA rally", use_order("TA", "rally")),
    ],
)
def test_parse_examples(text: str, order: Order) -> None:
    assert parse_order(text) == order


@pytest.mark.parametrize(
    ("text", "token"),
    [
        ("jump 1R1 3,4", "'jump'"),
        ("move 1R1 3;4", "'3;4'"),
        ("move 1R1 3,4 5,6", "'5,6'"),
        ("attack 1R1 R3 via 3,4", "'via'"),
        ("done now", "'now'"),
        ("fire 1R1 R?3", "'R?3'"),
        ("move 1R1", "move UNIT X,Y"),
        ("", "empty"),
        ("tactic blitz 3,4", "'blitz'"),
        ("tactic vetaytyminen a b c d", "'d'"),
        ("strike nuke 3,4 by o", "'nuke'"),
        ("organic KRH 3,4 from o", "'from'"),
        ("organic KRH 3,4", "organic UNIT X,Y by OBSERVER"),
        ("transfer", "transfer SEAT"),
        ("rush 1R1 now", "'now'"),
    ],
)
def test_parse_errors_name_the_bad_token(text: str, token: str) -> None:
    with pytest.raises(InvalidOrderError) as info:
        parse_order(text)
    assert token in info.value.en
    assert info.value.fi  # a Finnish message too


def test_order_validates_its_shape() -> None:
    with pytest.raises(InvalidOrderError):
        Order(OrderKind.MOVE, "1R1")
    with pytest.raises(InvalidOrderError):
        Order(OrderKind.DONE, "1R1")
    with pytest.raises(InvalidOrderError):
        Order(OrderKind.FIRE, "1R1", (1, 1), "R1")
    assert str(Order.attack("A", "B", (1, 2))) == "attack A B from 1,2"


@pytest.mark.parametrize("cell", ["11,᱘", "١٢,7", "12,７", "²,3"])
def test_cells_take_ascii_digits_only(cell: str) -> None:
    """Other scripts' digits are refused by name (Python's int would read them)."""
    with pytest.raises(InvalidOrderError) as info:
        parse_order(f"move 2R2 {cell}")
    assert cell in info.value.en and "digits 0-9" in info.value.en
    assert "numeroilla 0-9" in info.value.fi


def test_an_order_holds_only_what_every_order_has() -> None:
    """Issue 7: ``Order`` is the common fields; every other field is the typed payload
    (``args``) of the module that owns the kind, defined in that module's file."""
    from dataclasses import fields

    assert [f.name for f in fields(Order)] == ["kind", "unit", "cell", "target", "args"]
    owner = {syn.kind: module.name for module in default_ruleset().modules for syn in module.syntax}
    texts = [
        "attack 1R1 R3 from 11,7 with at4",
        "fire S1 R1 with sniper_rifle disable drone",
        "transfer pl1",
        "tactic vetaytyminen 1R1 1R2",
        "organic KRH 14,9 by 1R2 danger",
        "strike k9 14,9 by 1R2",
        "lay PIO 3,4 at",
        "use TA smoke 3,4",
    ]
    for text in texts:
        order = parse_order(text)
        assert order.args is not None and str(order) == text
        where = type(order.args).__module__
        module = owner[order.kind]
        if module == "engine":  # the base attack/fire's `with W`: the engine's orders.py
            assert where == "taistelukentta.rules.orders", text
        else:
            assert where == f"taistelukentta.rules.{module}", text
