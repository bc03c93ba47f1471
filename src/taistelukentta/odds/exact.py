"""Exact odds of attacks, morale tests and recon rolls, as ``fractions.Fraction``.

The distributions come from icepool (the kept d20 under advantage, sums of damage dice, the
difference of two opposed dice); each outcome is then classified by the very functions the
game uses (:func:`~taistelukentta.rules.combat.degree_of_effect`,
:func:`~taistelukentta.rules.morale.morale_outcome`,
:func:`~taistelukentta.rules.recon.recon_level`), so the odds follow the same rule options.
Nothing here is sampled. The dice distributions are cached; a query costs well under a
millisecond once they are built.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import icepool

from taistelukentta.dice.expr import DiceExpr
from taistelukentta.dice.opposed import TieRule
from taistelukentta.dice.roller import Advantage
from taistelukentta.rules.combat import (
    HEAVY_HIT_MARGIN,
    PINNING_MARGIN,
    Effect,
    HeavyHitExtra,
    Natural20Miss,
    degree_of_effect,
    morale_marks_for,
)
from taistelukentta.rules.morale import (
    DEFAULT_RETREAT_AT,
    DEFAULT_SUPPRESSED_AT,
    MoraleOutcome,
    morale_outcome,
)
from taistelukentta.rules.recon import (
    DEFAULT_KNOWN_AT,
    DEFAULT_SPOTTED_AT,
    ContactLevel,
    recon_level,
    recon_target_modifier,
)

Distribution = tuple[tuple[int, Fraction], ...]
"""An exact distribution: (outcome, probability) pairs, outcomes ascending, sum 1."""


def _distribution(die: icepool.Die) -> Distribution:
    denominator = die.denominator()
    return tuple(
        (int(outcome), Fraction(quantity, denominator)) for outcome, quantity in die.items()
    )


def _icepool_dice(expr: DiceExpr, times: int = 1) -> icepool.Die:
    return (expr.count * times) @ icepool.d(expr.sides)


def _kept_d20(advantage: Advantage) -> icepool.Die:
    """The kept d20 (R-DICE-4): plain, 2d20 keep higher, or 2d20 keep lower."""
    if advantage is Advantage.ADVANTAGE:
        return icepool.d20.highest(2)
    if advantage is Advantage.DISADVANTAGE:
        return icepool.d20.lowest(2)
    return icepool.d20


@lru_cache(maxsize=8)
def d20_distribution(advantage: Advantage = Advantage.NONE) -> Distribution:
    """The kept d20 (R-DICE-4): plain, 2d20 keep higher, or 2d20 keep lower."""
    return _distribution(_kept_d20(advantage))


@lru_cache(maxsize=256)
def damage_distribution(
    damage: DiceExpr,
    effect: Effect,
    *,
    heavy_hit_extra: HeavyHitExtra = "dice_twice",
    damage_bonus: int = 0,
    damage_divisor: int = 1,
) -> Distribution:
    """The damage a HIT or HEAVY_HIT does, exactly as
    :func:`~taistelukentta.rules.combat.roll_damage` rolls it; PINNING/MISS → always 0."""
    if heavy_hit_extra != "dice_twice":
        raise ValueError(f"heavy_hit_extra must be 'dice_twice', got {heavy_hit_extra!r}")
    if damage_divisor < 1:
        raise ValueError(f"damage_divisor must be >= 1, got {damage_divisor}")
    if not effect.hits:
        return ((0, Fraction(1)),)
    times = 2 if effect is Effect.HEAVY_HIT else 1
    offset = damage.modifier + damage_bonus
    die = _icepool_dice(damage, times).map(lambda x: max(0, (x + offset) // damage_divisor))
    return _distribution(die)


def mean(distribution: Distribution) -> Fraction:
    """The expected value of an exact distribution."""
    return sum((p * outcome for outcome, p in distribution), Fraction(0))


@lru_cache(maxsize=64)
def _difference_distribution(advantage: Advantage, defender_die: DiceExpr) -> Distribution:
    """Kept d20 minus the defender's dice (modifiers excluded)."""
    return _distribution(_kept_d20(advantage) - _icepool_dice(defender_die))


