"""The scenario editor page and the table's print dialog in Debian's chromium against a real
``tk20 serve`` (issue 14): paint terrain, place a unit, see the loader's error for an
impossible placement, fix it, save the TOML and publish; rule-option overrides and the
fire-support fields; the play-test button; a map imported from a picture; the table prints
the seat's map."""

from __future__ import annotations

import re
import struct
import tomllib
import zlib
from pathlib import Path
from typing import Any

import pytest

from tests.server.live import Server, create
from tests.web.browser import open_table, web_scenarios


@pytest.fixture
def editor_server(web_server: Server) -> tuple[Server, Path]:
    """The browser tests' shared server and its scenario folder, which the editor publishes
    into."""
    return web_server, web_scenarios(web_server)


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


@pytest.mark.slow
def test_editor_paint_place_validate_save_publish(
    browser: Any, editor_server: tuple[Server, Path]
) -> None:
    server, folder = editor_server
    ctx = browser.new_context(viewport={"width": 1500, "height": 900}, accept_downloads=True)
    page = ctx.new_page()
    page.goto(server.base + "/#editor")
    page.wait_for_selector("body[data-ready]", timeout=20000)
    ed = EditorPage(page)
    _open(page, "demo")
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
    # The publishing answered an edit key: shown to the GM and kept in this browser, which
    # opens the scenario again; another browser is asked for it (the set-up is the GM's).
    status = page.locator("#editor-status").inner_text()
    assert "Muokkausavain" in status, status
    key = status.rsplit(": ", 1)[1].strip()
    kept = page.evaluate("JSON.parse(localStorage.getItem('tk20.editKeys'))")
    assert kept == {"myllykyla3": key}
    _open(page, "demo")
    _open(page, "myllykyla3")
    ctx.close()

    other = browser.new_context(viewport={"width": 1500, "height": 900})
    page = other.new_page()
    page.goto(server.base + "/#editor")
    page.wait_for_selector("body[data-ready]", timeout=20000)
    page.wait_for_function("document.getElementById('scenario-id')?.value === 'demo'")
    asked: list[str] = []

    def answer(dialog: Any, typed: str) -> None:
        asked.append(dialog.message)
        dialog.accept(typed)

    page.once("dialog", lambda d: answer(d, "vaara-avain"))
    page.select_option("#open-scenario", "myllykyla3")
    page.click("#open")
    page.wait_for_function(
        "document.getElementById('editor-status')?.textContent.includes('muokkausavaimella')",
        timeout=15000,
    )
    assert page.evaluate("document.getElementById('scenario-id').value") == "demo"
    page.once("dialog", lambda d: answer(d, key))
    page.select_option("#open-scenario", "myllykyla3")
    page.click("#open")
    page.wait_for_function("document.getElementById('scenario-id')?.value === 'myllykyla3'")
    assert len(asked) == 2 and "muokkausavain" in asked[0]
    other.close()


@pytest.mark.slow
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


@pytest.mark.slow
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


def _png(rows: list[list[tuple[int, int, int]]]) -> bytes:
    """A small RGB PNG of ``rows`` of pixels (zlib + CRC by hand: no image library)."""

    def chunk(tag: bytes, data: bytes) -> bytes:
        body = tag + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    raw = b"".join(b"\x00" + bytes(v for px in row for v in px) for row in rows)
    head = struct.pack(">IIBBBBB", len(rows[0]), len(rows), 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", head)
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )


def _open(page: Any, sid: str) -> None:
    """Open scenario ``sid`` with the editor's Open button and wait until its model is shown.

    The page opens the first bundled scenario (demo) by itself, so an id already on the page
    proves nothing: wait for a new model (``body[data-loaded]`` counts them), or edits made
    at once are lost when the asked-for model lands over them."""
    page.select_option("#open-scenario", sid)
    before = page.evaluate("document.body.dataset.loaded")
    page.click("#open")
    page.wait_for_function("(b) => document.body.dataset.loaded !== b", arg=before)
    page.wait_for_function(f"document.getElementById('scenario-id')?.value === '{sid}'")


def _open_demo(browser: Any, server: Server) -> tuple[Any, EditorPage]:
    ctx = browser.new_context(viewport={"width": 1500, "height": 900}, accept_downloads=True)
    page = ctx.new_page()
    page.goto(server.base + "/#editor")
    page.wait_for_selector("body[data-ready]", timeout=20000)
    _open(page, "demo")
    ed = EditorPage(page)
    assert ed.validated()
    return page, ed


def _saved(page: Any) -> dict[str, Any]:
    with page.expect_download() as dl:
        page.click("#save")
    return tomllib.loads(Path(dl.value.path()).read_text(encoding="utf-8"))


def _problems(page: Any) -> str:
    return " | ".join(page.locator("#problems li.problem").all_inner_texts())


