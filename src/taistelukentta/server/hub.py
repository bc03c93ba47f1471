"""Live updates: wake the WebSocket connections of a game when its log grows.

In one process the store calls :meth:`Hub.wake` after each commit. With PostgreSQL every
commit also sends ``NOTIFY tk20_games, '<game id>'`` (inside the transaction, so it is
delivered only if the commit succeeds); :class:`PgListener` LISTENs on a connection of its
own in every process and wakes that process's hub, so an order given through one process
reaches the WebSocket clients of all. A wake-up carries no data: each connection then reads
the log after the last version it sent, so a lost or doubled wake-up loses nothing.
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

    def _wake_now(self, game_id: str) -> None:
        for ev in self._waiters.get(game_id, ()):
            ev.set()

    def wake_all(self) -> None:
        """Wake every connection (after a gap in the notifications); any thread."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        loop.call_soon_threadsafe(self._wake_every)

    def _wake_every(self) -> None:
        for game_id in list(self._waiters):
            self._wake_now(game_id)

    def wake(self, game_id: str) -> None:
        """Wake the connections of ``game_id``; callable from any thread."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        loop.call_soon_threadsafe(self._wake_now, game_id)


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
                            self.hub.wake(note.payload)
            except Exception as exc:  # the database went away: retry
                log.warning("LISTEN connection lost (%s); reconnecting", type(exc).__name__)
                self._stop.wait(1.0)
