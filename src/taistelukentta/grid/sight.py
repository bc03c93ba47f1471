"""Line of sight, cover along it, and elevation modifiers (R-TER-4, R-TER-5).

The line runs between cell centres. The cells it crosses are those whose interior it passes
through, both end cells included. DEFAULT corner rule: where the line passes exactly
through a cell corner it slips between the two cells beside that corner, unless both of
them limit sight; then the less limiting of the two counts as crossed (``corner="slip"``).
The other corner rule (``corner="block_either"``, option ``los_corner``): the line counts as
crossing the more limiting of the two cells beside the corner.

Two units see each other when their distance (R-GEO-2) is at most the sight limit of every
crossed cell and at most the maximum range (10 cells). The crossed cells are the same seen
from either end, so sight is symmetric.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from taistelukentta.errors import ArgumentError
from taistelukentta.grid.gamemap import Corner, GameMap, check_corner
from taistelukentta.grid.geometry import Cell, chebyshev

MAX_SIGHT = 10
"""Sight is never more than this many cells (R-TER-4)."""
HEIGHT_ADVANTAGE = 4
"""Contours above the target from which the elevation modifier applies (R-TER-5)."""
HEIGHT_MODIFIER = 2
"""Size of the elevation modifier (R-TER-5)."""

Offset = tuple[int, int]


def _corner(game_map: GameMap, corner: Corner | None) -> Corner:
    """The keyword if given, else the map's own ``los_corner``."""
    if corner is None:
        return game_map.los_corner
    check_corner(corner)
    return corner


@dataclass(frozen=True, slots=True)
class Sight:
    """What an observer at one cell can see of a target at another."""

    visible: bool
    distance: int
    cover: int
    """Cover bonus of the target: the best of its own cell and of the sight-limiting terrain
    the line crosses (not the observer's cell). When not visible: the target cell's cover."""
    limited_by: str | None
    """Visible: the sight-limiting terrain giving that cover (None if the line crosses none
    beyond the observer's cell). Not visible: the terrain that blocks (None = out of range)."""


@dataclass(frozen=True, slots=True)
class Ray:
    """The cells a line from offset (0, 0) to ``(dx, dy)`` crosses."""

    cells: tuple[Offset, ...]
    """Crossed cells in order from the observer's cell to the target's (both included)."""
    corners: tuple[tuple[Offset, Offset], ...]
    """Pairs of cells beside a corner the line passes exactly through."""


@lru_cache(maxsize=8192)
def ray(dx: int, dy: int) -> Ray:
    """The crossed cells and corner pairs of the line from (0, 0) to (dx, dy) (exact)."""
    sx = (dx > 0) - (dx < 0)
    sy = (dy > 0) - (dy < 0)
    adx, ady = abs(dx), abs(dy)
    i = j = 0  # steps taken along x and y
    cells: list[Offset] = [(0, 0)]
    corners: list[tuple[Offset, Offset]] = []
    while (i, j) != (adx, ady):
        # the next vertical border is crossed at t = (2i+1)/(2|dx|), horizontal at (2j+1)/(2|dy|)
        tx = (2 * i + 1) * ady if adx else None
        ty = (2 * j + 1) * adx if ady else None
        if ty is None or (tx is not None and tx < ty):
            i += 1
        elif tx is None or ty < tx:
            j += 1
        else:
            corners.append(((sx * (i + 1), sy * j), (sx * i, sy * (j + 1))))
            i += 1
            j += 1
        cells.append((sx * i, sy * j))
    return Ray(tuple(cells), tuple(corners))


