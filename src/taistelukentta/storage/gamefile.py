"""Game files: scenario + seed + orders (+ the resulting state), written atomically.

A game file is JSON. It records everything needed to replay the game exactly — the scenario
(bundled id or path), the dice scheme and seed and every order in notation with the seat that
gave it — plus the saved state and its hash so ``tk20 replay`` can prove the replay arrives at
the same place. The file is the game master's: it holds the secret seed.

Dice schemes (``"dice"``): ``"hmac-sha256"`` with ``"seed"`` as 64 hex digits (every new
game); absent or ``"mt19937"`` with an integer ``"seed"`` (games made before, which replay
exactly as they did).
Writes go to a temporary file in the same folder, are flushed to disk and then renamed over
the old file, so an interrupted write never leaves a half-written game.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from taistelukentta.content.loader import read_text
from taistelukentta.dice.roller import HMAC_SCHEME, LEGACY_SCHEME, SEED_BYTES, Seed
from taistelukentta.errors import DataError

FORMAT = "tk20-game"
VERSION = 1


@dataclass(frozen=True)
class OrderEntry:
    """One order as given: the seat and the order in notation."""

    seat: str
    order: str


@dataclass
class GameRecord:
    """What a game file holds."""

    scenario: str
    seed: Seed
    """32 bytes (HMAC-SHA-256 dice) or a legacy integer (Mersenne Twister)."""
    orders: list[OrderEntry] = field(default_factory=list)
    state: dict[str, Any] | None = None
    state_hash: str | None = None
    human: str | None = None
    """``tk20 play``: the side the human plays (``"blue"``/``"red"``); the computer plays
    the other. None for games driven order by order (``tk20 order``)."""

    def to_json(self) -> str:
        """The file's text (stable key order, UTF-8 friendly)."""
        doc = {
            "format": FORMAT,
            "version": VERSION,
            "scenario": self.scenario,
            **(
                {"dice": HMAC_SCHEME, "seed": self.seed.hex()}
                if isinstance(self.seed, bytes)
                else {"seed": self.seed}
            ),
            "human": self.human,
            "orders": [{"seat": o.seat, "order": o.order} for o in self.orders],
            "state_hash": self.state_hash,
            "state": self.state,
        }
        return json.dumps(doc, ensure_ascii=False, indent=1) + "\n"


def parse_game(text: str, source: str) -> GameRecord:
    """Parse a game file's text; any problem becomes a DataError naming ``source``."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DataError(source, [f"not valid JSON: {exc}"]) from None
    problems: list[str] = []
    if not isinstance(doc, dict):
        raise DataError(source, ["(top level): expected a JSON object"])
    if doc.get("format") != FORMAT:
        problems.append(f"format: expected {FORMAT!r}, got {doc.get('format')!r}")
    if doc.get("version") != VERSION:
        problems.append(f"version: expected {VERSION}, got {doc.get('version')!r}")
    scenario = doc.get("scenario")
    if not isinstance(scenario, str) or not scenario:
        problems.append("scenario: expected a scenario id or path")
    dice = doc.get("dice", LEGACY_SCHEME)
    raw_seed = doc.get("seed")
    seed: Seed | None = None
    if dice == HMAC_SCHEME:
        try:
            seed = bytes.fromhex(raw_seed) if isinstance(raw_seed, str) else None
        except ValueError:
            seed = None
        if seed is None or len(seed) != SEED_BYTES:
            seed = None
            problems.append(f"seed: expected {2 * SEED_BYTES} hex digits (dice {HMAC_SCHEME!r})")
    elif dice == LEGACY_SCHEME:
        if not isinstance(raw_seed, int) or isinstance(raw_seed, bool):
            problems.append("seed: expected an integer")
        else:
            seed = raw_seed
    else:
        problems.append(f"dice: expected {HMAC_SCHEME!r} or {LEGACY_SCHEME!r}, got {dice!r}")
    orders_raw = doc.get("orders", [])
    orders: list[OrderEntry] = []
    if not isinstance(orders_raw, list):
        problems.append("orders: expected a list")
    else:
        for i, item in enumerate(orders_raw):
            if (
                not isinstance(item, dict)
                or not isinstance(item.get("seat"), str)
                or not isinstance(item.get("order"), str)
            ):
                problems.append(f"orders[{i}]: expected {{'seat': str, 'order': str}}")
                continue
            orders.append(OrderEntry(item["seat"], item["order"]))
    state = doc.get("state")
    if state is not None and not isinstance(state, dict):
        problems.append("state: expected an object or null")
    state_hash = doc.get("state_hash")
    if state_hash is not None and not isinstance(state_hash, str):
        problems.append("state_hash: expected a string or null")
    human = doc.get("human")
    if human is not None and human not in ("blue", "red"):
        problems.append(f"human: expected 'blue', 'red' or null, got {human!r}")
    if problems:
        raise DataError(source, problems)
    assert isinstance(scenario, str) and seed is not None
    return GameRecord(scenario, seed, orders, state, state_hash, human)


def load_game(path: Path | str) -> GameRecord:
    """Read a game file."""
    p = Path(path)
    return parse_game(read_text(p), str(p))


def save_game(path: Path | str, record: GameRecord) -> None:
    """Write a game file atomically (temp file in the same folder, fsync, rename)."""
    p = Path(path)
    folder = p.parent if str(p.parent) else Path(".")
    folder.mkdir(parents=True, exist_ok=True)
    data = record.to_json().encode("utf-8")
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, p)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
