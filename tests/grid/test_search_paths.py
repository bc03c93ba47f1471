"""The reach search has two exact paths (whole-window layered search on small windows, a
plain pass then the layered search on the cells it leaves, on large ones); both must give
the same answers as the plain reference (R-TER-3, R-TER-5)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from taistelukentta.grid import GameMap, path_to, reachable
from taistelukentta.grid import movement as grid_movement
from tests.grid.reference import ref_reachable
from tests.grid.strategies import maps


@pytest.mark.parametrize("shortcut_max", [0, 10_000])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), m=maps(max_side=9), movement=st.integers(0, 8), ascent=st.integers(0, 8))
def test_r_ter_5_both_search_paths_agree_with_reference(
    shortcut_max: int, data: st.DataObject, m: GameMap, movement: int, ascent: int
) -> None:
    start = data.draw(st.tuples(st.integers(0, m.width - 1), st.integers(0, m.height - 1)))
    saved = grid_movement.SHORTCUT_MAX_CELLS
    grid_movement.SHORTCUT_MAX_CELLS = shortcut_max
    grid_movement.clear_search_memo(m)
    try:
        got = reachable(m, start, movement, ascent_limit=ascent)
        assert got == ref_reachable(m, start, movement, ascent=ascent)
        for goal in got:
            assert path_to(m, start, goal, movement, ascent_limit=ascent) is not None
    finally:
        grid_movement.SHORTCUT_MAX_CELLS = saved
        grid_movement.clear_search_memo(m)
