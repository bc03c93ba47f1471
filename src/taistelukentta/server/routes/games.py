"""The game endpoints under ``/api``.

Handlers are plain functions: FastAPI runs them in its worker threads, where the store's
blocking database work belongs; the refreshes (``/view``, ``/orders``) answer from the
event loop when their answer is built already (see ``_answer``), and an order (``POST
/orders``, ``/undo``) counts as urgent work from its handler's start
(``games.PRIORITY``: answer builds wait for it) and answers with the text of its seat's
WebSocket message of the change. Every answer about a
game is built by :mod:`taistelukentta.server.present` from the seat's own side's
knowledge.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Header, Query, Request, Response
from starlette.concurrency import run_in_threadpool

from taistelukentta.errors import TkError
from taistelukentta.rules import GM_SEAT
from taistelukentta.rules.orders import parse_order
from taistelukentta.server import odds as odds_mod
from taistelukentta.server.deps import GameId, Seat, Store
from taistelukentta.server.games import (
    COMMITMENT_SCHEME,
    PRIORITY,
    At,
    Game,
    GameStore,
    StoreError,
    scenario_for,
    scenario_ids,
)
from taistelukentta.server.present import side_of
from taistelukentta.server.schemas import (
    Change,
    ChangesOut,
    ErrorOut,
    GameCreate,
    GameCreated,
    OddsOut,
    OrderPost,
    OrdersOut,
    RevealOut,
    ScenarioOut,
    SeatInfo,
    SeatInvite,
    SeatViewOut,
)
from taistelukentta.server.settings import MAX_KEY_CHARS, MAX_ORDER_CHARS, MAX_VERSION

router = APIRouter(prefix="/api")

_ERR: dict[int | str, dict[str, Any]] = {
    401: {"model": ErrorOut, "description": "Missing or unknown token."},
    404: {"model": ErrorOut, "description": "No such game (or a token of another game)."},
    422: {"model": ErrorOut, "description": "Bad input."},
}


def invite_url(request: Request, game_id: str, token: str) -> str:
    """The link a seat opens in the browser (the token rides in the fragment, which is
    never sent to a server nor written in its logs)."""
    base = str(request.base_url).rstrip("/")
    return f"{base}/#game={game_id}&token={token}"


@router.get("/scenarios", response_model=list[ScenarioOut])
def list_scenarios(store: Store) -> list[ScenarioOut]:
    """The scenarios a game can be started from (bundled, and the server's own)."""
    out = []
    for sid in scenario_ids(store.settings.scenario_dirs):
        scenario = scenario_for(sid, {}, store.settings.scenario_dirs)
        seats = [s.id for s in scenario.blue.seats] + [GM_SEAT]
        title = {"fi": scenario.title.fi, "en": scenario.title.en}
        out.append(ScenarioOut(id=sid, title=title, seats=seats))
    return out


@router.post("/games", status_code=201, response_model=GameCreated, responses=_ERR)
def create_game(body: GameCreate, request: Request, store: Store) -> GameCreated:
    """Start a game. The creator is the GM and receives every seat's invite."""
    created = store.create(
        body.scenario, dict(body.options), list(body.computer), body.computer_level
    )
    game = created.game
    return GameCreated(
        id=game.id,
        scenario=game.scenario_ref,
        seed_commitment=game.commitment,
        commitment_scheme=COMMITMENT_SCHEME,
        seats={
            seat: SeatInvite(token=tok, url=invite_url(request, game.id, tok))
            for seat, tok in created.tokens.items()
        },
        computer=sorted(game.computer),
        computer_level=game.computer_level,
    )


@router.get("/games/{game_id}/seat", response_model=SeatInfo, responses=_ERR)
def whoami(game_id: GameId, auth: Seat, store: Store) -> SeatInfo:
    """Which seat the token is, and its version."""
    with store.reading(game_id) as game:
        return SeatInfo(
            game=game.id,
            seat=auth.seat,
            side=side_of(auth.seat),
            version=game.seat_version(auth.seat),
            computer=sorted(game.computer),
        )


@router.get("/games/{game_id}/view", response_model=SeatViewOut, responses=_ERR)
async def get_view(game_id: GameId, auth: Seat, store: Store) -> Response:
    """The seat's view (``tk20 show --as SEAT --json``) at its version, with its legal
    orders then (``orders``, as ``GET /orders`` gives them): a client's refresh is one
    request."""
    return await _answer(store, game_id, auth.seat, "view.json", Game.view_json)


@router.get("/games/{game_id}/orders", response_model=OrdersOut, responses=_ERR)
async def get_orders(game_id: GameId, auth: Seat, store: Store) -> Response:
    """The seat's legal orders now, in notation."""
    return await _answer(store, game_id, auth.seat, "orders.json", Game.orders_json)


async def _answer(
    store: GameStore,
    game_id: str,
    seat: str,
    kind: str,
    build: Callable[[Game, str, At], str],
) -> Response:
    """A seat's answer of ``kind`` (JSON text, built once per version and seat by
    ``build`` and shared by every request of the seat). When the game's version is known
    without waiting and the answer is built already — every refresh but the first of a
    seat at a version — it is sent from the event loop (SQLite; see ``GameStore.peek``);
    a worker-thread hop cost more CPU than the rest of such a request. Otherwise it is
    built in a worker thread, after the game is let go (a write never waits for it)."""
    return Response(await answer_text(store, game_id, seat, kind, build), media_type=JSON)


JSON = "application/json"


async def answer_text(
    store: GameStore,
    game_id: str,
    seat: str,
    kind: str,
    build: Callable[[Game, str, At], str],
) -> str:
    """The text of :func:`_answer` (also ``server.app.FastView``'s)."""
    hit = store.peek(game_id)
    if hit is not None:
        game, at = hit
        text = game.memo_hit(kind, seat, at)
        if isinstance(text, str):
            return text
    return await run_in_threadpool(_built, store, game_id, seat, build, hit)


def _built(
    store: GameStore,
    game_id: str,
    seat: str,
    build: Callable[[Game, str, At], str],
    hit: tuple[Game, At] | None,
) -> str:
    if hit is None:
        with store.reading(game_id) as game:
            hit = game, game.at()
    game, at = hit
    return build(game, seat, at)


@router.get("/games/{game_id}/odds", response_model=OddsOut, responses=_ERR)
def get_odds(
    game_id: GameId,
    auth: Seat,
    store: Store,
    order: Annotated[str, Query(min_length=1, max_length=MAX_ORDER_CHARS)],
) -> OddsOut:
    """The exact odds of an attack, fire or fire request from the seat's knowledge, every
    modifier with its rule ID."""
    with store.reading(game_id) as game:
        try:
            parsed = parse_order(order)
        except TkError as exc:
            raise StoreError(422, "invalid_order", exc.message("en"), exc.message("fi")) from None
        if parsed.kind not in odds_mod.KINDS:
            kinds = ", ".join(k.value for k in odds_mod.KINDS)
            raise StoreError(
                422,
                "no_odds",
                f"odds are given for {kinds} orders",
                f"todennäköisyydet annetaan käskyille {kinds}",
            )
        side = side_of(auth.seat)
        try:
            out = odds_mod.odds_of(game.state, side, parsed)
        except TkError as exc:
            raise StoreError(422, "no_odds", exc.message("en"), exc.message("fi")) from None
        return OddsOut(version=game.seat_version(auth.seat), order=str(parsed), **out)


@router.post(
    "/games/{game_id}/orders",
    response_model=Change,
    responses={
        **_ERR,
        403: {"model": ErrorOut, "description": "The computer plays this seat."},
        409: {"model": ErrorOut, "description": "Stale version (the answer has the current)."},
    },
)
async def post_order(
    game_id: GameId,
    body: OrderPost,
    auth: Seat,
    store: Store,
    idempotency_key: Annotated[
        str | None,
        Header(
            alias="Idempotency-Key",
            max_length=MAX_KEY_CHARS,
            pattern=r"^[\x21-\x7e]+$",
            description="Retrying with the same key returns the first answer, applied once.",
        ),
    ] = None,
) -> Response:
    """Give one order at the seat's version. The answer is the seat's new version and its
    copies of what happened (the text of the seat's WebSocket message of the change)."""
    # from here until the change is committed and announced (a Blue seat's order is no
    # secret from Blue; the GM's may be: Blue's builds do not wait for it)
    with PRIORITY.urgent(game_id, blue_knows=auth.seat != GM_SEAT):
        applied = await run_in_threadpool(
            store.post_order, game_id, auth.seat, body.order, body.version, idempotency_key
        )
    return Response(applied.text, media_type=JSON)


@router.get("/games/{game_id}/events", response_model=ChangesOut, responses=_ERR)
def get_events(
    game_id: GameId,
    auth: Seat,
    store: Store,
    after: Annotated[int, Query(ge=0, le=MAX_VERSION)] = 0,
) -> ChangesOut:
    """The seat's copies of every change after its version ``after``."""
    with store.reading(game_id) as game:
        return ChangesOut(
            version=game.seat_version(auth.seat),
            changes=[Change(**c) for c in game.changes_after(auth.seat, after)],
        )


def _gm_only(auth: Seat) -> None:
    if auth.seat != GM_SEAT:
        raise StoreError(403, "gm_only", "only the GM may do this", "vain pelinjohtaja voi")


@router.post(
    "/games/{game_id}/undo",
    response_model=Change,
    responses={**_ERR, 403: {"model": ErrorOut}, 409: {"model": ErrorOut}},
)
async def undo(game_id: GameId, auth: Seat, store: Store) -> Response:
    """GM only: take back the last order (replayed from the log, announced to every seat)."""
    _gm_only(auth)
    with PRIORITY.urgent(game_id):
        applied = await run_in_threadpool(store.undo, game_id)
    return Response(applied.text, media_type=JSON)


@router.get(
    "/games/{game_id}/reveal",
    response_model=RevealOut,
    responses={**_ERR, 403: {"model": ErrorOut}},
)
def reveal(game_id: GameId, auth: Seat, store: Store) -> RevealOut:
    """After the end: the seed, its commitment and every order (403 before)."""
    with store.reading(game_id) as game:
        if not game.state.finished:
            raise StoreError(403, "not_finished", "the game has not ended", "peli ei ole päättynyt")
        from taistelukentta.server.export import reveal_of

        return RevealOut(**reveal_of(game))


@router.get(
    "/games/{game_id}/export",
    responses={
        **_ERR,
        200: {"content": {"application/json": {}}, "description": "A tk20 game file."},
        403: {"model": ErrorOut},
    },
)
def export(game_id: GameId, auth: Seat, store: Store) -> Response:
    """The game file (``tk20 replay`` and ``tk20 verify`` read it), every seat after the
    end; before the end the GM gets the *sealed* export: the same without the seed, which
    nobody may learn before the end (``tk20 replay`` checks it from its logged dice)."""
    with store.reading(game_id) as game:
        finished = game.state.finished
        if auth.seat != GM_SEAT and not finished:
            raise StoreError(
                403,
                "not_finished",
                "only the GM may export before the end",
                "vain pelinjohtaja voi viedä pelin ennen loppua",
            )
        from taistelukentta.server.export import export_text, sealed_export_text

        text = export_text(game) if finished else sealed_export_text(game)
        name = f"tk20-{game.id}.json" if finished else f"tk20-{game.id}-sealed.json"
        return Response(
            text,
            media_type=JSON,
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )
