"""Events: what happened, for the game master and for each side (R-DICE-2, R-DICE-6, R-REC-5).

Every change :func:`taistelukentta.rules.engine.apply` makes is told by events. An
:class:`Event` carries the full data (the game master's view, secret rolls included) and,
computed *when it is created* from each side's contacts at that moment, what each side
sees of it: ``visible["blue"]`` / ``visible["red"]`` is a redacted copy or ``None`` (that
side sees nothing of it). Rolls appear in ``data["rolls"]`` as
:meth:`taistelukentta.dice.RollRecord.to_dict` dictionaries; a side's copy never holds a
secret roll (R-DICE-6) nor the rolls that would reveal an unseen unit.

Event kinds (``data`` keys; unit references in a side's copy are the unit id for its own
and SPOTTED units, else ``{"contact": label, "card"?: id, "area": [x0, y0, size]}``):

``game_started`` scenario, seed · ``turn_started`` round, side, turn_no · ``phase`` phase ·
``kp`` seat, kp (own side) · ``order`` seat, order, cost (own side) · ``seat_done`` seat,
phase · ``move`` unit, kind, from, to, path, stopped_by · ``bump`` unit, cell, enemy ·
``attack`` attacker, target, kind, total, defence, margin, effect, damage, setback,
advantage, rolls · ``damage`` unit, amount, strength · ``destroyed`` unit, cell ·
``morale`` unit, reason, dc, total, outcome, rolls · ``status`` unit, status, on, reason ·
``contact`` side, unit, level (observing side only) · ``recon`` unit, cell, found, rolls ·
``rally`` unit · ``game_over`` winner, vp, reason.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from taistelukentta.content.scenario import Scenario

_NO_NUMBERS: Mapping[str, int] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened. ``data`` is the GM's full view."""

    seq: int
    """Position in the game's event log, from 1."""
    kind: str
    data: Mapping[str, Any]
    visible: Mapping[str, Mapping[str, Any] | None]
    """Per side (``"blue"``, ``"red"``): the redacted data, or None (sees nothing)."""
    numbers: Mapping[str, int] = field(default_factory=lambda: _NO_NUMBERS)
    """Per side that sees the event: its number in that side's own sequence (1, 2, 3 …
    over the events the side sees), so the numbers a side reads count nothing it does not
    see (:attr:`seq` counts every event: the GM's numbering). The rolls in a side's copy
    carry that side's own roll numbers too."""

    def for_side(self, side: str) -> Mapping[str, Any] | None:
        """What ``side`` sees of this event; ``"gm"`` sees everything."""
        if side == "gm":
            return self.data
        return self.visible.get(side)

    def number_for(self, side: str) -> int:
        """The event's number in ``side``'s sequence (``"gm"``: :attr:`seq`; an event made
        by hand, outside the engine, without numbers: :attr:`seq`)."""
        if side == "gm":
            return self.seq
        return self.numbers.get(side, self.seq)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dictionary."""
        return {
            "seq": self.seq,
            "kind": self.kind,
            "data": dict(self.data),
            "visible": {k: None if v is None else dict(v) for k, v in self.visible.items()},
            "numbers": dict(self.numbers),
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Event:
        """Inverse of :meth:`to_dict`."""
        vis = d.get("visible", {})
        nums = d.get("numbers") or {}
        return cls(
            seq=int(d["seq"]),
            kind=str(d["kind"]),
            data=dict(d["data"]),
            visible={str(k): None if v is None else dict(v) for k, v in vis.items()},
            numbers={str(k): int(v) for k, v in nums.items()},
        )


# ------------------------------------------------------------------------ who sees what

Copy = Literal["none", "data", "rolls"]
NONE: Copy = "none"
"""The audience sees nothing of the kind."""
DATA: Copy = "data"
"""The audience sees a copy without rolls."""
ROLLS: Copy = "rolls"
"""The audience sees a copy with the rolls in it that are not secret (R-DICE-6)."""

SHOWN: Mapping[str, tuple[Copy, Copy]] = MappingProxyType(
    {
        "ability_disabled": (DATA, DATA),
        "ability_restored": (DATA, NONE),
        "area_attack": (ROLLS, ROLLS),
        "attack": (ROLLS, ROLLS),
        "attack_void": (DATA, NONE),
        "bump": (DATA, DATA),
        "co_lost": (DATA, NONE),
        "command_link": (DATA, NONE),
        "confirmed_target": (DATA, NONE),
        "contact": (DATA, NONE),
        "damage": (DATA, DATA),
        "destroyed": (DATA, DATA),
        "fire_direction": (ROLLS, NONE),
        "game_over": (DATA, DATA),
        "game_started": (DATA, DATA),
        "hidden": (DATA, NONE),
        "kp": (DATA, NONE),
        "kp_transfer": (DATA, NONE),
        "link_restore": (ROLLS, NONE),
        "mine_breach": (ROLLS, NONE),
        "mine_clear": (ROLLS, NONE),
        "mine_found": (DATA, NONE),
        "mine_rush": (ROLLS, NONE),
        "mine_search": (ROLLS, NONE),
        "mine_triggered": (ROLLS, NONE),
        "minefields_placed": (DATA, NONE),
        "mines_laid": (DATA, NONE),
        "morale": (ROLLS, ROLLS),
        "move": (DATA, DATA),
        "order": (DATA, NONE),
        "phase": (DATA, DATA),
        "promoted": (DATA, NONE),
        "rally": (DATA, DATA),
        "recon": (ROLLS, NONE),
        "recon_report": (ROLLS, DATA),
        "seat_done": (DATA, DATA),
        "setback": (DATA, DATA),
        "sitova_mark": (DATA, DATA),
        "status": (DATA, DATA),
        "strike_boosted": (DATA, NONE),
        "strike_cancelled": (DATA, NONE),
        "strike_hit": (ROLLS, DATA),
        "strike_landed": (ROLLS, DATA),
        "strike_ordered": (DATA, NONE),
        "tactic": (DATA, DATA),
        "turn_ended": (DATA, DATA),
        "turn_started": (DATA, DATA),
    }
)
"""Per event kind, what its owner side and the other side are shown (see :func:`owner`).

