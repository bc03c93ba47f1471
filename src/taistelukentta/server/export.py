"""What a game gives away: after its end the reveal (seed + orders) and the game file
export that ``tk20 replay`` and ``tk20 verify`` read; before its end, to the GM only, the
*sealed* export — the same without the seed (docs/server.md, "Fair dice")."""

from __future__ import annotations

import json
from typing import Any

from taistelukentta.dice.roller import HMAC_SCHEME, HMAC_STATE_VERSION, seed_text
from taistelukentta.server.games import COMMITMENT_SCHEME, Game
from taistelukentta.storage.gamefile import SEALED_FORMAT, GameRecord, OrderEntry, log_hash


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


SEALED_VERSION = 1


def sealed_state(state: dict[str, Any]) -> dict[str, Any]:
    """A saved state (``GameState.to_dict``) without the seed: no ``seed``, and of the
    dice state only how many rolls were made (not the seed, not the stream position)."""
    out = {k: v for k, v in state.items() if k != "seed"}
    roller = state.get("roller") or {}
    out["roller"] = {
        "version": HMAC_STATE_VERSION,
        "scheme": HMAC_SCHEME,
        "seq": int(roller.get("seq", 0)),
    }
    return out


def sealed_export_text(game: Game) -> str:
    """The game before its end, for the GM (a backup to check and keep): scenario, rule
    options, every order in force, the saved state and its event log with every roll —
    everything but the seed, which nobody may learn before the end (the dice would be
    predictable). ``tk20 replay`` replays it from the logged dice; after the end ``tk20
    verify FILE --seed SEED`` (the seed from ``/reveal``) checks every logged roll against
    the commitment. It cannot be played on: whoever held the seed could read every later
    roll."""
    state = sealed_state(game.state.to_dict())
    doc: dict[str, Any] = {
        "format": SEALED_FORMAT,
        "version": SEALED_VERSION,
        "scenario": game.scenario_file or game.scenario_ref,
        "dice": HMAC_SCHEME,
        "seed_commitment": game.commitment,
        "commitment_scheme": COMMITMENT_SCHEME,
        "server_game": game.id,
        "orders": [{"seat": o.seat, "order": o.order} for o in effective_orders(game)],
        "log_hash": log_hash(state),
        "state": state,
    }
    if game.options:
        doc["options"] = dict(game.options)
    if game.overlay is not None:
        doc["blue_overlay"] = game.overlay
    return json.dumps(doc, ensure_ascii=False, indent=1) + "\n"
