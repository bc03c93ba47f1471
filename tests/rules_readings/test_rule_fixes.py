"""Rules the engine got wrong (issue 9, "Rules"), each checked against 004 / 000 and named by
its rule ID. Every test here failed on the engine before its fix."""

from __future__ import annotations

from typing import Any

import pytest

from taistelukentta.errors import IllegalOrderError
from taistelukentta.rules import GameState, Order, apply, check_order, legal_orders
from taistelukentta.rules.abilities import use_order
from taistelukentta.rules.engine import new_game
from taistelukentta.rules.events import Event
from taistelukentta.rules.fire_support import boost_order, organic_order, strike_order
from taistelukentta.rules.mines import rush_order
from taistelukentta.rules.recon import ContactLevel
from tests.engine.conftest import Dice, build, open_rows, with_contact, with_unit
from tests.engine_fire_support.conftest import end_command, fs_scenario, until_turn

MORTAR = "kranaatinheitinryhma"  # krh81: 2d6 FRAG, separate AT damage d4
SQUAD = "jaakariryhma"
RED = "motorisoitu_jalkavakiryhma"
BMP = "bmp2"  # armoured (and light)


def _kinds(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e.kind == kind]


# --------------------------------------------------------------------------- R-ATK-9 organic


def _mortar_vs(card: str, **options: Any) -> GameState:
    sc = fs_scenario(
        blue=[("KRH", MORTAR, (1, 10)), ("1R1", SQUAD, (10, 10))],
        red=[("R1", card, (15, 10))],
        options=options or None,
    )
    return with_contact(new_game(sc, 5), "blue", "R1", ContactLevel.SPOTTED)


def _land(st: GameState, dice: Dice, *values: int, boost: bool = False) -> list[Event]:
    st, _ = apply(st, "pl1", organic_order("KRH", (15, 10), "1R1"))
    if boost:
        st, _ = apply(st, "co", boost_order("KRH"))
    st = until_turn(st, 3)
    events: list[Event] = []
    dice.script(*values)
    end_command(st, events)
    return events


def test_r_atk_9_r_org_1_organic_at_damage_against_armour_is_not_halved(dice: Dice) -> None:
    # 004: "PST vahinko ilmoitetaan erikseen" — the mortar's AT damage (d4) against the
    # BMP-2, as direct fire rolls a weapon's AT dice against armour, in full.
    events = _land(_mortar_vs(BMP), dice, 3, 20, 20, 20)
    hit = _kinds(events, "strike_hit")[0].data
    assert hit["amount"] == 3  # the d4 as rolled (the engine halved it to 1)
    damage = _kinds(events, "damage")[0].data
    assert damage["amount"] == 3
    assert [r["expr"] for r in hit["rolls"]] == ["d4"]


def test_r_fd_4_r_atk_9_boost_is_not_halved_against_armour(dice: Dice) -> None:
    # +2 on the strike's damage roll (R-FD-4) is added to the AT damage, never halved.
    events = _land(_mortar_vs(BMP), dice, 1, 20, 20, 20, boost=True)
    hit = _kinds(events, "strike_hit")[0].data
    assert hit["amount"] == 1 + 2 and hit["boost"] == 2


def test_r_atk_9_at_damage_counts_even_when_frag_does_nothing_against_armour(dice: Dice) -> None:
    # With frag_vs_armour = "none" an armoured target takes no FRAG damage from a weapon
    # without AT dice; the mortar has AT dice, so the AT damage counts — and so does the
    # boost. Against a soft target the 2d6 FRAG + 2 counts in full.
    events = _land(_mortar_vs(RED), dice, 2, 3, 20, 20, 20, boost=True)
    assert _kinds(events, "strike_hit")[0].data["amount"] == 2 + 3 + 2
    events = _land(_mortar_vs(BMP, frag_vs_armour="none"), dice, 4, 20, 20, 20)
    assert _kinds(events, "strike_hit")[0].data["amount"] == 4


# --------------------------------------------------------------------------- R-FD-1 observer


