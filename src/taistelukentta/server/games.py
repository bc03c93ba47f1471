"""The event-sourced game store: games live in the database as a log of orders; the state
is recomputed from the latest snapshot plus the orders after it.

This module holds no rules: it parses orders and hands them to the engine
(:func:`taistelukentta.rules.apply`), and keeps a per-process cache of each game's state
that it checks against the database's version on every request (another process may have
written). Every write is one database transaction that locks the game row (PostgreSQL
``SELECT … FOR UPDATE``, SQLite ``BEGIN IMMEDIATE``), checks the version, inserts the log
entry and bumps the version; the cache changes only after the commit.

Versions are counted per reader so that a number never tells a side what it did not see:
the GM's version counts every log entry; Blue's counts only the entries Blue has a message
about (its own orders, events it sees, undos).
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar, cast

from sqlalchemy import Engine, Table, bindparam, insert, select, text, update
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from taistelukentta.bots.players import make_bot
from taistelukentta.bots.runner import bot_order
from taistelukentta.content.loader import parse_toml, read_text
from taistelukentta.content.scenario import (
    Scenario,
    bundled_ids,
    scenario_from_data,
    scenarios_dir,
)
from taistelukentta.dice.roller import (
    Seed,
    derive_int,
    fresh_seed,
    parse_seed,
    seed_commitment,
    seed_text,
)
from taistelukentta.errors import TkError
from taistelukentta.rules import (
    GM_SEAT,
    Event,
    GameState,
    apply,
    format_order,
    legal_orders,
    new_game,
    next_seat,
)
from taistelukentta.rules.campaign_battle import apply_overlay
from taistelukentta.rules.orders import Order, parse_order
from taistelukentta.server.db import is_postgres
from taistelukentta.server.models import EntryRow, GameRow, SeatRow, SnapshotRow
from taistelukentta.server.present import (
    dumps,
    event_copies,
    log_entry_json,
    seat_view,
    seat_view_json,
    viewer_of,
)
from taistelukentta.server.settings import Settings

T = TypeVar("T")

NOTIFY_CHANNEL = "tk20_games"
_VERSION_OF = select(GameRow.version).where(GameRow.id == bindparam("id"))
_GAMES = cast(Table, GameRow.__table__)
_ENTRIES = cast(Table, EntryRow.__table__)
COMMITMENT_SCHEME = "sha256"
"""The commitment is the SHA-256 of the 32-byte seed (dice ``hmac-sha256``)."""


class StoreError(Exception):
    """A request the store refuses; ``status`` is the HTTP status, ``code`` a stable id."""

    def __init__(
        self, status: int, code: str, en: str, fi: str, extra: dict[str, Any] | None = None
    ) -> None:
        super().__init__(en)
        self.status = status
        self.code = code
        self.en = en
        self.fi = fi
        self.extra = extra or {}


def _not_found() -> StoreError:
    return StoreError(404, "not_found", "no such game", "peliä ei ole")


def new_seed() -> Seed:
    """A fresh secret dice seed: 256 bits from :mod:`secrets` (HMAC-SHA-256 dice)."""
    return fresh_seed()


def commitment_of(seed: Seed) -> str:
    """The public commitment to ``seed`` (the dice module's SHA-256 of the seed), published
    when the game starts; anyone checks it against the seed revealed at the end
    (``tk20 verify``)."""
    value = seed_commitment(seed)
    if value is None:
        raise ValueError("a server game always has an HMAC-scheme seed")
    return value


def token_hash(token: str) -> str:
    """How a seat's token is stored: its SHA-256 (a token has 192 random bits)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def _now() -> datetime:
    return datetime.now(UTC)


# ------------------------------------------------------------------------------ runtime


@dataclass
class Entry:
    """One log entry as the process keeps it."""

    seq: int
    seat: str
    kind: str
    """``"order"`` or ``"undo"``."""
    notation: str | None
    idem_key: str | None
    events: tuple[Event, ...]
    taken_back: int = 0
    """Undo: how many orders it took back."""
    blue_seen: bool = False
    blue_version: int = 0
    """Blue's version after this entry."""
    copies: dict[str, list[dict[str, Any]]] = field(default_factory=dict, compare=False)
    """Per reader (``gm``/``blue``): its copies of the events, built on first use."""
    messages: dict[str, str] = field(default_factory=dict, compare=False)
    """Per reader: the WebSocket message text, built on first use."""


BUILDS = threading.Lock()
"""One answer build (a view, a legal-order list) at a time in a process. Builds are pure
CPU under the GIL: run side by side, each of them — and the thread writing an order and
the event loop sending its WebSocket messages — would get the GIL only in turns of the
interpreter's switch interval (5 ms), so an order's path queued behind every refresh under
way. Waiting here, a build holds neither the GIL nor a game lock. A plain lock: a
semaphore's release runs Python code (``Condition.notify``) with the GIL held, which the
server profile showed as a fifth of its GIL time with dozens of refreshes waiting."""

PATIENCE_S = 0.05
"""How long an answer build waits at most for the orders and WebSocket sends under way."""


class Priority:
    """Orders first: a count of the urgent work under way in the process — orders being
    given (from their request's arrival to their commit and announcement), WebSocket
    connections woken and not yet done sending, another process's change being read
    into the cache — for which answer builds (views, legal-order lists: what a seat's
    client asks for *after* the change reached it) wait, at most ``patience`` seconds.

    Everything in a server process shares one interpreter lock: a view built while an
    order is on its way takes turns with it, so an order's path to every seat's WebSocket
    lengthened by every build its own and other games' refreshes started meanwhile (the
    benchmark: ~20 ms more per order under way). A build that waits holds no lock of a
    game. ``begin``/``end`` are cheap and callable from any thread (the event loop
    too); ``wait_calm`` blocks (worker threads only).

    **No wait on what Blue may not know.** Work is tagged with its game and whether Blue
    may know of it (a Blue seat's order: yes; the GM's orders, an undo, wake-ups and
    catch-ups whose change may be the GM's hidden order: no). A Blue seat's build in a
    game never waits for that game's work Blue may not know of: otherwise how long a Blue
    answer took would tell Blue that the GM is giving an order right now (issue 8). The
    GM, who knows everything, waits for all of it; work in other games is no secret of
    this one's."""

    def __init__(self, patience: float = PATIENCE_S) -> None:
        self.patience = patience
        self._cond = threading.Condition(threading.Lock())
        self._busy = 0
        self._hidden: dict[str, int] = {}
        """Per game: the work under way in it that its Blue readers must not wait for."""
        self._waiting = 0

    @property
    def busy(self) -> int:
        """How much urgent work is under way now."""
        return self._busy

    def begin(self, game: str | None = None, *, blue_knows: bool = False) -> None:
        """One more piece of urgent work under way (in ``game``; ``blue_knows``: Blue
        may know it is under way)."""
        with self._cond:
            self._busy += 1
            if game is not None and not blue_knows:
                self._hidden[game] = self._hidden.get(game, 0) + 1

    def end(self, game: str | None = None, *, blue_knows: bool = False) -> None:
        """One piece of urgent work done (tagged as it began; never below zero)."""
        with self._cond:
            if self._busy > 0:
                self._busy -= 1
            if game is not None and not blue_knows:
                left = self._hidden.get(game, 0) - 1
                if left > 0:
                    self._hidden[game] = left
                else:
                    self._hidden.pop(game, None)
            if self._waiting:
                self._cond.notify_all()

    @contextmanager
    def urgent(self, game: str | None = None, *, blue_knows: bool = False) -> Iterator[None]:
        """``begin`` … ``end`` around a block."""
        self.begin(game, blue_knows=blue_knows)
        try:
            yield
        finally:
            self.end(game, blue_knows=blue_knows)

    def pending(self, game: str | None = None, *, blue: bool = False) -> int:
        """The urgent work a build for a reader of ``game`` waits for (``blue``: a Blue
        seat's build, which never waits for its game's work Blue may not know of)."""
        if blue and game is not None:
            return self._busy - self._hidden.get(game, 0)
        return self._busy

    def wait_calm(self, game: str | None = None, *, blue: bool = False) -> None:
        """Until none of the urgent work a build for this reader waits for is under way
        (:meth:`pending`), or ``patience`` seconds have passed."""
        with self._cond:
            if self.pending(game, blue=blue) <= 0:
                return
            self._waiting += 1
            try:
                self._cond.wait_for(lambda: self.pending(game, blue=blue) <= 0, self.patience)
            finally:
                self._waiting -= 1


PRIORITY = Priority()
"""The process's :class:`Priority` (the store's orders, the hub's sends, the builds)."""

ORDER_TEXTS_KEPT = 20_000
"""At most this many order texts are kept in a process (then the cache starts again): a few
MB, whatever the number of games cached."""

_ORDER_TEXTS: dict[tuple[Any, ...], str] = {}
"""An order's notation by its fields, for every game of the process (the same orders come
back in every legal-order list; the text is a function of the fields alone). Keyed by a
tuple of the fields, not the frozen order itself: a dataclass's hash runs in Python, a
tuple's does not (measured along a demo game: 1.8 against 2.6 ms per legal list, by
object identity; 4 ms formatting each)."""


@dataclass(frozen=True)
class At:
    """A game at one version, read while it is held: what an answer built after the hold
    is let go needs (the state is immutable; the versions are the GM's and Blue's)."""

    version: int
    blue_version: int
    state: GameState


@dataclass
class Game:
    """A game as one process holds it: meta data, the log, the current state."""

    id: str
    scenario_ref: str
    options: dict[str, Any]
    seed: Seed
    commitment: str
    computer: frozenset[str]
    scenario: Scenario
    state: GameState
    entries: list[Entry] = field(default_factory=list)
    effective: list[int] = field(default_factory=list)
    """The log seqs of the orders in force (undos removed), oldest first."""
    keys: dict[tuple[str, str], int] = field(default_factory=dict)
    scenario_file: str = ""
    """How a game file names the scenario: a bundled id as is, else the file's path."""
    computer_level: str = "baseline"
    """The computer player of its seats (``bots.players.BOT_NAMES``)."""
    overlay: dict[str, Any] | None = None
    """A campaign battle: the roster units in the scenario's Blue slots (issue 12)."""
    _memo: dict[tuple[str, str], Any] = field(default_factory=dict)
    _memo_at: int = -1
    _memo_lock: threading.Lock = field(default_factory=threading.Lock, compare=False)
    _log_texts: dict[str, dict[int, tuple[Event, str | None]]] = field(default_factory=dict)
    """Per viewer (``gm``/``blue``), per event number: the event and its text in the
    viewer's log (None: not seen), kept across versions (an event never changes; after an
    undo the replayed state's events are new objects and are worked out again)."""

    def at(self) -> At:
        """The game now, for building answers after the hold is let go (call with the game
        held, i.e. inside :meth:`GameStore.reading`)."""
        return At(self.version, self.blue_version, self.state)

    def memo(
        self, kind: str, seat: str, build: Callable[[GameState], T], at: At | None = None
    ) -> T:
        """``build(state)`` for ``seat`` at the version of ``at`` (default: now, with the
        game held), worked out once per version and shared by every request and connection
        of that seat — never across seats. The build runs outside any lock (call it after
        the hold is let go, with ``at`` taken while held): a write is never kept waiting
        by a view being built; and it waits first for the orders under way (``PRIORITY``;
        not when called with the game held, ``at`` None). At most one value per (kind,
        seat) is kept: the cache is
        bounded by the game's seats, and a newer version drops the old values (a build for
        an older version than the cache's is handed out, not kept)."""
        held = at is None
        if at is None:
            at = self.at()
        key = (kind, seat)
        with self._memo_lock:
            if self._memo_at == at.version and key in self._memo:
                hit: T = self._memo[key]
                return hit
        if not held:  # (with the game held, a build must not keep its orders waiting)
            PRIORITY.wait_calm(self.id, blue=seat != GM_SEAT)
        with BUILDS:
            with self._memo_lock:  # built meanwhile by the request this one waited for
                if self._memo_at == at.version and key in self._memo:
                    done: T = self._memo[key]
                    return done
            value = build(at.state)
        with self._memo_lock:
            if self._memo_at < at.version:
                self._memo = {}
                self._memo_at = at.version
            if self._memo_at == at.version:
                self._memo[key] = value
        return value

    def memo_hit(self, kind: str, seat: str, at: At) -> Any | None:
        """What :meth:`memo` holds for ``(kind, seat)`` at the version of ``at``, or None
        when it has nothing yet (nothing is built; never waits for a build)."""
        with self._memo_lock:
            if self._memo_at == at.version:
                return self._memo.get((kind, seat))
        return None

    def order_text(self, order: Order) -> str:
        """``str(order)``, kept per order's fields (see ``_ORDER_TEXTS``)."""
        key = (order.kind, order.unit, order.cell, order.target, order.args)
        hit = _ORDER_TEXTS.get(key)
        if hit is not None:
            return hit
        if len(_ORDER_TEXTS) >= ORDER_TEXTS_KEPT:
            _ORDER_TEXTS.clear()
        text = str(order)
        _ORDER_TEXTS[key] = text
        return text

    def legal(self, seat: str, at: At | None = None) -> list[str]:
        """The seat's legal orders in notation, worked out once per version (every seat's
        client asks after every change; a seat that does not act gets ``[]`` without any
        work, see :func:`legal_orders`; so does a seat the computer plays)."""

        def build(state: GameState) -> list[str]:
            if seat in self.computer:
                return []
            return [self.order_text(o) for o in legal_orders(state, seat)]

        return self.memo("legal", seat, build, at)

    def orders_json(self, seat: str, at: At | None = None) -> str:
        """The answer of ``GET /orders`` (``{"version", "orders"}``) as JSON text."""
        if at is None:
            at = self.at()
        version = self.seat_version_at(at, seat)
        legal = self.legal(seat, at)
        return self.memo(
            "orders.json", seat, lambda _st: dumps({"version": version, "orders": legal}), at
        )

    def view(self, seat: str, at: At | None = None) -> dict[str, Any]:
        """The seat's view (:func:`seat_view`), built once per version. The same dict goes
        to every caller: never modify it."""
        return self.memo("view", seat, lambda st: seat_view(st, seat), at)

    def log_texts(self, seat: str, state: GameState | None = None) -> list[str]:
        """The JSON texts of the events in the seat's view's log in ``state`` (default:
        now), oldest first (only the events not seen before are built)."""
        if state is None:
            state = self.state
        viewer = viewer_of(state, seat)
        known = self._log_texts.setdefault(viewer, {})
        out: list[str] = []
        for event in state.events:
            hit = known.get(event.seq)
            if hit is None or hit[0] is not event:
                hit = (event, log_entry_json(state, event, viewer))
                known[event.seq] = hit
            if hit[1] is not None:
                out.append(hit[1])
        return out

    def view_json(self, seat: str, at: At | None = None) -> str:
        """The answer of ``GET /view`` (``{"version", "view", "orders"}``: the seat's view
        and its legal orders, so a client's refresh is one request) as JSON text, built
        once per version and seat; the view's log from :meth:`log_texts`."""
        if at is None:
            at = self.at()
        version = self.seat_version_at(at, seat)
        legal = self.legal(seat, at)

        def build(state: GameState) -> str:
            view = seat_view_json(state, seat, self.log_texts(seat, state))
            return f'{{"version":{version},"view":{view},"orders":{dumps(legal)}}}'

        return self.memo("view.json", seat, build, at)

    @staticmethod
    def seat_version_at(at: At, seat: str) -> int:
        """The version ``seat`` reads at ``at``."""
        return at.version if seat == GM_SEAT else at.blue_version

    @property
    def version(self) -> int:
        """The GM's version: the number of log entries."""
        return len(self.entries)

    @property
    def blue_version(self) -> int:
        """Blue's version: the number of entries Blue has a message about."""
        return self.entries[-1].blue_version if self.entries else 0

    def seat_version(self, seat: str) -> int:
        """The version a seat reads and sends back."""
        return self.version if seat == GM_SEAT else self.blue_version

    def entry_version(self, entry: Entry, seat: str) -> int:
        """The version a seat reads for ``entry``."""
        return entry.seq if seat == GM_SEAT else entry.blue_version

    def seats(self) -> list[str]:
        """Every seat of the game: Blue's, then the GM."""
        return [*self.state.seats("blue"), GM_SEAT]

    def copies(self, entry: Entry, seat: str) -> list[dict[str, Any]]:
        """The seat's copies of what ``entry`` did (built once per entry and reader: every
        Blue seat reads Blue's copy). Shared: never modify them."""
        viewer = viewer_of(self.state, seat)
        hit = entry.copies.get(viewer)
        if hit is None:
            if entry.kind == "undo":
                hit = [{"kind": "undo", "data": {}}]
            else:
                hit = event_copies(self.state, entry.events, seat)
            entry.copies[viewer] = hit
        return hit

    def message(self, entry: Entry, seat: str) -> str:
        """The WebSocket message ``{"version", "events"}`` of ``entry`` for ``seat`` as JSON
        text, serialised once per entry and reader."""
        viewer = viewer_of(self.state, seat)
        hit = entry.messages.get(viewer)
        if hit is None:
            body = {"version": self.entry_version(entry, seat), "events": self.copies(entry, seat)}
            hit = dumps(body)
            entry.messages[viewer] = hit
        return hit

    def messages_after(self, seat: str, after: int) -> list[tuple[int, str]]:
        """``(version, message text)`` of every entry the seat has a message about after
        its version ``after`` (what :meth:`changes_after` gives, serialised)."""
        blue = seat != GM_SEAT
        entries = self.entries[self._first_after(seat, after) :]
        return [
            (self.entry_version(e, seat), self.message(e, seat))
            for e in entries
            if not blue or e.blue_seen
        ]

    def changes_after(self, seat: str, after: int) -> list[dict[str, Any]]:
        """``{"version", "events"}`` for every entry the seat has a message about after
        its version ``after``."""
        out: list[dict[str, Any]] = []
        blue = seat != GM_SEAT
        for entry in self.entries[self._first_after(seat, after) :]:
            if blue and not entry.blue_seen:
                continue
            out.append(
                {"version": self.entry_version(entry, seat), "events": self.copies(entry, seat)}
            )
        return out

    def _first_after(self, seat: str, after: int) -> int:
        if seat == GM_SEAT:
            return max(0, after)
        lo, hi = 0, len(self.entries)
        while lo < hi:  # first entry whose Blue version exceeds ``after``
            mid = (lo + hi) // 2
            if self.entries[mid].blue_version <= after:
                lo = mid + 1
            else:
                hi = mid
        return lo

    def push(self, entry: Entry, state: GameState, effective: list[int]) -> None:
        """Add a committed entry and the state after it."""
        self.entries.append(entry)
        self.state = state
        self.effective = effective
        if entry.idem_key is not None:
            self.keys[(entry.seat, entry.idem_key)] = entry.seq


def _blue_seen(scenario_state: GameState, seat: str, kind: str, events: tuple[Event, ...]) -> bool:
    if kind == "undo" or seat != GM_SEAT:
        return True
    return bool(event_copies(scenario_state, events, "co"))


def computer_column(seats: list[str], level: str) -> Any:
    """The ``games.computer`` JSON value: the seats' list as before for the baseline
    player (rows written before levels existed read the same), else
    ``{"seats": [...], "level": NAME}``."""
    return seats if level == "baseline" else {"seats": seats, "level": level}


def computer_seats(value: Any) -> list[str]:
    """The computer's seats from a ``games.computer`` value (either form)."""
    if isinstance(value, dict):
        return [str(s) for s in value.get("seats", [])]
    return [str(s) for s in value]


def computer_level_of(value: Any) -> str:
    """The computer player's name from a ``games.computer`` value (``baseline`` for the
    plain list)."""
    if isinstance(value, dict):
        return str(value.get("level", "baseline"))
    return "baseline"


def _bot_seed(seed: Seed, seq: int) -> int:
    # One-way from the secret seed: the computer's choices tell nothing of the dice. Not
    # from the game's id (random): the same seed plays the same game (``tk20 campaign
    # battle --seed``); every server game has its own fresh 256-bit seed anyway.
    return derive_int(seed, f"server-bot:{seq}")


def _once_more_if_dead(read: Callable[[], T]) -> T:
    """``read()``, and once more if its pooled database connection turned out dead (a
    PostgreSQL restart: the pool pings only connections idle for a second,
    ``db.PING_IDLE_S``). The pool has then let go of every connection as old as that one,
    so the second try runs on a new one. For reads only (the first statement of a
    request): nothing was written."""
    try:
        return read()
    except DBAPIError as exc:
        if not exc.connection_invalidated:
            raise
        return read()


# ------------------------------------------------------------------------------ scenarios


_SCENARIOS: dict[str, Scenario] = {}
_SCENARIO_LOCK = threading.Lock()


def scenario_ids(extra: tuple[Path, ...] = ()) -> dict[str, Path]:
    """Every scenario a game can start from: id → file (bundled first, then ``extra``
    folders' ``*.toml``; a bundled id is never replaced)."""
    out = {sid: scenarios_dir() / f"{sid}.toml" for sid in bundled_ids()}
    for folder in extra:
        for path in sorted(folder.glob("*.toml")):
            out.setdefault(path.stem, path)
    return out


def scenario_for(
    ref: str,
    options: dict[str, Any],
    extra: tuple[Path, ...] = (),
    overlay: Mapping[str, Any] | None = None,
) -> Scenario:
    """The scenario ``ref`` (bundled, or in an ``extra`` folder) with rule ``options``
    applied (one object per combination, so the engine's per-scenario caches are shared);
    ``overlay``: a campaign's units in its Blue slots (issue 12,
    :func:`~taistelukentta.rules.campaign_battle.apply_overlay`).
    StoreError 422 for an unknown scenario or a bad option."""
    files = scenario_ids(extra)
    if ref not in files:
        known = ", ".join(files)
        raise StoreError(
            422,
            "unknown_scenario",
            f"unknown scenario {ref!r} (bundled: {known})",
            f"tuntematon skenaario {ref!r} (valmiit: {known})",
        )
    path = files[ref]
    key = json.dumps([str(path), options, overlay], sort_keys=True)
    with _SCENARIO_LOCK:
        cached = _SCENARIOS.get(key)
        if cached is not None:
            return cached
        try:
            text = read_text(path)
            data = parse_toml(text, str(path))
            if options:
                data["options"] = {**data.get("options", {}), **options}
            if overlay is not None:
                data = apply_overlay(data, overlay)
            scenario = scenario_from_data(data, source=ref, base_dir=path.parent, default_id=ref)
        except TkError as exc:
            raise StoreError(422, "bad_options", exc.message("en"), exc.message("fi")) from None
        _SCENARIOS[key] = scenario
        return scenario


# ------------------------------------------------------------------------------ the store


@dataclass(frozen=True)
class Created:
    """A new game and its seats' tokens (shown once, stored only hashed)."""

    game: Game
    tokens: dict[str, str]


@dataclass(frozen=True)
class Applied:
    """The answer to an accepted order: the seat's version after it and its copies."""

    version: int
    events: list[dict[str, Any]]
    text: str
    """``{"version", "events"}`` as JSON text: the seat's WebSocket message of the same
    change (serialised once per change and reader)."""


class GameStore:
    """Games in the database, cached per process. Thread-safe; every method blocks (call
    it from a worker thread, never on the event loop).

    Locks: per game a *writer* lock (one write of a game at a time in this process) and a
    short *hold* lock (the cached game object while it is read or a committed entry is
    added). A write works out the order on the cached state first and takes the database's
    write lock only for the insert and the version bump (on SQLite behind a process-wide
    lock, so writers queue in Python instead of in SQLite's busy back-off); readers never
    wait for a write's database work."""

    def __init__(self, engine: Engine, settings: Settings) -> None:
        self.engine = engine
        self.settings = settings
        self.postgres = is_postgres(engine)
        self._read = sessionmaker(engine, expire_on_commit=False)
        # The version read every request starts with: on PostgreSQL outside a transaction
        # (no BEGIN and ROLLBACK round trips around the one SELECT).
        self._peek = (
            engine.execution_options(isolation_level="AUTOCOMMIT") if self.postgres else engine
        )
        self._write = sessionmaker(
            engine.execution_options(tk20_write=True), expire_on_commit=False
        )
        self._games: OrderedDict[str, Game] = OrderedDict()
        self._holds: dict[str, threading.RLock] = {}
        self._writers: dict[str, threading.RLock] = {}
        self._guard = threading.Lock()
        self._sqlite_writer = threading.Lock()
        self._tokens: dict[str, tuple[str, str]] = {}
        self.listeners: list[Callable[[str, int], None]] = []
        """Called (from a worker thread) with a game id and its new (GM) version after
        each committed change."""
        self._bots = ThreadPoolExecutor(max_workers=4, thread_name_prefix="tk20-bot")
        self._background = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tk20-snapshot")
        self._closed = False

    def close(self) -> None:
        """Stop the computer players (waits for the order in hand) and write the snapshots
        due."""
        self._closed = True
        self._bots.shutdown(wait=True, cancel_futures=True)
        self._background.shutdown(wait=True)

    # -- locking and the cache ----------------------------------------------------------

    def _lock_of(self, table: dict[str, threading.RLock], game_id: str) -> threading.RLock:
        with self._guard:
            return table.setdefault(game_id, threading.RLock())

    @contextmanager
    def _hold(self, game_id: str) -> Iterator[None]:
        with self._lock_of(self._holds, game_id):
            yield

    @contextmanager
    def _writer(self, game_id: str) -> Iterator[None]:
        with self._lock_of(self._writers, game_id):
            yield

    @contextmanager
    def _transaction(self) -> Iterator[Session]:
        """A write transaction (SQLite: ``BEGIN IMMEDIATE`` behind the process's writer
        lock; PostgreSQL: the caller locks the game row)."""
        if self.postgres:
            with self._write.begin() as s:
                yield s
        else:
            with self._sqlite_writer, self._write.begin() as s:
                yield s

    def _cached(self, game_id: str) -> Game | None:
        with self._guard:
            game = self._games.get(game_id)
            if game is not None:
                self._games.move_to_end(game_id)
            return game

    def _cache_put(self, game: Game) -> None:
        with self._guard:
            self._games[game.id] = game
            self._games.move_to_end(game.id)
            while len(self._games) > max(1, self.settings.cached_games):
                self._games.popitem(last=False)

    # -- tokens -----------------------------------------------------------------------

    def known_token(self, token: str) -> bool:
        """Whether :meth:`authenticate` answers ``token`` without the database."""
        return token_hash(token) in self._tokens

    def authenticate(self, token: str) -> tuple[str, str] | None:
        """``(game id, seat)`` of a token, or None if no seat has it."""
        digest = token_hash(token)
        hit = self._tokens.get(digest)
        if hit is not None:
            return hit
        hit = _once_more_if_dead(lambda: self._seat_of(digest))
        if hit is None:
            return None
        with self._guard:
            self._tokens[digest] = hit
        return hit

    def _seat_of(self, digest: str) -> tuple[str, str] | None:
        with self._read() as s:
            row = s.get(SeatRow, digest)
            if row is None or not hmac.compare_digest(row.token_hash, digest):
                return None
            return (row.game_id, row.seat)

    def _scenario_file(self, ref: str) -> str:
        if ref in bundled_ids():
            return ref
        return str(scenario_ids(self.settings.scenario_dirs)[ref].resolve())

    def _load(self, s: Session, row: GameRow) -> Game:
        scenario = scenario_for(
            row.scenario, dict(row.options), self.settings.scenario_dirs, row.blue_overlay
        )
        seed = parse_seed(row.seed)
        rows = s.scalars(
            select(EntryRow).where(EntryRow.game_id == row.id).order_by(EntryRow.seq)
        ).all()
        game = Game(
            id=row.id,
            scenario_ref=row.scenario,
            options=dict(row.options),
            seed=seed,
            commitment=row.commitment,
            computer=frozenset(computer_seats(row.computer)),
            scenario=scenario,
            state=new_game(scenario, seed),
            scenario_file=self._scenario_file(row.scenario),
            computer_level=computer_level_of(row.computer),
            overlay=dict(row.blue_overlay) if row.blue_overlay is not None else None,
        )
        effective: list[int] = []
        blue = 0
        notations: dict[int, tuple[str, str]] = {}
        for r in rows:
            events = tuple(Event.from_dict(e) for e in r.events)
            taken = 0
            if r.kind == "undo":
                taken = int(r.notation or "0")
                del effective[len(effective) - taken :]
            else:
                effective.append(r.seq)
                notations[r.seq] = (r.seat, r.notation or "")
            seen = _blue_seen(game.state, r.seat, r.kind, events)
            blue += int(seen)
            game.entries.append(
                Entry(r.seq, r.seat, r.kind, r.notation, r.idem_key, events, taken, seen, blue)
            )
            if r.idem_key is not None:
                game.keys[(r.seat, r.idem_key)] = r.seq
        game.effective = effective
        game.state = self._state_of(s, game, effective, notations)
        return game

    def _state_of(
        self,
        s: Session,
        game: Game,
        effective: list[int],
        notations: dict[int, tuple[str, str]] | None = None,
    ) -> GameState:
        """The state after the ``effective`` orders: from the newest snapshot on their path,
        then the orders after it."""
        start, state = 0, None
        snaps = s.scalars(
            select(SnapshotRow)
            .where(SnapshotRow.game_id == game.id)
            .order_by(SnapshotRow.seq.desc())
        ).all()
        for snap in snaps:
            n = snap.orders
            if 0 < n <= len(effective) and effective[n - 1] == snap.last_order_seq:
                state = GameState.from_dict(json.loads(snap.state), game.scenario)
                start = n
                break
        if state is None:
            state = new_game(game.scenario, game.seed)
        if notations is None:
            by_seq = {e.seq: e for e in game.entries}
            notations = {q: (by_seq[q].seat, by_seq[q].notation or "") for q in effective}
        for q in effective[start:]:
            seat, notation = notations[q]
            state, _ = apply(state, seat, parse_order(notation))
        return state

    def _fresh(self, s: Session, game_id: str) -> Game:
        """The game at least at the database's version (call holding the game)."""
        row = s.get(GameRow, game_id)
        if row is None:
            raise _not_found()
        game = self._cached(game_id)
        if game is None or game.version > row.version:
            game = self._load(s, row)
            self._cache_put(game)
        elif game.version < row.version:
            game = self._catch_up(s, game, row)
        return game

    def _catch_up(self, s: Session, game: Game, row: GameRow) -> Game:
        rows = s.scalars(
            select(EntryRow)
            .where(EntryRow.game_id == game.id, EntryRow.seq > game.version)
            .order_by(EntryRow.seq)
        ).all()
        if any(r.kind == "undo" for r in rows) or len(rows) != row.version - game.version:
            fresh = self._load(s, row)
            self._cache_put(fresh)
            return fresh
        for r in rows:
            state, events = apply(game.state, r.seat, parse_order(r.notation or ""))
            seen = _blue_seen(state, r.seat, r.kind, tuple(events))
            entry = Entry(
                r.seq,
                r.seat,
                r.kind,
                r.notation,
                r.idem_key,
                tuple(events),
                0,
                seen,
                game.blue_version + int(seen),
            )
            game.push(entry, state, [*game.effective, r.seq])
        return game

    def _db_version(self, game_id: str) -> int:
        """The game's version in the database (404 StoreError if there is no such game)."""
        if len(game_id) > 32:
            raise _not_found()
        # Every read of a game asks this first: a Core statement, no ORM session.
        version = _once_more_if_dead(lambda: self._version_read(game_id))
        if version is None:
            raise _not_found()
        return int(version)

    def _version_read(self, game_id: str) -> Any:
        with self._peek.connect() as conn:
            return conn.execute(_VERSION_OF, {"id": game_id}).scalar()

    def _at_least(self, game_id: str, version: int) -> Game:
        """The cached game, caught up from the database if it is older than ``version``
        (call holding the game)."""
        game = self._cached(game_id)
        if game is None or game.version < version:
            with self._read() as s:
                game = self._fresh(s, game_id)
        return game

    def game(self, game_id: str) -> Game:
        """The game at the database's current version (404 StoreError if none)."""
        with self.reading(game_id) as game:
            return game

    @contextmanager
    def reading(self, game_id: str) -> Iterator[Game]:
        """The current game (at least the database's version when called), held while the
        caller reads it: no committed entry is added meanwhile."""
        version = self._db_version(game_id)
        with self._hold(game_id):
            yield self._at_least(game_id, version)

    def peek(self, game_id: str) -> tuple[Game, At] | None:
        """The game now (at least at the database's version), for an answer served from
        the memos on the event loop: one short version read (only when the database pool
        has an idle connection: never waits for one), and the cached game if its hold is
        free and it has reached that version. None whenever any of that would wait or
        need more work (a load, a catch-up): the caller then goes through
        :meth:`reading` in a worker thread. 404 StoreError for no such game.

        SQLite only (a read of a local file): on PostgreSQL the version read is a round
        trip to the database server (two with the pool's pre-ping as it was then), and a
        loaded database stalled the event loop and every WebSocket with it (measured: p95
        of seconds), so there the answer always comes through a worker thread (None)."""
        if self.postgres:
            return None
        pool = self.engine.pool
        idle = getattr(pool, "checkedin", None)
        if idle is not None and idle() == 0:
            return None
        version = self._db_version(game_id)
        hold = self._lock_of(self._holds, game_id)
        if not hold.acquire(blocking=False):
            return None
        try:
            game = self._cached(game_id)
            if game is None or game.version < version:
                return None
            return game, game.at()
        finally:
            hold.release()

    def behind(self, game_id: str, version: int) -> bool:
        """Whether the cached game is older than the (GM) ``version`` (False when the
        game is not cached: a connection's first read loads it). Never blocks."""
        with self._guard:
            game = self._games.get(game_id)
        return game is not None and game.version < version

    def catch_up(self, game_id: str) -> None:
        """Bring the cached game up to the database's version (another process wrote)."""
        with self.reading(game_id):
            pass

    def cached_messages(
        self, game_id: str, seat: str, after: int, version: int
    ) -> list[tuple[int, str]] | None:
        """The WebSocket messages of ``seat`` after its version ``after`` from the cache
        alone, if the cached game has reached the (GM) ``version`` a wake-up announced;
        None when the database must be read. Never blocks on a lock (callable on the
        event loop); the cached game's entries only ever grow."""
        with self._guard:
            game = self._games.get(game_id)
        if game is None or game.version < version:
            return None
        return game.messages_after(seat, after)

    def messages(self, game_id: str, seat: str, after: int) -> list[tuple[int, str]]:
        """The WebSocket messages of ``seat`` after its version ``after``, at least up to
        the database's version."""
        with self.reading(game_id) as game:
            return game.messages_after(seat, after)

    # -- writing ----------------------------------------------------------------------

    def _notify(self, s: Session, game_id: str, version: int) -> None:
        if self.postgres:
            payload = f"{game_id}:{version}"
            s.execute(text("SELECT pg_notify(:c, :p)"), {"c": NOTIFY_CHANNEL, "p": payload})

    def _changed(self, game_id: str, version: int) -> None:
        for listener in list(self.listeners):
            listener(game_id, version)

    def _append(self, s: Session, game: Game, base: int, entry: Entry, state: GameState) -> bool:
        """Bump the version from ``base`` and insert ``entry`` in ``s``'s transaction (the
        caller commits, then pushes to the cache); False, nothing written, when the
        database is no longer at ``base``. Core statements: the version's ``UPDATE … WHERE
        version = base`` is also the row lock of a PostgreSQL writer (a second writer waits
        for it, then finds the version moved)."""
        conn = s.connection()
        bumped = conn.execute(
            update(_GAMES)
            .where(_GAMES.c.id == game.id, _GAMES.c.version == base)
            .values(version=entry.seq, finished=state.finished)
        )
        if bumped.rowcount != 1:
            if conn.execute(_VERSION_OF, {"id": game.id}).scalar() is None:
                raise _not_found()
            return False
        conn.execute(
            insert(_ENTRIES).values(
                game_id=game.id,
                seq=entry.seq,
                seat=entry.seat,
                kind=entry.kind,
                notation=entry.notation,
                idem_key=entry.idem_key,
                events=[e.to_dict() for e in entry.events],
                created_at=_now(),
            )
        )
        self._notify(s, game.id, entry.seq)
        return True

    def _snapshot(self, game_id: str, seq: int, state: GameState, effective: list[int]) -> None:
        """Write the state after entry ``seq`` (every K entries). Not urgent: it only
        shortens a later load (which replays from the newest snapshot on the log's path,
        or from the start), so it is written after the change is announced, in the
        background; a snapshot lost to a crash costs nothing but a longer replay."""
        row = SnapshotRow(
            game_id=game_id,
            seq=seq,
            orders=len(effective),
            last_order_seq=effective[-1],
            state=json.dumps(state.to_dict(), separators=(",", ":")),
        )
        with contextlib.suppress(IntegrityError), self._transaction() as s:
            s.add(row)

    def _commit(
        self, game: Game, base: int, entry: Entry, state: GameState, effective: list[int]
    ) -> bool:
        """Write ``entry`` if the database is still at the version ``base`` the entry was
        worked out on, then add it to the cache. False (nothing written) when another
        process wrote first: the caller catches up and decides again."""
        with self._transaction() as s:
            if not self._append(s, game, base, entry, state):
                return False
        with self._hold(game.id):
            cached = self._cached(game.id)
            if cached is not None and cached.version == base:
                cached.push(entry, state, effective)
        if effective and entry.seq % max(1, self.settings.snapshot_every) == 0:
            self._later(self._snapshot, game.id, entry.seq, state, list(effective))
        return True

    def _later(self, fn: Callable[..., None], *args: Any) -> None:
        """Run ``fn(*args)`` on the background worker (after the caller's announcement)."""
        with contextlib.suppress(RuntimeError):  # shutting down
            self._background.submit(fn, *args)

    def create(
        self,
        scenario_ref: str,
        options: dict[str, Any],
        computer: list[str],
        level: str = "baseline",
        *,
        overlay: Mapping[str, Any] | None = None,
        seed: Seed | None = None,
    ) -> Created:
        """A new game with a fresh secret seed (``seed``: a chosen one, for a CLI run);
        a token for every seat. ``overlay``: a campaign battle's Blue units."""
        scenario = scenario_for(scenario_ref, options, self.settings.scenario_dirs, overlay)
        if seed is None:
            seed = new_seed() if self.settings.fixed_seed is None else self.settings.fixed_seed
        state = new_game(scenario, seed)
        seats = [*state.seats("blue"), GM_SEAT]
        unknown = [c for c in computer if c not in seats]
        if unknown:
            raise StoreError(
                422,
                "unknown_seat",
                f"computer: unknown seat {unknown[0]!r} (seats: {', '.join(seats)})",
                f"computer: tuntematon pelipaikka {unknown[0]!r} (paikat: {', '.join(seats)})",
            )
        game_id = secrets.token_hex(8)
        tokens = {seat: secrets.token_urlsafe(24) for seat in seats}
        with self._transaction() as s:
            s.add(
                GameRow(
                    id=game_id,
                    scenario=scenario_ref,
                    options=options,
                    seed=seed_text(seed),
                    commitment=commitment_of(seed),
                    computer=computer_column(sorted(set(computer)), level),
                    version=0,
                    finished=False,
                    created_at=_now(),
                    blue_overlay=dict(overlay) if overlay is not None else None,
                )
            )
            s.flush()
            for seat, token in tokens.items():
                s.add(SeatRow(token_hash=token_hash(token), game_id=game_id, seat=seat))
        game = Game(
            id=game_id,
            scenario_ref=scenario_ref,
            options=options,
            seed=seed,
            commitment=commitment_of(seed),
            computer=frozenset(computer),
            computer_level=level,
            scenario=scenario,
            state=state,
            scenario_file=self._scenario_file(scenario_ref),
            overlay=dict(overlay) if overlay is not None else None,
        )
        with self._hold(game_id):
            if self._cached(game_id) is None:
                self._cache_put(game)
        self.kick(game_id)
        return Created(game, tokens)

    def post_order(
        self, game_id: str, seat: str, order_text: str, version: int, key: str | None
    ) -> Applied:
        """Apply one order of ``seat`` given at its ``version``.

        StoreError: 409 ``stale_version`` (with the current version), 422 ``invalid_order``
        / ``illegal_order`` / ``idempotency_key_reused``, 403 ``computer_seat``. The same
        ``key`` again returns the first answer without applying anything."""
        with self._writer(game_id):
            while True:
                with self.reading(game_id) as game:
                    if key is not None and (seat, key) in game.keys:
                        return self._replayed(game, seat, key, order_text)
                    if seat in game.computer:
                        raise StoreError(
                            403,
                            "computer_seat",
                            "the computer plays this seat",
                            "tätä paikkaa pelaa tietokone",
                        )
                    current = game.seat_version(seat)
                    if version != current:
                        raise StoreError(
                            409,
                            "stale_version",
                            f"version {version} is not the current version {current}",
                            f"versio {version} ei ole nykyinen versio {current}",
                            {"version": current},
                        )
                    base, blue, before = game.version, game.blue_version, game.state
                    effective = [*game.effective, base + 1]
                try:
                    order = parse_order(order_text)
                    state, events = apply(before, seat, order)
                except TkError as exc:
                    code = (
                        "invalid_order"
                        if type(exc).__name__ == "InvalidOrderError"
                        else ("illegal_order")
                    )
                    raise StoreError(422, code, exc.message("en"), exc.message("fi")) from None
                notation = format_order(order)
                evs = tuple(events)
                # A GM order Blue sees nothing of is no change of Blue's (its version, the
                # count of Red's orders, stays hidden), exactly as a load or a catch-up
                # from the database counts it (``_blue_seen``) in every process.
                seen = _blue_seen(state, seat, "order", evs)
                entry = Entry(
                    base + 1, seat, "order", notation, key, evs, 0, seen, blue + int(seen)
                )
                if self._commit(game, base, entry, state, effective):
                    break
            answer = self._applied(game, entry, seat)
        self._changed(game_id, entry.seq)
        self.kick(game_id)
        return answer

    def _replayed(self, game: Game, seat: str, key: str, order_text: str) -> Applied:
        entry = game.entries[game.keys[(seat, key)] - 1]
        try:
            same = format_order(parse_order(order_text)) == entry.notation
        except TkError:
            same = False
        if not same:
            raise StoreError(
                422,
                "idempotency_key_reused",
                "this Idempotency-Key was used for another order",
                "tämä Idempotency-Key on jo käytetty toiseen käskyyn",
            )
        return self._applied(game, entry, seat)

    @staticmethod
    def _applied(game: Game, entry: Entry, seat: str) -> Applied:
        return Applied(
            game.entry_version(entry, seat), game.copies(entry, seat), game.message(entry, seat)
        )

    def undo(self, game_id: str) -> Applied:
        """The GM takes back the last order (and the computer's orders after the last
        human order): the state is replayed from the log; every seat gets ``undo``."""
        with self._writer(game_id):
            while True:
                with self.reading(game_id) as game:
                    effective = list(game.effective)
                    if not effective:
                        raise StoreError(
                            409, "nothing_to_undo", "no order to take back", "ei peruttavaa käskyä"
                        )
                    by_seq = {e.seq: e for e in game.entries}
                    taken = 0
                    while effective:
                        last = by_seq[effective.pop()]
                        taken += 1
                        if last.seat not in game.computer:
                            break
                    base, blue = game.version, game.blue_version
                    with self._read() as s:
                        state = self._state_of(s, game, effective)
                n = str(taken)
                entry = Entry(base + 1, GM_SEAT, "undo", n, None, (), taken, True, blue + 1)
                if self._commit(game, base, entry, state, effective):
                    break
            answer = self._applied(game, entry, GM_SEAT)
        self._changed(game_id, entry.seq)
        self.kick(game_id)
        return answer

    # -- the computer seats -------------------------------------------------------------

    def kick(self, game_id: str) -> None:
        """Let the computer play its seats of ``game_id`` (in the background) if it is
        their turn. A game without computer seats costs nothing here."""
        if not self.settings.run_computer or self._closed:
            return
        cached = self._cached(game_id)
        if cached is not None and not cached.computer:
            return
        with contextlib.suppress(RuntimeError):  # shutting down
            self._bots.submit(self._play_computer, game_id)

    def play_computer_now(self, game_id: str) -> None:
        """Play the computer seats of ``game_id`` in this thread until a human seat is to
        play or the game is over (``tk20 campaign battle --computer``)."""
        while (played := self._computer_step(game_id)) is not None:
            self._changed(game_id, played)

    def _play_computer(self, game_id: str) -> None:
        while not self._closed:
            try:
                played = self._computer_step(game_id)
            except (IntegrityError, StoreError):
                return
            if played is None:
                return
            self._changed(game_id, played)

    def _computer_step(self, game_id: str) -> int | None:
        """One order of a computer seat if one is to act (its version), else None."""
        with self._writer(game_id):
            while True:
                with self.reading(game_id) as game:
                    seat = next_seat(game.state)
                    if seat is None or seat not in game.computer:
                        return None
                    base, blue, before = game.version, game.blue_version, game.state
                    effective = [*game.effective, base + 1]
                # The bot reads only its seat's view (bot_order); seeded from the secret
                # seed so nobody can foresee its choices.
                bot = make_bot(game.computer_level, _bot_seed(game.seed, base + 1))
                order = bot_order(before, seat, bot)
                state, events = apply(before, seat, order)
                evs = tuple(events)
                seen = _blue_seen(state, seat, "order", evs)
                entry = Entry(
                    base + 1,
                    seat,
                    "order",
                    format_order(order),
                    None,
                    evs,
                    0,
                    seen,
                    blue + int(seen),
                )
                if self._commit(game, base, entry, state, effective):
                    return entry.seq
