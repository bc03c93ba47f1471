"""Zones of control, movement under fog of war, contacts and recon (R-ZOC-*, R-REC-*)."""

from __future__ import annotations

import pytest

from taistelukentta.errors import IllegalOrderError
from taistelukentta.grid.geometry import chebyshev
from taistelukentta.rules import GameState, Order, apply, check_order, legal_orders
from taistelukentta.rules.engine import new_game
from taistelukentta.rules.recon import ContactLevel
from taistelukentta.rules.state import contact_area

from .conftest import Dice, build, open_rows, with_contact

SQUAD = "jaakariryhma"
RED = "motorisoitu_jalkavakiryhma"


def test_r_zoc_2_entering_an_enemy_zoc_stops_the_move() -> None:
    sc = build(open_rows(14, 8), [("1R1", SQUAD, (1, 4))], [("R1", RED, (8, 4))])
    st = new_game(sc, 1)
    assert "R1" not in st.contacts["blue"]
    # (7,4) is next to the unseen R1: legal, but the move stops on entering its ZoC
    st, events = apply(st, "pl1", Order.move("1R1", (7, 4)))
    unit = st.units["1R1"]
    assert chebyshev(unit.cell, (8, 4)) == st.scenario.options.zoc_radius
    move = next(e for e in events if e.kind == "move")
    assert move.data["stopped_by"] == "stop_cell"
    # passive observation both ways (R-REC-3)
    assert st.contacts["blue"]["R1"].level == ContactLevel.SPOTTED
    assert st.contacts["red"]["1R1"].level == ContactLevel.SPOTTED


def test_r_zoc_2_planning_stops_at_a_known_zoc() -> None:
    sc = build(open_rows(14, 8), [("1R1", SQUAD, (1, 4))], [("R1", RED, (8, 4))])
    st = with_contact(new_game(sc, 1), "blue", "R1", ContactLevel.SPOTTED)
    with pytest.raises(IllegalOrderError, match="cannot reach"):
        check_order(st, "pl1", Order.move("1R1", (7, 4)))
    with pytest.raises(IllegalOrderError, match="cannot reach"):
        check_order(st, "pl1", Order.move("1R1", (8, 4)))
    check_order(st, "pl1", Order.move("1R1", (6, 4)))


def zoc_pair() -> GameState:
    sc = build(open_rows(14, 8, ","), [("1R1", SQUAD, (6, 4))], [("R1", RED, (8, 4))])
    return new_game(sc, 5)


def test_r_zoc_3_opportunity_attack_on_leaving(dice: Dice) -> None:
    st = zoc_pair()
    # R1's attack d20 15 (+2 vs S 12 + field 1 → margin 4: HIT), damage d6 4,
    # then 1R1's first-damage morale test d20 15 (+2 ≥ DC 12: pass)
    dice.script(15, 4, 15)
    st, events = apply(st, "pl1", Order.withdraw("1R1", (2, 4)))
    attack = next(e for e in events if e.kind == "attack")
    assert attack.data["kind"] == "opportunity"
    assert attack.data["attacker"] == "R1" and attack.data["target"] == "1R1"
    assert attack.data["effect"] == "HIT" and attack.data["damage"] == 4
    assert st.units["1R1"].strength == 6
    morale = next(e for e in events if e.kind == "morale")
    assert morale.data["reason"] == "first_damage" and morale.data["outcome"] == "PASS"
    assert st.units["1R1"].cell == (2, 4)
    assert dice.remaining == []
    rolls = [r["purpose"] for e in events for r in e.data.get("rolls", [])]
    assert rolls[0] == "opportunity"


def test_r_zoc_3_disengage_takes_no_opportunity_attack(dice: Dice) -> None:
    st = zoc_pair()
    dice.script()  # any roll would fail the test
    st, events = apply(st, "pl1", Order.disengage("1R1", (2, 4)))
    assert not [e for e in events if e.kind == "attack"]
    assert st.units["1R1"].cell == (2, 4)


def test_r_zoc_3_suppressed_by_the_opportunity_attack_stops(dice: Dice) -> None:
    st = zoc_pair()
    # HIT 4 damage, morale d20 4 (+2 = 6, DC 12 short by 6: SUPPRESSED) → stops in place
    dice.script(15, 4, 4)
    st, _ = apply(st, "pl1", Order.withdraw("1R1", (2, 4)))
    unit = st.units["1R1"]
    assert unit.suppressed == st.turn_no
    assert unit.cell == (6, 4)


