"""Fire, damage, statuses and morale in the engine (R-ATK-*, R-TK-*, R-MOR-*, R-REC-7)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from taistelukentta.errors import IllegalOrderError
from taistelukentta.rules import GameState, Order, Phase, apply, check_order, legal_orders
from taistelukentta.rules.engine import new_game
from taistelukentta.rules.events import Event
from taistelukentta.rules.recon import ContactLevel

from .conftest import Dice, build, open_rows, with_contact, with_unit

SQUAD = "jaakariryhma"  # TT 2, weapon +2 (range 8), S 12, H 2, M 2, TK 10, L 7, d6
RED = "motorisoitu_jalkavakiryhma"  # TT 1, weapon +1, S 11, H 1, M 1, TK 9
BMP = "bmp2"


def to_fire_phase(st: GameState) -> GameState:
    for seat in st.seats(st.active):
        if seat not in st.done and st.phase == Phase.COMMAND:
            st, _ = apply(st, seat, Order.done())
    assert st.phase == Phase.FIRE
    return st


def end_turn(st: GameState) -> GameState:
    """Every seat of the active side says done until the turn passes."""
    side = st.active
    while st.active == side and not st.finished:
        seat = next(s for s in st.seats(side) if s not in st.done)
        st, _ = apply(st, seat, Order.done())
    return st


def duel(
    rows: list[str] | None = None,
    blue_cell: tuple[int, int] = (2, 3),
    red_cell: tuple[int, int] = (7, 3),
    red_card: str = RED,
    extra_blue: list[tuple[str, str, tuple[int, int]]] | None = None,
    extra_red: list[tuple[str, str, tuple[int, int]]] | None = None,
    elevation: list[list[int]] | None = None,
    options: dict[str, object] | None = None,
) -> GameState:
    sc = build(
        rows or open_rows(12, 7, ","),
        [("1R1", SQUAD, blue_cell), *(extra_blue or [])],
        [("R1", red_card, red_cell), *(extra_red or [])],
        elevation=elevation,
        options=options,
    )
    st = new_game(sc, 9)
    return with_contact(st, "blue", "R1", ContactLevel.SPOTTED)


def attack_event(events: list[Event]) -> Event:
    return next(e for e in events if e.kind == "attack")


def test_r_atk_1_fire_needs_a_spotted_target_in_sight_and_range() -> None:
    st = to_fire_phase(duel())
    assert Order.fire("1R1", "R1") in legal_orders(st, "pl1")
    known = with_contact(st, "blue", "R1", ContactLevel.KNOWN)
    with pytest.raises(IllegalOrderError, match="SPOTTED"):
        check_order(known, "pl1", Order.fire("1R1", "R1"))
    far = replace(duel(red_cell=(11, 3)), phase=Phase.FIRE)
    far = with_unit(far, "1R1", cell=(1, 3))
    far = with_contact(far, "blue", "R1", ContactLevel.SPOTTED)
    with pytest.raises(IllegalOrderError, match="out of range"):
        check_order(far, "pl1", Order.fire("1R1", "R1"))
    rows = open_rows(12, 7, ",")
    rows[3] = ",,,,B,,,,,,,"
    blind = replace(duel(rows=rows), phase=Phase.FIRE)
    with pytest.raises(IllegalOrderError, match="line of sight"):
        check_order(blind, "pl1", Order.fire("1R1", "R1"))


def test_r_kp_3_a_unit_that_moved_without_attack_order_cannot_fire() -> None:
    st = duel()
    st, _ = apply(st, "pl1", Order.move("1R1", (2, 4)))
    st, _ = apply(st, "pl1", Order.done())
    st, _ = apply(st, "co", Order.done())
    assert st.active == "red"  # nothing could fire: the fire phase passed


def test_r_atk_1_attack_order_moves_then_fires(dice: Dice) -> None:
    st = duel(red_cell=(10, 3))
    st, _ = apply(st, "pl1", Order.attack("1R1", "R1", (4, 3)))
    assert st.units["1R1"].cell == (4, 3)
    st = to_fire_phase(st)
    dice.script(10, 3, 15)  # 10 + 4 = 14 vs S 11 + field 1 = 12: HIT, damage 3; morale
    st, events = apply(st, "pl1", Order.fire("1R1", "R1"))
    ev = attack_event(events)
    assert ev.data["effect"] == "HIT" and st.units["R1"].strength == 9 - 3
    assert st.active == "red" and st.units["1R1"].fired  # the only firer: the turn ended
    again = replace(st, active="blue", phase=Phase.FIRE, done=frozenset())
    with pytest.raises(IllegalOrderError, match="already fired"):
        check_order(again, "pl1", Order.fire("1R1", "R1"))


def test_r_atk_2_attack_bonus_and_r_atk_3_defence(dice: Dice) -> None:
    elevation = [[0] * 12 for _ in range(7)]
    elevation[3][2] = 4  # the firer stands 4 contours above the target (R-TER-5)
    st = duel(elevation=elevation)
    st = with_unit(st, "1R1", shaken=st.turn_no, pinned=st.turn_no, pinning_penalty=2)
    st = to_fire_phase(st)
    dice.script(10)  # 10 + 2 + 2 + 2 - 2 - 2 = 12 vs 12: HIT
    dice.values.append(1)  # damage d6
    dice.values.append(15)  # R1 first-damage morale test: pass
    st, events = apply(st, "pl1", Order.fire("1R1", "R1"))
    ev = attack_event(events)
    assert ev.data["modifiers"] == {
        "skill": 2,
        "weapon": 2,
        "elevation": 2,
        "shaken": -st.scenario.options.shaken_attack_penalty,
        "pinned": -2,
    }
    assert ev.data["defence"] == 11 + 1  # S + field cover
    assert ev.data["total"] == 12 and ev.data["effect"] == "HIT"
    # R-MOR-2: SHAKEN clears after it attacks; the pinning penalty was used up
    unit = st.units["1R1"]
    assert unit.shaken is None and unit.pinned is None


def test_r_atk_4_pinning_gives_the_target_a_penalty(dice: Dice) -> None:
    st = to_fire_phase(duel())
    dice.script(6)  # 6 + 4 = 10 vs 12: margin -2 → PINNING
    st, events = apply(st, "pl1", Order.fire("1R1", "R1"))
    assert attack_event(events).data["effect"] == "PINNING"
    red = st.units["R1"]
    assert red.pinned is not None and red.pinning_penalty == st.scenario.options.pinning_penalty


@pytest.mark.parametrize(
    ("setup", "reason"),
    [
        ("suppressed", "suppressed"),
        ("confused", "confused"),
        ("flanked", "flanked"),
    ],
)
def test_r_atk_7_advantage(dice: Dice, setup: str, reason: str) -> None:
    extra = [("1R2", SQUAD, (9, 3)), ("1R3", SQUAD, (5, 3))] if setup == "flanked" else []
    st = duel(extra_blue=extra)
    if setup == "suppressed":
        st = with_unit(st, "R1", suppressed=st.turn_no, status_dc=12)
    if setup == "confused":
        st = with_unit(st, "R1", confused=True)
    st = to_fire_phase(st)
    # 2d20 keep 4: 8 vs 12 → PINNING; the turn ends: a SUPPRESSED R1 tests (1: fails, R-MOR-2)
    dice.script(3, 4, *([1] if setup == "suppressed" else []))
    st, events = apply(st, "pl1", Order.fire("1R1", "R1"))
    ev = attack_event(events)
    assert ev.data["advantage"] == "advantage"
    assert reason in ev.data["advantage_reasons"]
    assert ev.data["rolls"][0]["expr"] == "2d20kh1"
    assert not st.units["R1"].confused  # confusion is used up by the attack


def test_r_atk_7_fully_open_target() -> None:
    st = to_fire_phase(duel(rows=open_rows(12, 7, ".")))
    st, events = apply(st, "pl1", Order.fire("1R1", "R1"))
    assert "fully_open" in attack_event(events).data["advantage_reasons"]


def test_r_atk_9_frag_damage_halved_against_armour(dice: Dice) -> None:
    st = to_fire_phase(duel(red_card=BMP))
    dice.script(15, 5, 20)  # 15 + 4 = 19 vs S 14 + 1 = 15: HIT; d6 5 → 2; morale pass
    st, events = apply(st, "pl1", Order.fire("1R1", "R1"))
    ev = attack_event(events)
    assert ev.data["damage_type"] == "FRAG" and ev.data["damage"] == 2
    assert st.units["R1"].strength == st.units["R1"].max_strength - 2


def test_r_atk_10_destroyed_unit_is_removed_and_r_tk_2_neighbours_test(dice: Dice) -> None:
    st = duel(extra_red=[("R2", RED, (8, 3))])
    st = with_unit(st, "R1", strength=2)
    st = to_fire_phase(st)
    dice.script(10, 4, 19)  # HIT 4 destroys R1; R2 (adjacent friend) tests morale: pass
    st, events = apply(st, "pl1", Order.fire("1R1", "R1"))
    assert "R1" not in st.units and st.destroyed["red"] == ("R1",)
    assert "R1" not in st.contacts["blue"]
    morale = [e for e in events if e.kind == "morale"]
    assert [m.data["unit"] for m in morale] == ["R2"]
    assert morale[0].data["reason"] == "adjacent_destroyed"
    assert morale[0].data["dc"] == st.scenario.options.adjacent_destroyed_morale_dc


def test_r_tk_1_damaged_unit_moves_half_and_fires_a_smaller_die(dice: Dice) -> None:
    st = duel()
    st = with_unit(st, "1R1", strength=4)
    moves = [o for o in legal_orders(st, "pl1", recon_cells=False) if o.kind.value == "move"]
    assert max(abs(o.cell[0] - 2) for o in moves if o.cell) == 7 // 2
    st = to_fire_phase(st)
    dice.script(10, 2, 20)
    st, events = apply(st, "pl1", Order.fire("1R1", "R1"))
    assert attack_event(events).data["rolls"][1]["expr"] == "d4"


def test_r_tk_1_becoming_damaged_calls_a_morale_test(dice: Dice) -> None:
    st = duel()
    st = with_unit(st, "R1", strength=6, damaged_before=True)
    st = to_fire_phase(st)
    blue_turn = st.turn_no
    dice.script(10, 3, 2, 1)  # HIT 3: 6 → 3 < 4.5: DAMAGED; morale d20 2 + 1 = 3 vs 12 → SUPPRESSED
    # (the turn ends: R1's recovery test, R-MOR-2 004 reading, d20 1 fails)
    st, events = apply(st, "pl1", Order.fire("1R1", "R1"))
    morale = next(e for e in events if e.kind == "morale")
    assert morale.data["reason"] == "damaged"
    assert morale.data["dc"] == st.scenario.options.damaged_morale_dc
    assert morale.data["outcome"] == "SUPPRESSED"
    assert st.units["R1"].suppressed == blue_turn


def test_r_rec_7_firing_reveals_the_firer_as_known(dice: Dice) -> None:
    rows = open_rows(12, 7, ",")
    rows[3] = ",,F,,,,,,,,,"
    st = to_fire_phase(duel(rows=rows))
    assert "1R1" not in st.contacts["red"]
    dice.script(6)  # PINNING
    st, events = apply(st, "pl1", Order.fire("1R1", "R1"))
    contact = st.contacts["red"]["1R1"]
    assert contact.level == ContactLevel.KNOWN and contact.cell is None
    seen = attack_event(events).visible["red"]
    assert seen is not None and isinstance(seen["attacker"], dict)
    assert seen["attacker"]["card"] == SQUAD and "modifiers" not in seen
    assert seen["target"] == "R1"


def test_r_atk_6_natural_one_position_revealed(dice: Dice) -> None:
    rows = open_rows(12, 7, ",")
    rows[3] = ",,F,,,,,,,,,"
    st = to_fire_phase(duel(rows=rows))
    dice.script(1, 3)  # natural 1: MISS; setback d6 3 → position revealed
    st, events = apply(st, "pl1", Order.fire("1R1", "R1"))
    assert attack_event(events).data["setback"] == "POSITION_REVEALED"
    assert st.contacts["red"]["1R1"].level == ContactLevel.SPOTTED


SETBACK_FIELDS = ("jammed_turn", "comms_until", "confused")


@pytest.mark.parametrize(("d6", "setback"), [(1, "WEAPON_JAM"), (2, "WEAPON_JAM")])
def test_r_atk_6_weapon_jam_on_one_or_two(dice: Dice, d6: int, setback: str) -> None:
    st = to_fire_phase(duel())
    blue_turn = st.turn_no
    dice.script(1, d6)
    st, events = apply(st, "pl1", Order.fire("1R1", "R1"))
    assert attack_event(events).data["setback"] == setback
    unit = st.units["1R1"]
    # its main weapon cannot fire during Blue's next own turn (two side turns on)
    assert (unit.jammed_turn, unit.comms_until, unit.confused) == (blue_turn + 2, None, False)
    while st.turn_no < blue_turn + 2:
        st = end_turn(st)
    with pytest.raises(IllegalOrderError, match="jammed"):
        check_order(st, "pl1", Order.attack("1R1", "R1"))


def test_r_atk_6_comms_break_on_five(dice: Dice) -> None:
    st = to_fire_phase(duel())
    blue_turn = st.turn_no
    dice.script(1, 5)
    st, events = apply(st, "pl1", Order.fire("1R1", "R1"))
    assert attack_event(events).data["setback"] == "COMMS_BREAK"
    unit = st.units["1R1"]
    # until its next own turn starts (comms_break_until = next_own_turn_start)
    assert (unit.jammed_turn, unit.comms_until, unit.confused) == (None, blue_turn + 1, False)


@pytest.mark.parametrize("d6", [3, 4])
def test_r_atk_6_position_revealed_on_three_or_four(dice: Dice, d6: int) -> None:
    rows = open_rows(12, 7, ",")
    rows[3] = ",,F,,,,,,,,,"
    st = to_fire_phase(duel(rows=rows))
    dice.script(1, d6)
    st, events = apply(st, "pl1", Order.fire("1R1", "R1"))
    assert attack_event(events).data["setback"] == "POSITION_REVEALED"
    assert st.contacts["red"]["1R1"].level == ContactLevel.SPOTTED
    unit = st.units["1R1"]
    assert (unit.jammed_turn, unit.comms_until, unit.confused) == (None, None, False)


def test_r_atk_6_confusion_on_six_gives_the_next_attack_advantage(dice: Dice) -> None:
    st = to_fire_phase(duel())
    dice.script(1, 6)
    st, events = apply(st, "pl1", Order.fire("1R1", "R1"))
    assert attack_event(events).data["setback"] == "CONFUSION"
    unit = st.units["1R1"]
    assert (unit.jammed_turn, unit.comms_until, unit.confused) == (None, None, True)
    assert st.active == "red"  # Blue's fire phase ended by itself; R1 fires back
    st = with_contact(st, "red", "1R1", ContactLevel.SPOTTED)
    st = to_fire_phase(st)
    dice.script(2, 3)  # advantage: two d20, the higher kept
    st, events = apply(st, "gm", Order.fire("R1", "1R1"))
    ev = attack_event(events).data
    assert ev["advantage"] == "advantage" and "confused" in ev["advantage_reasons"]
    assert ev["natural"] == 3
    assert st.units["1R1"].confused is False  # used up


def test_r_atk_6_jammed_weapon_cannot_fire_next_own_turn() -> None:
    st = duel()
    st = with_unit(st, "1R1", jammed_turn=st.turn_no)
    with pytest.raises(IllegalOrderError, match="jammed"):
        check_order(st, "pl1", Order.attack("1R1", "R1"))


def test_r_mor_2_suppressed_unit_cannot_move_or_act_but_can_be_rallied() -> None:
    st = duel()
    st = with_unit(st, "1R1", suppressed=0, status_dc=12)
    with pytest.raises(IllegalOrderError, match="SUPPRESSED"):
        check_order(st, "pl1", Order.move("1R1", (2, 5)))
    with pytest.raises(IllegalOrderError, match="SUPPRESSED"):
        check_order(st, "pl1", Order.attack("1R1", "R1"))
    with pytest.raises(IllegalOrderError, match="SUPPRESSED"):
        check_order(st, "pl1", Order.recon("1R1", (5, 5)))
    st, _ = apply(st, "pl1", Order.rally("1R1"))
    assert st.units["1R1"].suppressed is None
    assert st.kp["pl1"] == st.scenario.options.kp_platoon_leader - st.scenario.options.kp_rally
    with pytest.raises(IllegalOrderError, match="neither"):
        check_order(st, "pl1", Order.rally("1R1"))


@pytest.mark.parametrize(("d20", "recovers"), [(10, True), (9, False), (20, True), (2, False)])
def test_r_mor_2_suppressed_recovers_on_a_passed_test_at_end_of_own_turn(
    dice: Dice, d20: int, recovers: bool
) -> None:
    st = duel()
    st = with_unit(st, "1R1", suppressed=0, status_dc=12)
    dice.script(d20)  # d20 + M 2 against the status DC 12: 10 passes exactly, 9 fails
    st, _ = apply(st, "pl1", Order.done())
    st, events = apply(st, "co", Order.done())
    tests = [e for e in events if e.kind == "morale" and e.data["reason"] == "suppressed_recovery"]
    assert [(t.data["unit"], t.data["dc"], t.data["total"]) for t in tests] == [
        ("1R1", 12, d20 + 2)
    ]
    assert tests[0].data["outcome"] == ("PASS" if recovers else "FAIL")
    assert (st.units["1R1"].suppressed is None) == recovers
    assert dice.remaining == []


def test_r_turn_3_status_inflicted_in_own_turn_lasts_through_next_own_turn() -> None:
    # RULES.md's reading, kept as a choice (the 004 default: tests/rules_readings).
    st = duel(options={"shaken_clears": "own_turn_end"})
    now = st.turn_no
    st = with_unit(st, "1R1", shaken=now)
    st = with_unit(st, "R1", shaken=now)  # R1 was shaken during Blue's turn
    st = end_turn(st)
    assert st.active == "red"
    assert st.units["1R1"].shaken == now  # inflicted in its own turn: kept
    st = end_turn(st)
    assert st.units["R1"].shaken is None  # through its own next turn: cleared
    st = end_turn(st)
    assert st.units["1R1"].shaken is None


def retreat_state() -> GameState:
    rows = ["FFF........." for _ in range(7)]
    sc = build(rows, [("1R1", SQUAD, (7, 3))], [("R1", RED, (11, 3))], first_side="red", rounds=2)
    st = new_game(sc, 3)
    st = with_unit(st, "1R1", retreating=0, status_dc=12)
    return with_contact(st, "blue", "R1", ContactLevel.SPOTTED)


def test_r_mor_5_retreating_unit_runs_away_at_its_turn_start(dice: Dice) -> None:
    st = retreat_state()
    st, events = apply(st, "gm", Order.done())  # Red's turn ends; Blue's starts
    move = next(e for e in events if e.kind == "move" and e.data["unit"] == "1R1")
    assert move.data["kind"] == "retreat"
    unit = st.units["1R1"]
    assert unit.cell[0] < 7 and st.scenario.map.cover_at(unit.cell) >= 3  # into the wood
    orders = [o for o in legal_orders(st, "pl1") if o.unit == "1R1"]
    assert {o.kind.value for o in orders} == {"rally"}  # no other order while RETREATING
    with pytest.raises(IllegalOrderError, match="RETREATING"):
        check_order(st, "pl1", Order.defend("1R1"))
    # R-MOR-5 recovery: in cover ≥ 3 and no enemy sees it at the end of its turn
    st, _ = apply(st, "pl1", Order.done())
    st, _ = apply(st, "co", Order.done())
    assert st.units["1R1"].retreating is None


def test_r_mor_5_rally_ends_retreat() -> None:
    st = retreat_state()
    st, _ = apply(st, "gm", Order.done())
    st, _ = apply(st, "pl1", Order.rally("1R1"))
    assert st.units["1R1"].retreating is None


def test_r_ter_5_elevation_modifier_comes_from_the_options(dice: Dice) -> None:
    elevation = [[0] * 12 for _ in range(7)]
    elevation[3][7] = 3  # the target stands 3 contours above the firer
    sc = build(
        open_rows(12, 7, ","),
        [("1R1", SQUAD, (2, 3))],
        [("R1", RED, (7, 3))],
        elevation=elevation,
        options={"elevation_advantage_contours": 3, "elevation_bonus": 1},
    )
    st = with_contact(new_game(sc, 9), "blue", "R1", ContactLevel.SPOTTED)
    st = to_fire_phase(st)
    dice.script(6)  # 6 + 4 - 1 = 9 vs 12: PINNING
    st, events = apply(st, "pl1", Order.fire("1R1", "R1"))
    assert attack_event(events).data["modifiers"]["elevation"] == -1
