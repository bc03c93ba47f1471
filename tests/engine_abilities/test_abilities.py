"""Special abilities, HIDDEN and special weapons (R-MOR-3, R-REC-6, R-AB-1…5, R-ATK-8/9,
R-UNIT-3, R-TK-1 vehicle overrides)."""

from __future__ import annotations

import tomllib
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st_

from taistelukentta.content.loader import data_path
from taistelukentta.content.scenario import load_scenario, scenario_from_data
from taistelukentta.errors import DataError, IllegalOrderError
from taistelukentta.rules import (
    GameState,
    Order,
    OrderKind,
    Phase,
    Side,
    apply,
    apply_text,
    check_order,
    format_order,
    legal_orders,
    new_game,
    other_side,
    parse_order,
    view_extras,
)
from taistelukentta.rules import abilities as ab
from taistelukentta.rules.abilities import HIDE, USE, hide_order
from taistelukentta.rules.context import Tx, cache_for
from taistelukentta.rules.events import Event
from taistelukentta.rules.orders import order_weapon
from taistelukentta.rules.recon import ContactLevel
from taistelukentta.rules.state import SIDES
from tests.engine.conftest import (
    Dice,
    build,
    open_rows,
    with_contact,
    with_unit,
    without_contact,
)

SNIPER = "sissijaakarit"  # TT 3, sniper +4 (range 10, d8), hide 1 KP
RED = "motorisoitu_jalkavakiryhma"  # S 11, aaltohyokkays
FIELD = ","  # cover 1, not fully open


def game(
    blue: list[tuple[Any, ...]],
    red: list[tuple[Any, ...]],
    *,
    first_side: str = "blue",
    elevation: list[list[int]] | None = None,
    options: dict[str, Any] | None = None,
) -> GameState:
    sc = build(
        open_rows(14, 9, FIELD),
        blue,
        red,
        first_side=first_side,
        elevation=elevation,
        options=options,
        co_cell=(0, 8),
    )
    return new_game(sc, 5)


def hidden(st: GameState, uid: str) -> GameState:
    return with_unit(st, uid, ext={"abilities": {"hidden": True}})


def fire_phase(st: GameState) -> GameState:
    return replace(st, phase=Phase.FIRE)


def event(events: list[Event], kind: str) -> Event:
    return next(e for e in events if e.kind == kind)


# --------------------------------------------------------------------------- HIDDEN


def test_r_mor_3_hide_costs_the_cards_kp_and_only_own_side_sees_it() -> None:
    st = game([("S1", SNIPER, (2, 4))], [("R1", RED, (9, 4))])
    assert hide_order("S1") in legal_orders(st, "pl1")
    kp = st.kp["pl1"]
    st2, events = apply_text(st, "pl1", "hide S1")
    assert st2.kp["pl1"] == kp - 1  # the card's kp_cost
    assert ab.is_hidden(st2.units["S1"])
    ev = event(events, "hidden")
    assert ev.visible["blue"] is not None and ev.visible["red"] is None
    assert view_extras(st2, "blue")["abilities"]["hidden"] == ["S1"]
    assert "abilities" not in view_extras(st2, "red")
    assert view_extras(st2, "gm")["abilities"]["hidden"] == ["S1"]
    assert ab.unit_statuses(st2.units["S1"], "blue") == {"HIDDEN"}
    assert ab.unit_statuses(st2.units["S1"], "red") == frozenset()
    with pytest.raises(IllegalOrderError, match="already HIDDEN"):
        check_order(st2, "pl1", hide_order("S1"))


def test_r_mor_3_hide_needs_an_ability_that_grants_it() -> None:
    st = game([("S1", "jaakariryhma", (2, 4))], [("R1", RED, (9, 4))])
    with pytest.raises(IllegalOrderError, match="no ability that lets it hide"):
        check_order(st, "pl1", hide_order("S1"))
    assert hide_order("S1") not in legal_orders(st, "pl1")


@pytest.mark.parametrize(("distance", "allowed"), [(2, True), (3, False), (6, False)])
def test_r_mor_3_hidden_is_targeted_only_from_within_the_radius(
    distance: int, allowed: bool
) -> None:
    st = game([("S1", SNIPER, (2, 4))], [("R1", RED, (2 + distance, 4))], first_side="red")
    st = with_contact(hidden(st, "S1"), "red", "S1", ContactLevel.SPOTTED)
    attack = Order.attack("R1", "S1")
    assert (attack in legal_orders(st, "gm")) == allowed
    if allowed:
        check_order(st, "gm", attack)
    else:
        with pytest.raises(IllegalOrderError, match="HIDDEN"):
            check_order(st, "gm", attack)
        fire = fire_phase(st)
        with pytest.raises(IllegalOrderError, match="HIDDEN"):
            check_order(fire, "gm", Order.fire("R1", "S1"))


