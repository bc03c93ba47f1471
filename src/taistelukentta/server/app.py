"""The FastAPI application: ``create_app(settings)``.

On start it migrates the database (Alembic), opens the game store and, on PostgreSQL,
starts LISTENing for the other processes' changes. Every error is an answer
``{"error": {"code", "message": {"fi", "en"}}}`` with a 4xx status; no traceback ever
reaches a client. ``/`` serves the browser client from ``web_dist/`` when it is built.
"""

from __future__ import annotations

import asyncio
import gc
import inspect
import logging
import re
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from taistelukentta import __version__
from taistelukentta.server.campaigns import CampaignStore
from taistelukentta.server.db import is_postgres, make_engine, upgrade
from taistelukentta.server.games import GameStore, StoreError
from taistelukentta.server.hub import Hub, PgListener
from taistelukentta.server.settings import (
    EDITOR_MAX_BODY_BYTES,
    EDITOR_PATH,
    MAX_BODY_BYTES,
    Settings,
)

log = logging.getLogger("taistelukentta.server")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def error_body(code: str, en: str, fi: str, **extra: Any) -> dict[str, Any]:
    """The JSON of an error answer."""
    return {"error": {"code": code, "message": {"fi": fi, "en": en}, **extra}}


class BodyLimit:
    """Refuse request bodies over ``limit`` bytes (413) before anything reads them."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limit
        if str(scope.get("path", "")).startswith(EDITOR_PATH):
            limit = max(limit, EDITOR_MAX_BODY_BYTES)
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    too_big = int(value) > limit
                except ValueError:
                    too_big = True
                if too_big:
                    await self._refuse(send, limit)
                    return
        seen = 0

        async def limited() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise _TooLarge()
            return message

        try:
            await self.app(scope, limited, send)
        except _TooLarge:
            await self._refuse(send, limit)

    async def _refuse(self, send: Send, limit: int) -> None:
        response = JSONResponse(
            error_body(
                "too_large",
                f"request body over {limit} bytes",
                f"pyynnön runko yli {limit} tavua",
            ),
            status_code=413,
        )
        await response({"type": "http"}, _no_receive, send)


_VIEW_PATH = re.compile(r"/api/games/([0-9a-f]{1,32})/view")


class FastView:
    """``GET /api/games/{id}/view`` — a seat's refresh after every change, the server's most
    frequent request — answered without FastAPI's routing, dependency and validation
    machinery (about as much CPU as the rest of such a request), when it is exactly that:
    no query string, ``Authorization: Bearer TOKEN`` with a token the process knows, of
    that game. The seat and the answer come from the same functions as the route's
    (``deps.resolve_seat``, ``routes.games.answer_text``), and the answer is sent as the
    same ``Response``. Anything else — another request, an unknown token, an error of any
    kind — goes through the application's route, which gives its own answer (the same one:
    tests/server/test_api.py compares the two byte for byte)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] == "http"
            and scope.get("method") == "GET"
            and not scope.get("query_string")
        ):
            match = _VIEW_PATH.fullmatch(str(scope.get("path", "")))
            if match is not None:
                text = await self._answer(scope, match.group(1))
                if text is not None:
                    await Response(text, media_type="application/json")(scope, receive, send)
                    return
        await self.app(scope, receive, send)

    @staticmethod
    async def _answer(scope: Scope, game_id: str) -> str | None:
        from taistelukentta.server.deps import resolve_seat
        from taistelukentta.server.games import Game
        from taistelukentta.server.routes.games import answer_text

        token = None
        for name, value in scope.get("headers", ()):
            if name == b"authorization":
                scheme, _, rest = value.decode("latin-1").partition(" ")
                if scheme.lower() == "bearer" and rest and " " not in rest:
                    token = rest
                break
        store = getattr(getattr(scope.get("app"), "state", None), "store", None)
        if token is None or not isinstance(store, GameStore) or not store.known_token(token):
            return None
        try:
            seat = resolve_seat(store, game_id, token).seat
            return await answer_text(store, game_id, seat, "view.json", Game.view_json)
        except Exception:  # the route gives its answer to whatever this was
            return None


class _TooLarge(Exception):
    pass


async def _no_receive() -> Message:
    return {"type": "http.disconnect"}


_FALLBACK_PAGE = """<!doctype html>
<html lang="fi"><head><meta charset="utf-8"><title>Taistelukenttä d20</title></head>
<body style="font-family: sans-serif; max-width: 40em; margin: 2em auto">
<h1>Taistelukenttä d20 — pelipalvelin</h1>
<p>Palvelin on käynnissä. Selainkäyttöliittymää ei ole käännetty tähän asennukseen.
Rajapinta: <a href="/docs">/docs</a> (OpenAPI), pelit: <code>POST /api/games</code>,
päätteestä: <code>tk20 join KUTSULINKKI</code>.</p>
<p lang="en">The game server is running. The browser client is not built into this
install. API: <a href="/docs">/docs</a> (OpenAPI); start a game with
<code>POST /api/games</code>; play a seat from a terminal with <code>tk20 join INVITE</code>.</p>
</body></html>
"""


