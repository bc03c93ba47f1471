"""The scenario editor page and the table's print dialog in Debian's chromium against a real
``tk20 serve`` (issue 14): paint terrain, place a unit, see the loader's error for an
impossible placement, fix it, save the TOML and publish; the table prints the seat's map."""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.live import Server, create, running
from tests.web.browser import open_table, require_browser


@pytest.fixture(scope="module")
def editor_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Path]]:
    require_browser()
    folder = tmp_path_factory.mktemp("web-editor")
    published = folder / "scenarios"
    published.mkdir()
    with running(
        f"sqlite:///{folder / 'tk20.sqlite3'}",
        folder / "server.log",
        ("--scenarios", str(published)),
    ) as srv:
        yield srv, published


class EditorPage:
    def __init__(self, page: Any) -> None:
        self.page = page

    def point(self, cell: tuple[int, int]) -> tuple[float, float]:
        box = self.page.locator("#editor-map").bounding_box()
        scale, ox, oy = self.page.evaluate(
            "(() => { const d = document.getElementById('editor-map').dataset;"
            " return [Number(d.scale), Number(d.ox), Number(d.oy)]; })()"
        )
        return box["x"] + ox + (cell[0] + 0.5) * scale, box["y"] + oy + (cell[1] + 0.5) * scale

    def click(self, cell: tuple[int, int]) -> None:
        x, y = self.point(cell)
        self.page.mouse.click(x, y)

    def validated(self) -> bool:
        self.page.wait_for_function("!('validating' in document.body.dataset)", timeout=15000)
        return bool(self.page.evaluate("document.body.dataset.valid === 'true'"))

    def pixel(self, cell: tuple[int, int]) -> tuple[int, int, int]:
        return self.pixel_at(cell, 0.5)

    def pixel_at(self, cell: tuple[int, int], frac: float) -> tuple[int, int, int]:
        """The canvas pixel at ``frac`` of the cell from its top-left corner (diagonally)."""
        scale = float(self.page.evaluate("document.getElementById('editor-map').dataset.scale"))
        cx, cy = self.point(cell)
        x, y = cx + (frac - 0.5) * scale, cy + (frac - 0.5) * scale
        box = self.page.locator("#editor-map").bounding_box()
        rgb = self.page.evaluate(
            "([x, y]) => { const c = document.getElementById('editor-map');"
            " const d = window.devicePixelRatio || 1;"
            " const px = c.getContext('2d').getImageData(x * d, y * d, 1, 1).data;"
            " return Array.from(px).slice(0, 3); }",
            [x - box["x"], y - box["y"]],
        )
        return int(rgb[0]), int(rgb[1]), int(rgb[2])


def test_editor_paint_place_validate_save_publish(
    browser: Any, editor_server: tuple[Server, Path]
) -> None:
    server, folder = editor_server
    ctx = browser.new_context(viewport={"width": 1500, "height": 900}, accept_downloads=True)
    page = ctx.new_page()
    page.goto(server.base + "/#editor")
    page.wait_for_selector("body[data-ready]", timeout=20000)
    ed = EditorPage(page)
    page.select_option("#open-scenario", "demo")
    page.click("#open")
    page.wait_for_function("document.getElementById('scenario-id')?.value === 'demo'")
    assert ed.validated()

    # Paint a water cell (a 1×1 brush) where nothing stands: the canvas turns blue there.
    before = ed.pixel((2, 2))
    page.select_option("#terrain", "water")
    ed.click((2, 2))
    assert ed.validated()
    r, g, b = ed.pixel((2, 2))
    assert b > r + 60 and (r, g, b) != before

    # An impossible placement: a Red BMP-2 onto 1R1's cell (7, 6) — the loader's error.
    page.select_option("#force", "red:0")
    page.select_option("#card", "bmp2")
    ed.click((7, 6))
    assert not ed.validated()
    problems = page.locator("#problems li.problem").all_inner_texts()
    assert any("both sides" in p and "demo.toml" in p and "7,6" in p for p in problems), problems
    # The cell the problem names is ringed in red on the map.
    r, g, b = ed.pixel_at((7, 6), 0.03)
    assert r > 200 and g < 60 and b < 60, (r, g, b)
    # Remove what stands there, place it in an open cell instead: valid again.
    page.check("input[name=tool][value=erase]")
    ed.click((7, 6))
    assert ed.validated()
    page.select_option("#force", "red:0")
    page.select_option("#card", "bmp2")
    ed.click((20, 12))
    assert ed.validated(), page.locator("#problems").inner_text()

    # Save: the TOML has the painted water and the new Red unit.
    with page.expect_download() as dl:
        page.click("#save")
    saved = tomllib.loads(Path(dl.value.path()).read_text(encoding="utf-8"))
    assert saved["map"]["terrain"].splitlines()[2][2] == "W"
    red_cells = [u["cell"] for u in saved["red"]["battle_groups"][0]["units"]]
    assert [20, 12] in red_cells
    assert all(u["id"] != "1R1" for s in saved["blue"]["seats"] for u in s["units"])

    # Publish under a new id; the lobby's list then has it.
    page.fill("#scenario-id", "myllykyla3")
    assert ed.validated()
    page.click("#publish")
    page.wait_for_function(
        "document.getElementById('editor-status')?.textContent.includes('Julkaistu')",
        timeout=15000,
    )
    assert (folder / "myllykyla3.toml").is_file()
    create(server, "myllykyla3")
    ctx.close()


def test_editor_empty_map_and_heights(browser: Any, editor_server: tuple[Server, Path]) -> None:
    server, _ = editor_server
    ctx = browser.new_context(viewport={"width": 1400, "height": 850}, accept_downloads=True)
    page = ctx.new_page()
    page.goto(server.base + "/#editor")
    page.wait_for_selector("body[data-ready]", timeout=20000)
    page.fill("#new-width", "12")
    page.fill("#new-height", "9")
    page.click("#new-empty")
    page.wait_for_function("document.getElementById('scenario-id')?.value === 'uusi'")
    ed = EditorPage(page)
    assert not ed.validated()  # no units yet: the loader says which are missing
    problems = " ".join(page.locator("#problems li.problem").all_inner_texts())
    assert "has no units" in problems
    page.check("input[name=tool][value=raise]")
    page.select_option("#brush", "3")
    ed.click((5, 4))
    ed.click((5, 4))
    ed.validated()
    with page.expect_download() as dl:
        page.click("#save")
    saved = tomllib.loads(Path(dl.value.path()).read_text(encoding="utf-8"))
    heights = [[int(v) for v in row.split()] for row in saved["map"]["elevation"].splitlines()]
    assert heights[4][5] == heights[3][4] == heights[5][6] == 2
    assert heights[4][3] == heights[2][5] == 0
    assert sum(map(sum, heights)) == 18
    ctx.close()


def test_table_print_dialog(browser: Any, editor_server: tuple[Server, Path]) -> None:
    server, _ = editor_server
    created = create(server, "demo")
    url = created["seats"]["co"]["url"]
    tp = open_table(browser, "co", url)
    tp.page.click("#print")
    tp.page.wait_for_selector("#print-dialog[data-loaded]", timeout=30000)
    assert tp.page.locator("#print-pages").inner_text().startswith("2")
    src = tp.page.get_attribute("#print-preview", "src") or ""
    assert src.startswith("blob:")
    # The preview is the Blue print: its SVG text has no Red unit id.
    svg = tp.page.evaluate("(u) => fetch(u).then((r) => r.text())", src)
    assert "<svg" in svg and "R11" not in svg and "tiemiinoite" not in svg
    tp.page.context.close()
