"""Cells, distances and neighbourhoods (R-GEO-2, R-GEO-3, R-TER-6)."""

from __future__ import annotations

from collections.abc import Iterator

Cell = tuple[int, int]
"""A map cell ``(x, y)``: column ``x``, row ``y``, both counted from 0 at the top left."""

DIRECTIONS8: tuple[Cell, ...] = (
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
)
"""The eight step directions: straight ones first, then the diagonals."""


def chebyshev(a: Cell, b: Cell) -> int:
    """Distance in cells, diagonals included: ``max(|dx|, |dy|)`` (R-GEO-2)."""
    # written out: called very often, and max/abs calls cost more than the arithmetic
    dx = a[0] - b[0]
    dy = a[1] - b[1]
    if dx < 0:
        dx = -dx
    if dy < 0:
        dy = -dy
    return dx if dx >= dy else dy


def neighbours8(cell: Cell) -> Iterator[Cell]:
    """The eight cells one step away (unclipped: the map decides which exist)."""
    x, y = cell
    for dx, dy in DIRECTIONS8:
        yield (x + dx, y + dy)


def area(cell: Cell, radius: int) -> list[Cell]:
    """The (2r+1)×(2r+1) block centred on ``cell``, row by row (R-GEO-2), unclipped."""
    if radius < 0:
        raise ValueError(f"radius must be >= 0, got {radius}")
    x, y = cell
    return [
        (x + dx, y + dy) for dy in range(-radius, radius + 1) for dx in range(-radius, radius + 1)
    ]
