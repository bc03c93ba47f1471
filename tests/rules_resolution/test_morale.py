"""Morale tests (R-MOR-1, R-MOR-2)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from taistelukentta.dice.roller import Advantage
from taistelukentta.dice.scripted import ScriptedRoller
from taistelukentta.rules.morale import MoraleOutcome, morale_outcome, resolve_morale


def test_r_mor_1_total_is_d20_plus_morale_and_modifiers() -> None:
    result = resolve_morale(ScriptedRoller([9]), bonus=2 - 1, dc=12)
    assert result.total == 10
    assert result.shortfall == 2
    assert result.roll.purpose == "morale"


@pytest.mark.parametrize(
    ("total", "outcome"),
    [
        (12, MoraleOutcome.PASS),
        (20, MoraleOutcome.PASS),
        (11, MoraleOutcome.SHAKEN),
        (8, MoraleOutcome.SHAKEN),
        (7, MoraleOutcome.SUPPRESSED),
        (3, MoraleOutcome.SUPPRESSED),
        (2, MoraleOutcome.RETREATING),
        (-5, MoraleOutcome.RETREATING),
    ],
)
def test_r_mor_2_shortfall_table(total: int, outcome: MoraleOutcome) -> None:
    assert morale_outcome(total, 12, 10) is outcome


def test_r_mor_2_natural_1_always_retreats() -> None:
    result = resolve_morale(ScriptedRoller([1]), bonus=20, dc=12)
    assert result.total == 21
    assert result.outcome is MoraleOutcome.RETREATING


def test_r_mor_2_natural_1_under_advantage_means_kept_die() -> None:
    kept_high = resolve_morale(
        ScriptedRoller([1, 14]), bonus=0, dc=12, advantage=Advantage.ADVANTAGE
    )
    assert kept_high.outcome is MoraleOutcome.PASS
    kept_low = resolve_morale(
        ScriptedRoller([1, 14]), bonus=10, dc=12, advantage=Advantage.DISADVANTAGE
    )
    assert kept_low.outcome is MoraleOutcome.RETREATING


@pytest.mark.parametrize(
    ("total", "outcome"),
    [
        (12, MoraleOutcome.PASS),
        (8, MoraleOutcome.SHAKEN),
        (7, MoraleOutcome.RETREATING),
        (0, MoraleOutcome.RETREATING),
    ],
)
def test_r_mor_2_variant_000_short_by_5_retreats(total: int, outcome: MoraleOutcome) -> None:
    assert morale_outcome(total, 12, 10, retreat_at=5) is outcome


@given(total=st.integers(-30, 50), dc=st.integers(1, 40), natural=st.integers(2, 20))
def test_r_mor_2_outcome_gets_no_better_as_total_drops(total: int, dc: int, natural: int) -> None:
    order = list(MoraleOutcome)
    assert order.index(morale_outcome(total - 1, dc, natural)) >= order.index(
        morale_outcome(total, dc, natural)
    )
