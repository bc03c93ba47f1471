"""Minefields: R-MINE-1…5 and the mine search of R-REC-4 (rules/mines.py)."""

from __future__ import annotations

from typing import Any

import pytest

from taistelukentta.errors import IllegalOrderError, InvalidOrderError
from taistelukentta.rules import (
    GameState,
    Order,
    apply,
    check_order,
    legal_orders,
    new_game,
    parse_order,
    view_extras,
)
from taistelukentta.rules.context import cache_for
from taistelukentta.rules.mines import (
    BREACH,
    LAY,
    MODULE,
    breach_order,
    clear_order,
    is_immobilised,
    known_mines,
    lay_order,
    lay_type,
    mined_cells,
    rush_order,
    search_order,
)
from taistelukentta.rules.orders import OrderKind
from tests.engine.conftest import Dice
from tests.engine_mines.conftest import mined, pass_turn, to_fire_phase

AP_BOX = {"id": "f1", "type": "AP", "shape": "box", "at": [4, 3]}
AT_BOX = {"id": "f2", "type": "AT", "shape": "box", "at": [4, 3]}
WALL = {"id": "w", "type": "AP", "shape": "cells", "cells": [[4, y] for y in range(8)]}
FAR_RED = [("R1", "motorisoitu_jalkavakiryhma", (11, 0))]


def game(
    blue: list[tuple[str, str, tuple[int, int]]],
    fields: list[dict[str, Any]],
    *,
    red: list[tuple[str, str, tuple[int, int]]] | None = None,
    options: dict[str, Any] | None = None,
) -> GameState:
    return new_game(mined(blue, FAR_RED if red is None else red, fields, options=options), 1)


def kinds(events: list[Any]) -> list[str]:
    return [e.kind for e in events]


def seen_by(events: list[Any], side: str) -> list[str]:
    return [e.kind for e in events if e.visible.get(side) is not None]


def enter(st: GameState, uid: str = "1R1", dest: tuple[int, int] = (4, 3)) -> GameState:
    st, events = apply(st, "pl1", Order.move(uid, dest))
    move = next(e for e in events if e.kind == "move")
    assert move.data["stopped_by"] == "hook"
    return st


# --------------------------------------------------------------------------- R-MINE-1


def test_r_mine_1_scenario_fields_are_secret_and_known_to_their_owner() -> None:
    st = game([("1R1", "jaakariryhma", (3, 3))], [AP_BOX])
    assert set(mined_cells(st)) == {(4, 3), (5, 3), (4, 4), (5, 4)}
    assert view_extras(st, "blue").get(MODULE) is None  # Blue knows nothing
    red = view_extras(st, "red")[MODULE]
    assert sorted(tuple(k["cell"]) for k in red["known"]) == [(4, 3), (4, 4), (5, 3), (5, 4)]
    gm = view_extras(st, "gm")[MODULE]
    assert gm["fields"][0]["id"] == "f1" and len(gm["fields"][0]["cells"]) == 4
    placed = [e for e in st.events if e.kind == "minefields_placed"]
    assert placed and placed[0].visible.get("blue") is None


def test_r_mine_1_owner_units_pass_their_own_fields_by_default() -> None:
    red = [("R1", "motorisoitu_jalkavakiryhma", (8, 3))]
    st = game([("1R1", "jaakariryhma", (0, 0))], [WALL], red=red)
    st = pass_turn(st)
    st, _ = apply(st, "gm", Order.move("R1", (2, 3)))
    assert st.units["R1"].cell == (2, 3)
    st2 = game(
        [("1R1", "jaakariryhma", (0, 0))],
        [WALL],
        red=red,
        options={"mines_spare_owner": False},
    )
    st2 = pass_turn(st2)
    st2, _ = apply(st2, "gm", Order.move("R1", (2, 3)))
    assert st2.units["R1"].cell[0] == 4


# --------------------------------------------------------------------------- R-MINE-2


