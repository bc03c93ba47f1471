"""Hypothesis strategies for the grid tests."""

from __future__ import annotations

from hypothesis import strategies as st

from taistelukentta.content.terrain import default_terrain
from taistelukentta.grid import GameMap

CHARS = ".=,FSTBWRUH"


@st.composite
def maps(
    draw: st.DrawFn,
    max_side: int = 7,
    chars: str = CHARS,
    max_height: int | None = None,
) -> GameMap:
    """Small random maps over every default legend character, with random elevation.

    Without ``max_height`` the relief is drawn too: flat, gentle (ascent builds up over
    several steps, so both elevation regimes matter) or steep.
    """
    top = max_height if max_height is not None else draw(st.sampled_from([0, 1, 2, 8]))
    w = draw(st.integers(1, max_side))
    h = draw(st.integers(1, max_side))
    rows = ["".join(draw(st.sampled_from(chars)) for _ in range(w)) for _ in range(h)]
    elev = [[draw(st.integers(0, top)) for _ in range(w)] for _ in range(h)]
    return GameMap(rows, terrain=default_terrain(), elevation=elev)
