"""Made-up views for bot tests: a partial view (only the fields a test is about) completed
with neutral defaults and validated into the typed model the bot reads."""

from __future__ import annotations

from typing import Any

from taistelukentta.views.models import SeatView, SideView


def made_up_view(partial: dict[str, Any]) -> SideView:
    """``partial`` completed with defaults, as a :class:`SideView` (a :class:`SeatView` when
    it names a seat)."""
    v: dict[str, Any] = dict(partial)
    side = v.setdefault("side", "blue")
    seat = v.setdefault("seat", None)
    defaults: dict[str, Any] = {
        "format": 1,
        "viewer": seat or side,
        "scenario": "made_up",
        "title": {"fi": "testi", "en": "test"},
        "map": {"width": 40, "height": 30},
        "turn": 1,
        "rounds": 6,
        "turn_no": 1,
        "phase": "command",
        "active_side": side,
        "done": [],
        "finished": False,
        "dice": "hmac-sha256",
        "seed_commitment": None,
        "units": [],
        "contacts": [],
        "command_points": {},
        "destroyed": {"own": []},
        "objectives": [],
        "log": [],
    }
    for k, x in defaults.items():
        v.setdefault(k, x)
    v["units"] = [_unit(u, side, seat) for u in v["units"]]
    v["objectives"] = [
        {"name": {"fi": "t", "en": "o"}, "vp": 1, "holder_at_start": None, "enemy_seen": False}
        | {"own_present": False}
        | o
        for o in v["objectives"]
    ]
    if v.get("command"):
        v["command"] = {"reconnoitred": []} | v["command"]
    if "fire_support" in v:
        v["fire_support"] = {"pending": [], "rounds_left": {}} | v["fire_support"]
        v["fire_support"]["pending"] = [
            {"observer": "KP", "cell": [0, 0]} | p for p in v["fire_support"]["pending"]
        ]
    if "mines" in v:
        v["mines"] = {"known": [], "clear": [], "in_minefield": {}, "immobilised": []} | v["mines"]
    if seat is not None:
        v.setdefault("seat_command_points", v["command_points"].get(seat, 0))
        return SeatView.model_validate(v)
    v.pop("seat_command_points", None)
    return SideView.model_validate(v)


def _unit(u: dict[str, Any], side: str, seat: str | None) -> dict[str, Any]:
    out: dict[str, Any] = {
        "card": "x",
        "name": {"fi": "yksikkö", "en": "unit"},
        "strength": 10,
        "max_strength": 10,
        "statuses": [],
        "armoured": False,
        "protection": 12,
        "cover": 0,
    } | u
    if out["side"] == side:
        out = {
            "disabled_abilities": {},
            "seat": seat or "pl1",
            "group": seat or "pl1",
            "action": None,
            "moved": False,
            "fired": False,
            "reconned": False,
            "movement": 6,
        } | out
        weapon: dict[str, Any] = out["weapon"]
        out["weapon"] = {"id": "w", **weapon}
    return out
