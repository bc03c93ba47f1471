"""Game files: scenario + seed + orders (+ the resulting state), written atomically.

A game file is JSON. It records everything needed to replay the game exactly — the scenario
(bundled id or path), the dice scheme and seed and every order in notation with the seat that
gave it — plus the saved state and its hash so ``tk20 replay`` can prove the replay arrives at
the same place. The file is the game master's: it holds the secret seed.

Dice schemes (``"dice"``): ``"hmac-sha256"`` with ``"seed"`` as 64 hex digits (every new
game); absent or ``"mt19937"`` with an integer ``"seed"`` (games made before, which replay
exactly as they did).

Reading validates the whole file (:mod:`taistelukentta.storage.schema`) and checks the event
log against its own hash (``log_hash``). Writes hold a lock on the game (:func:`game_lock`),
may check that the file is still the one the writer read (a stale writer gets an error, never
a lost order), go to a temporary file in the same folder, are flushed to disk, renamed over
the old file (keeping its mode) and the folder is flushed too: an interrupted write never
leaves a half-written game, and the next save removes a killed save's temporary file.
"""

from __future__ import annotations

import fcntl
import glob
import hashlib
import json
import os
import stat
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from taistelukentta.dice.roller import HMAC_SCHEME, LEGACY_SCHEME, SEED_BYTES, Seed
from taistelukentta.errors import DataError, TkError
from taistelukentta.storage.schema import (
    MAX_FILE_BYTES,
    JsonProblem,
    check_game_document,
    parse_json,
)

FORMAT = "tk20-game"
VERSION = 1
SEALED_FORMAT = "tk20-sealed-game"
"""A server game's export made before its end (``/export`` for the GM): everything but
the seed, which is secret until the end (``taistelukentta.server.verify``)."""
SEALED_PROBLEM = (
    "format: a sealed export (a server game exported before its end) holds no dice seed, "
    "so it cannot be played on; `tk20 replay FILE` checks it against its logged dice, and "
    "after the end `tk20 verify FILE --seed SEED` checks the dice against the commitment"
)


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
    options: dict[str, Any] = field(default_factory=dict)
    """Rule options the game was started with on top of the scenario's (a server game's
    ``options``); written only when there are some."""
    overlay: dict[str, Any] | None = None
    """A campaign battle's roster overlay (``"blue_overlay"``, issue 12): the campaign's
    units in the scenario's Blue slots, applied whenever the scenario is loaded for this
    game (replay, verify, open) exactly as the battle did."""

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
            "log_hash": log_hash(self.state),
            "state": self.state,
        }
        if self.options:
            doc["options"] = self.options
        if self.overlay is not None:
            doc["blue_overlay"] = self.overlay
        return json.dumps(doc, ensure_ascii=False, indent=1) + "\n"


