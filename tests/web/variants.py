"""Demo scenarios with Red's R13 moved, for browser tests that need a situation by
construction instead of waiting for one (written into a folder ``tk20 serve --scenarios``
reads; the map stays the demo map, Myllykylä).

- ``nakyvissa`` ("in sight"): R13 in the open at 10,6, one cell from 1R3, SPOTTED by Blue
  at the start (R-REC-3), so 1R1 may ``attack 1R1 R13`` in Blue's first turn.
- ``kadonnut`` ("lost"): R13 in the forest at 3,4, two cells from 1JJ: SPOTTED at the
  start; a ``disengage`` through the forest to 0,0 … 6,1 is seen by no Blue unit, so Blue's
  contact ends (R-REC-5) and the table shows a last-known marker at 3,4.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from taistelukentta.content.scenario import scenarios_dir

R13_DEMO = '{ id = "R13", card = "motorisoitu_jalkavakiryhma", cell = [26, 7] }'
VARIANTS = {"nakyvissa": (10, 6), "kadonnut": (3, 4)}


def write_variants(folder: Path) -> list[str]:
    """Write every variant (and the demo map under ``maps/``) into ``folder``; their ids."""
    data = scenarios_dir()
    (folder / "maps").mkdir(exist_ok=True)
    shutil.copy(data.parent / "maps" / "demo.toml", folder / "maps" / "demo.toml")
    demo = (data / "demo.toml").read_text(encoding="utf-8")
    assert R13_DEMO in demo and demo.count('id = "demo"') == 1
    for sid, (x, y) in VARIANTS.items():
        text = demo.replace('id = "demo"', f'id = "{sid}"').replace(
            R13_DEMO, R13_DEMO.replace("[26, 7]", f"[{x}, {y}]")
        )
        (folder / f"{sid}.toml").write_text(text, encoding="utf-8")
    return list(VARIANTS)
