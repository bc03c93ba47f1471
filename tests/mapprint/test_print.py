"""The printed map read back: PDF page size and the 1 cm grid measured in points (R-GEO-1),
the text of every print (no Red secret in a players' print), SVG pages, and rendered
pages checked pixel by pixel (scale, greyscale-distinct terrain, no Red counters)."""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from matplotlib.image import imread
from pypdf import PdfReader
from pypdf.generic import ContentStream
from typer.testing import CliRunner

from taistelukentta.cli.app import app
from taistelukentta.content.maps import parse_map
from taistelukentta.content.scenario import load_scenario
from taistelukentta.i18n import set_language
from taistelukentta.mapprint import (
    content_for_map,
    content_for_scenario,
    load_print_content,
    render_pdf,
    render_png,
    render_svg_pages,
)
from taistelukentta.mapprint.draw import FILL_ORDER, GRID_COLOUR
from taistelukentta.mapprint.layout import PAPERS, plan

PT_PER_CM = 72 / 2.54  # 28.35 pt
GRID_GREY = int(GRID_COLOUR[1:3], 16) / 255


def _grid_lines(page: object, reader: PdfReader) -> tuple[list[float], list[float]]:
    """x of every vertical and y of every horizontal line stroked in the grid's colour."""
    ops = ContentStream(page.get_contents(), reader).operations  # type: ignore[attr-defined]
    grey: float | None = None
    start: tuple[float, float] | None = None
    xs: list[float] = []
    ys: list[float] = []
    for args, op in ops:
        if op == b"G":
            grey = float(args[0])
        elif op in (b"RG", b"Q"):
            grey = None
        elif op == b"m":
            start = (float(args[0]), float(args[1]))
        elif op == b"l" and start is not None and grey is not None and abs(grey - GRID_GREY) < 2e-3:
            x, y = float(args[0]), float(args[1])
            if abs(x - start[0]) < 1e-6:
                xs.append(x)
            elif abs(y - start[1]) < 1e-6:
                ys.append(y)
    return sorted(set(xs)), sorted(set(ys))


@cache
def _pdf(subject: str, side: str, lang: str, paper: str = "A4") -> bytes:
    """A print as PDF, rendered once per test process (~1.5 CPU-s each)."""
    return render_pdf(load_print_content(subject, side, lang), paper)  # type: ignore[arg-type]


def _pdf_text(data: bytes) -> str:
    return "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(data)).pages)


def _svg_text(data: bytes) -> str:
    root = ET.fromstring(data)
    return "\n".join("".join(el.itertext()) for el in root.iter("{http://www.w3.org/2000/svg}text"))


def _tokens(text: str) -> set[str]:
    return set(re.findall(r"[\w-]+", text))


@pytest.mark.parametrize(
    ("subject", "paper"),
    [("demo", "A4"), pytest.param("terasvalli", "A3", marks=pytest.mark.slow)],
)
def test_r_geo_1_pdf_page_size_and_grid_is_one_centimetre(subject: str, paper: str) -> None:
    content = load_print_content(subject, "blue", "fi")
    data = _pdf(subject, "blue", "fi", paper)
    reader = PdfReader(io.BytesIO(data))
    sheet = plan(content.game_map.width, content.game_map.height, paper)
    assert len(reader.pages) == len(sheet.tiles) > 1
    w_mm, h_mm = PAPERS[paper]
    for page, tile in zip(reader.pages, sheet.tiles, strict=True):
        box = page.mediabox
        size = sorted((float(box.width), float(box.height)))
        assert size == pytest.approx(sorted((w_mm * 72 / 25.4, h_mm * 72 / 25.4)), abs=0.01)
        xs, ys = _grid_lines(page, reader)
        # One line per cell edge, spaced 1 cm = 28.35 pt: a measured 10 cm is 1 km.
        assert len(xs) == tile.width + 1 and len(ys) == tile.height + 1
        for lines in (xs, ys):
            gaps = np.diff(lines)
            assert gaps == pytest.approx([PT_PER_CM] * len(gaps), abs=0.01)
        assert xs[10] - xs[0] == pytest.approx(10 * PT_PER_CM, abs=0.01)


def _red_secrets() -> set[str]:
    s = load_scenario("demo")
    ids = {u.id for g in s.red.battle_groups for u in g.units}
    return ids | {m.id for m in s.secrets.minefields} | {"Miinoite", "Minefield", "PELINJOHTAJAN"}


