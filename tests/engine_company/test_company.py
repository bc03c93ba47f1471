"""Company command rules (RULES.md §10–11): KP pools, transfer, link, tactics, confirmed
target, recon report, field promotion, redaction."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from taistelukentta.errors import IllegalOrderError
from taistelukentta.rules import (
    GameState,
    Order,
    Phase,
    apply,
    check_order,
    company,
    legal_orders,
    status,
)
from taistelukentta.rules.company import (
    confirm_order,
    promote_order,
    report_order,
    restore_order,
    tactic_order,
    transfer_order,
)
from taistelukentta.rules.context import Tx, cache_for, view_extras
from taistelukentta.rules.events import Event
from taistelukentta.rules.recon import ContactLevel
from taistelukentta.rules.services import AbilitiesApi
from tests.engine.conftest import Dice, with_contact, with_unit, without_contact

from .helpers import company_game, end_turn, surgery


def blue_events(events: list[Event]) -> list[Mapping[str, Any]]:
    return [d for e in events if (d := e.for_side("blue")) is not None]


# --------------------------------------------------------------------------- R-KP-1/2


def test_r_kp_1_co_pool_5_and_platoon_pools_3() -> None:
    st = company_game()
    assert st.kp == {"co": 5, "pl1": 3, "pl2": 3} or {
        k: st.kp[k] for k in ("co", "pl1", "pl2")
    } == {
        "co": 5,
        "pl1": 3,
        "pl2": 3,
    }


def test_r_kp_1_amounts_are_options() -> None:
    st = company_game(options={"kp_company_commander": 6, "kp_platoon_leader": 4})
    assert (st.kp["co"], st.kp["pl1"]) == (6, 4)


def test_r_kp_2_red_single_pool_cap_and_no_link() -> None:
    st = company_game(
        reds=[("R1", (40, 0)), ("R2", (41, 0))],
        first_side="red",
    )
    # one battle group → 3 KP, Red is never out of link
    assert st.kp["gm"] == 3
    assert company.in_command_link(st, "R1")
    st2 = company_game(reds=[("R1", (40, 0))], first_side="red", options={"kp_red_per_group": 5})
    assert st2.kp["gm"] == 5
    # the per-group cap (4) still binds: two 2-KP rallies of the same group → the 3rd fails
    st3 = with_unit(st2, "R1", suppressed=st2.turn_no)
    st3, _ = apply(st3, "gm", Order.rally("R1"))
    assert st3.kp["gm"] == 3 and st3.group_spent["bg1"] == 2


# --------------------------------------------------------------------------- R-LINK-1/2


def test_r_link_2_out_of_link_platoon_gets_2_kp() -> None:
    st = company_game(pl2=(40, 9), reds=[("R1", (44, 0))])
    assert not company.seat_in_link(st, "pl2")
    assert st.kp["pl2"] == 2 and st.kp["pl1"] == 3
    kinds = [e.kind for e in st.events if e.kind == "command_link"]
    assert kinds == ["command_link"]
    ev = next(e for e in st.events if e.kind == "command_link")
    assert ev.for_side("blue") == {"out_of_link": ["pl2"]} and ev.for_side("red") is None


def test_r_co_2_transfer_gives_one_kp_once_per_turn() -> None:
    st = company_game()
    st2, events = apply(st, "co", transfer_order("pl1"))
    assert st2.kp["co"] == 4 and st2.kp["pl1"] == 4
    ev = next(e for e in events if e.kind == "kp_transfer")
    assert ev.for_side("red") is None
    with pytest.raises(IllegalOrderError, match="already received"):
        check_order(st2, "co", transfer_order("pl1"))
    st3, _ = apply(st2, "co", transfer_order("pl2"))
    assert st3.kp["pl2"] == 4
    # next turn the limit is fresh
    st4 = end_turn(end_turn(st3))
    check_order(st4, "co", transfer_order("pl1"))


def test_r_co_2_transfer_needs_link_and_the_co_seat() -> None:
    st = company_game(pl2=(40, 9))
    with pytest.raises(IllegalOrderError, match="not in command link"):
        check_order(st, "co", transfer_order("pl2"))
    with pytest.raises(IllegalOrderError, match="only the company commander"):
        check_order(st, "pl1", transfer_order("pl2"))
    with pytest.raises(IllegalOrderError, match="unknown seat"):
        check_order(st, "co", transfer_order("pl9"))
    # R-CO-6 is data: without kp_transfer in co_link_required the link is not needed
    st2 = company_game(pl2=(40, 9), options={"co_link_required": ["painopiste"]})
    check_order(st2, "co", transfer_order("pl2"))


def test_r_co_2_transfer_only_in_command_phase() -> None:
    st = company_game()
    for seat in st.seats("blue"):
        if st.phase == Phase.COMMAND:
            st, _ = apply(st, seat, Order.done())
    if st.active == "blue" and st.phase == Phase.FIRE:
        with pytest.raises(IllegalOrderError):
            check_order(st, "co", transfer_order("pl1"))


def test_r_link_2_restore_success_puts_in_link_for_the_turn(dice: Dice) -> None:
    st = company_game(pl2=(40, 9))
    dice.script(10)  # 10 + TT 3 = 13 ≥ DC 13
    st2, events = apply(st, "co", restore_order("pl2"))
    ev = next(e for e in events if e.kind == "link_restore")
    assert ev.data["success"] and ev.data["total"] == 13 and ev.for_side("red") is None
    assert st2.kp["co"] == 4
    assert company.seat_in_link(st2, "pl2") and company.in_command_link(st2, "2R1")
    st3, _ = apply(st2, "co", transfer_order("pl2"))
    assert st3.kp["pl2"] == 3
    # the restored link lasts only this turn
    st4 = end_turn(end_turn(st3))
    assert not company.seat_in_link(st4, "pl2") and st4.kp["pl2"] == 2


def test_r_link_2_restore_failure_and_dc_option(dice: Dice) -> None:
    st = company_game(pl2=(40, 9))
    dice.script(9)
    st2, events = apply(st, "co", restore_order("pl2"))
    assert not next(e for e in events if e.kind == "link_restore").data["success"]
    assert not company.seat_in_link(st2, "pl2")
    with pytest.raises(IllegalOrderError, match="already"):
        check_order(st, "co", restore_order("pl1"))
    st3 = company_game(pl2=(40, 9), options={"link_restore_dc": 12, "kp_link_restore": 2})
    dice.script(9)
    st4, _ = apply(st3, "co", restore_order("pl2"))
    assert company.seat_in_link(st4, "pl2") and st4.kp["co"] == 3


def test_r_link_1_enemy_fired_at_this_round_cuts_the_line(dice: Dice) -> None:
    # R1 on the line between 1JJ (20,5) and the CO (0,5), out of every ZoC: no cut ...
    for seed in (7, bytes(32)):
        st = company_game(pl1=(20, 5), reds=[("R1", (10, 5))], seed=seed)
        st = with_contact(st, "blue", "R1", ContactLevel.SPOTTED)
        assert company.in_command_link(st, "1JJ")
        # ... until it is in combat this round
        st2 = surgery(st, lambda tx: company._after_attack(tx, "1R1", "R1", {"effect": "MISS"}))
        assert not company.in_command_link(st2, "1JJ")
        # an enemy the company has not SPOTTED there does not cut it (issue 8; a legacy
        # game keeps the true cells)
        unseen = without_contact(st2, "blue", "R1")
        assert company.in_command_link(unseen, "1JJ") == isinstance(seed, bytes)


def test_r_link_2_an_unseen_enemy_in_combat_does_not_change_a_platoons_kp() -> None:
    """Red moves first; R1, on the line between the CO and 1JJ, fought this round. At
    Blue's turn start pl1 gets 3 KP while Blue has not SPOTTED R1, 2 once it has (issue 8);
    a legacy-seed game keeps the true cells (2 either way)."""
    for seed, unseen_kp in ((bytes(32), 3), (7, 2)):
        st = company_game(pl1=(20, 5), reds=[("R1", (10, 5))], first_side="red", seed=seed)
        st = surgery(st, lambda tx: company._after_attack(tx, "R1", "1R1", {"effect": "MISS"}))
        unseen = end_turn(without_contact(st, "blue", "R1"))
        assert unseen.active == "blue" and unseen.kp["pl1"] == unseen_kp, seed
        seen = end_turn(with_contact(st, "blue", "R1", ContactLevel.SPOTTED))
        assert seen.kp["pl1"] == 2, seed


# --------------------------------------------------------------------------- R-CO-1


def test_r_co_1_one_tactic_per_turn() -> None:
    st = company_game()
    st2, _ = apply(st, "co", tactic_order("sitova", seat="pl1"))
    assert st2.kp["co"] == 3
    with pytest.raises(IllegalOrderError, match="one per turn"):
        check_order(st2, "co", tactic_order("painopiste", seat="pl2"))
    # other CO actions are not limited
    check_order(st2, "co", transfer_order("pl2"))


def test_r_co_1_painopiste_gives_five_cells_with_an_attack_order() -> None:
    st = company_game(reds=[("R1", (25, 5))])
    st = with_contact(st, "blue", "R1", ContactLevel.SPOTTED)
    far = Order.attack("1R1", "R1", cell=(18, 6))  # 8 cells away, L = 7
    with pytest.raises(IllegalOrderError, match="cannot reach"):
        check_order(st, "pl1", far)
    st2, _ = apply(st, "co", tactic_order("painopiste", seat="pl1"))
    check_order(st2, "pl1", far)
    with pytest.raises(IllegalOrderError, match="cannot reach"):
        check_order(st2, "pl1", Order.move("1R1", (18, 6)))  # only with an attack order
    st3, _ = apply(st2, "pl1", far)
    assert st3.units["1R1"].cell == (18, 6)
    assert "pp_on" not in st3.units["1R1"].ext.get("company", {})
    # another platoon does not benefit
    with pytest.raises(IllegalOrderError, match="cannot reach"):
        check_order(st3, "pl2", Order.attack("2R1", "R1", cell=(18, 10)))


def test_r_co_1_painopiste_needs_link_r_co_6() -> None:
    st = company_game(pl2=(40, 9))
    with pytest.raises(IllegalOrderError, match="not in command link"):
        check_order(st, "co", tactic_order("painopiste", seat="pl2"))
    with pytest.raises(IllegalOrderError, match="not in command link"):
        check_order(st, "co", tactic_order("sitova", seat="pl2"))


def test_r_co_1_sitova_tuli_marks_stack_and_are_used_by_the_next_morale_test() -> None:
    st = company_game(reds=[("R1", (20, 5))])
    st2, _ = apply(st, "co", tactic_order("sitova", seat="pl1"))

    def hits(tx: Tx) -> None:
        company._after_attack(tx, "1R1", "R1", {"effect": "HIT"})
        company._after_attack(tx, "1JJ", "R1", {"effect": "HEAVY_HIT"})
        company._after_attack(tx, "1R1", "R1", {"effect": "PINNING"})  # no mark
        company._after_attack(tx, "2R1", "R1", {"effect": "HIT"})  # other platoon

    st3 = surgery(st2, hits)
    assert st3.units["R1"].ext["company"]["sitova"] == 2
    ev = [e for e in st3.events if e.kind == "sitova_mark"]
    assert len(ev) == 2 and ev[0].for_side("red") is not None

    seen: list[int] = []

    def test_once(tx: Tx) -> None:
        seen.append(company._morale(tx, tx.unit("R1")))
        seen.append(company._morale(tx, tx.unit("R1")))

    surgery(st3, test_once)
    assert seen == [-2, 0]


def test_r_co_1_sitova_mark_through_a_real_morale_test(dice: Dice) -> None:
    st = company_game(reds=[("R1", (20, 5))])
    st = surgery(st, lambda tx: company._set_mark(tx, "R1", sitova=1))
    dice.script(10)
    tx = Tx(st)
    status.morale_test(tx, "R1", 15, "test")
    st2 = tx.finish()
    ev = next(e for e in st2.events if e.kind == "morale")
    assert ev.data["bonus"] == 1 - 1  # card morale 1, Sitova −1
    assert "company" not in st2.units["R1"].ext


def test_r_co_1_motti_once_per_battle_and_failures_retreat(dice: Dice) -> None:
    reds = [("R1", (30, 5)), ("R2", (33, 6)), ("R3", (44, 11))]
    st = company_game(reds=reds, options={"kp_company_commander": 10})
    assert not st.contacts["blue"]  # Blue knows none of them
    # R1: natural 20 passes; R2: natural 2 fails; R3 out of the radius
    dice.script(20, 2)
    st2, events = apply(st, "co", tactic_order("motti", cell=(31, 5)))
    assert st2.kp["co"] == 5
    assert st2.units["R1"].retreating is None
    assert st2.units["R2"].retreating == st2.turn_no
    assert st2.units["R3"].retreating is None
    # Blue learns nothing of the unseen units: no id, no count
    for data in blue_events(events):
        text = repr(data)
        assert "R1" not in text and "R2" not in text and "units" not in data
    tactic = next(e for e in events if e.kind == "tactic")
    assert tactic.data["units"] == ["R1", "R2"]
    red_view = tactic.for_side("red")
    assert red_view is not None and red_view["cell"] == [31, 5]
    with pytest.raises(IllegalOrderError, match="once per battle"):
        check_order(end_turn(end_turn(st2)), "co", tactic_order("motti", cell=(31, 5)))


def test_r_co_1_motti_spares_hidden_units(dice: Dice) -> None:
    st = company_game(reds=[("R1", (30, 5))])
    st = surgery(st, lambda tx: tx.set_unit_ext("R1", "abilities", {"hidden": True}))
    abilities = cache_for(st).rules.api(AbilitiesApi)
    assert abilities is not None and abilities.is_hidden(st.units["R1"])  # as it keeps HIDDEN
    dice.script(1)
    _, events = apply(st, "co", tactic_order("motti", cell=(30, 5)))
    assert not [e for e in events if e.kind == "morale"]
    assert dice.remaining == [1]


def test_r_co_1_organised_withdrawal_costs_no_more_kp_and_may_fire() -> None:
    st = company_game(reds=[("R1", (16, 6))])
    st = with_contact(st, "blue", "R1", ContactLevel.SPOTTED)
    with pytest.raises(IllegalOrderError, match="farther than"):
        check_order(company_game(pl1=(25, 5)), "co", tactic_order("vetaytyminen", units=("1R1",)))
    st2, _ = apply(st, "co", tactic_order("vetaytyminen", units=("1R1", "1JJ")))
    assert st2.kp["co"] == 2
    before = st2.kp["pl1"]
    st3, _ = apply(st2, "pl1", Order.withdraw("1R1", (9, 6)))
    assert st3.kp["pl1"] == before  # no further KP
    assert st3.units["1R1"].cell == (9, 6)
    # 2R1 withdraws the ordinary way: pays and cannot fire
    st4, _ = apply(st3, "pl2", Order.withdraw("2R1", (9, 10)))
    assert st4.kp["pl2"] == st3.kp["pl2"] - st.scenario.options.kp_withdrawal
    for seat in st4.seats("blue"):
        if st4.phase == Phase.COMMAND and seat not in st4.done:
            st4, _ = apply(st4, seat, Order.done())
    assert st4.phase == Phase.FIRE
    listed = legal_orders(st4, "pl1")
    assert Order.fire("1R1", "R1") in listed
    assert not any(o.unit == "2R1" and o.kind.value == "fire" for o in legal_orders(st4, "pl2"))
    # the mark ends with the turn
    st5 = end_turn(st4)
    assert "company" not in st5.units["1R1"].ext


def test_r_co_1_organised_withdrawal_unit_limit() -> None:
    st = company_game(options={"organised_withdrawal_units": 2})
    with pytest.raises(IllegalOrderError, match="1–2"):
        check_order(st, "co", tactic_order("vetaytyminen", units=("1R1", "1JJ", "2R1")))
    with pytest.raises(IllegalOrderError, match="different"):
        check_order(st, "co", tactic_order("vetaytyminen", units=("1R1", "1R1")))
    check_order(st, "co", tactic_order("vetaytyminen", units=("1R1", "2R1")))


# --------------------------------------------------------------------------- R-CO-5


def test_r_co_5_confirmed_target_needs_two_platoons_and_gives_plus_2_once() -> None:
    st = company_game(pl1=(10, 5), pl2=(10, 9), reds=[("R1", (16, 7))])
    st = with_contact(st, "blue", "R1", ContactLevel.SPOTTED)
    st2, _ = apply(st, "co", confirm_order("R1"))
    assert st2.kp["co"] == 4
    with pytest.raises(IllegalOrderError, match="already"):
        check_order(st2, "co", confirm_order("R1"))
    got: list[tuple[int, bool, bool]] = []

    def attacks(tx: Tx) -> None:
        got.append(company._attack_mods(tx, tx.unit("1R1"), tx.unit("R1")))
        got.append(company._attack_mods(tx, tx.unit("1R1"), tx.unit("R1")))

    surgery(st2, attacks)
    assert got == [(2, False, False), (0, False, False)]
    # one platoon only → refused; an unseen unit → the same message as a missing one
    st3 = company_game(pl1=(10, 5), pl2=(40, 10), reds=[("R1", (16, 7))])
    st3 = with_contact(st3, "blue", "R1", ContactLevel.SPOTTED)
    with pytest.raises(IllegalOrderError, match="two different platoons"):
        check_order(st3, "co", confirm_order("R1"))
    with pytest.raises(IllegalOrderError, match="not a SPOTTED") as e1:
        check_order(company_game(), "co", confirm_order("R1"))
    with pytest.raises(IllegalOrderError, match="not a SPOTTED") as e2:
        check_order(company_game(), "co", confirm_order("R99"))
    assert str(e1.value).replace("R1", "X") == str(e2.value).replace("R99", "X")


def test_r_co_5_bonus_in_a_real_attack(dice: Dice) -> None:
    st = company_game(reds=[("R1", (16, 7))])
    st = with_contact(st, "blue", "R1", ContactLevel.SPOTTED)
    st, _ = apply(st, "co", confirm_order("R1"))
    for seat in st.seats("blue"):
        if st.phase == Phase.COMMAND and seat not in st.done:
            st, _ = apply(st, seat, Order.done())
    dice.script(1, 1, 1, 1, 1, 1)
    st2, events = apply(st, "pl1", Order.fire("1R1", "R1"))
    ev = next(e for e in events if e.kind == "attack")
    assert ev.data["modifiers"].get("company") == 2
    assert "confirmed" not in st2.ext.get("company", {})


# --------------------------------------------------------------------------- R-CO-4


def test_r_co_4_report_marks_the_nearest_enemy_known_and_rerolls_once(dice: Dice) -> None:
    st = company_game(reds=[("R1", (30, 5)), ("R2", (40, 2))])
    assert not st.contacts["blue"]
    dice.script(11)  # 11 + TT 3 = 14 ≥ DC 14
    st2, events = apply(st, "co", report_order((38, 3)))
    assert st2.contacts["blue"]["R2"].level == ContactLevel.KNOWN
    assert "R1" not in st2.contacts["blue"]
    ev = next(e for e in events if e.kind == "recon_report")
    blue = ev.for_side("blue")
    assert blue is not None and blue["success"] and "R2" not in repr(blue)
    assert ev.for_side("red") == {"unit": "R2", "reconnoitred": True}
    with pytest.raises(IllegalOrderError, match="once per battle"):
        check_order(st2, "co", report_order((38, 3)))
    flags: list[bool] = []

    def shots(tx: Tx) -> None:
        flags.append(company._reroll(tx, tx.unit("1R1"), tx.unit("R1"), "MISS"))
        flags.append(company._reroll(tx, tx.unit("1R1"), tx.unit("R2"), "MISS"))
        flags.append(company._reroll(tx, tx.unit("1R1"), tx.unit("R2"), "MISS"))

    surgery(st2, shots)
    assert flags == [False, True, False]


def test_r_co_4_report_failure_and_timing(dice: Dice) -> None:
    st = company_game(reds=[("R1", (30, 5))])
    dice.script(10)
    st2, events = apply(st, "co", report_order((30, 5)))
    assert not st2.contacts["blue"]
    assert not next(e for e in events if e.kind == "recon_report").data["success"]
    # only before Blue's other orders
    st3, _ = apply(st, "pl1", Order.defend("1R1"))
    with pytest.raises(IllegalOrderError, match="before Blue's other orders"):
        check_order(st3, "co", report_order((30, 5)))
    # only in Blue's first command phase
    with pytest.raises(IllegalOrderError, match="first command phase"):
        check_order(end_turn(end_turn(st)), "co", report_order((30, 5)))
    # Red moving first: Blue's first turn is turn 2
    st4 = company_game(first_side="red")
    st4 = end_turn(st4)
    check_order(st4, "co", report_order((30, 5)))


# --------------------------------------------------------------------------- R-LINK-3


def kill(st: GameState, uid: str) -> GameState:
    return surgery(st, lambda tx: status.destroy(tx, uid, "test"))


def test_r_link_3_co_lost_penalty_and_promotion(dice: Dice) -> None:
    st = company_game()
    st = end_turn(st)  # Red's turn
    st = kill(st, "KP")
    assert company.co_seat(st) is None and company.co_unit(st) is None
    lost = next(e for e in st.events if e.kind == "co_lost")
    assert lost.for_side("red") is None
    # −1 on every Blue morale test
    penalties: list[int] = []
    surgery(st, lambda tx: penalties.append(company._morale(tx, tx.unit("1R1"))))
    surgery(st, lambda tx: penalties.append(company._morale(tx, tx.unit("R1"))))
    assert penalties == [-1, 0]
    with pytest.raises(IllegalOrderError, match=r"is not lost|next command"):
        check_order(st, "gm", promote_order("pl1"))
    st = end_turn(st)  # Blue's command phase
    # nobody is CO: everyone out of link, the old CO seat plays as a platoon leader
    assert st.kp["co"] == 2 and st.kp["pl1"] == 2
    with pytest.raises(IllegalOrderError, match="no commander"):
        check_order(st, "pl1", transfer_order("pl2"))
    assert promote_order("pl1") in legal_orders(st, "pl2")
    with pytest.raises(IllegalOrderError, match="no surviving platoon leader"):
        check_order(st, "pl2", promote_order("co"))
    st2, events = apply(st, "pl2", promote_order("pl1"))  # any Blue seat may give it
    assert company.co_seat(st2) == "pl1" and company.co_unit(st2) == "1JJ"
    assert company.company_kp(st2) == 4 and company.promoted(st2)
    assert next(e for e in events if e.kind == "promoted").for_side("red") is None
    # company actions are paid from the company pool, not the platoon pool
    before = st2.kp["pl1"]
    st3, _ = apply(st2, "pl1", transfer_order("pl2"))
    assert st3.kp["pl1"] == before and company.company_kp(st3) == 3 and st3.kp["pl2"] == 3
    with pytest.raises(IllegalOrderError, match="company pool"):
        check_order(st3, "pl1", tactic_order("motti", cell=(30, 5)))
    check_order(st3, "pl1", tactic_order("painopiste", seat="pl2"))
    # the penalty is gone
    surgery(st3, lambda tx: penalties.append(company._morale(tx, tx.unit("1R1"))))
    assert penalties[-1] == 0
    # next Blue turn: company pool 4, platoon pool 3, the old CO seat 3 if in link
    st4 = end_turn(end_turn(st3))
    assert company.company_kp(st4) == 4 and st4.kp["pl1"] == 3
    assert st4.kp["co"] == 2  # a platoon leader now, with no unit in link
    view = view_extras(st4, "blue")["company"]
    assert view["co_seat"] == "pl1" and view["company_kp"] == 4
    assert view_extras(st4, "red").get("company") is None


def test_r_link_3_no_surviving_platoon_leader_leaderless() -> None:
    st = company_game()
    st = kill(kill(kill(st, "1JJ"), "2JJ"), "KP")
    assert st.ext["company"]["leaderless"]
    st = end_turn(end_turn(st)) if st.active == "blue" else end_turn(st)
    assert not [o for o in legal_orders(st, "pl1") if o.kind.value == "promote"]
    with pytest.raises(IllegalOrderError, match="leaderless"):
        check_order(st, "pl1", promote_order("pl1"))
    pen: list[int] = []
    surgery(st, lambda tx: pen.append(company._morale(tx, tx.unit("1R1"))))
    assert pen == [-1]
    assert view_extras(st, "blue")["company"]["leaderless"]


# --------------------------------------------------------------------------- legal, views


def test_r_co_1_legal_orders_of_the_company_all_pass_check() -> None:
    st = company_game(reds=[("R1", (16, 7))])
    st = with_contact(st, "blue", "R1", ContactLevel.SPOTTED)
    listed = legal_orders(st, "co")
    kinds = {o.kind.value for o in listed}
    assert {"transfer", "tactic", "confirm", "report"} <= kinds
    for o in listed:
        if o.kind.value in company.KINDS:
            check_order(st, "co", o)
    assert not [o for o in legal_orders(st, "pl1") if o.kind.value in company.KINDS]


def test_r_link_1_views_blue_sees_links_red_sees_nothing() -> None:
    st = company_game(pl2=(40, 9))
    blue = view_extras(st, "blue")["company"]
    assert blue["links"] == {"pl1": True, "pl2": False}
    assert blue["co_seat"] == "co" and not blue["leaderless"] and not blue["motti_used"]
    assert "company" not in view_extras(st, "red")
    assert "state" in view_extras(st, "gm")["company"]


def test_r_co_6_confirmed_target_may_require_the_link() -> None:
    def game(opts: dict[str, Any] | None) -> GameState:
        st = company_game(pl1=(30, 5), pl2=(40, 9), reds=[("R1", (35, 7))], options=opts)
        return with_contact(st, "blue", "R1", ContactLevel.SPOTTED)

    check_order(game(None), "co", confirm_order("R1"))  # DEFAULT: no link needed
    need = {"co_link_required": ["kp_transfer", "confirmed_target"]}
    with pytest.raises(IllegalOrderError, match="two different platoons"):
        check_order(game(need), "co", confirm_order("R1"))


def to_fire(st: GameState) -> GameState:
    for seat in st.seats(st.active):
        if st.phase == Phase.COMMAND and seat not in st.done:
            st, _ = apply(st, seat, Order.done())
    assert st.phase == Phase.FIRE
    return st


def test_r_co_1_sitova_tuli_in_a_real_attack_lowers_the_targets_morale_test(dice: Dice) -> None:
    bonuses = []
    for tactic in (False, True):
        st = company_game(reds=[("R1", (16, 7))])
        st = with_contact(st, "blue", "R1", ContactLevel.SPOTTED)
        if tactic:
            st, _ = apply(st, "co", tactic_order("sitova", seat="pl1"))
        st = to_fire(st)
        dice.script(15, 3, 3, 3, 3, 3, 3)  # a hit, damage 3s, then the morale test
        _, events = apply(st, "pl1", Order.fire("1R1", "R1"))
        attack = next(e for e in events if e.kind == "attack")
        assert attack.data["effect"] in ("HIT", "HEAVY_HIT")
        morale = next(e for e in events if e.kind == "morale" and e.data["unit"] == "R1")
        bonuses.append(morale.data["bonus"])
        assert [e.kind for e in events].count("sitova_mark") == int(tactic)
    assert bonuses[1] == bonuses[0] - 1


def test_r_co_4_reconnoitred_unit_first_miss_rerolled_in_a_real_attack(dice: Dice) -> None:
    st = company_game(reds=[("R1", (16, 7))])
    dice.script(11)
    st, _ = apply(st, "co", report_order((16, 7)))
    assert st.ext["company"]["reconnoitred"] == {"R1": False}
    st = with_contact(st, "blue", "R1", ContactLevel.SPOTTED)
    st = to_fire(st)
    dice.script(2, 2, 3, 3, 3, 3)  # a miss, rolled again: a miss again
    st2, events = apply(st, "pl1", Order.fire("1R1", "R1"))
    attack = next(e for e in events if e.kind == "attack")
    assert attack.data["effect"] in ("MISS", "PINNING") and attack.data.get("rerolled")
    assert st2.ext["company"]["reconnoitred"] == {"R1": True}
    dice.script(2, 3, 3, 3, 3)
    _, events2 = apply(st2, "pl1", Order.fire("1JJ", "R1"))
    assert not next(e for e in events2 if e.kind == "attack").data.get("rerolled")


def test_r_co_1_company_state_is_read_through_typed_accessors() -> None:
    """The module's game-level state (issue 7): what the orders record is read back through
    :class:`CompanyState`'s typed accessors, and an empty state reads as defaults."""
    from taistelukentta.rules.company import MODULE, CompanyState, SeatTactic

    empty = CompanyState({})
    assert not empty and empty.promoted_seat is None and empty.company_kp is None
    assert empty.tactics_used == () and empty.confirmed == {} and not empty.motti_used
    assert empty.seat_tactic("painopiste") is None
    st = company_game()
    st2, _ = apply(st, "co", tactic_order("painopiste", seat="pl1"))
    co = CompanyState(st2.ext[MODULE])
    assert co.seat_tactic("painopiste") == SeatTactic("pl1", st2.turn_no)
    assert co.tactic_turn == st2.turn_no
    assert co.tactics_used == ((st2.turn_no, "painopiste"),)
    assert co.raw is st2.ext[MODULE]  # the stored form is untouched (files, hashes)
