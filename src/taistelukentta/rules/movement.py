"""Movement with zones of control, stacking and opportunity attacks (R-ZOC-1…3, R-GEO-4,
R-TER-1/3/5, R-KP-3/4, R-MOR-5).

Two views of the same move:

- **Planning** uses only what the moving side knows: cells of SPOTTED enemies are blocked,
  the ZoCs of SPOTTED enemies stop the move (except those the unit already stands in), and
  the destination must have room under ``stacking_limit``. Legal destinations and paths
  come from :func:`taistelukentta.grid.reachable` / :func:`~taistelukentta.grid.path_to`
  with those sets, so a cell holding an unseen enemy is still a legal destination.
- **Execution** walks the planned path against the real map: the unit stops in front of an
  unseen enemy (a *bump*, which makes that enemy SPOTTED), stops on entering the ZoC of an
  enemy whose ZoC it did not start in (R-ZOC-2), and on leaving an enemy's ZoC without
  *Irtautuminen* takes one opportunity attack from that enemy (R-ZOC-3; once per enemy per
  move, resolved at once; a unit left SUPPRESSED or RETREATING by it stops). If it would
  end in a full cell it stops in the last cell of its path with room.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from taistelukentta.grid.geometry import Cell, chebyshev
from taistelukentta.rules.contacts import after_move
from taistelukentta.rules.context import ScenarioCache, Tx
from taistelukentta.rules.fire import can_fire_weapon, resolve_fire
from taistelukentta.rules.recon import ContactLevel
from taistelukentta.rules.state import Contact, Side, UnitState, other_side

REACH_MEMO_LIMIT = 4096
"""Most reachable-area results a scenario cache keeps (cleared when full)."""


@dataclass(frozen=True, slots=True)
class Knowledge:
    """The movement-relevant part of what a side knows, for one moving unit."""

    blocked: frozenset[Cell]
    """Cells of SPOTTED enemies."""
    stop: frozenset[Cell]
    """ZoC cells of SPOTTED enemies whose ZoC the unit does not stand in."""
    full: frozenset[Cell]
    """Cells where the side already has ``stacking_limit`` other units."""
    in_zoc: bool
    """The unit stands in the ZoC of a SPOTTED enemy."""


def spotted_cells(contacts: Mapping[str, Contact]) -> list[Cell]:
    """Cells of the side's SPOTTED contacts."""
    return [
        c.cell for c in contacts.values() if c.level == ContactLevel.SPOTTED and c.cell is not None
    ]


def knowledge(
    cache: ScenarioCache,
    units: Mapping[str, UnitState],
    contacts: Mapping[str, Contact],
    unit: UnitState,
) -> Knowledge:
    """Blocked, stop and full cells for ``unit`` from its side's knowledge."""
    enemy_cells = spotted_cells(contacts)
    stop: set[Cell] = set()
    in_zoc = False
    for cell in enemy_cells:
        z = cache.zoc(cell)
        if unit.cell in z:
            in_zoc = True
        else:
            stop |= z
    blocked = frozenset(enemy_cells)
    counts: dict[Cell, int] = {}
    for u in units.values():
        if u.side == unit.side and u.id != unit.id:
            counts[u.cell] = counts.get(u.cell, 0) + 1
    limit = cache.opts.stacking_limit
    full = frozenset(c for c, n in counts.items() if n >= limit)
    return Knowledge(blocked, frozenset(stop - blocked), full, in_zoc)


def free_reach(
    cache: ScenarioCache, cell: Cell, allowance: int, urban: bool = False
) -> frozenset[Cell]:
    """Cells reachable from ``cell`` with nothing in the way (memoised per scenario);
    ``urban``: on the map of a unit with *Kaupunkisissi* (R-CAMP-3).

    Every obstructed reachable area is a subset of it, so blocked, stop and full cells
    outside it cannot change a move: the memo keys below keep only those inside."""
    key: Any = (cell, allowance, True) if urban else (cell, allowance)
    hit = cache.free_reach.get(key)
    if hit is None:
        game_map = cache.urban_map() if urban else cache.map
        from taistelukentta.grid.movement import reachable  # numpy/scipy: on first search

        hit = frozenset(
            reachable(game_map, cell, allowance, allow_squeeze=cache.opts.diagonal_squeeze)
        )
        cache.free_reach[key] = hit
    return hit


def _memo_key(cache: ScenarioCache, unit: UnitState, know: Knowledge) -> tuple[Any, ...]:
    allowance = cache.movement(unit)
    urban = unit.id in cache.urban_units
    area = free_reach(cache, unit.cell, allowance, urban)
    key: tuple[Any, ...] = (unit.cell, allowance, know.blocked & area, know.stop & area)
    # the urban map's answers are its own (a fifth item keeps the common key unchanged)
    return (*key, "urban") if urban else key


