"""Drawing the printed map with matplotlib: one :class:`~matplotlib.figure.Figure` per page.

Every page is one axes covering the whole sheet in millimetres (x right, y down from the
top-left corner), so 10 units are exactly 1 cm on paper and one cell at 1:10 000. The figure
has the paper's size and is saved without any bounding-box trimming, so the scale survives
into the PDF/SVG (a test measures the grid in the PDF: 1 cm = 28.35 pt).

Looks follow ``/work/shared/UI.md`` (Finnish topographic and orienteering maps); every
terrain fill also has its own pattern (matplotlib hatches), so a black-and-white printer and
colour-blind players can tell them apart.

The figures are made with the object API (``Figure``, no ``pyplot``): no global state, safe
in the server's threads.
"""

from __future__ import annotations

import io
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import matplotlib as mpl
import numpy as np
from matplotlib.backends.backend_pdf import PdfPages
from matplotlib.collections import LineCollection
from matplotlib.figure import Figure
from matplotlib.patches import Polygon, Rectangle

from taistelukentta.grid.gamemap import GameMap
from taistelukentta.mapprint.content import PrintContent
from taistelukentta.mapprint.layout import (
    CELL_MM,
    LABEL_MM,
    MARGIN_MM,
    TITLE_MM,
    Sheet,
    Tile,
    plan,
    registration_marks,
)

PT_PER_MM = 72 / 25.4


@dataclass(frozen=True)
class Fill:
    """A terrain's look: background colour, hatch pattern and its colour."""

    colour: str
    hatch: str | None = None
    hatch_colour: str = "#000000"


FILLS: dict[str, Fill] = {
    "open": Fill("#fbeab0"),
    "field": Fill("#f2c94c", "||", "#8a6a10"),
    "forest": Fill("#eef6e6", ".", "#4f8a3c"),
    "thicket": Fill("#7cc26a", "////", "#2d5f26"),
    "swamp": Fill("#f3f6fb", "----", "#2a6fc9"),
    "water": Fill("#4a9ae0"),
    "building": Fill("#2b2b2b"),
}
"""Terrain fills (UI.md); road is a line, never a fill."""
FILL_ORDER = ("building", "water", "thicket", "swamp", "forest", "field", "open")
"""A cell's fill is its first feature found here (a bridge is water, a street a building)."""

GRID_COLOUR = "#404040"
"""The 1 cm grid's stroke colour (the PDF test finds the grid by it)."""
GRID_WIDTH_PT = 0.3
SHORE = "#1f5ea8"
ROAD_CASING = "#6b3a12"
ROAD = "#e08a2e"
CONTOUR = "#a0622d"
OBJECTIVE = "#8e24aa"
MINE = "#c62828"
BLUE = "#1f4fbf"
RED = "#c62828"

WORDS: dict[str, tuple[str, str]] = {
    "scale": ("Mittakaava 1:10 000 · ruutu 1 cm = 100 m", "Scale 1:10 000 · cell 1 cm = 100 m"),
    "north": ("P", "N"),
    "road": ("Tie", "Road"),
    "contour": ("Korkeuskäyrä (n:o)", "Contour (number)"),
    "index_contour": ("Johtokäyrä (joka 5.)", "Index contour (5th)"),
    "objective": ("Tavoite (VP)", "Objective (VP)"),
    "blue_unit": ("Oma yksikkö (sininen)", "Own unit (Blue)"),
    "red_unit": ("Vihollinen (punainen)", "Enemy (Red)"),
    "red_own": ("Oma yksikkö (punainen)", "Own unit (Red)"),
    "blue_enemy": ("Vihollinen (sininen)", "Enemy (Blue)"),
    "contact": ("Vihollishavainto (viimeksi tiedossa)", "Enemy contact (last known)"),
    "minefield": ("Miinoite", "Minefield"),
    "fortified": ("Linnoitettu ruutu", "Fortified cell"),
    "page": ("Sivu", "Page"),
    "columns": ("sarakkeet", "columns"),
    "rows": ("rivit", "rows"),
    "blue": ("Sinisen kartta", "Blue's map"),
    "red": ("Punaisen kartta", "Red's map"),
    "gm": ("PELINJOHTAJAN KARTTA — EI PELAAJILLE", "GAME MASTER'S MAP — NOT FOR PLAYERS"),
    "register": ("⊕ kohdistusmerkit: limitä viereiset sivut", "⊕ registration marks: overlap"),
}


