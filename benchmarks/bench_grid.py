"""Grid benchmarks (issue 2): the vectorised paths against plain Python references.

Run by hand: ``.venv/bin/python benchmarks/bench_grid.py [--flat]``. Not part of the tests.

On a seeded 500×500 map with mixed terrain (and, unless ``--flat``, rolling hills of
contour lines) it times, each after checking that both give the same answer:

1. reachable area with L = 20 vs a pure-Python heapq Dijkstra (target ≥ 2×);
2. the movement-cost field from one cell to the whole map vs the same Dijkstra (≥ 10×);
3. line of sight from one cell to every cell within 10 vs a per-pair Python walk (≥ 5×).
"""

from __future__ import annotations

import argparse
import heapq
import math
import time
from collections.abc import Callable
from functools import partial
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from taistelukentta.content.terrain import default_terrain
from taistelukentta.grid import GameMap, cost_field, reachable, visible_cells
from taistelukentta.grid.geometry import Cell
from taistelukentta.grid.movement import clear_search_memo

T = TypeVar("T")
SIZE = 500
ASCENT = 6


def make_map(seed: int, flat: bool) -> GameMap:
    """A seeded mixed-terrain map: fields, forest, swamp, thickets, villages, lakes, roads."""
    rng = np.random.default_rng(seed)

    def smooth(k: int) -> npt.NDArray[np.float64]:
        a = rng.random((SIZE + 2 * k, SIZE + 2 * k))
        c = np.cumsum(np.cumsum(a, axis=0), axis=1)
        c = np.pad(c, ((1, 0), (1, 0)))
        w = 2 * k + 1
        s = c[w:, w:] - c[:-w, w:] - c[w:, :-w] + c[:-w, :-w]
        s = s[:SIZE, :SIZE]
        out: npt.NDArray[np.float64] = (s - s.min()) / (s.max() - s.min())
        return out

    veg = smooth(6)
    wet = smooth(9)
    chars = np.full((SIZE, SIZE), ".", dtype="<U1")
    chars[veg > 0.35] = ","
    chars[veg > 0.55] = "F"
    chars[(veg > 0.8)] = "T"
    chars[wet > 0.78] = "S"
    chars[wet > 0.9] = "W"
    chars[rng.random((SIZE, SIZE)) < 0.01] = "B"
    for k in range(20, SIZE, 47):
        for line in (chars[k, :], chars[:, k]):
            line[line == "W"] = "H"
            line[line == "F"] = "R"
            line[np.isin(line, [".", ",", "S", "T", "B"])] = "="
    rows = ["".join(r) for r in chars]
    elev = None if flat else np.round(smooth(15) * 40).astype(np.int64).tolist()
    return GameMap(rows, terrain=default_terrain(), elevation=elev, name="bench")


# -- plain references ----------------------------------------------------------------


class Plain:
    """The map as plain Python lists (built once, outside the timings)."""

    def __init__(self, m: GameMap) -> None:
        self.w, self.h = m.width, m.height
        self.cost = [float(v) for v in m.move_cost.ravel().tolist()]
        self.elev = [int(v) for v in m.elevation.ravel().tolist()]
        self.imp = [math.isinf(c) for c in self.cost]
        self.regimes = (False, True) if any(self.elev[0] != e for e in self.elev) else (False,)
        self.sight = [[float(v) for v in row] for row in m.sight_limit.tolist()]


def _edges(p: Plain, i: int) -> list[tuple[int, float]]:
    w, h, cost, imp = p.w, p.h, p.cost, p.imp
    x, y = i % w, i // w
    out = []
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            if dx == dy == 0:
                continue
            nx, ny = x + dx, y + dy
            if not (0 <= nx < w and 0 <= ny < h):
                continue
            j = ny * w + nx
            if imp[j] or (dx and dy and imp[y * w + nx] and imp[ny * w + x]):
                continue
            out.append((j, cost[j]))
    return out


def plain_search(p: Plain, start: tuple[int, int], movement: float) -> dict[int, float]:
    """Cell index → cheapest full cost within ``movement``, over regimes A (ascent < 6) and
    B (uphill doubled), plus the cells one rounded last step away (R-TER-3) at ``movement``.
    With ``movement=math.inf`` nothing is rounded: the whole cost field."""
    elev = p.elev
    s = start[1] * p.w + start[0]
    out: dict[int, float] = {}
    for regime_b in p.regimes:
        dist: dict[tuple[int, int], float] = {(s, 0): 0.0}
        heap = [(0.0, s, 0)]
        while heap:
            d, i, a = heapq.heappop(heap)
            if d > dist[(i, a)]:
                continue
            if d < out.get(i, math.inf):
                out[i] = d
            for j, c in _edges(p, i):
                rise = elev[j] - elev[i]
                if regime_b:
                    na, w = 0, (c * 2 if rise > 0 else c)
                else:
                    na = a + rise if rise > 0 else a
                    if na >= ASCENT:
                        continue
                    w = c
                nd = d + w
                if nd <= movement:
                    if nd < dist.get((j, na), math.inf):
                        dist[(j, na)] = nd
                        heapq.heappush(heap, (nd, j, na))
                elif d + w / 2 <= movement and movement < out.get(j, math.inf):
                    out[j] = movement
    return out


