"""The one place that turns engine state and events into what a seat is sent.

Every answer the server gives about a game goes through :func:`seat_view` or
:func:`event_copies`: the engine's per-side view / redacted event copies, and on top of
them what a seat must never read through the server — the seed (it fixes every roll, so
not even the GM gets it before the end) and the engine's global event numbers (their gaps
would count the events a side did not see).
"""

from __future__ import annotations

import copy
import json
import threading
from collections.abc import Iterable, Sequence
from typing import Any

from pydantic import BaseModel
from pydantic_core import SchemaSerializer

from taistelukentta.rules import GM_SEAT, Event, GameState
from taistelukentta.rules.state import Side
from taistelukentta.views import redact, view_for
from taistelukentta.views.models import EventView

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


def dumps(value: Any) -> str:
    """The server's JSON text (compact, UTF-8 as is)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def log_entry_json(state: GameState, event: Event, viewer: Viewer) -> str | None:
    """``event`` as it stands in the log of ``viewer``'s view (``"gm"`` or ``"blue"``), as
    JSON text; None when that viewer sees nothing of it. A view's log is these, in order
    (:func:`seat_view_json`): each event's copy depends on the event and the scenario
    only, so a game keeps the texts and builds only the new events' (the log grows with
    every order; rebuilding all of it for every seat's every view cost more than the rest
    of the view)."""
    copies = redact([event], viewer, state.scenario)
    if not copies:
        return None
    return dumps(_clean_event(EventView.model_validate(copies[0]).model_dump(mode="json")))


_EMPTY_LOG = '"log":[]'

_PLAIN: dict[type[BaseModel], SchemaSerializer] = {}
_PLAIN_LOCK = threading.Lock()


def _without_leave_out(schema: Any) -> Any:
    """A copy of a core schema without the view models' wrap serializer
    (``ViewModel._leave_out_unset``)."""
    out = copy.deepcopy(schema)
    todo = [out]
    while todo:
        node = todo.pop()
        if isinstance(node, dict):
            ser = node.get("serialization")
            if (
                isinstance(ser, dict)
                and ser.get("type") == "function-wrap"
                and getattr(ser.get("function"), "__name__", "") == "_leave_out_unset"
            ):
                del node["serialization"]
            todo.extend(node.values())
        elif isinstance(node, list):
            todo.extend(node)
    return out


def model_json(model: BaseModel) -> str:
    """``model.model_dump_json()`` of a view model, at a fraction of the cost: the view
    models leave out the optional fields not given with a wrap serializer that runs Python
    code for every nested model; pydantic's ``exclude_unset`` does the same in its
    compiled serializer. One serializer per model class, made on first use (tested equal
    to the models' own JSON along random games: tests/server/test_view_text.py)."""
    cls = type(model)
    ser = _PLAIN.get(cls)
    if ser is None:
        with _PLAIN_LOCK:
            ser = _PLAIN.get(cls)
            if ser is None:
                ser = SchemaSerializer(_without_leave_out(cls.__pydantic_core_schema__))
                _PLAIN[cls] = ser
    return ser.to_json(model, exclude_unset=True).decode()


def seat_view_json(state: GameState, seat: str, log: Sequence[str]) -> str:
    """:func:`seat_view` as JSON text, with ``log`` — the :func:`log_entry_json` texts of
    the seat's viewer for ``state.events`` — as its log. The same text as
    ``dumps(seat_view(state, seat))``."""
    model = view_for(state, seat, log_limit=0)
    # pydantic's own JSON (compact, UTF-8 as is: the same text as ``dumps`` of the dumped
    # dict, at about half the cost), with the log's texts put in its empty log.
    text = model_json(model)
    if text.count(_EMPTY_LOG) == 1:
        return text.replace(_EMPTY_LOG, '"log":[' + ",".join(log) + "]")
    head = model.model_dump(mode="json")  # a nested "log" too: key by key
    parts = []
    for key, value in head.items():
        text = "[" + ",".join(log) + "]" if key == "log" else dumps(value)
        parts.append(f"{dumps(key)}:{text}")
    return "{" + ",".join(parts) + "}"
