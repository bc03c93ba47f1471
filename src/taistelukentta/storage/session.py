"""A game on disk: create, open, replay and advance a game file (the I/O around the engine).

Every change is saved at once and atomically (:func:`~taistelukentta.storage.gamefile.save_game`):
a new order is applied to the state in memory first and the file is written only when the
order was legal, so an illegal or unparsable order leaves the file byte-for-byte as it was.

Opening a game uses the saved state (fast) after checking it against its recorded hash;
:func:`replay_record` rebuilds the state from scenario + seed + orders alone.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from taistelukentta.content.scenario import Scenario, bundled_ids, load_scenario
from taistelukentta.dice.roller import Seed
from taistelukentta.errors import ArgumentError, DataError, TkError
from taistelukentta.rules import Event, GameState, Order, apply, format_order, new_game
from taistelukentta.rules.orders import parse_order
from taistelukentta.storage.gamefile import GameRecord, OrderEntry, load_game, save_game


@dataclass
class GameSession:
    """An open game: its file, record, scenario and current state."""

    path: Path
    record: GameRecord
    scenario: Scenario
    state: GameState

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
        save_game(self.path, self.record)


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
    session.save()
    return session


def replay_record(record: GameRecord, source: str) -> tuple[Scenario, GameState]:
    """Rebuild the state from the record's scenario, seed and orders alone.

    A recorded order that no longer parses or is illegal becomes a DataError naming its
    index, seat and text."""
    scenario = load_scenario(record.scenario)
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
    if record.state_hash != state.state_hash():
        raise DataError(
            source,
            [
                "state_hash: the saved state does not match its hash (the file was edited?); "
                "`tk20 replay` checks the orders"
            ],
        )
    return state


def open_game(path: Path | str) -> GameSession:
    """Open a game file: its saved state (checked), or a replay when it has none."""
    p = Path(path)
    record = load_game(p)
    if record.state is None:
        scenario, state = replay_record(record, str(p))
    else:
        scenario = load_scenario(record.scenario)
        state = saved_state(record, scenario, str(p))
    return GameSession(p, record, scenario, state)
