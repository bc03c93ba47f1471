"""The baseline bot plays the commander's game (issue 4): company orders, fire support,
minefields and abilities — in whole games and on made-up views."""

from __future__ import annotations

import random
from collections import Counter
from functools import cache
from typing import Any

import pytest

from taistelukentta.bots import BaselineBot, choose_order
from taistelukentta.bots.runner import bot_order, bot_seed
from taistelukentta.content.scenario import Scenario, load_scenario
from taistelukentta.grid.geometry import chebyshev
from taistelukentta.rules import Order, apply, is_legal, new_game, next_seat
from taistelukentta.rules.abilities import ability_of, hide_order, use_order
from taistelukentta.rules.company import (
    promote_order,
    report_order,
    restore_order,
    tactic_of,
    tactic_order,
)
from taistelukentta.rules.fire_support import (
    ORGANIC,
    STRIKE,
    danger_of,
    strike_order,
    strike_type_of,
)
from taistelukentta.rules.mines import breach_order, clear_order, rush_order
from taistelukentta.rules.orders import order_weapon
from taistelukentta.rules.state import SIDES, GameState
from taistelukentta.views.models import SideView
from tests.bots.made_up import made_up_view

FEATURES = {
    "promote",
    "report",
    "transfer",
    "confirm",
    "tactic motti",
    "tactic painopiste",
    "tactic vetaytyminen",
    "withdraw",
    "organic",
    "strike",
    "boost",
    "clear",
    "rush",
    "search",
    "hide",
    "use lamauttava_tuli",
    "with W",
}
"""What the bot must be seen to do across the seeded terasvalli games below (``restore``
and ``breach`` need situations these games do not reach: made-up views test them)."""


@cache
def _scenario(name: str) -> Scenario:
    return load_scenario(name)


def _feature(o: Order) -> list[str]:
    out = [o.kind.value]
    tactic = tactic_of(o)
    if tactic is not None:
        out.append(f"tactic {tactic.name}")
    if ability_of(o):
        out.append(f"use {ability_of(o)}")
    if strike_type_of(o):
        out.append(f"strike {strike_type_of(o)}")
    if order_weapon(o):
        out.append("with W")  # attack or fire with a special (AT) weapon
    return out


def _play(name: str, seed: int) -> tuple[GameState, Counter[str]]:
    """A whole bot game, checking each order before it is applied: legal, and no fire
    support aimed at (or next to) the side's own units."""
    state = new_game(_scenario(name), seed)
    bots = {s: BaselineBot(bot_seed(seed, s)) for s in SIDES}
    used: Counter[str] = Counter()
    for _ in range(3000):
        seat = next_seat(state)
        if seat is None:
            break
        order = bot_order(state, seat, bots[state.active])
        assert is_legal(state, seat, order), order
        if order.kind in (STRIKE, ORGANIC):
            assert order.cell is not None and not danger_of(order)
            near = 3 if order.kind == STRIKE else 1
            assert all(
                chebyshev(u.cell, order.cell) > near for u in state.units_of(state.active)
            ), order
        for f in _feature(order):
            used[f] += 1
        state, _ = apply(state, seat, order)
    return state, used


@pytest.mark.parametrize("name", ["demo", "terasvalli"])
def test_bot_plays_whole_games_of_both_scenarios_on_both_sides(name: str) -> None:
    state, used = _play(name, 7)
    assert state.finished and state.winner in ("blue", "red", "draw")
    assert used["done"] > 0 and used["fire"] > 0


def test_bot_uses_the_commanders_game_across_seeded_terasvalli_games() -> None:
    used: Counter[str] = Counter()
    # (seeds 3, 7, 12 since the strike aim is scored by its exact footprint odds,
    # rules.terms.strike_terms, issue 7: seed 10 no longer transfers KP; before, 3, 7, 10
    # since the rule fixes of issue 9 changed the bots' games)
    for seed in (3, 7, 12):
        state, got = _play("terasvalli", seed)
        assert state.finished
        used.update(got)
    missing = sorted(f for f in FEATURES if used[f] == 0)
    assert not missing, (missing, used)


# ------------------------------------------------------------------ made-up views


