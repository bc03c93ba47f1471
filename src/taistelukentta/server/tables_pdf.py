"""Printable tables as a PDF, drawn with matplotlib (the campaign's roster, issue 12).

The same library and conventions as the printed map (:mod:`taistelukentta.mapprint.draw`):
each page is one ``Figure`` of the paper's exact size with one axes covering it in
millimetres (x right, y down), text embedded as text (``pdf.fonttype`` 42, DejaVu Sans:
every Finnish letter), no ``pyplot`` (no global state: safe in the server's threads). A
table longer than a page goes on to the next one under its repeated header.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

A4_LANDSCAPE_MM = (297.0, 210.0)
MARGIN_MM = 14.0
ROW_MM = 6.0
FONT_PT = 8.0
CHAR_MM = 1.75
"""A generous average width of one DejaVu Sans character at 8 pt (text longer than its
column is cut with "…", never drawn over the next column)."""
INK = "#202020"
RULE = "#909090"


@dataclass(frozen=True)
class Column:
    title: str
    width_mm: float
    align: Literal["left", "right"] = "left"


@dataclass(frozen=True)
class Table:
    """One table: an optional heading above it, its columns and rows of text."""

    heading: str
    columns: tuple[Column, ...]
    rows: tuple[tuple[str, ...], ...]


def fit(text: str, width_mm: float) -> str:
    """``text`` cut to what fits ``width_mm`` (ending in "…" when cut)."""
    room = max(1, int((width_mm - 2) / CHAR_MM))
    return text if len(text) <= room else text[: room - 1] + "…"


def _lines(tables: Sequence[Table]) -> list[tuple[str, Table | None, tuple[str, ...]]]:
    """The tables as a flat list of lines: ("heading", table, ()), ("head", table, ()),
    ("row", table, cells), ("gap", None, ())."""
    out: list[tuple[str, Table | None, tuple[str, ...]]] = []
    for i, t in enumerate(tables):
        if i:
            out.append(("gap", None, ()))
        if t.heading:
            out.append(("heading", t, ()))
        out.append(("head", t, ()))
        out.extend(("row", t, r) for r in t.rows)
    return out


def tables_pdf(title: str, subtitle: str, tables: Sequence[Table], *, footer: str = "") -> bytes:
    """A4 landscape pages holding ``tables`` one after another under ``title``."""
    import matplotlib as mpl
    from matplotlib.backends.backend_pdf import PdfPages
    from matplotlib.figure import Figure

    page_w, page_h = A4_LANDSCAPE_MM
    top = MARGIN_MM + 16.0
    per_page = int((page_h - MARGIN_MM - 6.0 - top) // ROW_MM)
    pages: list[list[tuple[str, Table | None, tuple[str, ...]]]] = [[]]
    for kind, table, cells in _lines(tables):
        page = pages[-1]
        if len(page) >= per_page or (kind in ("heading", "head") and len(page) >= per_page - 2):
            pages.append([])
            page = pages[-1]
            if kind == "row" and table is not None:  # the header again over the rest
                page.append(("head", table, ()))
        if kind == "gap" and not page:
            continue
        page.append((kind, table, cells))
    buf = io.BytesIO()
    with (
        mpl.rc_context({"pdf.fonttype": 42, "font.family": "DejaVu Sans", "path.simplify": False}),
        PdfPages(buf, metadata={"Title": title, "Creator": "tk20", "CreationDate": None}) as pdf,
    ):
        for number, page in enumerate(pages, start=1):
            fig = Figure(figsize=(page_w / 25.4, page_h / 25.4))
            ax = fig.add_axes((0.0, 0.0, 1.0, 1.0))
            ax.set_xlim(0, page_w)
            ax.set_ylim(page_h, 0)
            ax.set_axis_off()
            ax.text(MARGIN_MM, MARGIN_MM + 4, title, fontsize=14, fontweight="bold", va="center")
            ax.text(MARGIN_MM, MARGIN_MM + 11, subtitle, fontsize=9, va="center", color=INK)
            tail = f"{footer} · {number}/{len(pages)}" if footer else f"{number}/{len(pages)}"
            ax.text(
                page_w - MARGIN_MM, page_h - MARGIN_MM + 4, tail, fontsize=7, ha="right", color=INK
            )
            y = top
            for kind, table, cells in page:
                if kind == "gap" or table is None:
                    y += ROW_MM
                    continue
                if kind == "heading":
                    ax.text(
                        MARGIN_MM, y + ROW_MM / 2, table.heading, fontsize=10.5,
                        fontweight="bold", va="center",
                    )  # fmt: skip
                    y += ROW_MM
                    continue
                texts = [c.title for c in table.columns] if kind == "head" else list(cells)
                x = MARGIN_MM
                for col, text in zip(table.columns, texts, strict=True):
                    right = col.align == "right"
                    ax.text(
                        x + col.width_mm - 1 if right else x + 1,
                        y + ROW_MM / 2,
                        fit(text, col.width_mm),
                        fontsize=FONT_PT,
                        fontweight="bold" if kind == "head" else "normal",
                        ha="right" if right else "left",
                        va="center",
                        color=INK,
                    )
                    x += col.width_mm
                width = sum(c.width_mm for c in table.columns)
                ax.plot(
                    [MARGIN_MM, MARGIN_MM + width],
                    [y + ROW_MM, y + ROW_MM],
                    color=INK if kind == "head" else RULE,
                    linewidth=0.8 if kind == "head" else 0.3,
                )
                y += ROW_MM
            pdf.savefig(fig)
    return buf.getvalue()