@pytest.mark.parametrize("status", ["suppressed", "retreating"])
def test_r_fd_1_r_mor_2_r_mor_5_suppressed_or_retreating_unit_cannot_direct_fire(
    status: str,
) -> None:
    # 004 Lamautunut: "ei voi liikkua tai käyttää toimintoja"; directing fire is an action.
    st = _mortar_vs(RED)
    order = organic_order("KRH", (15, 10), "1R1")
    check_order(st, "pl1", order)
    troubled = with_unit(st, "1R1", **{status: st.turn_no, "status_dc": 12})
    with pytest.raises(IllegalOrderError, match=status.upper()):
        check_order(troubled, "pl1", order)
    assert all(o.kind.value != "organic" for o in legal_orders(troubled, "pl1"))
    # SHAKEN may (it "voi muuten toimia normaalisti")
    check_order(with_unit(st, "1R1", shaken=st.turn_no), "pl1", order)


@pytest.mark.parametrize("status", ["suppressed", "retreating"])
def test_r_fd_1_off_board_observer_suppressed_or_retreating(status: str) -> None:
    sc = fs_scenario(
        blue=[("1R1", SQUAD, (10, 10))],
        red=[("R1", RED, (15, 10))],
        rounds={},
        requests=5,
        weapons=("k9",),
    )
    st = with_contact(new_game(sc, 3), "blue", "R1", ContactLevel.SPOTTED)
    order = strike_order("k9", (15, 10), "1R1")
    check_order(st, "co", order)
    troubled = with_unit(st, "1R1", **{status: st.turn_no, "status_dc": 12})
    with pytest.raises(IllegalOrderError, match=status.upper()):
        check_order(troubled, "co", order)


# --------------------------------------------------------------------------- R-TER-5 area fire


def _area_duel(elevation_diff: int) -> GameState:
    # A CV9030 (its coaxial machine gun fires at an area: lamauttava_tuli) on a hill
    # ``elevation_diff`` contours above a Red squad.
    elev = [[0] * 12 for _ in range(7)]
    elev[3][2] = elevation_diff
    sc = build(
        open_rows(12, 7, ","), [("1R1", "cv9030", (2, 3))], [("R1", RED, (6, 3))], elevation=elev
    )
    return with_contact(new_game(sc, 9), "blue", "R1", ContactLevel.SPOTTED)


def _area_order(st: GameState) -> Order:
    return use_order("1R1", "lamauttava_tuli", cell=(6, 3))


def test_r_ter_5_r_atk_8_area_fire_gets_the_elevation_bonus(dice: Dice) -> None:
    # 004: "+2 bonuksen kaikkiin hyökkäys- ja tiedusteluheittoihinsa kyseistä kohdetta
    # vastaan" — area fire is an attack roll too.
    flat = _area_duel(0)
    high = _area_duel(4)
    totals = {}
    for name, st in (("flat", flat), ("high", high)):
        order = _area_order(st)
        dice.script(10, 1, 1, 20, 20, 20)
        _, events = apply(st, "pl1", order)
        ev = _kinds(events, "area_attack")[0].data
        target = ev["targets"][0]
        totals[name] = (ev["total"], target["margin"], target.get("elevation"))
    assert totals["flat"][2] is None and totals["high"][2] == 2
    assert totals["high"][1] == totals["flat"][1] + 2


# --------------------------------------------------------------------------- R-ATK-1 sight


def _blind_duel() -> GameState:
    """Blue squad at 2,3 and Red at 9,3 (distance 7, in the squad's range 8) with a wood
    between them: forest limits sight to 5 cells, so neither sees the other."""
    rows = open_rows(12, 7, ",")
    rows[3] = ",,,,FF,,,,,,"
    sc = build(rows, [("1R1", SQUAD, (2, 3))], [("R1", RED, (9, 3))])
    return with_contact(new_game(sc, 9), "blue", "R1", ContactLevel.SPOTTED)


def test_r_atk_1_attack_order_without_line_of_sight_is_refused_with_the_reason() -> None:
    st = _blind_duel()
    kp = st.kp["pl1"]
    with pytest.raises(IllegalOrderError, match="no line of sight to R1 from where it stands"):
        check_order(st, "pl1", Order.attack("1R1", "R1"))
    # moving first to a cell from which the wood still hides it: refused, naming the cell
    with pytest.raises(IllegalOrderError, match=r"no line of sight to R1 from 3,3"):
        check_order(st, "pl1", Order.attack("1R1", "R1", cell=(3, 3)))
    # from 3,1 the line passes north of the wood: accepted
    check_order(st, "pl1", Order.attack("1R1", "R1", cell=(3, 1)))
    attacks = [o for o in legal_orders(st, "pl1") if o.kind.value == "attack"]
    assert attacks and all(o.cell is not None for o in attacks)
    assert Order.attack("1R1", "R1") not in attacks
    assert Order.attack("1R1", "R1", cell=(3, 3)) not in attacks
    assert st.kp["pl1"] == kp


