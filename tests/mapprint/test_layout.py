"""Page plan of the printed map: tiles cover the map, neighbours overlap, registration marks
are shared by both neighbours, the map area is whole centimetres (R-GEO-1)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taistelukentta.mapprint.layout import OVERLAP, PAPERS, plan, registration_marks


@settings(max_examples=60, deadline=None)
@given(
    w=st.integers(1, 400),
    h=st.integers(1, 400),
    paper=st.sampled_from(sorted(PAPERS)),
)
def test_r_geo_1_tiles_cover_every_cell_and_overlap(w: int, h: int, paper: str) -> None:
    sheet = plan(w, h, paper)
    covered = [[0] * w for _ in range(h)]
    for t in sheet.tiles:
        assert 0 <= t.x0 < t.x1 <= w and 0 <= t.y0 < t.y1 <= h
        assert t.width <= sheet.cells_w and t.height <= sheet.cells_h
        for y in range(t.y0, t.y1):
            for x in range(t.x0, t.x1):
                covered[y][x] += 1
    assert all(all(v >= 1 for v in row) for row in covered)
    by_pos = {(t.column, t.row): t for t in sheet.tiles}
    assert len(by_pos) == sheet.columns * sheet.rows == len(sheet.tiles)
    for (c, r), t in by_pos.items():
        right = by_pos.get((c + 1, r))
        if right is not None:
            assert t.x1 - right.x0 >= OVERLAP
            # Every mark on the shared strip appears on both pages, at the same map corner.
            shared = set(registration_marks(sheet, t)) & set(registration_marks(sheet, right))
            assert len(shared) >= 2
            for x, y in shared:
                assert right.x0 < x < t.x1 and max(t.y0, right.y0) <= y <= min(t.y1, right.y1)
        below = by_pos.get((c, r + 1))
        if below is not None:
            assert t.y1 - below.y0 >= OVERLAP
            shared = set(registration_marks(sheet, t)) & set(registration_marks(sheet, below))
            assert len(shared) >= 2


def test_a_small_map_is_one_page_without_marks() -> None:
    sheet = plan(10, 8, "A4")
    assert len(sheet.tiles) == 1
    assert registration_marks(sheet, sheet.tiles[0]) == []


def test_orientation_with_fewer_pages() -> None:
    # Demo, 30 × 20 cells, on A4: 17 cells fit across a portrait page, 26 across landscape.
    portrait = plan(30, 20, "A4")
    assert len(portrait.tiles) == 2 and not portrait.landscape
    assert (portrait.page_w, portrait.page_h) == PAPERS["A4"]
    big = plan(60, 40, "A2")
    assert len(big.tiles) <= len(plan(60, 40, "A3").tiles) <= len(plan(60, 40, "A4").tiles)


def test_unknown_paper() -> None:
    with pytest.raises(ValueError, match="A5"):
        plan(10, 10, "A5")
