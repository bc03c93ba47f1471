"""Live updates: wake the WebSocket connections of a game when its log grows.

In one process the store calls :meth:`Hub.wake` after each commit. With PostgreSQL every
commit also sends ``NOTIFY tk20_games, '<game id>'`` (inside the transaction, so it is
delivered only if the commit succeeds); :class:`PgListener` LISTENs on a connection of its
own in every process and wakes that process's hub, so an order given through one process
reaches the WebSocket clients of all. A wake-up carries only the game's new (GM) version
(the notification's payload is ``<game id>:<version>``): a connection sends from the
process's cache when the cache has reached that version, and reads the database otherwise
(and after a gap in the notifications, and every ``POLL_SECONDS`` in any case), always
everything after the last version it sent, so a lost or doubled wake-up loses nothing.
"""

from __future__ import annotations

import asyncio
import logging
import threading

from taistelukentta.server.games import NOTIFY_CHANNEL

log = logging.getLogger("taistelukentta.server")


class Hub:
    """Per game, the asyncio events of the connections waiting for a change."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._waiters: dict[str, set[asyncio.Event]] = {}
        self._known: dict[str, int] = {}
        self.generation = 0
        """Counts the wake-ups of every connection (after a gap in the notifications): a
        connection that sees it change reads the database."""

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
        """Stop waking ``ev`` (call on the loop)."""
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
        if version is not None and version > self._known.get(game_id, 0):
            self._known[game_id] = version
        for ev in waiters:
            ev.set()

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
