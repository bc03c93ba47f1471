"""R-TER-4 line of sight and cover, R-TER-5 elevation modifier."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taistelukentta.content.maps import parse_map
from taistelukentta.errors import ArgumentError
from taistelukentta.grid import (
    Corner,
    GameMap,
    elevation_modifier,
    line_of_sight,
    ray,
    visible_cells,
)

from .reference import ref_crossed, ref_line_of_sight
from .strategies import maps


def _row(cells: str) -> GameMap:
    return parse_map(f'terrain = "{cells}"\n')


def test_r_ter_4_open_ground_sees_ten_cells_no_more() -> None:
    m = _row("." * 12)
    assert line_of_sight(m, (0, 0), (10, 0)).visible
    s = line_of_sight(m, (0, 0), (11, 0))
    assert not s.visible and s.distance == 11 and s.limited_by is None
    assert line_of_sight(m, (0, 0), (11, 0), max_range=12).visible


def test_r_ter_4_forest_limits_sight_to_five() -> None:
    m = _row("..F......")
    assert line_of_sight(m, (0, 0), (5, 0)).visible
    s = line_of_sight(m, (0, 0), (6, 0))
    assert not s.visible and s.limited_by == "forest"


def test_r_ter_4_building_and_thicket_limit_sight_to_two() -> None:
    for ch, tid in (("B", "building"), ("T", "thicket")):
        m = _row(f".{ch}...")
        assert line_of_sight(m, (0, 0), (2, 0)).visible
        s = line_of_sight(m, (0, 0), (3, 0))
        assert not s.visible and s.limited_by == tid


def test_r_ter_4_end_cells_limit_too() -> None:
    m = _row("F......")
    assert not line_of_sight(m, (0, 0), (6, 0)).visible  # observer in forest
    assert not line_of_sight(m, (6, 0), (0, 0)).visible  # target in forest


def test_r_ter_4_cover_from_terrain_along_the_line_not_the_observers() -> None:
    m = _row("F.F..,")
    s = line_of_sight(m, (0, 0), (5, 0))
    assert s.visible and s.cover == 3 and s.limited_by == "forest"
    m2 = _row("F....,")
    s2 = line_of_sight(m2, (0, 0), (5, 0))  # only the observer's forest: field cover
    assert s2.visible and s2.cover == 1 and s2.limited_by is None
    m3 = _row(".FU")  # the target's own building beats the forest in front
    s3 = line_of_sight(m3, (0, 0), (2, 0))
    assert s3.visible and s3.cover == 4 and s3.limited_by == "building"


def test_r_ter_4_corner_rule_slips_between_unless_both_limit() -> None:
    # a diagonal line passes exactly through corners; cells beside them are (1,0), (0,1) …
    one = parse_map('terrain = """\n.B..\n....\n....\n"""\n')
    assert line_of_sight(one, (0, 0), (2, 2)).visible  # slips past one building
    assert line_of_sight(one, (0, 0), (2, 2)).cover == 0
    both = parse_map('terrain = """\n.B..\nB...\n....\n...."""\n')
    # both beside cells limit (2): the line counts one of them; distance 2 still visible
    assert line_of_sight(both, (0, 0), (2, 2)).visible
    assert line_of_sight(both, (0, 0), (3, 3)).limited_by == "building"
    assert not line_of_sight(both, (0, 0), (3, 3)).visible
    mixed = parse_map('terrain = """\n.B....\nF.....\n......\n......\n......\n......"""\n')
    # building beside forest: the less limiting one (forest, 5) counts
    assert line_of_sight(mixed, (0, 0), (5, 5)).visible
    assert line_of_sight(mixed, (0, 0), (5, 5)).cover == 3


def test_r_ter_4_corner_rule_block_either_counts_the_more_limiting_cell() -> None:
    one = parse_map('terrain = """\n.B....\n......\n......\n......\n......\n......"""\n')
    # slip: one building beside the corner is slipped past
    assert line_of_sight(one, (0, 0), (5, 5)).visible
    # block_either: the building counts as crossed: sight 2, building cover
    s2 = line_of_sight(one, (0, 0), (2, 2), corner="block_either")
    assert s2.visible and s2.cover == 4 and s2.limited_by == "building"
    s5 = line_of_sight(one, (0, 0), (5, 5), corner="block_either")
    assert not s5.visible and s5.limited_by == "building"
    assert (5, 5) in visible_cells(one, (0, 0))
    assert (5, 5) not in visible_cells(one, (0, 0), corner="block_either")
    mixed = parse_map('terrain = """\n.B....\nF.....\n......\n......\n......\n......"""\n')
    # building beside forest: slip counts the forest (5), block_either the building (2)
    assert line_of_sight(mixed, (0, 0), (5, 5)).visible
    assert not line_of_sight(mixed, (0, 0), (5, 5), corner="block_either").visible
    assert line_of_sight(mixed, (0, 0), (2, 2), corner="block_either").cover == 4


def test_r_ter_4_unknown_corner_rule_is_refused() -> None:
    m = _row("....")
    with pytest.raises(ArgumentError, match="corner rule 'round'"):
        line_of_sight(m, (0, 0), (3, 0), corner="round")  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="corner rule 'round'"):
        visible_cells(m, (0, 0), corner="round")  # type: ignore[arg-type]


def test_r_ter_4_crossed_cells_match_exact_geometry() -> None:
    for dx in range(-7, 8):
        for dy in range(-7, 8):
            r = ray(dx, dy)
            crossed, corners = ref_crossed((10, 10), (10 + dx, 10 + dy))
            assert {(10 + x, 10 + y) for x, y in r.cells} == crossed
            assert len(set(r.cells)) == len(r.cells)
            got = {
                frozenset({(10 + p[0], 10 + p[1]), (10 + q[0], 10 + q[1])}) for p, q in r.corners
            }
            assert got == {frozenset(pair) for pair in corners}


CORNERS = st.sampled_from(["slip", "block_either"])


@settings(max_examples=80, deadline=None)
@given(st.data(), maps(max_side=12), CORNERS)
def test_r_ter_4_sight_is_symmetric_on_any_map(
    data: st.DataObject, m: GameMap, corner: Corner
) -> None:
    cells = st.tuples(st.integers(0, m.width - 1), st.integers(0, m.height - 1))
    for _ in range(10):
        a, b = data.draw(cells), data.draw(cells)
        ab = line_of_sight(m, a, b, corner=corner).visible
        assert ab == line_of_sight(m, b, a, corner=corner).visible


@settings(max_examples=60, deadline=None)
@given(st.data(), maps(max_side=12), CORNERS)
def test_r_ter_4_line_of_sight_equals_plain_reading(
    data: st.DataObject, m: GameMap, corner: Corner
) -> None:
    cells = st.tuples(st.integers(0, m.width - 1), st.integers(0, m.height - 1))
    for _ in range(10):
        a, b = data.draw(cells), data.draw(cells)
        s = line_of_sight(m, a, b, corner=corner)
        assert (s.visible, s.cover) == ref_line_of_sight(m, a, b, corner=corner)


@settings(max_examples=40, deadline=None)
@given(st.data(), maps(max_side=16), st.integers(0, 10), CORNERS)
def test_r_ter_4_visible_cells_equals_per_pair_line_of_sight(
    data: st.DataObject, m: GameMap, radius: int, corner: Corner
) -> None:
    origin = data.draw(st.tuples(st.integers(0, m.width - 1), st.integers(0, m.height - 1)))
    want = {
        (x, y)
        for y in range(m.height)
        for x in range(m.width)
        if line_of_sight(m, origin, (x, y), max_range=radius, corner=corner).visible
    }
    assert visible_cells(m, origin, radius, corner=corner) == want


def test_visible_cells_on_example(example: GameMap) -> None:
    seen = visible_cells(example, (3, 3))
    assert (3, 3) in seen
    assert all(line_of_sight(example, (3, 3), c).visible for c in seen)


def test_line_of_sight_off_map(example: GameMap) -> None:
    with pytest.raises(ArgumentError, match="target 99,0"):
        line_of_sight(example, (0, 0), (99, 0))


def test_r_ter_5_height_advantage_and_uphill_penalty() -> None:
    m = parse_map('terrain = "...."\nelevation = "0 3 4 9"\n')
    assert elevation_modifier(m, (2, 0), (0, 0)) == 2
    assert elevation_modifier(m, (1, 0), (0, 0)) == 0
    assert elevation_modifier(m, (0, 0), (2, 0)) == -2
    assert elevation_modifier(m, (0, 0), (2, 0), drone=True) == 0
    assert elevation_modifier(m, (3, 0), (2, 0)) == 2


def test_r_ter_5_elevation_contours_and_bonus_are_keywords() -> None:
    m = parse_map('terrain = "...."\nelevation = "0 3 4 9"\n')
    # 3 contours above: nothing at the default 4, the advantage when the option says 3
    assert elevation_modifier(m, (1, 0), (0, 0)) == 0
    assert elevation_modifier(m, (1, 0), (0, 0), contours=3) == 2
    assert elevation_modifier(m, (0, 0), (1, 0), contours=3, bonus=3) == -3
    assert elevation_modifier(m, (0, 0), (1, 0), contours=3, bonus=3, drone=True) == 0
    assert elevation_modifier(m, (3, 0), (2, 0), contours=6) == 0
    with pytest.raises(ArgumentError, match="elevation contours and bonus"):
        elevation_modifier(m, (0, 0), (1, 0), bonus=-1)


@settings(max_examples=60, deadline=None)
@given(maps(max_side=6), st.data(), st.integers(1, 8), st.integers(0, 4))
def test_r_ter_5_elevation_modifier_is_antisymmetric_without_drones(
    m: GameMap, data: st.DataObject, contours: int, bonus: int
) -> None:
    cells = st.tuples(st.integers(0, m.width - 1), st.integers(0, m.height - 1))
    a, b = data.draw(cells), data.draw(cells)
    up = elevation_modifier(m, a, b, contours=contours, bonus=bonus)
    assert up == -elevation_modifier(m, b, a, contours=contours, bonus=bonus)
    diff = m.elevation_at(a) - m.elevation_at(b)
    assert up == (bonus if diff >= contours else -bonus if diff <= -contours else 0)


def test_r_ter_4_map_corner_rule_is_the_default_and_keyword_wins() -> None:
    one = parse_map('terrain = """\n.B....\n......\n......\n......\n......\n......"""\n')
    assert one.los_corner == "slip"
    strict = one.with_rules(los_corner="block_either")
    assert one.los_corner == "slip"  # a copy; the original unchanged
    assert not line_of_sight(strict, (0, 0), (5, 5)).visible
    assert line_of_sight(strict, (0, 0), (5, 5), corner="slip").visible
    assert (5, 5) not in visible_cells(strict, (0, 0))
    assert (5, 5) in visible_cells(strict, (0, 0), corner="slip")
    with pytest.raises(ArgumentError, match="corner rule 'x'"):
        one.with_rules(los_corner="x")  # type: ignore[arg-type]
