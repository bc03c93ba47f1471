"""A 200×200 map in the browser: panning reuses the cached tiles of the static layers
(terrain, grid, contours, roads: panning back and forth draws no tile), and what is shown
after a pan is pixel for pixel what a fresh redraw at the same place shows (a one-pixel
shift is not). The speed is measured in benchmarks/bench_web_pan.py, not here."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.live import Server, running
from tests.web.bigmap import write_big_scenario
from tests.web.browser import open_table, require_browser

pytestmark = pytest.mark.slow

BUILDS = "Number(document.getElementById('map').dataset.builds)"
# Snapshots stay in the page; only the share of differing pixels comes back.
SNAPSHOT = """(name) => {
  const c = document.getElementById('map');
  window.__snaps = window.__snaps || {};
  window.__snaps[name] = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
}"""
# Share of pixels whose colour differs by more than 16 levels in a channel (the picture moved
# by one pixel differs in about a third of the map).
APART = """([x, y]) => {
  const a = window.__snaps[x], b = window.__snaps[y];
  if (a.length !== b.length) return 1;
  let off = 0;
  for (let i = 0; i < a.length; i += 4) {
    const d = Math.max(
      Math.abs(a[i] - b[i]), Math.abs(a[i + 1] - b[i + 1]), Math.abs(a[i + 2] - b[i + 2]));
    if (d > 16) off++;
  }
  return off / (a.length / 4);
}"""


@pytest.fixture(scope="module")
def big_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, str]]:
    require_browser()
    folder = tmp_path_factory.mktemp("big")
    sid = write_big_scenario(folder)
    with running(
        f"sqlite:///{folder / 'tk20.sqlite3'}",
        folder / "server.log",
        args=("--scenarios", str(folder)),
    ) as srv:
        yield srv, sid


def test_pan_on_a_200x200_map_reuses_cached_tiles_and_matches_a_fresh_redraw(
    browser: Any, big_server: tuple[Server, str]
) -> None:
    srv, sid = big_server
    r = httpx.post(f"{srv.base}/api/games", json={"scenario": sid}, timeout=60)
    assert r.status_code == 201, r.text
    tp = open_table(browser, "co", r.json()["seats"]["co"]["url"])
    page = tp.page
    assert page.evaluate("document.getElementById('map').dataset.scale") is not None
    page.locator("#map").focus()
    for _ in range(4):
        page.keyboard.press("+")
    page.wait_for_timeout(150)
    page.keyboard.press("Shift+ArrowRight")
    page.wait_for_timeout(150)
    builds = page.evaluate(BUILDS)
    for key in ("ArrowLeft", "ArrowRight", "ArrowLeft", "ArrowRight"):
        page.keyboard.press(f"Shift+{key}")  # on the focused map plain arrows move the cursor
    page.wait_for_timeout(150)
    assert page.evaluate(BUILDS) == builds  # back and forth: every tile from the cache
    page.evaluate(SNAPSHOT, "panned")
    page.keyboard.press("g")
    page.keyboard.press("g")
    page.wait_for_timeout(150)
    assert page.evaluate(BUILDS) > builds
    page.evaluate(SNAPSHOT, "fresh")
    assert page.evaluate(APART, ["panned", "fresh"]) == 0
    before = page.evaluate(BUILDS)
    for _ in range(12):
        page.keyboard.press("Shift+ArrowDown")
    page.wait_for_timeout(150)
    assert page.evaluate(BUILDS) > before
    page.evaluate(SNAPSHOT, "far")
    page.keyboard.press("g")
    page.keyboard.press("g")
    page.wait_for_timeout(150)
    page.evaluate(SNAPSHOT, "far-fresh")
    assert page.evaluate(APART, ["far", "far-fresh"]) == 0
    page.keyboard.press("Shift+ArrowRight")
    page.wait_for_timeout(150)
    page.evaluate(SNAPSHOT, "moved")
    assert page.evaluate(APART, ["moved", "far-fresh"]) > 0.05
    page.context.close()


def test_big_map_scenario_is_200_by_200(tmp_path: Path) -> None:
    from taistelukentta.content.scenario import load_scenario_file

    sid = write_big_scenario(tmp_path)
    s = load_scenario_file(tmp_path / f"{sid}.toml")
    assert (s.map.width, s.map.height) == (200, 200)
