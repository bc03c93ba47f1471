"""Recon rolls and contact levels (R-REC-1, R-REC-2)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from taistelukentta.dice.scripted import ScriptedRoller
from taistelukentta.rules.recon import (
    ContactLevel,
    contact_level,
    recon_level,
    recon_target_modifier,
    resolve_recon,
)


def test_r_rec_1_scout_d20_plus_tt_vs_d12_plus_stealth_plus_cover() -> None:
    roller = ScriptedRoller([15, 6])
    result = resolve_recon(roller, bonus=3, stealth=2, cover=3)
    assert result.scout_total == 18
    assert result.target_total == 11
    assert result.margin == 7
    assert [r.expr for r in result.rolls] == ["d20", "d12"]
    assert result.level is ContactLevel.KNOWN


def test_r_rec_1_tie_goes_to_target() -> None:
    result = resolve_recon(ScriptedRoller([10, 8]), bonus=3, stealth=2, cover=3)
    assert result.margin == 0
    assert result.level is ContactLevel.NONE
    active = resolve_recon(ScriptedRoller([10, 8]), bonus=3, stealth=2, cover=3, tie="active")
    assert active.level is ContactLevel.SUSPECTED


def test_r_rec_1_variant_000_target_rolls_d20_plus_cover_without_stealth() -> None:
    roller = ScriptedRoller([15, 19])
    result = resolve_recon(
        roller, bonus=3, stealth=5, cover=1, defender_die="d20", use_stealth=False
    )
    assert result.rolls[1].expr == "d20"
    assert result.target_total == 20
    assert result.level is ContactLevel.NONE


def test_r_rec_1_target_modifier_is_stealth_plus_cover_or_cover_alone() -> None:
    assert recon_target_modifier(2, 3) == 5
    assert recon_target_modifier(5, 1, use_stealth=False) == 1
    roll = resolve_recon(ScriptedRoller([10, 4]), bonus=0, stealth=2, cover=3).rolls[1]
    assert roll.modifier == recon_target_modifier(2, 3)


@pytest.mark.parametrize(
    ("margin", "level"),
    [
        (-3, ContactLevel.NONE),
        (0, ContactLevel.NONE),
        (1, ContactLevel.SUSPECTED),
        (4, ContactLevel.SUSPECTED),
        (5, ContactLevel.KNOWN),
        (9, ContactLevel.KNOWN),
        (10, ContactLevel.SPOTTED),
        (25, ContactLevel.SPOTTED),
    ],
)
def test_r_rec_2_contact_level_by_winning_margin(margin: int, level: ContactLevel) -> None:
    assert contact_level(margin) is level
    assert recon_level(margin) is level


def test_r_rec_2_thresholds_are_parameters() -> None:
    assert contact_level(4, known_at=3, spotted_at=6) is ContactLevel.KNOWN
    assert contact_level(6, known_at=3, spotted_at=6) is ContactLevel.SPOTTED


def test_r_rec_2_levels_are_ordered_with_glossary_codes() -> None:
    assert ContactLevel.NONE < ContactLevel.SUSPECTED < ContactLevel.KNOWN < ContactLevel.SPOTTED
    assert ContactLevel.KNOWN.code == "KNOWN"


@given(margin=st.integers(-30, 40))
def test_r_rec_2_level_never_drops_as_margin_grows(margin: int) -> None:
    assert contact_level(margin + 1) >= contact_level(margin)