def plain_visible(p: Plain, origin: tuple[int, int], radius: int) -> set[tuple[int, int]]:
    """Walk the line to every cell within ``radius``, one pair at a time."""
    lim = p.sight
    ox, oy = origin
    seen = set()
    for ty in range(max(0, oy - radius), min(p.h, oy + radius + 1)):
        for tx in range(max(0, ox - radius), min(p.w, ox + radius + 1)):
            dx, dy = tx - ox, ty - oy
            dist = max(abs(dx), abs(dy))
            sx, sy = (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)
            adx, ady = abs(dx), abs(dy)
            i = j = 0
            ok = dist <= lim[oy][ox]
            while ok and (i, j) != (adx, ady):
                tx2 = (2 * i + 1) * ady
                ty2 = (2 * j + 1) * adx
                if ady == 0 or (adx and tx2 < ty2):
                    i += 1
                elif adx == 0 or ty2 < tx2:
                    j += 1
                else:
                    a = lim[oy + sy * j][ox + sx * (i + 1)]
                    b = lim[oy + sy * (j + 1)][ox + sx * i]
                    if dist > max(a, b):
                        ok = False
                    i += 1
                    j += 1
                if dist > lim[oy + sy * j][ox + sx * i]:
                    ok = False
            if ok:
                seen.add((tx, ty))
    return seen


def uncached_reachable(m: GameMap, s: Cell, movement: float) -> dict[Cell, float]:
    """:func:`reachable` without the shared memo of recent searches (a cold search)."""
    clear_search_memo(m)
    return reachable(m, s, movement)


def best_of(fn: Callable[[], T], repeat: int) -> tuple[float, T]:
    best = math.inf
    result: T | None = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t0)
    assert result is not None
    return best, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--flat", action="store_true", help="no elevation")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    m = make_map(args.seed, args.flat)
    p = Plain(m)
    w = m.width
    starts = [(250, 250), (100, 400), (421, 77)]
    kind = "flat" if args.flat else "hilly"
    print(f"map 500x500 {kind}, seed {args.seed}")

    # 1. reachable area, L = 20
    t_fast = t_ref = 0.0
    for s in starts:
        tf, fast = best_of(partial(uncached_reachable, m, s, 20), 5)
        tr, ref = best_of(partial(plain_search, p, s, 20), 2)
        assert fast == {(i % w, i // w): v for i, v in ref.items()}, "reach differs"
        t_fast += tf
        t_ref += tr
    n = len(starts)
    print(
        f"reach L=20:      vectorised {t_fast / n * 1e3:8.2f} ms, plain {t_ref / n * 1e3:8.2f} ms,"
        f" ratio {t_ref / t_fast:6.1f}x (target 2x)"
    )

    # 2. cost field over the whole map
    s = starts[0]
    tf, field = best_of(lambda: cost_field(m, s), 2)
    tr, ref_field = best_of(lambda: plain_search(p, s, math.inf), 1)
    want = np.full(m.width * m.height, np.inf)
    for i, v in ref_field.items():
        want[i] = v
    assert np.array_equal(field.ravel(), want), "cost field differs"
    print(
        f"cost field:      vectorised {tf * 1e3:8.2f} ms, plain {tr * 1e3:8.2f} ms,"
        f" ratio {tr / tf:6.1f}x (target 10x)"
    )

    # 3. line of sight to every cell within 10
    t_fast = t_ref = 0.0
    for s in starts:
        visible_cells(m, s, 10)  # warm the ray table
        tf, seen = best_of(partial(visible_cells, m, s, 10), 20)
        tr, ref_seen = best_of(partial(plain_visible, p, s, 10), 5)
        assert seen == ref_seen, "visible cells differ"
        t_fast += tf
        t_ref += tr
    print(
        f"LoS radius 10:   vectorised {t_fast / n * 1e3:8.3f} ms, plain {t_ref / n * 1e3:8.3f} ms,"
        f" ratio {t_ref / t_fast:6.1f}x (target 5x)"
    )


if __name__ == "__main__":
    main()
