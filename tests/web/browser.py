"""Helpers of the browser tests: Debian's chromium driven by Playwright, pages of the table
with every network answer recorded, and clicks on map cells."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
WEB_DIST = Path(__file__).resolve().parents[2] / "src" / "taistelukentta" / "web_dist"


def require_browser() -> None:
    """Chromium and the built client; in CI a missing one fails instead of skipping."""
    missing = []
    if not Path(CHROMIUM).is_file():
        missing.append(f"{CHROMIUM} (Debian package chromium)")
    if not (WEB_DIST / "index.html").is_file():
        missing.append(f"{WEB_DIST}/index.html (scripts/build-web)")
    if missing:
        text = "browser tests need " + " and ".join(missing)
        if os.environ.get("CI") == "true":
            pytest.fail(text)
        pytest.skip(text)


@contextmanager
def chromium() -> Iterator[Any]:
    """A Playwright Browser on Debian's chromium (never a downloaded browser)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            yield browser
        finally:
            browser.close()


def web_scenarios(server: Any) -> Path:
    """The scenario folder (``--scenarios``) a test server was started with."""
    args: tuple[str, ...] = server.args
    return Path(args[args.index("--scenarios") + 1])


def token_of(url: str) -> tuple[str, str]:
    """(game id, token) of a seat link ``…/#game=ID&token=T``."""
    frag = parse_qs(urlsplit(url).fragment)
    return frag["game"][0], frag["token"][0]


@dataclass
class TablePage:
    """One seat's page with what its network answered."""

    seat: str
    page: Any
    answers: list[tuple[str, str]] = field(default_factory=list)
    """(URL, body) of every API answer and WebSocket message the page received."""

    def version(self) -> int:
        return int(self.page.evaluate("document.body.dataset.version ?? '-1'"))

    def cell_point(self, cell: tuple[int, int]) -> tuple[float, float]:
        """Page coordinates of a map cell's centre (from the canvas's viewport)."""
        box = self.page.locator("#map").bounding_box()
        d = self.page.evaluate(
            "(() => { const d = document.getElementById('map').dataset;"
            " return [Number(d.scale), Number(d.ox), Number(d.oy)]; })()"
        )
        scale, ox, oy = d
        return box["x"] + ox + (cell[0] + 0.5) * scale, box["y"] + oy + (cell[1] + 0.5) * scale

    def click_cell(self, cell: tuple[int, int]) -> None:
        x, y = self.cell_point(cell)
        self.page.mouse.click(x, y)

    def wait_ready(self) -> None:
        self.page.wait_for_selector("body[data-ready][data-version]", timeout=15000)

    def confirm(self, order: str) -> None:
        """Click the confirm button of ``order`` in the open dialog."""
        btn = self.page.locator(f'dialog[open] button.send[data-order="{order}"]')
        btn.wait_for(timeout=5000)
        btn.click()

    def storage(self) -> str:
        return str(self.page.evaluate("JSON.stringify(Object.assign({}, localStorage))"))

    def dom(self) -> str:
        return str(self.page.content())


def open_table(browser: Any, seat: str, url: str, size: tuple[int, int] = (1366, 768)) -> TablePage:
    """A new browser context (its own storage) with the seat link open."""
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = ctx.new_page()
    tp = TablePage(seat, page)

    def record(response: Any) -> None:
        if "/api/" in response.url:
            try:
                tp.answers.append((response.url, response.text()))
            except Exception:  # a body no longer available (navigation)
                tp.answers.append((response.url, ""))

    page.on("response", record)
    page.on(
        "websocket",
        lambda ws: ws.on("framereceived", lambda f: tp.answers.append((ws.url, str(f)))),
    )
    page.goto(url)
    tp.wait_ready()
    return tp


_CELL_TEXT = re.compile(r"\[\s*(\d+)\s*,\s*(\d+)\s*\]|(?<![\d.])(\d+),(\d+)(?![\d.])")


def cells_in(text: str) -> set[tuple[int, int]]:
    """Every X,Y or [X, Y] written in ``text``."""
    out = set()
    for m in _CELL_TEXT.finditer(text):
        a, b = (m.group(1), m.group(2)) if m.group(1) is not None else (m.group(3), m.group(4))
        out.add((int(a), int(b)))
    return out


def ids_in(text: str, ids: set[str]) -> set[str]:
    """Which of ``ids`` appear in ``text`` as whole tokens."""
    edge = "A-Za-z0-9_-"
    return {i for i in ids if re.search(rf"(?<![{edge}]){re.escape(i)}(?![{edge}])", text)}


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)