def log_hash(state: dict[str, Any] | None) -> str | None:
    """sha256 of the canonical JSON of a saved state's event log (None without a state).

    The engine's :meth:`GameState.state_hash` leaves the log out (``event_count`` and the
    dice state pin where the game stands); the file keeps this second hash so that an edited
    log — a changed die, a redacted copy made to show more — is caught on opening too."""
    if state is None:
        return None
    text = json.dumps(state.get("events", []), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def parse_game(text: str, source: str) -> GameRecord:
    """Parse and validate a game file's text in full (:mod:`~taistelukentta.storage.schema`);
    any problem becomes a DataError naming ``source`` and where in it."""
    try:
        doc = parse_json(text)
    except JsonProblem as exc:
        raise DataError(source, [str(exc)]) from None
    if isinstance(doc, dict) and doc.get("format") == SEALED_FORMAT:
        raise DataError(source, [SEALED_PROBLEM])
    problems = check_game_document(doc)
    if problems:
        raise DataError(source, problems)
    assert isinstance(doc, dict)
    dice = doc.get("dice", LEGACY_SCHEME)
    raw_seed = doc.get("seed")
    seed: Seed | None = None
    if dice == HMAC_SCHEME:
        try:
            seed = bytes.fromhex(raw_seed) if isinstance(raw_seed, str) else None
        except ValueError:
            seed = None
        if seed is None or len(seed) != SEED_BYTES:
            raise DataError(
                source, [f"seed: expected {2 * SEED_BYTES} hex digits (dice {HMAC_SCHEME!r})"]
            )
    elif isinstance(raw_seed, int):
        seed = raw_seed
    else:
        raise DataError(source, [f"seed: expected an integer (dice {LEGACY_SCHEME!r})"])
    orders = [OrderEntry(o["seat"], o["order"]) for o in doc.get("orders", [])]
    state = doc.get("state")
    recorded_log = doc.get("log_hash")
    if state is not None and recorded_log is not None and recorded_log != log_hash(state):
        raise DataError(
            source,
            [
                "state.events: the event log does not match its hash (log_hash; the file "
                "was edited?); `tk20 replay` checks the orders"
            ],
        )
    options = doc.get("options") or {}
    if not isinstance(options, dict) or not all(
        isinstance(v, bool | int | float | str) for v in options.values()
    ):
        raise DataError(source, ["options: expected an object of rule options"])
    overlay = doc.get("blue_overlay")
    return GameRecord(
        doc["scenario"],
        seed,
        orders,
        state,
        doc.get("state_hash"),
        doc.get("human"),
        options,
        dict(overlay) if isinstance(overlay, dict) else None,
    )


def read_sealed(path: Path | str) -> dict[str, Any] | None:
    """The document at ``path`` if it is a sealed export, else None: read it as a game
    file (which names the problem of a file that is unreadable or no JSON)."""
    p = Path(path)
    try:
        if p.stat().st_size > MAX_FILE_BYTES:
            return None  # too large for a game file: load_game says so
    except OSError:
        return None  # load_game names the problem
    try:
        text = p.read_text(encoding="utf-8")
        if SEALED_FORMAT not in text:
            return None
        doc = parse_json(text)
    except (JsonProblem, OSError, UnicodeDecodeError):
        return None
    if isinstance(doc, dict) and doc.get("format") == SEALED_FORMAT:
        return doc
    return None


def load_game(path: Path | str) -> GameRecord:
    """Read a game file."""
    return load_game_versioned(path)[0]


def load_game_versioned(path: Path | str) -> tuple[GameRecord, str]:
    """Read a game file: its record and its :func:`file_version` (of the same bytes)."""
    p = Path(path)
    try:
        with p.open("rb") as fh:
            data = fh.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        raise DataError(str(p), ["file not found"]) from None
    except OSError as exc:
        raise DataError(str(p), [f"cannot read file: {exc.strerror or exc}"]) from None
    if len(data) > MAX_FILE_BYTES:
        raise DataError(str(p), [f"the file is larger than {MAX_FILE_BYTES} bytes"])
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DataError(str(p), [f"cannot read file: not UTF-8 text (byte {exc.start})"]) from None
    return parse_game(text, str(p)), hashlib.sha256(data).hexdigest()


def file_version(path: Path) -> str | None:
    """What a writer checks under the lock: sha256 of the file's bytes (None: no file)."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except FileNotFoundError:
        return None


class StaleGameError(TkError):
    """The game file changed on disk after it was read: the write would lose an order."""


@contextmanager
def game_lock(path: Path | str) -> Iterator[None]:
    """Hold an exclusive lock for the game file ``path`` (``flock`` on its folder).

    Every writer of a game file reads, checks and writes it under this lock, so two
    commands giving orders to one game at once run one after the other. The folder is
    locked (not the file, which each save replaces by a rename) and no lock file is left
    behind."""
    folder = Path(path).parent
    folder.mkdir(parents=True, exist_ok=True)
    key = str(folder.resolve())
    with _HELD_GUARD:
        held = _HELD.get(key)
    if held is not None and held[0] == threading.get_ident():
        yield  # this thread holds it already (re-entered)
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        with _HELD_GUARD:
            _HELD[key] = (threading.get_ident(), fd)
        try:
            yield
        finally:
            with _HELD_GUARD:
                del _HELD[key]
    finally:
        os.close(fd)  # closing the descriptor releases the lock


_HELD: dict[str, tuple[int, int]] = {}
"""Folders this process holds the game lock of: thread id and descriptor (re-entry)."""
_HELD_GUARD = threading.Lock()


def _clean_temps(p: Path) -> None:
    """Remove temp files earlier saves of ``p`` left (a killed process); call under the lock."""
    for stale in p.parent.glob(f".{glob.escape(p.name)}.*.tmp"):
        stale.unlink(missing_ok=True)


def _new_file_mode() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def save_game(path: Path | str, record: GameRecord, *, expect: str | bool | None = False) -> str:
    """Write a game file atomically and durably: under :func:`game_lock`, a temp file in
    the same folder (mode of the old file kept), fsync, rename, fsync of the folder.

    ``expect``: the :func:`file_version` the caller read the file at (None = it did not
    exist); if the file on disk is now another, nothing is written and StaleGameError is
    raised. ``False`` (default) skips the check — for callers already holding the lock.
    Returns the new file version."""
    p = Path(path)
    with game_lock(p):
        if expect is not False:
            now = file_version(p)
            if now != expect:
                raise StaleGameError(
                    f"{p}: the game was changed by another command since it was read "
                    "(order not saved; open the game again and repeat the order)",
                    f"{p}: peliä on muutettu toisella komennolla sen lukemisen jälkeen "
                    "(käskyä ei tallennettu; avaa peli uudelleen ja toista käsky)",
                )
        return _write(p, record)


def _write(p: Path, record: GameRecord) -> str:
    folder = p.parent
    _clean_temps(p)
    try:
        mode = stat.S_IMODE(p.stat().st_mode)
    except FileNotFoundError:
        mode = _new_file_mode()
    data = record.to_json().encode("utf-8")
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fchmod(fh.fileno(), mode)
            os.fsync(fh.fileno())
        os.replace(tmp, p)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    dir_fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)
    return hashlib.sha256(data).hexdigest()
