"""004 readings of status durations where RULES.md read them otherwise (docs/rules-readings.md):
R-ATK-6 communications break, R-MOR-2 SHAKEN and SUPPRESSED at the end of the turn."""

from __future__ import annotations

from typing import Any, cast

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from taistelukentta.content.options import load_options, spec_by_name
from taistelukentta.errors import IllegalOrderError
from taistelukentta.rules import GameState, Order, Phase, apply, check_order
from taistelukentta.rules.company import tactic_order
from taistelukentta.rules.context import Tx
from taistelukentta.rules.engine import new_game
from taistelukentta.rules.events import Event
from taistelukentta.rules.recon import ContactLevel
from taistelukentta.rules.status import comms_break_until
from tests.engine.conftest import Dice, build, open_rows, with_contact, with_unit

SQUAD = "jaakariryhma"  # TT 2, weapon +2 (range 8), S 12, M 2, TK 10
RED = "motorisoitu_jalkavakiryhma"  # TT 1, weapon +1, S 11, M 1, TK 9


def duel(options: dict[str, Any] | None = None) -> GameState:
    """Blue squad 1R1 (seat pl1) and the CO unit KP (seat co) near Red's R1; all spotted."""
    sc = build(
        open_rows(12, 7, ","),
        [("1R1", SQUAD, (2, 3))],
        [("R1", RED, (7, 3))],
        co_cell=(3, 4),
        options=options,
    )
    state = new_game(sc, 9)
    state = with_contact(state, "blue", "R1", ContactLevel.SPOTTED)
    state = with_contact(state, "red", "1R1", ContactLevel.SPOTTED)
    return with_contact(state, "red", "KP", ContactLevel.SPOTTED)


def to_fire_phase(state: GameState) -> GameState:
    for seat in state.seats(state.active):
        if seat not in state.done and state.phase == Phase.COMMAND:
            state, _ = apply(state, seat, Order.done())
    assert state.phase == Phase.FIRE
    return state


def end_turn(state: GameState) -> GameState:
    side = state.active
    while state.active == side and not state.finished:
        seat = next(s for s in state.seats(side) if s not in state.done)
        state, _ = apply(state, seat, Order.done())
    return state


def attack(events: list[Event]) -> Event:
    return next(e for e in events if e.kind == "attack")


# --------------------------------------------------------------------------- R-ATK-6


def test_r_atk_6_comms_break_option_defaults_to_own_turn_start() -> None:
    spec = spec_by_name("comms_break_until")
    assert spec is not None and spec.rule == "R-ATK-6"
    assert spec.value == "next_own_turn_start"
    assert spec.choices == ("next_own_turn_start", "next_turn_start", "next_own_turn_end")


@pytest.mark.parametrize(
    ("mode", "extra"),
    [("next_turn_start", 0), ("next_own_turn_start", 1), ("next_own_turn_end", 2)],
)
def test_r_atk_6_comms_break_length_by_option(dice: Dice, mode: str, extra: int) -> None:
    state = to_fire_phase(duel({"comms_break_until": mode}))
    blue_turn = state.turn_no
    dice.script(1, 5)  # natural 1 → MISS; setback d6 5 → communications break
    state, events = apply(state, "co", Order.fire("KP", "R1"))
    assert attack(events).data["setback"] == "COMMS_BREAK"
    assert state.units["KP"].comms_until == blue_turn + extra


def _co_fires_a_natural_1_comms_break(dice: Dice, options: dict[str, Any] | None) -> GameState:
    """KP rolls a comms break in Blue's fire phase; then to Blue's next command phase."""
    state = to_fire_phase(duel(options))
    dice.script(1, 5)
    state, _ = apply(state, "co", Order.fire("KP", "R1"))
    while state.active == "blue":
        state = end_turn(state)
    state = end_turn(state)  # Red's turn passes
    assert state.active == "blue" and state.phase == Phase.COMMAND
    return state


def test_r_atk_6_comms_break_is_over_in_the_next_own_turn(dice: Dice) -> None:
    """004: "seuraavan vuoron alkuun asti" — the CO may use a tactic again in its next turn."""
    state = _co_fires_a_natural_1_comms_break(dice, None)
    check_order(state, "co", tactic_order("sitova", seat="pl1"))


