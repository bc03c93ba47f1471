"""``tk20 verify EXPORT``: check a finished game's export — the revealed seed matches the
commitment published at the start, and replaying the orders from that seed rolls every die
exactly as the game's log recorded and arrives at the recorded state.

A *sealed* export (made before the end, no seed): :func:`replay_sealed` replays it from its
own logged dice (``tk20 replay``: the orders and those dice give its log and state), and
with the seed revealed after the end checks every logged roll against the seed's stream
(``tk20 verify EXPORT --seed SEED``)."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from taistelukentta.content.loader import read_text
from taistelukentta.content.scenario import Scenario, bundled_ids, load_scenario
from taistelukentta.dice.roller import SEED_BYTES, LoggedRoller, Seed, parse_seed, seed_commitment
from taistelukentta.errors import DataError, TkError
from taistelukentta.rules import Event, GameState, apply, new_game
from taistelukentta.rules.orders import parse_order
from taistelukentta.server.games import COMMITMENT_SCHEME, StoreError, scenario_for
from taistelukentta.storage.gamefile import log_hash, parse_game, read_sealed


def _rolls(events: Iterable[Event]) -> list[dict[str, Any]]:
    """Every roll record of the events' (GM) data, nested ones too (a recon's results)."""
    return _logged_rolls([{"data": ev.data} for ev in events])


def _scenario(ref: str, options: dict[str, Any], overlay: Any, source: str) -> Scenario:
    if overlay is not None and not isinstance(overlay, dict):
        raise DataError(source, ["blue_overlay: expected an object"])
    if ref in bundled_ids():
        try:
            return scenario_for(ref, options, overlay=overlay)
        except StoreError as exc:
            raise DataError(source, [exc.en]) from None
    return load_scenario(ref, options, overlay)


def _check_sealed(doc: dict[str, Any], source: str) -> list[str]:
    """The shape of a sealed export: every problem, naming the key."""
    problems: list[str] = []
    if doc.get("version") != 1:
        problems.append(f"version: expected 1, got {doc.get('version')!r}")
    if not isinstance(doc.get("scenario"), str):
        problems.append("scenario: expected a scenario id or path")
    commitment = doc.get("seed_commitment")
    if not (
        isinstance(commitment, str)
        and len(commitment) == 64
        and all(c in "0123456789abcdef" for c in commitment)
    ):
        problems.append("seed_commitment: expected 64 lowercase hex digits")
    if doc.get("commitment_scheme", COMMITMENT_SCHEME) != COMMITMENT_SCHEME:
        problems.append(f"commitment_scheme: unknown scheme {doc.get('commitment_scheme')!r}")
    if "seed" in doc or "seed" in (doc.get("state") or {}):
        problems.append("seed: a sealed export holds no seed")
    orders = doc.get("orders")
    if not isinstance(orders, list) or not all(
        isinstance(o, dict) and isinstance(o.get("seat"), str) and isinstance(o.get("order"), str)
        for o in orders
    ):
        problems.append('orders: expected a list of {"seat", "order"}')
    options = doc.get("options", {})
    if not isinstance(options, dict) or not all(
        isinstance(v, bool | int | float | str) for v in options.values()
    ):
        problems.append("options: expected an object of rule options")
    state = doc.get("state")
    if not isinstance(state, dict) or not isinstance(state.get("events"), list):
        problems.append("state.events: expected the saved state with its event log")
    elif doc.get("log_hash") != log_hash(state):
        problems.append("state.events: the event log does not match its hash (log_hash)")
    return problems


_ROLL_KEYS = frozenset({"seq", "purpose", "expr", "dice", "kept", "modifier", "total"})


def _walk_rolls(value: Any, out: dict[int, dict[str, Any]]) -> None:
    if isinstance(value, dict):
        if value.keys() >= _ROLL_KEYS and isinstance(value["seq"], int):
            out.setdefault(value["seq"], value)
            return
        for v in value.values():
            _walk_rolls(v, out)
    elif isinstance(value, list | tuple):
        for v in value:
            _walk_rolls(v, out)


def _logged_rolls(events: list[Any]) -> list[dict[str, Any]]:
    """Every roll record in the events' (GM) data, wherever it sits (``rolls``, a recon's
    ``results``…), once each, in the order rolled."""
    found: dict[int, dict[str, Any]] = {}
    for ev in events:
        if isinstance(ev, dict):
            _walk_rolls(ev.get("data"), found)
    return [found[k] for k in sorted(found)]


def replay_sealed(doc: dict[str, Any], source: str, seed: Seed | None = None) -> dict[str, Any]:
    """Replay a sealed export: ``{"ok", "sealed", "dice_checked", "problems", "orders",
    "rolls"}``.

    Without ``seed`` the dice are the export's own logged rolls (:class:`LoggedRoller`):
    the orders, replayed by the rules with them, must ask for exactly those rolls and give
    the logged events and the saved state — the backup is whole, but whether the dice are
    the committed stream cannot be known yet. With ``seed`` (revealed after the end) its
    SHA-256 must be the commitment and the seed's own stream must give every logged roll.
    DataError if the document is not a sealed export."""
    from taistelukentta.server.export import sealed_state

    problems = _check_sealed(doc, source)
    if problems:
        raise DataError(source, problems)
    commitment = str(doc["seed_commitment"])
    if seed is not None and (not isinstance(seed, bytes) or seed_commitment(seed) != commitment):
        problems.append("seed: its SHA-256 is not the export's seed_commitment")
    saved: dict[str, Any] = doc["state"]
    logged = _logged_rolls(saved["events"])
    scenario = _scenario(
        str(doc["scenario"]), dict(doc.get("options") or {}), doc.get("blue_overlay"), source
    )
    orders = doc["orders"]
    if not problems:
        if seed is None:
            state = new_game(scenario, bytes(SEED_BYTES))
            state = dataclasses.replace(state, roller=LoggedRoller(tuple(logged)).getstate())
        else:
            state = new_game(scenario, seed)
        for i, entry in enumerate(orders):
            try:
                state, _ = apply(state, entry["seat"], parse_order(entry["order"]))
            except TkError as exc:
                problems.append(
                    f"orders[{i}] ({entry['seat']}: {entry['order']!r}): {exc.message('en')}"
                )
                break
        else:
            replayed = sealed_state(state.to_dict())
            events = replayed.pop("events")
            if events and events[0].get("kind") == "game_started" and seed is None:
                # started without the seed: its commitment (every copy) is the export's
                dummy = str(seed_commitment(bytes(SEED_BYTES)))
                events[0] = json.loads(json.dumps(events[0]).replace(dummy, commitment))
            if _logged_rolls(events) != logged:
                problems.append("rolls: the replayed rolls differ from the logged ones")
            elif events != saved["events"]:
                at = next(
                    (
                        i
                        for i, (a, b) in enumerate(zip(events, saved["events"], strict=False))
                        if a != b
                    ),
                    min(len(events), len(saved["events"])),
                )
                problems.append(f"state.events[{at}]: the replayed event log differs")
            rest = {k: v for k, v in saved.items() if k != "events"}
            if not problems and replayed != rest:
                keys = sorted(
                    k for k in set(replayed) | set(rest) if replayed.get(k) != rest.get(k)
                )
                problems.append(f"state: the replayed state differs ({', '.join(keys)})")
    return {
        "ok": not problems,
        "sealed": True,
        "dice_checked": seed is not None and not problems,
        "problems": problems,
        "orders": len(orders),
        "rolls": len(logged),
        "options": dict(doc.get("options") or {}),
        "seed_commitment": commitment,
    }


def verify_export(path: Path | str, seed: str | None = None) -> dict[str, Any]:
    """``{"ok", "problems", "orders", "rolls", "state_hash"}`` for the export at ``path``;
    a sealed export (made before the end) needs ``seed``, the seed ``/reveal`` gives after
    the end, to check its dice (:func:`replay_sealed`).

    DataError if the file is not a game export at all."""
    p = Path(path)
    given = parse_seed(seed) if seed is not None else None
    sealed = read_sealed(p)
    if sealed is not None:
        if given is None:
            return {
                "ok": False,
                "sealed": True,
                "dice_checked": False,
                "problems": [
                    "seed: a sealed export (made before the end) holds no seed; after the end "
                    "give the revealed seed with --seed (the game's /reveal shows it)"
                ],
                "orders": len(sealed.get("orders") or []),
                "rolls": 0,
            }
        return replay_sealed(sealed, str(p), given)
    text = read_text(p)
    record = parse_game(text, str(p))
    doc = json.loads(text)
    problems: list[str] = []
    if given is not None and given != record.seed:
        problems.append("seed: the given seed is not the export's seed")
    commitment = doc.get("seed_commitment")
    scheme = doc.get("commitment_scheme", COMMITMENT_SCHEME)
    if not isinstance(commitment, str):
        problems.append("seed_commitment: missing (not a server export?)")
    elif scheme != COMMITMENT_SCHEME:
        problems.append(f"commitment_scheme: unknown scheme {scheme!r}")
    elif seed_commitment(record.seed) != commitment:
        problems.append("seed_commitment: the seed does not match the published commitment")
    scenario = _scenario(record.scenario, record.options, record.overlay, str(p))
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