def test_r_mine_2_entering_stops_the_move_and_reveals_only_that_cell() -> None:
    st = game([("1R1", "jaakariryhma", (1, 3))], [WALL])
    st, events = apply(st, "pl1", Order.move("1R1", (7, 3)))
    cell = st.units["1R1"].cell
    assert cell[0] == 4
    assert next(e for e in events if e.kind == "move").data["stopped_by"] == "hook"
    assert known_mines(st, "blue") == {cell: "AP"}
    found = next(e for e in events if e.kind == "mine_found")
    assert found.visible["blue"] == {
        "unit": "1R1",
        "cell": list(cell),
        "type": "AP",
        "how": "entered",
    }
    assert found.visible.get("red") is None
    blue = view_extras(st, "blue")[MODULE]
    assert blue["known"] == [{"cell": list(cell), "type": "AP"}]
    assert blue["in_minefield"] == {"1R1": list(cell)}


def test_r_mine_2_the_unit_cannot_move_until_it_chooses() -> None:
    st = enter(game([("1R1", "jaakariryhma", (3, 3))], [AP_BOX]))
    listed = legal_orders(st, "pl1", unit="1R1")
    assert clear_order("1R1") in listed and rush_order("1R1") in listed
    assert not [o for o in listed if o.kind == OrderKind.MOVE]
    # The choice is not forced at the end of the turn: it waits for the next own turn.
    st = pass_turn(pass_turn(st))
    assert st.active == "blue"
    assert cache_for(st).movement(st.units["1R1"]) == 0
    with pytest.raises(IllegalOrderError):
        check_order(st, "pl1", Order.move("1R1", (3, 3)))
    listed = legal_orders(st, "pl1", unit="1R1")
    assert rush_order("1R1") in listed
    assert not [o for o in listed if o.kind == OrderKind.MOVE]


def test_r_mine_2_clear_and_rush_need_a_unit_in_a_minefield() -> None:
    st = game([("1R1", "jaakariryhma", (3, 3))], [AP_BOX])
    for order in (clear_order("1R1"), rush_order("1R1")):
        with pytest.raises(IllegalOrderError, match="has not stopped in a minefield"):
            check_order(st, "pl1", order)


def test_r_mine_2_variant_mine_triggers_immediately(dice: Dice) -> None:
    st = game(
        [("1R1", "jaakariryhma", (3, 3))],
        [AP_BOX],
        options={"mine_triggers_immediately": True},
    )
    dice.script(5, 20)  # 1d8 damage; one morale test (R-MOR-6: mine DC 14 > first 12)
    st, events = apply(st, "pl1", Order.move("1R1", (4, 3)))
    assert st.units["1R1"].cell == (4, 3)
    assert st.units["1R1"].strength == 10 - 5
    assert "mine_triggered" in kinds(events)
    assert view_extras(st, "blue")[MODULE]["in_minefield"] == {}  # no choice to make
    assert (4, 3) not in mined_cells(st)
    assert dice.remaining == []


# --------------------------------------------------------------------------- R-MINE-3


def test_r_mine_3_careful_clearing_success_costs_1_kp_and_clears_the_cell(dice: Dice) -> None:
    st = enter(game([("1R1", "jaakariryhma", (3, 3))], [AP_BOX]))
    kp = st.kp["pl1"]
    dice.script(12)  # 12 + TT 2 = 14 = DC 14
    st, events = apply(st, "pl1", clear_order("1R1"))
    assert st.kp["pl1"] == kp - 1
    assert st.units["1R1"].strength == 10
    assert (4, 3) not in mined_cells(st) and (5, 3) in mined_cells(st)
    ev = next(e for e in events if e.kind == "mine_clear")
    assert ev.data["result"] == "cleared" and ev.data["dc"] == 14
    assert ev.visible.get("red") is None
    # It moves on next turn, not this one.
    assert cache_for(st).movement(st.units["1R1"]) == 0
    st = pass_turn(pass_turn(st))
    assert cache_for(st).movement(st.units["1R1"]) == 7
    assert view_extras(st, "blue")[MODULE]["clear"] == [[4, 3]]


