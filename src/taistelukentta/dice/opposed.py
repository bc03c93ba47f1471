"""Opposed rolls (R-DICE-5) and tests against a DC (R-DICE-3).

Opposed: each side rolls and adds its bonuses; the higher total wins. A tie goes to the
defender — the side that is not acting — by DEFAULT (``tie="defender"``); ``tie="active"``
gives ties to the acting side instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

from taistelukentta.dice.expr import DiceExpr
from taistelukentta.dice.roller import Advantage, Roller, RollRecord

TieRule = Literal["defender", "active"]


class Side(StrEnum):
    """The two sides of an opposed roll."""

    ACTIVE = "active"
    """The acting side (attacker, scout)."""
    DEFENDER = "defender"
    """The side that is not acting."""


def opposed_winner(active_total: int, defender_total: int, *, tie: TieRule = "defender") -> Side:
    """Who wins an opposed roll with these totals (R-DICE-5)."""
    if tie not in ("defender", "active"):
        raise ValueError(f"tie must be 'defender' or 'active', got {tie!r}")
    if active_total > defender_total:
        return Side.ACTIVE
    if active_total < defender_total:
        return Side.DEFENDER
    return Side.DEFENDER if tie == "defender" else Side.ACTIVE


@dataclass(frozen=True, slots=True)
class OpposedResult:
    """Both rolls of an opposed roll and who won."""

    active: RollRecord
    defender: RollRecord
    margin: int
    """``active.total - defender.total``."""
    winner: Side


def roll_opposed(
    roller: Roller,
    *,
    active: DiceExpr | str,
    active_bonus: int,
    defender: DiceExpr | str,
    defender_bonus: int,
    tie: TieRule = "defender",
    purpose: str = "opposed",
    secret: bool = False,
) -> OpposedResult:
    """Roll both sides (active first) and decide the winner (R-DICE-5)."""
    active_roll = roller.roll(active, f"{purpose}:active", modifier=active_bonus, secret=secret)
    defender_roll = roller.roll(
        defender, f"{purpose}:defender", modifier=defender_bonus, secret=secret
    )
    return OpposedResult(
        active_roll,
        defender_roll,
        active_roll.total - defender_roll.total,
        opposed_winner(active_roll.total, defender_roll.total, tie=tie),
    )


def passes(total: int, dc: int) -> bool:
    """A test succeeds when d20 + bonuses ≥ DC (R-DICE-3)."""
    return total >= dc


@dataclass(frozen=True, slots=True)
class CheckResult:
    """A d20 test against a DC (R-DICE-3), e.g. "TT test DC 13"."""

    natural: int
    total: int
    dc: int
    success: bool
    roll: RollRecord


def roll_check(
    roller: Roller,
    *,
    bonus: int,
    dc: int,
    advantage: Advantage = Advantage.NONE,
    purpose: str = "check",
    secret: bool = False,
) -> CheckResult:
    """Roll d20 + ``bonus`` against ``dc`` (R-DICE-3)."""
    roll = roller.d20(purpose, advantage=advantage, modifier=bonus, secret=secret)
    return CheckResult(roll.natural, roll.total, dc, passes(roll.total, dc), roll)
