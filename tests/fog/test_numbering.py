"""Each side's copy of the log is numbered in its own sequence (issue 8): the numbers a
side reads (events and rolls) count only what it sees, so their gaps count nothing."""

from __future__ import annotations

import json
import random

from taistelukentta.content.scenario import load_scenario
from taistelukentta.rules import GameState, apply, legal_orders, new_game
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