@pytest.mark.parametrize(("mine", "roll", "dmg_die"), [(AP_BOX, 3, 4), (AT_BOX, 9, 12)])
def test_r_mine_3_careful_clearing_failure_sets_the_mine_off(
    dice: Dice, mine: dict[str, Any], roll: int, dmg_die: int
) -> None:
    st = enter(game([("1R1", "jaakariryhma", (3, 3))], [mine]))
    dice.script(11, roll, 20)  # 11 + 2 = 13 < 14; damage; first-damage morale test
    st, events = apply(st, "pl1", clear_order("1R1"))
    assert st.units["1R1"].strength == 10 - roll
    ev = next(e for e in events if e.kind == "mine_clear")
    assert ev.data["result"] == "set_off" and ev.data["damage"] == roll
    assert ev.data["rolls"][-1]["expr"] == f"d{dmg_die}"
    damage = next(e for e in events if e.kind == "damage")
    assert damage.data["reason"] == "mine"
    assert (4, 3) not in mined_cells(st)  # the cell is then safe
    assert not is_immobilised(st.units["1R1"])


def test_r_mine_3_only_infantry_or_pioneers_clear_carefully(dice: Dice) -> None:
    st = enter(game([("V1", "cv9030", (3, 3))], [AT_BOX]), "V1")
    with pytest.raises(IllegalOrderError, match="cannot clear mines carefully"):
        check_order(st, "pl1", clear_order("V1"))
    assert clear_order("V1") not in legal_orders(st, "pl1")
    assert rush_order("V1") in legal_orders(st, "pl1")


def test_r_mine_3_pioneers_clear_at_dc_10(dice: Dice) -> None:
    st = enter(game([("P1", "pioneeriryhma", (3, 3))], [AP_BOX]), "P1")
    dice.script(8)  # 8 + TT 2 = 10
    st, events = apply(st, "pl1", clear_order("P1"))
    ev = next(e for e in events if e.kind == "mine_clear")
    assert ev.data["dc"] == 10 and ev.data["result"] == "cleared"


# --------------------------------------------------------------------------- R-MINE-4


def test_r_mine_4_rushing_an_ap_mine_costs_nothing_and_hurts_infantry(dice: Dice) -> None:
    st = enter(game([("1R1", "jaakariryhma", (3, 3))], [AP_BOX]))
    kp = st.kp["pl1"]
    dice.script(6, 20)  # 1d8; one morale test at the higher DC (R-MOR-6)
    st, events = apply(st, "pl1", rush_order("1R1"))
    assert st.kp["pl1"] == kp
    assert st.units["1R1"].strength == 4
    morale = [e.data for e in events if e.kind == "morale"]
    assert [(m["reason"], m["dc"]) for m in morale] == [("mine", 14)]
    assert dice.remaining == []
    assert (4, 3) not in mined_cells(st)
    assert st.units["1R1"].cell == (4, 3)
    assert cache_for(st).movement(st.units["1R1"]) == 0  # the move ended there


def test_r_mine_4_cell_stays_mined_without_the_default(dice: Dice) -> None:
    st = enter(
        game([("1R1", "jaakariryhma", (3, 3))], [AP_BOX], options={"mine_cell_safe_after": False})
    )
    dice.script(2, 20)
    st, _ = apply(st, "pl1", rush_order("1R1"))
    assert (4, 3) in mined_cells(st)
    assert known_mines(st, "blue") == {(4, 3): "AP"}


def test_r_mine_4_at_mine_immobilises_an_armoured_vehicle(dice: Dice) -> None:
    st = enter(game([("V1", "cv9030", (3, 3))], [AT_BOX]), "V1")
    dice.script(7, 20, 20)  # 1d12 AT, first-damage morale, mine morale
    st, events = apply(st, "pl1", rush_order("V1"))
    v = st.units["V1"]
    assert v.strength == 16 - 7 and is_immobilised(v)
    ev = next(e for e in events if e.kind == "mine_rush")
    assert ev.data["damage_type"] == "AT"
    assert view_extras(st, "blue")[MODULE]["immobilised"] == ["V1"]
    st = pass_turn(pass_turn(st))
    assert cache_for(st).movement(st.units["V1"]) == 0  # permanently
    assert not [o for o in legal_orders(st, "pl1", unit="V1") if o.kind == OrderKind.MOVE]


