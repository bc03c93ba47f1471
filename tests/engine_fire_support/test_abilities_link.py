"""Fire support × abilities: HIDDEN targets and observers (R-MOR-3), a sniper-disabled
Tulenjohto (R-AB-2 with R-FD-1)."""

from __future__ import annotations

import pytest

from taistelukentta.errors import IllegalOrderError
from taistelukentta.rules import abilities as ab
from taistelukentta.rules import (
    apply,
    check_order,
    is_legal,
    legal_orders,
    new_game,
)
from taistelukentta.rules.fire_support import ORGANIC, observer_of, organic_order, strike_order
from taistelukentta.rules.recon import ContactLevel
from taistelukentta.rules.state import GameState

from .conftest import fs_scenario, with_contact, with_unit

NEAR = [
    ("KRH", "kranaatinheitinryhma", (1, 10)),
    ("1R1", "jaakariryhma", (10, 10)),  # 5 from R1
    ("1R2", "jaakariryhma", (13, 10)),  # 2 from R1
]
ORGANIC_FAR = organic_order("KRH", (15, 10), "1R1")
ORGANIC_NEAR = organic_order("KRH", (15, 10), "1R2")


def start(level: ContactLevel = ContactLevel.SPOTTED, **kw: object) -> GameState:
    st = new_game(fs_scenario(blue=NEAR, requests=3, weapons=["k9"], **kw), 5)  # type: ignore[arg-type]
    return with_contact(st, "blue", "R1", level)


def hide(st: GameState, uid: str) -> GameState:
    return with_unit(st, uid, ext={"abilities": {"hidden": True}})


def test_r_mor_3_hidden_target_needs_the_observer_within_the_radius() -> None:
    st = hide(start(), "R1")
    with pytest.raises(IllegalOrderError, match="HIDDEN") as info:
        check_order(st, "pl1", ORGANIC_FAR)
    assert "R1" in info.value.en and "piiloutunut" in info.value.fi
    check_order(st, "pl1", ORGANIC_NEAR)  # 1R2 stands 2 cells from R1
    with pytest.raises(IllegalOrderError, match="HIDDEN"):
        check_order(st, "co", strike_order("k9", (15, 10), "1R1"))
    organic = [o for o in legal_orders(st, "pl1") if o.kind == ORGANIC]
    assert ORGANIC_FAR not in organic and ORGANIC_NEAR in organic
    # not hidden: either observer may direct the fire
    plain = start()
    check_order(plain, "pl1", ORGANIC_FAR)
    # variant radius 5: 1R1 is close enough
    wide = hide(start(options={"hidden_radius": 5}), "R1")
    check_order(wide, "pl1", ORGANIC_FAR)


def test_r_mor_3_hidden_unit_in_a_known_area_does_not_block_the_aim() -> None:
    """Reading: with only a KNOWN contact the side does not know the unit is there, let
    alone hidden; it may aim at the area (the strike then spares the HIDDEN unit)."""
    st = hide(start(ContactLevel.KNOWN), "R1")
    check_order(st, "pl1", ORGANIC_FAR)


def test_r_mor_3_directing_fire_ends_the_observers_hidden() -> None:
    blue = [("KRH", "kranaatinheitinryhma", (1, 10)), ("E1", "erikoisjaakariosasto", (10, 10))]
    st = new_game(fs_scenario(blue=blue), 5)
    st = hide(with_contact(st, "blue", "R1", ContactLevel.SPOTTED), "E1")
    st2, events = apply(st, "pl1", organic_order("KRH", (15, 10), "E1"))
    assert not ab.is_hidden(st2.units["E1"])
    ended = [e for e in events if e.kind == "hidden"]
    assert len(ended) == 1 and ended[0].visible["red"] is None
    assert ended[0].data["reason"] == "fire_direction"


def test_r_ab_2_a_disabled_tulenjohto_stops_fire_direction() -> None:
    st = start()
    off = with_unit(st, "1R1", ext={"abilities": {"disabled": {"tulenjohto": st.turn_no + 2}}})
    with pytest.raises(IllegalOrderError, match="cannot direct fire"):
        check_order(off, "pl1", ORGANIC_FAR)
    assert not is_legal(off, "co", strike_order("k9", (15, 10), "1R1"))
    assert is_legal(st, "co", strike_order("k9", (15, 10), "1R1"))
    assert all(observer_of(o) != "1R1" for o in legal_orders(off, "pl1") + legal_orders(off, "co"))
    check_order(off, "pl1", ORGANIC_NEAR)  # another observer still can
