"""Dice expressions ``NdX+M`` (R-DICE-1).

A :class:`DiceExpr` is ``count`` dice of ``sides`` sides plus a flat ``modifier``:
``2d4``, ``d4+1``, ``3d10``, ``d6-1``. The count may be left out (``d6`` = ``1d6``).
:meth:`DiceExpr.parse` and ``str()`` are a round-tripping pair, like ``Move.from_uci`` and
``Move.uci()`` in python-chess: ``DiceExpr.parse(str(e)) == e`` for every valid ``e``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from taistelukentta.errors import ArgumentError

#: The die sizes of R-DICE-1, smallest first.
DIE_SIZES: tuple[int, ...] = (2, 4, 6, 8, 10, 12, 20)

#: Most dice one expression may hold; a guard against typos such as ``2000d6``.
MAX_COUNT = 100

#: Largest flat modifier an expression may carry.
MAX_MODIFIER = 1000

#: The smallest die a step down can reach (R-TK-1: "minimum d4").
STEP_DOWN_FLOOR = 4

_PATTERN = re.compile(r"^\s*([0-9]*)\s*[dD]\s*([0-9]+)\s*(?:([+-])\s*([0-9]+))?\s*$")


@dataclass(frozen=True, slots=True)
class DiceExpr:
    """``count`` dice with ``sides`` sides plus ``modifier`` (R-DICE-1)."""

    count: int
    """How many dice are rolled and summed (at least 1)."""
    sides: int
    """The die size: one of :data:`DIE_SIZES`."""
    modifier: int = 0
    """Flat amount added to the sum of the dice (may be negative)."""

    def __post_init__(self) -> None:
        if (
            self.sides not in DIE_SIZES
            or not 1 <= self.count <= MAX_COUNT
            or (abs(self.modifier) > MAX_MODIFIER)
        ):
            _check(self.count, self.sides, self.modifier, _raw_text(*self.parts))

    @classmethod
    def parse(cls, text: str) -> DiceExpr:
        """Parse ``NdX+M`` (``2d4``, ``d4+1``, ``3d10``, ``d6-1``); bad text → ArgumentError."""
        match = _PATTERN.match(text)
        if match is None:
            raise ArgumentError(
                f"bad dice expression {text!r}: expected NdX+M, e.g. 2d4, d4+1, 3d10, d6-1",
                f"virheellinen noppalauseke {text!r}: odotettiin muotoa NdX+M, "
                "esim. 2d4, d4+1, 3d10, d6-1",
            )
        count_text, sides_text, sign, mod_text = match.groups()
        count = int(count_text) if count_text else 1
        modifier = int(mod_text) if mod_text else 0
        if sign == "-":
            modifier = -modifier
        sides = int(sides_text)
        _check(count, sides, modifier, text)
        return cls(count, sides, modifier)

    @classmethod
    def of(cls, value: DiceExpr | str) -> DiceExpr:
        """``value`` itself if it is an expression, else :meth:`parse` it."""
        return value if isinstance(value, DiceExpr) else _parse_cached(value)

    def __str__(self) -> str:
        return _raw_text(self.count, self.sides, self.modifier)

    @property
    def parts(self) -> tuple[int, int, int]:
        """``(count, sides, modifier)``."""
        return self.count, self.sides, self.modifier

    @property
    def dice_text(self) -> str:
        """The dice without the modifier, e.g. ``"2d6"`` for ``2d6+1``."""
        return _raw_text(self.count, self.sides, 0)

    @property
    def min(self) -> int:
        """The smallest total the expression can roll."""
        return self.count + self.modifier

    @property
    def max(self) -> int:
        """The largest total the expression can roll."""
        return self.count * self.sides + self.modifier

    @property
    def mean(self) -> Fraction:
        """The exact average total."""
        return Fraction(self.count * (self.sides + 1), 2) + self.modifier

    @property
    def dice_only(self) -> DiceExpr:
        """The same dice without the flat modifier."""
        return DiceExpr(self.count, self.sides)

    def with_modifier(self, modifier: int) -> DiceExpr:
        """The same dice with ``modifier`` instead of the current one."""
        return DiceExpr(self.count, self.sides, modifier)

    def step_down(self, steps: int = 1) -> DiceExpr:
        """The die ``steps`` sizes smaller (R-TK-1: d20→d12→d10→d8→d6→d4, minimum d4).

        Count and modifier are kept. A die already at d4 (or a d2, smaller than the floor)
        stays as it is.
        """
        if steps < 0:
            raise ValueError(f"steps must be >= 0, got {steps}")
        sides = self.sides
        for _ in range(steps):
            index = DIE_SIZES.index(sides)
            if sides <= STEP_DOWN_FLOOR:
                break
            sides = DIE_SIZES[index - 1]
        return DiceExpr(self.count, sides, self.modifier)


def _raw_text(count: int, sides: int, modifier: int) -> str:
    head = f"d{sides}" if count == 1 else f"{count}d{sides}"
    if modifier > 0:
        return f"{head}+{modifier}"
    if modifier < 0:
        return f"{head}{modifier}"
    return head


def _check(count: int, sides: int, modifier: int, text: str) -> None:
    """Raise ArgumentError naming ``text`` if the parts do not form a valid expression."""
    if sides not in DIE_SIZES:
        sizes = ", ".join(f"d{s}" for s in DIE_SIZES)
        raise ArgumentError(
            f"dice expression {text!r}: d{sides} is not a die of the game (use {sizes})",
            f"noppalauseke {text!r}: d{sides} ei ole pelin noppa (käytä {sizes})",
        )
    if not 1 <= count <= MAX_COUNT:
        raise ArgumentError(
            f"dice expression {text!r}: the number of dice must be 1..{MAX_COUNT}",
            f"noppalauseke {text!r}: noppien määrän on oltava 1..{MAX_COUNT}",
        )
    if abs(modifier) > MAX_MODIFIER:
        raise ArgumentError(
            f"dice expression {text!r}: the modifier must be within ±{MAX_MODIFIER}",
            f"noppalauseke {text!r}: muuttujan on oltava välillä ±{MAX_MODIFIER}",
        )


@lru_cache(maxsize=256)
def _parse_cached(text: str) -> DiceExpr:
    return DiceExpr.parse(text)
