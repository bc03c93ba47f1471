"""Movement: step costs, the rounding rule, elevation, reachable area and paths.

Rules: R-GEO-3 (8-neighbour steps, DEFAULT no squeezing between two impassable cells),
R-TER-1 (a cell's multiplier is its fastest feature), R-TER-3 (rounding of the last step),
R-TER-5 (a move whose total ascent reaches 6 contours pays double for every uphill step;
the 6 is the keyword ``ascent_limit``, option ``steep_ascent_contours``).

The last-step rounding rule in one line: step ``k`` of a move may be taken when the cost of
the steps before it plus half its own cost fits the allowance; if it is not paid in full the
allowance ends there.

Reachable area and paths are path dependent because of R-TER-5, so the search runs two
regimes side by side and keeps the cheaper: (A) states ``(cell, ascent 0..limit-1)`` with
normal costs, and (B) every uphill step doubled with no ascent limit. B over-charges moves
whose ascent stays below the limit, which A prices exactly, so the union is exact.
"""

from __future__ import annotations

import heapq
import sys
from collections.abc import Collection, Iterable, Sequence
from contextlib import suppress
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from taistelukentta.errors import ArgumentError
from taistelukentta.grid.gamemap import STEEP_ASCENT, GameMap, check_ascent_limit
from taistelukentta.grid.geometry import DIRECTIONS8, Cell, chebyshev
from taistelukentta.grid.terrain import TerrainTable

FloatArray = npt.NDArray[np.float64]

ASCENT_LIMIT = STEEP_ASCENT
"""Default total ascent (contour lines) from which every uphill step of a move costs double
(a map's ``ascent_limit``; option ``steep_ascent_contours``)."""
UPHILL_FACTOR = 2.0

_I = npt.NDArray[np.int64]


@dataclass(frozen=True, slots=True)
class Step:
    """One cell entered: the feature that set its cost, the cost and what is left after."""

    cell: Cell | None
    terrain: str
    cost: float
    """Full cost of the step (even when the rounding rule let it be taken for less)."""
    remaining: float
    """Allowance left after the step (0 when the rounding rule ended the move)."""


@dataclass(frozen=True, slots=True)
class MoveResult:
    """How far a move got."""

    cells: int
    """Cells entered."""
    steps: tuple[Step, ...]
    stopped_by: str | None
    """Why it stopped short of the path's end: ``allowance``, ``impassable``, ``blocked``,
    ``stop_cell``, ``squeeze``; None when the whole path was walked."""
    remaining: float = 0.0
    """Allowance left at the end (0 when the rounding rule ended the move)."""


def _check_movement(movement: float) -> float:
    m = float(movement)
    if not np.isfinite(m) or m < 0:
        raise ArgumentError(
            f"movement allowance must be a number >= 0, got {movement}",
            f"liikkeen on oltava luku >= 0, saatiin {movement}",
        )
    return m


def _ascent_limit(game_map: GameMap, ascent_limit: int | None) -> int:
    """The keyword if given, else the map's own setting."""
    return game_map.ascent_limit if ascent_limit is None else check_ascent_limit(ascent_limit)


def _walk(
    movement: float, costs: Sequence[float], rises: Sequence[int], ascent_limit: int
) -> tuple[int, bool]:
    """How many of the steps a move can take, and whether its uphill steps are doubled."""
    taken = 0
    doubled_final = False
    normal = doubled = 0.0
    ascent = 0
    for c, r in zip(costs, rises, strict=True):
        ascent += r
        dbl = ascent >= ascent_limit
        before = doubled if dbl else normal
        ck = c * UPHILL_FACTOR if (dbl and r > 0) else c
        if before + ck / 2 > movement:
            break
        taken += 1
        doubled_final = dbl
        normal += c
        doubled += c * UPHILL_FACTOR if r > 0 else c
    return taken, doubled_final


def _steps(
    movement: float,
    cells: Sequence[Cell | None],
    names: Sequence[str],
    costs: Sequence[float],
    rises: Sequence[int],
    doubled: bool,
) -> tuple[Step, ...]:
    out: list[Step] = []
    spent = 0.0
    for cell, name, c, r in zip(cells, names, costs, rises, strict=True):
        ck = c * UPHILL_FACTOR if (doubled and r > 0) else c
        spent += ck
        out.append(Step(cell, name, ck, max(0.0, movement - spent)))
    return tuple(out)


