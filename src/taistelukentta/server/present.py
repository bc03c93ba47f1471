"""The one place that turns engine state and events into what a seat is sent.

Every answer the server gives about a game goes through :func:`seat_view` or
:func:`event_copies`: the engine's per-side view / redacted event copies, and on top of
them what a seat must never read through the server — the seed (it fixes every roll, so
not even the GM gets it before the end) and the engine's global event numbers (their gaps
would count the events a side did not see).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from taistelukentta.rules import GM_SEAT, Event, GameState
from taistelukentta.rules.state import Side
from taistelukentta.views import redact, view_for

Viewer = str
"""``"gm"`` or ``"blue"``: whose copy of an event a seat reads."""


def viewer_of(state: GameState, seat: str) -> Viewer:
    """The copy a seat reads: the GM everything, a Blue seat Blue's."""
    return GM_SEAT if seat == GM_SEAT else "blue"


def side_of(seat: str) -> Side:
    """The side a seat plays."""
    return "red" if seat == GM_SEAT else "blue"


def _clean_event(copy: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in copy.items() if k != "seq"}
    if out.get("kind") == "game_started" and isinstance(out.get("data"), dict):
        out["data"] = {k: v for k, v in out["data"].items() if k != "seed"}
    return out


def event_copies(state: GameState, events: Iterable[Event], seat: str) -> list[dict[str, Any]]:
    """The seat's copies of ``events`` (JSON-safe), those it sees nothing of left out."""
    viewer = viewer_of(state, seat)
    return [_clean_event(e) for e in redact(events, viewer, state.scenario)]


def seat_view(state: GameState, seat: str) -> dict[str, Any]:
    """The seat's view of the game (``tk20 show --as SEAT --json`` content, no seed)."""
    view = view_for(state, seat).model_dump(mode="json")
    view["log"] = [_clean_event(e) for e in view["log"]]
    return view