def _unit(uid: str, side: str, cell: tuple[int, int], **extra: Any) -> dict[str, Any]:
    u: dict[str, Any] = {
        "id": uid,
        "side": side,
        "card": "jaakariryhma" if side == "blue" else "motorisoitu_jalkavakiryhma",
        "cell": list(cell),
        "strength": 10,
        "max_strength": 10,
        "statuses": [],
        "armoured": False,
        "protection": 12,
        "cover": 0,
    }
    if side == "blue":
        u.update(
            seat="pl1",
            group="pl1",
            action=None,
            moved=False,
            fired=False,
            reconned=False,
            movement=4,
            weapon={
                "id": "rynnakkokivaari",
                "bonus": 4,
                "damage": "d6",
                "damage_divisor": 1,
                "damage_type": "FRAG",
                "at_damage": None,
                "range": 6,
                "min_range": None,
                "indirect": False,
            },
        )
    u.update(extra)
    return u


def _view(units: list[dict[str, Any]], seat: str = "pl1", **extra: Any) -> SideView:
    v: dict[str, Any] = {
        "side": "blue",
        "seat": seat,
        "phase": "command",
        "turn_no": 5,
        "units": units,
        "contacts": [],
        "seat_command_points": 6,
        "command_points": {seat: 6},
        "objectives": [{"id": "o", "cells": [[20, 10]], "own_present": False}],
    }
    v.update(extra)
    return made_up_view(v)


def _command(**extra: Any) -> dict[str, Any]:
    c: dict[str, Any] = {
        "co_seat": "co",
        "co_unit": "KP",
        "leaderless": False,
        "promotion_due": False,
        "links": {"pl1": True, "pl2": True},
        "restored": [],
        "transfers_this_turn": [],
        "tactic_this_turn": False,
        "tactics_used": [],
        "motti_used": False,
        "report_done": True,
        "confirmed": [],
    }
    c.update(extra)
    return c


def _spotted(label: str, uid: str, cell: tuple[int, int]) -> dict[str, Any]:
    return {"label": label, "level": "SPOTTED", "unit": uid, "cell": list(cell), "card": "x"}


def test_r_link_3_bot_promotes_at_once_when_the_co_is_lost() -> None:
    units = [_unit("1R1", "blue", (5, 5)), _unit("2R1", "blue", (8, 5), group="pl2", seat="pl2")]
    view = _view(units, command=_command(promotion_due=True, co_seat=None))
    legal = [Order.move("1R1", (6, 5)), promote_order("pl1"), promote_order("pl2"), Order.done()]
    assert choose_order(view, legal, random.Random(0)).kind.value == "promote"


def test_r_co_4_bot_reports_before_its_first_orders() -> None:
    units = [_unit("KP", "blue", (2, 2), seat="co", group="co")]
    view = _view(units, seat="co", turn_no=1, command=_command(report_done=False))
    legal = [Order.move("KP", (3, 2)), report_order((10, 10)), Order.done()]
    assert choose_order(view, legal, random.Random(0)) == report_order((10, 10))
    moved = [_unit("KP", "blue", (2, 2), seat="co", group="co", moved=True)]
    view = _view(moved, seat="co", turn_no=1, command=_command(report_done=False))
    assert choose_order(view, legal, random.Random(0)) != report_order((10, 10))


def test_r_link_2_bot_restores_a_platoon_out_of_link() -> None:
    units = [
        _unit("KP", "blue", (2, 2), seat="co", group="co"),
        _unit("2R1", "blue", (30, 2), seat="pl2", group="pl2"),
    ]
    view = _view(units, seat="co", command=_command(links={"pl1": True, "pl2": False}))
    legal = [restore_order("pl2"), Order.move("KP", (3, 2)), Order.done()]
    assert choose_order(view, legal, random.Random(0)) == restore_order("pl2")
    linked = _view(units, seat="co", command=_command())
    assert choose_order(linked, legal, random.Random(0)) != restore_order("pl2")