def move_along_terrain(
    table: TerrainTable, movement: float, terrain_ids: Sequence[str]
) -> MoveResult:
    """Walk a path given as one terrain id per cell (the `tk20 move` calculator, R-TER-3)."""
    L = _check_movement(movement)
    types = [table.get(t) for t in terrain_ids]
    costs: list[float] = []
    stopped: str | None = None
    for t in types:
        if t.move_cost is None:
            stopped = "impassable"
            break
        costs.append(t.move_cost)
    rises = [0] * len(costs)
    taken, _ = _walk(L, costs, rises, ASCENT_LIMIT)
    if taken < len(costs):
        stopped = "allowance"
    names = [t.id for t in types[:taken]]
    steps = _steps(L, [None] * taken, names, costs[:taken], rises[:taken], False)
    return MoveResult(taken, steps, stopped, steps[-1].remaining if steps else L)


def _squeezes(game_map: GameMap, a: Cell, b: Cell) -> bool:
    """True for a diagonal step between two impassable cells (R-GEO-3 DEFAULT)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    if dx == 0 or dy == 0:
        return False
    return bool(game_map.impassable[a[1], a[0] + dx] and game_map.impassable[a[1] + dy, a[0]])


def move_along(
    game_map: GameMap,
    start: Cell,
    path: Sequence[Cell],
    movement: float,
    *,
    blocked: Collection[Cell] = frozenset(),
    stop_cells: Collection[Cell] = frozenset(),
    allow_squeeze: bool = False,
    ascent_limit: int | None = None,
) -> MoveResult:
    """Move from ``start`` along ``path`` (the cells entered, start excluded) as far as allowed.

    Stops before a blocked or impassable cell (or a forbidden diagonal squeeze), after
    entering a stop cell, or when the allowance runs out (R-TER-3, R-TER-5). A move whose
    total ascent reaches ``ascent_limit`` contours pays double for every uphill step
    (None: the map's own ``ascent_limit``, by default 6).
    """
    L = _check_movement(movement)
    ascent_limit = _ascent_limit(game_map, ascent_limit)
    game_map.check_cell(start, "start")
    prev = start
    for i, cell in enumerate(path):
        game_map.check_cell(cell, f"path[{i}]")
        if chebyshev(prev, cell) != 1:
            raise ArgumentError(
                f"path[{i}] {cell[0]},{cell[1]} is not next to {prev[0]},{prev[1]}",
                f"path[{i}] {cell[0]},{cell[1]} ei ole ruudun {prev[0]},{prev[1]} vieressä",
            )
        prev = cell
    usable: list[Cell] = []
    stopped: str | None = None
    prev = start
    for cell in path:
        if cell in blocked:
            stopped = "blocked"
        elif game_map.impassable[cell[1], cell[0]]:
            stopped = "impassable"
        elif not allow_squeeze and _squeezes(game_map, prev, cell):
            stopped = "squeeze"
        if stopped:
            break
        usable.append(cell)
        prev = cell
        if cell in stop_cells:
            if len(usable) < len(path):
                stopped = "stop_cell"
            break
    costs = [float(game_map.move_cost[c[1], c[0]]) for c in usable]
    rises = []
    prev = start
    for c in usable:
        rises.append(max(0, game_map.elevation_at(c) - game_map.elevation_at(prev)))
        prev = c
    taken, doubled = _walk(L, costs, rises, ascent_limit)
    if taken < len(usable):
        stopped = "allowance"
    cells = usable[:taken]
    names = [game_map.move_feature_at(c) or "" for c in cells]
    steps = _steps(L, cells, names, costs[:taken], rises[:taken], doubled)
    return MoveResult(taken, steps, stopped, steps[-1].remaining if steps else L)


# -- vectorised search ---------------------------------------------------------------------

_I32 = npt.NDArray[np.int32]


@dataclass(slots=True)
class _Edges:
    """Legal single steps inside a window of the map, sorted by source cell."""

    x0: int
    y0: int
    w: int
    h: int
    start: int  # window index of the start cell
    src: _I32
    dst: _I32
    weight: FloatArray  # normal cost (the entered cell's multiplier)
    rise: _I32  # contour lines climbed (0 downhill or level)

    @property
    def n(self) -> int:
        return self.w * self.h

    def cell(self, i: int) -> Cell:
        return (self.x0 + i % self.w, self.y0 + i // self.w)


def _padded(a: npt.NDArray[Any], fill: float) -> npt.NDArray[Any]:
    """``a`` with a one-cell border of ``fill`` (a lighter np.pad)."""
    out = np.full((a.shape[0] + 2, a.shape[1] + 2), fill, dtype=a.dtype)
    out[1:-1, 1:-1] = a
    return out


def _edges(
    game_map: GameMap,
    start: Cell,
    radius: int | None,
    blocked: Iterable[Cell],
    stop_cells: Iterable[Cell],
    allow_squeeze: bool,
) -> _Edges:
    """Every legal step inside a window of ``radius`` around ``start`` (None = whole map).

    Built from shifted views of padded arrays as an (n, 8) table of slots, one per
    direction; the legal slots in row-major order are already sorted by source.
    """
    sx, sy = start
    if radius is None:
        x0, y0, x1, y1 = 0, 0, game_map.width, game_map.height
    else:
        x0, y0 = max(0, sx - radius), max(0, sy - radius)
        x1, y1 = min(game_map.width, sx + radius + 1), min(game_map.height, sy + radius + 1)
    w, h = x1 - x0, y1 - y0
    cost = game_map.move_cost[y0:y1, x0:x1].copy()
    free = np.ones((h, w), dtype=np.bool_)
    for bx, by in blocked:
        if x0 <= bx < x1 and y0 <= by < y1 and (bx, by) != start:
            cost[by - y0, bx - x0] = np.inf
    for qx, qy in stop_cells:
        if x0 <= qx < x1 and y0 <= qy < y1 and (qx, qy) != start:
            free[qy - y0, qx - x0] = False
    cost2 = _padded(cost, np.inf)
    imp2 = _padded(game_map.impassable[y0:y1, x0:x1], True)
    elev2 = _padded(game_map.elevation[y0:y1, x0:x1], 0)
    valid = np.empty((h, w, 8), dtype=np.bool_)
    offsets = np.empty(8, dtype=np.int32)
    for k, (dx, dy) in enumerate(DIRECTIONS8):
        ok = np.isfinite(cost2[1 + dy : 1 + dy + h, 1 + dx : 1 + dx + w]) & free
        if dx and dy and not allow_squeeze:
            ok &= ~(imp2[1 : 1 + h, 1 + dx : 1 + dx + w] & imp2[1 + dy : 1 + dy + h, 1 : 1 + w])
        valid[:, :, k] = ok
        offsets[k] = dy * w + dx
    src64, slot = np.nonzero(valid.reshape(w * h, 8))
    src = src64.astype(np.int32)
    dst = src + offsets[slot]
    elev = elev2[1 : 1 + h, 1 : 1 + w].ravel()
    return _Edges(
        x0,
        y0,
        w,
        h,
        (sy - y0) * w + (sx - x0),
        src,
        dst,
        cost.ravel()[dst],
        np.maximum(elev[dst] - elev[src], 0).astype(np.int32),
    )


NULL_PRED = -9999
"""Predecessor of a start state or of a state not reached (scipy's ``NULL_IDX``)."""


def heap_dijkstra(
    indptr: _I32, indices: _I32, data: FloatArray, sources: Sequence[int], limit: float
) -> tuple[list[float], list[int]]:
    """Cheapest costs and predecessors from the nearest of ``sources`` over a CSR graph,
    in plain Python (``heapq``): exactly what ``scipy.sparse.csgraph.dijkstra(graph,
    directed=True, indices=sources, min_only=True, limit=limit)`` answers (scipy ≥ 1.16),
    costs and predecessors, unreached states ``inf`` / :data:`NULL_PRED`.

    The same algorithm in the same order: a state is scanned when it leaves the queue with
    its current cost, its edges in CSR order, a target improved only by a strictly lower
    cost (which then sets its predecessor). scipy's queue (a C++ ``priority_queue`` of
    ``(-cost, index)``) hands out the lowest cost first and, among equal costs, the highest
    index; ``(cost, -index)`` in a ``heapq`` gives the same order, and no two entries are
    ever equal, so the order does not depend on how either heap is built.
    """
    ptr: list[int] = indptr.tolist()
    targets: list[int] = indices.tolist()
    weights: list[float] = data.tolist()
    inf = float("inf")
    dist = [inf] * (len(ptr) - 1)
    pred = [NULL_PRED] * (len(ptr) - 1)
    queue: list[tuple[float, int]] = []
    for s in sources:
        dist[s] = 0.0
        heapq.heappush(queue, (0.0, -s))
    pop, push = heapq.heappop, heapq.heappush
    while queue:
        d, minus_v = pop(queue)
        v = -minus_v
        if dist[v] < d:
            continue  # a stale entry: v left the queue earlier at a lower cost
        for j in range(ptr[v], ptr[v + 1]):
            nd = d + weights[j]
            if nd <= limit:
                t = targets[j]
                if dist[t] > nd:
                    dist[t] = nd
                    pred[t] = v
                    push(queue, (nd, -t))
    return dist, pred


PLAIN_SEARCH_BUDGET = 100_000
"""Edges a process scans with :func:`heap_dijkstra` before it imports scipy for the rest.

Importing ``scipy.sparse.csgraph`` costs ~0.25 s of CPU here, more than a ``tk20`` command
spends on everything else; the plain search costs ~1 µs per edge (a ``demo`` move, ~3 500
edges: ~4 ms), scipy's a small fraction of that. So a process searches in plain Python
until it has spent about what the import costs (a command lists a few units' moves: well
under it), then pays the import once (a bot game or a server: many searches). Both give
the same answers, so when the switch happens changes nothing but the time."""

_plain_scanned = [0]  # edges this process has searched in plain Python


def _plain_search(edges: int) -> bool:
    """Whether the next search (``edges`` edges) runs in plain Python."""
    if "scipy.sparse.csgraph" in sys.modules or _plain_scanned[0] >= PLAIN_SEARCH_BUDGET:
        return False
    _plain_scanned[0] += edges
    return True


def _dijkstra(
    src: _I32,
    dst: _I32,
    weight: FloatArray,
    rise: _I32,
    r: int,
    start: int,
    limit: float | None,
    predecessors: bool,
    layered: bool,
    ascent_limit: int,
) -> tuple[int, FloatArray, _I | None]:
    """Cheapest costs over ``r`` cells: one layer, or regimes A (layers 0..limit-1) and B
    (layer ``ascent_limit``).

    Regime A state ``(cell, a)`` = ascent ``a`` so far, normal costs, no step may make the
    ascent reach the limit; regime B doubles every uphill step. The layered graph keeps
    every edge slot in every layer (rows stay in order, no compaction): a step too steep for
    an A layer goes to a dead sink with infinite weight. Returns (layers, dist per state,
    predecessors).
    """
    # int32 index arrays: what scipy's dijkstra works with (no conversion copies there)
    e = len(src)
    row = np.zeros(r + 1, dtype=np.int32)
    np.cumsum(np.bincount(src, minlength=r), out=row[1:])
    if not layered:
        layers = 1
        total = r
        indptr = row
        indices: _I32 = dst
        data = weight
        sources = [start]
    else:
        layers = ascent_limit + 1
        total = layers * r + 1  # + the sink
        sink = layers * r
        a = np.arange(ascent_limit, dtype=np.int32)[:, None]
        na = a + rise[None, :]
        ok = na < ascent_limit
        indices = np.empty(layers * e, dtype=np.int32)
        np.copyto(indices[: ascent_limit * e].reshape(ascent_limit, e), na * r + dst)
        indices[: ascent_limit * e][~ok.ravel()] = sink
        np.add(dst, ascent_limit * r, out=indices[ascent_limit * e :])
        data = np.empty(layers * e, dtype=np.float64)
        np.copyto(data[: ascent_limit * e].reshape(ascent_limit, e), weight)
        data[: ascent_limit * e][~ok.ravel()] = np.inf
        data[ascent_limit * e :] = np.where(rise > 0, weight * UPHILL_FACTOR, weight)
        indptr = np.empty(layers * r + 2, dtype=np.int32)
        np.add(
            row[:-1][None, :],
            np.arange(layers, dtype=np.int32)[:, None] * e,
            out=indptr[: layers * r].reshape(layers, r),
        )
        indptr[layers * r :] = layers * e
        sources = [start, ascent_limit * r + start] if ascent_limit else [start]
    bound = np.inf if limit is None else limit + 0.25  # costs are multiples of 0.5
    if _plain_search(len(indices)):
        dist_list, pred_list = heap_dijkstra(indptr, indices, data, sources, bound)
        dist = np.array(dist_list, dtype=np.float64)[: layers * r]
        pred = np.array(pred_list, dtype=np.int64)[: layers * r] if predecessors else None
        return layers, dist, pred
    from scipy.sparse import csr_matrix  # here: scipy is slow to import, few commands search
    from scipy.sparse.csgraph import dijkstra

    graph = csr_matrix((data, indices, indptr), shape=(total, total))
    kwargs: dict[str, object] = {"directed": True, "indices": sources, "min_only": True}
    if limit is not None:
        kwargs["limit"] = bound
    pred = None
    if predecessors:
        dist_raw, pred_raw, _ = dijkstra(graph, return_predecessors=True, **kwargs)
        pred = np.asarray(pred_raw, dtype=np.int64)[: layers * r]
    else:
        dist_raw = dijkstra(graph, **kwargs)
    return layers, np.asarray(dist_raw, dtype=np.float64)[: layers * r], pred


def _exact_regimes(
    ed: _Edges,
    inside: npt.NDArray[np.bool_],
    steps: npt.NDArray[np.bool_],
    limit: float | None,
    predecessors: bool,
    ascent_limit: int,
) -> tuple[_I, _I, FloatArray, _I | None]:
    """The exact regimes (A and B, :func:`_dijkstra` layered) on the window cells ``inside``
    alone, over the edges ``steps`` (those between two such cells; ``inside`` must hold the
    start). Returns the cells (window indices, in order: the compact numbering), each window
    cell's compact index (-1 outside), the costs ``(layers, len(cells))`` and predecessors
    per compact state."""
    cells = np.flatnonzero(inside)
    comp = np.full(ed.n, -1, dtype=np.int64)
    comp[cells] = np.arange(len(cells))
    layers, flat, pred = _dijkstra(
        comp[ed.src[steps]].astype(np.int32),
        comp[ed.dst[steps]].astype(np.int32),
        ed.weight[steps],
        ed.rise[steps],
        len(cells),
        int(comp[ed.start]),
        limit,
        predecessors,
        True,
        ascent_limit,
    )
    return cells, comp, flat.reshape(layers, len(cells)), pred


@dataclass(slots=True)
class _Reach:
    edges: _Edges
    cells: _I  # window indices of the searched cells (the compact numbering)
    layers: int
    dist: FloatArray  # (layers, len(cells))
    pred: _I | None  # per compact state
    spent: FloatArray  # per window cell: allowance spent, inf = not reachable
    round_src: _I  # rounding candidates: compact state, window target
    round_dst: _I

    def state_cell(self, state: int) -> Cell:
        return self.edges.cell(int(self.cells[state % len(self.cells)]))


SHORTCUT_MAX_CELLS = 1500
"""Largest search window (cells) on which :func:`_reach` runs the exact regimes on the whole
window first: on a game-sized window one search beats two passes; on a large window (a long
allowance over a big map) the layered search over every cell costs more than the plain pass
that first narrows it. Both give the same answer; only the speed differs."""


def _half_steps(game_map: GameMap) -> bool:
    """Whether every finite step cost of the map is a multiple of 0.5 (kept with the map)."""
    memo = game_map.memo("movement.half_steps")
    hit: bool | None = memo.get("half")
    if hit is None:
        c = game_map.move_cost[np.isfinite(game_map.move_cost)] * 2
        hit = memo["half"] = bool(np.all(c == np.round(c)))
    return hit


def _reach(
    game_map: GameMap,
    start: Cell,
    movement: float,
    blocked: Iterable[Cell],
    stop_cells: Iterable[Cell],
    allow_squeeze: bool,
    predecessors: bool,
    ascent_limit: int,
) -> _Reach:
    """Reachable area in two passes.

    Pass 1 prices the window with normal costs, a lower bound of both regimes; only cells it
    reaches within the allowance can be reached in full, so pass 2 runs the exact regimes on
    those cells alone (skipped when none of their steps climbs). Rounded last steps are then
    checked from every reached state.

    Shortcut with the same answer: when step costs and the allowance are multiples of 0.5,
    the exact regimes run on the whole window first. A cell pass 1 leaves out costs more
    than the allowance + 0.25 (the search limit) in every regime, so the search never puts
    it on its heap, and every other state is scanned with the same edges in the same
    order: the same costs and predecessors. If a cell reached in full has a climbing step
    pass 2 would have run, and this is its result; otherwise the two passes run as above.
    """
    L = movement
    min_cost = float(np.min(game_map.move_cost))
    # a step costs at least the cheapest multiplier, plus one rounded last step
    radius = int(L / min_cost) + 2 if np.isfinite(min_cost) else 1
    ed = _edges(game_map, start, radius, blocked, stop_cells, allow_squeeze)
    n = ed.n
    if (
        n <= SHORTCUT_MAX_CELLS
        and (2 * L).is_integer()
        and np.any(ed.rise)
        and _half_steps(game_map)
    ):
        layers, flat, pred = _dijkstra(
            ed.src, ed.dst, ed.weight, ed.rise, n, ed.start, L, predecessors, True, ascent_limit
        )
        dist = flat.reshape(layers, n)
        if np.any(ed.rise[(dist.min(axis=0) <= L)[ed.src]]):
            cells = np.arange(n, dtype=np.int64)
            every = np.ones(len(ed.src), dtype=np.bool_)
            return _finish(
                ed, cells, layers, dist, pred, ed.src.astype(np.int64), every, True, L, ascent_limit
            )
    layers, lb, pred = _dijkstra(
        ed.src, ed.dst, ed.weight, ed.rise, n, ed.start, L, predecessors, False, ascent_limit
    )
    inside = lb <= L
    from_inside = inside[ed.src]
    climbs = bool(np.any(ed.rise[from_inside]))
    if not climbs:
        cells = np.arange(n, dtype=np.int64)
        dist = lb[None, :]
        comp_src = ed.src.astype(np.int64)
    else:
        cells, comp, dist, pred = _exact_regimes(
            ed, inside, from_inside & inside[ed.dst], L, predecessors, ascent_limit
        )
        layers = len(dist)
        comp_src = comp[ed.src]
    return _finish(ed, cells, layers, dist, pred, comp_src, from_inside, climbs, L, ascent_limit)


def _finish(
    ed: _Edges,
    cells: _I,
    layers: int,
    dist: FloatArray,
    pred: _I | None,
    comp_src: _I,
    e_mask: npt.NDArray[np.bool_],
    climbs: bool,
    L: float,
    ascent_limit: int,
) -> _Reach:
    """The allowance spent per window cell and the rounded last steps (from the edges
    ``e_mask``, whose sources include every state reached in full)."""
    n = ed.n
    r = len(cells)
    full = np.full(n, np.inf)
    full[cells] = dist.min(axis=0)
    spent = np.where(full <= L, full, np.inf)
    # rounded last steps: from a state reached in full, half the step's cost must fit;
    # only steps into cells not reached in full matter (path_to looks a goal up here only
    # then), so the others are left out — the candidates of each cell keep their order
    e_mask = e_mask & ~np.isfinite(spent[ed.dst])
    s_c = comp_src[e_mask]
    d_w = ed.dst[e_mask].astype(np.int64)
    wt = ed.weight[e_mask]
    rs = ed.rise[e_mask]
    if not climbs:
        ok = dist[0, s_c] + wt / 2 <= L
        round_src = s_c[ok]
        round_dst = d_w[ok]
    else:
        a = np.arange(ascent_limit, dtype=np.int64)[:, None]
        ok_a = (a + rs[None, :] < ascent_limit) & (dist[:ascent_limit, s_c] + wt / 2 <= L)
        wb = np.where(rs > 0, wt * UPHILL_FACTOR, wt)
        ok_b = dist[ascent_limit, s_c] + wb / 2 <= L
        la, ea = np.nonzero(ok_a)
        eb = np.flatnonzero(ok_b)
        round_src = np.concatenate([la * r + s_c[ea], ascent_limit * r + s_c[eb]])
        round_dst = np.concatenate([d_w[ea], d_w[eb]])
    spent[round_dst[~np.isfinite(spent[round_dst])]] = L
    return _Reach(ed, cells, layers, dist, pred, spent, round_src, round_dst)


SEARCH_MEMO_SIZE = 256
"""How many recent reach searches :func:`reachable` and :func:`path_to` share."""

_SEARCHES = "movement.searches"


def clear_search_memo(game_map: GameMap) -> None:
    """Forget the map's recent searches (benchmarks time a search from scratch)."""
    game_map.memo(_SEARCHES).clear()


def _search(
    game_map: GameMap,
    start: Cell,
    movement: float,
    blocked: Collection[Cell],
    stop_cells: Collection[Cell],
    allow_squeeze: bool,
    ascent_limit: int,
) -> _Reach:
    """:func:`_reach` with predecessors, shared by the last few calls: a caller (the game
    engine) typically lists a unit's destinations with :func:`reachable` and then asks
    :func:`path_to` for the one it picked, with the same arguments — one search serves
    both. The result depends only on the arguments (the map is immutable), so this changes
    no answer. The memo is kept with the map object (:meth:`GameMap.memo`), its oldest
    entry dropped when full; every step is one dict operation, so threads sharing a map
    at worst search again."""
    memo: dict[tuple[Any, ...], _Reach] = game_map.memo(_SEARCHES)
    key = (
        start,
        movement,
        frozenset(blocked),
        frozenset(stop_cells),
        allow_squeeze,
        ascent_limit,
    )
    hit = memo.pop(key, None)
    if hit is not None:
        memo[key] = hit  # the most recent again
        return hit
    res = _reach(game_map, start, movement, blocked, stop_cells, allow_squeeze, True, ascent_limit)
    memo[key] = res
    if len(memo) > SEARCH_MEMO_SIZE:
        with suppress(StopIteration, RuntimeError):  # another thread changed it meanwhile
            memo.pop(next(iter(memo)), None)
    return res


def reachable(
    game_map: GameMap,
    start: Cell,
    movement: float,
    *,
    blocked: Collection[Cell] = frozenset(),
    stop_cells: Collection[Cell] = frozenset(),
    allow_squeeze: bool = False,
    ascent_limit: int | None = None,
) -> dict[Cell, float]:
    """Every cell a move from ``start`` can end in, with the allowance it spends.

    A cell reached only through the rounding rule (R-TER-3) spends the whole allowance.
    ``blocked`` cells cannot be entered; ``stop_cells`` can be entered but not left. The
    start cell is never treated as blocked or as a stop cell. Off-map cells in either set
    are ignored. ``ascent_limit`` as in :func:`move_along`.
    """
    L = _check_movement(movement)
    ascent_limit = _ascent_limit(game_map, ascent_limit)
    game_map.check_cell(start, "start")
    res = _search(game_map, start, L, blocked, stop_cells, allow_squeeze, ascent_limit)
    ed = res.edges
    idx = np.flatnonzero(np.isfinite(res.spent))
    xs = (idx % ed.w + ed.x0).tolist()
    ys = (idx // ed.w + ed.y0).tolist()
    return {(x, y): v for x, y, v in zip(xs, ys, res.spent[idx].tolist(), strict=True)}


def path_to(
    game_map: GameMap,
    start: Cell,
    goal: Cell,
    movement: float,
    *,
    blocked: Collection[Cell] = frozenset(),
    stop_cells: Collection[Cell] = frozenset(),
    allow_squeeze: bool = False,
    ascent_limit: int | None = None,
) -> list[Cell] | None:
    """A cheapest legal path (the cells entered, start excluded) to ``goal``; None if none.

    ``move_along(game_map, start, path, movement, ...)`` (same ``ascent_limit``) walks the
    whole returned path.
    """
    L = _check_movement(movement)
    ascent_limit = _ascent_limit(game_map, ascent_limit)
    game_map.check_cell(start, "start")
    game_map.check_cell(goal, "goal")
    if goal == start:
        return []
    res = _search(game_map, start, L, blocked, stop_cells, allow_squeeze, ascent_limit)
    ed = res.edges
    gx, gy = goal[0] - ed.x0, goal[1] - ed.y0
    if not (0 <= gx < ed.w and 0 <= gy < ed.h):
        return None
    g = gy * ed.w + gx
    if not np.isfinite(res.spent[g]):
        return None
    r = len(res.cells)
    tail: list[Cell] = []
    pos = np.flatnonzero(res.cells == g)
    d = res.dist[:, pos[0]] if len(pos) else np.array([np.inf])
    if float(d.min()) <= L:
        last = int(np.argmin(d)) * r + int(pos[0])
    else:
        cand = res.round_src[res.round_dst == g]
        flat = res.dist.ravel()
        last = int(cand[int(np.argmin(flat[cand]))])
        tail = [goal]
    assert res.pred is not None
    path: list[Cell] = []
    state = last
    while state >= 0:
        path.append(res.state_cell(state))
        state = int(res.pred[state])
    path.reverse()
    return path[1:] + tail


def cost_field(
    game_map: GameMap,
    start: Cell,
    *,
    blocked: Collection[Cell] = frozenset(),
    stop_cells: Collection[Cell] = frozenset(),
    allow_squeeze: bool = False,
    ascent_limit: int | None = None,
) -> FloatArray:
    """Cheapest movement cost from ``start`` to every cell, shape ``(height, width)``.

    No allowance and no rounding: ``inf`` marks cells that cannot be reached at all.
    Elevation (R-TER-5, ``ascent_limit``) is priced exactly as in :func:`reachable`.
    """
    ascent_limit = _ascent_limit(game_map, ascent_limit)
    game_map.check_cell(start, "start")
    ed = _edges(game_map, start, None, blocked, stop_cells, allow_squeeze)
    n = ed.n
    if not np.any(ed.rise):
        _, dist, _ = _dijkstra(
            ed.src, ed.dst, ed.weight, ed.rise, n, ed.start, None, False, False, ascent_limit
        )
        flat_field: FloatArray = dist.reshape(game_map.height, game_map.width)
        return flat_field
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import dijkstra

    # regime B over the whole map: one layer, every uphill step doubled
    row = np.zeros(n + 1, dtype=np.int64)
    row[1:] = np.cumsum(np.bincount(ed.src, minlength=n))
    doubled = np.where(ed.rise > 0, ed.weight * UPHILL_FACTOR, ed.weight)
    full = np.asarray(
        dijkstra(csr_matrix((doubled, ed.dst, row), shape=(n, n)), indices=ed.start),
        dtype=np.float64,
    )
    if ascent_limit == 0:  # every move is steep: regime B alone
        return full.reshape(game_map.height, game_map.width)
    # regime A only where some path climbs less than the limit: find those cells by the least
    # ascent (a tiny step weight keeps level steps as edges), then run the exact regimes there
    ascent = np.asarray(
        dijkstra(
            csr_matrix((ed.rise + 1e-7, ed.dst, row), shape=(n, n)),
            indices=ed.start,
            limit=ascent_limit - 0.5,
        ),
        dtype=np.float64,
    )
    low = np.isfinite(ascent)
    cells, _, dist, _ = _exact_regimes(
        ed, low, low[ed.src] & low[ed.dst], None, False, ascent_limit
    )
    full[cells] = np.minimum(full[cells], dist.min(axis=0))
    return full.reshape(game_map.height, game_map.width)