def test_r_atk_1_a_fire_phase_that_ends_by_itself_tells_the_seat_why() -> None:
    st = _blind_duel()
    st, _ = apply(st, "pl1", Order.move("1R1", (2, 5)))
    st, _ = apply(st, "pl1", Order.done())
    st, events = apply(st, "co", Order.done())
    st_fire = [e for e in events if e.kind == "seat_done" and e.data.get("auto")]
    by_seat = {e.data["seat"]: e for e in st_fire}
    assert set(by_seat) == {"pl1", "co"}
    pl1 = by_seat["pl1"]
    assert pl1.data["units"] == [{"unit": "1R1", "reason": "moved"}]
    assert pl1.visible["blue"] == pl1.data
    assert pl1.visible["red"] == {"seat": "pl1", "phase": "fire"}
    assert by_seat["co"].data["units"] == [{"unit": "KP", "reason": "no_target"}]
    from taistelukentta.views.text import describe

    line = describe({"kind": "seat_done", "data": pl1.visible["blue"]})
    assert line is not None and "1R1" in line


# --------------------------------------------------------------------------- R-OFF-2 delays


@pytest.mark.parametrize(("d6", "delay"), [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3)])
def test_r_off_2_every_delay_die_face(dice: Dice, d6: int, delay: int) -> None:
    # 004: "Tuloksella 1-2: … 1 vuoron kuluttua. 3-4: … 2 vuoron … 5-6: … 3 vuoron"
    sc = fs_scenario(
        blue=[("1R1", SQUAD, (10, 10))],
        red=[("R1", RED, (15, 10))],
        rounds={},
        requests=5,
        weapons=("k9",),
    )
    st = with_contact(new_game(sc, 3), "blue", "R1", ContactLevel.SPOTTED)
    now = st.turn_no
    dice.script(d6)
    st, events = apply(st, "co", strike_order("k9", (15, 10), "1R1"))
    ordered = _kinds(events, "strike_ordered")[0].data
    assert ordered["rolls"][0]["dice"] == [d6]
    assert ordered["delay"] == delay
    assert ordered["due"] == now + 2 * delay  # counted in Blue's own turns (R-TURN-3)


# --------------------------------------------------------------------------- R-TK-2


def test_r_tk_2_first_damage_tests_morale_once_then_not_again(dice: Dice) -> None:
    # The first damage of the battle calls a test (DEFAULT DC 12); later damage that does
    # not cross the DAMAGED threshold calls none.
    sc = build(open_rows(12, 7, ","), [("1R1", SQUAD, (2, 3))], [("R1", RED, (7, 3))])
    st = with_contact(new_game(sc, 9), "blue", "R1", ContactLevel.SPOTTED)
    for seat in ("co", "pl1"):
        st, _ = apply(st, seat, Order.done())
    dice.script(11, 1, 20)  # 11 + 4 = 15 vs S 11 + field 1: HIT, d6 1; R1 tests: 20
    st, events = apply(st, "pl1", Order.fire("1R1", "R1"))
    tests = _kinds(events, "morale")
    assert [(e.data["unit"], e.data["reason"], e.data["dc"]) for e in tests] == [
        ("R1", "first_damage", st.scenario.options.first_damage_morale_dc)
    ]
    assert st.scenario.options.first_damage_morale_dc == 12
    assert st.units["R1"].damaged_before and st.units["R1"].strength == 8
    # a second hit of 1 (8 → 7, still ≥ half of 9): no test
    from taistelukentta.rules.context import Tx
    from taistelukentta.rules.status import damage_unit

    tx = Tx(st)
    before = len(tx.events)
    damage_unit(tx, "R1", 1, "test")
    assert [e.kind for e in tx.events[before:]] == ["damage"]
    assert tx.units["R1"].strength == 7


# --------------------------------------------------------------------------- R-MOR-6


def test_r_mor_6_a_strike_calls_one_morale_test_at_the_highest_dc(dice: Dice) -> None:
    # First damage (DC 12) and the strike's own test (DC 13, R-ORG-1) are one cause: one
    # test at 13, as direct fire merges its triggers (docs/rules-readings.md).
    events = _land(_mortar_vs(RED), dice, 3, 4, 20)
    tests = [(e.data["unit"], e.data["dc"], e.data["reason"]) for e in _kinds(events, "morale")]
    assert tests == [("R1", 13, "strike:organic")]
    assert dice.remaining == []


