"""Each side's copy of the log is numbered in its own sequence (issue 8): the numbers a
side reads (events and rolls) count only what it sees, so their gaps count nothing."""

from __future__ import annotations

import json
import random

from taistelukentta.content.scenario import load_scenario
from taistelukentta.rules import GameState, apply, legal_orders, new_game
from taistelukentta.rules.context import Tx
from taistelukentta.rules.events import Event, numbered
from taistelukentta.rules.fire import resolve_fire
from taistelukentta.views import redact, view_for


def _game(n: int = 160) -> GameState:
    rng = random.Random(8)
    state = new_game(load_scenario("demo"), rng.randbytes(32))
    for _ in range(n):
        if state.finished:
            break
        seat = next(s for s in state.seats(state.active) if s not in state.done)
        orders = legal_orders(state, seat)
        state, _ = apply(state, seat, rng.choice(orders))
    return state


def test_r_rec_5_each_side_numbers_its_events_and_rolls_without_gaps() -> None:
    state = _game()
    total = len(state.events)
    for side in ("blue", "red"):
        log = redact(state.events, side, state.scenario)
        assert [e["seq"] for e in log] == list(range(1, len(log) + 1))
        assert len(log) < total  # the side does not see everything, and its numbers
        rolls = [r["seq"] for e in log for r in e["data"].get("rolls", [])]
        assert rolls == list(range(1, len(rolls) + 1))
        # a view's log (the last events) keeps the same numbers
        tail = view_for(state, side, log_limit=5).log
        assert [e.seq for e in tail] == [e["seq"] for e in log[-5:]]
    gm = redact(state.events, "gm", state.scenario)
    assert [e["seq"] for e in gm] == list(range(1, total + 1))


def test_r_rec_5_numbers_survive_saving_and_old_logs_are_numbered_on_load() -> None:
    state = _game(80)
    doc = json.loads(json.dumps(state.to_dict()))
    again = GameState.from_dict(doc, state.scenario)
    for ev in doc["events"]:  # a log saved before the per-side numbering
        del ev["numbers"]
    old = GameState.from_dict(doc, state.scenario)
    for side in ("blue", "red"):
        want = redact(state.events, side, state.scenario)
        assert redact(again.events, side, state.scenario) == want
        assert redact(old.events, side, state.scenario) == want
    # the numbering goes on after a reload
    seat = next(s for s in again.seats(again.active) if s not in again.done)
    order = legal_orders(again, seat)[0]
    a, ea = apply(state, seat, order)
    b, eb = apply(old, seat, order)
    for side in ("blue", "red"):
        assert redact(ea, side, a.scenario) == redact(eb, side, b.scenario)


def test_r_rec_5_an_event_a_side_is_told_is_the_next_number_it_reads() -> None:
    """Numbering and whitelist agree: fire at a HIDDEN target out of reach (R-MOR-3) tells
    the firer's side ``attack_void``; its copy is the next number Blue reads, and Red,
    told nothing, spends none of its numbers on it."""
    state = new_game(load_scenario("terasvalli"), bytes(range(32)))
    tx = Tx(state)
    resolve_fire(tx, "1R1", "R16", "fire")
    (void,) = tx.events
    blue = redact([*state.events, *tx.events], "blue", state.scenario)
    assert [e["seq"] for e in blue] == list(range(1, len(blue) + 1))
    assert blue[-1]["kind"] == "attack_void"
    assert blue[-1]["data"]["attacker"] == "1R1" and "reason" not in blue[-1]["data"]
    red = redact([*state.events, *tx.events], "red", state.scenario)
    assert red == redact(state.events, "red", state.scenario)
    assert "red" not in void.numbers


def test_r_dice_6_a_copy_shown_without_rolls_numbers_none() -> None:
    """A side copy that carries rolls for an audience shown none (or secret rolls) has them
    dropped before its roll numbers are drawn: the side's roll numbers stay gapless."""
    counts = {"blue": [0, 0], "red": [0, 0]}
    roll = {"purpose": "x", "dice": [3], "total": 3}
    raw = Event(
        1,
        "strike_hit",  # Blue owns the hit on its unit; Red is shown no rolls of it
        {"unit": "1R1", "rolls": [roll]},
        {
            "blue": {"unit": "1R1", "rolls": [roll, {**roll, "secret": True}]},
            "red": {"unit": "1R1", "rolls": [roll]},
        },
    )
    ev = numbered(raw, counts, load_scenario("demo"))
    blue, red = ev.for_side("blue"), ev.for_side("red")
    assert blue is not None and red is not None
    assert [r["seq"] for r in blue["rolls"]] == [1]
    assert "rolls" not in red
    assert counts == {"blue": [1, 1], "red": [1, 0]}