def _remember(memo: dict[tuple[Any, ...], Any], key: tuple[Any, ...], value: Any) -> None:
    if len(memo) >= REACH_MEMO_LIMIT:
        memo.clear()
    memo[key] = value


def destinations(cache: ScenarioCache, unit: UnitState, know: Knowledge) -> dict[Cell, float]:
    """Every cell ``unit`` may name as a move destination (start excluded), from its
    side's knowledge, with the allowance spent. Do not modify the result (memoised)."""
    allowance = cache.movement(unit)
    if allowance <= 0:
        return {}
    urban = unit.id in cache.urban_units
    area = free_reach(cache, unit.cell, allowance, urban)
    key = (*_memo_key(cache, unit, know), know.full & area)
    hit: dict[Cell, float] | None = cache.reach_memo.get(key)
    if hit is not None:
        return hit
    # the area-restricted sets of the key: the same answer, and the grid's search memo
    # is shared with the free search and with later paths while they stay the same
    from taistelukentta.grid.movement import reachable  # numpy/scipy: on first search

    reach = reachable(
        cache.map_for(unit),
        unit.cell,
        allowance,
        blocked=key[2],
        stop_cells=key[3],
        allow_squeeze=cache.opts.diagonal_squeeze,
    )
    out = {c: v for c, v in reach.items() if c != unit.cell and c not in know.full}
    _remember(cache.reach_memo, key, out)
    return out


def plan_path(
    cache: ScenarioCache, unit: UnitState, know: Knowledge, goal: Cell
) -> list[Cell] | None:
    """A path (cells entered) to ``goal`` under the side's knowledge, or None."""
    if goal == unit.cell or goal in know.full or not cache.map.in_bounds(goal):
        return None
    allowance = cache.movement(unit)
    if allowance <= 0 or goal not in free_reach(
        cache, unit.cell, allowance, unit.id in cache.urban_units
    ):
        return None
    key = (*_memo_key(cache, unit, know), goal)
    if key in cache.path_memo:
        found = cache.path_memo[key]
        return None if found is None else list(found)
    from taistelukentta.grid.movement import path_to  # numpy/scipy: on first search

    path = path_to(
        cache.map_for(unit),
        unit.cell,
        goal,
        allowance,
        blocked=key[2],
        stop_cells=key[3],
        allow_squeeze=cache.opts.diagonal_squeeze,
    )
    _remember(cache.path_memo, key, None if path is None else tuple(path))
    return path


