"""Map panning benchmark (issue 11): a scripted pan of the table's map in Debian's chromium
against a real ``tk20 serve``, on a 200×200 map and on the demo map (30×20) as the
reference measured in the same run.

Run by hand after ``scripts/build-web``: ``.venv/bin/python benchmarks/bench_web_pan.py
[steps]``. Not part of the tests.

The page is zoomed in (``+`` twice from the fitted view) and panned with the arrow keys,
``steps`` presses (right, down, left, up in turn, 60 px each), one per animation frame.
For each frame the script measures, inside the page, the time from the frame's start (the
``requestAnimationFrame`` timestamp) to the end of the callbacks before its own — the
table's drawing of that frame, whatever the client's code — and reports the median, the
95th percentile and the worst frame per map. An idle frame (no key pressed) is the
floor. The 200×200 map should pan like the demo map: ratio ≈ 1, every frame well under
16.7 ms (60 frames a second).
"""

from __future__ import annotations

import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

import httpx
from tests.server.live import running
from tests.web.bigmap import write_big_scenario
from tests.web.browser import chromium, open_table, require_browser

PAN = """async (steps) => {
  const keys = ["ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp"];
  const frame = () => new Promise((r) => requestAnimationFrame(r));
  const out = [], idle = [];
  for (let i = 0; i < 10; i++) { const t = await frame(); idle.push(performance.now() - t); }
  await frame();
  for (let i = 0; i < steps; i++) {
    const key = keys[Math.floor(i / 15) % 4];
    document.dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true }));
    const t = await frame();
    out.push(performance.now() - t);
  }
  return { frames: out, idle, builds: Number(document.getElementById("map").dataset.builds ?? -1) };
}"""


def pan(browser: Any, url: str, steps: int) -> dict[str, Any]:
    tp = open_table(browser, "co", url)
    page = tp.page
    page.locator("#map").focus()
    for _ in range(2):
        page.keyboard.press("+")
    page.wait_for_timeout(200)
    result: dict[str, Any] = page.evaluate(PAN, steps)
    result["scale"] = page.evaluate("Number(document.getElementById('map').dataset.scale)")
    page.context.close()
    return result


def p95(xs: list[float]) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(0.95 * len(s)))]


def main(steps: int = 240) -> None:
    require_browser()
    folder = Path(tempfile.mkdtemp(prefix="tk20-bench-pan-"))
    big = write_big_scenario(folder)
    db = f"sqlite:///{folder / 'tk20.sqlite3'}"
    with (
        running(db, folder / "server.log", args=("--scenarios", str(folder))) as srv,
        chromium() as browser,
    ):
        out = {}
        for scenario in ("demo", big):
            game = httpx.post(f"{srv.base}/api/games", json={"scenario": scenario}).json()
            pan(browser, game["seats"]["co"]["url"], 20)  # warm up
            out[scenario] = pan(browser, game["seats"]["co"]["url"], steps)
        ref = statistics.median(out["demo"]["frames"])
        for scenario, r in out.items():
            f = r["frames"]
            print(
                f"{scenario:7s} pan ({steps} key steps at {r['scale']:.1f} px/cell): frame "
                f"median {statistics.median(f):.2f} ms, p95 {p95(f):.2f} ms, worst {max(f):.2f} ms;"
                f" idle frame {statistics.median(r['idle']):.2f} ms; static-layer tiles drawn "
                f"{r['builds']}; ratio to demo (median) {statistics.median(f) / ref:.2f}x"
            )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 240)
