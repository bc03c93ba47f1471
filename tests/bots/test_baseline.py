"""The baseline computer player: decides from its view only, legal, sensible, deterministic."""

from __future__ import annotations

import inspect
import json
import random
from functools import lru_cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taistelukentta.bots import BaselineBot, choose_order, simulate
from taistelukentta.bots import baseline as baseline_module
from taistelukentta.bots.runner import (
    bot_legal_orders,
    bot_seed,
    lazy_bot_orders,
    viewer_of,
)
from taistelukentta.content.scenario import Scenario, load_scenario
from taistelukentta.rules import (
    GameState,
    Order,
    apply,
    is_legal,
    legal_orders,
    new_game,
    next_seat,
)
from taistelukentta.rules.recon import ContactLevel
from taistelukentta.rules.ruleset import default_ruleset
from taistelukentta.views import view_for
from taistelukentta.views.models import SeatView, SideView
from tests.bots.made_up import made_up_view


@lru_cache(maxsize=2)
def _scenario(name: str) -> Scenario:
    return load_scenario(name)


def test_bot_signature_takes_a_view_not_a_game_state() -> None:
    params = list(inspect.signature(choose_order).parameters)
    # ``options``: the scenario's rule options, public data (RuleOptions), not the state
    assert params == ["view", "legal_orders", "rng", "options"]
    hints = inspect.get_annotations(choose_order)
    assert "GameState" not in " ".join(str(h) for h in hints.values())
    assert "GameState" not in vars(baseline_module)
    assert list(inspect.signature(BaselineBot.choose).parameters) == [
        "self",
        "view",
        "legal_orders",
        "options",
    ]


def test_bot_decides_from_plain_json_view_and_refuses_a_game_state() -> None:
    state = new_game(_scenario("demo"), 4)
    legal = bot_legal_orders(state, "co")
    text = view_for(state, "co", log_limit=0).model_dump_json()  # plain JSON only
    view = SeatView.model_validate_json(text)
    assert json.loads(text) == view.model_dump(mode="json")
    order = choose_order(view, legal, random.Random(1))
    assert is_legal(state, "co", order)
    with pytest.raises((AttributeError, TypeError)):
        choose_order(state, legal, random.Random(1))  # type: ignore[arg-type]


def test_bot_needs_legal_orders() -> None:
    with pytest.raises(ValueError, match="no legal orders"):
        choose_order(_side_view(new_game(_scenario("demo"), 1), "co"), [], random.Random(0))


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(min_value=0, max_value=100_000))
def test_bot_plays_only_legal_orders_to_the_end(seed: int) -> None:
    state = new_game(_scenario("demo"), seed)
    bots = {s: BaselineBot(bot_seed(seed, s)) for s in ("blue", "red")}
    for _ in range(2000):
        if state.finished:
            break
        seat = next(s for s in state.seats(state.active) if s not in state.done)
        legal = bot_legal_orders(state, seat)
        order = bots[state.active].choose(_side_view(state, viewer_of(seat)), legal)
        assert order in legal
        state, _ = apply(state, seat, order)
    assert state.finished and state.winner in ("blue", "red", "draw")


def test_bot_is_deterministic_per_seed() -> None:
    a, pa = simulate(_scenario("demo"), 21)
    b, pb = simulate(_scenario("demo"), 21)
    assert a.state_hash() == b.state_hash()
    assert [str(p.order) for p in pa] == [str(p.order) for p in pb]
    c, _ = simulate(_scenario("demo"), 22)
    assert c.state_hash() != a.state_hash()


def test_bot_recon_candidates_are_legal() -> None:
    state = new_game(_scenario("terasvalli"), 3)
    for seat in state.seats(state.active):
        recons = [o for o in bot_legal_orders(state, seat) if o.kind.value == "recon"]
        assert recons and all(is_legal(state, seat, o) for o in recons)


# ------------------------------------------------------------------ behaviour on made-up views