def known_enemy_points(contacts: Mapping[str, Contact]) -> list[Cell]:
    """Where the side believes enemies are: SPOTTED cells and KNOWN areas' centres."""
    out = []
    for c in contacts.values():
        if c.level == ContactLevel.SPOTTED and c.cell is not None:
            out.append(c.cell)
        elif c.level == ContactLevel.KNOWN and c.area is not None:
            x0, y0, size = c.area
            out.append((x0 + size // 2, y0 + size // 2))
    return out


def distance_to(points: Iterable[Cell], cell: Cell) -> int:
    """Distance from ``cell`` to the nearest of ``points`` (a large number if none)."""
    return min((chebyshev(p, cell) for p in points), default=10**6)


def execute_move(tx: Tx, uid: str, path: list[Cell], *, kind: str, provoke: bool = True) -> Cell:
    """Walk ``path`` with unit ``uid`` against the real map (see the module doc).

    Returns the cell it ends in (its start if it could not move). Logs ``move`` and, on a
    bump, ``bump``; contacts are updated (R-REC-3/5)."""
    cache = tx.cache
    unit = tx.unit(uid)
    side = unit.side
    enemy_side: Side = other_side(side)
    start = unit.cell
    enemies = list(tx.units_of(enemy_side))
    start_zoc = {e.id for e in enemies if start in cache.zoc(e.cell)}
    real_blocked = {e.cell for e in enemies}
    real_stop: set[Cell] = set()
    for e in enemies:
        if e.id not in start_zoc:
            real_stop |= cache.zoc(e.cell)
    from taistelukentta.grid.movement import move_along  # numpy/scipy: on first search

    res = move_along(
        cache.map_for(unit),
        start,
        path,
        cache.movement(unit),
        blocked=real_blocked,
        stop_cells=real_stop,
        allow_squeeze=cache.opts.diagonal_squeeze,
    )
    cells = [s.cell for s in res.steps if s.cell is not None]
    stopped_by = res.stopped_by
    bump_cell = path[len(cells)] if stopped_by == "blocked" and len(cells) < len(path) else None
    # Walk step by step for opportunity attacks (R-ZOC-3).
    walked: list[Cell] = []
    prev = start
    zoc_now = set(start_zoc)
    attacked: set[str] = set()
    for cell in cells:
        leaving = sorted(
            eid for eid in zoc_now if eid in tx.units and cell not in cache.zoc(tx.units[eid].cell)
        )
        if provoke and leaving:
            tx.update(uid, cell=prev)
            halted = False
            for eid in leaving:
                if eid in attacked or eid not in tx.units or uid not in tx.units:
                    continue
                attacked.add(eid)
                if opportunity_attack(tx, eid, uid):
                    u = tx.units.get(uid)
                    if u is None or u.suppressed is not None or u.retreating is not None:
                        halted = True
                        break
            if halted or uid not in tx.units:
                stopped_by = "opportunity_attack" if uid in tx.units else "destroyed"
                bump_cell = None
                break
        walked.append(cell)
        prev = cell
        zoc_now = {e.id for e in tx.units_of(enemy_side) if cell in cache.zoc(e.cell)}
        if tx.cache.hooks.on_enter_cell and _entered_stops(tx, uid, cell):
            stopped_by = "hook"
            bump_cell = None
            break
    if uid not in tx.units:
        return prev
    # Stacking (R-GEO-4): end in the last walked cell with room.
    limit = tx.opts.stacking_limit
    while walked and sum(1 for u in tx.units_at(walked[-1]) if u.id != uid) >= limit:
        walked.pop()
        stopped_by = "stacking"
    final = walked[-1] if walked else start
    tx.update(uid, cell=final, moved=True)
    if bump_cell is not None:
        hidden_here = sorted(u.id for u in tx.units_at(bump_cell) if u.side == enemy_side)
        for eid in hidden_here:
            tx.set_contact(side, eid, ContactLevel.SPOTTED)
        tx.unit_event(
            "bump",
            uid,
            {"cell": list(bump_cell), "enemies": hidden_here},
            spotted_keys=("cell",),
        )
    after_move(tx, uid, walked)
    for hook in tx.cache.hooks.on_unit_moved:
        hook(tx, uid, walked)
    tx.unit_event(
        "move",
        uid,
        {
            "kind": kind,
            "from": list(start),
            "to": list(final),
            "path": [list(c) for c in walked],
            "stopped_by": stopped_by,
        },
        # Where a SPOTTED enemy went, not which order sent it (attack, withdraw …).
        spotted_keys=("to",),
        contact_keys=(),
    )
    return final


def _entered_stops(tx: Tx, uid: str, cell: Cell) -> bool:
    """Run the ``on_enter_cell`` hooks (the unit stands in ``cell`` meanwhile); True if
    one stops the move there. Every hook runs."""
    tx.update(uid, cell=cell)
    stop = False
    for hook in tx.cache.hooks.on_enter_cell:
        if hook(tx, uid, cell):
            stop = True
        if uid not in tx.units:
            return True
    return stop


def opportunity_attack(tx: Tx, eid: str, target: str) -> bool:
    """R-ZOC-3: enemy ``eid`` fires once at ``target`` leaving its ZoC, if it can fire and
    sees it. Returns whether it fired."""
    e = tx.units[eid]
    t = tx.units[target]
    if not can_fire_weapon(tx.cache, e, -1):
        return False
    if not tx.cache.sees(e.cell, t.cell):
        return False
    resolve_fire(tx, eid, target, "opportunity")
    return True


def retreat_destination(tx: Tx, uid: str) -> tuple[Cell, list[Cell]] | None:
    """R-MOR-5: where a RETREATING unit runs — its full L away from the enemies its side
    knows, preferring cover ≥ ``retreat_recovery_cover``; None if it cannot move."""
    cache = tx.cache
    unit = tx.unit(uid)
    contacts = tx.contacts[unit.side]
    know = knowledge(cache, tx.units, contacts, unit)
    dests = destinations(cache, unit, know)
    if not dests:
        return None
    points = known_enemy_points(contacts)
    here = distance_to(points, unit.cell)
    cover_need = tx.opts.retreat_recovery_cover

    ordered = sorted(dests)
    far = {c: distance_to(points, c) for c in ordered}

    def score(cell: Cell) -> tuple[bool, int, float]:
        return (
            cache.map.cover_at(cell) >= cover_need,
            far[cell],
            dests[cell] if points else -dests[cell],
        )

    away = [c for c in ordered if far[c] > here] if points else ordered
    best = max(away or ordered, key=score)
    path = plan_path(cache, unit, know, best)
    if path is None:
        return None
    return best, path
