"""Hypothetical games for the look-ahead player (:mod:`taistelukentta.bots.search`): worlds
built from one side's typed view only, and rollouts of a plan in them.

A world is a :class:`~taistelukentta.rules.GameState` of a *public* copy of the bundled
scenario — its ``[secrets]`` left out (minefields, fire support, notes; the side's own
support units keep their organic rounds), and, for a Blue player, Red's units replaced by
placeholder slots (Red's numbers, types and positions are the game master's) — whose units
are put where the view and the player's belief say: nothing is read from the real game.
Each world has its own dice (a seed from the player's own rng).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace
from functools import lru_cache
from typing import Any

from taistelukentta.bots.baseline import BaselineBot
from taistelukentta.bots.knowledge import card as public_card
from taistelukentta.bots.knowledge import cheb
from taistelukentta.bots.players import Player
from taistelukentta.bots.runner import run_bots
from taistelukentta.bots.tactical import BELIEF_DECAY, BELIEF_TURNS, UNKNOWN_CARD, TacticalBot
from taistelukentta.content.scenario import (
    RuleCaches,
    Scenario,
    Secrets,
    UnitPlacement,
    bundled_ids,
    load_scenario,
)
from taistelukentta.content.units import load_unit_cards
from taistelukentta.dice.roller import Roller
from taistelukentta.rules import GameState, new_game
from taistelukentta.rules.recon import ContactLevel
from taistelukentta.rules.state import Action, Contact, Phase, Side, UnitState
from taistelukentta.rules.victory import score
from taistelukentta.views.models import OwnUnitView, SideView, UnitView

Cell = tuple[int, int]

ENEMY_SLOTS = 24
"""Placeholder unit ids (``E01`` …) a Blue player's worlds have for believed Red units."""
SEEN_RADIUS = 6
"""In a world, the enemy starts with a SPOTTED contact on every own unit this close to one
of its units (the side cannot know what the enemy sees; near units are likely seen)."""
OBJECTIVE_DEFENDER = 0.7
"""Chance that a Blue player's world has an unseen Red unit on an objective Red held at
the start, when no contact is near it and no Blue unit stands on it."""


def _other(side: str) -> Side:
    return "red" if side == "blue" else "blue"


@lru_cache(maxsize=8)
def world_scenario(scenario_id: str, side: str) -> Scenario | None:
    """The public copy of a bundled scenario that ``side``'s worlds are games of (module
    docstring); None for a scenario outside the bundle (its file is not known here)."""
    if scenario_id not in bundled_ids():
        return None
    real = load_scenario(scenario_id)
    own_ids = {p.id for s, _g, p in real.placements() if s == side}
    organic = {k: v for k, v in real.secrets.organic_rounds.items() if k in own_ids}
    update: dict[str, Any] = {
        "secrets": Secrets(organic_rounds=organic),
        "cards": dict(load_unit_cards()),
        "rule_caches": RuleCaches(),
    }
    if side == "blue":
        groups = real.red.battle_groups
        slots: dict[str, list[UnitPlacement]] = {g.id: [] for g in groups}
        for i in range(ENEMY_SLOTS):
            g = groups[i % len(groups)]
            slots[g.id].append(
                UnitPlacement(id=f"E{i + 1:02d}", card=UNKNOWN_CARD["red"], cell=(0, i % 5))
            )
        update["red"] = real.red.model_copy(
            update={
                "battle_groups": [
                    g.model_copy(update={"units": slots[g.id], "leader": None}) for g in groups
                ]
            }
        )
        # fortified starting cells of Red's units are the game master's; the file's own
        # list is public, like the terrain
        update["fortifications"] = frozenset(real.fortifications) - {
            (int(p.cell[0]), int(p.cell[1]))
            for s, _g, p in real.placements()
            if s == "red" and p.fortified
        }
    return real.model_copy(update=update)


@lru_cache(maxsize=8)
def _base_state(scenario_id: str, side: str) -> GameState | None:
    ws = world_scenario(scenario_id, side)
    if ws is None:
        return None
    return new_game(ws, bytes(32))


def _passable(ws: Scenario, cell: Cell) -> bool:
    x, y = cell
    if not (0 <= x < ws.map.width and 0 <= y < ws.map.height):
        return False
    cost = float(ws.map.move_cost[y, x])
    return cost == cost and cost != float("inf")


def _free_cell(
    ws: Scenario, cells: list[Cell], taken: set[Cell], rng: random.Random
) -> Cell | None:
    ok = [c for c in cells if _passable(ws, c) and c not in taken]
    if not ok:
        return None
    return ok[rng.randrange(len(ok))]


def _around(cell: Cell, r: int) -> list[Cell]:
    return [(cell[0] + dx, cell[1] + dy) for dx in range(-r, r + 1) for dy in range(-r, r + 1)]


def _statuses(turn_no: int, statuses: tuple[str, ...]) -> dict[str, Any]:
    return {
        "shaken": turn_no if "SHAKEN" in statuses else None,
        "suppressed": turn_no if "SUPPRESSED" in statuses else None,
        "retreating": turn_no if "RETREATING" in statuses else None,
    }


