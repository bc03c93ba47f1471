"""Page layout of the printed map: paper sizes, the map window of each page, registration
marks. Pure arithmetic in millimetres and cells (no drawing, no files).

The scale is fixed by the rules (R-GEO-1): 1:10 000, one cell = 100 m = 1 cm = 10 mm on
paper. A map larger than one page's map area is cut into tiles that overlap by
:data:`OVERLAP` cells; registration marks sit on cell corners inside the overlap, so the
same marks appear on both neighbouring pages and the sheets can be laid on top of each
other and taped.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

Paper = Literal["A4", "A3", "A2"]
PAPERS: dict[str, tuple[float, float]] = {
    "A4": (210.0, 297.0),
    "A3": (297.0, 420.0),
    "A2": (420.0, 594.0),
}
"""Portrait (width, height) in millimetres (ISO 216)."""

CELL_MM = 10.0
"""One cell on paper: 1 cm = 100 m at 1:10 000 (R-GEO-1)."""

MARGIN_MM = 10.0
"""Blank border a printer needs on every side."""
LABEL_MM = 6.0
"""Band for the column/row numbers on each edge of the map."""
TITLE_MM = 12.0
"""Band above the map for the title."""
FOOTER_MM = 30.0
"""Band below the map for the legend, scale bar and north arrow."""
OVERLAP = 2
"""Cells each tile shares with its neighbour."""


@dataclass(frozen=True)
class Tile:
    """One page: the cells ``x0 <= x < x1``, ``y0 <= y < y1`` it shows."""

    index: int
    column: int
    row: int
    x0: int
    x1: int
    y0: int
    y1: int

    @property
    def width(self) -> int:
        return self.x1 - self.x0

    @property
    def height(self) -> int:
        return self.y1 - self.y0


@dataclass(frozen=True)
class Sheet:
    """The pages one print needs: page size (mm, in the chosen orientation), how many cells
    fit, and the tiles in reading order (left to right, top to bottom)."""

    paper: str
    landscape: bool
    page_w: float
    page_h: float
    cells_w: int
    cells_h: int
    tiles: tuple[Tile, ...]
    columns: int
    rows: int

    @property
    def map_left(self) -> float:
        """Left edge of the map area on the page (mm from the left)."""
        return MARGIN_MM + LABEL_MM

    @property
    def map_top(self) -> float:
        """Top edge of the map area on the page (mm from the top)."""
        return MARGIN_MM + TITLE_MM + LABEL_MM


def _capacity(page_w: float, page_h: float) -> tuple[int, int]:
    """How many whole cells fit across and down a page's map area."""
    w = page_w - 2 * (MARGIN_MM + LABEL_MM)
    h = page_h - 2 * MARGIN_MM - TITLE_MM - FOOTER_MM - 2 * LABEL_MM
    return max(0, math.floor(w / CELL_MM + 1e-9)), max(0, math.floor(h / CELL_MM + 1e-9))


def _spans(size: int, fit: int) -> list[tuple[int, int]]:
    """Cut ``0..size`` into windows of at most ``fit`` cells overlapping by OVERLAP."""
    if size <= fit:
        return [(0, size)]
    step = fit - OVERLAP
    count = math.ceil((size - OVERLAP) / step)
    out = []
    for i in range(count):
        start = min(i * step, size - fit)
        out.append((start, start + fit))
    return out


def plan(width: int, height: int, paper: str = "A4") -> Sheet:
    """The pages a ``width`` × ``height`` map needs on ``paper``: the orientation with fewer
    pages (landscape on a tie when the map is wider than tall)."""
    if paper not in PAPERS:
        raise ValueError(f"unknown paper {paper!r}; choose from {', '.join(PAPERS)}")
    pw, ph = PAPERS[paper]
    best: Sheet | None = None
    for landscape in (width >= height, width < height):
        page_w, page_h = (ph, pw) if landscape else (pw, ph)
        fit_w, fit_h = _capacity(page_w, page_h)
        xs, ys = _spans(width, fit_w), _spans(height, fit_h)
        tiles = tuple(
            Tile(r * len(xs) + c, c, r, x0, x1, y0, y1)
            for r, (y0, y1) in enumerate(ys)
            for c, (x0, x1) in enumerate(xs)
        )
        sheet = Sheet(paper, landscape, page_w, page_h, fit_w, fit_h, tiles, len(xs), len(ys))
        if best is None or len(sheet.tiles) < len(best.tiles):
            best = sheet
    assert best is not None
    return best


def registration_marks(sheet: Sheet, tile: Tile) -> list[tuple[int, int]]:
    """Cell corners (x, y in cells, corner = top-left of cell x, y) of the registration marks
    on ``tile``: on the inner edge of each overlap with a neighbour, one cell in from the
    tile's ends (at the ends on a strip under three cells). The neighbour has the same
    corners, so both pages carry the same marks."""
    marks: set[tuple[int, int]] = set()
    by_pos = {(t.column, t.row): t for t in sheet.tiles}
    for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        other = by_pos.get((tile.column + dc, tile.row + dr))
        if other is None:
            continue
        # The shared strip; marks on its middle line (a cell corner inside both tiles).
        sx0, sx1 = max(tile.x0, other.x0), min(tile.x1, other.x1)
        sy0, sy1 = max(tile.y0, other.y0), min(tile.y1, other.y1)
        if dc:
            x = (sx0 + sx1) // 2
            for y in (sy0 + 1, sy1 - 1) if sy1 - sy0 >= 3 else (sy0, sy1):
                marks.add((x, y))
        else:
            y = (sy0 + sy1) // 2
            for x in (sx0 + 1, sx1 - 1) if sx1 - sx0 >= 3 else (sx0, sx1):
                marks.add((x, y))
    return sorted(marks)