def _no_telemetry() -> dict[str, Any]:
    """FastAPI's own OpenTelemetry hooks off where the installed FastAPI has them (0.16x):
    the server configures no telemetry, and asking whether anyone did cost ~5 % of its CPU
    on every request (a profile under ``benchmarks/bench_server.py``)."""
    if "telemetry" not in inspect.signature(FastAPI.__init__).parameters:
        return {}
    return {"telemetry": {"tracing": False, "metrics": False, "logs": False}}


_NO_TELEMETRY = _no_telemetry()


def create_app(settings: Settings | None = None) -> FastAPI:
    """The server application for ``settings`` (default: the user's SQLite file)."""
    settings = settings or Settings()
    hub = Hub()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        switch = sys.getswitchinterval()
        if settings.switch_interval is not None:
            sys.setswitchinterval(settings.switch_interval)
        thresholds = gc.get_threshold()
        if settings.gc_thresholds is not None:
            gc.set_threshold(*settings.gc_thresholds)
        engine = make_engine(settings.database_url)
        await asyncio.to_thread(upgrade, engine)
        store = GameStore(engine, settings)
        store.listeners.append(hub.wake)
        hub.follow(store.behind, store.catch_up)
        hub.bind(asyncio.get_running_loop())
        app.state.store = store
        app.state.campaigns = CampaignStore(store)
        app.state.hub = hub
        listener = None
        if is_postgres(engine):
            dsn = engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
            listener = PgListener(dsn, hub)
            await asyncio.to_thread(listener.start)
        if settings.gc_freeze:
            gc.collect()
            gc.freeze()
        try:
            yield
        finally:
            if settings.gc_freeze:
                gc.unfreeze()
            gc.set_threshold(*thresholds)
            if listener is not None:
                await asyncio.to_thread(listener.stop)
            await asyncio.to_thread(store.close)
            engine.dispose()
            sys.setswitchinterval(switch)

    app = FastAPI(
        title="Taistelukenttä d20",
        version=__version__,
        description="The game server: every seat sees only its own side. See docs/server.md.",
        lifespan=lifespan,
        **_NO_TELEMETRY,
    )

    @app.exception_handler(StoreError)
    async def _store_error(_req: Request, exc: StoreError) -> JSONResponse:
        headers = {"WWW-Authenticate": "Bearer"} if exc.status == 401 else None
        return JSONResponse(
            error_body(exc.code, exc.en, exc.fi, **exc.extra),
            status_code=exc.status,
            headers=headers,
        )

    @app.exception_handler(RequestValidationError)
    async def _bad_request(_req: Request, exc: RequestValidationError) -> JSONResponse:
        problems = []
        for err in exc.errors()[:10]:
            where = ".".join(str(p) for p in err.get("loc", ()))
            problems.append(f"{where}: {err.get('msg', 'invalid')}")
        text = "; ".join(problems) or "invalid request"
        return JSONResponse(
            error_body("bad_request", text, f"virheellinen pyyntö: {text}"), status_code=422
        )

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(_req: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        detail = str(exc.detail)
        return JSONResponse(
            error_body(code, detail, detail), status_code=exc.status_code, headers=exc.headers
        )

    @app.exception_handler(Exception)
    async def _unexpected(_req: Request, exc: Exception) -> JSONResponse:
        log.error("unexpected %s", type(exc).__name__, exc_info=exc)
        return JSONResponse(
            error_body("internal", "internal error", "sisäinen virhe"), status_code=500
        )

    from taistelukentta.server.routes import campaigns, editor, games, live, table

    app.include_router(games.router)
    app.include_router(live.router)
    app.include_router(table.router)
    app.include_router(editor.router)
    app.include_router(campaigns.router)

    def openapi() -> dict[str, Any]:
        """The OpenAPI document, with the view models a ``view`` answer refers to."""
        if app.openapi_schema is None:
            from fastapi.openapi.utils import get_openapi

            from taistelukentta.server.schemas import view_components

            doc = get_openapi(
                title=app.title,
                version=app.version,
                description=app.description,
                routes=app.routes,
            )
            schemas = doc.setdefault("components", {}).setdefault("schemas", {})
            for name, schema in view_components().items():
                schemas.setdefault(name, schema)
            app.openapi_schema = doc
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]

    dist = settings.web_dist
    if (dist / "index.html").is_file():
        app.mount("/", StaticFiles(directory=dist, html=True), name="web")
    else:

        @app.get("/", response_class=HTMLResponse, include_in_schema=False)
        def _fallback() -> str:
            return _FALLBACK_PAGE

    app.add_middleware(BodyLimit)
    app.add_middleware(FastView)
    return app
