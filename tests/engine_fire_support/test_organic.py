"""Organic fire support, fire direction and boost in the engine (R-ORG-1, R-FD-1/2/4/5)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from taistelukentta.errors import IllegalOrderError
from taistelukentta.rules import apply, apply_text, check_order, view_extras
from taistelukentta.rules.engine import new_game
from taistelukentta.rules.events import Event
from taistelukentta.rules.fire_support import (
    BOOST,
    boost_order,
    organic_order,
    pending_strikes,
    rounds_left,
)
from taistelukentta.rules.fire_support import (
    ORGANIC as ORGANIC_KIND,
)
from taistelukentta.rules.recon import ContactLevel
from taistelukentta.rules.state import GameState

from .conftest import (
    Dice,
    end_command,
    fs_scenario,
    until_turn,
    with_contact,
    with_unit,
)

ORGANIC = organic_order("KRH", (15, 10), "1R1")
AT16 = organic_order("KRH", (16, 10), "1R1")
BLUE3 = [
    ("KRH", "kranaatinheitinryhma", (1, 10)),
    ("1R1", "jaakariryhma", (10, 10)),
    ("1R2", "jaakariryhma", (15, 10)),
]
RED16 = [("R1", "motorisoitu_jalkavakiryhma", (16, 10))]


def start(level: ContactLevel = ContactLevel.SPOTTED, **kw: object) -> GameState:
    st = new_game(fs_scenario(**kw), 5)  # type: ignore[arg-type]
    return with_contact(st, "blue", "R1", level)


def kinds(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e.kind == kind]


def test_r_org_1_organic_lands_next_turn_on_the_ordered_cell(dice: Dice) -> None:
    st = start()
    kp = st.kp["pl1"]
    st, _ = apply_text(st, "pl1", "organic KRH 15,10 by 1R1")
    assert st.kp["pl1"] == kp - 1
    assert rounds_left(st, "KRH") == 2
    assert [p["cell"] for p in pending_strikes(st)] == [[15, 10]]
    events: list[Event] = []
    st = end_command(st, events)  # Blue's fire phase of the ordering turn: nothing lands
    st = until_turn(st, 3, events)
    assert not kinds(events, "strike_landed")
    assert st.units["R1"].strength == 9
    dice.script(3, 4, 20)  # 2d6 damage; one morale test (R-MOR-6): strike DC 13 > first 12
    st = end_command(st, events)
    landed = kinds(events, "strike_landed")
    assert len(landed) == 1 and landed[0].data["cells"] == [[15, 10]]
    assert st.units["R1"].strength == 9 - 7
    strike_tests = [e for e in kinds(events, "morale") if e.data["reason"] == "strike:organic"]
    assert [e.data["dc"] for e in strike_tests] == [13]
    assert pending_strikes(st) == []
    assert dice.remaining == []


def test_r_org_1_minimum_range_and_rounds() -> None:
    st = start()
    st = with_unit(st, "KRH", cell=(11, 10))  # 4 cells from the target
    with pytest.raises(IllegalOrderError, match="minimum range"):
        check_order(st, "pl1", ORGANIC)
    st = start(rounds={"KRH": 0})
    with pytest.raises(IllegalOrderError, match="no rounds"):
        check_order(st, "pl1", ORGANIC)


def test_r_org_1_one_pending_strike_per_support_unit() -> None:
    st = start()
    st, _ = apply(st, "pl1", ORGANIC)
    with pytest.raises(IllegalOrderError, match="already has a strike"):
        check_order(st, "pl1", ORGANIC)


def test_r_org_1_destroyed_support_unit_strike_never_comes() -> None:
    st = start()
    st, _ = apply(st, "pl1", ORGANIC)
    units = dict(st.units)
    del units["KRH"]
    st = replace(st, units=units)
    events: list[Event] = []
    st = until_turn(st, 3, events)
    st = end_command(st, events)
    assert not kinds(events, "strike_landed")
    cancelled = kinds(events, "strike_cancelled")
    assert len(cancelled) == 1 and cancelled[0].visible["red"] is None
    assert st.units["R1"].strength == 9


def test_r_fd_1_observer_needs_a_known_contact_on_the_cell() -> None:
    st = start(ContactLevel.SUSPECTED)
    with pytest.raises(IllegalOrderError, match="not a fire-direction target"):
        check_order(st, "pl1", ORGANIC)
    st = start(ContactLevel.KNOWN)
    check_order(st, "pl1", ORGANIC)  # 15,10 lies in the KNOWN 3x3 block 15..17
    # variant "any": a SUSPECTED contact suffices
    st = start(ContactLevel.SUSPECTED, options={"fire_direction_contact": "any"})
    check_order(st, "pl1", ORGANIC)
    # SPOTTED: only the contact's own cell
    st = start()
    with pytest.raises(IllegalOrderError, match="not a fire-direction target"):
        check_order(st, "pl1", organic_order("KRH", (16, 10), "1R1"))


def test_r_fd_1_observer_ability_sight_and_seat() -> None:
    st = start()
    with pytest.raises(IllegalOrderError, match="no Tulenjohto"):
        check_order(st, "pl1", organic_order("KRH", (15, 10), "KRH"))
    far = with_unit(st, "1R1", cell=(1, 0))  # beyond sight_max 10 of 15,10
    with pytest.raises(IllegalOrderError, match="does not see"):
        check_order(far, "pl1", ORGANIC)
    # the CO seat owns neither the mortar nor the observer
    with pytest.raises(IllegalOrderError, match="requested by the seat"):
        check_order(st, "co", ORGANIC)


def test_r_fd_2_weak_observer_rolls_and_a_failure_loses_only_the_kp(dice: Dice) -> None:
    st = start()
    st = with_unit(st, "1R1", strength=2)
    with pytest.raises(IllegalOrderError, match="too weak"):
        check_order(st, "pl1", ORGANIC)
    st = with_unit(st, "1R1", strength=4)  # below 50 % of 10
    kp = st.kp["pl1"]
    dice.script(3)
    failed, events = apply(st, "pl1", ORGANIC)
    assert failed.kp["pl1"] == kp - 1
    assert rounds_left(failed, "KRH") == 3 and pending_strikes(failed) == []
    fd = kinds(events, "fire_direction")
    assert fd and fd[0].data["ok"] is False and fd[0].visible["red"] is None
    dice.script(4)
    ok, _ = apply(st, "pl1", ORGANIC)
    assert rounds_left(ok, "KRH") == 2 and len(pending_strikes(ok)) == 1
    full = with_unit(st, "1R1", strength=5)  # exactly 50 %: automatic, no die
    dice.script()
    auto, _ = apply(full, "pl1", ORGANIC)
    assert len(pending_strikes(auto)) == 1 and dice.remaining == []


def test_r_fd_4_boost_adds_two_damage(dice: Dice) -> None:
    st = start()
    with pytest.raises(IllegalOrderError, match="no organic strike"):
        check_order(st, "co", boost_order("KRH"))
    st, _ = apply(st, "pl1", ORGANIC)
    with pytest.raises(IllegalOrderError, match="only the company commander"):
        check_order(st, "pl1", boost_order("KRH"))
    kp = st.kp["co"]
    st, _ = apply_text(st, "co", "boost KRH")
    assert st.kp["co"] == kp - 1
    with pytest.raises(IllegalOrderError, match="already boosted"):
        check_order(st, "co", boost_order("KRH"))
    st = until_turn(st, 3)
    with pytest.raises(IllegalOrderError, match="no organic strike"):
        check_order(st, "co", boost_order("KRH"))  # not in a later command phase
    events: list[Event] = []
    dice.script(1, 1, 20, 20)
    st = end_command(st, events)
    assert st.units["R1"].strength == 9 - (1 + 1 + 2)


def test_r_fd_5_danger_close_needs_permission_and_rolls_d6(dice: Dice) -> None:
    st = start(blue=BLUE3, red=RED16, options={"organic_area_radius": 1})
    with pytest.raises(IllegalOrderError, match="own units 1R2"):
        check_order(st, "pl1", AT16)
    st, _ = apply_text(st, "pl1", "organic KRH 16,10 by 1R1 danger")
    st = until_turn(st, 3)
    events: list[Event] = []
    # 1R2 first (id order): 2d6 = 6, d6 = 2 -> half (3); one morale test (R-MOR-6)
    # R1: 2d6 = 4, one morale test
    dice.script(3, 3, 2, 20, 2, 2, 20)
    st = end_command(st, events)
    hit = {e.data["unit"]: e.data for e in kinds(events, "strike_hit")}
    assert hit["1R2"]["amount"] == 3 and hit["1R2"]["danger_close"] == 2
    assert hit["R1"]["amount"] == 4 and "danger_close" not in hit["R1"]
    assert st.units["1R2"].strength == 10 - 3
    assert dice.remaining == []


def test_r_fd_5_danger_close_d6_above_two_spares_the_unit(dice: Dice) -> None:
    st = start(blue=BLUE3, red=RED16, options={"organic_area_radius": 1})
    st, _ = apply(st, "pl1", organic_order("KRH", (16, 10), "1R1", danger=True))
    st = until_turn(st, 3)
    dice.script(6, 6, 3, 20, 1, 1, 20)  # 1R2 spared, still tests; R1 2 damage, one test
    events: list[Event] = []
    st = end_command(st, events)
    assert st.units["1R2"].strength == 10
    assert dice.remaining == []


def test_r_org_1_red_gm_uses_organic_support(dice: Dice) -> None:
    st = new_game(
        fs_scenario(
            blue=[("1R1", "jaakariryhma", (15, 10))],
            red=[("M1", "kranaatinheitinjaos", (28, 10)), ("K1", "komentoyksikko", (20, 10))],
            rounds={"M1": 2},
        ),
        5,
    )
    st = with_contact(st, "red", "1R1", ContactLevel.SPOTTED)
    st = until_turn(st, 2)
    assert st.active == "red"
    st, _ = apply_text(st, "gm", "organic M1 15,10 by K1")
    assert view_extras(st, "red")["fire_support"]["rounds_left"] == {"M1": 1}
    assert (
        "fire_support" not in view_extras(st, "blue")
        or not view_extras(st, "blue")["fire_support"]["pending"]
    )
    st = until_turn(st, 4)
    events: list[Event] = []
    dice.script(2, 2, 20, 20)
    st = end_command(st, events)
    assert st.units["1R1"].strength == 10 - 4
    landed = kinds(events, "strike_landed")[0]
    assert landed.visible["blue"] == {"weapon": "organic", "cells": [[15, 10]]}


def test_r_org_1_legal_orders_pass_check() -> None:
    from taistelukentta.rules import legal_orders

    st = start()
    mine = [o for o in legal_orders(st, "pl1") if o.kind == ORGANIC_KIND]
    assert mine == [ORGANIC]
    for o in mine:
        check_order(st, "pl1", o)
    st, _ = apply(st, "pl1", ORGANIC)
    boosts = [o for o in legal_orders(st, "co") if o.kind == BOOST]
    assert boosts == [boost_order("KRH")]
    assert not [o for o in legal_orders(st, "pl1") if o.kind == ORGANIC_KIND]


def test_r_org_1_finnish_notation() -> None:
    st = start()
    st, _ = apply_text(st, "pl1", "tukituli KRH 15,10 tähystäjä 1R1")
    assert [p["observer"] for p in pending_strikes(st)] == ["1R1"]
    st, _ = apply_text(st, "co", "tehosta KRH")
    assert pending_strikes(st)[0]["boost"] == 2


def test_r_org_1_red_organic_counts_against_the_battle_group_cap() -> None:
    from taistelukentta.rules import legal_orders

    sc = fs_scenario(
        blue=[("1R1", "jaakariryhma", (15, 10))],
        red=[
            ("M1", "kranaatinheitinjaos", (28, 10)),
            ("K1", "komentoyksikko", (20, 10)),
            ("R9", "motorisoitu_jalkavakiryhma", (28, 2), "bg2"),
        ],
        rounds={"M1": 2},
    )
    st = with_contact(new_game(sc, 5), "red", "1R1", ContactLevel.SPOTTED)
    st = until_turn(st, 2)
    order = organic_order("M1", (15, 10), "K1")
    assert order in legal_orders(st, "gm")
    capped = replace(st, group_spent={"bg1": 4})
    assert order not in [o for o in legal_orders(capped, "gm") if o.kind == ORGANIC_KIND]
    with pytest.raises(IllegalOrderError, match="battle group bg1"):
        check_order(capped, "gm", order)