@dataclass(frozen=True, slots=True)
class AttackOdds:
    """Exact odds of one attack (R-ATK-4…6)."""

    heavy_hit: Fraction
    hit: Fraction
    pinning: Fraction
    miss: Fraction
    natural_1: Fraction
    """Probability of a setback roll: the kept die shows 1 (R-ATK-6)."""
    expected_damage: Fraction
    """Expected damage (HIT and HEAVY_HIT damage weighted by their odds), before R-ATK-9."""
    morale_mark: Fraction = Fraction(0)
    """Probability of a −1 next-morale mark (R-ATK-5 variant ``morale_penalty`` only)."""

    def outcomes(self) -> dict[str, Fraction]:
        """The four degrees of effect by JSON key; they sum to exactly 1."""
        return {
            "heavy_hit": self.heavy_hit,
            "hit": self.hit,
            "pinning": self.pinning,
            "miss": self.miss,
        }

    def as_dict(self) -> dict[str, Fraction]:
        """The odds of ``tk20 odds attack --json``: outcomes, ``natural_1``,
        ``expected_damage``."""
        return {
            **self.outcomes(),
            "natural_1": self.natural_1,
            "expected_damage": self.expected_damage,
        }


@dataclass(frozen=True, slots=True)
class MoraleOdds:
    """Exact odds of one morale test (R-MOR-2)."""

    passed: Fraction
    shaken: Fraction
    suppressed: Fraction
    retreating: Fraction

    def outcomes(self) -> dict[str, Fraction]:
        """The four outcomes by JSON key (``pass`` …); they sum to exactly 1."""
        return {
            "pass": self.passed,
            "shaken": self.shaken,
            "suppressed": self.suppressed,
            "retreating": self.retreating,
        }

    def as_dict(self) -> dict[str, Fraction]:
        """The odds of ``tk20 odds morale --json``."""
        return self.outcomes()


@dataclass(frozen=True, slots=True)
class ReconOdds:
    """Exact odds of one recon roll (R-REC-1, R-REC-2)."""

    none: Fraction
    suspected: Fraction
    known: Fraction
    spotted: Fraction

    def outcomes(self) -> dict[str, Fraction]:
        """The four contact levels by JSON key; they sum to exactly 1."""
        return {
            "none": self.none,
            "suspected": self.suspected,
            "known": self.known,
            "spotted": self.spotted,
        }

    def as_dict(self) -> dict[str, Fraction]:
        """The odds of ``tk20 odds recon --json``."""
        return self.outcomes()


def attack_odds(
    bonus: int,
    defence: int,
    *,
    advantage: Advantage = Advantage.NONE,
    damage: DiceExpr | str = "d6",
    heavy_hit_extra: HeavyHitExtra = "dice_twice",
    natural20_miss: Natural20Miss = "pinning",
    damage_bonus: int = 0,
    damage_divisor: int = 1,
    heavy_hit_margin: int = HEAVY_HIT_MARGIN,
    pinning_margin: int = PINNING_MARGIN,
) -> AttackOdds:
    """Exact odds of :func:`~taistelukentta.rules.combat.resolve_attack` with these values.

    ``bonus`` is everything added to the d20 (R-ATK-2), ``defence`` target S + cover
    (R-ATK-3). ``natural_1`` is the chance of a setback roll (R-ATK-6).
    """
    expr = DiceExpr.of(damage)
    totals = {effect: Fraction(0) for effect in Effect}
    natural_1 = Fraction(0)
    morale_mark = Fraction(0)
    for natural, p in d20_distribution(advantage):
        effect = degree_of_effect(
            natural + bonus - defence,
            natural,
            natural20_miss=natural20_miss,
            heavy_hit_margin=heavy_hit_margin,
            pinning_margin=pinning_margin,
        )
        totals[effect] += p
        if natural == 1:
            natural_1 += p
        if morale_marks_for(effect, natural, natural20_miss=natural20_miss):
            morale_mark += p
    expected = Fraction(0)
    for effect in (Effect.HIT, Effect.HEAVY_HIT):
        if totals[effect]:
            dist = damage_distribution(
                expr,
                effect,
                heavy_hit_extra=heavy_hit_extra,
                damage_bonus=damage_bonus,
                damage_divisor=damage_divisor,
            )
            expected += totals[effect] * mean(dist)
    return AttackOdds(
        heavy_hit=totals[Effect.HEAVY_HIT],
        hit=totals[Effect.HIT],
        pinning=totals[Effect.PINNING],
        miss=totals[Effect.MISS],
        natural_1=natural_1,
        expected_damage=expected,
        morale_mark=morale_mark,
    )