def test_r_mor_3_hidden_radius_variant_5() -> None:
    st = game(
        [("S1", SNIPER, (2, 4))],
        [("R1", RED, (7, 4))],
        first_side="red",
        options={"hidden_radius": 5},
    )
    st = with_contact(hidden(st, "S1"), "red", "S1", ContactLevel.SPOTTED)
    check_order(st, "gm", Order.attack("R1", "S1"))
    assert ab.hidden_blocks(st, st.units["R1"], "S1") is None


@pytest.mark.parametrize(("red_cell", "detected"), [((4, 4), True), ((5, 4), False)])
def test_r_rec_6_hidden_is_not_detected_from_farther_than_2(
    red_cell: tuple[int, int], detected: bool
) -> None:
    st = hidden(game([("S1", SNIPER, (2, 4))], [("R1", RED, red_cell)]), "S1")
    st = without_contact(st, "red", "S1")
    tx = Tx(st)
    assert tx.set_contact("red", "S1", ContactLevel.SPOTTED) == detected
    # An unhidden unit is detected from anywhere.
    tx2 = Tx(with_unit(st, "S1", ext={}))
    assert tx2.set_contact("red", "S1", ContactLevel.SPOTTED)


def test_r_mor_3_hidden_ends_when_the_unit_moves() -> None:
    st = hidden(game([("S1", SNIPER, (2, 4))], [("R1", RED, (12, 4))]), "S1")
    st2, events = apply_text(st, "pl1", "move S1 3,4")
    assert not ab.is_hidden(st2.units["S1"])
    ev = [e for e in events if e.kind == "hidden"][-1]
    assert ev.data["reason"] == "moved" and ev.visible["red"] is None


def test_r_mor_3_hidden_ends_when_an_enemy_moves_within_2() -> None:
    st = game([("S1", SNIPER, (2, 4))], [("R1", RED, (9, 4))], first_side="red")
    st = hidden(st, "S1")
    near, events = apply_text(st, "gm", "move R1 5,4")  # distance 3: still hidden
    assert ab.is_hidden(near.units["S1"])
    assert "S1" not in near.contacts["red"]
    close, events = apply_text(st, "gm", "move R1 4,4")  # distance 2: ends
    assert not ab.is_hidden(close.units["S1"])
    ev = next(e for e in events if e.kind == "hidden")
    assert ev.data["reason"] == "enemy_near"
    assert ev.visible["red"] is None


def test_r_mor_3_hidden_ends_when_it_fires_and_the_firer_is_revealed(dice: Dice) -> None:
    st = hidden(game([("S1", SNIPER, (2, 4))], [("R1", RED, (8, 4))]), "S1")
    st = fire_phase(with_contact(st, "blue", "R1", ContactLevel.SPOTTED))
    dice.script(2, *([10] * 10))  # a miss
    st2, _ = apply(st, "pl1", Order.fire("S1", "R1"))
    assert not ab.is_hidden(st2.units["S1"])
    assert st2.contacts["red"]["S1"].level >= ContactLevel.KNOWN  # R-REC-7 not blocked


def test_r_mor_3_hidden_ends_with_an_unrelated_action_recon() -> None:
    st = hidden(game([("S1", SNIPER, (2, 4))], [("R1", RED, (12, 4))]), "S1")
    st2, _ = apply_text(st, "pl1", "recon S1 5,4")
    assert not ab.is_hidden(st2.units["S1"])


def test_r_mor_3_scenario_placement_starts_hidden_and_unseen() -> None:
    tv = load_scenario("terasvalli")
    assert tv.unit("R16").hidden and tv.unit("R16").card == "tarkka_ampujat"
    st = new_game(tv, 3)
    assert ab.is_hidden(st.units["R16"])
    assert "R16" not in st.contacts["blue"]
    assert "abilities" not in view_extras(st, "blue")
    assert view_extras(st, "red")["abilities"]["hidden"] == ["R16"]


