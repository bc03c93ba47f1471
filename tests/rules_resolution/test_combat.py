"""Attack resolution (R-ATK-2…10) with scripted dice."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from taistelukentta.dice.expr import DiceExpr
from taistelukentta.dice.roller import Advantage, Roller
from taistelukentta.dice.scripted import ScriptedRoller
from taistelukentta.rules.combat import (
    DamageType,
    Effect,
    Setback,
    apply_damage_type,
    degree_of_effect,
    is_destroyed,
    remaining_strength,
    resolve_area_attack,
    resolve_attack,
    setback_for,
)

D6 = DiceExpr(1, 6)


def test_r_atk_2_total_is_d20_plus_every_bonus() -> None:
    result = resolve_attack(ScriptedRoller([11, 4]), bonus=5, defence=14, damage=D6)
    assert result.natural == 11
    assert result.total == 16
    assert result.rolls[0].modifier == 5


def test_r_atk_3_margin_is_total_minus_defence() -> None:
    result = resolve_attack(ScriptedRoller([10, 2]), bonus=2, defence=9, damage=D6)
    assert result.defence == 9
    assert result.margin == 3


@pytest.mark.parametrize(
    ("margin", "effect"),
    [
        (12, Effect.HEAVY_HIT),
        (5, Effect.HEAVY_HIT),
        (4, Effect.HIT),
        (0, Effect.HIT),
        (-1, Effect.PINNING),
        (-4, Effect.PINNING),
        (-5, Effect.MISS),
        (-15, Effect.MISS),
    ],
)
def test_r_atk_4_degree_of_effect_table(margin: int, effect: Effect) -> None:
    assert degree_of_effect(margin, 10) is effect


def test_r_atk_4_heavy_hit_margin() -> None:
    # d20 14 + 3 = 17 vs 12: margin +5 → heavy hit; damage d6 rolled twice (4 + 6).
    result = resolve_attack(ScriptedRoller([14, 4, 6]), bonus=3, defence=12, damage=D6)
    assert result.effect is Effect.HEAVY_HIT
    assert result.damage == 10
    assert [r.purpose for r in result.rolls] == ["attack", "attack:damage", "attack:heavy_extra"]


def test_r_atk_4_heavy_hit_extra_repeats_dice_not_flat_modifier() -> None:
    damage = DiceExpr.parse("2d4+1")
    result = resolve_attack(
        ScriptedRoller([20, 1, 2, 3, 4]), bonus=0, defence=10, damage=damage, damage_bonus=2
    )
    assert result.effect is Effect.HEAVY_HIT
    assert result.rolls[2].expr == "2d4"
    assert result.damage == (1 + 2 + 1) + (3 + 4) + 2


def test_r_atk_4_hit_damage_is_one_roll_plus_bonus() -> None:
    result = resolve_attack(ScriptedRoller([12, 5]), bonus=0, defence=10, damage=D6, damage_bonus=1)
    assert result.effect is Effect.HIT
    assert result.damage == 6
    assert len(result.rolls) == 2


def test_r_atk_4_pinning_does_no_damage_and_carries_penalty() -> None:
    roller = ScriptedRoller([8])
    result = resolve_attack(roller, bonus=0, defence=10, damage=D6)
    assert result.effect is Effect.PINNING
    assert result.damage == 0
    assert result.pinning_penalty == 2
    assert len(roller.log) == 1
    custom = resolve_attack(ScriptedRoller([8]), bonus=0, defence=10, damage=D6, pinning_penalty=3)
    assert custom.pinning_penalty == 3


def test_r_atk_4_miss_does_nothing() -> None:
    result = resolve_attack(ScriptedRoller([3]), bonus=0, defence=10, damage=D6)
    assert result.effect is Effect.MISS
    assert result.damage == 0 and result.pinning_penalty == 0 and result.setback is None


def test_r_atk_4_damage_never_negative() -> None:
    result = resolve_attack(
        ScriptedRoller([12, 1]), bonus=0, defence=10, damage=D6, damage_bonus=-3
    )
    assert result.damage == 0


def test_r_atk_5_natural_20_hit_is_heavy_hit() -> None:
    result = resolve_attack(ScriptedRoller([20, 2, 3]), bonus=0, defence=20, damage=D6)
    assert result.margin == 0
    assert result.effect is Effect.HEAVY_HIT
    assert result.damage == 5


def test_r_atk_5_natural_20_miss_is_at_least_pinning() -> None:
    result = resolve_attack(ScriptedRoller([20]), bonus=0, defence=30, damage=D6)
    assert result.margin == -10
    assert result.effect is Effect.PINNING
    assert result.pinning_penalty == 2
    assert result.morale_marks == 0


def test_r_atk_5_variant_morale_penalty_keeps_the_miss() -> None:
    result = resolve_attack(
        ScriptedRoller([20]), bonus=0, defence=30, damage=D6, natural20_miss="morale_penalty"
    )
    assert result.effect is Effect.MISS
    assert result.morale_marks == 1
    close = resolve_attack(
        ScriptedRoller([20]), bonus=0, defence=22, damage=D6, natural20_miss="morale_penalty"
    )
    assert close.effect is Effect.PINNING and close.morale_marks == 1


def test_r_atk_5_natural_20_can_still_fail_to_hit() -> None:
    assert degree_of_effect(-1, 20) is Effect.PINNING
    assert not degree_of_effect(-1, 20).hits


@given(margin=st.integers(-40, 40), natural=st.integers(2, 19))
def test_r_atk_5_only_natural_20_changes_the_table(margin: int, natural: int) -> None:
    plain = degree_of_effect(margin, natural)
    assert degree_of_effect(margin, natural, natural20_miss="morale_penalty") is plain
    upgraded = degree_of_effect(margin, 20)
    order = [Effect.MISS, Effect.PINNING, Effect.HIT, Effect.HEAVY_HIT]
    assert order.index(upgraded) >= order.index(plain)


@pytest.mark.parametrize(
    ("d6", "setback"),
    [
        (1, Setback.WEAPON_JAM),
        (2, Setback.WEAPON_JAM),
        (3, Setback.POSITION_REVEALED),
        (4, Setback.POSITION_REVEALED),
        (5, Setback.COMMS_BREAK),
        (6, Setback.CONFUSION),
    ],
)
def test_r_atk_6_setback_table(d6: int, setback: Setback) -> None:
    assert setback_for(d6) is setback
    result = resolve_attack(ScriptedRoller([1, d6]), bonus=0, defence=10, damage=D6)
    assert result.setback is setback
    assert result.rolls[-1].purpose == "attack:setback"


def test_r_atk_6_natural_1_counts_as_one_plus_bonuses_and_can_hit() -> None:
    roller = ScriptedRoller([1, 3, 4])
    result = resolve_attack(roller, bonus=12, defence=10, damage=D6)
    assert result.total == 13
    assert result.effect is Effect.HIT
    assert result.damage == 3
    assert result.setback is Setback.POSITION_REVEALED
    assert roller.remaining == []


def test_r_atk_6_no_setback_without_natural_1() -> None:
    result = resolve_attack(ScriptedRoller([2]), bonus=0, defence=10, damage=D6)
    assert result.setback is None


def test_r_atk_7_advantage_reaches_the_attack_roll() -> None:
    adv = resolve_attack(
        ScriptedRoller([3, 15, 2]), bonus=0, defence=14, damage=D6, advantage=Advantage.ADVANTAGE
    )
    assert adv.natural == 15 and adv.effect is Effect.HIT
    dis = resolve_attack(
        ScriptedRoller([3, 15]), bonus=0, defence=14, damage=D6, advantage=Advantage.DISADVANTAGE
    )
    assert dis.natural == 3 and dis.effect is Effect.MISS


def test_r_atk_8_area_fire_one_roll_each_target_its_own_degree() -> None:
    roller = ScriptedRoller([15, 2, 3, 4])
    result = resolve_area_attack(
        roller,
        bonus=2,
        defences={"a": 10, "b": 15, "c": 18, "d": 30},
        damage=D6,
    )
    assert result.total == 17
    assert [r.purpose for r in roller.log].count("area_attack") == 1
    assert result.targets["a"].effect is Effect.HEAVY_HIT
    assert result.targets["a"].damage == 2 + 3
    assert result.targets["b"].effect is Effect.HIT
    assert result.targets["b"].damage == 4
    assert result.targets["c"].effect is Effect.PINNING
    assert result.targets["d"].effect is Effect.MISS
    assert roller.remaining == []


def test_r_atk_8_variant_no_degrees_every_beaten_unit_takes_normal_damage() -> None:
    roller = ScriptedRoller([15, 2, 5])
    result = resolve_area_attack(
        roller,
        bonus=2,
        defences={"a": 10, "b": 17, "c": 18},
        damage=D6,
        area_degrees=False,
    )
    assert result.targets["a"].effect is Effect.HIT and result.targets["a"].damage == 2
    assert result.targets["b"].effect is Effect.HIT and result.targets["b"].damage == 5
    assert result.targets["c"].effect is Effect.MISS and result.targets["c"].pinning_penalty == 0


def test_r_atk_8_area_natural_1_one_setback_for_the_attacker() -> None:
    result = resolve_area_attack(
        ScriptedRoller([1, 6]), bonus=0, defences={"a": 10, "b": 12}, damage=D6
    )
    assert result.setback is Setback.CONFUSION
    assert all(t.setback is None for t in result.targets.values())


@pytest.mark.parametrize(
    ("amount", "kind", "armoured", "option", "expected"),
    [
        (7, DamageType.FRAG, False, "half", 7),
        (7, DamageType.FRAG, True, "half", 3),
        (7, DamageType.FRAG, True, "none", 0),
        (7, DamageType.AT, True, "half", 7),
        (7, DamageType.AT, False, "half", 7),
        (1, "FRAG", True, "half", 0),
    ],
)
def test_r_atk_9_damage_type(
    amount: int, kind: DamageType | str, armoured: bool, option: str, expected: int
) -> None:
    assert apply_damage_type(amount, kind, armoured, frag_vs_armour=option) == expected  # type: ignore[arg-type]


def test_r_atk_10_damage_reduces_strength_zero_destroys() -> None:
    assert remaining_strength(10, 4) == 6
    assert not is_destroyed(6)
    assert remaining_strength(3, 5) == 0
    assert is_destroyed(remaining_strength(3, 5))


@given(seed=st.integers(0, 2**32), bonus=st.integers(-5, 15), defence=st.integers(5, 25))
def test_r_atk_4_result_is_consistent_with_its_rolls(seed: int, bonus: int, defence: int) -> None:
    roller = Roller(seed)
    result = resolve_attack(roller, bonus=bonus, defence=defence, damage=DiceExpr.parse("2d4"))
    assert list(result.rolls) == roller.log
    assert result.margin == result.natural + bonus - defence
    assert result.effect is degree_of_effect(result.margin, result.natural)
    assert (result.damage > 0) <= result.effect.hits
    assert (result.setback is not None) == (result.natural == 1)


def test_r_atk_4_margins_are_parameters() -> None:
    assert degree_of_effect(4, 10, heavy_hit_margin=4) is Effect.HEAVY_HIT
    assert degree_of_effect(-5, 10, pinning_margin=-6) is Effect.PINNING
    assert degree_of_effect(-7, 10, pinning_margin=-6) is Effect.MISS
    result = resolve_attack(
        ScriptedRoller([13, 2, 2]), bonus=0, defence=10, damage=D6, heavy_hit_margin=3
    )
    assert result.effect is Effect.HEAVY_HIT and result.damage == 4
    with pytest.raises(ValueError, match="pinning_margin"):
        degree_of_effect(0, 10, pinning_margin=1)


@given(
    seed=st.integers(0, 2**32),
    bonus=st.integers(-5, 15),
    defence=st.integers(5, 25),
    natural20_miss=st.sampled_from(["pinning", "morale_penalty"]),
)
def test_r_atk_8_one_target_area_attack_matches_a_single_attack(
    seed: int, bonus: int, defence: int, natural20_miss: str
) -> None:
    """With degrees (DEFAULT), area fire against one target is an ordinary attack (R-ATK-4…6),
    the setback on the area result instead of the target's."""
    damage = DiceExpr.parse("2d4+1")
    single = resolve_attack(
        Roller(seed),
        bonus=bonus,
        defence=defence,
        damage=damage,
        natural20_miss=natural20_miss,  # type: ignore[arg-type]
    )
    area = resolve_area_attack(
        Roller(seed),
        bonus=bonus,
        defences={"t": defence},
        damage=damage,
        natural20_miss=natural20_miss,  # type: ignore[arg-type]
    )
    target = area.targets["t"]
    assert target.setback is None and area.setback is single.setback
    same = ("natural", "total", "margin", "effect", "damage", "pinning_penalty", "morale_marks")
    assert {k: getattr(target, k) for k in same} == {k: getattr(single, k) for k in same}
    assert [r.dice for r in area.rolls] == [r.dice for r in single.rolls]
