"""Map drawing benchmark (issue 9): how long ``tk20 show`` takes to draw a big map, the whole
of it against the window around the viewer's units it draws by default.

Run by hand: ``.venv/bin/python benchmarks/bench_show.py [--size 500] [--runs 5]``. Not
part of the tests.

A square map of ``--size`` cells is made by tiling the demo map (its terrain and heights),
with the demo scenario's units and objectives on it. In one process and one run: the
reference is what ``show`` prints for a new demo game (its whole 30×20 map), then the text
``show`` prints on the big map for the default window (80 columns) and for ``--full`` (every
cell), each rendered by rich into a string as on an 80-column terminal with colours.
The best of ``--runs`` is printed with its ratio to the reference's best.
"""

from __future__ import annotations

import argparse
import io
import re
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from rich.console import Console

import taistelukentta.cli.game_cmds as game_cmds
from taistelukentta.cli.game_cmds import _draw_view, _window_for
from taistelukentta.content.loader import data_path
from taistelukentta.content.scenario import Scenario, load_scenario
from taistelukentta.rules import GameState, new_game
from taistelukentta.views import view_for


def big_scenario(folder: Path, size: int) -> Path:
    """A copy of the demo scenario on a ``size`` × ``size`` tiling of its map."""
    src = data_path("maps", "demo.toml").read_text(encoding="utf-8")
    terrain = re.search(r'terrain = """\n(.*?)"""', src, re.S)
    heights = re.search(r'elevation = """\n(.*?)"""', src, re.S)
    assert terrain is not None and heights is not None
    rows, hrows = terrain.group(1).split(), heights.group(1).strip().split("\n")
    t = [(rows[y % len(rows)] * (size // len(rows[0]) + 1))[:size] for y in range(size)]
    e = [
        " ".join((hrows[y % len(hrows)].split() * (size // len(rows[0]) + 1))[:size])
        for y in range(size)
    ]
    (folder / "big_map.toml").write_text(
        f'name = "Big"\n\nterrain = """\n{chr(10).join(t)}\n"""\n\n'
        f'elevation = """\n{chr(10).join(e)}\n"""\n',
        encoding="utf-8",
    )
    scen = data_path("scenarios", "demo.toml").read_text(encoding="utf-8")
    scen = scen.replace('id = "demo"', 'id = "big"')
    scen = scen.replace('map = "maps/demo.toml"', f'map = "{folder / "big_map.toml"}"')
    path = folder / "big.toml"
    path.write_text(scen, encoding="utf-8")
    return path


def best(fn: Callable[[], object], runs: int) -> float:
    out = float("inf")
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        out = min(out, time.perf_counter() - t0)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else "")
    parser.add_argument("--size", type=int, default=500)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        scenario = load_scenario(str(big_scenario(Path(tmp), args.size)))
        state = new_game(scenario, 7)

        demo = load_scenario("demo")
        demo_state = new_game(demo, 7)

        def render(scen: Scenario, st: GameState, full: bool) -> str:
            sink = io.StringIO()
            game_cmds.console = Console(  # type: ignore[attr-defined]
                file=sink, width=80, color_system="truecolor"
            )
            v = view_for(st, "blue")
            win = _window_for(v, scen, window=False, full=full, centre=None, size=None)
            _draw_view(v, scen, events=12, window=win)
            return sink.getvalue()

        assert "Ikkuna" in render(scenario, state, False)
        assert "Ikkuna" not in render(scenario, state, True)
        ref = best(lambda: render(demo, demo_state, False), args.runs)
        window = best(lambda: render(scenario, state, False), args.runs)
        full = best(lambda: render(scenario, state, True), args.runs)
    print(f"map {args.size}x{args.size}, best of {args.runs}")
    print(f"  reference (show demo)     {ref * 1000:8.1f} ms")
    print(f"  show (window, default)    {window * 1000:8.1f} ms  {window / ref:6.1f}x")
    print(f"  show --full               {full * 1000:8.1f} ms  {full / ref:6.1f}x")


if __name__ == "__main__":
    main()