def test_r_mor_3_scenario_hidden_needs_a_card_that_can_hide() -> None:
    text = (data_path("scenarios") / "terasvalli.toml").read_text(encoding="utf-8")
    assert 'card = "tarkka_ampujat", cell = [36, 19], hidden = true' in text
    bad = text.replace('card = "tarkka_ampujat"', 'card = "motorisoitu_jalkavakiryhma"')
    with pytest.raises(DataError, match="cannot start hidden"):
        scenario_from_data(tomllib.loads(bad), text=bad)


def test_r_mor_3_area_fire_does_not_affect_hidden_units(dice: Dice) -> None:
    st = game(
        [("V1", "cv9030", (2, 4))],
        [("R1", RED, (7, 4)), ("R2", RED, (7, 5))],
    )
    st = with_contact(hidden(st, "R2"), "blue", "R1", ContactLevel.SPOTTED)
    dice.script(18, *([3] * 20))
    _, events = apply_text(st, "pl1", "use V1 lamauttava_tuli 7,4")
    ev = event(events, "area_attack")
    assert [t["target"] for t in ev.data["targets"]] == ["R1"]
    st_opt = game(
        [("V1", "cv9030", (2, 4))],
        [("R1", RED, (7, 4)), ("R2", RED, (7, 5))],
        options={"area_fire_hits_hidden": True},
    )
    st_opt = with_contact(hidden(st_opt, "R2"), "blue", "R1", ContactLevel.SPOTTED)
    dice.script(18, *([3] * 20))
    _, events = apply_text(st_opt, "pl1", "use V1 lamauttava_tuli 7,4")
    assert [t["target"] for t in event(events, "area_attack").data["targets"]] == ["R1", "R2"]


# --------------------------------------------------------------------------- R-AB-1


def wave_state(n: int) -> GameState:
    red = [(f"R{i}", RED, (8, 2 + i)) for i in range(1, n + 1)]
    st = game([("1R1", "jaakariryhma", (3, 4))], red, first_side="red")
    st = with_contact(st, "red", "1R1", ContactLevel.SPOTTED)
    return fire_phase(st)


@pytest.mark.parametrize("squads", [2, 3, 4])
def test_r_ab_1_wave_attack_needs_three_squads_on_one_target(dice: Dice, squads: int) -> None:
    st = wave_state(squads)
    due = st.turn_no + 2  # Red's next own turn (R-TURN-3)
    for i in range(1, squads + 1):
        dice.script(2, 2, *([1] * 6))  # misses (one or two d20s)
        st, _ = apply(st, "gm", Order.fire(f"R{i}", "1R1"))
    marks = {uid: ab._ext(u).get("wave") for uid, u in st.units.items() if u.side == "red"}
    got = {uid for uid, m in marks.items() if m == due}
    assert got == ({f"R{i}" for i in range(1, squads + 1)} if squads >= 3 else set())
    unit = st.units["R1"]
    bonus_then = ab._morale_modifiers(Tx(replace(st, turn_no=due)), unit)
    bonus_now = ab._morale_modifiers(Tx(st), unit)
    assert bonus_now == 0
    assert bonus_then == (1 if squads >= 3 else 0)


def test_r_ab_1_wave_bonus_option_and_minimum(dice: Dice) -> None:
    sc = build(
        open_rows(14, 9, FIELD),
        [("1R1", "jaakariryhma", (3, 4))],
        [("R1", RED, (8, 3)), ("R2", RED, (8, 4))],
        first_side="red",
        options={"wave_attack_min_squads": 2, "wave_attack_morale_bonus": 3},
    )
    st = fire_phase(with_contact(new_game(sc, 1), "red", "1R1", ContactLevel.SPOTTED))
    due = st.turn_no + 2
    for uid in ("R1", "R2"):
        dice.script(2, 2, *([1] * 6))
        st, _ = apply(st, "gm", Order.fire(uid, "1R1"))
    assert ab._morale_modifiers(Tx(replace(st, turn_no=due)), st.units["R2"]) == 3


# --------------------------------------------------------------------------- R-AB-2


def sniper_duel() -> GameState:
    st = game([("S1", SNIPER, (2, 4))], [("R1", RED, (9, 4))])
    return fire_phase(with_contact(st, "blue", "R1", ContactLevel.SPOTTED))


