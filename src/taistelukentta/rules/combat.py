"""Attack resolution: degree of effect, damage, natural 20/1, area fire (R-ATK-2…10).

Pure functions over a :class:`~taistelukentta.dice.Roller` and plain values. Rule options
arrive as keyword arguments whose defaults are RULES.md's DEFAULTs; the engine passes the
values of ``RuleOptions`` instead.

Roll order of one attack (fixed, so replays match): the attack d20 (purpose ``P``), then the
damage dice if the attack does damage (``P:damage``, and ``P:heavy_extra`` for a heavy hit),
then the setback d6 if the natural die was 1 (``P:setback``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Literal

from taistelukentta.dice.expr import DiceExpr
from taistelukentta.dice.roller import Advantage, Roller, RollRecord

Natural20Miss = Literal["pinning", "morale_penalty"]
"""R-ATK-5: what a natural 20 that misses does. ``"pinning"`` (004, DEFAULT): at least
PINNING. ``"morale_penalty"`` (variant): the miss stands and the target gets a −1 mark on
its next morale test."""

HeavyHitExtra = Literal["dice_twice"]
"""R-ATK-4: the extra damage of a HEAVY_HIT. ``"dice_twice"`` (DEFAULT, the only reading
RULES.md names): the damage dice are rolled once more and added (2×TI)."""

FragVsArmour = Literal["half", "none"]
"""R-ATK-9: FRAG damage against an armoured target. ``"half"`` (DEFAULT): halved, rounded
down. ``"none"``: FRAG does no damage to armoured targets."""

HEAVY_HIT_MARGIN = 5
"""R-ATK-4: a margin of at least +5 is a HEAVY_HIT (option ``heavy_hit_margin``)."""
PINNING_MARGIN = -4
"""R-ATK-4: the lowest margin that is still PINNING; below it a clean MISS
(option ``pinning_margin``)."""
SETBACK_DIE = DiceExpr(1, 6)
"""R-ATK-6: the attacker's setback die."""
DEFAULT_PINNING_PENALTY = 2
"""R-ATK-4 DEFAULT: a pinned target's next attack roll gets −2."""


class Effect(StrEnum):
    """Degree of effect of an attack (R-ATK-4); values are glossary codes."""

    HEAVY_HIT = "HEAVY_HIT"
    HIT = "HIT"
    PINNING = "PINNING"
    MISS = "MISS"

    @property
    def hits(self) -> bool:
        """Whether the effect does damage."""
        return self in (Effect.HEAVY_HIT, Effect.HIT)


class Setback(StrEnum):
    """The attacker's mishap after a natural 1 (R-ATK-6)."""

    WEAPON_JAM = "WEAPON_JAM"
    """d6 1–2: its main weapon cannot fire during its next own turn."""
    POSITION_REVEALED = "POSITION_REVEALED"
    """d6 3–4: SPOTTED to every enemy within 15 cells (R-REC-7)."""
    COMMS_BREAK = "COMMS_BREAK"
    """d6 5: no commander abilities through the end of its next own turn."""
    CONFUSION = "CONFUSION"
    """d6 6: the next attack against it has advantage."""


class DamageType(StrEnum):
    """Damage types (R-ATK-9); values are glossary codes."""

    FRAG = "FRAG"
    AT = "AT"


def degree_of_effect(
    margin: int,
    natural: int,
    *,
    natural20_miss: Natural20Miss = "pinning",
    heavy_hit_margin: int = HEAVY_HIT_MARGIN,
    pinning_margin: int = PINNING_MARGIN,
) -> Effect:
    """The degree of effect of an attack with this margin and natural d20 (R-ATK-4, R-ATK-5).

    A natural 20 that hits (margin ≥ 0) is a HEAVY_HIT; one that misses is at least PINNING
    under the DEFAULT ``natural20_miss="pinning"``. A natural 1 needs nothing here: it counts
    as 1 + bonuses (R-ATK-6) and its setback is rolled by :func:`resolve_attack`.
    """
    _check_natural(natural)
    _check_natural20_miss(natural20_miss)
    if not pinning_margin < 0 < heavy_hit_margin:
        raise ValueError(
            f"need pinning_margin < 0 < heavy_hit_margin, got {pinning_margin}, {heavy_hit_margin}"
        )
    if margin >= heavy_hit_margin:
        effect = Effect.HEAVY_HIT
    elif margin >= 0:
        effect = Effect.HIT
    elif margin >= pinning_margin:
        effect = Effect.PINNING
    else:
        effect = Effect.MISS
    if natural == 20:
        if effect is Effect.HIT:
            return Effect.HEAVY_HIT
        if effect is Effect.MISS and natural20_miss == "pinning":
            return Effect.PINNING
    return effect


