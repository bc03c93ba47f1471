"""R-GEO-3, R-TER-1, R-TER-3, R-TER-5: moves, reachable area, paths, cost fields."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from taistelukentta.content.maps import parse_map
from taistelukentta.content.terrain import default_terrain
from taistelukentta.errors import ArgumentError
from taistelukentta.grid import (
    GameMap,
    TerrainTable,
    cost_field,
    move_along,
    move_along_terrain,
    path_to,
    reachable,
)

from .reference import brute_reachable, ref_cost_field, ref_reachable
from .strategies import maps

WORKED = ["road", "road", "field", "field", "field", "swamp", "swamp", "swamp"]


def test_r_ter_3_worked_example(table: TerrainTable) -> None:
    r = move_along_terrain(table, 7, WORKED)
    assert r.cells == 7
    assert [s.remaining for s in r.steps] == [6.5, 6.0, 5.0, 4.0, 3.0, 1.0, 0.0]
    assert r.stopped_by == "allowance"


def test_r_ter_3_rounding_needs_half_the_step(table: TerrainTable) -> None:
    # 1 left, thicket costs 4: half is 2 > 1 → cannot enter
    r = move_along_terrain(table, 2, ["open", "thicket"])
    assert r.cells == 1 and r.stopped_by == "allowance"
    # 2 left, thicket 4: exactly half → may enter, allowance ends
    r = move_along_terrain(table, 2, ["thicket", "road"])
    assert r.cells == 1 and r.steps[0].remaining == 0.0 and r.stopped_by == "allowance"


def test_r_ter_1_water_stops_the_move(table: TerrainTable) -> None:
    r = move_along_terrain(table, 10, ["road", "water", "road"])
    assert r.cells == 1 and r.stopped_by == "impassable"


def test_move_rejects_negative_allowance_and_unknown_terrain(table: TerrainTable) -> None:
    with pytest.raises(ArgumentError, match="movement"):
        move_along_terrain(table, -1, ["road"])
    with pytest.raises(ArgumentError, match="lava"):
        move_along_terrain(table, 3, ["road", "lava"])


@settings(max_examples=200, deadline=None)
@given(
    st.integers(0, 12),
    st.lists(st.sampled_from(["open", "road", "field", "forest", "swamp", "thicket", "building"])),
)
def test_r_ter_3_never_exceeds_allowance_except_by_rounding(movement: int, path: list[str]) -> None:
    table = default_terrain()
    r = move_along_terrain(table, movement, path)
    costs = [table.get(t).move_cost or 0.0 for t in path]
    spent = sum(costs[: r.cells])
    if r.cells:
        before = spent - costs[r.cells - 1]
        assert before + costs[r.cells - 1] / 2 <= movement  # the rounding rule's bound
        assert spent <= movement or r.steps[-1].remaining == 0.0
    if r.cells < len(path):  # the next step was not allowed even with rounding
        assert spent + costs[r.cells] / 2 > movement or spent > movement


def test_r_ter_3_move_along_map_uses_fastest_feature() -> None:
    m = parse_map('terrain = "=RRRF"\n')
    path = [(1, 0), (2, 0), (3, 0), (4, 0)]
    r = move_along(m, (0, 0), path, 2.5)
    assert [s.terrain for s in r.steps] == ["road", "road", "road", "forest"]
    assert [s.cost for s in r.steps] == [0.5, 0.5, 0.5, 2.0]
    assert r.cells == 4 and r.steps[-1].remaining == 0.0  # 1 left ≥ half of 2
    r = move_along(m, (0, 0), path, 2)  # 0.5 left < half of the forest's 2
    assert r.cells == 3 and r.stopped_by == "allowance"


def test_r_ter_5_ascent_of_six_doubles_every_uphill_step() -> None:
    m = parse_map('terrain = "......"\nelevation = "0 2 4 6 6 6"\n')
    # ascent 6 reached on the third step: uphill steps 1-3 cost 2 each
    r = move_along(m, (0, 0), [(1, 0), (2, 0), (3, 0), (4, 0), (5, 0)], 8)
    assert [s.cost for s in r.steps] == [2.0, 2.0, 2.0, 1.0, 1.0]
    assert r.cells == 5
    # with L 5 the three uphill steps would cost 6 > 5 (rounding: 4 + 1 <= 5 ok)
    r = move_along(m, (0, 0), [(1, 0), (2, 0), (3, 0)], 4)
    assert r.cells == 2 and r.stopped_by == "allowance"  # the third step makes the move 6
    # ascent 4 only: normal costs
    m2 = parse_map('terrain = "...."\nelevation = "0 2 4 4"\n')
    assert [s.cost for s in move_along(m2, (0, 0), [(1, 0), (2, 0), (3, 0)], 9).steps] == [
        1.0,
        1.0,
        1.0,
    ]


def test_r_ter_5_downhill_costs_nothing_extra() -> None:
    m = parse_map('terrain = "....."\nelevation = "9 6 3 0 0"\n')
    r = move_along(m, (0, 0), [(1, 0), (2, 0), (3, 0), (4, 0)], 4)
    assert r.cells == 4 and r.steps[-1].remaining == 0.0


def test_r_geo_3_diagonal_may_not_squeeze_between_impassable_cells() -> None:
    m = parse_map('terrain = """\n.W\nW.\n"""\n')
    r = move_along(m, (0, 0), [(1, 1)], 5)
    assert r.cells == 0 and r.stopped_by == "squeeze"
    assert (1, 1) not in reachable(m, (0, 0), 5)
    assert (1, 1) in reachable(m, (0, 0), 5, allow_squeeze=True)
    assert path_to(m, (0, 0), (1, 1), 5) is None


def test_r_geo_3_steps_are_one_cell_diagonals_included() -> None:
    m = parse_map('terrain = """\n.....\n.....\n.....\n"""\n')
    assert reachable(m, (0, 0), 2)[(2, 2)] == 2.0
    with pytest.raises(ArgumentError, match="not next to"):
        move_along(m, (0, 0), [(2, 2)], 5)


def test_blocked_and_stop_cells() -> None:
    m = parse_map('terrain = """\n.....\n"""\n')
    r = move_along(m, (0, 0), [(1, 0), (2, 0), (3, 0)], 5, stop_cells={(2, 0)})
    assert r.cells == 2 and r.stopped_by == "stop_cell"
    r = move_along(m, (0, 0), [(1, 0), (2, 0)], 5, blocked={(2, 0)})
    assert r.cells == 1 and r.stopped_by == "blocked"
    reach = reachable(m, (0, 0), 5, stop_cells={(2, 0)})
    assert (2, 0) in reach and (3, 0) not in reach
    assert (1, 0) not in reachable(m, (0, 0), 5, blocked={(1, 0)})
    # the start cell itself is never a stop cell
    assert (1, 0) in reachable(m, (0, 0), 5, stop_cells={(0, 0)})


def test_reach_on_example_and_path_is_walkable(example: GameMap) -> None:
    reach = reachable(example, (1, 1), 7)
    assert reach[(1, 1)] == 0.0
    assert (8, 1) in reach  # along the road
    for goal, spent in reach.items():
        path = path_to(example, (1, 1), goal, 7)
        assert path is not None
        r = move_along(example, (1, 1), path, 7)
        assert r.cells == len(path) and r.stopped_by is None
        assert math.isclose(7 - r.remaining, spent)
    assert path_to(example, (1, 1), (19, 14), 7) is None


def test_reachable_rejects_off_map_start(example: GameMap) -> None:
    with pytest.raises(ArgumentError, match="off the map"):
        reachable(example, (30, 0), 3)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), maps(max_side=9), st.integers(0, 8), st.booleans(), st.integers(0, 8))
def test_r_ter_5_reachable_equals_plain_dijkstra_for_any_ascent_limit(
    data: st.DataObject, m: GameMap, movement: int, allow_squeeze: bool, ascent: int
) -> None:
    start = data.draw(st.tuples(st.integers(0, m.width - 1), st.integers(0, m.height - 1)))
    cells = st.tuples(st.integers(0, m.width - 1), st.integers(0, m.height - 1))
    blocked = data.draw(st.frozensets(cells, max_size=3))
    stop = data.draw(st.frozensets(cells, max_size=3))
    kw = {"blocked": blocked, "stop_cells": stop, "allow_squeeze": allow_squeeze}
    got = reachable(m, start, movement, ascent_limit=ascent, **kw)  # type: ignore[arg-type]
    want = ref_reachable(m, start, movement, ascent=ascent, **kw)  # type: ignore[arg-type]
    assert got == want
    goal = data.draw(cells)
    path = path_to(m, start, goal, movement, ascent_limit=ascent, **kw)  # type: ignore[arg-type]
    assert (path is not None) == (goal in want)
    if path is not None:
        r = move_along(
            m,
            start,
            path,
            movement,
            blocked=blocked,
            stop_cells=stop,
            allow_squeeze=allow_squeeze,
            ascent_limit=ascent,
        )
        assert r.cells == len(path)
        if path:
            assert math.isclose(movement - r.remaining, want[goal])


@settings(max_examples=80, deadline=None)
@given(st.data(), maps(max_side=4), st.integers(0, 3), st.sampled_from([6, 0, 1, 3, 8]))
def test_r_ter_5_reachable_equals_brute_force_over_every_walk(
    data: st.DataObject, m: GameMap, movement: int, ascent: int
) -> None:
    start = data.draw(st.tuples(st.integers(0, m.width - 1), st.integers(0, m.height - 1)))
    got = reachable(m, start, movement, ascent_limit=ascent)
    assert got == brute_reachable(m, start, movement, ascent)


@settings(max_examples=100, deadline=None)
@given(st.data(), maps(max_side=9), st.integers(0, 8))
def test_r_ter_5_cost_field_equals_plain_dijkstra_for_any_ascent_limit(
    data: st.DataObject, m: GameMap, ascent: int
) -> None:
    start = data.draw(st.tuples(st.integers(0, m.width - 1), st.integers(0, m.height - 1)))
    cells = st.tuples(st.integers(0, m.width - 1), st.integers(0, m.height - 1))
    blocked = data.draw(st.frozensets(cells, max_size=3))
    got = cost_field(m, start, blocked=blocked, ascent_limit=ascent)
    want = np.array(ref_cost_field(m, start, blocked=blocked, ascent=ascent))
    assert got.shape == (m.height, m.width)
    assert np.array_equal(got, want)


def test_r_ter_5_reach_prices_the_climb_of_the_whole_move() -> None:
    m = parse_map('terrain = "...."\nelevation = "0 2 4 6"\n')
    # to (3,0) the ascent reaches 6: 2 + 2 + 2 = 6 in full; with L 5 only by rounding
    assert reachable(m, (0, 0), 6) == {(0, 0): 0.0, (1, 0): 1.0, (2, 0): 2.0, (3, 0): 6.0}
    assert reachable(m, (0, 0), 5)[(3, 0)] == 5.0
    assert (3, 0) not in reachable(m, (0, 0), 4)
    assert cost_field(m, (0, 0)).tolist() == [[0.0, 1.0, 2.0, 6.0]]


def test_r_ter_5_ascent_limit_keyword_moves_the_threshold() -> None:
    m = parse_map('terrain = "...."\nelevation = "0 2 4 6"\n')
    path = [(1, 0), (2, 0), (3, 0)]
    # limit 3: the ascent reaches 4 at the second step, so every uphill step doubles
    assert reachable(m, (0, 0), 10, ascent_limit=3)[(3, 0)] == 6.0
    assert reachable(m, (0, 0), 10, ascent_limit=3)[(1, 0)] == 1.0
    assert [s.cost for s in move_along(m, (0, 0), path, 10, ascent_limit=3).steps] == [
        2.0,
        2.0,
        2.0,
    ]
    assert cost_field(m, (0, 0), ascent_limit=3).tolist() == [[0.0, 1.0, 4.0, 6.0]]
    # limit 8: an ascent of 6 is not steep any more
    assert reachable(m, (0, 0), 10, ascent_limit=8)[(3, 0)] == 3.0
    assert cost_field(m, (0, 0), ascent_limit=8).tolist() == [[0.0, 1.0, 2.0, 3.0]]
    assert path_to(m, (0, 0), (3, 0), 3, ascent_limit=8) == path
    assert path_to(m, (0, 0), (3, 0), 3) is None  # default 6: costs 6, only 3 to spend


def test_r_ter_5_ascent_limit_must_be_a_whole_number() -> None:
    m = parse_map('terrain = "...."\n')
    with pytest.raises(ArgumentError, match="ascent_limit"):
        reachable(m, (0, 0), 3, ascent_limit=-1)
    with pytest.raises(ArgumentError, match="ascent_limit"):
        move_along(m, (0, 0), [(1, 0)], 3, ascent_limit=2.5)  # type: ignore[arg-type]


def test_r_ter_5_path_around_the_hill_avoids_doubling() -> None:
    # over the ridge: ascent 6 (cost doubled); around it on the row below: level ground
    m = parse_map('terrain = """\n.....\n.....\n"""\nelevation = """\n0 3 6 3 0\n0 0 0 0 0\n"""\n')
    path = path_to(m, (0, 0), (4, 0), 5)
    assert path is not None and all(m.elevation_at(c) < 6 for c in path)
    assert reachable(m, (0, 0), 5)[(4, 0)] == 4.0
    assert move_along(m, (0, 0), [(1, 0), (2, 0), (3, 0), (4, 0)], 10).steps[1].cost == 2.0


@settings(max_examples=80, deadline=None)
@given(st.data(), maps(), st.integers(0, 8))
def test_r_ter_3_move_along_never_exceeds_allowance_except_by_rounding(
    data: st.DataObject, m: GameMap, movement: int
) -> None:
    start = data.draw(st.tuples(st.integers(0, m.width - 1), st.integers(0, m.height - 1)))
    path = []
    cur = start
    for step in data.draw(st.lists(st.integers(0, 7), max_size=12)):
        dx, dy = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)][step]
        nxt = (cur[0] + dx, cur[1] + dy)
        if m.in_bounds(nxt):
            path.append(nxt)
            cur = nxt
    r = move_along(m, start, path, movement)
    assert r.cells <= len(path)
    costs = [s.cost for s in r.steps]
    if costs:
        assert sum(costs[:-1]) + costs[-1] / 2 <= movement
        assert sum(costs) <= movement or r.remaining == 0.0
    if r.stopped_by == "allowance":
        assert r.cells < len(path)


def test_r_ter_5_map_ascent_limit_is_the_default_and_keyword_wins() -> None:
    m = parse_map('terrain = "...."\nelevation = "0 2 4 6"\n')
    assert m.ascent_limit == 6
    low = m.with_rules(ascent_limit=3)
    assert m.ascent_limit == 6 and low.ascent_limit == 3  # a copy; the original unchanged
    assert reachable(low, (0, 0), 10)[(3, 0)] == 6.0
    assert reachable(low, (0, 0), 10, ascent_limit=8)[(3, 0)] == 3.0
    assert cost_field(low, (0, 0)).tolist() == [[0.0, 1.0, 4.0, 6.0]]
    assert [s.cost for s in move_along(low, (0, 0), [(1, 0), (2, 0)], 10).steps] == [2.0, 2.0]
    assert path_to(m.with_rules(ascent_limit=8), (0, 0), (3, 0), 3) == [(1, 0), (2, 0), (3, 0)]
    with pytest.raises(ArgumentError, match="ascent_limit"):
        m.with_rules(ascent_limit=-2)
