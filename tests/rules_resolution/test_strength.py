"""Strength effects (R-TK-1)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from taistelukentta.dice.expr import DiceExpr
from taistelukentta.dice.scripted import ScriptedRoller
from taistelukentta.rules.combat import resolve_attack
from taistelukentta.rules.strength import (
    DEFAULT_THRESHOLDS,
    Firepower,
    StrengthEffects,
    StrengthThreshold,
    apply_strength_effects,
    became_damaged,
    crossed_thresholds,
    effective_firepower,
    effective_movement,
    is_damaged,
    strength_effects,
)


@pytest.mark.parametrize(
    ("strength", "max_strength", "damaged"),
    [(10, 10, False), (5, 10, False), (4, 10, True), (0, 10, True), (5, 11, True), (6, 11, False)],
)
def test_r_tk_1_damaged_below_half(strength: int, max_strength: int, damaged: bool) -> None:
    assert is_damaged(strength, max_strength) is damaged


@given(max_strength=st.integers(1, 60), data=st.data())
def test_r_tk_1_damaged_iff_strength_below_50_percent(
    max_strength: int, data: st.DataObject
) -> None:
    strength = data.draw(st.integers(0, max_strength))
    assert is_damaged(strength, max_strength) == (2 * strength < max_strength)


def test_r_tk_1_became_damaged_only_on_crossing() -> None:
    assert became_damaged(6, 4, 10)
    assert not became_damaged(4, 3, 10)
    assert not became_damaged(10, 5, 10)


@pytest.mark.parametrize(
    ("movement", "damaged", "after"), [(7, True, 3), (7, False, 7), (8, True, 4)]
)
def test_r_tk_1_movement_halved_round_down(movement: int, damaged: bool, after: int) -> None:
    assert effective_movement(movement, damaged) == after


def test_r_tk_1_firepower_steps_down_minimum_d4() -> None:
    d8 = DiceExpr.parse("d8")
    assert effective_firepower(d8, True) == Firepower(DiceExpr.parse("d6"))
    assert effective_firepower(DiceExpr.parse("d4"), True) == Firepower(DiceExpr.parse("d4"))
    assert effective_firepower(d8, False) == Firepower(d8)


def test_r_tk_1_variant_000_firepower_halved() -> None:
    fp = effective_firepower(DiceExpr.parse("d8"), True, mode="halve")
    assert fp == Firepower(DiceExpr.parse("d8"), 2)
    result = resolve_attack(
        ScriptedRoller([12, 7]), bonus=0, defence=10, damage=fp.dice, damage_divisor=fp.divisor
    )
    assert result.damage == 3


def test_r_tk_1_default_thresholds_give_damaged_status() -> None:
    effects = strength_effects(4, 10)
    assert effects.statuses == {"DAMAGED"}
    assert apply_strength_effects(7, DiceExpr.parse("d6"), effects) == (
        3,
        Firepower(DiceExpr.parse("d4")),
    )
    assert strength_effects(5, 10) == StrengthEffects(firepower_divisor=1)


def test_r_tk_1_further_thresholds_from_data_accumulate() -> None:
    critical = StrengthThreshold(
        Fraction(1, 4),
        StrengthEffects(movement_divisor=2, firepower_steps=1, morale_modifier=-1),
    )
    thresholds = (*DEFAULT_THRESHOLDS, critical)
    effects = strength_effects(2, 12, thresholds)
    assert effects.movement_divisor == 4
    assert effects.firepower_steps == 2
    assert effects.morale_modifier == -1
    assert apply_strength_effects(8, DiceExpr.parse("d10"), effects) == (
        2,
        Firepower(DiceExpr.parse("d6")),
    )
    assert crossed_thresholds(7, 2, 12, thresholds) == thresholds
    assert crossed_thresholds(5, 2, 12, thresholds) == (critical,)


def test_r_tk_1_threshold_and_movement_mode_are_parameters() -> None:
    assert is_damaged(5, 10, damaged_percent=60)
    assert not is_damaged(3, 10, damaged_percent=30)
    assert became_damaged(7, 5, 10, damaged_percent=60)
    assert effective_movement(7, True, mode="full") == 7