def morale_marks_for(effect: Effect, natural: int, *, natural20_miss: Natural20Miss) -> int:
    """How many −1 next-morale marks the attack gives (R-ATK-5 variant ``morale_penalty``)."""
    if natural == 20 and not effect.hits and natural20_miss == "morale_penalty":
        return 1
    return 0


def setback_for(d6: int) -> Setback:
    """The setback a d6 shows (R-ATK-6): 1–2 jam, 3–4 revealed, 5 comms, 6 confusion."""
    if not 1 <= d6 <= 6:
        raise ValueError(f"a d6 shows 1..6, got {d6}")
    if d6 <= 2:
        return Setback.WEAPON_JAM
    if d6 <= 4:
        return Setback.POSITION_REVEALED
    if d6 == 5:
        return Setback.COMMS_BREAK
    return Setback.CONFUSION


@dataclass(frozen=True, slots=True)
class AttackResult:
    """The outcome of one attack against one target."""

    natural: int
    """The kept d20 (R-DICE-4)."""
    total: int
    """d20 + every bonus (R-ATK-2)."""
    defence: int
    """Target S + cover (R-ATK-3)."""
    margin: int
    """``total - defence`` (R-ATK-4)."""
    effect: Effect
    damage: int
    """Damage before damage type (R-ATK-9) is applied; 0 unless HIT/HEAVY_HIT."""
    setback: Setback | None
    """The attacker's setback after a natural 1 (R-ATK-6), else None. In an area attack the
    setback sits on the :class:`AreaAttackResult`, never on the per-target results."""
    rolls: tuple[RollRecord, ...]
    """Every roll this result used, in the order made."""
    pinning_penalty: int = 0
    """On PINNING: how much the target's next attack roll drops (DEFAULT 2), else 0."""
    morale_marks: int = 0
    """−1 marks on the target's next morale test (R-ATK-5 variant), else 0."""


