"""Live updates: wake the WebSocket connections of a game when its log grows.

In one process the store calls :meth:`Hub.wake` after each commit. With PostgreSQL every
commit also sends ``NOTIFY tk20_games, '<game id>'`` (inside the transaction, so it is
delivered only if the commit succeeds); :class:`PgListener` LISTENs on a connection of its
own in every process and wakes that process's hub, so an order given through one process
reaches the WebSocket clients of all. A wake-up carries only the game's new (GM) version
(the notification's payload is ``<game id>:<version>``). A change of another process is
read into the process's cache once (:meth:`Hub.follow`), then the game's connections are
woken; a connection sends from the process's cache when it has reached that version, and
reads the database otherwise
(and after a gap in the notifications, and every ``POLL_SECONDS`` in any case), always
everything after the last version it sent, so a lost or doubled wake-up loses nothing.

A woken connection counts as urgent work (:class:`~taistelukentta.server.games.Priority`)
until it has sent what the wake-up brought (:meth:`Hub.sent`), and so does a catch-up of
another process's change: answer builds wait for them.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable

from taistelukentta.server.games import NOTIFY_CHANNEL, PRIORITY, Priority

log = logging.getLogger("taistelukentta.server")


class Hub:
    """Per game, the asyncio events of the connections waiting for a change."""

    def __init__(self, priority: Priority = PRIORITY) -> None:
        self.priority = priority
        self._loop: asyncio.AbstractEventLoop | None = None
        self._waiters: dict[str, set[asyncio.Event]] = {}
        self._known: dict[str, int] = {}
        self.generation = 0
        """Counts the wake-ups of every connection (after a gap in the notifications): a
        connection that sees it change reads the database."""
        self._behind: Callable[[str, int], bool] | None = None
        self._catch_up: Callable[[str], None] | None = None
        self._catching: set[str] = set()

    def follow(self, behind: Callable[[str, int], bool], catch_up: Callable[[str], None]) -> None:
        """Catch the process's cache up once per announced change of another process,
        before its connections are woken: ``behind(game, version)`` says whether the
        cached game is older than ``version`` (must not block), ``catch_up(game)`` reads
        the new log entries (blocking; run in a worker thread). Without this, each
        connection of the game woke to a cache miss and read the database itself."""
        self._behind = behind
        self._catch_up = catch_up

    def known(self, game_id: str) -> int:
        """The newest (GM) version of ``game_id`` a wake-up announced (0: none yet)."""
        return self._known.get(game_id, 0)

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        """The event loop the connections run on."""
        self._loop = loop

    def subscribe(self, game_id: str) -> asyncio.Event:
        """An event set whenever ``game_id`` changes (call on the loop)."""
        ev = asyncio.Event()
        self._waiters.setdefault(game_id, set()).add(ev)
        return ev

    def unsubscribe(self, game_id: str, ev: asyncio.Event) -> None:
        """Stop waking ``ev`` (call on the loop; a wake-up it did not serve is let go)."""
        if ev.is_set():
            ev.clear()
            self.priority.end(game_id)
        waiters = self._waiters.get(game_id)
        if waiters is not None:
            waiters.discard(ev)
            if not waiters:
                del self._waiters[game_id]
                self._known.pop(game_id, None)

    def _wake_now(self, game_id: str, version: int | None) -> None:
        waiters = self._waiters.get(game_id)
        if not waiters:
            return
        if version is not None:
            if version <= self._known.get(game_id, 0):
                return  # announced already (PostgreSQL: this process's own NOTIFY)
            self._known[game_id] = version
            if self._follow(game_id, version):
                return  # woken when the cache has caught up
        self._set(game_id, waiters)

    def _set(self, game_id: str, waiters: set[asyncio.Event]) -> None:
        """Wake ``waiters``: each one not yet woken is urgent work until it has sent
        (work of ``game_id`` its Blue readers do not wait for: the change may be hidden
        from them, ``Priority``)."""
        for ev in waiters:
            if not ev.is_set():
                self.priority.begin(game_id)
                ev.set()

    def take(self, ev: asyncio.Event) -> bool:
        """Clear a connection's ``ev`` before it reads what to send; True if it had been
        woken (the connection then calls :meth:`sent` once it has sent)."""
        woken = ev.is_set()
        ev.clear()
        return woken

    def sent(self, game_id: str) -> None:
        """A woken connection of ``game_id`` has sent what its wake-up brought."""
        self.priority.end(game_id)

    def _follow(self, game_id: str, version: int) -> bool:
        """Start catching the cache up to ``version`` if it is behind (True: the waiters
        are woken when that is done)."""
        if self._behind is None or self._catch_up is None or self._loop is None:
            return False
        if game_id in self._catching:
            return True
        if not self._behind(game_id, version):
            return False
        self._catching.add(game_id)
        self.priority.begin(game_id)
        done = self._loop.run_in_executor(None, self._catch_up, game_id)
        done.add_done_callback(lambda fut: self._caught_up(game_id, version, fut))
        return True

    def _caught_up(self, game_id: str, version: int, fut: asyncio.Future[None]) -> None:
        self._catching.discard(game_id)
        self.priority.end(game_id)
        newest = self._known.get(game_id, 0)
        failed = fut.cancelled() or fut.exception() is not None
        if not failed and newest > version and self._follow(game_id, newest):
            return  # a newer change came meanwhile: catch up to it first
        # (after a failed catch-up the connections read the database)
        self._set(game_id, self._waiters.get(game_id, set()))

    def wake_all(self) -> None:
        """Wake every connection (after a gap in the notifications); any thread."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        loop.call_soon_threadsafe(self._wake_every)

    def _wake_every(self) -> None:
        self.generation += 1
        for game_id in list(self._waiters):
            self._wake_now(game_id, None)

    def wake(self, game_id: str, version: int | None = None) -> None:
        """Wake the connections of ``game_id``, which has reached the (GM) ``version``
        (None: unknown, read the database); callable from any thread."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        loop.call_soon_threadsafe(self._wake_now, game_id, version)


def parse_payload(payload: str) -> tuple[str, int | None]:
    """``(game id, version)`` of a notification's payload ``<game id>:<version>`` (a bare
    game id, as older processes send it: version None)."""
    game_id, _, version = payload.partition(":")
    return game_id, int(version) if version.isdigit() else None


class PgListener:
    """A thread LISTENing for ``tk20_games`` notifications on its own connection."""

    def __init__(self, dsn: str, hub: Hub) -> None:
        self.dsn = dsn
        self.hub = hub
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="tk20-listen", daemon=True)
        self.ready = threading.Event()

    def start(self) -> None:
        """Start listening (returns once the LISTEN is in place, or after 10 s)."""
        self._thread.start()
        self.ready.wait(10)

    def stop(self) -> None:
        """Stop the thread."""
        self._stop.set()
        self._thread.join(5)

    def _run(self) -> None:
        import psycopg

        while not self._stop.is_set():
            try:
                with psycopg.connect(self.dsn, autocommit=True) as conn:
                    conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
                    self.ready.set()
                    self.hub.wake_all()  # whatever was missed while not listening
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=0.5):
                            self.hub.wake(*parse_payload(note.payload))
            except Exception as exc:  # the database went away: retry
                log.warning("LISTEN connection lost (%s); reconnecting", type(exc).__name__)
                self._stop.wait(1.0)
