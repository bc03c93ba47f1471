"""The seeded roller and its log (R-DICE-2, R-DICE-4, R-DICE-6)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taistelukentta.dice.expr import DiceExpr
from taistelukentta.dice.roller import Advantage, Roller, RollRecord
from taistelukentta.dice.scripted import ScriptedDiceError, ScriptedRoller
from taistelukentta.errors import ArgumentError


def _script(roller: Roller) -> list[tuple[str, int]]:
    out = []
    for i in range(30):
        out.append(("d20", roller.d20(f"a{i}").total))
        out.append(("2d6+1", roller.roll("2d6+1", f"b{i}").total))
    return out


def test_r_dice_2_same_seed_same_rolls() -> None:
    assert _script(Roller(42)) == _script(Roller(42))
    assert _script(Roller(42)) != _script(Roller(43))


def test_r_dice_2_every_roll_is_logged_with_purpose_dice_and_modifier() -> None:
    roller = Roller(7)
    record = roller.roll(DiceExpr.parse("3d10+2"), "k9 damage", modifier=1)
    assert roller.log == [record]
    assert record.purpose == "k9 damage"
    assert record.expr == "3d10"
    assert len(record.dice) == 3 and all(1 <= d <= 10 for d in record.dice)
    assert record.kept == record.dice
    assert record.modifier == 3
    assert record.total == sum(record.dice) + 3
    assert record.seq == 1
    assert roller.d20("x").seq == 2


def test_r_dice_2_drain_returns_only_new_records() -> None:
    roller = Roller(1)
    first = roller.d20("a")
    assert roller.drain() == [first]
    assert roller.drain() == []
    second = roller.roll("d6", "b")
    third = roller.roll("d6", "c")
    assert roller.drain() == [second, third]
    assert roller.log == [first, second, third]


def test_r_dice_2_state_is_json_and_continues_the_same_rolls() -> None:
    roller = Roller(2026)
    for _ in range(5):
        roller.d20("warm-up")
    state = json.loads(json.dumps(roller.getstate()))
    copy = Roller.from_state(state)
    assert [copy.d20("x").total for _ in range(50)] == [roller.d20("x").total for _ in range(50)]
    assert copy.log[0].seq == 6


def test_r_dice_2_broken_state_is_an_argument_error() -> None:
    state = Roller(1).getstate()
    del state["rng"]
    with pytest.raises(ArgumentError, match="rng"):
        Roller.from_state(state)


def test_r_dice_2_seed_must_be_an_integer() -> None:
    with pytest.raises(ArgumentError, match="seed"):
        Roller("12")  # type: ignore[arg-type]


@settings(max_examples=50)
@given(seed=st.integers(0, 2**32), purpose=st.text(max_size=10), secret=st.booleans())
def test_r_dice_2_record_round_trips_through_json(seed: int, purpose: str, secret: bool) -> None:
    record = Roller(seed).d20(purpose, advantage=Advantage.ADVANTAGE, modifier=3, secret=secret)
    again = RollRecord.from_dict(json.loads(json.dumps(record.to_dict())))
    assert again == record


def test_r_dice_2_record_with_wrong_total_is_rejected() -> None:
    data = Roller(3).roll("d6", "x").to_dict()
    data["total"] += 1
    with pytest.raises(ArgumentError, match="total"):
        RollRecord.from_dict(data)


def test_r_dice_4_advantage_keeps_higher() -> None:
    record = ScriptedRoller([4, 17]).d20("attack", advantage=Advantage.ADVANTAGE, modifier=2)
    assert record.dice == (4, 17)
    assert record.kept == (17,)
    assert record.natural == 17
    assert record.total == 19
    assert record.expr == "2d20kh1"


def test_r_dice_4_disadvantage_keeps_lower() -> None:
    record = ScriptedRoller([4, 17]).d20("attack", advantage=Advantage.DISADVANTAGE)
    assert record.kept == (4,)
    assert record.natural == 4
    assert record.expr == "2d20kl1"


def test_r_dice_4_both_cancel_and_do_not_stack() -> None:
    assert Advantage.of(True, True) is Advantage.NONE
    assert Advantage.of(False, False) is Advantage.NONE
    assert Advantage.of(True, False) is Advantage.ADVANTAGE
    assert Advantage.of(False, True) is Advantage.DISADVANTAGE
    roller = ScriptedRoller([9])
    record = roller.d20("x", advantage=Advantage.of(True, True))
    assert record.dice == (9,) and roller.remaining == []


def test_r_dice_4_natural_is_the_kept_die_under_advantage() -> None:
    record = ScriptedRoller([1, 20]).d20("x", advantage=Advantage.DISADVANTAGE)
    assert record.natural == 1


@settings(max_examples=30)
@given(seed=st.integers(0, 2**32))
def test_r_dice_4_advantage_kept_die_is_max_of_both(seed: int) -> None:
    roller = Roller(seed)
    for _ in range(20):
        adv = roller.d20("a", advantage=Advantage.ADVANTAGE)
        dis = roller.d20("d", advantage=Advantage.DISADVANTAGE)
        assert adv.kept == (max(adv.dice),)
        assert dis.kept == (min(dis.dice),)


def test_r_dice_6_secret_rolls_are_logged_and_flagged() -> None:
    roller = Roller(5)
    public = roller.roll("d6", "visible")
    secret = roller.roll("d6", "off-board delay", secret=True)
    assert roller.log == [public, secret]
    assert secret.secret and not public.secret
    assert RollRecord.from_dict(secret.to_dict()).secret


def test_scripted_roller_refuses_impossible_values() -> None:
    with pytest.raises(ScriptedDiceError, match="d6"):
        ScriptedRoller([7]).roll("d6", "x")
    with pytest.raises(ScriptedDiceError, match="ran out"):
        ScriptedRoller([]).d20("x")