@pytest.mark.slow
def test_editor_option_overrides_and_fire_support_fields(
    browser: Any, editor_server: tuple[Server, Path]
) -> None:
    """Rule-option overrides (a good value saved under [options], an impossible one named
    by the loader, removed again) and the fire-support fields (off-board requests without a
    weapon is the loader's error; K9 ticked fixes it; organic rounds per support unit)."""
    server, _ = editor_server
    page, ed = _open_demo(browser, server)

    # Typing: the validation after each edit never takes the focus away from the field.
    page.locator("#title-fi").click()
    page.keyboard.press("End")
    page.keyboard.type(" (muokattu)")
    assert ed.validated()
    page.keyboard.type("!")
    assert page.evaluate("document.activeElement?.id") == "title-fi"

    page.select_option("#option-name", "sight_max")
    page.fill("#option-value", "8")
    page.click("#option-add")
    assert ed.validated(), _problems(page)
    page.select_option("#option-name", "thicket_move_cost")
    page.fill("#option-value", "3")  # the choices are 2 and 4
    page.click("#option-add")
    assert not ed.validated()
    assert "options.thicket_move_cost" in _problems(page), _problems(page)
    page.locator('ul.options li[data-option="thicket_move_cost"] button').click()
    assert ed.validated(), _problems(page)

    page.fill("#fs-requests", "2")
    assert not ed.validated()
    assert "secrets.fire_support.weapons" in _problems(page), _problems(page)
    page.check('input[type=checkbox][value="k9"]')
    page.fill("#fs-requests", "3")  # at once, before the validation re-renders the panel
    assert ed.validated(), _problems(page)
    rounds = page.locator('input.organic-rounds[data-unit="KRH"]')
    assert rounds.input_value() == "4"
    rounds.fill("6")
    assert ed.validated(), _problems(page)
    page.select_option("#organic-unit", "1R1")  # a rifle squad has no organic fire support
    page.click("#organic-add")
    assert not ed.validated()
    assert "secrets.organic_rounds" in _problems(page) and "1R1" in _problems(page)
    page.locator('li[data-organic="1R1"] button').click()
    assert ed.validated(), _problems(page)

    saved = _saved(page)
    assert saved["title"]["fi"] == "Yhteenotto Myllykylässä (muokattu)!"
    assert saved["options"] == {"sight_max": 8}
    fire = saved["secrets"]["fire_support"]
    assert fire["off_board_requests"] == 3 and fire["weapons"] == ["k9"]
    assert saved["secrets"]["organic_rounds"] == {"KRH": 6}
    page.context.close()


@pytest.mark.slow
def test_editor_play_test_button_shows_the_balance_figures(
    browser: Any, editor_server: tuple[Server, Path]
) -> None:
    """The play-test button plays computer games of the edited scenario on the server and
    shows each side's win rate with its interval, draws, mean VP and rounds."""
    server, _ = editor_server
    page, _ed = _open_demo(browser, server)
    page.fill("#rounds", "2")  # short games
    page.fill("#playtest-games", "1")
    page.click("#playtest")
    out = page.locator('#playtest-result[data-games="1"]')
    out.wait_for(timeout=120000)
    text = out.inner_text()
    assert re.search(r"Sininen voittaa: (0|100) %", text), text
    assert re.search(r"Punainen voittaa: (0|100) %", text), text
    assert "1 pelejä" in text and "Kierroksia keskimäärin: 2" in text, text
    page.context.close()


@pytest.mark.slow
def test_editor_imports_a_map_from_a_picture(
    browser: Any, editor_server: tuple[Server, Path]
) -> None:
    """A scanned sheet: a picture whose blocks are near (not equal to) the legend colours;
    each block becomes the terrain of the nearest colour."""
    server, _ = editor_server
    ctx = browser.new_context(viewport={"width": 1500, "height": 900}, accept_downloads=True)
    page = ctx.new_page()
    page.goto(server.base + "/#editor")
    page.wait_for_selector("body[data-ready]", timeout=20000)
    page.fill("#new-width", "6")
    page.fill("#new-height", "3")
    page.click("#new-empty")
    page.wait_for_function("document.getElementById('scenario-id')?.value === 'uusi'")
    ed = EditorPage(page)
    ed.validated()
    # 6 × 3 blocks of 10 × 10 pixels: water, field, forest / thicket, building, open …
    colours = {
        "W": (80, 150, 215),  # water (74, 154, 224), scanned a little off
        ",": (235, 205, 80),  # field
        "F": (232, 240, 224),  # forest
        "T": (130, 188, 100),  # thicket
        "B": (50, 48, 45),  # building
        ".": (247, 230, 182),  # open
    }
    want = ["W,F", "TBW", ".,T"]
    want = [r + r for r in want]  # 6 columns
    rows = []
    for line in want:
        for _ in range(10):
            rows.append([colours[ch] for ch in line for _ in range(10)])
    page.set_input_files(
        "#import-file",
        files=[{"name": "kartta.png", "mimeType": "image/png", "buffer": _png(rows)}],
    )
    assert page.input_value("#import-width") == "6" and page.input_value("#import-height") == "3"
    page.click("#import")
    page.wait_for_function("document.body.dataset.imported === '6x3'", timeout=10000)
    ed.validated()
    r, _g, b = ed.pixel((0, 0))
    assert b > r + 60  # water drawn blue
    saved = _saved(page)
    assert saved["map"]["terrain"].splitlines() == want
    ctx.close()
