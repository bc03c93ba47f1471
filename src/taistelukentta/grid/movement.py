"""Movement: step costs, the rounding rule, elevation, reachable area and paths.

Rules: R-GEO-3 (8-neighbour steps, DEFAULT no squeezing between two impassable cells),
R-TER-1 (a cell's multiplier is its fastest feature), R-TER-3 (rounding of the last step),
R-TER-5 (a move whose total ascent reaches 6 contours pays double for every uphill step).

The last-step rounding rule in one line: step ``k`` of a move may be taken when the cost of
the steps before it plus half its own cost fits the allowance; if it is not paid in full the
allowance ends there.

Reachable area and paths are path dependent because of R-TER-5, so the search runs two
regimes side by side and keeps the cheaper: (A) states ``(cell, ascent 0..5)`` with normal
costs, and (B) every uphill step doubled with no ascent limit. B over-charges moves whose
ascent stays below 6, which A prices exactly, so the union is exact.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra

from taistelukentta.errors import ArgumentError
from taistelukentta.grid.gamemap import FloatArray, GameMap
from taistelukentta.grid.geometry import DIRECTIONS8, Cell, chebyshev
from taistelukentta.grid.terrain import TerrainTable

ASCENT_LIMIT = 6
"""Total ascent (contour lines) from which every uphill step of a move costs double."""
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


def _walk(movement: float, costs: Sequence[float], rises: Sequence[int]) -> tuple[int, bool]:
    """How many of the steps a move can take, and whether its uphill steps are doubled."""
    taken = 0
    doubled_final = False
    normal = doubled = 0.0
    ascent = 0
    for c, r in zip(costs, rises, strict=True):
        ascent += r
        dbl = ascent >= ASCENT_LIMIT
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
    taken, _ = _walk(L, costs, rises)
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
) -> MoveResult:
    """Move from ``start`` along ``path`` (the cells entered, start excluded) as far as allowed.

    Stops before a blocked or impassable cell (or a forbidden diagonal squeeze), after
    entering a stop cell, or when the allowance runs out (R-TER-3, R-TER-5).
    """
    L = _check_movement(movement)
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
    taken, doubled = _walk(L, costs, rises)
    if taken < len(usable):
        stopped = "allowance"
    cells = usable[:taken]
    names = [game_map.move_feature_at(c) or "" for c in cells]
    steps = _steps(L, cells, names, costs[:taken], rises[:taken], doubled)
    return MoveResult(taken, steps, stopped, steps[-1].remaining if steps else L)


# -- vectorised search ---------------------------------------------------------------------


@dataclass(slots=True)
class _Search:
    x0: int
    y0: int
    w: int
    h: int
    layers: int
    dist: FloatArray  # per state (layers * n)
    pred: _I | None
    indptr: npt.NDArray[np.int32]  # the state graph in CSR form
    dst: npt.NDArray[np.int32]
    weight: FloatArray

    def cell_of(self, state: int) -> Cell:
        i = state % (self.w * self.h)
        return (self.x0 + i % self.w, self.y0 + i // self.w)

    @property
    def src(self) -> _I:
        """Source state of every edge (CSR rows expanded)."""
        counts = np.diff(self.indptr)
        return np.repeat(np.arange(len(counts), dtype=np.int64), counts)


def _search(
    game_map: GameMap,
    start: Cell,
    limit: float | None,
    blocked: Iterable[Cell],
    stop_cells: Iterable[Cell],
    allow_squeeze: bool,
    predecessors: bool,
) -> _Search:
    """Dijkstra over the state graph of a window around ``start`` (whole map if no limit).

    The graph is laid out directly in CSR form: each state has 8 edge slots (one per
    direction) and a boolean mask drops the illegal ones, which keeps rows in order and
    avoids any sorting.
    """
    sx, sy = start
    if limit is None:
        x0, y0, x1, y1 = 0, 0, game_map.width, game_map.height
    else:
        # a step costs at least the cheapest multiplier, plus one rounded last step
        min_cost = float(np.min(game_map.move_cost))
        radius = int(limit / min_cost) + 2 if np.isfinite(min_cost) else 1
        x0, y0 = max(0, sx - radius), max(0, sy - radius)
        x1, y1 = min(game_map.width, sx + radius + 1), min(game_map.height, sy + radius + 1)
    w, h = x1 - x0, y1 - y0
    n = w * h
    cost = game_map.move_cost[y0:y1, x0:x1].ravel().copy()
    imp = game_map.impassable[y0:y1, x0:x1].ravel()
    elev = game_map.elevation[y0:y1, x0:x1].ravel()
    stop = np.zeros(n, dtype=np.bool_)
    for bx, by in blocked:
        if x0 <= bx < x1 and y0 <= by < y1 and (bx, by) != start:
            cost[(by - y0) * w + (bx - x0)] = np.inf
    for qx, qy in stop_cells:
        if x0 <= qx < x1 and y0 <= qy < y1 and (qx, qy) != start:
            stop[(qy - y0) * w + (qx - x0)] = True
    # every legal edge, as flat (state, slot) positions of an (n, 8) table built from
    # shifted views of padded arrays: no gathers, rows stay in order
    cost2 = np.pad(cost.reshape(h, w), 1, constant_values=np.inf)
    imp2 = np.pad(imp.reshape(h, w), 1, constant_values=True)
    elev2 = np.pad(elev.reshape(h, w), 1, constant_values=0)
    free = ~stop.reshape(h, w)
    valid = np.empty((h, w, 8), dtype=np.bool_)
    base = np.empty((h, w, 8), dtype=np.float64)
    rise = np.empty((h, w, 8), dtype=np.int32)
    offsets = np.empty(8, dtype=np.int32)
    here = elev2[1 : 1 + h, 1 : 1 + w]
    for k, (dx, dy) in enumerate(DIRECTIONS8):
        there = cost2[1 + dy : 1 + dy + h, 1 + dx : 1 + dx + w]
        ok = np.isfinite(there) & free
        if dx and dy and not allow_squeeze:
            ok &= ~(imp2[1 : 1 + h, 1 + dx : 1 + dx + w] & imp2[1 + dy : 1 + dy + h, 1 : 1 + w])
        valid[:, :, k] = ok
        base[:, :, k] = there
        rise[:, :, k] = elev2[1 + dy : 1 + dy + h, 1 + dx : 1 + dx + w] - here
        offsets[k] = dy * w + dx
    edge = np.flatnonzero(valid.ravel())
    e_src = (edge // 8).astype(np.int32)
    e_dst = e_src + offsets[edge % 8]
    e_w = base.ravel()[edge]
    e_rise = np.maximum(rise.ravel()[edge], 0)
    start_state = (sy - y0) * w + (sx - x0)
    if not np.any(e_rise):
        layers = 1
        dst, weight = e_dst, e_w
        counts = np.bincount(e_src, minlength=n)
        sources = [start_state]
    else:
        # regime A: layers 0..5 = ascent so far; regime B: layer 6, every uphill step doubled
        layers = ASCENT_LIMIT + 1
        dsts: list[npt.NDArray[np.int32]] = []
        weights: list[FloatArray] = []
        cnts: list[npt.NDArray[np.int64]] = []
        for a in range(ASCENT_LIMIT):
            keep = e_rise <= ASCENT_LIMIT - 1 - a
            dsts.append((a + e_rise[keep]) * n + e_dst[keep])
            weights.append(e_w[keep])
            cnts.append(np.bincount(e_src[keep], minlength=n))
        dsts.append(ASCENT_LIMIT * n + e_dst)
        weights.append(np.where(e_rise > 0, e_w * UPHILL_FACTOR, e_w))
        cnts.append(np.bincount(e_src, minlength=n))
        dst = np.concatenate(dsts)
        weight = np.concatenate(weights)
        counts = np.concatenate(cnts)
        sources = [start_state, start_state + ASCENT_LIMIT * n]
    total = layers * n
    indptr = np.zeros(total + 1, dtype=np.int32)
    indptr[1:] = np.cumsum(counts)
    graph = csr_matrix((weight, dst, indptr), shape=(total, total))
    kwargs: dict[str, object] = {"directed": True, "indices": sources, "min_only": True}
    if limit is not None:
        kwargs["limit"] = limit + 0.25  # costs are multiples of 0.5
    pred: _I | None = None
    if predecessors:
        dist, pred_raw, _ = dijkstra(graph, return_predecessors=True, **kwargs)
        pred = np.asarray(pred_raw, dtype=np.int64)
    else:
        dist = dijkstra(graph, **kwargs)
    return _Search(
        x0, y0, w, h, layers, np.asarray(dist, dtype=np.float64), pred, indptr, dst, weight
    )


def _cell_spent(search: _Search, limit: float) -> tuple[FloatArray, FloatArray]:
    """Per window cell: cheapest full cost (inf if over) and spent allowance (inf = no)."""
    n = search.w * search.h
    full = search.dist.reshape(search.layers, n).min(axis=0)
    spent = np.where(full <= limit, full, np.inf)
    ds = search.dist[search.src]
    ok = ds + search.weight / 2 <= limit
    rounded = np.full(n, np.inf)
    np.minimum.at(rounded, search.dst[ok] % n, limit)
    return full, np.minimum(spent, rounded)


def reachable(
    game_map: GameMap,
    start: Cell,
    movement: float,
    *,
    blocked: Collection[Cell] = frozenset(),
    stop_cells: Collection[Cell] = frozenset(),
    allow_squeeze: bool = False,
) -> dict[Cell, float]:
    """Every cell a move from ``start`` can end in, with the allowance it spends.

    A cell reached only through the rounding rule (R-TER-3) spends the whole allowance.
    ``blocked`` cells cannot be entered; ``stop_cells`` can be entered but not left. The
    start cell is never treated as blocked or as a stop cell. Off-map cells in either set
    are ignored.
    """
    L = _check_movement(movement)
    game_map.check_cell(start, "start")
    s = _search(game_map, start, L, blocked, stop_cells, allow_squeeze, False)
    _, spent = _cell_spent(s, L)
    idx = np.flatnonzero(np.isfinite(spent))
    xs = idx % s.w + s.x0
    ys = idx // s.w + s.y0
    return {
        (int(x), int(y)): float(v)
        for x, y, v in zip(xs.tolist(), ys.tolist(), spent[idx].tolist(), strict=True)
    }


def path_to(
    game_map: GameMap,
    start: Cell,
    goal: Cell,
    movement: float,
    *,
    blocked: Collection[Cell] = frozenset(),
    stop_cells: Collection[Cell] = frozenset(),
    allow_squeeze: bool = False,
) -> list[Cell] | None:
    """A cheapest legal path (the cells entered, start excluded) to ``goal``; None if none.

    ``move_along(game_map, start, path, movement, ...)`` walks the whole returned path.
    """
    L = _check_movement(movement)
    game_map.check_cell(start, "start")
    game_map.check_cell(goal, "goal")
    if goal == start:
        return []
    s = _search(game_map, start, L, blocked, stop_cells, allow_squeeze, True)
    gx, gy = goal[0] - s.x0, goal[1] - s.y0
    if not (0 <= gx < s.w and 0 <= gy < s.h):
        return None
    n = s.w * s.h
    g = gy * s.w + gx
    states = np.arange(s.layers) * n + g
    d = s.dist[states]
    tail: list[Cell] = []
    if float(d.min()) <= L:
        last = int(states[int(np.argmin(d))])
    else:
        src = s.src
        ds = s.dist[src]
        ok = (ds + s.weight / 2 <= L) & (s.dst % n == g)
        if not np.any(ok):
            return None
        cand = np.flatnonzero(ok)
        last = int(src[cand[int(np.argmin(ds[cand]))]])
        tail = [goal]
    assert s.pred is not None
    path: list[Cell] = []
    state = last
    while state >= 0:
        path.append(s.cell_of(state))
        state = int(s.pred[state])
    path.reverse()
    return path[1:] + tail


def cost_field(
    game_map: GameMap,
    start: Cell,
    *,
    blocked: Collection[Cell] = frozenset(),
    stop_cells: Collection[Cell] = frozenset(),
    allow_squeeze: bool = False,
) -> FloatArray:
    """Cheapest movement cost from ``start`` to every cell, shape ``(height, width)``.

    No allowance and no rounding: ``inf`` marks cells that cannot be reached at all.
    Elevation (R-TER-5) is priced exactly as in :func:`reachable`.
    """
    game_map.check_cell(start, "start")
    s = _search(game_map, start, None, blocked, stop_cells, allow_squeeze, False)
    n = s.w * s.h
    full: FloatArray = s.dist.reshape(s.layers, n).min(axis=0)
    return full.reshape(game_map.height, game_map.width)