def test_r_ab_2_sniper_hit_disables_an_ability_for_one_turn(dice: Dice) -> None:
    st = sniper_duel()
    order = parse_order("fire S1 R1 with sniper_rifle")
    assert format_order(order) == "fire S1 R1 with sniper_rifle"
    assert order in legal_orders(st, "pl1")
    dice.script(15, 3, 3, *([15] * 10))  # 15+3+4=22 vs 12: heavy hit, d8 twice
    st2, events = apply(st, "pl1", order)
    assert event(events, "order").data["cost"] == 1  # the ability's kp_cost
    atk = event(events, "attack")
    assert atk.data["weapon"] == "tarkkuuskivaari" and atk.data["effect"] == "HEAVY_HIT"
    off = event(events, "ability_disabled")
    assert off.data["ability"] == "aaltohyokkays"
    assert off.visible["red"] is not None and off.visible["blue"] is not None
    assert ab.is_disabled(st2.units["R1"], "aaltohyokkays")
    assert view_extras(st2, "red")["abilities"]["disabled"] == {
        "R1": {"aaltohyokkays": st.turn_no + 1}
    }
    assert "abilities" not in view_extras(st2, "blue")
    # Red's whole next turn it stays disabled; it clears at the end of that turn.
    while st2.active == "blue":
        seat = next(s for s in st2.seats("blue") if s not in st2.done)
        dice.script(*([10] * 20))
        st2, _ = apply(st2, seat, Order.done())
    assert st2.turn_no == st.turn_no + 1
    assert ab.is_disabled(st2.units["R1"], "aaltohyokkays")
    dice.script(*([10] * 40))
    st3, seen = st2, []
    while st3.active == "red":
        assert ab.is_disabled(st3.units["R1"], "aaltohyokkays")
        st3, events = apply(st3, "gm", Order.done())
        seen += events
    assert not ab.is_disabled(st3.units["R1"], "aaltohyokkays")
    back = next(e for e in seen if e.kind == "ability_restored")
    assert back.visible["blue"] is None


def test_r_ab_2_sniper_miss_disables_nothing(dice: Dice) -> None:
    dice.script(2, *([15] * 10))
    st2, events = apply_text(sniper_duel(), "pl1", "fire S1 R1 with tarkkuuskivaari")
    assert not any(e.kind == "ability_disabled" for e in events)
    assert "abilities" not in st2.units["R1"].ext


def test_r_ab_2_disabled_ability_cannot_be_used() -> None:
    st = game([("V1", "cv9030", (2, 4))], [("R1", RED, (7, 4))])
    st = with_contact(st, "blue", "R1", ContactLevel.SPOTTED)
    check_order(st, "pl1", parse_order("use V1 lamauttava_tuli 7,4"))
    off = with_unit(st, "V1", ext={"abilities": {"disabled": {"lamauttava_tuli": 9}}})
    with pytest.raises(IllegalOrderError, match="disabled"):
        check_order(off, "pl1", parse_order("use V1 lamauttava_tuli 7,4"))
    assert not [o for o in legal_orders(off, "pl1") if o.kind == USE]
    s = game([("S1", SNIPER, (2, 4))], [("R1", RED, (9, 4))])
    s = with_unit(s, "S1", ext={"abilities": {"disabled": {"piiloutuminen": 9}}})
    with pytest.raises(IllegalOrderError, match="disabled"):
        check_order(s, "pl1", hide_order("S1"))


# --------------------------------------------------------------------------- R-AB-3


def test_r_ab_3_one_roll_against_each_enemy_in_the_area(dice: Dice) -> None:
    st = game(
        [("V1", "cv9030", (2, 4))],
        [("R1", RED, (7, 4)), ("R2", RED, (8, 5)), ("R3", RED, (10, 4))],
    )
    st = with_contact(st, "blue", "R1", ContactLevel.SPOTTED)
    assert parse_order("use V1 lamauttava_tuli 7,4") in legal_orders(st, "pl1")
    kp = st.kp["pl1"]
    dice.script(12, 2, 3, *([15] * 10))
    st2, events = apply_text(st, "pl1", "use V1 lamauttava_tuli 7,4")
    assert st2.kp["pl1"] == kp - 1
    ev = event(events, "area_attack")
    d20s = [r for r in ev.data["rolls"] if r["purpose"] == "area_fire"]
    assert len(d20s) == 1
    total = ev.data["total"]
    assert total == 12 + 2 + 1  # TT 2 + coaxial MG +1
    targets = {t["target"]: t for t in ev.data["targets"]}
    assert set(targets) == {"R1", "R2"}  # R3 is outside the 3×3 area
    for t in targets.values():
        assert t["defence"] == 11 + 1 and t["margin"] == total - 12
        assert t["effect"] == "HIT"
    assert st2.units["R1"].strength == 9 - 2 and st2.units["R2"].strength == 9 - 3
    assert st2.units["V1"].fired
    # Redaction: Blue sees only the target it has a contact on (R2 unseen before).
    seen = ev.visible["blue"]
    assert seen is not None
    assert [t["target"] for t in seen["targets"]] == ["R1"] or "R2" in st2.contacts["blue"]
    red_copy = ev.visible["red"]
    assert red_copy is not None and {t["target"] for t in red_copy["targets"]} == {"R1", "R2"}


