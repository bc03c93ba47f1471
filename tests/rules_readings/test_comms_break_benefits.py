"""R-ATK-6 communications break: the unit "cannot receive or benefit from any commander
ability (e.g. KP transfer, tactics)" — 004 "Se ei voi vastaanottaa tai hyötyä mistään
komentajan kyvyistä (esim. KP-siirto, taktiikat)". RULES.md says so too; the engine
enforced it only for the CO unit itself and for fire direction (docs/rules-readings.md)."""

from __future__ import annotations

import pytest

from taistelukentta.errors import IllegalOrderError
from taistelukentta.rules import GameState, Order, apply, check_order, company
from taistelukentta.rules.company import tactic_order, transfer_order
from taistelukentta.rules.context import Tx, cache_for
from taistelukentta.rules.recon import ContactLevel
from tests.engine.conftest import with_contact, with_unit
from tests.engine_company.helpers import company_game, surgery


def broken(st: GameState, uid: str) -> GameState:
    """``uid`` has a communications break lasting through this turn."""
    return with_unit(st, uid, comms_until=st.turn_no)


def test_r_atk_6_cut_off_platoon_leader_cannot_receive_kp() -> None:
    st = company_game()
    check_order(st, "co", transfer_order("pl1"))
    with pytest.raises(IllegalOrderError, match="communications break"):
        check_order(broken(st, "1JJ"), "co", transfer_order("pl1"))
    # the break is over once comms_until is past
    check_order(with_unit(st, "1JJ", comms_until=st.turn_no - 1), "co", transfer_order("pl1"))


def test_r_atk_6_cut_off_unit_gets_no_painopiste_movement() -> None:
    st = company_game(reds=[("R1", (25, 5))])
    st = with_contact(st, "blue", "R1", ContactLevel.SPOTTED)
    st, _ = apply(st, "co", tactic_order("painopiste", seat="pl1"))
    far = Order.attack("1R1", "R1", cell=(18, 6))  # 8 cells: needs the +5
    check_order(st, "pl1", far)
    with pytest.raises(IllegalOrderError, match="cannot reach"):
        check_order(broken(st, "1R1"), "pl1", far)


def test_r_atk_6_cut_off_attacker_leaves_no_sitova_mark() -> None:
    st = company_game(reds=[("R1", (20, 5))])
    st, _ = apply(st, "co", tactic_order("sitova", seat="pl1"))
    st = broken(st, "1R1")

    def hits(tx: Tx) -> None:
        company._after_attack(tx, "1R1", "R1", {"effect": "HIT"})  # cut off: no mark
        company._after_attack(tx, "1JJ", "R1", {"effect": "HIT"})  # in touch: a mark

    st2 = surgery(st, hits)
    assert st2.units["R1"].ext["company"]["sitova"] == 1


def test_r_atk_6_cut_off_attacker_gets_no_confirmed_bonus_and_leaves_it() -> None:
    st = company_game(reds=[("R1", (20, 5))])
    st = surgery(st, lambda tx: company._set(tx, confirmed={"R1": 2}))
    st = broken(st, "1R1")
    got: list[int] = []

    def attacks(tx: Tx) -> None:
        got.append(company._attack_mods(tx, tx.unit("1R1"), tx.unit("R1"))[0])
        got.append(company._attack_mods(tx, tx.unit("1JJ"), tx.unit("R1"))[0])

    surgery(st, attacks)
    assert got == [0, 2]  # the cut-off squad does not use the bonus up


def test_r_atk_6_cut_off_attacker_gets_no_recon_report_reroll() -> None:
    st = company_game(reds=[("R1", (20, 5))])
    st = surgery(st, lambda tx: company._set(tx, reconnoitred={"R1": False}))
    st = broken(st, "1R1")
    got: list[bool] = []

    def misses(tx: Tx) -> None:
        got.append(company._reroll(tx, tx.unit("1R1"), tx.unit("R1"), "MISS"))
        got.append(company._reroll(tx, tx.unit("1JJ"), tx.unit("R1"), "MISS"))

    surgery(st, misses)
    assert got == [False, True]


def test_r_atk_6_cut_off_unit_is_not_freed_by_organised_withdrawal() -> None:
    st = company_game()
    st = surgery(st, lambda tx: company._set_mark(tx, "1R1", ow=tx.turn_no))
    cache = cache_for(st)
    assert company._may_fire(cache, st.units["1R1"], st.turn_no)
    cut = broken(st, "1R1")
    assert not company._may_fire(cache, cut.units["1R1"], cut.turn_no)
