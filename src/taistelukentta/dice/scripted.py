"""A roller whose dice are given in advance, for tests of exact rule branches.

``ScriptedRoller([20, 3, 6])`` makes its first die show 20, the next 3, and so on. A value
that does not fit the die being rolled, or running out of values, raises at once so a test
cannot silently exercise the wrong branch. It keeps the normal :class:`Roller` log.
"""

from __future__ import annotations

from collections.abc import Iterable

from taistelukentta.dice.roller import Roller, Seed


class ScriptedDiceError(AssertionError):
    """The scripted dice did not match what the code under test rolled."""


class ScriptedRoller(Roller):
    """A :class:`Roller` that takes each die from a fixed sequence."""

    def __init__(self, values: Iterable[int], seed: Seed = 0) -> None:
        super().__init__(seed)
        self._values = list(values)
        self._next = 0

    def _die(self, sides: int) -> int:
        if self._next >= len(self._values):
            raise ScriptedDiceError(
                f"scripted dice ran out after {len(self._values)} dice (a d{sides} was asked for)"
            )
        value = self._values[self._next]
        if not 1 <= value <= sides:
            raise ScriptedDiceError(
                f"scripted die #{self._next + 1} is {value}, which a d{sides} cannot show"
            )
        self._next += 1
        return value

    @property
    def remaining(self) -> list[int]:
        """The scripted values not used yet."""
        return self._values[self._next :]