def test_r_geo_4_stacking_limit_blocks_destination() -> None:
    sc = build(
        open_rows(10, 6),
        [("A", SQUAD, (1, 1)), ("B", SQUAD, (3, 1)), ("C", SQUAD, (3, 1))],
        [("R1", RED, (9, 5))],
    )
    st = new_game(sc, 1)
    with pytest.raises(IllegalOrderError, match="full"):
        check_order(st, "pl1", Order.move("A", (3, 1)))
    assert Order.move("A", (3, 1)) not in legal_orders(st, "pl1")
    check_order(st, "pl1", Order.move("A", (4, 1)))  # passing through is fine


def test_r_rec_5_unseen_enemy_cell_is_a_legal_destination_and_the_move_bumps() -> None:
    # no ZoC and no passive radius, so only the bump reveals the enemy
    sc = build(
        open_rows(12, 6, ","),
        [("1R1", SQUAD, (1, 2))],
        [("R1", RED, (5, 2))],
        options={"zoc_radius": 0, "passive_spot_radius": 0},
    )
    st = new_game(sc, 1)
    order = Order.move("1R1", (5, 2))
    assert order in legal_orders(st, "pl1")
    st, events = apply(st, "pl1", order)
    assert st.units["1R1"].cell != (5, 2)
    assert chebyshev(st.units["1R1"].cell, (5, 2)) == 1
    assert any(e.kind == "bump" for e in events)
    assert st.contacts["blue"]["R1"].level == ContactLevel.SPOTTED


def fog_state(red_cell: tuple[int, int]) -> GameState:
    rows = ["." * 16 for _ in range(10)]
    rows[5] = "......FFFFF....."  # a wood to hide in
    sc = build(rows, [("1R1", SQUAD, (1, 1)), ("1R2", SQUAD, (2, 8))], [("R1", RED, red_cell)])
    return new_game(sc, 11)


@pytest.mark.parametrize("red_cell", [(8, 5), (14, 9), (10, 5), (15, 0)])
def test_legal_orders_never_depend_on_unseen_enemies(red_cell: tuple[int, int]) -> None:
    base = fog_state((12, 5))
    other = fog_state(red_cell)
    assert "R1" not in base.contacts["blue"] and "R1" not in other.contacts["blue"]
    for seat in ("pl1", "co"):
        assert legal_orders(base, seat) == legal_orders(other, seat)
    for order in (
        Order.move("1R1", red_cell),
        Order.move("1R1", (6, 1)),
        Order.attack("1R1", "R1"),
        Order.fire("1R1", "R1"),
        Order.recon("1R2", red_cell),
    ):
        outcomes = []
        for st in (base, other):
            try:
                check_order(st, "pl1", order)
                outcomes.append("legal")
            except IllegalOrderError as exc:
                outcomes.append(exc.en)
        assert outcomes[0] == outcomes[1]


def test_illegal_reasons_never_tell_where_an_unseen_enemy_is() -> None:
    a = fog_state((8, 5))
    b = fog_state((14, 9))
    for order in (Order.fire("1R1", "R1"), Order.attack("1R1", "R1", (3, 3)), Order.defend("R1")):
        msgs = []
        for st in (a, b):
            with pytest.raises(IllegalOrderError) as info:
                check_order(st, "pl1", order)
            msgs.append((info.value.en, info.value.fi))
        assert msgs[0] == msgs[1]


def test_r_rec_3_moving_in_open_terrain_in_sight_is_spotted() -> None:
    sc = build(open_rows(16, 6), [("1R1", SQUAD, (1, 1))], [("R1", RED, (14, 4))])
    st = new_game(sc, 2)
    st, events = apply(st, "pl1", Order.move("1R1", (6, 1)))
    assert st.contacts["red"]["1R1"].level == ContactLevel.SPOTTED
    # Blue learns nothing of R1 (it did not move, it is farther than 2 cells)
    assert "R1" not in st.contacts["blue"]
    move = next(e for e in events if e.kind == "move")
    # Where the SPOTTED unit went, not which order sent it (issue 8).
    assert move.visible["red"] == {"unit": "1R1", "to": [6, 1]}


def test_r_rec_3_moving_in_cover_is_not_spotted() -> None:
    rows = ["FFFFFFFF........" for _ in range(6)]
    sc = build(rows, [("1R1", SQUAD, (1, 1))], [("R1", RED, (12, 1))])
    st = new_game(sc, 2)
    st, events = apply(st, "pl1", Order.move("1R1", (3, 1)))
    assert "1R1" not in st.contacts["red"]
    move = next(e for e in events if e.kind == "move")
    assert move.visible["red"] is None