def test_r_ab_3_area_fire_needs_an_area_weapon_and_range() -> None:
    st = game([("V1", "cv9030", (2, 4))], [("R1", RED, (12, 4))])
    with pytest.raises(IllegalOrderError, match="out of range"):
        check_order(st, "pl1", parse_order("use V1 lamauttava_tuli 12,4"))
    with pytest.raises(IllegalOrderError, match="area weapon"):
        check_order(
            with_contact(st, "blue", "R1", ContactLevel.SPOTTED),
            "pl1",
            parse_order("attack V1 R1 with rinnakkaiskk"),
        )
    s = game([("S1", SNIPER, (2, 4))], [("R1", RED, (9, 4))])
    with pytest.raises(IllegalOrderError, match="no ability"):
        check_order(s, "pl1", parse_order("use S1 lamauttava_tuli 5,4"))


# --------------------------------------------------------------------------- R-AB-4


@pytest.mark.parametrize(
    ("card", "disabled", "penalty"),
    [("jaakariryhma", False, 0), ("joukkueenjohtaja", False, 2), ("jaakariryhma", True, 2)],
)
def test_r_ab_4_drone_recon_has_no_uphill_penalty(
    dice: Dice, card: str, disabled: bool, penalty: int
) -> None:
    elevation = [[0] * 14 for _ in range(9)]
    for y in range(9):
        for x in range(6, 14):
            elevation[y][x] = 5
    st = game([("1R1", card, (2, 4))], [("R1", RED, (7, 4))], elevation=elevation)
    if disabled:
        st = with_unit(st, "1R1", ext={"abilities": {"disabled": {"drone": 9}}})
    dice.script(10, 1, *([5] * 10))
    _, events = apply_text(st, "pl1", "recon 1R1 7,4")
    res = next(e for e in events if e.kind == "recon").data["results"][0]
    assert res["scout_total"] == 10 + 2 - penalty


# --------------------------------------------------------------------------- R-AB-5


def test_r_ab_5_pioneer_cards_carry_their_abilities() -> None:
    cards = cache_for(game([("1R1", "pioneeriryhma", (2, 4))], [("R1", RED, (9, 4))]).scenario)
    card = cards.cards["pioneeriryhma"]
    assert card.has_ability("pioneeri") and card.has_ability("murtosulute")
    table = ab.table_of(cards.rules)
    assert table.get("pioneeri") is not None and table.get("murtosulute") is not None


# --------------------------------------------------------------------------- R-ATK-9 / R-UNIT-3


def at_duel(red_card: str, distance: int) -> GameState:
    st = game([("P1", "panssarintorjuntaryhma", (2, 4))], [("T1", red_card, (2 + distance, 4))])
    return with_contact(st, "blue", "T1", ContactLevel.SPOTTED)


def test_r_atk_9_at_weapon_only_against_armoured_targets() -> None:
    tank = at_duel("t72", 10)
    order = parse_order("attack P1 T1 with pst_ohjus")
    assert order in legal_orders(tank, "pl1")
    check_order(tank, "pl1", order)  # range 12, beyond the basic weapon's 6
    with pytest.raises(IllegalOrderError, match="out of range"):
        check_order(tank, "pl1", Order.attack("P1", "T1"))
    soft = at_duel(RED, 5)
    with pytest.raises(IllegalOrderError, match="anti-tank"):
        check_order(soft, "pl1", order)
    with pytest.raises(IllegalOrderError, match="no weapon"):
        check_order(tank, "pl1", parse_order("attack P1 T1 with kanuuna"))


