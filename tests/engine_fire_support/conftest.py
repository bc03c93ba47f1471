"""Scenarios with fire-support secrets for the fire-support tests (builders from tests/engine)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from taistelukentta.content.scenario import FireSupport, Scenario, Secrets
from taistelukentta.rules import GameState, Order, apply
from taistelukentta.rules.events import Event
from taistelukentta.rules.state import Phase

from ..engine.conftest import Dice, build, dice, open_rows, with_contact, with_unit

__all__ = [
    "Dice",
    "dice",
    "end_command",
    "fs_scenario",
    "play_done",
    "until_turn",
    "with_contact",
    "with_unit",
]

SQUAD = "jaakariryhma"
MORTAR = "kranaatinheitinryhma"
RED = "motorisoitu_jalkavakiryhma"


def fs_scenario(
    *,
    blue: Sequence[tuple[Any, ...]] | None = None,
    red: Sequence[tuple[Any, ...]] | None = None,
    rounds: dict[str, int] | None = None,
    requests: int = 0,
    weapons: Sequence[str] = (),
    options: dict[str, Any] | None = None,
    width: int = 30,
    height: int = 20,
) -> Scenario:
    """Open map; Blue mortar KRH at 1,10 and squad 1R1 at 10,10 (seat pl1), CO KP at 0,19;
    Red R1 at 15,10 — unless given."""
    sc = build(
        open_rows(width, height),
        blue if blue is not None else [("KRH", MORTAR, (1, 10)), ("1R1", SQUAD, (10, 10))],
        red if red is not None else [("R1", RED, (15, 10))],
        rounds=6,
        options=options,
    )
    secrets = Secrets(
        organic_rounds={"KRH": 3} if rounds is None else rounds,
        fire_support=FireSupport(off_board_requests=requests, weapons=list(weapons)),
    )
    return sc.model_copy(update={"secrets": secrets})


def play_done(st: GameState, events: list[Event] | None = None) -> GameState:
    """One seat of the active side says done (collecting events)."""
    seat = next(s for s in st.seats(st.active) if s not in st.done)
    st, ev = apply(st, seat, Order.done())
    if events is not None:
        events.extend(ev)
    return st


def until_turn(st: GameState, turn_no: int, events: list[Event] | None = None) -> GameState:
    """Say done until side turn ``turn_no`` starts (its command phase)."""
    while not st.finished and st.turn_no < turn_no:
        st = play_done(st, events)
    return st


def end_command(st: GameState, events: list[Event] | None = None) -> GameState:
    """Every seat of the active side says done in the command phase (strikes due land in
    the fire phase that follows)."""
    side, turn = st.active, st.turn_no
    while (
        not st.finished and st.active == side and st.turn_no == turn and st.phase == Phase.COMMAND
    ):
        st = play_done(st, events)
    return st