def build_world(
    view: SideView,
    hands: TacticalBot,
    seen: Mapping[str, tuple[Cell, str]],
    rng: random.Random,
) -> GameState | None:
    """One hypothetical game at the start of ``view``'s side turn, from the view, the
    player's belief (``hands.belief``, fed only from its views) and ``seen`` (the last cell
    and card of every enemy unit a SPOTTED contact showed), sampled with ``rng``. None for
    a scenario outside the bundle."""
    side: Side = view.side
    enemy = _other(side)
    ws = world_scenario(view.scenario, side)
    base = _base_state(view.scenario, side)
    if ws is None or base is None:
        return None
    now = view.turn_no
    units: dict[str, UnitState] = {}
    taken: set[Cell] = set()
    for u in view.own_units():
        units[u.id] = _own_unit(u, side, now, base)
        taken.add((int(u.cell[0]), int(u.cell[1])))
    own_contacts: dict[str, Contact] = {}
    spotted = {e.id: e for e in view.enemy_units()}
    placed: list[tuple[str, str, Cell, UnitView | None]] = []  # (id, card, cell, shown)

    if side == "red":
        # Blue's units are public: place each one
        blue = [
            (p.id, p.card, (int(p.cell[0]), int(p.cell[1])))
            for s, _g, p in ws.placements()
            if s == "blue"
        ]
        lost_ids = _believed_lost(view, seen)
        free = []
        for uid, cid, start in blue:
            if uid in lost_ids:
                continue
            if uid in spotted:
                e = spotted[uid]
                cell = (int(e.cell[0]), int(e.cell[1]))
                placed.append((uid, e.card, cell, e))
                taken.add(cell)
            else:
                free.append((uid, cid, _prior_cell(view, ws, uid, cid, start, seen, rng)))
        # contacts below SPOTTED: the nearest unplaced unit of a matching type is there
        for c in sorted(view.contacts, key=lambda c: c.label):
            if c.area is None or not free:
                continue
            x0, y0, size = c.area
            centre = (x0 + size // 2, y0 + size // 2)
            match = [f for f in free if c.card is None or f[1] == c.card] or free
            pick = min(match, key=lambda f: (cheb(f[2], centre), f[0]))
            free.remove(pick)
            area = [(x0 + i, y0 + j) for i in range(size) for j in range(size)]
            cell = _free_cell(ws, area, taken, rng) or pick[2]
            placed.append((pick[0], pick[1], cell, None))
            taken.add(cell)
        for uid, cid, cell in free:
            cell = (
                cell
                if cell not in taken
                else (_free_cell(ws, _around(cell, 1), taken, rng) or cell)
            )
            placed.append((uid, cid, cell, None))
            taken.add(cell)
    else:
        slots = [p for s, _g, p in ws.placements() if s == "red"]
        present = {c.label for c in view.contacts}
        for c in sorted(view.contacts, key=lambda c: c.label):
            if c.cell is not None and c.unit in spotted:
                e = spotted[c.unit]
                placed.append(("", e.card, (int(c.cell[0]), int(c.cell[1])), e))
            elif c.area is not None:
                x0, y0, size = c.area
                area = [(x0 + i, y0 + j) for i in range(size) for j in range(size)]
                spot = _free_cell(ws, area, taken, rng)
                if spot is None:
                    continue
                placed.append(("", c.card or UNKNOWN_CARD["red"], spot, None))
            else:
                continue
            taken.add(placed[-1][2])
        for label in sorted(hands.belief):
            b = hands.belief[label]
            age = now - b.turn_no
            if label in present or age > BELIEF_TURNS:
                continue
            if rng.random() >= 0.8 * 0.6 * BELIEF_DECAY**age:
                continue
            spot = _free_cell(ws, _around(b.cell, 1), taken, rng)
            if spot is not None:
                placed.append(("", b.card or UNKNOWN_CARD["red"], spot, None))
                taken.add(spot)
        for o in view.objectives:
            if o.holder_at_start != "red" or o.own_present:
                continue
            cells = [(int(x), int(y)) for x, y in o.cells]
            if any(min(cheb(p[2], oc) for oc in cells) <= 2 for p in placed):
                continue
            if rng.random() < OBJECTIVE_DEFENDER:
                spot = _free_cell(ws, cells, taken, rng)
                if spot is not None:
                    placed.append(("", UNKNOWN_CARD["red"], spot, None))
                    taken.add(spot)
        placed = [
            (slot.id, cid, cell, shown)
            for slot, (_x, cid, cell, shown) in zip(slots, placed, strict=False)
        ]

    group_of = {p.id: g for s, g, p in ws.placements() if s == enemy}
    serial = 0
    for uid, cid, cell, shown in placed:
        ucard = public_card(cid) or public_card(UNKNOWN_CARD[enemy])
        assert ucard is not None
        strength = ucard.stats.strength
        extra: dict[str, Any] = {}
        if shown is not None:
            strength = max(1, min(shown.strength, shown.max_strength))
            extra = _statuses(now, shown.statuses)
        units[uid] = UnitState(
            id=uid,
            card=ucard.id,
            side=enemy,
            seat=group_of[uid] if enemy == "blue" else "gm",
            group=group_of[uid],
            cell=cell,
            strength=strength,
            max_strength=ucard.stats.strength,
            xp=ucard.stats.xp,
            **extra,
        )
        if shown is not None:
            serial += 1
            own_contacts[uid] = Contact(f"c{serial}", ContactLevel.SPOTTED, cell, None, ucard.id)
    enemy_contacts: dict[str, Contact] = {}
    enemy_cells = [u.cell for u in units.values() if u.side == enemy]
    n = 0
    for us in units.values():
        if us.side == side and any(cheb(us.cell, e) <= SEEN_RADIUS for e in enemy_cells):
            n += 1
            enemy_contacts[us.id] = Contact(f"c{n}", ContactLevel.SPOTTED, us.cell, None, us.card)
    kp = dict(base.kp)
    for seat in kp:
        kp[seat] = view.kp_of(seat) if seat in view.command_points or seat == view.seat else 0
    seed = rng.randbytes(32)
    contacts: dict[Side, dict[str, Contact]] = {side: own_contacts, enemy: enemy_contacts}
    return replace(
        base,
        seed=seed,
        roller=Roller(seed).getstate(),
        round=view.turn,
        active=side,
        phase=Phase.COMMAND,
        turn_no=now,
        done=frozenset(view.done),
        units=units,
        contacts=contacts,
        contact_serial={side: serial, enemy: n},
        kp=kp,
        group_spent=dict.fromkeys(base.group_spent, 0),
        destroyed={"blue": (), "red": ()},
        log=None,
    )


def _own_unit(u: OwnUnitView, side: Side, now: int, base: GameState) -> UnitState:
    c = public_card(u.card)
    old = base.units.get(u.id)
    return UnitState(
        id=u.id,
        card=u.card,
        side=side,
        seat=u.seat,
        group=u.group,
        cell=(int(u.cell[0]), int(u.cell[1])),
        strength=u.strength,
        max_strength=u.max_strength,
        xp=old.xp if old is not None else (c.stats.xp if c is not None else 0),
        action=None if u.action is None else Action(u.action),
        moved=u.moved,
        fired=u.fired,
        reconned=u.reconned,
        ext=old.ext if old is not None else {},
        **_statuses(now, u.statuses),
    )


def _believed_lost(view: SideView, seen: Mapping[str, tuple[Cell, str]]) -> set[str]:
    """Enemy units the side believes destroyed: none can be told from a view for sure
    (a destroyed enemy just vanishes), so none."""
    return set()


def _prior_cell(
    view: SideView,
    ws: Scenario,
    uid: str,
    cid: str,
    start: Cell,
    seen: Mapping[str, tuple[Cell, str]],
    rng: random.Random,
) -> Cell:
    """Where an enemy unit without a contact may be: near where it was last seen, else on
    its way from its (public) start towards its nearest objective."""
    if uid in seen:
        cells = [c for c in _around(seen[uid][0], 2) if _passable(ws, c)]
        return cells[rng.randrange(len(cells))] if cells else seen[uid][0]
    c = public_card(cid)
    movement = c.stats.movement if c is not None else 4
    aims = [(int(x), int(y)) for o in view.objectives for x, y in o.cells]
    if not aims:
        return start
    aim = min(aims, key=lambda a: (cheb(start, a), a))
    dist = max(1, cheb(start, aim))
    frac = min(1.0, max(0, view.turn - 1) * movement / 1.5 / dist) * rng.uniform(0.4, 1.0)
    cell = (
        round(start[0] + (aim[0] - start[0]) * frac),
        round(start[1] + (aim[1] - start[1]) * frac),
    )
    return cell if _passable(ws, cell) else start


def rollout(
    world: GameState, side: Side, plan: str, seed: int, horizon: int, inner_budget: int
) -> tuple[float, int]:
    """Play ``plan`` for ``side`` in ``world`` (the tactical player with that plan; the
    baseline player for the other side) to the game's end or ``horizon`` side turns; the
    victory-point margin (R-TURN-2) for ``side`` then, and the side turns played."""
    from taistelukentta.bots.search import PlanBot

    enemy = _other(side)
    bots: dict[Side, Player] = {
        side: PlanBot(seed, "normal", inner_budget, plan),
        enemy: BaselineBot(seed + 1),
    }
    state, _ = run_bots(world, bots, until_turn=world.turn_no + horizon)
    vp = (
        state.vp
        if state.finished and state.vp is not None
        else score(state.scenario, state.units, state.destroyed)[0]
    )
    played = min(horizon, state.turn_no - world.turn_no + (1 if state.finished else 0))
    return float(vp[side] - vp[enemy]), max(1, played)
