"""FastAPI dependencies: the store and the seat a request's token names."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Path, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from starlette.concurrency import run_in_threadpool

from taistelukentta.server.games import GameStore, StoreError

_bearer = HTTPBearer(auto_error=False, description="The seat's token from its invite.")

MAX_TOKEN_CHARS = 200


async def get_store(request: Request) -> GameStore:
    """The process's game store."""
    store: GameStore = request.app.state.store
    return store


Store = Annotated[GameStore, Depends(get_store)]
GameId = Annotated[str, Path(max_length=32, pattern=r"^[0-9a-f]{1,32}$")]


@dataclass(frozen=True)
class SeatAuth:
    """A request's game and seat, from its token."""

    game_id: str
    seat: str


def unauthorized() -> StoreError:
    """401: no token, or one no seat has."""
    return StoreError(
        401, "unauthorized", "missing or unknown token", "puuttuva tai tuntematon tunniste"
    )


def resolve_seat(store: GameStore, game_id: str, token: str | None) -> SeatAuth:
    """The seat of ``token`` in ``game_id``: 401 if no seat has the token, 404 if it is a
    token of another game (nothing tells whether ``game_id`` exists)."""
    if not token or len(token) > MAX_TOKEN_CHARS or not token.isascii():
        raise unauthorized()
    hit = store.authenticate(token)
    if hit is None:
        raise unauthorized()
    if hit[0] != game_id:
        raise StoreError(404, "not_found", "no such game", "peliä ei ole")
    return SeatAuth(game_id, hit[1])


async def seat_auth(
    store: Store,
    game_id: GameId,
    creds: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> SeatAuth:
    """The seat a request acts as (``Authorization: Bearer TOKEN``). On the event loop
    when the process knows the token already (a plain ``def`` dependency costs a hop to
    a worker thread on every request); a token not seen before is looked up in the
    database in a worker thread."""
    token = creds.credentials if creds else None
    if token is not None and store.known_token(token):
        return resolve_seat(store, game_id, token)
    return await run_in_threadpool(resolve_seat, store, game_id, token)


Seat = Annotated[SeatAuth, Depends(seat_auth)]