@pytest.mark.parametrize("side", ["blue", "red"])
@pytest.mark.parametrize("lang", ["fi", pytest.param("en", marks=pytest.mark.slow)])
def test_players_print_holds_no_red_secret(side: str, lang: str) -> None:
    """What a print holds does not depend on its language: the English prints (two more
    PDF and SVG renders, ~1.4 CPU-s each) run in the slow tier."""
    content = load_print_content("demo", side, lang)  # type: ignore[arg-type]
    assert not [u for u in content.units if u.side == "red"] and not content.minefields
    secrets = _red_secrets()
    pdf = _tokens(_pdf_text(_pdf("demo", side, lang)))
    svg = _tokens("\n".join(_svg_text(p) for p in render_svg_pages(content)))
    # The title and the objectives are there (the text is really read back) ...
    assert "Myllykyl" in " ".join(pdf) and "VP" in pdf and "VP" in svg
    # ... and nothing of Red's set-up or minefields.
    assert not (secrets & pdf), secrets & pdf
    assert not (secrets & svg), secrets & svg


def test_gm_print_shows_red_set_up_and_minefields() -> None:
    text = _tokens(_pdf_text(_pdf("demo", "gm", "fi")))
    s = load_scenario("demo")
    assert {u.id for g in s.red.battle_groups for u in g.units} <= text
    assert "tiemiinoite" in text and "PELINJOHTAJAN" in text


def test_blue_print_shows_blue_set_up_only() -> None:
    s = load_scenario("demo")
    blue = content_for_scenario(s, "blue", "fi")
    assert {u.id for u in blue.units} == {u.id for seat in s.blue.seats for u in seat.units}
    assert not content_for_scenario(s, "red", "fi").units


def test_svg_page_is_paper_sized_text() -> None:
    pages = render_svg_pages(load_print_content("demo", "blue", "en"))
    assert len(pages) == 2
    root = ET.fromstring(pages[0])
    w, h = (float(root.get(k, "0").removesuffix("pt")) for k in ("width", "height"))
    assert sorted((w, h)) == pytest.approx([595.28, 841.89], abs=0.01)
    text = _svg_text(pages[0])
    assert "Clash at Myllykylä" in text and "Scale 1:10 000" in text
    assert root.find(".//{http://www.w3.org/2000/svg}g[@id='grid']") is not None


# ------------------------------------------------------------------ rendered pages

DPI = 127  # 5 pixels per millimetre: one cell = 50 px


def _png(content: object, page: int = 0) -> np.ndarray:
    img = imread(io.BytesIO(render_png(content, "A4", page, dpi=DPI)), format="png")  # type: ignore[arg-type]
    return np.asarray(img[..., :3] * 255, dtype=float)


def _all_terrain_map() -> str:
    """Every fill in a 3×3 block, side by side, on a flat map."""
    chars = {
        "open": ".",
        "field": ",",
        "forest": "F",
        "swamp": "S",
        "thicket": "T",
        "building": "B",
        "water": "W",
    }
    row = "".join(chars[t] * 3 for t in FILL_ORDER[::-1])
    return 'name = "Kaikki"\nterrain = """\n' + "\n".join([row] * 3) + '\n"""\n'


def test_screenshot_scale_and_greyscale_patterns() -> None:
    game_map = parse_map(_all_terrain_map(), "all.toml")
    content = content_for_map(game_map, "blue", "fi")
    sheet = plan(game_map.width, game_map.height, "A4")
    rgb = _png(content)
    page_h, page_w = rgb.shape[:2]
    assert (page_w, page_h) == (round(sheet.page_w * 5), round(sheet.page_h * 5))
    grey = rgb @ np.array([0.299, 0.587, 0.114])
    left, top = sheet.map_left * 5, sheet.map_top * 5
    # The grid: along a row through the middle of the map, dark thin lines every 50 px.
    y = int(top + 1.5 * 50)
    tile = sheet.tiles[0]
    edges = [round(left + i * 50) for i in range(tile.width + 1)]
    for e in edges[1:-1]:
        line, inside = grey[y, e - 2 : e + 3].min(), grey[y, e + 10 : e + 40].mean()
        if inside > 100:  # not on the black building block
            assert line < inside - 30
    # Greyscale: each terrain's middle cell (no grid) has its own brightness/texture.
    stats = {}
    for i, terrain in enumerate(FILL_ORDER[::-1]):
        x0 = int(left + (3 * i + 1) * 50) + 5
        y0 = int(top + 50) + 5
        block = grey[y0 : y0 + 40, x0 : x0 + 40]
        stats[terrain] = (block.mean(), block.std())
    names = list(stats)
    for a in range(len(names)):
        for b in range(a + 1, len(names)):
            (m1, s1), (m2, s2) = stats[names[a]], stats[names[b]]
            assert abs(m1 - m2) > 12 or abs(s1 - s2) > 10, (names[a], names[b], stats)


