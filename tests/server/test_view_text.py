"""A view's JSON text as the server builds it (each log event's text kept across versions)
is the same text as the view serialised whole, for every seat, along random games and
after an undo (the replayed state's events are new objects under the same numbers)."""

from __future__ import annotations

import random

import pytest

from taistelukentta.dice.roller import parse_seed
from taistelukentta.rules import GM_SEAT, GameState, apply, legal_orders, new_game, next_seat
from taistelukentta.server.games import Entry, Game, commitment_of, scenario_for
from taistelukentta.server.present import dumps, seat_view

SEED = parse_seed("17" * 32)


def _step(state: GameState, rng: random.Random) -> GameState | None:
    seat = next_seat(state)
    if seat is None:
        return None
    orders = legal_orders(state, seat)
    moves = [o for o in orders if str(o) != "done"]
    done = [o for o in orders if str(o) == "done"]
    order = rng.choice(moves) if moves and (rng.random() < 0.7 or not done) else done[0]
    after, _ = apply(state, seat, order)
    return after


def _game(state: GameState) -> Game:
    scenario = state.scenario
    return Game(
        id="0",
        scenario_ref="demo",
        options={},
        seed=SEED,
        commitment=commitment_of(SEED),
        computer=frozenset(),
        scenario=scenario,
        state=state,
    )


def _expected(game: Game, seat: str) -> str:
    legal = [str(o) for o in legal_orders(game.state, seat)]
    view = seat_view(game.state, seat)
    return dumps({"version": game.seat_version(seat), "view": view, "orders": legal})


def _push(game: Game, state: GameState) -> None:
    seq = game.version + 1
    game.push(Entry(seq, GM_SEAT, "order", "done", None, (), 0, True, seq), state, [seq])


@pytest.mark.parametrize("seed", [1])
def test_view_text_equals_the_whole_view_serialised_along_a_game_and_after_undo(
    seed: int,
) -> None:
    rng = random.Random(seed)
    state = new_game(scenario_for("demo", {}), SEED)
    game = _game(state)
    seats = game.seats()
    history = [state]
    for _ in range(45):
        after = _step(game.state, rng)
        if after is None:
            break
        _push(game, after)
        history.append(after)
        for seat in seats:
            assert game.view_json(seat) == _expected(game, seat)
    assert len(game.state.events) > 40
    # An undo: the state is replayed from an earlier one, and the game goes another way
    # (events under numbers the cache knows, with other content).
    back = history[len(history) // 2]
    _push(game, back)
    other = random.Random(seed + 100)
    for _ in range(20):
        after = _step(game.state, other)
        if after is None:
            break
        _push(game, after)
        for seat in seats:
            assert game.view_json(seat) == _expected(game, seat)
