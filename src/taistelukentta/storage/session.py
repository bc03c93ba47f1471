"""A game on disk: create, open, replay and advance a game file (the I/O around the engine).

Every change is saved at once and atomically (:func:`~taistelukentta.storage.gamefile.save_game`):
a new order is applied to the state in memory first and the file is written only when the
order was legal, so an illegal or unparsable order leaves the file byte-for-byte as it was.

Opening a game uses the saved state (fast) after checking it against its recorded hash;
:func:`replay_record` rebuilds the state from scenario + seed + orders alone.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from taistelukentta.content.scenario import Scenario, bundled_ids, load_scenario
from taistelukentta.dice.roller import Seed
from taistelukentta.errors import ArgumentError, DataError, TkError
from taistelukentta.rules import Event, GameState, Order, apply, format_order, new_game
from taistelukentta.rules.orders import parse_order
from taistelukentta.storage.gamefile import (
    GameRecord,
    OrderEntry,
    file_version,
    game_lock,
    load_game_versioned,
    save_game,
)


@dataclass
class GameSession:
    """An open game: its file, record, scenario and current state."""

    path: Path
    record: GameRecord
    scenario: Scenario
    state: GameState
    version: str | None = None
    """The file's :func:`~taistelukentta.storage.gamefile.file_version` when read or last
    written; a save checks it under the lock (a stale session gets StaleGameError)."""

    def give(self, seat: str, order: Order | str) -> list[Event]:
        """Apply one order of ``seat`` (an Order or notation), record it and save.

        InvalidOrderError / IllegalOrderError leave the session and the file unchanged."""
        parsed = parse_order(order) if isinstance(order, str) else order
        state, events = apply(self.state, seat, parsed)
        self.state = state
        self.record.orders.append(OrderEntry(seat, format_order(parsed)))
        self.save()
        return events

    def extend(self, played: Iterable[tuple[str, Order]]) -> None:
        """Record orders already applied to :attr:`state` (e.g. a bot's turn) and save."""
        for seat, order in played:
            self.record.orders.append(OrderEntry(seat, format_order(order)))
        self.save()

    def save(self) -> None:
        """Write the record with the current state and its hash (atomically)."""
        self.record.state = self.state.to_dict()
        self.record.state_hash = self.state.state_hash()
        self.version = save_game(self.path, self.record, expect=self.version)


def scenario_ref(name_or_path: str) -> str:
    """How a game file names its scenario: a bundled id as is, a file by absolute path."""
    if name_or_path in bundled_ids():
        return name_or_path
    return str(Path(name_or_path).resolve())


def default_game_path(scenario: Scenario) -> Path:
    """``games/<scenario>-<8 random hex digits>.json`` under the current folder. The name
    has nothing to do with the seed (a file name is seen by whoever sees the folder)."""
    return Path("games") / f"{scenario.id}-{secrets.token_hex(4)}.json"


def create_game(
    scenario_name: str,
    seed: Seed,
    path: Path | None = None,
    *,
    human: str | None = None,
    overwrite: bool = False,
) -> GameSession:
    """A new game file for ``scenario_name`` (bundled id or path) and ``seed``, saved."""
    scenario = load_scenario(scenario_name)
    target = path
    if target is None:
        target = default_game_path(scenario)
        while target.exists():
            target = default_game_path(scenario)
    if target.exists() and not overwrite:
        raise ArgumentError(
            f"{target} already exists (choose another --out or remove it)",
            f"{target} on jo olemassa (valitse toinen --out tai poista tiedosto)",
        )
    record = GameRecord(scenario_ref(scenario_name), seed, human=human)
    session = GameSession(target, record, scenario, new_game(scenario, seed))
    with game_lock(target):
        session.version = file_version(target)
        if session.version is not None and not overwrite:
            raise ArgumentError(
                f"{target} already exists (choose another --out or remove it)",
                f"{target} on jo olemassa (valitse toinen --out tai poista tiedosto)",
            )
        session.save()
    return session


def replay_record(record: GameRecord, source: str) -> tuple[Scenario, GameState]:
    """Rebuild the state from the record's scenario, seed and orders alone.

    A recorded order that no longer parses or is illegal becomes a DataError naming its
    index, seat and text."""
    scenario = load_scenario(record.scenario, record.options, record.overlay)
    state = new_game(scenario, record.seed)
    for i, entry in enumerate(record.orders):
        try:
            state, _ = apply(state, entry.seat, parse_order(entry.order))
        except TkError as exc:
            raise DataError(
                source, [f"orders[{i}] ({entry.seat}: {entry.order!r}): {exc.message('en')}"]
            ) from None
    return scenario, state


def saved_state(record: GameRecord, scenario: Scenario, source: str) -> GameState:
    """The record's saved state, checked against its recorded hash."""
    if record.state is None:
        raise DataError(source, ["state: no saved state (run `tk20 replay` to rebuild it)"])
    state = GameState.from_dict(record.state, scenario)
    problems = state_problems(state, scenario)
    if problems:
        raise DataError(source, problems)
    if record.state_hash != state.state_hash():
        raise DataError(
            source,
            [
                "state_hash: the saved state does not match its hash (the file was edited?); "
                "`tk20 replay` checks the orders"
            ],
        )
    return state


def state_problems(state: GameState, scenario: Scenario) -> list[str]:
    """What in a saved state cannot belong to ``scenario`` (units, cells, seats), one line
    each naming where; empty when it fits."""
    placed = {
        u.id: (u.card, seat.id, "blue") for seat in scenario.blue.seats for u in seat.units
    } | {u.id: (u.card, bg.id, "red") for bg in scenario.red.battle_groups for u in bg.units}
    problems: list[str] = []
    for i, unit in enumerate(state.units.values()):
        where = f"state.units[{i}] ({unit.id})"
        start = placed.get(unit.id)
        if start is None:
            problems.append(f"{where}: no such unit in scenario {scenario.id!r}")
            continue
        if unit.card not in scenario.cards or unit.side != start[2]:
            problems.append(f"{where}: card/side differ from the scenario's")
        if state.side_of_seat(unit.seat) != unit.side:
            problems.append(f"{where}.seat: {unit.seat!r} is not a seat of its side")
        if not scenario.map.in_bounds(unit.cell):
            problems.append(f"{where}.cell: {unit.cell[0]},{unit.cell[1]} is off the map")
        if unit.strength > unit.max_strength:
            problems.append(f"{where}.strength: more than its maximum")
    for side in ("blue", "red"):
        for uid, contact in state.contacts[side].items():
            if uid not in placed:
                problems.append(f"state.contacts.{side}.{uid}: no such unit")
            if contact.cell is not None and not scenario.map.in_bounds(contact.cell):
                problems.append(f"state.contacts.{side}.{uid}.cell: off the map")
    for seat in state.kp:
        if seat != "company" and state.side_of_seat(seat) is None:
            problems.append(f"state.kp.{seat}: no such seat")
    for seat in state.done:
        if state.side_of_seat(seat) is None:
            problems.append(f"state.done: no such seat {seat!r}")
    return problems


def read_game(path: Path | str) -> tuple[GameRecord, str]:
    """A game file's record and its version (read once: the version is of these bytes)."""
    return load_game_versioned(path)


def open_game(path: Path | str) -> GameSession:
    """Open a game file: its saved state (checked), or a replay when it has none."""
    p = Path(path)
    record, version = read_game(p)
    if record.state is None:
        scenario, state = replay_record(record, str(p))
    else:
        scenario = load_scenario(record.scenario, record.options, record.overlay)
        state = saved_state(record, scenario, str(p))
    return GameSession(p, record, scenario, state, version)


@contextmanager
def locked_game(path: Path | str) -> Iterator[GameSession]:
    """Open a game under its lock and keep the lock until the block ends: commands that
    read, change and save a game (``tk20 order``) run one after another, never losing an
    order to a writer that read the file before them."""
    with game_lock(path):
        yield open_game(path)


def _first_difference(a: object, b: object, where: str) -> str | None:
    """The path of the first place two JSON values differ (None when equal)."""
    if type(a) is not type(b):
        return where
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b), key=str):
            if key not in a or key not in b:
                return f"{where}.{key}"
            found = _first_difference(a[key], b[key], f"{where}.{key}")
            if found is not None:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list):
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            found = _first_difference(x, y, f"{where}[{i}]")
            if found is not None:
                return found
        return None if len(a) == len(b) else f"{where} (length)"
    return None if a == b else where


def log_difference(record: GameRecord, replayed: GameState) -> str | None:
    """Where the saved event log first differs from the one the replay produced, as a
    path into the file (``state.events[41].data.rolls[0].dice[0]``); None when the same.

    The log is what each side was told (dice included): a replay that reaches the same
    state by the same orders must tell the same story, event by event."""
    if record.state is None:
        return None
    saved = record.state.get("events", [])
    fresh = [e.to_dict() for e in replayed.events]
    for i, (mine, theirs) in enumerate(zip(saved, fresh, strict=False)):
        where = _first_difference(mine, theirs, f"state.events[{i}]")
        if where is not None:
            return where
    if len(saved) != len(fresh):
        return "state.events (length)"
    return None