This is the one gate both the numbering and the views go through: a side's copy of a kind
(or its rolls) that this table does not show is dropped by :func:`numbered` *before* the
side's numbers are drawn, so every number a side reads is of an event (or roll) it is
shown. The views' whitelist models (``views/events.py``) declare one model per shown
audience, with a ``rolls`` field exactly where rolls are shown (a test pins it). A kind
missing here is shown to no side (the game master sees every event)."""

PUBLIC_KINDS = frozenset({"game_started", "game_over", "turn_started", "turn_ended", "phase"})
"""Kinds both sides see alike."""
BLUE_KINDS = frozenset(
    {
        "kp_transfer",
        "link_restore",
        "tactic",
        "confirmed_target",
        "recon_report",
        "promoted",
        "command_link",
        "co_lost",
    }
)
"""The company module's kinds: Blue's command structure (R-LINK, R-CO)."""


def owner(kind: str, data: Mapping[str, Any], scenario: Scenario | None) -> str | None:
    """The side an event belongs to (from the game master's record), None if public:
    the event's ``side``, else the side of its ``attacker``/``unit``/``observer``, else of
    its ``seat``."""
    if kind in PUBLIC_KINDS:
        return None
    if kind in BLUE_KINDS:
        return "blue"
    side = data.get("side")
    if side in ("blue", "red") and kind != "ability_disabled":
        return str(side)
    for key in ("attacker", "unit", "observer"):
        uid = data.get(key)
        if isinstance(uid, str) and scenario is not None:
            try:
                return scenario.side_of(uid)
            except KeyError:
                continue
    seat = data.get("seat")
    if isinstance(seat, str):
        return "red" if seat == "gm" else "blue"
    return None


def shown(kind: str, data: Mapping[str, Any], side: str, scenario: Scenario | None) -> Copy:
    """What ``side`` (``"blue"``/``"red"``) is shown of an event of ``kind`` whose full
    record is ``data``."""
    own, other = SHOWN.get(kind, (NONE, NONE))
    if own == other:
        return own
    who = owner(kind, data, scenario)
    return own if who is None or who == side else other


def numbered(event: Event, counts: dict[str, list[int]], scenario: Scenario | None = None) -> Event:
    """``event`` with its per-side numbers and the side copies' roll numbers drawn from
    ``counts`` (per side ``[events seen, rolls seen]``, advanced in place).

    Only what :data:`SHOWN` shows a side is numbered: a copy of a kind not shown to it is
    dropped (None), and so are the rolls of a copy shown without rolls and every secret
    roll (R-DICE-6), so the side's numbers have no gaps that count what it does not see."""
    numbers: dict[str, int] = {}
    visible: dict[str, Mapping[str, Any] | None] = {}
    for side, copy in event.visible.items():
        if copy is None:
            visible[side] = None
            continue
        what = shown(event.kind, event.data, side, scenario)
        if what == NONE:
            visible[side] = None
            continue
        c = counts[side]
        c[0] += 1
        numbers[side] = c[0]
        rolls = copy.get("rolls")
        if rolls is not None:
            fresh = []
            if what == ROLLS:
                for r in rolls:
                    if r.get("secret"):
                        continue
                    c[1] += 1
                    fresh.append({**r, "seq": c[1]})
            if what == ROLLS:
                copy = {**copy, "rolls": fresh}
            else:
                copy = {k: v for k, v in copy.items() if k != "rolls"}
        visible[side] = copy
    return Event(event.seq, event.kind, event.data, visible, numbers)


def public_rolls(rolls: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rolls a side may see: every roll that is not secret (R-DICE-6)."""
    return [r for r in rolls if not r.get("secret")]