def test_r_atk_9_at_weapon_rolls_its_at_damage(dice: Dice) -> None:
    st = fire_phase(at_duel("t72", 5))
    dice.script(15, 4, 4, 4, *([15] * 10))  # 15+2+3=20 vs 16+1: HIT, 3d8
    st2, events = apply_text(st, "pl1", "fire P1 T1 with pst_ohjus")
    atk = event(events, "attack")
    assert atk.data["damage_type"] == "AT" and atk.data["weapon"] == "pst_ohjus"
    assert atk.data["effect"] == "HIT" and atk.data["damage"] == 12
    assert st2.units["T1"].strength == 20 - 12


def test_r_atk_9_frag_against_armour_is_halved(dice: Dice) -> None:
    st = game([("1R1", "jaakariryhma", (2, 4))], [("B1", "bmp2", (7, 4))])
    st = fire_phase(with_contact(st, "blue", "B1", ContactLevel.SPOTTED))
    dice.script(19, 5, 4, *([15] * 10))  # 19+4=23 vs 14+1: heavy hit, d6 twice = 9
    st2, events = apply(st, "pl1", Order.fire("1R1", "B1"))
    atk = event(events, "attack")
    assert atk.data["effect"] == "HEAVY_HIT" and atk.data["damage_type"] == "FRAG"
    assert atk.data["damage"] == 9 // 2
    assert st2.units["B1"].strength == 14 - 4


# --------------------------------------------------------------------------- R-TK-1 vehicles


def test_r_tk_1_vehicle_card_overrides_damaged_movement() -> None:
    st = game(
        [("V1", "cv9030", (2, 4)), ("1R1", "jaakariryhma", (2, 6))],
        [("T1", "t72", (12, 4))],
    )
    st = with_unit(st, "V1", strength=5)
    st = with_unit(st, "1R1", strength=3)
    st = with_unit(st, "T1", strength=6)
    cache = cache_for(st)
    assert cache.is_damaged(st.units["V1"]) and cache.is_damaged(st.units["T1"])
    assert cache.movement(st.units["V1"]) == 16  # damaged_movement = "full"
    assert cache.movement(st.units["T1"]) == 14
    assert cache.movement(st.units["1R1"]) == 7 // 2


# --------------------------------------------------------------------------- consistency


@settings(max_examples=15, deadline=None)
@given(
    st_.sampled_from(SIDES),
    st_.integers(min_value=3, max_value=9),
    st_.booleans(),
    st_.booleans(),
)
def test_r_unit_4_every_listed_ability_order_passes_its_check(
    side: Side, dx: int, fire: bool, hide_s: bool
) -> None:
    st = game(
        [
            ("S1", SNIPER, (2, 4)),
            ("V1", "cv9030", (2, 2)),
            ("P1", "panssarintorjuntaryhma", (1, 6)),
        ],
        [("R1", RED, (2 + dx, 4)), ("T1", "t72", (2 + dx, 2)), ("B1", "bmp2", (2 + dx, 6))],
        first_side=side,
    )
    other = other_side(side)
    for uid in ("R1", "T1", "B1", "S1", "V1", "P1"):
        if st.units[uid].side == other:
            st = with_contact(st, side, uid, ContactLevel.SPOTTED)
    if hide_s:
        st = hidden(st, "S1")
    if fire:
        st = fire_phase(st)
    seats = st.seats(side)
    mine = 0
    for seat in seats:
        for o in legal_orders(st, seat, recon_cells=False, attack_moves=False):
            if o.kind in (HIDE, USE) or order_weapon(o) is not None:
                mine += 1
                check_order(st, seat, o)
                assert parse_order(format_order(o)) == o
    if side == "blue" and not fire and not hide_s:
        assert mine > 0


def test_r_mor_3_views_show_hidden_to_its_own_side_only() -> None:
    from taistelukentta.views.view import view_for

    st = game([("S1", SNIPER, (2, 4))], [("R1", RED, (4, 4))])
    st = with_contact(hidden(st, "S1"), "red", "S1", ContactLevel.SPOTTED)

    def statuses(viewer: str) -> list[str]:
        found = [u for u in view_for(st, viewer).units if u.id == "S1"]
        return list(found[0].statuses) if found else []

    assert "HIDDEN" in statuses("blue") and "HIDDEN" in statuses("gm")
    assert "S1" in [u.id for u in view_for(st, "red").units]  # spotted by red
    assert "HIDDEN" not in statuses("red")
    assert "HIDDEN" not in view_for(st, "red").model_dump_json()