def test_r_mine_4_at_mine_does_not_hurt_infantry_but_morale_is_tested(dice: Dice) -> None:
    st = enter(game([("1R1", "jaakariryhma", (3, 3))], [AT_BOX]))
    dice.script(3)  # the morale test only: 3 + M 2 = 5, short by 9: SUPPRESSED
    st, events = apply(st, "pl1", rush_order("1R1"))
    assert st.units["1R1"].strength == 10
    assert st.units["1R1"].suppressed is not None
    ev = next(e for e in events if e.kind == "mine_rush")
    assert ev.data["result"] == "not_affected"
    assert (4, 3) in mined_cells(st)  # it did not go off


def test_r_mine_4_ap_mine_does_not_hurt_an_armoured_vehicle(dice: Dice) -> None:
    st = enter(game([("V1", "cv9030", (3, 3))], [AP_BOX]), "V1")
    dice.script(20)
    st, _ = apply(st, "pl1", rush_order("V1"))
    assert st.units["V1"].strength == 16 and not is_immobilised(st.units["V1"])


def test_r_mine_4_light_vehicles_take_ap_damage_like_infantry(dice: Dice) -> None:
    red = [("B1", "bmp2", (6, 3))]
    field = {"id": "b", "type": "AP", "at": [4, 3], "owner": "blue"}
    st = pass_turn(game([("1R1", "jaakariryhma", (0, 0))], [field], red=red))
    st, _ = apply(st, "gm", Order.move("B1", (5, 3)))
    assert st.units["B1"].cell == (5, 3)
    dice.script(4, 20, 20)
    st, _ = apply(st, "gm", rush_order("B1"))
    assert st.units["B1"].strength == 14 - 4 and not is_immobilised(st.units["B1"])


# --------------------------------------------------------------------------- R-REC-4 search


def test_r_rec_4_search_reveals_only_the_adjacent_cell_searched(dice: Dice) -> None:
    st = game([("1R1", "jaakariryhma", (3, 3))], [AP_BOX])
    kp = st.kp["pl1"]
    with pytest.raises(IllegalOrderError, match="not adjacent"):
        check_order(st, "pl1", search_order("1R1", (5, 3)))
    dice.script(11)  # 11 + 2 = 13 = DC 13
    st, events = apply(st, "pl1", search_order("1R1", (4, 3)))
    assert st.kp["pl1"] == kp - 1
    assert known_mines(st, "blue") == {(4, 3): "AP"}
    ev = next(e for e in events if e.kind == "mine_search")
    seen = ev.visible["blue"]
    assert seen is not None and seen["mined"] is True and "field" not in seen
    assert ev.visible.get("red") is None
    with pytest.raises(IllegalOrderError, match="already made active recon"):
        check_order(st, "pl1", search_order("1R1", (4, 4)))


def test_r_rec_4_failed_search_learns_nothing(dice: Dice) -> None:
    st = game([("1R1", "jaakariryhma", (3, 3))], [AP_BOX])
    dice.script(10)
    st, events = apply(st, "pl1", search_order("1R1", (4, 3)))
    assert known_mines(st, "blue") == {}
    ev = next(e for e in events if e.kind == "mine_search")
    seen = ev.visible["blue"]
    assert ev.data["success"] is False and seen is not None and "mined" not in seen


def test_r_rec_4_search_of_an_empty_cell_says_clear(dice: Dice) -> None:
    st = game([("1R1", "jaakariryhma", (3, 3))], [AP_BOX])
    dice.script(20)
    st, _ = apply(st, "pl1", search_order("1R1", (2, 3)))
    assert view_extras(st, "blue")[MODULE]["clear"] == [[2, 3]]


def test_r_rec_4_variant_free_trap_test_before_moving(dice: Dice) -> None:
    opts = {"trap_test_without_kp": True}
    st = game([("E1", "erikoisjaakariosasto", (3, 3))], [AP_BOX], options=opts)
    kp = st.kp["pl1"]
    dice.script(15)
    st, _ = apply(st, "pl1", search_order("E1", (4, 3)))
    assert st.kp["pl1"] == kp
    # TT 2 does not qualify.
    st2 = game([("1R1", "jaakariryhma", (3, 3))], [AP_BOX], options=opts)
    kp2 = st2.kp["pl1"]
    dice.script(15)
    st2, _ = apply(st2, "pl1", search_order("1R1", (4, 3)))
    assert st2.kp["pl1"] == kp2 - 1


