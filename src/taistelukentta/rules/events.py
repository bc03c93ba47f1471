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
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened. ``data`` is the GM's full view."""

    seq: int
    """Position in the game's event log, from 1."""
    kind: str
    data: Mapping[str, Any]
    visible: Mapping[str, Mapping[str, Any] | None]
    """Per side (``"blue"``, ``"red"``): the redacted data, or None (sees nothing)."""

    def for_side(self, side: str) -> Mapping[str, Any] | None:
        """What ``side`` sees of this event; ``"gm"`` sees everything."""
        if side == "gm":
            return self.data
        return self.visible.get(side)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dictionary."""
        return {
            "seq": self.seq,
            "kind": self.kind,
            "data": dict(self.data),
            "visible": {k: None if v is None else dict(v) for k, v in self.visible.items()},
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Event:
        """Inverse of :meth:`to_dict`."""
        vis = d.get("visible", {})
        return cls(
            seq=int(d["seq"]),
            kind=str(d["kind"]),
            data=dict(d["data"]),
            visible={str(k): None if v is None else dict(v) for k, v in vis.items()},
        )


def public_rolls(rolls: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rolls a side may see: every roll that is not secret (R-DICE-6)."""
    return [r for r in rolls if not r.get("secret")]