def test_r_co_1_bot_motti_on_a_cluster_of_contacts() -> None:
    units = [_unit("KP", "blue", (2, 2), seat="co", group="co")]
    contacts = [_spotted(f"c{i}", f"R{i}", (20 + i, 10)) for i in range(3)]
    enemies = [_unit(f"R{i}", "red", (20 + i, 10)) for i in range(3)]
    view = _view(units + enemies, seat="co", contacts=contacts, command=_command())
    far = tactic_order("motti", cell=(5, 30))
    near = tactic_order("motti", cell=(21, 10))
    legal = [far, near, Order.done()]
    assert choose_order(view, legal, random.Random(0)) == near
    two = _view(units + enemies[:2], seat="co", contacts=contacts[:2], command=_command())
    assert choose_order(two, legal, random.Random(0)) == Order.done()


def test_r_off_1_bot_strikes_a_cluster_but_never_near_own_units() -> None:
    units = [_unit("KP", "blue", (2, 2), seat="co", group="co")]
    contacts = [_spotted("c1", "R1", (20, 10)), _spotted("c2", "R2", (21, 10))]
    enemies = [_unit("R1", "red", (20, 10)), _unit("R2", "red", (21, 10))]
    fs = {"pending": [], "rounds_left": {}, "requests_left": 3}
    hit = strike_order("k9", (20, 10), "KP")
    legal = [hit, Order.done()]
    view = _view(units + enemies, seat="co", contacts=contacts, command=_command(), fire_support=fs)
    assert choose_order(view, legal, random.Random(0)) == hit
    close = _unit("1R1", "blue", (18, 11), seat="pl1")
    view2 = _view(
        [*units, close, *enemies],
        seat="co",
        contacts=contacts,
        command=_command(),
        fire_support=fs,
    )
    assert choose_order(view2, legal, random.Random(0)) == Order.done()


def test_r_mine_3_bot_clears_with_good_odds_else_rushes() -> None:
    pioneer = _unit("P", "blue", (5, 5), card="pioneeriryhma")
    squad = _unit("S", "blue", (5, 5), card="jaakariryhma")
    mines = {"known": [{"cell": [5, 5], "type": "AP"}], "in_minefield": {"P": [5, 5]}}
    legal = [clear_order("P"), rush_order("P"), Order.done()]
    assert choose_order(_view([pioneer], mines=mines), legal, random.Random(0)) == clear_order("P")
    mines_s = {"known": [{"cell": [5, 5], "type": "AP"}], "in_minefield": {"S": [5, 5]}}
    legal_s = [clear_order("S"), rush_order("S"), Order.done()]
    assert choose_order(_view([squad], mines=mines_s), legal_s, random.Random(0)) == rush_order("S")


def test_r_mine_5_pioneer_breaches_a_found_mine_on_its_way() -> None:
    pioneer = _unit("P", "blue", (10, 10), card="pioneeriryhma")
    mines = {"known": [{"cell": [11, 10], "type": "AP"}]}
    legal = [
        Order.defend("P"),
        Order.move("P", (12, 11)),
        breach_order("P", (11, 10)),
        breach_order("P", (9, 10)),
        Order.done(),
    ]
    got = choose_order(_view([pioneer], mines=mines), legal, random.Random(0))
    assert got == breach_order("P", (11, 10))
    # a plain squad never breaches; it does not walk into the found mined cell either
    squad = _unit("S", "blue", (10, 10))
    legal_s = [
        Order.defend("S"),
        Order.move("S", (11, 10)),
        Order.move("S", (11, 11)),
        Order.done(),
    ]
    got_s = choose_order(_view([squad], mines=mines), legal_s, random.Random(0))
    assert got_s == Order.move("S", (11, 11))


def test_r_mor_3_bot_hides_a_unit_that_can_with_kp_left() -> None:
    at = _unit("PST", "blue", (20, 10), card="panssarintorjuntaryhma")
    legal = [Order.defend("PST"), hide_order("PST"), Order.done()]
    view = _view([at], objectives=[{"id": "o", "cells": [[20, 10]], "own_present": True}])
    assert choose_order(view, legal, random.Random(0)) == hide_order("PST")
    hidden = _unit("PST", "blue", (20, 10), card="panssarintorjuntaryhma", statuses=["HIDDEN"])
    view2 = _view([hidden], objectives=[o.model_dump(mode="json") for o in view.objectives])
    assert choose_order(view2, [Order.defend("PST"), Order.done()], random.Random(0)) == (
        Order.done()
    )


