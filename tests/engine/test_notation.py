"""Order notation: parse/format round trip and precise errors (docs/notation.md)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taistelukentta.errors import InvalidOrderError
from taistelukentta.rules.orders import Order, OrderKind, format_order, parse_order

ids = st.from_regex(r"\A[A-Za-z0-9_\-]{1,24}\Z")
cells = st.tuples(st.integers(0, 9999), st.integers(0, 9999))


@st.composite
def orders(draw: st.DrawFn) -> Order:
    kind = draw(st.sampled_from(list(OrderKind)))
    if kind == OrderKind.DONE:
        return Order.done()
    unit = draw(ids)
    if kind in (OrderKind.MOVE, OrderKind.DISENGAGE, OrderKind.WITHDRAW, OrderKind.RECON):
        return Order(kind, unit, draw(cells))
    if kind == OrderKind.ATTACK:
        return Order.attack(unit, draw(ids), draw(st.none() | cells))
    if kind == OrderKind.FIRE:
        return Order.fire(unit, draw(ids))
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