def roll_damage(
    roller: Roller,
    damage: DiceExpr,
    effect: Effect,
    *,
    heavy_hit_extra: HeavyHitExtra = "dice_twice",
    damage_bonus: int = 0,
    damage_divisor: int = 1,
    purpose: str = "attack",
) -> tuple[int, tuple[RollRecord, ...]]:
    """The damage of ``effect`` and the rolls made (R-ATK-4).

    HIT: one roll of ``damage`` + ``damage_bonus``. HEAVY_HIT (``"dice_twice"``): the same
    plus the damage *dice* rolled once more (the expression's flat modifier is not doubled).
    ``damage_divisor`` divides the sum, rounding down (R-TK-1 variant: TI halved). Damage is
    never below 0. PINNING/MISS: 0 and no rolls.
    """
    _check_heavy_hit_extra(heavy_hit_extra)
    if damage_divisor < 1:
        raise ValueError(f"damage_divisor must be >= 1, got {damage_divisor}")
    if not effect.hits:
        return 0, ()
    first = roller.roll(damage, f"{purpose}:damage")
    rolls: tuple[RollRecord, ...] = (first,)
    amount = first.total
    if effect is Effect.HEAVY_HIT:
        extra = roller.roll(damage.dice_only, f"{purpose}:heavy_extra")
        rolls += (extra,)
        amount += extra.total
    return max(0, (amount + damage_bonus) // damage_divisor), rolls


def resolve_attack(
    roller: Roller,
    *,
    bonus: int,
    defence: int,
    damage: DiceExpr,
    advantage: Advantage = Advantage.NONE,
    heavy_hit_extra: HeavyHitExtra = "dice_twice",
    damage_bonus: int = 0,
    damage_divisor: int = 1,
    natural20_miss: Natural20Miss = "pinning",
    pinning_penalty: int = DEFAULT_PINNING_PENALTY,
    heavy_hit_margin: int = HEAVY_HIT_MARGIN,
    pinning_margin: int = PINNING_MARGIN,
    purpose: str = "attack",
) -> AttackResult:
    """Resolve one attack (R-ATK-2…6).

    ``bonus`` is everything added to the d20 (TT + weapon + other modifiers, R-ATK-2);
    ``defence`` is target S + cover (R-ATK-3).
    """
    _check_natural20_miss(natural20_miss)
    _check_heavy_hit_extra(heavy_hit_extra)
    attack = roller.d20(purpose, advantage=advantage, modifier=bonus)
    result = _against_target(
        roller,
        attack,
        defence,
        damage,
        degrees=True,
        heavy_hit_extra=heavy_hit_extra,
        damage_bonus=damage_bonus,
        damage_divisor=damage_divisor,
        natural20_miss=natural20_miss,
        pinning_penalty=pinning_penalty,
        heavy_hit_margin=heavy_hit_margin,
        pinning_margin=pinning_margin,
        purpose=purpose,
    )
    setback, setback_rolls = _roll_setback(roller, attack.natural, purpose)
    if setback is None:
        return result
    return replace(result, setback=setback, rolls=result.rolls + setback_rolls)


@dataclass(frozen=True, slots=True)
class AreaAttackResult:
    """One area-fire roll compared with each target (R-ATK-8)."""

    natural: int
    total: int
    targets: dict[str, AttackResult]
    """Per target id, in the order the defences were given; their ``setback`` is None."""
    setback: Setback | None
    rolls: tuple[RollRecord, ...]
    """The attack roll, each target's damage rolls in target order, then the setback."""


def resolve_area_attack(
    roller: Roller,
    *,
    bonus: int,
    defences: Mapping[str, int],
    damage: DiceExpr,
    advantage: Advantage = Advantage.NONE,
    heavy_hit_extra: HeavyHitExtra = "dice_twice",
    damage_bonus: int = 0,
    damage_divisor: int = 1,
    natural20_miss: Natural20Miss = "pinning",
    pinning_penalty: int = DEFAULT_PINNING_PENALTY,
    heavy_hit_margin: int = HEAVY_HIT_MARGIN,
    pinning_margin: int = PINNING_MARGIN,
    area_degrees: bool = True,
    purpose: str = "area_attack",
    target_bonus: Mapping[str, int] | None = None,
) -> AreaAttackResult:
    """Area fire (R-ATK-8): one attack roll compared separately with each target's defence.

    With ``area_degrees`` (DEFAULT) each target gets its own degree of effect and its own
    damage roll. The 000 variant ``area_degrees=False`` has no degrees: every target whose
    defence the total reaches (margin ≥ 0) takes normal (HIT) damage, all others are MISSed,
    and natural 20 upgrades do not apply. Choosing the targets (area, hidden units) is the
    caller's business.
    """
    _check_natural20_miss(natural20_miss)
    _check_heavy_hit_extra(heavy_hit_extra)
    attack = roller.d20(purpose, advantage=advantage, modifier=bonus)
    rolls: tuple[RollRecord, ...] = (attack,)
    targets: dict[str, AttackResult] = {}
    for target, defence in defences.items():
        result = _against_target(
            roller,
            attack,
            defence,
            damage,
            extra=(target_bonus or {}).get(target, 0),
            degrees=area_degrees,
            heavy_hit_extra=heavy_hit_extra,
            damage_bonus=damage_bonus,
            damage_divisor=damage_divisor,
            natural20_miss=natural20_miss,
            pinning_penalty=pinning_penalty,
            heavy_hit_margin=heavy_hit_margin,
            pinning_margin=pinning_margin,
            purpose=f"{purpose}:{target}",
        )
        rolls += result.rolls[1:]
        targets[target] = result
    setback, setback_rolls = _roll_setback(roller, attack.natural, purpose)
    return AreaAttackResult(attack.natural, attack.total, targets, setback, rolls + setback_rolls)


def _against_target(
    roller: Roller,
    attack: RollRecord,
    defence: int,
    damage: DiceExpr,
    *,
    extra: int = 0,
    degrees: bool,
    heavy_hit_extra: HeavyHitExtra,
    damage_bonus: int,
    damage_divisor: int,
    natural20_miss: Natural20Miss,
    pinning_penalty: int,
    heavy_hit_margin: int,
    pinning_margin: int,
    purpose: str,
) -> AttackResult:
    """The attack roll ``attack`` against one defence: its effect, then its damage rolled
    (purposes ``purpose:damage``/``purpose:heavy_extra``); no setback, which is rolled once
    per attack after every target's damage. ``degrees=False`` is the area-fire variant with
    no degrees (R-ATK-8): HIT at margin ≥ 0, else MISS, no natural-20 upgrade or mark."""
    natural = attack.natural
    total = attack.total + extra
    margin = total - defence
    if degrees:
        effect = degree_of_effect(
            margin,
            natural,
            natural20_miss=natural20_miss,
            heavy_hit_margin=heavy_hit_margin,
            pinning_margin=pinning_margin,
        )
        marks = morale_marks_for(effect, natural, natural20_miss=natural20_miss)
    else:
        effect = Effect.HIT if margin >= 0 else Effect.MISS
        marks = 0
    amount, damage_rolls = roll_damage(
        roller,
        damage,
        effect,
        heavy_hit_extra=heavy_hit_extra,
        damage_bonus=damage_bonus,
        damage_divisor=damage_divisor,
        purpose=purpose,
    )
    return AttackResult(
        natural=natural,
        total=total,
        defence=defence,
        margin=margin,
        effect=effect,
        damage=amount,
        setback=None,
        rolls=(attack, *damage_rolls),
        pinning_penalty=pinning_penalty if effect is Effect.PINNING else 0,
        morale_marks=marks,
    )


def _roll_setback(
    roller: Roller, natural: int, purpose: str
) -> tuple[Setback | None, tuple[RollRecord, ...]]:
    """After a natural 1, the attacker's setback d6 (``purpose:setback``, R-ATK-6)."""
    if natural != 1:
        return None, ()
    roll = roller.roll(SETBACK_DIE, f"{purpose}:setback")
    return setback_for(roll.total), (roll,)


def apply_damage_type(
    amount: int,
    damage_type: DamageType | str,
    armoured: bool,
    *,
    frag_vs_armour: FragVsArmour = "half",
) -> int:
    """Damage after its type meets the target (R-ATK-9).

    FRAG against an armoured target: halved, rounded down (DEFAULT ``"half"``), or nothing
    (``"none"``). Every other combination does full damage.
    """
    if amount < 0:
        raise ValueError(f"damage cannot be negative, got {amount}")
    kind = DamageType(damage_type)
    if frag_vs_armour not in ("half", "none"):
        raise ValueError(f"frag_vs_armour must be 'half' or 'none', got {frag_vs_armour!r}")
    if kind is DamageType.FRAG and armoured:
        return amount // 2 if frag_vs_armour == "half" else 0
    return amount


def remaining_strength(strength: int, damage: int) -> int:
    """Strength after ``damage`` (R-ATK-10): never below 0; 0 means destroyed."""
    if damage < 0:
        raise ValueError(f"damage cannot be negative, got {damage}")
    return max(0, strength - damage)


def is_destroyed(strength: int) -> bool:
    """TK 0 = destroyed (R-ATK-10, DEFAULT: removed from the map)."""
    return strength <= 0


def _check_natural(natural: int) -> None:
    if not 1 <= natural <= 20:
        raise ValueError(f"a natural d20 shows 1..20, got {natural}")


def _check_natural20_miss(value: str) -> None:
    if value not in ("pinning", "morale_penalty"):
        raise ValueError(f"natural20_miss must be 'pinning' or 'morale_penalty', got {value!r}")


def _check_heavy_hit_extra(value: str) -> None:
    if value != "dice_twice":
        raise ValueError(f"heavy_hit_extra must be 'dice_twice', got {value!r}")