def _unit(uid: str, side: str, cell: tuple[int, int], **extra: Any) -> dict[str, Any]:
    u: dict[str, Any] = {
        "id": uid,
        "side": side,
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
            action=None,
            reconned=False,
            weapon={
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


def _view(units: list[dict[str, Any]], phase: str = "command", **extra: Any) -> SideView:
    v: dict[str, Any] = {
        "side": "blue",
        "seat": "pl1",
        "phase": phase,
        "units": units,
        "contacts": [],
        "seat_command_points": 3,
        "command_points": {"pl1": 3},
        "objectives": [{"id": "o", "cells": [[20, 10]], "own_present": False}],
    }
    v.update(extra)
    return made_up_view(v)


def test_r_mor_2_bot_rallies_a_suppressed_unit_first() -> None:
    view = _view([_unit("A", "blue", (5, 5), statuses=["SUPPRESSED"]), _unit("B", "blue", (6, 5))])
    legal = [Order.defend("B"), Order.move("B", (7, 5)), Order.rally("A"), Order.done()]
    assert choose_order(view, legal, random.Random(0)) == Order.rally("A")


def test_r_atk_4_bot_attacks_only_with_good_odds() -> None:
    me = _unit("A", "blue", (5, 5), weapon={**_unit("x", "blue", (0, 0))["weapon"], "range": 2})
    easy = _unit("E", "red", (12, 5), protection=8, statuses=["SUPPRESSED"])
    view = _view([me, easy])
    legal = [Order.defend("A"), Order.attack("A", "E", (10, 5)), Order.done()]
    assert choose_order(view, legal, random.Random(0)) == Order.attack("A", "E", (10, 5))
    hard = _unit("E", "red", (12, 5), protection=24, cover=4)
    order = choose_order(_view([me, hard]), legal, random.Random(0))
    assert order.kind.value != "attack"


def test_r_kp_3_bot_in_reach_stays_to_fire() -> None:
    """A unit with a target in reach gets no order: it defends by default and fires."""
    view = _view([_unit("A", "blue", (5, 5)), _unit("E", "red", (8, 5))])
    legal = [Order.move("A", (6, 6)), Order.move("A", (12, 6)), Order.defend("A"), Order.done()]
    assert choose_order(view, legal, random.Random(0)) == Order.done()
    away = _view([_unit("A", "blue", (5, 5)), _unit("E", "red", (18, 5))])
    assert choose_order(away, legal, random.Random(0)) == Order.move("A", (12, 6))


def test_r_rec_4_bot_recons_when_it_sees_no_enemy() -> None:
    view = _view([_unit("A", "blue", (5, 5))])
    legal = [
        Order.defend("A"),
        Order.move("A", (6, 5)),
        Order.recon("A", (2, 2)),
        Order.recon("A", (12, 8)),
        Order.done(),
    ]
    assert choose_order(view, legal, random.Random(0)) == Order.recon("A", (12, 8))
    spent = _view([_unit("A", "blue", (5, 5), reconned=True)])
    assert choose_order(spent, legal, random.Random(0)).kind.value == "move"


def test_r_turn_2_bot_moves_towards_the_objective() -> None:
    view = _view([_unit("A", "blue", (5, 5))], seat_command_points=0)
    legal = [Order.defend("A"), Order.move("A", (4, 5)), Order.move("A", (9, 7)), Order.done()]
    assert choose_order(view, legal, random.Random(0)) == Order.move("A", (9, 7))


def test_bot_says_done_when_every_unit_has_its_order() -> None:
    view = _view([_unit("A", "blue", (5, 5), action="defend")])
    assert choose_order(view, [Order.done()], random.Random(0)) == Order.done()


def test_r_atk_1_bot_fires_its_best_shot() -> None:
    view = _view(
        [
            _unit("A", "blue", (5, 5)),
            _unit("E1", "red", (7, 5), protection=20, cover=3),
            _unit("E2", "red", (7, 6), protection=9),
        ],
        phase="fire",
    )
    legal = [Order.fire("A", "E1"), Order.fire("A", "E2"), Order.done()]
    assert choose_order(view, legal, random.Random(0)) == Order.fire("A", "E2")


def test_simulated_game_state_is_a_game_state() -> None:
    state, played = simulate(_scenario("demo"), 5)
    assert isinstance(state, GameState) and state.finished and played


# ------------------------------------------------------------------ lazy legal orders


def _states(name: str, seed: int, every: int, limit: int) -> list[GameState]:
    """States of a simulated game of ``name``: every ``every``-th one, up to ``limit``."""
    state = new_game(_scenario(name), seed)
    _, played = simulate(_scenario(name), seed)
    out = [state]
    for n, p in enumerate(played[: limit * every], start=1):
        state, _ = apply(state, p.seat, p.order)
        if n % every == 0:
            out.append(state)
    return out


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(min_value=0, max_value=100_000))
def test_legal_orders_kinds_is_the_full_list_filtered(seed: int) -> None:
    """``legal_orders(kinds=…, unit=…)`` (what the lazy bot list asks for) lists exactly the
    full list's orders of those kinds, in the same order, ``done`` last."""
    for state in _states("demo", seed, every=7, limit=12):
        for seat in state.seats(state.active):
            full = legal_orders(state, seat)
            units = [None, *sorted(u.id for u in state.units.values() if u.seat == seat)[:2]]
            for kinds in ([k] for k in default_ruleset().vocabulary.kinds):
                for unit in units:
                    got = legal_orders(state, seat, kinds=kinds, unit=unit)
                    want = [
                        o for o in full[:-1] if o.kind in kinds and (unit is None or o.unit == unit)
                    ]
                    assert got == [*want, *full[-1:]]


@pytest.mark.parametrize(
    ("name", "seed"), [("demo", 3), pytest.param("terasvalli", 2, marks=pytest.mark.slow)]
)
def test_lazy_orders_give_the_same_decision_as_the_list(name: str, seed: int) -> None:
    """The runner hands the bot its orders lazily (``LazyOrders``); the bot decides the
    same, with the same use of its rng, as from the plain list of ``bot_legal_orders``."""
    state = new_game(_scenario(name), seed)
    rngs = {s: random.Random(bot_seed(seed, s)) for s in ("blue", "red")}
    for _ in range(150 if name == "terasvalli" else 400):
        if state.finished:
            break
        seat = next_seat(state)
        assert seat is not None
        side = state.side_of_seat(seat)
        assert side is not None
        view = _side_view(state, viewer_of(seat))
        spotted = any(c.level == ContactLevel.SPOTTED for c in state.contacts[side].values())
        listed = bot_legal_orders(state, seat, recon=not spotted)
        twin = random.Random()
        twin.setstate(rngs[side].getstate())
        lazy = choose_order(view, lazy_bot_orders(state, seat), rngs[side])
        assert lazy == choose_order(view, listed, twin)
        assert rngs[side].getstate() == twin.getstate()
        assert lazy in listed
        state, _ = apply(state, seat, lazy)


def test_lazy_orders_refuse_a_seat_that_may_not_act() -> None:
    state = new_game(_scenario("demo"), 4)
    idle = next(s for s in ("co", "gm") if state.side_of_seat(s) != state.active)
    with pytest.raises(ValueError, match="no legal orders"):
        lazy_bot_orders(state, idle)
    assert lazy_bot_orders(state, next_seat(state) or "").done == Order.done()


def _side_view(state: GameState, viewer: str) -> SideView:
    view = view_for(state, viewer, log_limit=0)
    assert isinstance(view, SideView)
    return view
