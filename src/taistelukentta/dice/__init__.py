"""Dice: expressions ``NdX+M``, the seeded roller with its roll log, opposed rolls and tests.

Rules code draws every random number through a :class:`Roller` (R-DICE-2).
"""

from taistelukentta.dice.expr import DIE_SIZES, DiceExpr
from taistelukentta.dice.opposed import (
    CheckResult,
    OpposedResult,
    Side,
    TieRule,
    opposed_winner,
    passes,
    roll_check,
    roll_opposed,
)
from taistelukentta.dice.roller import D20, Advantage, Roller, RollRecord

__all__ = [
    "D20",
    "DIE_SIZES",
    "Advantage",
    "CheckResult",
    "DiceExpr",
    "OpposedResult",
    "RollRecord",
    "Roller",
    "Side",
    "TieRule",
    "opposed_winner",
    "passes",
    "roll_check",
    "roll_opposed",
]
