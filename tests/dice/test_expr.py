"""Dice expressions (R-DICE-1) and the step-down of R-TK-1."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from taistelukentta.dice.expr import DIE_SIZES, DiceExpr
from taistelukentta.errors import ArgumentError


@pytest.mark.parametrize(
    ("text", "count", "sides", "modifier"),
    [
        ("2d4", 2, 4, 0),
        ("d4+1", 1, 4, 1),
        ("3d10", 3, 10, 0),
        ("d6-1", 1, 6, -1),
        ("1d12", 1, 12, 0),
        ("d2", 1, 2, 0),
        ("d20", 1, 20, 0),
        ("4D8 + 2", 4, 8, 2),
    ],
)
def test_r_dice_1_parses_examples(text: str, count: int, sides: int, modifier: int) -> None:
    assert DiceExpr.parse(text) == DiceExpr(count, sides, modifier)


@pytest.mark.parametrize(
    ("text", "shown"), [("2d4", "2d4"), ("1d4+1", "d4+1"), ("d6-1", "d6-1"), ("3d10", "3d10")]
)
def test_r_dice_1_str_is_canonical(text: str, shown: str) -> None:
    assert str(DiceExpr.parse(text)) == shown


@given(
    count=st.integers(1, 100),
    sides=st.sampled_from(DIE_SIZES),
    modifier=st.integers(-1000, 1000),
)
def test_r_dice_1_str_round_trips(count: int, sides: int, modifier: int) -> None:
    expr = DiceExpr(count, sides, modifier)
    assert DiceExpr.parse(str(expr)) == expr
    assert expr.min == count + modifier
    assert expr.max == count * sides + modifier
    assert expr.min <= expr.mean <= expr.max


@pytest.mark.parametrize(
    "text", ["", "d", "2d", "d7", "0d6", "2x6", "d6+", "d6+1+1", "abc", "d100", "101d6", "٣d6"]
)
def test_r_dice_1_bad_text_names_it(text: str) -> None:
    with pytest.raises(ArgumentError) as info:
        DiceExpr.parse(text)
    assert repr(text) in str(info.value)
    assert repr(text) in info.value.message("fi")


def test_r_dice_1_constructor_rejects_non_game_die() -> None:
    with pytest.raises(ArgumentError, match="d3"):
        DiceExpr(1, 3)


@pytest.mark.parametrize(
    ("before", "after"),
    [("d12", "d10"), ("d10", "d8"), ("d8", "d6"), ("d6", "d4"), ("d4", "d4"), ("2d8+1", "2d6+1")],
)
def test_r_tk_1_step_down_one_die_size_minimum_d4(before: str, after: str) -> None:
    assert DiceExpr.parse(before).step_down() == DiceExpr.parse(after)


def test_r_tk_1_step_down_several_steps_stops_at_d4() -> None:
    assert DiceExpr.parse("d12").step_down(2) == DiceExpr.parse("d8")
    assert DiceExpr.parse("d12").step_down(9) == DiceExpr.parse("d4")
    assert DiceExpr.parse("d2").step_down() == DiceExpr.parse("d2")
