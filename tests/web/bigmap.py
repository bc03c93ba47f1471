"""A 200×200 scenario for the browser's pan test and benchmark: the demo scenario on the
demo map (Myllykylä) tiled 7 × 10 and cut to 200 × 200 cells, written into a folder that
``tk20 serve --scenarios`` reads."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from taistelukentta.content.scenario import scenarios_dir

SIZE = 200
SCENARIO_ID = "iso200"


def _block(text: str, key: str) -> str:
    m = re.search(rf'^{key} = """\n(.*?)"""', text, re.S | re.M)
    assert m is not None, key
    return m.group(1)


def write_big_scenario(folder: Path) -> str:
    """Write ``iso200.toml`` and ``maps/iso200.toml`` into ``folder``; the scenario id."""
    data = scenarios_dir()
    map_text = (data.parent / "maps" / "demo.toml").read_text(encoding="utf-8")
    rows = _block(map_text, "terrain").splitlines()
    elev = [line.split() for line in _block(map_text, "elevation").splitlines()]
    h, w = len(rows), len(rows[0])
    terrain = ["".join(rows[y % h][x % w] for x in range(SIZE)) for y in range(SIZE)]
    # Heights rise by one contour per tile eastward and southward so the contours differ.
    heights = [
        " ".join(str(int(elev[y % h][x % w]) + x // w + y // h) for x in range(SIZE))
        for y in range(SIZE)
    ]
    # The map in a subfolder: every *.toml directly in the folder is read as a scenario.
    (folder / "maps").mkdir(exist_ok=True)
    (folder / "maps" / "iso200.toml").write_text(
        'name = "Iso Myllykylä"\n\nterrain = """\n'
        + "\n".join(terrain)
        + '\n"""\n\nelevation = """\n'
        + "\n".join(heights)
        + '\n"""\n',
        encoding="utf-8",
    )
    scen = (data / "demo.toml").read_text(encoding="utf-8")
    tomllib.loads(scen)  # the source parses
    scen = re.sub(r'^id = "demo"', f'id = "{SCENARIO_ID}"', scen, count=1, flags=re.M)
    scen = re.sub(r'^map = "[^"]*"', 'map = "maps/iso200.toml"', scen, count=1, flags=re.M)
    (folder / f"{SCENARIO_ID}.toml").write_text(scen, encoding="utf-8")
    return SCENARIO_ID
