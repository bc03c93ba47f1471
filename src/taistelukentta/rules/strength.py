"""Strength (TK) effects (R-TK-1).

A unit is DAMAGED as soon as TK < 50 % of its max: movement halved (rounded down) and the
basic attack's firepower (TI) one die size down, minimum d4 (000 variant: TI halved).
004's table of cumulative strength effects is missing, so further thresholds can be given
as data: a sequence of :class:`StrengthThreshold`, each "below this fraction of max: these
effects". Effects of every threshold passed accumulate (divisors multiply, steps and
modifiers add).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

from taistelukentta.dice.expr import DiceExpr

FirepowerMode = Literal["step_down", "halve"]
"""R-TK-1: how DAMAGED weakens TI. ``"step_down"`` (004): one die size down, minimum d4.
``"halve"`` (000 variant): the damage rolled is halved, rounded down."""

MovementMode = Literal["halve", "full"]
"""R-TK-1: a DAMAGED unit's movement, halved rounded down (``"halve"``) or kept (``"full"``)."""

DAMAGED_PERCENT = 50
"""R-TK-1: DAMAGED when TK < 50 % of max (option ``damaged_threshold``)."""
DAMAGED_FRACTION = Fraction(DAMAGED_PERCENT, 100)
"""The same threshold as a fraction (:class:`StrengthThreshold` data)."""


@dataclass(frozen=True, slots=True)
class Firepower:
    """A damage die after strength effects: roll ``dice``, then divide by ``divisor``.

    ``divisor`` > 1 only under the 000 variant (TI halved); pass it to
    :func:`taistelukentta.rules.combat.resolve_attack` as ``damage_divisor``.
    """

    dice: DiceExpr
    divisor: int = 1


@dataclass(frozen=True, slots=True)
class StrengthEffects:
    """What a strength threshold does to a unit."""

    movement_divisor: int = 1
    """Movement is divided by this, rounding down."""
    firepower_steps: int = 0
    """The basic attack's TI steps down this many die sizes (``"step_down"`` mode)."""
    firepower_divisor: int = 2
    """The TI divisor used instead of steps in ``"halve"`` mode (when ``firepower_steps`` > 0)."""
    morale_modifier: int = 0
    """Added to the unit's morale tests."""
    statuses: frozenset[str] = field(default_factory=frozenset)
    """Status codes the threshold gives, e.g. ``{"DAMAGED"}``."""


@dataclass(frozen=True, slots=True)
class StrengthThreshold:
    """Below ``below`` × max strength, ``effects`` apply (R-TK-1)."""

    below: Fraction
    effects: StrengthEffects


#: R-TK-1 as data: below half strength a unit is DAMAGED.
DEFAULT_THRESHOLDS: tuple[StrengthThreshold, ...] = (
    StrengthThreshold(
        DAMAGED_FRACTION,
        StrengthEffects(movement_divisor=2, firepower_steps=1, statuses=frozenset({"DAMAGED"})),
    ),
)


def _check(strength: int, max_strength: int) -> None:
    if max_strength < 1:
        raise ValueError(f"max strength must be at least 1, got {max_strength}")
    if not 0 <= strength <= max_strength:
        raise ValueError(f"strength must be within 0..{max_strength}, got {strength}")


def is_damaged(strength: int, max_strength: int, *, damaged_percent: int = DAMAGED_PERCENT) -> bool:
    """DAMAGED as soon as TK < 50 % of max (R-TK-1; option ``damaged_threshold``)."""
    _check(strength, max_strength)
    return strength * 100 < damaged_percent * max_strength


def became_damaged(
    before: int, after: int, max_strength: int, *, damaged_percent: int = DAMAGED_PERCENT
) -> bool:
    """Whether a strength change crossed into DAMAGED (triggers the DC 12 morale test)."""
    return not is_damaged(before, max_strength, damaged_percent=damaged_percent) and is_damaged(
        after, max_strength, damaged_percent=damaged_percent
    )


def effective_movement(movement: int, damaged: bool, *, mode: MovementMode = "halve") -> int:
    """Movement L, halved (rounded down) when DAMAGED (R-TK-1; ``mode="full"`` keeps it)."""
    if movement < 0:
        raise ValueError(f"movement cannot be negative, got {movement}")
    if mode not in ("halve", "full"):
        raise ValueError(f"movement mode must be 'halve' or 'full', got {mode!r}")
    return movement // 2 if damaged and mode == "halve" else movement


def effective_firepower(
    die: DiceExpr, damaged: bool, *, mode: FirepowerMode = "step_down"
) -> Firepower:
    """The basic attack's TI when DAMAGED (R-TK-1): one die size down (minimum d4), or
    halved under the 000 variant ``mode="halve"``."""
    return _weaken(die, 1 if damaged else 0, 2, mode)


def active_thresholds(
    strength: int,
    max_strength: int,
    thresholds: Sequence[StrengthThreshold] = DEFAULT_THRESHOLDS,
) -> tuple[StrengthThreshold, ...]:
    """The thresholds a unit with this strength is below, in the given order."""
    _check(strength, max_strength)
    return tuple(t for t in thresholds if strength < t.below * max_strength)


def crossed_thresholds(
    before: int,
    after: int,
    max_strength: int,
    thresholds: Sequence[StrengthThreshold] = DEFAULT_THRESHOLDS,
) -> tuple[StrengthThreshold, ...]:
    """The thresholds a change from ``before`` to ``after`` newly passes."""
    old = active_thresholds(before, max_strength, thresholds)
    return tuple(t for t in active_thresholds(after, max_strength, thresholds) if t not in old)


def strength_effects(
    strength: int,
    max_strength: int,
    thresholds: Sequence[StrengthThreshold] = DEFAULT_THRESHOLDS,
) -> StrengthEffects:
    """The accumulated effects of every threshold the unit is below."""
    movement_divisor = 1
    steps = 0
    firepower_divisor = 1
    morale = 0
    statuses: set[str] = set()
    for threshold in active_thresholds(strength, max_strength, thresholds):
        effects = threshold.effects
        movement_divisor *= effects.movement_divisor
        steps += effects.firepower_steps
        if effects.firepower_steps:
            firepower_divisor *= effects.firepower_divisor
        morale += effects.morale_modifier
        statuses |= effects.statuses
    return StrengthEffects(
        movement_divisor=movement_divisor,
        firepower_steps=steps,
        firepower_divisor=firepower_divisor,
        morale_modifier=morale,
        statuses=frozenset(statuses),
    )


def apply_strength_effects(
    movement: int,
    firepower: DiceExpr,
    effects: StrengthEffects,
    *,
    mode: FirepowerMode = "step_down",
) -> tuple[int, Firepower]:
    """Movement and basic-attack firepower after ``effects`` (see :func:`strength_effects`)."""
    if movement < 0:
        raise ValueError(f"movement cannot be negative, got {movement}")
    return (
        movement // effects.movement_divisor,
        _weaken(firepower, effects.firepower_steps, effects.firepower_divisor, mode),
    )


def _weaken(die: DiceExpr, steps: int, divisor: int, mode: FirepowerMode) -> Firepower:
    if mode not in ("step_down", "halve"):
        raise ValueError(f"firepower mode must be 'step_down' or 'halve', got {mode!r}")
    if steps <= 0:
        return Firepower(die)
    if mode == "step_down":
        return Firepower(die.step_down(steps))
    return Firepower(die, divisor)
