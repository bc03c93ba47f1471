"""Golden per-side views (R-REC-5) of the first turns of ``demo`` with seed 11 and a fixed
order script, for ``blue``, ``red`` and ``gm``.

The script covers issue 4's secrets: Blue's command post walks into Red's road minefield
and finds it (R-MINE-2), clears the mine (R-MINE-3), and Blue orders an organic mortar
strike (R-ORG-1) that is pending for a turn before it lands. The views are pinned while the
strike is pending and after the minefield is found; explicit assertions check who sees what
besides the golden comparison.

The expected JSON lives next to this file (``demo_s11_<viewer>.json``). After an intended
change of the views or the engine, regenerate them with::

    TK20_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/golden

and review the diff before committing.
"""

from __future__ import annotations

import json
import os
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest

from taistelukentta.content.scenario import load_scenario
from taistelukentta.rules import apply, new_game, parse_order
from taistelukentta.views import view_for

HERE = Path(__file__).parent
SEED = 11
SCRIPT: list[tuple[str, str]] = [
    # Blue, round 1 (turn 1)
    ("co", "recon KP 13,9"),
    ("co", "move KP 14,10"),  # stops in the road minefield at 10,11 and finds it (R-MINE-2)
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
    # Blue's fire phase (no target in sight)
    ("pl2", "done"),
    # Red, round 1 (turn 2)
    ("gm", "recon R11 18,2"),
    ("gm", "move R11 20,4"),
    ("gm", "move R12 19,3"),
    ("gm", "move R13 16,10"),
    ("gm", "attack R14 1R3 from 20,4"),
    ("gm", "move R15 18,9"),  # (an attack from there: no line of sight, refused)
    ("gm", "done"),
    ("gm", "fire R14 1R3"),
    # Blue, round 2 (turn 3): an organic mortar strike on R13, observer KP (R-ORG-1)
    ("co", "organic KRH 16,10 by KP"),
    ("co", "clear KP"),  # KP clears the mine it stands on (R-MINE-3)
    ("co", "done"),
    ("pl1", "defend 1R3"),
    ("pl1", "done"),
    ("pl2", "done"),
    # Blue's fire phase: the strike is not due yet (R-ORG-1: delay 1 turn)
    ("co", "done"),
    ("pl1", "done"),
    ("pl2", "done"),
    # Red, round 2 (turn 4)
    ("gm", "defend R13"),
    ("gm", "done"),
    ("gm", "done"),
    # Blue, round 3 (turn 5): the strike lands in the fire phase
    ("co", "done"),
    ("pl1", "done"),
    ("pl2", "done"),
]
MINE_FOUND = 2
STRIKE_ORDERED = 24
STRIKE_PENDING = 32
STRIKE_LANDED = len(SCRIPT)
SNAPSHOTS = (0, MINE_FOUND, STRIKE_ORDERED, STRIKE_PENDING, STRIKE_LANDED)
"""Views are taken before any order, when the minefield has just been found, when the
strike has just been ordered, at Red's turn with the strike still pending, and after it
landed."""
MINED = [10, 11]


@lru_cache(maxsize=4)
def _snapshots(viewer: str) -> dict[str, Any]:
    state = new_game(load_scenario("demo"), SEED)
    shots: list[dict[str, Any]] = []
    if 0 in SNAPSHOTS:
        shots.append({"after_orders": 0, "view": view_for(state, viewer).model_dump(mode="json")})
    for i, (seat, text) in enumerate(SCRIPT, start=1):
        state, _ = apply(state, seat, parse_order(text))
        if i in SNAPSHOTS:
            shots.append(
                {"after_orders": i, "view": view_for(state, viewer).model_dump(mode="json")}
            )
    out: dict[str, Any] = json.loads(
        json.dumps(
            {"scenario": "demo", "seed": SEED, "viewer": viewer, "snapshots": shots},
            ensure_ascii=False,
        )
    )
    return out


def _view(viewer: str, after: int) -> dict[str, Any]:
    for shot in _snapshots(viewer)["snapshots"]:
        if shot["after_orders"] == after:
            view: dict[str, Any] = shot["view"]
            return view
    raise AssertionError(f"no snapshot after {after} orders")


@pytest.mark.parametrize("viewer", ["blue", "red", "gm"])
def test_r_rec_5_golden_views_demo(viewer: str) -> None:
    got = _snapshots(viewer)
    path = HERE / f"demo_s{SEED}_{viewer}.json"
    if os.environ.get("TK20_UPDATE_GOLDEN") == "1":
        path.write_text(json.dumps(got, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    expected = json.loads(path.read_text(encoding="utf-8"))
    assert got == expected, f"{path.name} differs: regenerate with TK20_UPDATE_GOLDEN=1"


def test_r_mine_2_found_minefield_shows_to_the_finder_only() -> None:
    blue = _view("blue", MINE_FOUND)["mines"]
    assert {"cell": MINED, "type": "AP"} in blue["known"]
    assert blue["in_minefield"] == {"KP": MINED}
    red = _view("red", MINE_FOUND)["mines"]
    # Red owns the field, so it knows its cells; it must not learn Blue found one.
    assert red["in_minefield"] == {}
    assert "KP" not in json.dumps(red)
    gm = _view("gm", MINE_FOUND)["mines"]
    assert any(MINED in f["cells"] for f in gm["fields"])
    assert gm["blue"]["in_minefield"] == {"KP": MINED}
    red_log = json.dumps(_view("red", MINE_FOUND)["log"])
    assert "mine_found" not in red_log


def test_r_mine_2_unfound_cells_stay_hidden_from_blue() -> None:
    gm_cells = {tuple(c) for f in _view("gm", MINE_FOUND)["mines"]["fields"] for c in f["cells"]}
    known = {tuple(k["cell"]) for k in _view("blue", MINE_FOUND)["mines"]["known"]}
    assert known and known < gm_cells  # one cell found, not the whole field


@pytest.mark.parametrize("after", [STRIKE_ORDERED, STRIKE_PENDING])
def test_r_org_1_pending_strike_seen_by_its_side_without_delay(after: int) -> None:
    blue = _view("blue", after)["fire_support"]["pending"]
    assert blue == [
        {"id": "s1", "kind": "organic", "unit": "KRH", "observer": "KP", "cell": [16, 10]}
    ]
    for strike in blue:
        assert not {"due", "delay", "delay_die", "requested"} & set(strike)
    red = _view("red", after)
    assert red["fire_support"]["pending"] == []
    assert "strike" not in json.dumps(red["log"])
    gm = _view("gm", after)["fire_support"]["pending"]
    assert len(gm) == 1 and gm[0]["due"] == 5 and gm[0]["requested"] == 3


def test_r_org_1_landed_strike_is_no_longer_pending() -> None:
    for viewer in ("blue", "red", "gm"):
        assert _view(viewer, STRIKE_LANDED)["fire_support"]["pending"] == []
    kinds = [e["kind"] for e in _view("blue", STRIKE_LANDED)["log"]]
    assert "strike_landed" in kinds
    # R13 was SPOTTED and in the impact area: Red is told its cells were hit.
    red_kinds = [e["kind"] for e in _view("red", STRIKE_LANDED)["log"]]
    assert "strike_landed" in red_kinds
