"""Opposed rolls (R-DICE-5) and tests against a DC (R-DICE-3)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from taistelukentta.dice.opposed import Side, opposed_winner, passes, roll_check, roll_opposed
from taistelukentta.dice.scripted import ScriptedRoller


def test_r_dice_3_total_at_least_dc_succeeds() -> None:
    check = roll_check(ScriptedRoller([10]), bonus=3, dc=13, purpose="TT test")
    assert check.total == 13 and check.success
    check = roll_check(ScriptedRoller([9]), bonus=3, dc=13)
    assert check.total == 12 and not check.success


@given(total=st.integers(-50, 80), dc=st.integers(-50, 80))
def test_r_dice_3_passes_iff_total_reaches_dc(total: int, dc: int) -> None:
    assert passes(total, dc) == (total >= dc)


def test_r_dice_5_higher_total_wins() -> None:
    assert opposed_winner(12, 11) is Side.ACTIVE
    assert opposed_winner(11, 12) is Side.DEFENDER


def test_r_dice_5_tie_goes_to_defender_by_default() -> None:
    assert opposed_winner(12, 12) is Side.DEFENDER
    assert opposed_winner(12, 12, tie="active") is Side.ACTIVE


def test_r_dice_5_roll_opposed_rolls_both_sides_in_order() -> None:
    roller = ScriptedRoller([15, 8])
    result = roll_opposed(
        roller, active="d20", active_bonus=2, defender="d12", defender_bonus=9, purpose="recon"
    )
    assert result.active.total == 17
    assert result.defender.total == 17
    assert result.margin == 0
    assert result.winner is Side.DEFENDER
    assert [r.purpose for r in roller.log] == ["recon:active", "recon:defender"]
