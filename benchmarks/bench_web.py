"""Browser table benchmark (issue 11): seat link → interactive map, and click on a target →
odds shown, in Debian's chromium against a real ``tk20 serve`` (SQLite).

Run by hand after ``scripts/build-web``: ``.venv/bin/python benchmarks/bench_web.py [runs]``.
Not part of the tests. Each figure is the median of the runs, with a simple reference
measured in the same run on the same server and browser:

- *map*: opening a seat link of ``terasvalli`` (60×40) in a fresh browser context until the
  map is drawn and answers clicks (``body[data-ready]``: view and map loaded, first frame
  drawn, legal orders loaded), measured by the script (new context + navigation + drawing)
  and inside the page (the ``tk20-ready`` performance mark after navigation start).
  Reference: opening the server's ``/api/scenarios`` (one small JSON page) in a fresh
  context. Goal < 1 s.
- *odds*: with a unit selected, the pointer moved onto a SPOTTED target until the odds panel
  for that order is shown (the client asks for the selected unit's odds when it is
  selected, so the hover usually finds them already there). Reference:
  one ``fetch('/api/games/ID/orders')`` from the same page. Goal < 100 ms.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx
from tests.server.live import running
from tests.web.browser import chromium, open_table, require_browser
from tests.web.test_table_features import _game_with_a_target

READY_MARK = "performance.getEntriesByName('tk20-ready')[0].startTime"
FETCH_ORDERS = (
    "t => fetch(`/api/games/${t[0]}/orders`,"
    " {headers: {Authorization: `Bearer ${t[1]}`}}).then(r => r.json())"
)


def main(runs: int = 7) -> None:
    require_browser()
    folder = Path(tempfile.mkdtemp(prefix="tk20-bench-web-"))
    db = f"sqlite:///{folder / 'tk20.sqlite3'}"
    with running(db, folder / "server.log") as srv, chromium() as browser:
        game = httpx.post(f"{srv.base}/api/games", json={"scenario": "terasvalli"}).json()
        url = game["seats"]["co"]["url"]
        open_table(browser, "co", url).page.context.close()  # warm the server's caches
        table_ms, ref_ms, mark_ms = [], [], []
        for _ in range(runs):
            ctx = browser.new_context(viewport={"width": 1366, "height": 768})
            page = ctx.new_page()
            t0 = time.perf_counter()
            page.goto(url)
            page.wait_for_selector("body[data-ready][data-version]", timeout=15000)
            table_ms.append((time.perf_counter() - t0) * 1000)
            mark_ms.append(page.evaluate(READY_MARK))
            ctx.close()
            ctx = browser.new_context()
            page = ctx.new_page()
            t0 = time.perf_counter()
            page.goto(f"{srv.base}/api/scenarios")
            page.wait_for_load_state("load")
            ref_ms.append((time.perf_counter() - t0) * 1000)
            ctx.close()
        report("seat link -> interactive map (terasvalli 60x40)", table_ms, ref_ms, "JSON page")
        print(
            f"  in the page (navigation start -> first map frame, mark tk20-ready): median "
            f"{statistics.median(mark_ms):.0f} ms (min {min(mark_ms):.0f}, max {max(mark_ms):.0f})"
        )

        game, pl1, order = _game_with_a_target(srv)
        _kind, unit, target = order.split()
        where = {u["id"]: (u["cell"][0], u["cell"][1]) for u in pl1.view()["view"]["units"]}
        odds_ms, fetch_ms = [], []
        for _ in range(runs):
            tp = open_table(browser, "pl1", game["seats"]["pl1"]["url"])
            tp.click_cell(where[unit])
            tp.page.wait_for_function(
                f"document.getElementById('map').dataset.selected === '{unit}'", timeout=3000
            )
            x, y = tp.cell_point(where[target])
            t0 = time.perf_counter()
            tp.page.mouse.move(x, y)
            tp.page.locator(f'#oddsbox .odds[data-order="{order}"]').wait_for(timeout=3000)
            odds_ms.append((time.perf_counter() - t0) * 1000)
            t0 = time.perf_counter()
            tp.page.evaluate(FETCH_ORDERS, [pl1.game, pl1.token])
            fetch_ms.append((time.perf_counter() - t0) * 1000)
            tp.page.context.close()
        report(f"target hovered -> odds shown ({order})", odds_ms, fetch_ms, "one /orders fetch")


def report(what: str, ms: list[float], ref: list[float], ref_name: str) -> None:
    m, r = statistics.median(ms), statistics.median(ref)
    print(
        f"{what}: median {m:.0f} ms (min {min(ms):.0f}, max {max(ms):.0f}); "
        f"reference {ref_name} {r:.0f} ms; ratio {m / r:.1f}x"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 7)
