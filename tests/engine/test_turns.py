"""Turn flow and command points (R-TURN-1…3, R-KP-1…4)."""

from __future__ import annotations

import pytest

from taistelukentta.errors import IllegalOrderError
from taistelukentta.rules import (
    GameState,
    Order,
    Phase,
    apply,
    check_order,
    legal_orders,
    move_destinations,
)
from taistelukentta.rules.engine import new_game
from taistelukentta.rules.recon import ContactLevel
from taistelukentta.rules.state import Action

from .conftest import Dice, build, open_rows, with_contact, with_unit

SQUAD = "jaakariryhma"
RED = "motorisoitu_jalkavakiryhma"


def simple(rounds: int = 2, first: str = "blue") -> GameState:
    sc = build(
        open_rows(12, 8),
        [("1R1", SQUAD, (1, 1)), ("1R2", SQUAD, (1, 3))],
        [("R1", RED, (10, 6))],
        rounds=rounds,
        first_side=first,
    )
    return new_game(sc, 7)


def test_r_turn_1_phases_and_turn_order() -> None:
    st = simple()
    assert (st.round, st.active, st.phase, st.turn_no) == (1, "blue", Phase.COMMAND, 1)
    st, _ = apply(st, "pl1", Order.done())
    assert st.phase == Phase.COMMAND and st.done == {"pl1"}
    st, events = apply(st, "co", Order.done())
    kinds = [e.kind for e in events]
    # nothing can fire: the fire phase passes, Blue's turn ends, Red's starts
    assert kinds.index("phase") < kinds.index("turn_ended") < kinds.index("turn_started")
    assert (st.round, st.active, st.phase, st.turn_no) == (1, "red", Phase.COMMAND, 2)
    st, _ = apply(st, "gm", Order.done())
    assert (st.round, st.active, st.turn_no) == (2, "blue", 3)


def test_r_turn_1_fire_phase_waits_for_seats_that_can_fire() -> None:
    st = simple()
    st = with_contact(st, "blue", "R1", ContactLevel.SPOTTED)
    st = with_unit(st, "R1", cell=(7, 1))  # in range 8 and sight of 1R1
    st = with_contact(st, "blue", "R1", ContactLevel.SPOTTED)
    st, _ = apply(st, "pl1", Order.done())
    st, _ = apply(st, "co", Order.done())
    assert st.phase == Phase.FIRE and st.active == "blue"
    assert st.done == {"co"}  # the CO's unit is out of range: done automatically
    assert Order.fire("1R1", "R1") in legal_orders(st, "pl1")
    with pytest.raises(IllegalOrderError, match="command-phase"):
        check_order(st, "pl1", Order.defend("1R1"))


def test_r_turn_2_game_ends_after_the_last_round() -> None:
    st = simple(rounds=1)
    for seat in ("pl1", "co", "gm"):
        st, _ = apply(st, seat, Order.done())
    assert st.finished and st.phase == Phase.OVER
    assert st.winner == "draw" and st.vp == {"blue": 0, "red": 0}
    assert st.events[-1].kind == "game_over"
    assert legal_orders(st, "gm") == [] and legal_orders(st, "pl1") == []
    with pytest.raises(IllegalOrderError, match="over"):
        check_order(st, "gm", Order.done())


def test_r_turn_1_only_the_active_side_acts() -> None:
    st = simple()
    with pytest.raises(IllegalOrderError, match="turn"):
        check_order(st, "gm", Order.done())
    assert legal_orders(st, "gm") == []
    with pytest.raises(IllegalOrderError, match="unknown seat"):
        check_order(st, "pl9", Order.done())
    st, _ = apply(st, "pl1", Order.done())
    with pytest.raises(IllegalOrderError, match="already ended"):
        check_order(st, "pl1", Order.defend("1R1"))


def test_r_kp_1_blue_pools_refilled_each_turn_and_reset_at_its_end() -> None:
    st = simple()
    assert st.kp["co"] == st.scenario.options.kp_company_commander
    assert st.kp["pl1"] == st.scenario.options.kp_platoon_leader
    st, _ = apply(st, "pl1", Order.recon("1R1", (5, 5)))
    assert st.kp["pl1"] == st.scenario.options.kp_platoon_leader - 1
    st, _ = apply(st, "pl1", Order.done())
    st, _ = apply(st, "co", Order.done())
    assert st.kp["pl1"] == 0 and st.kp["co"] == 0  # unused KP vanish
    assert st.kp["gm"] == st.scenario.options.kp_red_per_group  # one battle group
    st, _ = apply(st, "gm", Order.done())
    assert st.kp["pl1"] == st.scenario.options.kp_platoon_leader


def test_r_kp_1_a_seat_never_goes_below_zero() -> None:
    st = simple()
    st = with_unit(st, "1R2", suppressed=0, status_dc=12)
    st, _ = apply(st, "pl1", Order.rally("1R2"))  # 2 KP
    st, _ = apply(st, "pl1", Order.recon("1R1", (5, 5)))  # 1 KP
    assert st.kp["pl1"] == 0
    with pytest.raises(IllegalOrderError, match="0 KP left"):
        check_order(st, "pl1", Order.recon("1R2", (5, 5)))
    assert not any(o.kind.value == "recon" for o in legal_orders(st, "pl1"))


def test_r_kp_seat_orders_only_its_own_units() -> None:
    st = simple()
    with pytest.raises(IllegalOrderError, match="belongs to seat co"):
        check_order(st, "pl1", Order.defend("KP"))
    with pytest.raises(IllegalOrderError, match="no unit 'R1'"):
        check_order(st, "pl1", Order.defend("R1"))
    with pytest.raises(IllegalOrderError, match="no unit 'ZZ'"):
        check_order(st, "pl1", Order.defend("ZZ"))


