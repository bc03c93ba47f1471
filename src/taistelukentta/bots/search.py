"""The look-ahead computer player (``search``): determinised rollouts of plans over worlds
sampled from its side's view.

It plays with the tactical player's hands (:class:`~taistelukentta.bots.tactical.TacticalBot`:
belief, threat, moves, attacks, fire, company tactics), but before each of its side turns it
chooses the turn's **plan** — which objective its units head for — by looking ahead:

1. **Worlds.** From its side's typed view only (never the real game's state), it builds
   ``worlds`` hypothetical games: its own units as the view shows them; the enemy units it
   believes in (the tactical player's belief, fed only by the views it was given: SPOTTED
   contacts where they stand, KNOWN/SUSPECTED ones at a random cell of their area, lost
   ones near their last known place), each with the card it was seen as (or the assumed
   type); Blue's units are public (the players' view of the scenario shows the Blue seats
   and units, ``cli/scenario_cmds.py``), so a Red player also places every Blue unit it has
   no contact on, between its start and its nearest objective. Red's numbers and positions
   are the game master's: a Blue player assumes one unseen defender on each objective Red
   held at the start and no contact covers. The scenario's ``[secrets]`` (minefields, fire
   support, notes) are left out. Each world gets its own dice from the player's own
   ``random.Random(seed)`` — never the real game's seed or dice.
2. **Plans.** ``default`` (the tactical player's own goals), ``hold`` (every unit keeps its
   ground and fires) and ``take:<objective>`` (every unit heads for that objective).
3. **Rollouts.** Each plan is played in every world (common worlds and dice across plans)
   with the tactical player on its side (its plan kept) and the baseline player on the
   other, for ``budget // (plans × worlds)`` side turns or to the end of the game; the score
   is the victory-point margin (R-TURN-2) at that point — objectives as held then, units
   destroyed and lost. The plan with the best mean is played this turn if it beats the
   tactical player's own goals by ``margin`` VP, else those.

``budget`` counts the side turns simulated per own side turn (never seconds), so a game is
the same for a seed on any machine. The player keeps no state but its rng, its belief and its plan.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from taistelukentta.bots import commander
from taistelukentta.bots.baseline import LazyOrders, OrderSource
from taistelukentta.bots.knowledge import cheb
from taistelukentta.bots.tactical import TacticalBot, Threat, _as_cell
from taistelukentta.content.options import RuleOptions
from taistelukentta.rules.orders import Order
from taistelukentta.views.models import OwnUnitView, SideView

Cell = tuple[int, int]


@dataclass(frozen=True)
class SearchLevel:
    """How hard the look-ahead tries."""

    budget: int
    """Side turns simulated per own side turn, over all plans and worlds: a rollout plays
    ``budget // (plans × worlds)`` side turns (at least ``MIN_HORIZON``; fewer when the
    game ends sooner)."""
    worlds: int
    """Worlds sampled per side turn (every plan is played in each)."""
    inner_budget: int
    """The tactical player's (unit, destination) evaluations per decision in a rollout."""
    margin: float
    """VP by which a plan's mean must beat ``default`` (the tactical player's own goals) to
    be played instead: a short look-ahead sees losses sooner than objectives."""


SEARCH_LEVEL = SearchLevel(budget=24, worlds=2, inner_budget=150, margin=0.5)
"""The ``search`` player's defaults."""
MIN_HORIZON = 2
"""A rollout plays at least the own turn and the enemy's reply."""
MAX_WORLDS = 4
"""Worlds sampled at most, when the game's end leaves the rollouts short."""


class PlanBot(TacticalBot):
    """The tactical player whose goals follow a plan: ``default`` (its own), ``hold``
    (every unit keeps its ground), ``withdraw`` (every unit back to its starting cell),
    ``spread`` (every unit to the nearest cell of any objective), ``hunt`` (every unit to
    the nearest SPOTTED enemy, else the nearest believed one) or ``take:<objective id>``
    (every unit to that objective's nearest cell)."""

    def __init__(
        self, seed: int, level: str = "normal", budget: int | None = None, plan: str = "default"
    ) -> None:
        super().__init__(seed, level, budget)
        self.plan = plan

    def _stays_to_fire(self, s: commander.Seen, u: OwnUnitView) -> bool:
        # falling back: every unit goes, none stays in the enemy's reach to fire
        return self.plan != "withdraw" and super()._stays_to_fire(s, u)

    def _attack(
        self,
        s: commander.Seen,
        src: OrderSource,
        movers: Sequence[str],
        threat: Threat,
        onto: set[Cell] | None = None,
    ) -> Order | None:
        # falling back: no attack order (it moves the attacker into the enemy's reach)
        if self.plan == "withdraw":
            return None
        return super()._attack(s, src, movers, threat, onto)

    def _goals(self, s: commander.Seen, gm: Any) -> dict[str, Cell | None]:
        plan = self.plan
        if plan == "hold":
            return {uid: _as_cell(u.cell) for uid, u in s.own.items()}
        if plan == "withdraw":
            starts = _starts(s.view.scenario)
            return {uid: starts.get(uid, _as_cell(u.cell)) for uid, u in s.own.items()}
        if plan == "spread":
            every = [_as_cell(c) for o in s.view.objectives for c in o.cells]
            if every:
                return {uid: _nearest(every, _as_cell(u.cell)) for uid, u in s.own.items()}
        if plan == "hunt":
            prey = [_as_cell(e.cell) for e in s.enemies.values()] or [
                b.cell for _label, b in sorted(self.belief.items())
            ]
            if prey:
                return {uid: _nearest(prey, _as_cell(u.cell)) for uid, u in s.own.items()}
        if plan.startswith("take:"):
            obj = next((o for o in s.view.objectives if o.id == plan[5:]), None)
            if obj is not None:
                cells = [_as_cell(c) for c in obj.cells]
                out: dict[str, Cell | None] = {}
                for uid, u in s.own.items():
                    here = _as_cell(u.cell)
                    out[uid] = (
                        here if here in cells else min(cells, key=lambda c: (cheb(here, c), c))
                    )
                return out
        return super()._goals(s, gm)