def test_r_mor_6_r_unit_2_bmp2_rushing_an_at_mine(dice: Dice) -> None:
    # 004 PM: "Vaikuttaa vain panssaroituihin ajoneuvoihin"; a BMP-2 is armoured (its
    # `light` mark concerns AP mines only): it takes 1d12 AT damage, loses its movement for
    # good, and tests morale once (DC 14).
    from taistelukentta.rules.mines import is_immobilised
    from tests.engine_mines.conftest import pass_turn
    from tests.engine_mines.test_mines import game

    field = {"id": "b", "type": "AT", "at": [4, 3], "owner": "blue"}
    st = pass_turn(game([("1R1", SQUAD, (0, 0))], [field], red=[("B1", BMP, (6, 3))]))
    st, _ = apply(st, "gm", Order.move("B1", (5, 3)))
    assert st.units["B1"].cell == (5, 3)
    dice.script(5, 20)  # 1d12 = 5; one morale test
    st, events = apply(st, "gm", rush_order("B1"))
    assert st.units["B1"].strength == 14 - 5 and is_immobilised(st.units["B1"])
    assert [(e.data["reason"], e.data["dc"]) for e in _kinds(events, "morale")] == [("mine", 14)]
    assert dice.remaining == []


# --------------------------------------------------------------------------- R-MOR-7


def _morale_with(st: GameState, dice: Dice, d20: int, dc: int = 12) -> GameState:
    from taistelukentta.rules.status import morale_test
    from tests.engine_company.helpers import surgery

    dice.script(d20)
    return surgery(st, lambda tx: morale_test(tx, "1R1", dc, "test"))


def test_r_mor_7_one_morale_status_at_a_time(dice: Dice) -> None:
    sc = build(open_rows(12, 7, ","), [("1R1", SQUAD, (2, 3))], [("R1", RED, (9, 3))])
    st = new_game(sc, 9)
    # M 2, DC 12: d20 9 → short by 1 SHAKEN; d20 4 → by 6 SUPPRESSED; d20 1 → RETREATING
    shaken = _morale_with(st, dice, 9)
    assert (shaken.units["1R1"].shaken, shaken.units["1R1"].suppressed) == (st.turn_no, None)
    suppressed = _morale_with(shaken, dice, 4)
    u = suppressed.units["1R1"]
    assert (u.shaken, u.suppressed, u.retreating) == (None, st.turn_no, None)
    milder = _morale_with(suppressed, dice, 9)  # SHAKEN never replaces SUPPRESSED
    u = milder.units["1R1"]
    assert (u.shaken, u.suppressed, u.retreating) == (None, st.turn_no, None)
    running = _morale_with(suppressed, dice, 1)
    u = running.units["1R1"]
    assert (u.shaken, u.suppressed, u.retreating) == (None, None, st.turn_no)
    still = _morale_with(running, dice, 4)  # SUPPRESSED never replaces RETREATING
    assert (still.units["1R1"].suppressed, still.units["1R1"].retreating) == (None, st.turn_no)


def test_r_mor_7_a_suppressed_and_retreating_unit_runs() -> None:
    # A state saved before R-MOR-7 may hold both: RETREATING wins, the unit runs.
    rows = ["FFF........." for _ in range(7)]
    sc = build(rows, [("1R1", SQUAD, (7, 3))], [("R1", RED, (11, 3))], first_side="red")
    st = new_game(sc, 3)
    st = with_unit(st, "1R1", retreating=0, suppressed=0, status_dc=12)
    st, events = apply(st, "gm", Order.done())
    move = [e for e in events if e.kind == "move" and e.data["unit"] == "1R1"]
    assert move and move[0].data["kind"] == "retreat"
    assert st.units["1R1"].cell[0] < 7


# --------------------------------------------------------------------------- R-LINK-4


def test_r_link_4_without_a_company_commander_every_platoon_leader_is_out_of_link() -> None:
    from taistelukentta.rules import status
    from tests.engine_company.helpers import company_game, end_turn, surgery

    st = company_game()
    st = end_turn(end_turn(st))  # both platoon leaders in link: full pools
    opts = st.scenario.options
    assert st.kp["pl1"] == st.kp["pl2"] == opts.kp_platoon_leader
    st = end_turn(st)  # Red's turn: the CO falls
    st = surgery(st, lambda tx: status.destroy(tx, "KP", "test"))
    st = end_turn(st)  # Blue's command phase, nobody promoted yet
    assert st.kp["pl1"] == st.kp["pl2"] == opts.kp_out_of_link == 2