def test_r_rec_5_moving_target_drops_one_level_or_is_lost_out_of_sight() -> None:
    rows = ["FFFFFFFFFF" for _ in range(8)]
    sc = build(rows, [("1R1", SQUAD, (6, 4))], [("R1", RED, (9, 4))])
    st = new_game(sc, 2)
    st = with_contact(st, "red", "1R1", ContactLevel.SPOTTED)
    seen, _ = apply(st, "pl1", Order.move("1R1", (5, 4)))  # 4 from R1 in forest: still in sight
    c = seen.contacts["red"]["1R1"]
    assert c.level == ContactLevel.KNOWN and c.cell is None
    assert c.area == contact_area((5, 4), ContactLevel.KNOWN)
    gone, events = apply(st, "pl1", Order.move("1R1", (3, 4)))  # 6 in forest: out of sight
    assert "1R1" not in gone.contacts["red"]
    contact = next(e for e in events if e.kind == "contact" and e.data["side"] == "red")
    assert contact.visible["blue"] is None  # Blue is not told what Red lost


def test_contact_areas_sit_on_a_fixed_grid() -> None:
    for x in range(0, 12):
        for y in range(0, 12):
            kx, ky, ks = contact_area((x, y), ContactLevel.KNOWN) or (0, 0, 0)
            assert ks == 3 and kx % 3 == 0 and ky % 3 == 0 and kx <= x < kx + 3
            sx, sy, ss = contact_area((x, y), ContactLevel.SUSPECTED) or (0, 0, 0)
            assert ss == 5 and sx % 5 == 0 and sy <= y < sy + 5
    assert contact_area((4, 4), ContactLevel.SPOTTED) is None


def recon_state() -> GameState:
    sc = build(open_rows(12, 8), [("1R1", SQUAD, (1, 4))], [("R1", RED, (6, 4))])
    return new_game(sc, 4)


def test_r_rec_4_active_recon_gains_a_contact(dice: Dice) -> None:
    st = recon_state()
    # scout d20 18 + TT 2 = 20 vs target d12 3 + H 1 + cover 0 = 4: wins by 16 → SPOTTED
    dice.script(18, 3)
    st, events = apply(st, "pl1", Order.recon("1R1", (6, 4)))
    assert st.contacts["blue"]["R1"].level == ContactLevel.SPOTTED
    assert st.kp["pl1"] == st.scenario.options.kp_platoon_leader - 1
    recon = next(e for e in events if e.kind == "recon")
    assert recon.visible["blue"] is not None and recon.visible["blue"]["found"] == ["R1"]
    assert len(recon.visible["blue"]["rolls"]) == 2
    assert recon.visible["red"] is None


@pytest.mark.parametrize(
    ("scout", "target", "level"),
    [(5, 2, ContactLevel.SUSPECTED), (9, 1, ContactLevel.KNOWN), (3, 9, ContactLevel.NONE)],
)
def test_r_rec_2_contact_level_by_margin(
    dice: Dice, scout: int, target: int, level: ContactLevel
) -> None:
    st = recon_state()
    dice.script(scout, target)
    st, events = apply(st, "pl1", Order.recon("1R1", (6, 4)))
    got = st.contacts["blue"].get("R1")
    assert (got.level if got else ContactLevel.NONE) == level
    recon = next(e for e in events if e.kind == "recon")
    seen = recon.visible["blue"]
    assert seen is not None
    if level == ContactLevel.NONE:
        # a failed roll tells nothing: not even that someone was there
        assert seen["found"] == [] and seen["rolls"] == []
        assert recon.data["results"][0]["level"] == "NONE"  # the GM sees it
    else:
        assert seen["found"][0]["contact"].startswith("c")
        assert "'R1'" not in str(seen)


def test_r_rec_4_recon_needs_line_of_sight_and_one_per_turn() -> None:
    rows = ["....B......." for _ in range(8)]
    sc = build(rows, [("1R1", SQUAD, (1, 4))], [("R1", RED, (9, 4))])
    st = new_game(sc, 4)
    with pytest.raises(IllegalOrderError, match="cannot see"):
        check_order(st, "pl1", Order.recon("1R1", (8, 4)))
    st, _ = apply(st, "pl1", Order.recon("1R1", (2, 4)))
    with pytest.raises(IllegalOrderError, match="already made active recon"):
        check_order(st, "pl1", Order.recon("1R1", (2, 5)))