def word(key: str, lang: str) -> str:
    fi, en = WORDS[key]
    return en if lang == "en" else fi


def fill_of(features: Sequence[str]) -> str:
    """The terrain whose fill a cell with these features gets."""
    return next((f for f in FILL_ORDER if f in features), "open")


@contextmanager
def _style() -> Iterator[None]:
    """Fonts embedded as TrueType (text stays text in the PDF), SVG text as <text>."""
    with mpl.rc_context(
        {
            "pdf.fonttype": 42,
            "svg.fonttype": "none",
            "hatch.linewidth": 0.45,
            "font.family": "DejaVu Sans",
            "path.simplify": False,
        }
    ):
        yield


class _Page:
    """Drawing helpers of one page: cell → millimetre coordinates of the tile."""

    def __init__(self, content: PrintContent, sheet: Sheet, tile: Tile) -> None:
        self.c = content
        self.m: GameMap = content.game_map
        self.sheet = sheet
        self.tile = tile
        self.lang = content.lang
        self.fig = Figure(figsize=(sheet.page_w / 25.4, sheet.page_h / 25.4))
        ax = self.fig.add_axes((0.0, 0.0, 1.0, 1.0))
        ax.set_xlim(0, sheet.page_w)
        ax.set_ylim(sheet.page_h, 0)
        ax.set_axis_off()
        self.ax = ax
        self.left = sheet.map_left
        self.top = sheet.map_top
        self.right = self.left + tile.width * CELL_MM
        self.bottom = self.top + tile.height * CELL_MM
        self.clip = Rectangle(
            (self.left, self.top),
            tile.width * CELL_MM,
            tile.height * CELL_MM,
            transform=ax.transData,
        )

    def mx(self, x: float) -> float:
        return self.left + (x - self.tile.x0) * CELL_MM

    def my(self, y: float) -> float:
        return self.top + (y - self.tile.y0) * CELL_MM

    def window(self) -> tuple[range, range]:
        t = self.tile
        return range(t.x0, t.x1), range(t.y0, t.y1)

    def features(self, x: int, y: int) -> tuple[str, ...]:
        return self.m.features_at((x, y))

    # ------------------------------------------------------------------ map layers

    def terrain(self) -> None:
        xs, ys = self.window()
        for y in ys:
            run_start = xs.start
            run_fill = fill_of(self.features(xs.start, y))
            for x in [*xs, xs.stop]:
                f = fill_of(self.features(x, y)) if x < xs.stop else ""
                if f != run_fill:
                    self._fill_run(run_fill, run_start, x, y)
                    run_start, run_fill = x, f

    def _fill_run(self, terrain: str, x0: int, x1: int, y: int) -> None:
        look = FILLS[terrain]
        rect = Rectangle(
            (self.mx(x0), self.my(y)),
            (x1 - x0) * CELL_MM,
            CELL_MM,
            facecolor=look.colour,
            edgecolor=look.hatch_colour if look.hatch else "none",
            hatch=look.hatch,
            linewidth=0,
            zorder=1,
        )
        self.ax.add_patch(rect)
        rect.set_clip_path(self.clip)

    def shores(self) -> None:
        xs, ys = self.window()
        segs = []
        for y in ys:
            for x in xs:
                if fill_of(self.features(x, y)) != "water":
                    continue
                for dx, dy, a, b in (
                    (-1, 0, (0, 0), (0, 1)),
                    (1, 0, (1, 0), (1, 1)),
                    (0, -1, (0, 0), (1, 0)),
                    (0, 1, (0, 1), (1, 1)),
                ):
                    n = (x + dx, y + dy)
                    if self.m.in_bounds(n) and fill_of(self.m.features_at(n)) != "water":
                        segs.append(
                            [
                                (self.mx(x + a[0]), self.my(y + a[1])),
                                (self.mx(x + b[0]), self.my(y + b[1])),
                            ]
                        )
        self._lines(segs, SHORE, 0.9, zorder=2)

    def _lines(
        self, segs: list[list[tuple[float, float]]], colour: str, width: float, zorder: float
    ) -> LineCollection | None:
        if not segs:
            return None
        lc = LineCollection(segs, colors=colour, linewidths=width, zorder=zorder, capstyle="round")
        self.ax.add_collection(lc)
        lc.set_clip_path(self.clip)
        return lc

    def contours(self) -> None:
        t = self.tile
        elev = np.asarray(self.m.elevation, dtype=float)
        lo, hi = int(elev.min()), int(elev.max())
        if lo == hi:
            return
        # One cell of context around the tile keeps lines continuous across page edges.
        x0, x1 = max(0, t.x0 - 1), min(self.m.width, t.x1 + 1)
        y0, y1 = max(0, t.y0 - 1), min(self.m.height, t.y1 + 1)
        sub = elev[y0:y1, x0:x1]
        if sub.shape[0] < 2 or sub.shape[1] < 2 or sub.min() == sub.max():
            return
        gx = np.array([self.mx(x + 0.5) for x in range(x0, x1)])
        gy = np.array([self.my(y + 0.5) for y in range(y0, y1)])
        levels = [k - 0.5 for k in range(int(sub.min()) + 1, int(sub.max()) + 1)]
        widths = [1.1 if round(lv + 0.5) % 5 == 0 else 0.55 for lv in levels]
        cs = self.ax.contour(
            gx, gy, sub, levels=levels, colors=CONTOUR, linewidths=widths, zorder=3
        )
        cs.set_clip_path(self.clip)
        labels = self.ax.clabel(
            cs,
            fmt={lv: str(round(lv + 0.5)) for lv in levels},
            fontsize=5,
            inline=True,
            inline_spacing=1,
        )
        for text in labels:
            text.set_clip_path(self.clip)
            text.set_color(CONTOUR)

    def roads(self) -> None:
        xs, ys = self.window()
        segs: list[list[tuple[float, float]]] = []

        def road(x: int, y: int) -> bool:
            return self.m.in_bounds((x, y)) and "road" in self.m.features_at((x, y))

        # One cell of context: a road leaving the tile is drawn to the edge.
        for y in range(ys.start - 1, ys.stop + 1):
            for x in range(xs.start - 1, xs.stop + 1):
                if not road(x, y):
                    continue
                links = [(1, 0), (0, 1)]
                if road(x + 1, y + 1) and not road(x + 1, y) and not road(x, y + 1):
                    links.append((1, 1))
                if road(x - 1, y + 1) and not road(x - 1, y) and not road(x, y + 1):
                    links.append((-1, 1))
                for dx, dy in links:
                    if road(x + dx, y + dy):
                        segs.append(
                            [
                                (self.mx(x + 0.5), self.my(y + 0.5)),
                                (self.mx(x + dx + 0.5), self.my(y + dy + 0.5)),
                            ]
                        )
        self._lines(segs, ROAD_CASING, 3.2, zorder=4)
        self._lines(segs, ROAD, 1.9, zorder=4.1)

    def grid(self) -> None:
        xs, ys = self.window()
        segs = [[(self.mx(x), self.top), (self.mx(x), self.bottom)] for x in [*xs, xs.stop]]
        segs += [[(self.left, self.my(y)), (self.right, self.my(y))] for y in [*ys, ys.stop]]
        lc = LineCollection(segs, colors=GRID_COLOUR, linewidths=GRID_WIDTH_PT, zorder=5)
        lc.set_gid("grid")
        self.ax.add_collection(lc)

    def objectives(self) -> None:
        for obj in self.c.objectives:
            cells = set(obj.cells)
            segs = []
            for x, y in cells:
                for dx, dy, a, b in (
                    (-1, 0, (0, 0), (0, 1)),
                    (1, 0, (1, 0), (1, 1)),
                    (0, -1, (0, 0), (1, 0)),
                    (0, 1, (0, 1), (1, 1)),
                ):
                    if (x + dx, y + dy) not in cells:
                        segs.append(
                            [
                                (self.mx(x + a[0]), self.my(y + a[1])),
                                (self.mx(x + b[0]), self.my(y + b[1])),
                            ]
                        )
            self._lines(segs, OBJECTIVE, 1.8, zorder=6)
            lx = min(x for x, _ in cells)
            ly = min(y for x, y in cells if x == lx)
            if self.tile.x0 <= lx < self.tile.x1 and self.tile.y0 <= ly < self.tile.y1:
                self.ax.text(
                    self.mx(lx) + 0.6,
                    self.my(ly) + 0.6,
                    f"{obj.name} · {obj.vp} VP",
                    fontsize=5.5,
                    color=OBJECTIVE,
                    fontweight="bold",
                    va="top",
                    ha="left",
                    zorder=8,
                    bbox={"facecolor": "white", "edgecolor": "none", "pad": 0.6, "alpha": 0.85},
                    clip_on=True,
                ).set_clip_path(self.clip)

    def minefields(self) -> None:
        for mf in self.c.minefields:
            for x, y in mf.cells:
                rect = Rectangle(
                    (self.mx(x) + 0.8, self.my(y) + 0.8),
                    CELL_MM - 1.6,
                    CELL_MM - 1.6,
                    facecolor="none",
                    edgecolor=MINE,
                    hatch="xx",
                    linewidth=0.8,
                    zorder=6.5,
                )
                self.ax.add_patch(rect)
                rect.set_clip_path(self.clip)
            x, y = min(mf.cells)
            if self.tile.x0 <= x < self.tile.x1 and self.tile.y0 <= y < self.tile.y1:
                self.ax.text(
                    self.mx(x) + 1,
                    self.my(y) - 0.4,
                    f"{mf.id} ({mf.type})" if mf.id else f"({mf.type})",
                    fontsize=5,
                    color=MINE,
                    va="bottom",
                    zorder=8,
                    bbox={"facecolor": "white", "edgecolor": "none", "pad": 0.4},
                ).set_clip_path(self.clip)

    def fortified(self) -> None:
        for x, y in self.c.fortified:
            tri = Polygon(
                [
                    (self.mx(x), self.my(y)),
                    (self.mx(x) + 3.5, self.my(y)),
                    (self.mx(x), self.my(y) + 3.5),
                ],
                closed=True,
                facecolor="black",
                edgecolor="none",
                zorder=7,
            )
            self.ax.add_patch(tri)
            tri.set_clip_path(self.clip)

    def units(self) -> None:
        t = self.tile
        for u in self.c.units:
            if not (t.x0 - 1 <= u.cell[0] <= t.x1 and t.y0 - 1 <= u.cell[1] <= t.y1):
                continue  # off this page (a counter by the edge is clipped at it)
            cx, cy = self.mx(u.cell[0] + 0.5), self.my(u.cell[1] + 0.5)
            if u.side == "blue":
                shape: Rectangle | Polygon = Rectangle(
                    (cx - 3.6, cy - 2.4), 7.2, 4.8, facecolor="#cfe0ff", edgecolor=BLUE
                )
            else:
                shape = Polygon(
                    [(cx, cy - 4), (cx + 4, cy), (cx, cy + 4), (cx - 4, cy)],
                    closed=True,
                    facecolor="#ffd0cc",
                    edgecolor=RED,
                )
            shape.set_linewidth(1.0)
            shape.set_zorder(9)
            self.ax.add_patch(shape)
            shape.set_clip_path(self.clip)
            self.ax.text(
                cx, cy, u.label, fontsize=4.2, ha="center", va="center", zorder=10, clip_on=True
            ).set_clip_path(self.clip)
            if u.detail:
                self.ax.text(
                    cx,
                    cy + 3.9,
                    u.detail,
                    fontsize=3.2,
                    ha="center",
                    va="center",
                    zorder=10,
                    color=BLUE if u.side == "blue" else RED,
                    bbox={"facecolor": "white", "edgecolor": "none", "pad": 0.2, "alpha": 0.8},
                    clip_on=True,
                ).set_clip_path(self.clip)

    def contacts(self) -> None:
        """Enemy contacts not spotted: a dashed outline where the side last placed them
        (a cell, or the contact's area), with the contact's label and level."""
        for c in self.c.contacts:
            xs = [x for x, _ in c.cells]
            ys = [y for _, y in c.cells]
            x0, y0, x1, y1 = min(xs), min(ys), max(xs) + 1, max(ys) + 1
            rect = Rectangle(
                (self.mx(x0) + 0.5, self.my(y0) + 0.5),
                (x1 - x0) * CELL_MM - 1,
                (y1 - y0) * CELL_MM - 1,
                facecolor="none",
                edgecolor=self.enemy_colour,
                linestyle=(0, (2.5, 1.5)),
                linewidth=0.9,
                zorder=8.5,
            )
            self.ax.add_patch(rect)
            rect.set_clip_path(self.clip)
            if self.tile.x0 <= x0 < self.tile.x1 and self.tile.y0 <= y0 < self.tile.y1:
                self.ax.text(
                    self.mx(x0) + 1,
                    self.my(y0) + 1,
                    f"{c.label} {c.level}",
                    fontsize=4.5,
                    color=self.enemy_colour,
                    va="top",
                    ha="left",
                    zorder=10,
                    bbox={"facecolor": "white", "edgecolor": "none", "pad": 0.3, "alpha": 0.85},
                    clip_on=True,
                ).set_clip_path(self.clip)

    @property
    def enemy_colour(self) -> str:
        return BLUE if self.c.side == "red" else RED

    # ------------------------------------------------------------------ sheet furniture

    def frame(self) -> None:
        self.ax.add_patch(
            Rectangle(
                (self.left, self.top),
                self.right - self.left,
                self.bottom - self.top,
                facecolor="none",
                edgecolor="black",
                linewidth=0.8,
                zorder=11,
            )
        )

    def edge_labels(self) -> None:
        xs, ys = self.window()
        half = LABEL_MM / 2
        for x in xs:
            for yy in (self.top - half, self.bottom + half):
                self.ax.text(self.mx(x + 0.5), yy, str(x), fontsize=6, ha="center", va="center")
        for y in ys:
            for xx in (self.left - half, self.right + half):
                self.ax.text(xx, self.my(y + 0.5), str(y), fontsize=6, ha="center", va="center")

    def registration(self) -> None:
        for x, y in registration_marks(self.sheet, self.tile):
            px, py = self.mx(x), self.my(y)
            self.ax.add_patch(
                mpl.patches.Circle(
                    (px, py), 1.8, facecolor="none", edgecolor="black", linewidth=0.6, zorder=12
                )
            )
            self.ax.add_collection(
                LineCollection(
                    [[(px - 3, py), (px + 3, py)], [(px, py - 3), (px, py + 3)]],
                    colors="black",
                    linewidths=0.6,
                    zorder=12,
                )
            )

    def title(self, pages: int) -> None:
        lang, s, t = self.lang, self.sheet, self.tile
        y = MARGIN_MM + TITLE_MM / 2 - 1
        self.ax.text(
            MARGIN_MM, y, self.c.title, fontsize=12, fontweight="bold", va="center", ha="left"
        )
        side = word(self.c.side, lang)
        info = (
            f"{side} · {word('page', lang)} {t.index + 1}/{pages} · "
            f"{word('columns', lang)} {t.x0}–{t.x1 - 1}, {word('rows', lang)} {t.y0}–{t.y1 - 1}"
        )
        if self.c.situation:
            info += f" · {self.c.situation}"
        colour = RED if self.c.side == "gm" else "black"
        self.ax.text(
            MARGIN_MM,
            y + 5,
            info,
            fontsize=6.5,
            va="center",
            ha="left",
            color=colour,
            fontweight="bold" if self.c.side == "gm" else "normal",
        )
        # North arrow: the top of every page is north (row 0 is the north edge).
        ax_x = s.page_w - MARGIN_MM - 4
        self.ax.add_patch(
            Polygon(
                [
                    (ax_x, MARGIN_MM + 1),
                    (ax_x + 2.6, MARGIN_MM + 9),
                    (ax_x, MARGIN_MM + 7),
                    (ax_x - 2.6, MARGIN_MM + 9),
                ],
                closed=True,
                facecolor="black",
            )
        )
        self.ax.text(
            ax_x - 5,
            MARGIN_MM + 5,
            word("north", lang),
            fontsize=10,
            fontweight="bold",
            ha="center",
            va="center",
        )

    def footer(self) -> None:
        lang = self.lang
        top = self.bottom + LABEL_MM + 2
        left = MARGIN_MM
        col_w = 37.0
        ncols = max(1, int((self.sheet.page_w - 2 * MARGIN_MM) // col_w))
        items: list[tuple[str, str]] = []
        table = self.m.terrain
        for tid in FILL_ORDER[::-1]:
            if tid in table:
                t = table.get(tid)
                items.append((f"fill:{tid}", t.name_en if lang == "en" else t.name_fi))
        items.append(("road", word("road", lang)))
        items.append(("contour", word("contour", lang)))
        items.append(("index_contour", word("index_contour", lang)))
        if self.c.objectives:
            items.append(("objective", word("objective", lang)))
        sides = {u.side for u in self.c.units}
        red_print = self.c.side == "red"
        if "blue" in sides:
            items.append(("blue_unit", word("blue_enemy" if red_print else "blue_unit", lang)))
        if "red" in sides:
            items.append(("red_unit", word("red_own" if red_print else "red_unit", lang)))
        if self.c.contacts:
            items.append(("contact", word("contact", lang)))
        if self.c.minefields:
            items.append(("minefield", word("minefield", lang)))
        if self.c.fortified:
            items.append(("fortified", word("fortified", lang)))
        for i, (kind, label) in enumerate(items):
            r, c = divmod(i, ncols)
            x, y = left + c * col_w, top + r * 5.5
            self._swatch(kind, x, y)
            self.ax.text(x + 9, y + 2, label, fontsize=5.5, va="center", ha="left")
        rows = (len(items) + ncols - 1) // ncols
        self.scale_bar(left, top + rows * 5.5 + 2.5)

    def _swatch(self, kind: str, x: float, y: float) -> None:
        w, h = 7.0, 4.0
        if kind.startswith("fill:"):
            look = FILLS[kind[5:]]
            self.ax.add_patch(
                Rectangle(
                    (x, y),
                    w,
                    h,
                    facecolor=look.colour,
                    edgecolor=look.hatch_colour if look.hatch else "none",
                    hatch=look.hatch,
                    linewidth=0,
                )
            )
            self.ax.add_patch(
                Rectangle((x, y), w, h, facecolor="none", edgecolor="#777777", linewidth=0.3)
            )
        elif kind == "road":
            self.ax.plot([x, x + w], [y + h / 2] * 2, color=ROAD_CASING, linewidth=3.2)
            self.ax.plot([x, x + w], [y + h / 2] * 2, color=ROAD, linewidth=1.9)
        elif kind in ("contour", "index_contour"):
            lw = 1.1 if kind == "index_contour" else 0.55
            self.ax.plot([x, x + w], [y + h / 2] * 2, color=CONTOUR, linewidth=lw)
        elif kind == "objective":
            self.ax.add_patch(
                Rectangle((x, y), w, h, facecolor="none", edgecolor=OBJECTIVE, linewidth=1.6)
            )
        elif kind == "blue_unit":
            self.ax.add_patch(
                Rectangle((x + 1, y + 0.4), 5, 3.2, facecolor="#cfe0ff", edgecolor=BLUE)
            )
        elif kind == "red_unit":
            cx, cy = x + w / 2, y + h / 2
            self.ax.add_patch(
                Polygon(
                    [(cx, cy - 2), (cx + 2, cy), (cx, cy + 2), (cx - 2, cy)],
                    closed=True,
                    facecolor="#ffd0cc",
                    edgecolor=RED,
                )
            )
        elif kind == "contact":
            self.ax.add_patch(
                Rectangle(
                    (x + 0.5, y + 0.3),
                    w - 1,
                    h - 0.6,
                    facecolor="none",
                    edgecolor=self.enemy_colour,
                    linestyle=(0, (2.5, 1.5)),
                    linewidth=0.9,
                )
            )
        elif kind == "minefield":
            self.ax.add_patch(
                Rectangle((x, y), w, h, facecolor="none", edgecolor=MINE, hatch="xx", lw=0.8)
            )
        elif kind == "fortified":
            self.ax.add_patch(
                Polygon([(x, y), (x + 3.5, y), (x, y + 3.5)], closed=True, facecolor="black")
            )

    def scale_bar(self, x: float, y: float) -> None:
        """1 km = 10 cm in five 200 m blocks, alternately black and white."""
        for i in range(5):
            self.ax.add_patch(
                Rectangle(
                    (x + i * 20, y),
                    20,
                    2,
                    facecolor="black" if i % 2 == 0 else "white",
                    edgecolor="black",
                    linewidth=0.5,
                )
            )
            self.ax.text(x + i * 20, y + 3.5, str(i * 200), fontsize=5.5, ha="center", va="top")
        self.ax.text(x + 100, y + 3.5, "1000 m", fontsize=5.5, ha="center", va="top")
        self.ax.text(x + 106, y + 1, word("scale", self.lang), fontsize=6.5, va="center")
        if len(self.sheet.tiles) > 1:
            self.ax.text(x + 106, y + 4.5, word("register", self.lang), fontsize=5.5, va="center")

    def draw(self, pages: int) -> Figure:
        self.terrain()
        self.shores()
        self.contours()
        self.roads()
        self.grid()
        self.objectives()
        self.minefields()
        self.fortified()
        self.contacts()
        self.units()
        self.frame()
        self.edge_labels()
        self.registration()
        self.title(pages)
        self.footer()
        return self.fig


def page_figures(content: PrintContent, paper: str = "A4") -> tuple[Sheet, list[Figure]]:
    """The sheet plan and one figure per page."""
    sheet = plan(content.game_map.width, content.game_map.height, paper)
    with _style():
        figs = [_Page(content, sheet, t).draw(len(sheet.tiles)) for t in sheet.tiles]
    return sheet, figs


def render_pdf(content: PrintContent, paper: str = "A4") -> bytes:
    """All pages as one PDF document."""
    _, figs = page_figures(content, paper)
    buf = io.BytesIO()
    with _style(), PdfPages(buf, metadata={"Title": content.title, "Creator": "tk20"}) as pdf:
        for fig in figs:
            pdf.savefig(fig)
    return buf.getvalue()


def render_svg_pages(content: PrintContent, paper: str = "A4") -> list[bytes]:
    """Each page as its own SVG document (SVG has no pages)."""
    _, figs = page_figures(content, paper)
    out = []
    with _style():
        for fig in figs:
            buf = io.BytesIO()
            fig.savefig(buf, format="svg", metadata={"Title": content.title})
            out.append(buf.getvalue())
    return out


def render_png(content: PrintContent, paper: str = "A4", page: int = 0, dpi: int = 100) -> bytes:
    """One page as a PNG (previews and the screenshot tests): only that page is drawn."""
    sheet = plan(content.game_map.width, content.game_map.height, paper)
    tile = sheet.tiles[page]
    buf = io.BytesIO()
    with _style():
        _Page(content, sheet, tile).draw(len(sheet.tiles)).savefig(buf, format="png", dpi=dpi)
    return buf.getvalue()


def write(content: PrintContent, out: Path, paper: str = "A4") -> list[Path]:
    """Write ``out`` (.pdf: one document; .svg: one file per page, ``name-2.svg``… when the
    map needs more than one page). Returns the files written."""
    suffix = out.suffix.lower()
    if suffix == ".pdf":
        out.write_bytes(render_pdf(content, paper))
        return [out]
    if suffix == ".svg":
        pages = render_svg_pages(content, paper)
        if len(pages) == 1:
            out.write_bytes(pages[0])
            return [out]
        paths = [out.with_name(f"{out.stem}-{i + 1}{out.suffix}") for i in range(len(pages))]
        for p, data in zip(paths, pages, strict=True):
            p.write_bytes(data)
        return paths
    raise ValueError(f"unknown output type {out.suffix!r}: use .pdf or .svg")
