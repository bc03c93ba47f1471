"""Golden per-side views (R-REC-5) of the first turns of ``demo`` with seed 11 and a fixed
order script, for ``blue``, ``red`` and ``gm``.

The expected JSON lives next to this file (``demo_s11_<viewer>.json``). After an intended
change of the views or the engine, regenerate them with::

    TK20_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/golden

and review the diff before committing.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from taistelukentta.content.scenario import load_scenario
from taistelukentta.rules import apply, new_game, parse_order
from taistelukentta.views import view_for

HERE = Path(__file__).parent
SEED = 11
SCRIPT: list[tuple[str, str]] = [
    # Blue, round 1
    ("co", "recon KP 13,9"),
    ("co", "move KP 14,10"),  # stops in the road minefield at 10,11 (R-MINE-2)
    ("co", "clear KP"),
    ("co", "move KRH 10,10"),
    ("co", "done"),
    ("pl1", "move 1JJ 12,5"),
    ("pl1", "move 1R1 14,5"),
    ("pl1", "move 1R2 16,2"),
    ("pl1", "move 1R3 17,3"),
    ("pl1", "done"),
    ("pl2", "defend 2JJ"),
    ("pl2", "defend 2PST"),
    ("pl2", "defend 2R1"),
    ("pl2", "defend 2R2"),
    ("pl2", "done"),
    # Red, round 1
    ("gm", "recon R11 18,2"),
    ("gm", "move R11 20,4"),
    ("gm", "move R12 19,3"),
    ("gm", "move R13 16,10"),
    ("gm", "attack R14 1R3 from 20,4"),
    ("gm", "attack R15 1R3 from 18,9"),
    ("gm", "done"),
    ("gm", "fire R14 1R3"),
    # Blue, round 2
    ("co", "defend KP"),
    ("co", "attack KRH R13 from 11,14"),
    ("co", "done"),
    ("pl1", "defend 1JJ"),
    ("pl1", "defend 1R1"),
    ("pl1", "defend 1R2"),
    ("pl1", "defend 1R3"),
    ("pl1", "done"),
    ("pl2", "attack 2R2 R13 from 9,8"),
    ("pl2", "attack 2R1 R13 from 11,11"),
    ("pl2", "attack 2PST R13 from 11,12"),
    ("pl2", "defend 2JJ"),
    ("pl2", "done"),
    ("co", "fire KP R13"),
    ("pl1", "fire 1R1 R15"),
]
SNAPSHOTS = (0, 15, 23, len(SCRIPT))
"""Views are taken before any order, after Blue's first turn, after Red's first turn and
at the end of the script."""


def _snapshots(viewer: str) -> dict[str, Any]:
    state = new_game(load_scenario("demo"), SEED)
    shots: list[dict[str, Any]] = []
    if 0 in SNAPSHOTS:
        shots.append({"after_orders": 0, "view": view_for(state, viewer)})
    for i, (seat, text) in enumerate(SCRIPT, start=1):
        state, _ = apply(state, seat, parse_order(text))
        if i in SNAPSHOTS:
            shots.append({"after_orders": i, "view": view_for(state, viewer)})
    return {"scenario": "demo", "seed": SEED, "viewer": viewer, "snapshots": shots}


@pytest.mark.parametrize("viewer", ["blue", "red", "gm"])
def test_r_rec_5_golden_views_demo(viewer: str) -> None:
    got = json.loads(json.dumps(_snapshots(viewer), ensure_ascii=False))
    path = HERE / f"demo_s{SEED}_{viewer}.json"
    if os.environ.get("TK20_UPDATE_GOLDEN") == "1":
        path.write_text(json.dumps(got, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    expected = json.loads(path.read_text(encoding="utf-8"))
    assert got == expected, f"{path.name} differs: regenerate with TK20_UPDATE_GOLDEN=1"
