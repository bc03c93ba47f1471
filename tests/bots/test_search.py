"""The look-ahead computer player (issue 13, ``search``): decides only from its view (its
worlds are built from the view and its own belief; two games differing only in hidden enemy
details give the same decisions), always legal, deterministic for a seed, its budget of
simulated side turns holds."""

from __future__ import annotations

import ast
import inspect
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from taistelukentta.bots import search, simworld
from taistelukentta.bots.baseline import BaselineBot
from taistelukentta.bots.players import BOT_NAMES, Player, make_bot
from taistelukentta.bots.runner import bot_order, bot_seed, viewer_of
from taistelukentta.bots.search import PlanBot, SearchBot, plans_of
from taistelukentta.content.scenario import load_scenario
from taistelukentta.rules import GameState, Order, apply, new_game, next_seat
from taistelukentta.views import view_for
from taistelukentta.views.models import SideView
from tests.bots.test_tactical import CASES, _legal, _play
from tests.fog.harness import build, coupled_dice

SMALL = 14
"""A budget that keeps the tests cheap: seven plans of two side turns in one world."""


def _view(state: GameState) -> SideView:
    seat = next_seat(state)
    assert seat is not None
    view = view_for(state, viewer_of(seat), log_limit=0)
    assert isinstance(view, SideView)
    return view


def test_the_player_never_gets_a_game_state() -> None:
    assert list(inspect.signature(SearchBot.choose).parameters) == [
        "self",
        "view",
        "legal_orders",
        "options",
    ]
    # the worlds are built from the view, the player's belief and its own rng only
    assert list(inspect.signature(simworld.build_world).parameters) == [
        "view",
        "hands",
        "seen",
        "rng",
    ]
    tree = ast.parse(Path(search.__file__).read_text(encoding="utf-8"))
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) for a in n.names}
    assert "GameState" not in names | imported
    state = new_game(load_scenario("demo"), 1)
    with pytest.raises(AttributeError):
        SearchBot(1).choose(state, [Order.done()])  # type: ignore[arg-type]
    assert "search" in BOT_NAMES and isinstance(make_bot("search", 3, 5), SearchBot)


def test_a_world_keeps_the_secrets_out_and_its_own_dice() -> None:
    """A world is a game of the public scenario: no minefields or fire-support secrets, for
    Blue no Red unit of the file (placeholders where its belief puts them), and dice from
    the player's rng, not the real game's seed."""
    real = load_scenario("terasvalli")
    state = new_game(real, 5)
    view = _view(state)
    assert view.side == "blue"
    world = simworld.build_world(view, PlanBot(1), {}, random.Random(2))
    assert world is not None
    assert not world.scenario.secrets.minefields
    assert world.seed != state.seed and world.roller != state.roller
    red_ids = {p.id for s, _g, p in real.placements() if s == "red"}
    world_red = {u.id for u in world.units.values() if u.side == "red"}
    assert world_red and not world_red & red_ids
    # the own units exactly as the view shows them
    for u in view.own_units():
        w = world.units[u.id]
        assert (w.cell, w.strength, w.seat) == (tuple(u.cell), u.strength, u.seat)
    # the same view and rng seed: the same world
    again = simworld.build_world(view, PlanBot(1), {}, random.Random(2))
    assert again is not None and again.state_hash() == world.state_hash()


def test_red_places_the_public_blue_company() -> None:
    """Blue's seats and units are public (the players' view of the scenario): a Red player's
    world has every Blue unit, where its start and the rounds played allow."""
    state = new_game(load_scenario("demo"), 3)
    state, _ = apply(state, "co", Order.done())
    state, _ = apply(state, "pl1", Order.done())
    state, _ = apply(state, "pl2", Order.done())
    while state.active != "red":
        seat = next_seat(state)
        assert seat is not None
        state, _ = apply(state, seat, Order.done())
    view = _view(state)
    assert view.side == "red"
    world = simworld.build_world(view, PlanBot(1), {}, random.Random(4))
    assert world is not None
    blue = {p.id for s, _g, p in world.scenario.placements() if s == "blue"}
    assert {u.id for u in world.units.values() if u.side == "blue"} == blue
    assert world.active == "red" and world.turn_no == view.turn_no


