"""``WS /api/games/{id}/ws``: every change of a game as the seat sees it.

The token comes as the ``token`` query parameter or in the first message
``{"token": T, "after": N}``. The server sends ``{"version", "events"}`` for each change
after version ``after`` (default: the seat's current version, i.e. only new changes), in
order and without gaps: on every wake-up it reads the log after the last version it sent.
A reconnecting client passes the last version it got as ``after``. A wake-up after a
commit of this process is served from the process's cache (each change is serialised once
per reader, not per connection); see :mod:`taistelukentta.server.hub`. Errors are sent as
``{"error": {...}}`` and the socket is closed (4401 unknown token, 4404 no such game).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from starlette.concurrency import run_in_threadpool

from taistelukentta.server.deps import SeatAuth, resolve_seat
from taistelukentta.server.games import GameStore, StoreError
from taistelukentta.server.hub import Hub
from taistelukentta.server.settings import MAX_VERSION

router = APIRouter(prefix="/api")

POLL_SECONDS = 15.0
"""A connection re-reads the log at least this often even without a wake-up."""


def _error(exc: StoreError) -> dict[str, Any]:
    return {"error": {"code": exc.code, "message": {"fi": exc.fi, "en": exc.en}}}


async def _first_message(ws: WebSocket) -> dict[str, Any]:
    try:
        message = await asyncio.wait_for(ws.receive(), timeout=10)
    except (TimeoutError, WebSocketDisconnect, RuntimeError):
        return {}
    raw = message.get("text")
    if not isinstance(raw, str) or len(raw) > 1024:
        return {}
    try:
        msg = json.loads(raw)
    except ValueError:
        return {}
    return msg if isinstance(msg, dict) else {}


def _after_of(value: Any) -> int | None:
    if value is None:
        return None
    try:
        n = int(value)
    except (TypeError, ValueError):
        raise StoreError(
            422, "bad_after", "after: expected a version number", "after: odotettiin versiota"
        ) from None
    if not 0 <= n <= MAX_VERSION:
        raise StoreError(422, "bad_after", "after: out of range", "after: arvo ei kelpaa")
    return n


@router.websocket("/games/{game_id}/ws")
async def game_socket(ws: WebSocket, game_id: str) -> None:
    """Live changes for one seat."""
    store: GameStore = ws.app.state.store
    hub: Hub = ws.app.state.hub
    token = ws.query_params.get("token")
    after_raw: Any = ws.query_params.get("after")
    accepted = False
    if token is None:
        await ws.accept()
        accepted = True
        msg = await _first_message(ws)
        token = msg.get("token") if isinstance(msg.get("token"), str) else None
        after_raw = msg.get("after", after_raw)

    def start() -> tuple[SeatAuth, int]:
        auth = resolve_seat(store, game_id, token)
        after = _after_of(after_raw)
        if after is None:  # only what comes after the moment of connecting
            with store.reading(game_id) as game:
                after = game.seat_version(auth.seat)
        return auth, after

    wake = hub.subscribe(game_id)
    try:
        # Subscribed before the starting version is read: nothing falls in between.
        try:
            auth, sent = await run_in_threadpool(start)
        except StoreError as exc:
            if not accepted:
                await ws.accept()
            await ws.send_json(_error(exc))
            await ws.close(code=4000 + exc.status)
            return
        if not accepted:
            await ws.accept()

        seat = auth.seat
        generation = hub.generation
        read_db = True  # the first round reads the database; later ones the cache if it can
        reader = asyncio.ensure_future(_drain(ws))
        try:
            while True:
                woken = hub.take(wake)
                try:
                    if hub.generation != generation:  # notifications may have been missed
                        generation = hub.generation
                        read_db = True
                    messages = None
                    if not read_db:
                        messages = store.cached_messages(game_id, seat, sent, hub.known(game_id))
                    if messages is None:
                        messages = await run_in_threadpool(store.messages, game_id, seat, sent)
                    for version, message in messages:
                        await ws.send_text(message)
                        sent = version
                finally:
                    if woken:
                        hub.sent(game_id)
                waiter = asyncio.ensure_future(wake.wait())
                done, _ = await asyncio.wait(
                    {waiter, reader}, timeout=POLL_SECONDS, return_when=asyncio.FIRST_COMPLETED
                )
                waiter.cancel()
                if reader in done:
                    return
                read_db = not done  # no wake-up for POLL_SECONDS: check the database
        finally:
            reader.cancel()
            with contextlib.suppress(BaseException):
                await reader
    except (WebSocketDisconnect, RuntimeError):
        return
    except StoreError as exc:
        with contextlib.suppress(Exception):
            await ws.send_json(_error(exc))
            await ws.close(code=4000 + exc.status)
    finally:
        hub.unsubscribe(game_id, wake)


async def _drain(ws: WebSocket) -> None:
    """Read (and ignore) what the client sends until it goes away."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        while True:
            message = await ws.receive()
            if message.get("type") == "websocket.disconnect":
                return
