"""Plain, slow reference implementations the vectorised grid code is checked against.

Written independently of the numpy paths: per-cell lookups, heapq Dijkstra, exact
fractions for the line of sight.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Collection, Iterator
from fractions import Fraction

from taistelukentta.grid import Cell, GameMap, move_along

ASCENT = 6


def _cost(m: GameMap, c: Cell) -> float | None:
    costs = [m.terrain.get(f).move_cost for f in m.features_at(c)]
    finite = [x for x in costs if x is not None]
    return min(finite) if finite else None


def _neighbours(
    m: GameMap, c: Cell, blocked: Collection[Cell], allow_squeeze: bool
) -> Iterator[tuple[Cell, float, int]]:
    x, y = c
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            if dx == dy == 0:
                continue
            n = (x + dx, y + dy)
            if not m.in_bounds(n) or n in blocked:
                continue
            cost = _cost(m, n)
            if cost is None:
                continue
            if (
                dx
                and dy
                and not allow_squeeze
                and _cost(m, (x + dx, y)) is None
                and _cost(m, (x, y + dy)) is None
            ):
                continue
            rise = max(0, m.elevation_at(n) - m.elevation_at(c))
            yield n, cost, rise


def _dijkstra(
    m: GameMap,
    start: Cell,
    limit: float,
    blocked: Collection[Cell],
    stop: Collection[Cell],
    allow_squeeze: bool,
    regime_b: bool,
    ascent: int = ASCENT,
) -> dict[tuple[Cell, int], float]:
    """Regime A: states (cell, ascent < limit); regime B: (cell, 0), every uphill step doubled."""
    blocked = {b for b in blocked if b != start}
    stop = {s for s in stop if s != start}
    if not regime_b and ascent <= 0:
        return {}  # with limit 0 every move is steep: regime A has no states
    dist: dict[tuple[Cell, int], float] = {(start, 0): 0.0}
    heap: list[tuple[float, Cell, int]] = [(0.0, start, 0)]
    while heap:
        d, c, a = heapq.heappop(heap)
        if d > dist.get((c, a), math.inf) or d > limit:
            continue
        if c in stop:
            continue
        for n, cost, rise in _neighbours(m, c, blocked, allow_squeeze):
            if regime_b:
                na, w = 0, cost * (2 if rise else 1)
            else:
                na, w = a + rise, cost
                if na >= ascent:
                    continue
            nd = d + w
            if nd < dist.get((n, na), math.inf):
                dist[(n, na)] = nd
                heapq.heappush(heap, (nd, n, na))
    return dist


def ref_reachable(
    m: GameMap,
    start: Cell,
    movement: float,
    *,
    blocked: Collection[Cell] = frozenset(),
    stop_cells: Collection[Cell] = frozenset(),
    allow_squeeze: bool = False,
    ascent: int = ASCENT,
) -> dict[Cell, float]:
    """Cell → allowance spent, with the rounding rule on the last step."""
    out: dict[Cell, float] = {}
    blocked_set = {b for b in blocked if b != start}
    stop_set = {s for s in stop_cells if s != start}
    for regime_b in (False, True):
        dist = _dijkstra(m, start, movement, blocked_set, stop_set, allow_squeeze, regime_b, ascent)
        for (c, a), d in dist.items():
            if d > movement:
                continue
            out[c] = min(out.get(c, math.inf), d)
            if c in stop_set:
                continue
            for n, cost, rise in _neighbours(m, c, blocked_set, allow_squeeze):
                if regime_b:
                    w = cost * (2 if rise else 1)
                else:
                    if a + rise >= ascent:
                        continue
                    w = cost
                if d + w / 2 <= movement:
                    out[n] = min(out.get(n, math.inf), min(d + w, movement))
    return out


def ref_cost_field(
    m: GameMap, start: Cell, *, blocked: Collection[Cell] = frozenset(), ascent: int = ASCENT
) -> list[list[float]]:
    best = [[math.inf] * m.width for _ in range(m.height)]
    for regime_b in (False, True):
        dist = _dijkstra(m, start, math.inf, blocked, frozenset(), False, regime_b, ascent)
        for (c, _a), d in dist.items():
            best[c[1]][c[0]] = min(best[c[1]][c[0]], d)
    return best


def brute_reachable(
    m: GameMap, start: Cell, movement: float, ascent: int = ASCENT
) -> dict[Cell, float]:
    """Every walk, checked step by step with move_along (exponential: tiny maps only)."""
    out: dict[Cell, float] = {start: 0.0}

    def grow(path: list[Cell]) -> None:
        last = path[-1] if path else start
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                n = (last[0] + dx, last[1] + dy)
                if (dx, dy) == (0, 0) or not m.in_bounds(n):
                    continue
                walk = [*path, n]
                r = move_along(m, start, walk, movement, ascent_limit=ascent)
                if r.cells < len(walk):
                    continue
                spent = movement - r.remaining
                out[n] = min(out.get(n, math.inf), spent)
                if r.remaining > 0:
                    grow(walk)

    grow([])
    return out


# -- line of sight ---------------------------------------------------------------------


def ref_crossed(a: Cell, b: Cell) -> tuple[set[Cell], list[tuple[Cell, Cell]]]:
    """Cells whose open interior the centre-to-centre segment enters, and corner pairs."""
    ax, ay = Fraction(a[0]) + Fraction(1, 2), Fraction(a[1]) + Fraction(1, 2)
    dx, dy = b[0] - a[0], b[1] - a[1]
    crossed: set[Cell] = set()
    for x in range(min(a[0], b[0]), max(a[0], b[0]) + 1):
        for y in range(min(a[1], b[1]), max(a[1], b[1]) + 1):
            lo, hi = Fraction(0), Fraction(1)
            inside = True
            for p, d, c in ((ax, dx, x), (ay, dy, y)):
                if d == 0:
                    if not (c < p < c + 1):
                        inside = False
                    continue
                t1, t2 = (c - p) / d, (c + 1 - p) / d
                lo, hi = max(lo, min(t1, t2)), min(hi, max(t1, t2))
            if inside and lo < hi:
                crossed.add((x, y))
    corners: list[tuple[Cell, Cell]] = []
    steps = max(abs(dx), abs(dy)) * 2
    for k in range(1, steps):
        t = Fraction(k, steps)
        px, py = ax + t * dx, ay + t * dy
        if px.denominator == 1 and py.denominator == 1:
            X, Y = int(px), int(py)
            around = [(X - 1, Y - 1), (X, Y - 1), (X - 1, Y), (X, Y)]
            beside = [c for c in around if c not in crossed]
            assert len(beside) == 2
            corners.append((beside[0], beside[1]))
    return crossed, corners


def _limit(m: GameMap, c: Cell) -> tuple[float, int]:
    """(sight limit, cover of the limiting feature) of a cell."""
    best: tuple[float, int] = (math.inf, 0)
    for f in m.features_at(c):
        t = m.terrain.get(f)
        if t.sight_limit is not None and (t.sight_limit, -t.cover) < (best[0], -best[1]):
            best = (float(t.sight_limit), t.cover)
    return best


def ref_line_of_sight(
    m: GameMap, a: Cell, b: Cell, max_range: int = 10, corner: str = "slip"
) -> tuple[bool, int]:
    """(visible, cover of the target) by the plain reading of R-TER-4.

    Corner pairs: ``slip`` counts the less limiting cell when both limit sight;
    ``block_either`` counts the more limiting cell when either does.
    """
    dist = max(abs(a[0] - b[0]), abs(a[1] - b[1]))
    own = max(m.terrain.get(f).cover for f in m.features_at(b))
    if dist == 0:
        return True, own
    crossed, corners = ref_crossed(a, b)
    counted: list[tuple[Cell, float, int]] = [(c, *_limit(m, c)) for c in crossed]
    for p, q in corners:
        lp, lq = _limit(m, p), _limit(m, q)
        if corner == "slip":
            if math.isinf(lp[0]) or math.isinf(lq[0]):
                continue
            pick = max((lp, p), (lq, q), key=lambda z: (z[0][0], -z[0][1]))
        else:
            if math.isinf(lp[0]) and math.isinf(lq[0]):
                continue
            pick = min((lp, p), (lq, q), key=lambda z: (z[0][0], -z[0][1]))
        counted.append((pick[1], *pick[0]))
    visible = dist <= max_range and all(dist <= lim for _c, lim, _cov in counted)
    if not visible:
        return False, own
    cover = max([own] + [cov for c, lim, cov in counted if c != a and not math.isinf(lim)])
    return True, cover
