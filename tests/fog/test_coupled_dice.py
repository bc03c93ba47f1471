"""The harness's coupled dice (tests/fog/harness.py): a roll made in one world only shifts
no other roll — neither another unit's roll of the same purpose nor the same units' roll in
another side turn (the false failure of ``red_hidden_orders`` pair 26, issue 8)."""

from __future__ import annotations

from typing import Any

from tests.fog.harness import CoupledRoller

_NS: dict[str, Any] = {"__name__": "taistelukentta._fog_probe"}
exec(  # a caller that looks like rules code holding the unit it rolls for
    "def roll_about(roller, unit, purpose):\n    return roller.d20(purpose).total\n", _NS
)
roll_about = _NS["roll_about"]

SEED = bytes(range(32))
UNITS = frozenset({f"R{i}" for i in range(1, 9)} | {"KRH"})


def test_a_roll_in_one_world_only_shifts_no_other_units_roll() -> None:
    for extra in UNITS - {"R2"}:
        a = CoupledRoller(SEED, turn=3, units=UNITS)
        b = CoupledRoller(SEED, turn=3, units=UNITS)
        roll_about(a, extra, "attack")  # world a only
        assert [roll_about(a, "R2", "attack") for _ in range(3)] == [
            roll_about(b, "R2", "attack") for _ in range(3)
        ]


def test_rolls_of_one_key_follow_each_other_and_the_turn_changes_them() -> None:
    a = CoupledRoller(SEED, turn=3, units=UNITS)
    same = [roll_about(a, "R2", "attack") for _ in range(12)]
    assert len(set(same)) > 1  # the count is part of the key
    # the counts are carried in the state from order to order ...
    again = CoupledRoller(SEED, a.getstate()["counts"], turn=3, units=UNITS)
    assert [roll_about(again, "R2", "attack") for _ in range(4)] == [
        roll_about(a, "R2", "attack") for _ in range(4)
    ]
    fresh = CoupledRoller(SEED, turn=3, units=UNITS)
    assert [roll_about(fresh, "R2", "attack") for _ in range(12)] == same
    # ... and dropped at a new side turn, whose rolls are its own
    later = CoupledRoller(SEED, a.getstate()["counts"], turn=4, units=UNITS)
    assert later.getstate()["counts"] == {}
    assert [roll_about(later, "R2", "attack") for _ in range(12)] != same


def test_a_roll_about_no_unit_is_keyed_by_its_purpose() -> None:
    a = CoupledRoller(SEED, turn=1, units=UNITS)
    b = CoupledRoller(SEED, turn=1, units=UNITS)
    roll_about(a, "R1", "strike:corner")  # about a unit: another key
    assert [roll_about(a, "no-unit", "strike:corner") for _ in range(3)] == [
        roll_about(b, "no-unit", "strike:corner") for _ in range(3)
    ]
    # two rolls about no unit of one purpose do follow each other
    c = CoupledRoller(SEED, turn=1, units=UNITS)
    roll_about(c, "no-unit", "strike:corner")
    assert [roll_about(c, "no-unit", "strike:corner") for _ in range(6)] != [
        roll_about(b, "no-unit", "strike:corner") for _ in range(6)
    ]
