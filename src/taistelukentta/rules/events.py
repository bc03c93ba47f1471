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
from typing import Any

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


def numbered(event: Event, counts: dict[str, list[int]]) -> Event:
    """``event`` with its per-side numbers and the side copies' roll numbers drawn from
    ``counts`` (per side ``[events seen, rolls seen]``, advanced in place)."""
    numbers: dict[str, int] = {}
    visible: dict[str, Mapping[str, Any] | None] = {}
    for side, copy in event.visible.items():
        if copy is None:
            visible[side] = None
            continue
        c = counts[side]
        c[0] += 1
        numbers[side] = c[0]
        rolls = copy.get("rolls")
        if rolls:
            fresh = []
            for r in rolls:
                c[1] += 1
                fresh.append({**r, "seq": c[1]})
            copy = {**copy, "rolls": fresh}
        visible[side] = copy
    return Event(event.seq, event.kind, event.data, visible, numbers)


def public_rolls(rolls: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rolls a side may see: every roll that is not secret (R-DICE-6)."""
    return [r for r in rolls if not r.get("secret")]