@pytest.mark.slow  # the fast tier: the prints' text and the two-world byte comparison
def test_screenshot_red_counters_only_on_the_gm_page() -> None:
    s = load_scenario("demo")

    def reddish(side: str, enough: int | None = None) -> int:
        total = 0
        for page in range(2):
            if enough is not None and total > enough:
                break  # a page drawn costs ~0.5 CPU-s
            rgb = _png(content_for_scenario(s, side, "fi"), page)  # type: ignore[arg-type]
            r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
            # The Red counter's fill (#ffd0cc) and edge (#c62828).
            fill = (r > 245) & (np.abs(g - 0xD0) < 6) & (np.abs(b - 0xCC) < 6)
            total += int(fill.sum())
        return total

    assert reddish("blue") == 0 and reddish("red") == 0
    assert reddish("gm", enough=500) > 500


runner = CliRunner()


def test_cli_map_writes_pdf_and_svg_pages(tmp_path: Path) -> None:
    out = tmp_path / "demo.pdf"
    result = runner.invoke(app, ["map", "demo", "--out", str(out), "--side", "gm"])
    assert result.exit_code == 0, result.output
    assert len(PdfReader(out).pages) == 2
    svg = tmp_path / "t.svg"
    result = runner.invoke(
        app, ["--lang", "en", "map", "terasvalli", "--out", str(svg), "--paper", "a2"]
    )
    set_language("fi")
    assert result.exit_code == 0, result.output
    sheet = plan(60, 40, "A2")
    assert sorted(p.name for p in tmp_path.glob("t-*.svg")) == [
        f"t-{i + 1}.svg" for i in range(len(sheet.tiles))
    ]
    assert "pages A2" in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["demo", "--paper", "A5"], "--paper"),
        (["demo", "--side", "green"], "--side"),
        (
            [
                "nosuch",
            ],
            "nosuch",
        ),
        (["demo", "--out-suffix"], ""),
    ],
)
def test_cli_map_bad_input_writes_nothing(tmp_path: Path, args: list[str], message: str) -> None:
    out = tmp_path / "x.pdf"
    if args[-1] == "--out-suffix":
        args, out = ["demo"], tmp_path / "x.png"
        message = ".pdf"
    result = runner.invoke(app, ["map", *args, "--out", str(out)])
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output
    assert list(tmp_path.iterdir()) == []


def test_a_memoised_font_subset_is_matplotlibs_own() -> None:
    """The test processes memoise the fonts a PDF embeds, cut down to its glyphs
    (``tests/conftest.py`` ``_memo_font_subsets``): the font handed out from the memo, the
    first time and again, saves to the bytes of matplotlib's own subset, with the same glyph
    map — so every PDF the tests read is the one a user gets."""
    import importlib

    from matplotlib import font_manager

    pdf_ps: Any = importlib.import_module("matplotlib.backends._backend_pdf_ps")
    memo = pdf_ps.get_glyphs_subset
    assert getattr(memo, "_tk20_memo", False)
    own = memo.original
    font = font_manager.FontPath(font_manager.findfont("DejaVu Sans"), 0)
    glyphs = {36, 37, 38, 171, 200}  # a few glyph indices
    with own(font, glyphs) as subset:
        expected = (pdf_ps.font_as_file(subset.font).getvalue(), dict(subset.glyph_index_map))
    for _ in range(2):
        with memo(font, glyphs) as subset:
            got = (pdf_ps.font_as_file(subset.font).getvalue(), dict(subset.glyph_index_map))
        assert got == expected
    assert len(expected[0]) > 1000 and glyphs <= set(expected[1])