def _nearest(cells: Sequence[Cell], here: Cell) -> Cell:
    return min(cells, key=lambda c: (cheb(here, c), c))


def plans_of(view: SideView) -> list[str]:
    """The plans the player weighs in this view: its own goals, holding, falling back to
    the starting cells, each unit to its nearest objective, each unit to the nearest
    enemy, and each objective in turn."""
    return [
        "default",
        "hold",
        "withdraw",
        "spread",
        "hunt",
        *(f"take:{o.id}" for o in view.objectives),
    ]


@lru_cache(maxsize=8)
def _starts(scenario_id: str) -> dict[str, Cell]:
    """The own units' starting cells of a bundled scenario (a side knows its own set-up;
    Blue's is public), by unit id; empty for a scenario outside the bundle."""
    from taistelukentta.content.scenario import bundled_ids, load_scenario

    if scenario_id not in bundled_ids():
        return {}
    return {
        p.id: (int(p.cell[0]), int(p.cell[1]))
        for _s, _g, p in load_scenario(scenario_id).placements()
    }


class SearchBot:
    """The look-ahead player: the tactical player's hands, each side turn's plan chosen by
    rollouts over worlds sampled from the view (module docstring)."""

    def __init__(self, seed: int, budget: int | None = None, level: SearchLevel | None = None):
        base = level or SEARCH_LEVEL
        self.level = base if budget is None else replace(base, budget=max(1, budget))
        self.rng = random.Random(seed)
        self.hands = PlanBot(self.rng.getrandbits(62), "normal")
        self._planned: int | None = None
        self.plan = "default"
        self.evaluations = 0
        """Side turns simulated in the last side turn's planning (at most ``budget``)."""
        self.scores: dict[str, float] = {}
        """Mean score per plan of the last planning."""
        self._seen: dict[str, tuple[Cell, str]] = {}
        """Every enemy unit a SPOTTED contact showed: its last cell and card."""

    def choose(
        self,
        view: SideView,
        legal_orders: Sequence[Order] | LazyOrders,
        options: RuleOptions | None = None,
    ) -> Order:
        """The next order of the seat whose view and legal orders these are."""
        for e in view.enemy_units():
            self._seen[e.id] = (_as_cell(e.cell), e.card)
        if view.phase == "command" and self._planned != view.turn_no and not view.finished:
            self._planned = view.turn_no
            self.hands._update_belief(view)
            self.plan = self._choose_plan(view, options)
        self.hands.plan = self.plan
        return self.hands.choose(view, legal_orders, options)

    # -------------------------------------------------------------- planning

    def _choose_plan(self, view: SideView, options: RuleOptions | None) -> str:
        from taistelukentta.bots.simworld import build_world, rollout

        plans = plans_of(view)
        level = self.level
        self.evaluations = 0
        self.scores = {}
        worlds = max(1, level.worlds)
        left = 2 * view.rounds - view.turn_no + 1  # side turns left, this one included
        horizon = min(left, max(MIN_HORIZON, level.budget // (len(plans) * worlds)))
        if horizon * len(plans) > level.budget:
            return "default"
        # a short horizon (the game's end near) leaves budget for more worlds
        worlds = max(1, min(MAX_WORLDS, level.budget // (horizon * len(plans))))
        samples = [
            build_world(view, self.hands, self._seen, random.Random(self.rng.getrandbits(62)))
            for _ in range(worlds)
        ]
        found = [w for w in samples if w is not None]
        if not found:
            return "default"
        seeds = [self.rng.getrandbits(62) for _ in found]
        for plan in plans:
            total = 0.0
            for world, seed in zip(found, seeds, strict=True):
                margin, played = rollout(world, view.side, plan, seed, horizon, level.inner_budget)
                total += margin
                self.evaluations += played
            self.scores[plan] = total / len(found)
        best = max(plans, key=lambda p: (self.scores[p], -plans.index(p)))
        if self.scores[best] < self.scores["default"] + level.margin:
            return "default"
        return best


__all__ = [
    "MAX_WORLDS",
    "MIN_HORIZON",
    "SEARCH_LEVEL",
    "PlanBot",
    "SearchBot",
    "SearchLevel",
    "plans_of",
]
