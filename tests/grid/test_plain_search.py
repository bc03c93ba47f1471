"""The plain-Python map search (``grid.movement.heap_dijkstra``) answers exactly what scipy's
Dijkstra answers — costs and predecessors, ties included — so a command that searches
without importing scipy moves units along the same paths (the recorded games' state hashes
depend on them; R-GEO-3, R-TER-3, R-TER-5)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra

from taistelukentta.grid import GameMap, path_to, reachable
from taistelukentta.grid import movement as grid_movement
from tests.grid.strategies import maps

COSTS = np.array([0.0, 0.5, 1.0, 1.5, 2.0, 3.0, float("inf")])


@st.composite
def csr_graphs(draw: st.DrawFn) -> tuple[Any, Any, Any, list[int], float]:
    """A random directed graph as CSR arrays (duplicate edges and self-loops allowed), one or
    two sources and a search limit. Step costs as on the maps, multiples of 0.5 and the dead
    sink's infinite edges; with ``few_costs`` most are 1, so many paths cost the same and the
    order in which equal costs leave the queue decides the predecessors."""
    n = draw(st.integers(1, 50))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    e = int(rng.integers(0, 6 * n + 1))
    src = np.sort(rng.integers(0, n, e)).astype(np.int32)
    indices = rng.integers(0, n, e).astype(np.int32)
    if draw(st.booleans()):  # few_costs
        data = np.where(rng.random(e) < 0.8, 1.0, rng.choice(COSTS, e))
    else:
        data = rng.choice(COSTS, e)
    indptr = np.zeros(n + 1, dtype=np.int32)
    np.cumsum(np.bincount(src, minlength=n), out=indptr[1:])
    sources = draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=2, unique=True))
    limit = draw(st.sampled_from([float("inf"), 0.25, 1.25, 2.75, 6.25]))
    return indptr, indices, data.astype(np.float64), sources, limit


@settings(max_examples=300, deadline=None)
@given(graph=csr_graphs())
def test_r_ter_3_heap_dijkstra_gives_scipys_costs_and_predecessors(
    graph: tuple[Any, Any, Any, list[int], float],
) -> None:
    indptr, indices, data, sources, limit = graph
    n = len(indptr) - 1
    want_dist, want_pred, _ = dijkstra(
        csr_matrix((data, indices, indptr), shape=(n, n)),
        directed=True,
        indices=sources,
        min_only=True,
        limit=limit,
        return_predecessors=True,
    )
    dist, pred = grid_movement.heap_dijkstra(indptr, indices, data, sources, limit)
    assert dist == want_dist.tolist()
    assert pred == want_pred.tolist()


def _searched(
    m: GameMap,
    start: tuple[int, int],
    movement: float,
    ascent: int,
    plain: bool,
) -> tuple[Any, dict[Any, Any]]:
    """The raw search (costs, predecessors, rounding candidates) and every destination's
    path, with the plain search or scipy's forced."""
    grid_movement.clear_search_memo(m)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(grid_movement, "_plain_search", lambda edges: plain)
        res = grid_movement._reach(m, start, float(movement), (), (), False, True, ascent)
        got = reachable(m, start, movement, ascent_limit=ascent)
        paths = {goal: path_to(m, start, goal, movement, ascent_limit=ascent) for goal in got}
    grid_movement.clear_search_memo(m)
    assert res.pred is not None
    raw = (res.layers, res.cells.tolist(), res.dist.tolist(), res.pred.tolist())
    return (raw, res.spent.tolist(), res.round_src.tolist(), res.round_dst.tolist()), paths


@pytest.mark.parametrize("shortcut_max", [0, 10_000])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), m=maps(max_side=9), movement=st.integers(0, 8), ascent=st.integers(0, 8))
def test_r_ter_5_plain_and_scipy_searches_give_the_same_moves(
    shortcut_max: int,
    data: st.DataObject,
    m: GameMap,
    movement: int,
    ascent: int,
) -> None:
    start = data.draw(st.tuples(st.integers(0, m.width - 1), st.integers(0, m.height - 1)))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(grid_movement, "SHORTCUT_MAX_CELLS", shortcut_max)
        plain = _searched(m, start, movement, ascent, True)
        assert plain == _searched(m, start, movement, ascent, False)


@pytest.mark.parametrize("scenario", ["demo", "terasvalli"])
def test_r_ter_5_plain_search_on_the_bundled_maps(scenario: str) -> None:
    """Starts spread over the bundled maps, a unit's allowance and a long one: the same
    costs, predecessors and paths both ways."""
    from taistelukentta.content.scenario import load_scenario

    m = load_scenario(scenario).map
    cells = [
        (x, y)
        for y in range(m.height)
        for x in range(m.width)
        if m.move_cost_at((x, y)) is not None
    ]
    for start in cells[:: max(1, len(cells) // 12)]:
        for movement in (6, 11.5):
            plain = _searched(m, start, movement, 6, True)
            assert plain == _searched(m, start, movement, 6, False), start


def test_a_process_searches_in_plain_python_until_it_has_spent_the_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import sys

    monkeypatch.delitem(sys.modules, "scipy.sparse.csgraph")  # as in a fresh tk20 process
    monkeypatch.setattr(grid_movement, "_plain_scanned", [0])
    budget = grid_movement.PLAIN_SEARCH_BUDGET
    assert grid_movement._plain_search(budget - 1)
    assert grid_movement._plain_search(1)  # the budget is spent by this search
    assert not grid_movement._plain_search(1)
    monkeypatch.setattr(grid_movement, "_plain_scanned", [0])
    monkeypatch.setitem(sys.modules, "scipy.sparse.csgraph", sys.modules["scipy"])
    assert not grid_movement._plain_search(1)  # scipy already loaded: no reason to wait