def test_plans_and_the_budget_of_simulated_side_turns() -> None:
    state = new_game(load_scenario("demo"), 2)
    view = _view(state)
    assert plans_of(view) == [
        "default",
        "hold",
        "withdraw",
        "spread",
        "hunt",
        "take:risteys",
        "take:kotkanmaki",
    ]
    for budget in (3, SMALL, 24):
        bot = SearchBot(9, budget)
        seat = next_seat(state)
        assert seat is not None
        bot_order(state, seat, bot)
        assert bot.evaluations <= budget
        if budget >= 2 * len(plans_of(view)):
            assert set(bot.scores) == set(plans_of(view))
        else:
            assert bot.plan == "default" and not bot.scores


def _first_rounds(seed: int, red: SearchBot, rounds: int) -> tuple[str, list[str]]:
    state = new_game(load_scenario("demo"), seed)
    bots: dict[str, Player] = {"blue": BaselineBot(1), "red": red}
    played: list[str] = []
    while not state.finished and state.round <= rounds:
        seat = next_seat(state)
        assert seat is not None
        order = bot_order(state, seat, bots[state.active])
        played.append(f"{seat}:{order}:{red.plan}")
        state, _ = apply(state, seat, order)
    return state.state_hash(), played


def test_deterministic_for_a_seed() -> None:
    a = _first_rounds(6, SearchBot(11, SMALL), 2)
    b = _first_rounds(6, SearchBot(11, SMALL), 2)
    assert a == b


@pytest.mark.slow
@settings(
    max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
@given(seed=st.integers(0, 10_000), red=st.booleans())
def test_the_search_player_never_gives_an_illegal_order(seed: int, red: bool) -> None:
    scenario = load_scenario("demo")
    player = SearchBot(bot_seed(seed, "red" if red else "blue"), SMALL)
    other = BaselineBot(seed)
    _play(scenario, seed, other if red else player, player if red else other, _legal)


@pytest.mark.parametrize("case", sorted(CASES))
def test_hidden_enemy_details_do_not_change_its_decisions(case: str) -> None:
    """As the tactical player's test: two games that differ only in a secret of the other
    side (which plays only ``done``); the look-ahead player's orders — its worlds sampled
    from the view and its belief — are the same in both until its side learns the secret."""
    name, change, observer, learned = CASES[case]
    a, b = build(name), build(name, change)
    seed = random.Random(f"search:{case}").randbytes(32)
    bot_a, bot_b = SearchBot(7, SMALL), SearchBot(7, SMALL)
    decisions = plans = 0
    with coupled_dice():
        sa, sb = new_game(a, seed), new_game(b, seed)
        ea, eb = list(sa.events), list(sb.events)
        for _ in range(200):
            if learned(sa, ea) or learned(sb, eb) or sa.finished or sb.finished:
                break
            seat = next_seat(sa)
            assert seat is not None and seat == next_seat(sb)
            if sa.active == observer:
                va = view_for(sa, viewer_of(seat), log_limit=0)
                vb = view_for(sb, viewer_of(seat), log_limit=0)
                assert va == vb
                oa = bot_order(sa, seat, bot_a)
                ob = bot_order(sb, seat, bot_b)
                assert str(oa) == str(ob), (case, decisions)
                assert bot_a.scores == bot_b.scores
                plans += bool(bot_a.scores)
                decisions += 1
            else:
                oa = ob = Order.done()
            sa, ea = apply(sa, seat, oa)
            sb, eb = apply(sb, seat, ob)
    assert decisions >= 3 and plans >= 1, (decisions, plans)