def red_groups(separate: bool) -> GameState:
    sc = build(
        open_rows(14, 8),
        [("1R1", SQUAD, (1, 1))],
        [
            ("R1", RED, (10, 1), "bg1"),
            ("R2", RED, (10, 3), "bg1"),
            ("R3", RED, (10, 5), "bg1"),
            ("R4", RED, (12, 6), "bg2"),
        ],
        first_side="red",
        options={"red_separate_pools": separate},
    )
    return new_game(sc, 3)


def test_r_kp_2_red_pool_per_battle_group_and_group_cap() -> None:
    st = red_groups(False)
    opts = st.scenario.options
    assert st.kp["gm"] == 2 * opts.kp_red_per_group
    st = with_unit(st, "R3", suppressed=0, status_dc=12)
    st, _ = apply(st, "gm", Order.recon("R1", (5, 1)))
    st, _ = apply(st, "gm", Order.recon("R2", (5, 1)))
    st, _ = apply(st, "gm", Order.rally("R3"))
    assert st.group_spent["bg1"] == 4 == opts.kp_red_group_cap
    with pytest.raises(IllegalOrderError, match="R-KP-2"):
        check_order(st, "gm", Order.recon("R3", (5, 1)))
    assert Order.recon("R3", (5, 1)) not in legal_orders(st, "gm")
    st, _ = apply(st, "gm", Order.recon("R4", (5, 1)))  # another group: fine
    assert st.kp["gm"] == 1


def test_r_kp_2_variant_separate_pools() -> None:
    st = red_groups(True)
    st, _ = apply(st, "gm", Order.recon("R1", (5, 1)))
    st, _ = apply(st, "gm", Order.recon("R2", (5, 1)))
    st, _ = apply(st, "gm", Order.recon("R3", (5, 1)))
    with pytest.raises(IllegalOrderError, match="R-KP-2"):
        st2 = with_unit(st, "R1", suppressed=0, status_dc=12)
        check_order(st2, "gm", Order.rally("R1"))


def test_r_kp_3_one_free_action_per_unit() -> None:
    st = simple()
    st, _ = apply(st, "pl1", Order.move("1R1", (3, 1)))
    assert st.units["1R1"].action == Action.MOVE
    with pytest.raises(IllegalOrderError, match="already has its order"):
        check_order(st, "pl1", Order.move("1R1", (4, 1)))
    with pytest.raises(IllegalOrderError, match="already has its order"):
        check_order(st, "pl1", Order.defend("1R1"))
    assert not [o for o in legal_orders(st, "pl1") if o.unit == "1R1" and o.kind.value == "move"]


def zoc_state() -> GameState:
    sc = build(
        open_rows(14, 8, ","),
        [("1R1", SQUAD, (6, 4))],
        [("R1", RED, (8, 4))],
    )
    return new_game(sc, 5)


def test_r_kp_3_no_basic_move_from_an_enemy_zoc() -> None:
    st = zoc_state()
    assert st.units["1R1"].zoc_at_start  # R1 is 2 cells away: spotted and its ZoC holds 1R1
    with pytest.raises(IllegalOrderError, match="R-KP-3"):
        check_order(st, "pl1", Order.move("1R1", (3, 4)))
    kinds = {o.kind.value for o in legal_orders(st, "pl1", recon_cells=False) if o.unit == "1R1"}
    assert {"disengage", "withdraw", "attack", "defend"} <= kinds
    assert "move" not in kinds


def test_r_kp_4_order_costs() -> None:
    st = zoc_state()
    opts = st.scenario.options
    kp = st.kp["pl1"]
    after, _ = apply(st, "pl1", Order.disengage("1R1", (3, 4)))
    assert after.kp["pl1"] == kp - opts.kp_disengage
    after, _ = apply(st, "pl1", Order.attack("1R1", "R1"))
    assert after.kp["pl1"] == kp - opts.kp_attack_order
    assert after.units["1R1"].action == Action.ATTACK


def test_r_kp_4_withdrawal_must_move_away(dice: Dice) -> None:
    st = zoc_state()
    with pytest.raises(IllegalOrderError, match="farther"):
        check_order(st, "pl1", Order.withdraw("1R1", (7, 6)))
    dice.script(1, 1)  # the opportunity attack misses (natural 1 … and its setback d6)
    st, _ = apply(st, "pl1", Order.withdraw("1R1", (3, 4)))
    assert st.kp["pl1"] == st.scenario.options.kp_platoon_leader - st.scenario.options.kp_withdrawal
    assert st.units["1R1"].cell == (3, 4)
    st, _ = apply(st, "pl1", Order.done())
    st, _ = apply(st, "co", Order.done())
    assert st.active == "red"  # a withdrawing unit cannot fire: no fire phase wait


def test_legal_orders_filters_and_helpers_agree() -> None:
    st = zoc_state()
    full = legal_orders(st, "pl1")
    only = legal_orders(st, "pl1", unit="1R1")
    assert only == [o for o in full if o.unit == "1R1"] + [Order.done()]
    no_moves = legal_orders(st, "pl1", attack_moves=False)
    assert [o for o in full if not (o.kind.value == "attack" and o.cell)] == no_moves
    no_recon = legal_orders(st, "pl1", recon_cells=False)
    assert [o for o in full if o.kind.value != "recon"] == no_recon
    fresh = simple()
    moves = {o.cell for o in legal_orders(fresh, "pl1", unit="1R1") if o.kind.value == "move"}
    assert moves == set(move_destinations(fresh, "1R1"))
    assert legal_orders(st, "pl1") == full  # repeated calls give equal lists