def test_r_rec_3_passive_observation_never_reveals_mines() -> None:
    st = game([("1R1", "jaakariryhma", (3, 3))], [AP_BOX])
    for _ in range(4):
        st = pass_turn(st)
    assert known_mines(st, "blue") == {}
    assert view_extras(st, "blue").get(MODULE) is None


# --------------------------------------------------------------------------- R-MINE-5


def test_r_mine_5_planned_clearing_needs_a_detected_cell(dice: Dice) -> None:
    st = game([("P1", "pioneeriryhma", (3, 3))], [AP_BOX])
    # The same refusal for a mined and an empty cell: nothing leaks.
    msgs = set()
    for cell in ((4, 3), (2, 3)):
        with pytest.raises(IllegalOrderError, match="not a detected mined cell") as exc:
            check_order(st, "pl1", breach_order("P1", cell))
        msgs.add(str(exc.value).replace(f"{cell[0]},{cell[1]}", "X"))
    assert len(msgs) == 1
    dice.script(20)
    st, _ = apply(st, "pl1", search_order("P1", (4, 3)))
    assert breach_order("P1", (4, 3)) in legal_orders(st, "pl1")
    kp = st.kp["pl1"]
    dice.script(11)  # 11 + 2 = 13: the Pioneeri DC
    st, events = apply(st, "pl1", breach_order("P1", (4, 3)))
    assert st.kp["pl1"] == kp - 2
    assert (4, 3) not in mined_cells(st) and (5, 3) in mined_cells(st)
    ev = next(e for e in events if e.kind == "mine_breach")
    assert ev.data["dc"] == 13 and ev.data["result"] == "cleared"
    # Its whole turn: no move, no fire.
    with pytest.raises(IllegalOrderError):
        check_order(st, "pl1", Order.move("P1", (2, 2)))
    st = to_fire_phase(st)
    assert not [o for o in legal_orders(st, "pl1") if o.unit == "P1"]


def test_r_mine_5_planned_clearing_needs_pioneer_skills_and_a_free_turn(dice: Dice) -> None:
    st = game([("1R1", "jaakariryhma", (3, 3)), ("P1", "pioneeriryhma", (3, 4))], [AP_BOX])
    dice.script(20, 20)
    st, _ = apply(st, "pl1", search_order("1R1", (4, 3)))
    with pytest.raises(IllegalOrderError, match="no pioneer skills"):
        check_order(st, "pl1", breach_order("1R1", (4, 3)))
    st, _ = apply(st, "pl1", Order.move("P1", (3, 5)))
    with pytest.raises(IllegalOrderError, match="whole turn"):
        check_order(st, "pl1", breach_order("P1", (4, 4)))


def test_r_mine_5_failed_planned_clearing_changes_nothing(dice: Dice) -> None:
    st = game([("P1", "pioneeriryhma", (3, 3))], [AP_BOX])
    dice.script(20, 10)
    st, _ = apply(st, "pl1", search_order("P1", (4, 3)))
    st, events = apply(st, "pl1", breach_order("P1", (4, 3)))
    assert next(e for e in events if e.kind == "mine_breach").data["result"] == "failed"
    assert (4, 3) in mined_cells(st) and st.units["P1"].strength == 9
    assert known_mines(st, "blue") == {(4, 3): "AP"}


# --------------------------------------------------------------------------- R-MINE-1 laying


def test_r_mine_1_murtosulute_lays_a_hidden_box_next_to_it(dice: Dice) -> None:
    red = [("R1", "motorisoitu_jalkavakiryhma", (6, 4))]
    st = game([("P1", "pioneeriryhma", (3, 3))], [], red=red)
    with pytest.raises(IllegalOrderError, match="covers"):
        check_order(st, "pl1", lay_order("P1", (3, 3)))
    with pytest.raises(IllegalOrderError, match="not next to"):
        check_order(st, "pl1", lay_order("P1", (5, 3)))
    kp = st.kp["pl1"]
    st, events = apply(st, "pl1", lay_order("P1", (4, 3)))
    assert st.kp["pl1"] == kp - 2
    assert set(mined_cells(st)) == {(4, 3), (5, 3), (4, 4), (5, 4)}
    assert set(known_mines(st, "blue")) == set(mined_cells(st))
    assert known_mines(st, "red") == {}
    laid = next(e for e in events if e.kind == "mines_laid")
    assert laid.visible.get("red") is None and laid.data["type"] == "AP"
    with pytest.raises(IllegalOrderError):
        check_order(st, "pl1", Order.move("P1", (2, 2)))
    st = pass_turn(st)
    assert view_extras(st, "red").get(MODULE) is None
    st, _ = apply(st, "gm", Order.move("R1", (5, 4)))
    assert st.units["R1"].cell == (5, 4)
    assert known_mines(st, "red") == {(5, 4): "AP"}


