"""The score as a viewer may know it (R-TURN-2): objectives held, enemy units destroyed, own
units lost, and the victory points they add up to.

Built from a view only. A side's score is its own estimate: an objective counts as held by
whoever the side *sees* on it (an unseen enemy does not count, R-REC-5), and only the enemy
losses the side saw happen (``destroyed`` events in its log) count. The game master's score
is exact and equals what :func:`taistelukentta.rules.victory.score` would give now. After
the game the final breakdown comes from the ``game_over`` event, which both sides see.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from taistelukentta.content.scenario import Victory
from taistelukentta.rules.state import SIDES, Side
from taistelukentta.views.models import AnyView, GMObjectiveView, GMView, LocalText, SideView


@dataclass(frozen=True)
class ObjectiveScore:
    """One objective: who holds it (None: contested or nobody) and its VP."""

    id: str
    name: LocalText
    vp: int
    holder: Side | None


@dataclass(frozen=True)
class SideScore:
    """One side's VP and where they come from."""

    objectives: int
    kills: int
    """Enemy units destroyed (that the viewer knows of)."""
    kills_vp: int
    losses: int
    """Own units lost."""
    losses_vp: int

    @property
    def total(self) -> int:
        return self.objectives + self.kills_vp + self.losses_vp


@dataclass(frozen=True)
class Score:
    """The score: per objective, per side, whether it is final and whether it is exact."""

    objectives: tuple[ObjectiveScore, ...]
    sides: Mapping[Side, SideScore]
    final: bool
    exact: bool
    winner: str | None = None
    reason: str | None = None


def _other(side: Side) -> Side:
    return "red" if side == "blue" else "blue"


def _side_score(
    side: Side, objectives: tuple[ObjectiveScore, ...], kills: int, losses: int, v: Victory
) -> SideScore:
    return SideScore(
        objectives=sum(o.vp for o in objectives if o.holder == side),
        kills=kills,
        kills_vp=kills * v.destroyed_enemy_vp,
        losses=losses,
        losses_vp=losses * v.own_loss_vp,
    )


def _final(view: AnyView, victory: Victory) -> Score | None:
    """The final score from the ``game_over`` event of the view's log, if it is there."""
    event = next((e for e in reversed(view.log) if e.kind == "game_over"), None)
    if event is None:
        return None
    data: Mapping[str, Any] = event.data
    detail: Mapping[str, Any] = data.get("detail") or {}
    holders: Mapping[str, Any] = detail.get("objectives") or {}
    objectives = tuple(
        ObjectiveScore(o.id, o.name, o.vp, holders.get(o.id)) for o in view.objectives
    )
    sides: dict[Side, SideScore] = {}
    for side in SIDES:
        part: Mapping[str, Any] = detail.get(side) or {}
        kills_vp, losses_vp = int(part.get("destroyed_enemy", 0)), int(part.get("own_losses", 0))
        sides[side] = SideScore(
            objectives=int(part.get("objectives", 0)),
            kills=kills_vp // victory.destroyed_enemy_vp if victory.destroyed_enemy_vp else 0,
            kills_vp=kills_vp,
            losses=losses_vp // victory.own_loss_vp if victory.own_loss_vp else 0,
            losses_vp=losses_vp,
        )
    return Score(
        objectives, sides, True, True, str(data.get("winner")), str(data.get("reason") or "")
    )


def enemy_losses_seen(view: SideView) -> int:
    """Enemy units the side saw destroyed (its ``destroyed`` events of units not its own)."""
    own = set(view.destroyed.own) | {u.id for u in view.own_units()}
    n = 0
    for e in view.log:
        if e.kind != "destroyed":
            continue
        ref = e.data.get("unit")
        if isinstance(ref, dict) or (isinstance(ref, str) and ref not in own):
            n += 1
    return n


def score_of(view: AnyView, victory: Victory) -> Score:
    """The score ``view``'s viewer may know now (final once the game is over). Give the view
    its whole log (``log_limit=None``) so every enemy loss the side saw counts."""
    final = _final(view, victory)
    if final is not None:
        return final
    if isinstance(view, GMView):
        gm_objs = tuple(
            ObjectiveScore(
                o.id,
                o.name,
                o.vp,
                _holder(o.occupied_by, o.holder_at_start)
                if isinstance(o, GMObjectiveView)
                else None,
            )
            for o in view.objectives
        )
        lost = {"blue": len(view.destroyed.blue), "red": len(view.destroyed.red)}
        sides = {s: _side_score(s, gm_objs, lost[_other(s)], lost[s], victory) for s in SIDES}
        return Score(gm_objs, sides, False, True)
    me = view.side
    objectives = []
    for o in view.objectives:
        seen: tuple[Side, ...] = (
            *((me,) if o.own_present else ()),
            *((_other(me),) if o.enemy_seen else ()),
        )
        objectives.append(ObjectiveScore(o.id, o.name, o.vp, _holder(seen, o.holder_at_start)))
    objs = tuple(objectives)
    kills, losses = enemy_losses_seen(view), len(view.destroyed.own)
    sides = {
        me: _side_score(me, objs, kills, losses, victory),
        _other(me): _side_score(_other(me), objs, losses, kills, victory),
    }
    return Score(objs, sides, False, False)


def _holder(present: tuple[Side, ...], at_start: Side | None) -> Side | None:
    if len(set(present)) == 1:
        return present[0]
    if not present:
        return at_start
    return None
