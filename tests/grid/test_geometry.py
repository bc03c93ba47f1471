"""R-GEO-2, R-GEO-3, R-TER-6: distances, neighbours, radii."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from taistelukentta.grid import area, chebyshev, neighbours8

coords = st.integers(-50, 50)
cells = st.tuples(coords, coords)


def test_r_geo_2_chebyshev_counts_diagonals_as_one() -> None:
    assert chebyshev((0, 0), (3, 3)) == 3
    assert chebyshev((0, 0), (3, 1)) == 3
    assert chebyshev((2, 5), (2, 5)) == 0
    assert chebyshev((-1, 4), (2, -2)) == 6


@given(cells, cells)
def test_r_geo_2_chebyshev_is_max_of_axis_distances(a: tuple[int, int], b: tuple[int, int]) -> None:
    assert chebyshev(a, b) == max(abs(a[0] - b[0]), abs(a[1] - b[1]))
    assert chebyshev(a, b) == chebyshev(b, a)


def test_r_geo_2_zoc_radius_2_is_5x5_block() -> None:
    block = area((10, 10), 2)
    assert len(block) == 25
    assert all(chebyshev((10, 10), c) <= 2 for c in block)
    assert (8, 8) in block and (12, 12) in block and (13, 10) not in block


@given(cells, st.integers(0, 6))
def test_r_ter_6_radius_block_is_exactly_the_cells_within_distance(
    c: tuple[int, int], r: int
) -> None:
    block = set(area(c, r))
    assert len(block) == (2 * r + 1) ** 2
    around = {(c[0] + dx, c[1] + dy) for dx in range(-r - 1, r + 2) for dy in range(-r - 1, r + 2)}
    assert block == {x for x in around if chebyshev(c, x) <= r}


def test_area_negative_radius_rejected() -> None:
    with pytest.raises(ValueError, match="radius"):
        area((0, 0), -1)


@given(cells)
def test_r_geo_3_eight_neighbours_at_distance_one(c: tuple[int, int]) -> None:
    ns = list(neighbours8(c))
    assert len(set(ns)) == 8
    assert all(chebyshev(c, n) == 1 for n in ns)