def _crossed(
    game_map: GameMap, a: Cell, b: Cell, corner: Corner
) -> list[tuple[Cell, float, int, str | None]]:
    """(cell, sight limit, cover, feature) of every sight-relevant crossed cell, a → b.

    A corner pair counts as one cell. ``slip``: the less limiting one (on a tie the one
    giving less cover), and only when both limit sight. ``block_either``: the more limiting
    one (on a tie the one giving more cover), when either limits sight.
    """
    r = ray(b[0] - a[0], b[1] - a[1])
    out: list[tuple[Cell, float, int, str | None]] = []
    for ox, oy in r.cells:
        c = (a[0] + ox, a[1] + oy)
        out.append(
            (
                c,
                float(game_map.sight_limit[c[1], c[0]]),
                int(game_map.sight_cover[c[1], c[0]]),
                game_map.sight_feature_at(c),
            )
        )
    for p, q in r.corners:
        cp = (a[0] + p[0], a[1] + p[1])
        cq = (a[0] + q[0], a[1] + q[1])
        lp = float(game_map.sight_limit[cp[1], cp[0]])
        lq = float(game_map.sight_limit[cq[1], cq[0]])
        cp_cover = int(game_map.sight_cover[cp[1], cp[0]])
        cq_cover = int(game_map.sight_cover[cq[1], cq[0]])
        if corner == "slip":
            if np.isinf(lp) or np.isinf(lq):
                continue
            # the less limiting of the two; on a tie the one giving less cover
            pick = cp if (lp, -cp_cover) > (lq, -cq_cover) else cq
        else:
            if np.isinf(lp) and np.isinf(lq):
                continue
            # the more limiting of the two; on a tie the one giving more cover
            pick = cp if (lp, -cp_cover) < (lq, -cq_cover) else cq
        out.append(
            (
                pick,
                max(lp, lq) if corner == "slip" else min(lp, lq),
                int(game_map.sight_cover[pick[1], pick[0]]),
                game_map.sight_feature_at(pick),
            )
        )
    return out


def line_of_sight(
    game_map: GameMap,
    a: Cell,
    b: Cell,
    *,
    max_range: int = MAX_SIGHT,
    corner: Corner | None = None,
) -> Sight:
    """Whether units at ``a`` and ``b`` see each other, and the cover ``b`` gets (R-TER-4).

    ``corner`` is the corner rule (option ``los_corner``): ``"slip"`` or ``"block_either"``;
    None = the map's own ``los_corner`` (by default ``"slip"``).
    """
    corner = _corner(game_map, corner)
    game_map.check_cell(a, "observer")
    game_map.check_cell(b, "target")
    dist = chebyshev(a, b)
    own_cover = game_map.cover_at(b)
    if dist == 0:
        return Sight(True, 0, own_cover, None)
    crossed = _crossed(game_map, a, b, corner)
    blocking = [c for c in crossed if c[1] < dist]
    if blocking or dist > max_range:
        if blocking:
            # the most limiting; on a tie the one nearest the observer
            worst = min(blocking, key=lambda c: (c[1], chebyshev(a, c[0])))
            return Sight(False, dist, own_cover, worst[3])
        return Sight(False, dist, own_cover, None)
    best_cover = -1
    best_feature: str | None = None
    for cell, limit, cover, feature in crossed:
        if cell == a or np.isinf(limit):
            continue
        if cover > best_cover:
            best_cover, best_feature = cover, feature
    if best_feature is not None and best_cover >= own_cover:
        return Sight(True, dist, best_cover, best_feature)
    return Sight(True, dist, own_cover, None)


@dataclass(frozen=True, slots=True)
class _RayTable:
    offsets: npt.NDArray[np.int64]  # (K, 2) dx, dy
    dist: npt.NDArray[np.int64]  # (K,)
    cells: npt.NDArray[np.int64]  # (M, K) window indices, padded with the dummy index
    corner_a: npt.NDArray[np.int64]  # (C, K)
    corner_b: npt.NDArray[np.int64]