def test_r_mine_1_minefield_shape_option_lays_a_strip() -> None:
    st = game([("P1", "pioneeriryhma", (3, 3))], [], options={"minefield_shape": "strip_4x1"})
    assert lay_order("P1", (0, 4)) in legal_orders(st, "pl1")
    st, _ = apply(st, "pl1", lay_order("P1", (4, 3)))
    assert set(mined_cells(st)) == {(4, 3), (5, 3), (6, 3), (7, 3)}
    assert set(known_mines(st, "blue")) == set(mined_cells(st))


def test_r_mine_1_lay_at_mines_round_trip() -> None:
    order = parse_order("lay P1 4,3 at")
    assert order.kind == LAY and lay_type(order) == "AT"
    assert parse_order(str(order)) == order
    assert str(parse_order("lay P1 4,3")) == "lay P1 4,3"
    assert parse_order("miinoita P1 4,3 PM") == order
    with pytest.raises(InvalidOrderError):
        parse_order("lay P1 4,3 ap")
    st = game([("P1", "pioneeriryhma", (3, 3))], [])
    st, events = apply(st, "pl1", order)
    assert next(e for e in events if e.kind == "mines_laid").data["type"] == "AT"


def test_r_mine_1_only_murtosulute_lays_mines() -> None:
    st = game([("1R1", "jaakariryhma", (3, 3))], [])
    with pytest.raises(IllegalOrderError, match="Murtosulute"):
        check_order(st, "pl1", lay_order("1R1", (4, 3)))
    assert not [o for o in legal_orders(st, "pl1") if o.kind == LAY]


def test_r_mine_3_a_unit_that_cleared_in_a_later_turn_cannot_also_lay_or_breach(
    dice: Dice,
) -> None:
    st = enter(game([("P1", "pioneeriryhma", (3, 3))], [AP_BOX]), "P1")
    st = pass_turn(pass_turn(st))  # the choice waits for the next own turn
    dice.script(20)
    st, _ = apply(st, "pl1", clear_order("P1"))
    assert st.units["P1"].action is None  # clearing is not an action, but it holds the unit
    with pytest.raises(IllegalOrderError, match="whole turn"):
        check_order(st, "pl1", lay_order("P1", (5, 4)))
    assert not [o for o in legal_orders(st, "pl1") if o.kind in (LAY, BREACH)]


def test_r_mine_4_immobilise_api_for_other_modules() -> None:
    from taistelukentta.rules.context import Tx
    from taistelukentta.rules.mines import immobilise

    st = game([("V1", "cv9030", (3, 3))], [])
    tx = Tx(st)
    immobilise(tx, "V1", "test")
    immobilise(tx, "V1", "test")  # once only
    st2 = tx.finish()
    assert is_immobilised(st2.units["V1"]) and not is_immobilised(st.units["V1"])
    assert [e.data["status"] for e in tx.events] == ["IMMOBILISED"]
    assert cache_for(st2).movement(st2.units["V1"]) == 0


def test_r_mine_1_legal_orders_offer_both_mine_types_next_to_the_unit() -> None:
    st = game([("P1", "pioneeriryhma", (3, 3))], [])
    lays = [o for o in legal_orders(st, "pl1") if o.kind == LAY]
    assert lay_order("P1", (4, 3)) in lays and lay_order("P1", (4, 3), at=True) in lays
    assert lay_order("P1", (3, 3)) not in lays and lay_order("P1", (5, 3)) not in lays
    # 12 box positions around a unit in open ground, each AP and AT.
    assert len(lays) == 24
    for o in lays:
        check_order(st, "pl1", o)