def test_r_atk_6_rules_md_reading_still_available(dice: Dice) -> None:
    state = _co_fires_a_natural_1_comms_break(dice, {"comms_break_until": "next_own_turn_end"})
    with pytest.raises(IllegalOrderError, match="communications break"):
        check_order(state, "co", tactic_order("sitova", seat="pl1"))


class _FakeTx:
    def __init__(self, turn_no: int, active: str, mode: str) -> None:
        self.turn_no = turn_no
        self.active = active
        self.opts = load_options(overrides={"comms_break_until": mode})

    def next_own_turn(self, side: str) -> int:
        return self.turn_no + (2 if self.active == side else 1)


@settings(max_examples=60, deadline=None)
@given(
    turn_no=st.integers(min_value=1, max_value=60),
    active=st.sampled_from(["blue", "red"]),
    side=st.sampled_from(["blue", "red"]),
)
def test_r_atk_6_comms_break_never_longer_than_rules_md(
    turn_no: int, active: str, side: str
) -> None:
    """The 004 readings end no later than RULES.md's and never reach into the unit's next own
    turn; every reading covers at least the rest of this turn."""
    ends = {
        mode: comms_break_until(cast(Tx, _FakeTx(turn_no, active, mode)), cast(Any, side))
        for mode in ("next_turn_start", "next_own_turn_start", "next_own_turn_end")
    }
    next_own = turn_no + (2 if active == side else 1)
    assert turn_no == ends["next_turn_start"] <= ends["next_own_turn_start"]
    assert ends["next_own_turn_start"] == next_own - 1 < ends["next_own_turn_end"] == next_own


# --------------------------------------------------------------------------- R-MOR-2 SHAKEN


def test_r_mor_2_literal_variant_shaken_clears_when_any_turn_ends() -> None:
    state = duel({"shaken_clears": "turn_end"})
    now = state.turn_no
    state = with_unit(state, "1R1", shaken=now)
    state = with_unit(state, "R1", shaken=now)  # shaken during Blue's turn
    state = end_turn(state)
    assert state.active == "red"
    assert state.units["1R1"].shaken is None  # own turn ended
    assert state.units["R1"].shaken is None  # the (enemy's) turn ended: 004 "vuoron päättyessä"


def test_r_mor_2_literal_variant_shaken_from_enemy_turn_no_penalty(dice: Dice) -> None:
    state = with_unit(duel({"shaken_clears": "turn_end"}), "R1", shaken=1)
    state = to_fire_phase(end_turn(state))
    assert state.active == "red"
    dice.script(10, 2, 20)  # R1: 10 + 2 = 12 vs 12 + 1 → PINNING (margin −1); no morale test
    state, events = apply(state, "gm", Order.fire("R1", "1R1"))
    assert "shaken" not in attack(events).data["modifiers"]


def test_r_mor_2_shaken_default_keeps_it_into_own_turn(dice: Dice) -> None:
    state = with_unit(duel(), "R1", shaken=1)
    state = to_fire_phase(end_turn(state))
    assert state.units["R1"].shaken == 1
    dice.script(10, 2, 20)
    state, events = apply(state, "gm", Order.fire("R1", "1R1"))
    assert attack(events).data["modifiers"]["shaken"] == -2


# --------------------------------------------------------------------------- R-MOR-2 SUPPRESSED


@settings(
    max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(d20=st.integers(min_value=1, max_value=20))
def test_r_mor_2_literal_variant_suppressed_tests_after_enemy_turn(dice: Dice, d20: int) -> None:
    """004 "Tila poistuu onnistuneella moraalitestillä vuoron lopussa": R1, suppressed in
    Blue's turn, tests (DC 12, M +1) when Blue's turn ends."""
    state = with_unit(duel({"suppressed_recovery": "turn_end"}), "R1", suppressed=1, status_dc=12)
    dice.script(d20)
    state = end_turn(state)
    assert state.active == "red"
    passed = d20 != 1 and d20 + 1 >= 12
    assert (state.units["R1"].suppressed is None) == passed


def test_r_mor_2_suppressed_default_tests_only_after_own_turn(dice: Dice) -> None:
    state = with_unit(duel(), "R1", suppressed=1)
    state = with_unit(state, "R1", status_dc=12)
    dice.script()  # no die may be rolled at the end of Blue's turn
    state = end_turn(state)
    assert state.active == "red" and state.units["R1"].suppressed == 1
    dice.script(15)  # end of Red's turn: 15 + 1 ≥ 12
    state = end_turn(state)
    assert state.units["R1"].suppressed is None