@lru_cache(maxsize=32)
def _ray_table(radius: int) -> _RayTable:
    side = 2 * radius + 1
    dummy = side * side

    def widx(o: Offset) -> int:
        return (o[1] + radius) * side + (o[0] + radius)

    offs: list[Offset] = [
        (dx, dy) for dy in range(-radius, radius + 1) for dx in range(-radius, radius + 1)
    ]
    rays = [ray(dx, dy) for dx, dy in offs]
    m = max(len(r.cells) for r in rays)
    c = max((len(r.corners) for r in rays), default=0) or 1
    cells = np.full((len(offs), m), dummy, dtype=np.int64)
    ca = np.full((len(offs), c), dummy, dtype=np.int64)
    cb = np.full((len(offs), c), dummy, dtype=np.int64)
    for k, r in enumerate(rays):
        cells[k, : len(r.cells)] = [widx(o) for o in r.cells]
        for q, (p1, p2) in enumerate(r.corners):
            ca[k, q] = widx(p1)
            cb[k, q] = widx(p2)
    offsets = np.array(offs, dtype=np.int64)
    dist = np.max(np.abs(offsets), axis=1)
    # transposed so the reductions run over whole rows (much faster than along short rows)
    return _RayTable(
        offsets,
        dist,
        np.ascontiguousarray(cells.T),
        np.ascontiguousarray(ca.T),
        np.ascontiguousarray(cb.T),
    )


def visible_cells(
    game_map: GameMap, origin: Cell, radius: int = MAX_SIGHT, *, corner: Corner | None = None
) -> set[Cell]:
    """Every cell a unit at ``origin`` sees (itself included), ``radius`` = maximum range.

    Vectorised over precomputed rays; the same answer as :func:`line_of_sight` per cell
    (with the same ``corner`` rule; None = the map's own).
    """
    corner = _corner(game_map, corner)
    game_map.check_cell(origin, "observer")
    if radius < 0:
        return set()
    t = _ray_table(radius)
    side = 2 * radius + 1
    ox, oy = origin
    flat = np.full(side * side + 1, np.inf)  # the last one is the padding dummy
    window = flat[:-1].reshape(side, side)
    x0, y0 = max(0, ox - radius), max(0, oy - radius)
    x1, y1 = min(game_map.width, ox + radius + 1), min(game_map.height, oy + radius + 1)
    window[y0 - oy + radius : y1 - oy + radius, x0 - ox + radius : x1 - ox + radius] = (
        game_map.sight_limit[y0:y1, x0:x1]
    )
    limit = np.take(flat, t.cells).min(axis=0)
    pick = np.maximum if corner == "slip" else np.minimum
    corner_limit = pick(np.take(flat, t.corner_a), np.take(flat, t.corner_b)).min(axis=0)
    tx = t.offsets[:, 0] + ox
    ty = t.offsets[:, 1] + oy
    ok = (
        (tx >= 0)
        & (tx < game_map.width)
        & (ty >= 0)
        & (ty < game_map.height)
        & (t.dist <= limit)
        & (t.dist <= corner_limit)
    )
    return set(zip(tx[ok].tolist(), ty[ok].tolist(), strict=True))


def elevation_modifier(
    game_map: GameMap,
    attacker: Cell,
    target: Cell,
    *,
    drone: bool = False,
    contours: int = HEIGHT_ADVANTAGE,
    bonus: int = HEIGHT_MODIFIER,
) -> int:
    """Modifier to an attack or recon roll from ``attacker`` at ``target`` (R-TER-5).

    ``+bonus`` when the attacker is at least ``contours`` contour lines above the target;
    ``−bonus`` when it is at least that far below (firing or observing upwards), except for
    drone recon; otherwise 0. Options ``elevation_advantage_contours`` and
    ``elevation_bonus`` give the two numbers (default 4 and 2).
    """
    if contours < 0 or bonus < 0:
        raise ArgumentError(
            f"elevation contours and bonus must be >= 0, got {contours} and {bonus}",
            f"korkeuskäyrien ja bonuksen on oltava >= 0, saatiin {contours} ja {bonus}",
        )
    diff = game_map.elevation_at(attacker) - game_map.elevation_at(target)
    if diff >= contours:
        return bonus
    if diff <= -contours and not drone:
        return -bonus
    return 0