# --------------------------------------------------------------------------- R-ATK-7


def _fortified_duel(**scenario: Any) -> GameState:
    from taistelukentta.content.scenario import Scenario

    sc: Scenario = build(open_rows(12, 7, ","), [("1R1", SQUAD, (2, 3))], [("R1", RED, (7, 3))])
    sc = sc.model_copy(update=scenario)
    st = with_contact(new_game(sc, 9), "blue", "R1", ContactLevel.SPOTTED)
    for seat in ("co", "pl1"):
        st, _ = apply(st, seat, Order.done())
    return st


def _fire(st: GameState, dice: Dice, *values: int) -> dict[str, Any]:
    dice.script(*values)
    _, events = apply(st, "pl1", Order.fire("1R1", "R1"))
    return dict(_kinds(events, "attack")[0].data)


def test_r_atk_7_fortified_target_gives_disadvantage(dice: Dice) -> None:
    # 000: "Hyökkäys saa Haitan, jos kohde on linnoittautunut"; the default
    # fortified_source = "scenario" reads the scenario's fortifications.
    plain = _fire(_fortified_duel(), dice, 5)  # 5 + 4 vs S 11 + 1: PINNING, no damage
    assert plain["advantage"] == "none" and plain["natural"] == 5
    dug_in = _fire(_fortified_duel(fortifications=frozenset({(7, 3)})), dice, 15, 4)
    assert dug_in["advantage"] == "disadvantage"
    assert dug_in["disadvantage_reasons"] == ["fortified"] and dug_in["natural"] == 4


def test_r_atk_7_scenario_file_marks_fortifications_by_cell_or_unit() -> None:
    from taistelukentta.content.scenario import load_scenario, scenario_from_data
    from taistelukentta.errors import DataError

    terasvalli = load_scenario("terasvalli")
    assert (21, 10) in terasvalli.fortifications  # the dug-in ridge (Rautaharju)
    data = {
        "id": "f",
        "title": "F",
        "briefing": "F.",
        "map": {"name": "m", "terrain": "\n".join(open_rows(8, 5, ",")) + "\n"},
        "rounds": 1,
        "first_side": "blue",
        "victory": {"destroyed_enemy_vp": 1, "own_loss_vp": 0},
        "fortifications": [[1, 1]],
        "smoke": [[4, 2]],
        "blue": {
            "seats": [
                {
                    "id": "co",
                    "role": "company_commander",
                    "name": "co",
                    "units": [{"id": "KP", "card": "komppanianpaallikko", "cell": [0, 0]}],
                }
            ]
        },
        "red": {
            "battle_groups": [
                {
                    "id": "bg1",
                    "name": "bg1",
                    "units": [{"id": "R1", "card": RED, "cell": [6, 3], "fortified": True}],
                }
            ]
        },
    }
    sc = scenario_from_data(data)
    assert sc.fortifications == {(1, 1), (6, 3)} and sc.smoke == {(4, 2)}
    with pytest.raises(DataError, match=r"smoke\[0\].*off the map"):
        scenario_from_data({**data, "smoke": [[9, 9]]})


def test_r_atk_7_smoke_on_the_line_and_very_poor_visibility(dice: Dice) -> None:
    # 000: "… tai näkyvyys on erittäin huono (esim. savu)".
    smoke = _fire(_fortified_duel(smoke=frozenset({(5, 3)})), dice, 15, 4)
    assert smoke["disadvantage_reasons"] == ["poor_visibility"]
    aside = _fire(_fortified_duel(smoke=frozenset({(5, 5)})), dice, 5)
    assert aside["advantage"] == "none"
    from tests.engine.conftest import build as build_sc

    sc = build_sc(
        open_rows(12, 7, ","),
        [("1R1", SQUAD, (2, 3))],
        [("R1", RED, (7, 3))],
        options={"very_poor_visibility": True},
    )
    st = with_contact(new_game(sc, 9), "blue", "R1", ContactLevel.SPOTTED)
    for seat in ("co", "pl1"):
        st, _ = apply(st, seat, Order.done())
    night = _fire(st, dice, 15, 4)
    assert night["disadvantage_reasons"] == ["poor_visibility"]