def test_r_ab_2_the_attacker_picks_the_ability_in_the_order(dice: Dice) -> None:
    st = game([("S1", SNIPER, (2, 4))], [("V1", "bmp2", (9, 4))])
    st = fire_phase(with_contact(st, "blue", "V1", ContactLevel.SPOTTED))
    text = "fire S1 V1 with sniper_rifle disable lamauttava_tuli"
    order = parse_order(text)
    assert format_order(order) == text and parse_order(format_order(order)) == order
    assert parse_order("ammu S1 V1 aseella sniper_rifle lamauta lamauttava_tuli") == order
    with pytest.raises(IllegalOrderError, match="no ability 'drone'"):
        check_order(st, "pl1", parse_order("fire S1 V1 with sniper_rifle disable drone"))
    with pytest.raises(IllegalOrderError, match="only a weapon that disables"):
        check_order(st, "pl1", parse_order("fire S1 V1 with jalkavakiaseistus disable drone"))
    dice.script(18, 5, 5, *([15] * 10))  # 18+7=25 vs 14+1: heavy hit (FRAG halved)
    st2, events = apply(st, "pl1", order)
    assert event(events, "ability_disabled").data["ability"] == "lamauttava_tuli"
    assert ab.is_disabled(st2.units["V1"], "lamauttava_tuli")


def test_r_ab_2_the_pick_goes_with_the_fire_order_not_the_attack_order() -> None:
    st = game([("S1", SNIPER, (2, 4))], [("R1", RED, (9, 4))])
    st = with_contact(st, "blue", "R1", ContactLevel.SPOTTED)
    check_order(st, "pl1", parse_order("attack S1 R1 with sniper_rifle"))
    with pytest.raises(IllegalOrderError, match="picked on the `fire"):
        check_order(st, "pl1", parse_order("attack S1 R1 with sniper_rifle disable drone"))


def test_r_mine_4_immobilised_vehicle_cannot_be_ordered_to_move() -> None:
    mines = pytest.importorskip("taistelukentta.rules.mines")
    st = game([("V1", "cv9030", (2, 4))], [("R1", RED, (12, 4))])
    check_order(st, "pl1", parse_order("move V1 5,4"))
    tx = Tx(st)
    mines.immobilise(tx, "V1", "test")
    stuck = tx.finish()
    assert mines.is_immobilised(stuck.units["V1"])
    with pytest.raises(IllegalOrderError, match="cannot reach"):
        check_order(stuck, "pl1", parse_order("move V1 5,4"))
    moves = [o for o in legal_orders(stuck, "pl1", unit="V1") if o.kind == OrderKind.MOVE]
    assert moves == []


def test_r_rec_6_a_hidden_placement_is_hidden_from_the_first_observation() -> None:
    st = new_game(load_scenario("terasvalli"), 3)
    setup = replace(with_unit(st, "R16", ext={}), event_count=0)
    assert not any(
        abs(u.cell[0] - 36) <= 2 and abs(u.cell[1] - 19) <= 2
        for u in st.units.values()
        if u.side == "blue"
    )
    assert not Tx(setup).set_contact("blue", "R16", ContactLevel.SPOTTED)
    later = replace(with_unit(st, "R16", ext={}))
    assert Tx(later).set_contact("blue", "R16", ContactLevel.SPOTTED)


# --------------------------------------------------------------------------- engine loose ends


def test_r_atk_9_fire_phase_waits_for_a_special_weapon_beyond_the_basic_range() -> None:
    """The engine's fire-phase auto-done also asks the modules' fire-phase legal orders: a
    unit whose only target is beyond its basic range (AT missile at 10) gets its shot."""
    st = at_duel("t72", 10)
    st, _ = apply_text(st, "pl1", "attack P1 T1 with pst_ohjus")
    st, _ = apply_text(st, "pl1", "done")
    st, _ = apply_text(st, "co", "done")
    assert st.phase == Phase.FIRE and st.active == "blue"
    assert "pl1" not in st.done  # not auto-done: the missile can still fire
    assert "co" in st.done  # the CO has nothing to fire at
    shot = parse_order("fire P1 T1 with pst_ohjus")
    assert shot in legal_orders(st, "pl1")
    assert Order.fire("P1", "T1") not in legal_orders(st, "pl1")  # basic range 6


