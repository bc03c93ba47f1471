"""``tk20 verify EXPORT``: check a finished game's export — the revealed seed matches the
commitment published at the start, and replaying the orders from that seed rolls every die
exactly as the game's log recorded and arrives at the recorded state."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from taistelukentta.content.loader import read_text
from taistelukentta.content.scenario import bundled_ids, load_scenario
from taistelukentta.dice.roller import seed_commitment
from taistelukentta.errors import TkError
from taistelukentta.rules import Event, GameState, apply, new_game
from taistelukentta.rules.orders import parse_order
from taistelukentta.server.games import COMMITMENT_SCHEME, scenario_for
from taistelukentta.storage.gamefile import parse_game


def _rolls(events: Iterable[Event]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for ev in events:
        rolls = ev.data.get("rolls")
        if isinstance(rolls, list):
            out.extend(r for r in rolls if isinstance(r, dict))
    return out


def verify_export(path: Path | str) -> dict[str, Any]:
    """``{"ok", "problems", "orders", "rolls", "state_hash"}`` for the export at ``path``.

    DataError if the file is not a game export at all."""
    p = Path(path)
    text = read_text(p)
    record = parse_game(text, str(p))
    doc = json.loads(text)
    problems: list[str] = []
    commitment = doc.get("seed_commitment")
    scheme = doc.get("commitment_scheme", COMMITMENT_SCHEME)
    if not isinstance(commitment, str):
        problems.append("seed_commitment: missing (not a server export?)")
    elif scheme != COMMITMENT_SCHEME:
        problems.append(f"commitment_scheme: unknown scheme {scheme!r}")
    elif seed_commitment(record.seed) != commitment:
        problems.append("seed_commitment: the seed does not match the published commitment")
    if record.scenario in bundled_ids():
        scenario = scenario_for(record.scenario, record.options, overlay=record.overlay)
    else:
        scenario = load_scenario(record.scenario, record.options, record.overlay)
    state = new_game(scenario, record.seed)
    replayed = list(state.events)
    for i, entry in enumerate(record.orders):
        try:
            state, events = apply(state, entry.seat, parse_order(entry.order))
        except TkError as exc:
            problems.append(f"orders[{i}] ({entry.seat}: {entry.order!r}): {exc.message('en')}")
            break
        replayed.extend(events)
    rolls = _rolls(replayed)
    if record.state is not None:
        recorded = GameState.from_dict(record.state, scenario)
        if _rolls(recorded.events) != rolls:
            problems.append("rolls: the replayed rolls differ from the recorded log")
    if record.state_hash != state.state_hash():
        problems.append("state_hash: the replayed state differs from the recorded one")
    return {
        "ok": not problems,
        "problems": problems,
        "orders": len(record.orders),
        "rolls": len(rolls),
        "state_hash": state.state_hash(),
    }
