"""What a game gives away after its end: the reveal (seed + orders) and the game file
export that ``tk20 replay`` and ``tk20 verify`` read."""

from __future__ import annotations

import json
from typing import Any

from taistelukentta.dice.roller import seed_text
from taistelukentta.server.games import COMMITMENT_SCHEME, Game
from taistelukentta.storage.gamefile import GameRecord, OrderEntry


def effective_orders(game: Game) -> list[OrderEntry]:
    """The orders in force (undone ones left out), oldest first."""
    by_seq = {e.seq: e for e in game.entries}
    return [OrderEntry(by_seq[q].seat, by_seq[q].notation or "") for q in game.effective]


def reveal_of(game: Game) -> dict[str, Any]:
    """The seed, its commitment and every order in force."""
    return {
        "id": game.id,
        "scenario": game.scenario_ref,
        "options": game.options,
        "seed": seed_text(game.seed),
        "seed_commitment": game.commitment,
        "commitment_scheme": COMMITMENT_SCHEME,
        "orders": [{"seat": o.seat, "order": o.order} for o in effective_orders(game)],
        "state_hash": game.state.state_hash(),
    }


def export_text(game: Game) -> str:
    """The game as a tk20 game file (JSON), plus the commitment and the game's id."""
    record = GameRecord(
        scenario=game.scenario_file or game.scenario_ref,
        seed=game.seed,
        orders=effective_orders(game),
        state=game.state.to_dict(),
        state_hash=game.state.state_hash(),
        options=dict(game.options),
        overlay=dict(game.overlay) if game.overlay is not None else None,
    )
    doc = json.loads(record.to_json())
    doc["seed_commitment"] = game.commitment
    doc["commitment_scheme"] = COMMITMENT_SCHEME
    doc["server_game"] = game.id
    return json.dumps(doc, ensure_ascii=False, indent=1) + "\n"