@pytest.mark.parametrize("already_hidden", [True, False])
def test_r_mor_3_fire_phase_auto_done_only_without_any_module_order(already_hidden: bool) -> None:
    """A soft target beyond the basic range: the AT missile may not fire at it. A hidden
    unit has nothing left to decide, so the fire phase passes on its own; a unit that can
    still hide (R-MOR-3, fire phase too) keeps its seat in the phase."""
    st = game([("P1", "panssarintorjuntaryhma", (2, 4))], [("R1", RED, (12, 4))])
    st = with_contact(st, "blue", "R1", ContactLevel.SPOTTED)
    if already_hidden:
        st = hidden(st, "P1")
    st, _ = apply_text(st, "pl1", "defend P1")
    st, _ = apply_text(st, "pl1", "done")
    st, _ = apply_text(st, "co", "done")
    if already_hidden:
        assert st.active == "red"
    else:
        assert st.phase == Phase.FIRE and "pl1" not in st.done
        assert legal_orders(st, "pl1") == [hide_order("P1"), Order.done()]
        st, _ = apply_text(st, "pl1", "hide P1")
        assert st.active == "red"  # nothing left: done at once


def test_r_atk_9_attack_orders_that_move_first_with_a_special_weapon_are_listed() -> None:
    """`attack U T from X,Y with W` is listed (one per destination with T in W's range from
    there), every listed one passes its check, and `attack_moves=False` leaves them out."""
    st = game([("P1", "panssarintorjuntaryhma", (0, 4))], [("T1", "t72", (13, 4))])
    st = with_contact(st, "blue", "T1", ContactLevel.SPOTTED)  # missile range 12: move first
    listed = [
        o for o in legal_orders(st, "pl1") if o.kind == OrderKind.ATTACK and o.cell is not None
    ]
    special = [o for o in listed if order_weapon(o) == "pst_ohjus"]
    assert special, "no attack-after-move with the missile listed"
    for o in special:
        check_order(st, "pl1", o)
        assert o.cell is not None and max(abs(o.cell[0] - 13), abs(o.cell[1] - 4)) <= 12
        assert parse_order(format_order(o)) == o
    assert parse_order("attack P1 T1 from 1,4 with pst_ohjus") in special
    assert Order.move("P1", (0, 3)) in legal_orders(st, "pl1")
    assert parse_order("attack P1 T1 from 0,3 with pst_ohjus") not in special  # 13 away
    short = legal_orders(st, "pl1", attack_moves=False)
    assert not any(o.kind == OrderKind.ATTACK and o.cell is not None for o in short)
    only = legal_orders(st, "pl1", kinds=[OrderKind.ATTACK])
    assert [o for o in only if o.cell is not None and order_weapon(o) == "pst_ohjus"] == special


def test_r_atk_9_no_moving_special_attack_at_a_target_the_weapon_may_not_hit() -> None:
    st = game([("P1", "panssarintorjuntaryhma", (0, 4))], [("R1", RED, (13, 4))])
    st = with_contact(st, "blue", "R1", ContactLevel.SPOTTED)  # soft: no AT missile
    assert not any(order_weapon(o) == "pst_ohjus" for o in legal_orders(st, "pl1"))


# --------------------------------------------------------------------------- issue 7


def test_r_mor_3_ability_table_belongs_to_the_ruleset() -> None:
    """The ability table is the abilities module's data in one ruleset (issue 7: no
    process-global registry): a ruleset whose table makes ``tulenjohto`` a way into HIDDEN
    lets 1R1 ``hide``; a game of the default ruleset in the same process still may not,
    before and after."""
    from taistelukentta.content.scenario import load_scenario
    from taistelukentta.rules import legal_orders, new_game
    from taistelukentta.rules.ruleset import Ruleset, default_ruleset

    hiding = ab.rule_module(extra=(ab.AbilitySpec("tulenjohto", grants_hidden=True),))
    custom = Ruleset([m for m in default_ruleset().modules if m.name != ab.MODULE] + [hiding])
    scenario = load_scenario("demo")
    plain = new_game(scenario, 1)
    assert hide_order("1R1") not in legal_orders(plain, "pl1")
    special = new_game(scenario, 1, ruleset=custom)
    assert hide_order("1R1") in legal_orders(special, "pl1")
    assert ab.table_of(custom).grants_hidden("tulenjohto")
    assert not ab.table_of(default_ruleset()).grants_hidden("tulenjohto")
    assert hide_order("1R1") not in legal_orders(new_game(scenario, 1), "pl1")
    with pytest.raises(IllegalOrderError, match="hide"):
        apply(plain, "pl1", hide_order("1R1"))
