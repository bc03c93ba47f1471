"""Running computer players against a game: one side, or both to the end (``tk20 simulate``).

The runner is the only piece that holds the :class:`~taistelukentta.rules.GameState`; each
bot is handed its seat's view (:func:`taistelukentta.views.view_for`) and legal orders.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field

from taistelukentta.bots.baseline import BaselineBot
from taistelukentta.content.scenario import Scenario
from taistelukentta.rules import GM_SEAT, Event, GameState, Order, apply, legal_orders, new_game
from taistelukentta.rules.state import Side
from taistelukentta.views import view_for

MAX_ORDERS_PER_TURN = 400
"""Safety limit: a bot that has not said ``done`` after this many orders in one side turn
is made to (never reached by the baseline bot; protects against a looping bot)."""


@dataclass
class Played:
    """One order a bot gave: its seat, the order and the events it caused."""

    seat: str
    order: Order
    events: list[Event] = field(default_factory=list)


def bot_seed(seed: int, side: Side) -> int:
    """The seed of a side's bot in a game of ``seed`` (fixed, so games replay exactly)."""
    return seed * 2 + (0 if side == "blue" else 1)


def next_seat(state: GameState) -> str | None:
    """The seat that gives the next order (the first of the active side not yet done)."""
    if state.finished:
        return None
    return next((s for s in state.seats(state.active) if s not in state.done), None)


def viewer_of(seat: str) -> str:
    """The view a seat's player gets: Red's seat ``gm`` plays from Red's view (the bot is
    not the all-seeing game master)."""
    return "red" if seat == GM_SEAT else seat


def bot_order(state: GameState, seat: str, bot: BaselineBot) -> Order:
    """The order ``bot`` gives for ``seat`` now, from that seat's view only."""
    view = view_for(state, viewer_of(seat), log_limit=0)
    return bot.choose(view, legal_orders(state, seat))


def run_bots(
    state: GameState,
    bots: dict[Side, BaselineBot],
    *,
    sides: Collection[Side] = ("blue", "red"),
) -> tuple[GameState, list[Played]]:
    """Let the bots play while the active side is one of ``sides`` and the game is on."""
    played: list[Played] = []
    count = 0
    turn = state.turn_no
    while not state.finished and state.active in sides:
        seat = next_seat(state)
        if seat is None:
            break
        if state.turn_no != turn:
            turn, count = state.turn_no, 0
        count += 1
        order = Order.done() if count > MAX_ORDERS_PER_TURN else bot_order(state, seat, bots[state.active])
        state, events = apply(state, seat, order)
        played.append(Played(seat, order, events))
    return state, played


def simulate(scenario: Scenario, seed: int) -> tuple[GameState, list[Played]]:
    """A whole game of ``scenario`` with the baseline bot on both sides."""
    state = new_game(scenario, seed)
    bots = {side: BaselineBot(bot_seed(seed, side)) for side in ("blue", "red")}
    return run_bots(state, bots)
