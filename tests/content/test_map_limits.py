"""Map size and elevation limits ([map_limits] in terrain.toml): clear errors, no overflow."""

from __future__ import annotations

import pytest

from taistelukentta.content.maps import parse_map
from taistelukentta.content.terrain import default_terrain
from taistelukentta.errors import DataError


def _map(rows: list[str], elevation: list[str] | None = None) -> str:
    text = 'terrain = """\n' + "\n".join(rows) + '\n"""\n'
    if elevation is not None:
        text += 'elevation = """\n' + "\n".join(elevation) + '\n"""\n'
    return text


def test_limits_come_from_the_data_file() -> None:
    limits = default_terrain().limits
    assert (limits.max_width, limits.max_height) == (1000, 1000)
    assert limits.max_cells == 1_000_000 and limits.max_elevation == 100_000


@pytest.mark.parametrize(
    ("value", "ok"), [("100000", True), ("-100000", True), ("100001", False), ("-100001", False)]
)
def test_elevation_at_the_limit(value: str, ok: bool) -> None:
    text = _map(["..", ".."], [f"0 {value}", "0 0"])
    if ok:
        assert parse_map(text, "m.toml").elevation_at((1, 0)) == int(value)
    else:
        with pytest.raises(DataError, match=r"(?s)m.toml.*elevation row 0, column 1.*out of range"):
            parse_map(text, "m.toml")


@pytest.mark.parametrize("value", [str(2**63), "9" * 5000, "-" + str(2**64)])
def test_huge_elevation_is_a_clear_error(value: str) -> None:
    with pytest.raises(DataError, match=r"elevation row 1, column 0 \(line \d+\).*out of range"):
        parse_map(_map(["..", ".."], ["0 0", f"{value} 0"]), "m.toml")


@pytest.mark.parametrize("value", ["᱘", "1.5", "--3", "+2"])
def test_elevation_must_be_ascii_whole_numbers(value: str) -> None:
    with pytest.raises(DataError, match="not a whole number"):
        parse_map(_map(["..", ".."], ["0 0", f"{value} 0"]), "m.toml")


def test_map_too_wide_is_refused_before_building() -> None:
    with pytest.raises(DataError, match=r"(?s)big.toml.*1001×2 cells; at most 1000×1000"):
        parse_map(_map(["." * 1001, "." * 1001]), "big.toml")


def test_map_too_many_cells() -> None:
    from taistelukentta.grid.terrain import MapLimits, TerrainTable

    table = default_terrain()
    small = TerrainTable(list(table), dict(table.legend), MapLimits(max_cells=20))
    parse_map(_map(["." * 5] * 4), "m.toml", small)
    with pytest.raises(DataError, match="has 25 cells; at most 20"):
        parse_map(_map(["." * 5] * 5), "m.toml", small)