def test_r_atk_9_bot_fires_the_at_weapon_at_armour() -> None:
    at = _unit("PST", "blue", (10, 10), card="panssarintorjuntaryhma", fired=False)
    at["weapon"] = {**at["weapon"], "id": "jalkavakiaseistus", "bonus": 3}
    tank = _unit("T", "red", (13, 10), card="t72", armoured=True, protection=16)
    legal = [Order.fire("PST", "T"), Order.fire("PST", "T", weapon="pst_ohjus"), Order.done()]
    view = _view([at, tank], phase="fire")
    assert choose_order(view, legal, random.Random(0)) == Order.fire("PST", "T", weapon="pst_ohjus")


def test_r_ab_3_bot_uses_area_fire_on_several_enemies() -> None:
    bmp = _unit(
        "B", "blue", (10, 10), card="bmp2", fired=False, seat="pl1", movement=6
    )  # a Blue-seated bmp2 view entry: the bot looks only at the card's ability
    foes = [_unit("R1", "red", (14, 10)), _unit("R2", "red", (15, 10))]
    legal = [
        use_order("B", "lamauttava_tuli", cell=(14, 10)),
        use_order("B", "lamauttava_tuli", cell=(12, 12)),
        Order.done(),
    ]
    view = _view([bmp, *foes], phase="fire")
    assert choose_order(view, legal, random.Random(0)) == use_order(
        "B", "lamauttava_tuli", cell=(14, 10)
    )
    lone = _view([bmp, foes[0]], phase="fire")
    assert choose_order(lone, legal, random.Random(0)) == Order.done()


def test_bot_modules_know_no_game_state() -> None:
    """The commander's-game code and the public-data helpers never see a GameState."""
    from taistelukentta.bots import commander, knowledge

    for mod in (commander, knowledge):
        assert "GameState" not in vars(mod)
        assert "taistelukentta.rules.state" not in str(vars(mod).values())


def _farthest(orders: list[Order], start: dict[str, tuple[int, int]], targets: Any) -> Any:
    """Per (unit, target, weapon): the origins farthest from the target (None = no move)."""
    best: dict[tuple[str, str, str | None], tuple[int, set[Any]]] = {}
    for o in orders:
        assert o.unit is not None and o.target is not None
        origin = o.cell or start[o.unit]
        d = chebyshev(origin, targets[o.target])
        key = (o.unit, o.target, order_weapon(o))
        got = best.get(key)
        if got is None or d > got[0]:
            best[key] = (d, {o.cell})
        elif d == got[0]:
            got[1].add(o.cell)
    return best


@pytest.mark.parametrize(
    ("name", "seed", "upto"),
    [("demo", 3, 60), pytest.param("terasvalli", 4, 120, marks=pytest.mark.slow)],
)
def test_attack_candidates_are_the_farthest_listed_origins(name: str, seed: int, upto: int) -> None:
    """The bot's attack list keeps, per unit, target and weapon, exactly the engine's
    listed origins farthest from the target; every candidate is legal."""
    from taistelukentta.bots.runner import attack_candidates
    from taistelukentta.rules import legal_orders
    from taistelukentta.rules.recon import ContactLevel

    state = new_game(_scenario(name), seed)
    bots = {s: BaselineBot(bot_seed(seed, s)) for s in SIDES}
    checked = 0
    for _ in range(upto):
        seat = next_seat(state)
        if seat is None:
            break
        side = state.side_of_seat(seat)
        assert side is not None
        full = [o for o in legal_orders(state, seat) if o.kind.value == "attack"]
        if full:
            start = {u.id: u.cell for u in state.units.values()}
            targets = {
                t: c.cell
                for t, c in state.contacts[side].items()
                if c.level == ContactLevel.SPOTTED
            }
            units = sorted({o.unit for o in full if o.unit})
            cands = [o for uid in units for o in attack_candidates(state, seat, uid)]
            assert set(cands) <= set(full)
            assert _farthest(cands, start, targets) == _farthest(full, start, targets)
            checked += 1
        state, _ = apply(state, seat, bot_order(state, seat, bots[state.active]))
    assert checked >= 3