def attack_damage_distribution(
    bonus: int,
    defence: int,
    *,
    advantage: Advantage = Advantage.NONE,
    damage: DiceExpr | str = "d6",
    heavy_hit_extra: HeavyHitExtra = "dice_twice",
    natural20_miss: Natural20Miss = "pinning",
    damage_bonus: int = 0,
    damage_divisor: int = 1,
    heavy_hit_margin: int = HEAVY_HIT_MARGIN,
    pinning_margin: int = PINNING_MARGIN,
) -> Distribution:
    """The exact distribution of the damage one attack does (0 for PINNING/MISS)."""
    expr = DiceExpr.of(damage)
    odds = attack_odds(
        bonus,
        defence,
        advantage=advantage,
        damage=expr,
        heavy_hit_extra=heavy_hit_extra,
        natural20_miss=natural20_miss,
        damage_bonus=damage_bonus,
        damage_divisor=damage_divisor,
        heavy_hit_margin=heavy_hit_margin,
        pinning_margin=pinning_margin,
    )
    weights = {Effect.HIT: odds.hit, Effect.HEAVY_HIT: odds.heavy_hit}
    result: dict[int, Fraction] = {0: odds.pinning + odds.miss}
    for effect, weight in weights.items():
        if not weight:
            continue
        for amount, p in damage_distribution(
            expr,
            effect,
            heavy_hit_extra=heavy_hit_extra,
            damage_bonus=damage_bonus,
            damage_divisor=damage_divisor,
        ):
            result[amount] = result.get(amount, Fraction(0)) + weight * p
    return tuple(sorted((k, v) for k, v in result.items() if v))


def morale_odds(
    bonus: int,
    dc: int,
    *,
    advantage: Advantage = Advantage.NONE,
    suppressed_at: int = DEFAULT_SUPPRESSED_AT,
    retreat_at: int = DEFAULT_RETREAT_AT,
) -> MoraleOdds:
    """Exact odds of :func:`~taistelukentta.rules.morale.resolve_morale` (R-MOR-2)."""
    totals = {outcome: Fraction(0) for outcome in MoraleOutcome}
    for natural, p in d20_distribution(advantage):
        outcome = morale_outcome(
            natural + bonus, dc, natural, suppressed_at=suppressed_at, retreat_at=retreat_at
        )
        totals[outcome] += p
    return MoraleOdds(
        passed=totals[MoraleOutcome.PASS],
        shaken=totals[MoraleOutcome.SHAKEN],
        suppressed=totals[MoraleOutcome.SUPPRESSED],
        retreating=totals[MoraleOutcome.RETREATING],
    )


def check_odds(bonus: int, dc: int, *, advantage: Advantage = Advantage.NONE) -> Fraction:
    """Chance that d20 + ``bonus`` ≥ ``dc`` (R-DICE-3)."""
    return sum(
        (p for natural, p in d20_distribution(advantage) if natural + bonus >= dc), Fraction(0)
    )


def recon_odds(
    bonus: int,
    stealth: int,
    cover: int,
    *,
    defender_die: DiceExpr | str = "d12",
    use_stealth: bool = True,
    tie: TieRule = "defender",
    known_at: int = DEFAULT_KNOWN_AT,
    spotted_at: int = DEFAULT_SPOTTED_AT,
    advantage: Advantage = Advantage.NONE,
) -> ReconOdds:
    """Exact odds of :func:`~taistelukentta.rules.recon.resolve_recon` (R-REC-1, R-REC-2)."""
    die = DiceExpr.of(defender_die)
    offset = bonus - die.modifier - recon_target_modifier(stealth, cover, use_stealth=use_stealth)
    totals = {level: Fraction(0) for level in ContactLevel}
    for difference, p in _difference_distribution(advantage, die.dice_only):
        level = recon_level(difference + offset, tie=tie, known_at=known_at, spotted_at=spotted_at)
        totals[level] += p
    return ReconOdds(
        none=totals[ContactLevel.NONE],
        suspected=totals[ContactLevel.SUSPECTED],
        known=totals[ContactLevel.KNOWN],
        spotted=totals[ContactLevel.SPOTTED],
    )
