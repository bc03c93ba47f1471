"""Morale tests (R-MOR-1, R-MOR-2).

d20 + M + modifiers against a DC; the result depends on how far the total falls short.
The caller sums the modifiers (R-MOR-4: pinning-fire marks, leaderless company, wave attack,
veteran abilities) into ``bonus``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from taistelukentta.dice.roller import Advantage, Roller, RollRecord

DEFAULT_SUPPRESSED_AT = 5
"""R-MOR-2: short by 5–9 → SUPPRESSED."""
DEFAULT_RETREAT_AT = 10
"""R-MOR-2: short by 10 or more → RETREATING (000 variant: 5)."""


class MoraleOutcome(StrEnum):
    """Result of a morale test (R-MOR-2); values are glossary codes."""

    PASS = "PASS"
    SHAKEN = "SHAKEN"
    SUPPRESSED = "SUPPRESSED"
    RETREATING = "RETREATING"


def morale_outcome(
    total: int,
    dc: int,
    natural: int,
    *,
    suppressed_at: int = DEFAULT_SUPPRESSED_AT,
    retreat_at: int = DEFAULT_RETREAT_AT,
) -> MoraleOutcome:
    """The outcome of a morale test (R-MOR-2).

    A natural 1 is always RETREATING, even if the total reaches the DC. Otherwise, by the
    shortfall ``dc - total``: ≤ 0 PASS, 1 … ``suppressed_at``−1 SHAKEN, ``suppressed_at`` …
    ``retreat_at``−1 SUPPRESSED, ≥ ``retreat_at`` RETREATING. The 000 variant
    ``retreat_at=5`` makes every shortfall of 5+ a retreat (no SUPPRESSED band).
    """
    if not 1 <= natural <= 20:
        raise ValueError(f"a natural d20 shows 1..20, got {natural}")
    if suppressed_at < 1 or retreat_at < 1:
        raise ValueError(
            f"suppressed_at and retreat_at must be >= 1, got {suppressed_at}, {retreat_at}"
        )
    if natural == 1:
        return MoraleOutcome.RETREATING
    shortfall = dc - total
    if shortfall <= 0:
        return MoraleOutcome.PASS
    if shortfall >= retreat_at:
        return MoraleOutcome.RETREATING
    if shortfall >= suppressed_at:
        return MoraleOutcome.SUPPRESSED
    return MoraleOutcome.SHAKEN


@dataclass(frozen=True, slots=True)
class MoraleResult:
    """One morale test."""

    natural: int
    total: int
    dc: int
    shortfall: int
    """``dc - total``; 0 or less when the total reached the DC."""
    outcome: MoraleOutcome
    roll: RollRecord


def resolve_morale(
    roller: Roller,
    *,
    bonus: int,
    dc: int,
    advantage: Advantage = Advantage.NONE,
    suppressed_at: int = DEFAULT_SUPPRESSED_AT,
    retreat_at: int = DEFAULT_RETREAT_AT,
    purpose: str = "morale",
    secret: bool = False,
) -> MoraleResult:
    """Roll a morale test: d20 + ``bonus`` (M + summed modifiers) against ``dc`` (R-MOR-1)."""
    roll = roller.d20(purpose, advantage=advantage, modifier=bonus, secret=secret)
    outcome = morale_outcome(
        roll.total, dc, roll.natural, suppressed_at=suppressed_at, retreat_at=retreat_at
    )
    return MoraleResult(roll.natural, roll.total, dc, dc - roll.total, outcome, roll)
