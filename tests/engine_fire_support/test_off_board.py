"""Off-board fire support in the engine (R-OFF-1…4, R-FD-1/3/5, redaction)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from taistelukentta.errors import IllegalOrderError
from taistelukentta.rules import apply, apply_text, check_order, legal_orders, view_extras
from taistelukentta.rules import fire_support as fs
from taistelukentta.rules.engine import new_game
from taistelukentta.rules.events import Event
from taistelukentta.rules.fire_support import STRIKE, strike_order
from taistelukentta.rules.recon import ContactLevel
from taistelukentta.rules.ruleset import Ruleset, default_ruleset
from taistelukentta.rules.services import CommandApi
from taistelukentta.rules.state import GameState

from .conftest import Dice, end_command, fs_scenario, until_turn, with_contact, with_unit

K9 = strike_order("k9", (15, 10), "1R1")
BLUE = [("1R1", "jaakariryhma", (10, 10))]
RED = [
    ("R1", "motorisoitu_jalkavakiryhma", (15, 10)),
    ("R2", "bmp2", (16, 11)),
    ("R3", "motorisoitu_jalkavakiryhma", (17, 12)),
    ("R4", "motorisoitu_jalkavakiryhma", (20, 10)),
]


def start(
    level: ContactLevel = ContactLevel.SPOTTED,
    *,
    requests: int = 5,
    weapons: tuple[str, ...] = ("k9", "mlrs"),
    options: dict[str, Any] | None = None,
    blue: list[tuple[Any, ...]] | None = None,
) -> GameState:
    sc = fs_scenario(
        blue=blue or BLUE,
        red=RED,
        rounds={},
        requests=requests,
        weapons=weapons,
        options=options,
    )
    return with_contact(new_game(sc, 3), "blue", "R1", level)


def kinds(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e.kind == kind]


def test_r_off_1_only_the_co_with_scenario_requests() -> None:
    st = start()
    with pytest.raises(IllegalOrderError, match="only the company commander"):
        check_order(st, "pl1", K9)
    none = start(requests=0, weapons=())
    with pytest.raises(IllegalOrderError, match="grants no off-board"):
        check_order(none, "co", K9)
    only_k9 = start(weapons=("k9",))
    with pytest.raises(IllegalOrderError, match="no mlrs strikes"):
        check_order(only_k9, "co", strike_order("mlrs", (15, 10), "1R1"))


def test_r_off_1_mlrs_uses_two_requests_and_costs_three_kp() -> None:
    st = start(requests=2)
    kp = st.kp["co"]
    st, _ = apply_text(st, "co", "strike mlrs 15,10 by 1R1")
    assert st.kp["co"] == kp - 3
    assert fs.requests_left(st, "blue") == 0
    st = until_turn(st, 3)
    with pytest.raises(IllegalOrderError, match="needs 1 requests, 0 left"):
        check_order(st, "co", K9)


def _with_command(st: GameState, **changes: Any) -> GameState:
    """``st`` continued under a ruleset whose company module offers a changed
    :class:`CommandApi` (what fire support asks of the company)."""
    rules = default_ruleset()
    api = rules.api(CommandApi)
    assert api is not None
    modules = [
        replace(m, provides=(replace(api, **changes),)) if m.name == "company" else m
        for m in rules.modules
    ]
    return replace(st, ruleset=Ruleset(modules))


def test_r_fd_1_off_board_observer_needs_command_link() -> None:
    st = _with_command(start(), in_command_link=lambda state, uid: False)
    with pytest.raises(IllegalOrderError, match="no command link"):
        check_order(st, "co", K9)


def test_r_off_2_delay_is_secret_and_counted_in_own_turns(dice: Dice) -> None:
    st = start()
    dice.script(3)  # d6 3 -> 2 turns
    st, events = apply(st, "co", K9)
    ordered = kinds(events, "strike_ordered")[0]
    assert ordered.data["delay"] == 2 and ordered.data["due"] == 5
    assert ordered.data["rolls"][0]["secret"] is True
    assert set(ordered.visible["blue"] or {}) == {"id", "kind", "weapon", "observer", "cell"}
    assert ordered.visible["red"] is None
    blue_view = view_extras(st, "blue")["fire_support"]
    assert blue_view["pending"] == [
        {"id": "s1", "kind": "off_board", "weapon": "k9", "observer": "1R1", "cell": [15, 10]}
    ]
    assert blue_view["requests_left"] == 4
    assert view_extras(st, "red")["fire_support"]["pending"] == []
    assert view_extras(st, "gm")["fire_support"]["pending"][0]["due"] == 5
    seen: list[Event] = []
    st = until_turn(st, 5, seen)
    assert not kinds(seen, "strike_landed")
    # corner 1, R1 3d10 = 3, R2 BMP 2d10 = 2, each with one morale test (R-MOR-6: the
    # strike's DC 13 with the first damage's 12 merged), then R3 (adjacent) DC 13
    dice.script(1, 1, 1, 1, 20, 1, 1, 20, 20)
    st = end_command(st, seen)
    landed = kinds(seen, "strike_landed")
    assert len(landed) == 1
    assert landed[0].data["cells"] == [[15, 10], [16, 10], [15, 11], [16, 11]]
    assert landed[0].visible["red"] == {"weapon": "k9", "cells": landed[0].data["cells"]}
    assert st.units["R1"].strength == 9 - 3 and st.units["R2"].strength == 14 - 2
    strike_tests = sorted(
        e.data["unit"] for e in kinds(seen, "morale") if e.data["reason"] == "strike:k9"
    )
    assert strike_tests == ["R1", "R2", "R3"]
    assert st.units["R4"].strength == 9
    assert dice.remaining == []


def test_r_off_3_armoured_target_takes_the_armoured_dice(dice: Dice) -> None:
    st = start()
    dice.script(1)
    st, _ = apply(st, "co", K9)
    st = until_turn(st, 3)
    dice.script(1, 10, 10, 10, 20, 10, 9, 20, 20, 20, 20)
    seen: list[Event] = []
    st = end_command(st, seen)
    hit = {e.data["unit"]: e.data["amount"] for e in kinds(seen, "strike_hit")}
    assert hit == {"R1": 30, "R2": 19}  # 3d10 soft, 2d10 armoured
    assert "R1" not in st.units


def test_r_fd_3_skilled_observer_shortens_the_delay(dice: Dice) -> None:
    st = with_unit(start(), "1R1", xp=20)  # TT 2 + 20 // 10 = 4
    dice.script(5)  # d6 5 -> 3 turns, skilled -> 2
    st, events = apply(st, "co", K9)
    assert kinds(events, "strike_ordered")[0].data["due"] == 1 + 2 * 2
    variant = with_unit(start(options={"skilled_observer": "reroll_scatter_die"}), "1R1", xp=20)
    dice.script(5)
    variant, events = apply(variant, "co", K9)
    assert kinds(events, "strike_ordered")[0].data["due"] == 1 + 2 * 3
    dice.script(1)
    skilled = with_unit(start(), "1R1", xp=20)
    _, events = apply(skilled, "co", K9)  # d6 1 -> 1 turn, skilled: never below 1
    assert kinds(events, "strike_ordered")[0].data["delay"] == 1


def test_r_off_2_by_calibre_variant(dice: Dice) -> None:
    st = start(options={"off_board_delay": "by_calibre"})
    dice.script(4)  # d4 + 1
    st, events = apply(st, "co", K9)
    assert kinds(events, "strike_ordered")[0].data["delay"] == 5


def test_r_fd_5_off_board_danger_close_over_the_corner_area() -> None:
    st = start(blue=[*BLUE, ("1R2", "jaakariryhma", (14, 9))])  # in the 3x3 corner union
    with pytest.raises(IllegalOrderError, match="own units 1R2"):
        check_order(st, "co", K9)
    check_order(st, "co", strike_order("k9", (15, 10), "1R1", danger=True))


def test_r_off_4_known_contact_shifts_the_area(dice: Dice) -> None:
    st = start(ContactLevel.KNOWN)
    dice.script(1)
    st, _ = apply(st, "co", K9)
    st = until_turn(st, 3)
    # corner 4, extra d2 = 2, d8 = 3 (east): area 14..15 x 9..10 moves to 16..17 x 9..10
    dice.script(4, 2, 3, 20, 20)
    seen: list[Event] = []
    st = end_command(st, seen)
    landed = kinds(seen, "strike_landed")[0]
    assert landed.data["cells"] == [[16, 9], [17, 9], [16, 10], [17, 10]]
    assert (landed.data["corner"], landed.data["distance"], landed.data["direction"]) == (4, 2, 3)
    assert not kinds(seen, "strike_hit")  # R1 and R2 only test morale (adjacent)
    assert dice.remaining == []


def test_r_off_3_hidden_units_are_not_affected(dice: Dice) -> None:
    st = start()
    dice.script(1)
    st, _ = apply(st, "co", K9)  # ordered on R1 while it is not hidden …
    st = with_unit(st, "R1", ext={"abilities": {"hidden": True}})  # … it hides before impact
    st = until_turn(st, 3)
    dice.script(1, 1, 1, 20, 20)  # only R2 (BMP 2d10, one merged test) and R3 morale
    seen: list[Event] = []
    st = end_command(st, seen)
    assert [e.data["unit"] for e in kinds(seen, "strike_hit")] == ["R2"]
    assert st.units["R1"].strength == 9
    assert dice.remaining == []


def test_r_off_1_legal_strikes_pass_check() -> None:
    st = start()
    strikes = [o for o in legal_orders(st, "co") if o.kind == STRIKE]
    assert strikes == [K9, strike_order("mlrs", (15, 10), "1R1")]
    for o in strikes:
        check_order(st, "co", o)
    assert not [o for o in legal_orders(st, "pl1") if o.kind == STRIKE]


def test_redaction_enemy_learns_nothing_before_impact(dice: Dice) -> None:
    st = start()
    dice.script(1)
    st, events = apply(st, "co", K9)
    st = until_turn(st, 3, events)
    assert "strike" not in str([e.visible["red"] for e in events])
    mine = view_extras(st, "blue")["fire_support"]
    assert all(set(p) == {"id", "kind", "weapon", "observer", "cell"} for p in mine["pending"])
    theirs = view_extras(st, "red")["fire_support"]
    assert theirs == {"pending": [], "rounds_left": {}}
    dice.script(1, 1, 1, 1, 20, 1, 1, 20, 20, 20, 20)
    st = end_command(st, events)
    landed = kinds(events, "strike_landed")[0]
    red_copy = landed.visible["red"]
    assert red_copy == {"weapon": "k9", "cells": landed.data["cells"]}  # no observer, aim
    hit = kinds(events, "strike_hit")[0].visible["red"]
    assert hit is not None
    assert dict(hit) == {"unit": "R1", "weapon": "k9", "amount": 3, "rolls": hit["rolls"]}
    assert "s1" not in str([e.visible["red"] for e in events])


def test_r_off_1_promoted_co_pays_from_the_company_pool() -> None:
    """After a field promotion (R-LINK-3) company.company_cost gives plan cost 0 and the
    order is paid with company.pay_company, also when fire direction fails."""
    paid: list[int] = []
    st = _with_command(
        with_unit(start(), "1R1", strength=4),
        company_cost=lambda state, seat, cost: 0,
        pay_company=lambda tx, cost: paid.append(cost),
    )
    kp = st.kp["co"]
    after, _ = apply(st, "co", K9)  # weak observer: paid whether its d6 succeeds or not
    assert after.kp["co"] == kp and paid == [3]


def test_r_off_2_pending_strikes_survive_save_and_load() -> None:
    import json

    st = start()
    st, _ = apply(st, "co", K9)
    st = until_turn(st, 3)
    st, _ = apply(st, "co", strike_order("mlrs", (15, 10), "1R1"))
    back = GameState.from_dict(json.loads(json.dumps(st.to_dict())), st.scenario)
    assert back.state_hash() == st.state_hash()
    assert fs.pending_strikes(back) == fs.pending_strikes(st)
    a = until_turn(st, 11)
    b = until_turn(back, 11)
    assert a.state_hash() == b.state_hash()
    assert fs.pending_strikes(a) == []
