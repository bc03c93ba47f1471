"""The map reads in black and white (UI.md): every terrain fill of the demo map, read back
from the table's canvas and turned to greyscale, differs from every other fill in its
brightness or in its pattern's direction (horizontal lines for swamp, vertical furrows for
field, dots for forest, crosshatch for thicket) — so a greyscale print or a colour-blind
player still tells them apart."""

from __future__ import annotations

from itertools import combinations
from typing import Any

import pytest

from tests.server.live import Server, create, seats
from tests.web.browser import open_table

pytestmark = pytest.mark.slow

FILLS = ("open", "field", "forest", "thicket", "swamp", "water", "building")

SIGNATURE = """([x, y, s]) => {
  const m = Math.ceil(s * 0.18);
  const c = document.getElementById('map');
  const n = Math.floor(s) - 2 * m;
  const d = c.getContext('2d').getImageData(Math.round(x + m), Math.round(y + m), n, n).data;
  const L = (i, j) => {
    const k = 4 * (j * n + i);
    return 0.299 * d[k] + 0.587 * d[k + 1] + 0.114 * d[k + 2];
  };
  let mean = 0, gx = 0, gy = 0;
  for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) {
    mean += L(i, j);
    if (i + 1 < n) gx += Math.abs(L(i + 1, j) - L(i, j));
    if (j + 1 < n) gy += Math.abs(L(i, j + 1) - L(i, j));
  }
  const k = n * n;
  return [mean / k, gx / k, gy / k];
}"""


def test_terrain_fills_differ_in_greyscale(browser: Any, web_server: Server) -> None:
    game = create(web_server)
    pl1 = seats(web_server, game)["pl1"]
    m = pl1.get("/map").json()
    view = pl1.view()["view"]
    busy = set()
    for u in view["units"]:
        x, y = u["cell"]
        busy |= {(x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
    for o in view["objectives"]:
        busy |= {tuple(c) for c in o["cells"]}
    cells: dict[str, tuple[int, int]] = {}
    for y, row in enumerate(m["rows"]):
        for x, ch in enumerate(row):
            feats = m["legend"].get(ch, [])
            inner = 0 < x < m["width"] - 1 and 0 < y < m["height"] - 1
            one = len(feats) == 1 and feats[0] in FILLS and feats[0] not in cells
            if one and inner and (x, y) not in busy:
                cells[feats[0]] = (x, y)
    assert set(cells) == set(FILLS), sorted(cells)
    tp = open_table(browser, "pl1", game["seats"]["pl1"]["url"])
    page = tp.page
    page.mouse.move(0, 0)
    page.wait_for_timeout(100)
    scale = float(page.evaluate("document.getElementById('map').dataset.scale"))
    assert scale >= 12, scale
    box = page.locator("#map").bounding_box()
    sig = {}
    for fill, (x, y) in cells.items():
        px, py = tp.cell_point((x, y))
        sig[fill] = page.evaluate(
            SIGNATURE, [px - box["x"] - scale / 2, py - box["y"] - scale / 2, scale]
        )
    for a, b in combinations(FILLS, 2):
        (ma, xa, ya), (mb, xb, yb) = sig[a], sig[b]
        apart = abs(ma - mb) >= 12 or abs(xa - xb) >= 3 or abs(ya - yb) >= 3
        assert apart, (a, sig[a], b, sig[b])
    page.context.close()
