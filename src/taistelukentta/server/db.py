"""Database engines and migrations.

SQLite (the default) runs in WAL mode with ``synchronous=FULL`` and every transaction
``BEGIN IMMEDIATE``: writers queue on the database lock instead of failing half-way, and a
committed order is on disk before the answer goes out. PostgreSQL is reached through psycopg 3
(``postgresql+psycopg://…``); there a write takes the game row with ``SELECT … FOR UPDATE``,
and a pooled connection is pinged before use only after a second idle (``PING_IDLE_S``).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import InvalidatePoolError

from taistelukentta.errors import ArgumentError


def normalize_url(url: str) -> str:
    """The URL SQLAlchemy is given: ``postgresql://`` means psycopg 3; a bare file path
    means a SQLite file. ArgumentError for anything else."""
    if "://" not in url:
        return f"sqlite:///{Path(url).resolve()}"
    try:
        parsed = make_url(url)
    except Exception:
        raise ArgumentError(
            "--db: not a database URL (sqlite:///FILE or postgresql+psycopg://USER@HOST/DB)",
            "--db: ei tietokannan osoite (sqlite:///TIEDOSTO tai postgresql+psycopg://…)",
        ) from None
    backend = parsed.get_backend_name()
    if backend == "postgresql":
        if parsed.drivername in ("postgresql", "postgres", "postgresql+psycopg"):
            return parsed.set(drivername="postgresql+psycopg").render_as_string(hide_password=False)
    elif backend == "sqlite":
        return url
    raise ArgumentError(
        f"--db: unsupported database {parsed.drivername!r} (use sqlite or postgresql+psycopg)",
        f"--db: tietokantaa {parsed.drivername!r} ei tueta (sqlite tai postgresql+psycopg)",
    )


def is_postgres(engine: Engine) -> bool:
    """Whether ``engine`` is a PostgreSQL database."""
    return engine.dialect.name == "postgresql"


def make_engine(url: str) -> Engine:
    """An engine for ``url`` (see :func:`normalize_url`), with the SQLite pragmas set."""
    url = normalize_url(url)
    if url.startswith("sqlite"):
        path = make_url(url).database
        pool: dict[str, Any] = {}
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            # A pool as large as the server's worker threads: a connection is opened (and
            # its pragmas run) once, not per request.
            pool = {"pool_size": 20, "max_overflow": 40}
        engine = create_engine(
            url, connect_args={"check_same_thread": False, "timeout": 30}, **pool
        )

        @event.listens_for(engine, "connect")
        def _on_connect(dbapi_conn: Any, _record: Any) -> None:
            # Let SQLAlchemy, not the driver, say when a transaction begins.
            dbapi_conn.isolation_level = None
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=FULL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA busy_timeout=30000")
            cur.close()

        @event.listens_for(engine, "begin")
        def _on_begin(conn: Any) -> None:
            # Writers (``execution_options(tk20_write=True)``) take the write lock at once.
            write = conn.get_execution_options().get("tk20_write", False)
            conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")

        return engine
    engine = create_engine(url, pool_size=10, max_overflow=20)
    _ping_when_idle(engine)
    return engine


PING_IDLE_S = 1.0
"""A pooled PostgreSQL connection idle this long is pinged before use."""


def _ping_when_idle(engine: Engine) -> None:
    """Ping a pooled connection before use only if it sat idle for ``PING_IDLE_S`` or
    more: one that died with its database (a restart) is replaced without the request
    noticing. SQLAlchemy's ``pool_pre_ping`` pings at every checkout, a round trip on each
    of a busy server's many short reads (about a fifth of a loaded server's samples); a
    connection in steady use has just shown it is alive. One that died within the second
    fails its first statement, and the reads a request starts with (the game's version, a
    token's seat: ``games._once_more_if_dead``) try once more on a new connection."""

    @event.listens_for(engine, "checkin")
    def _checkin(_dbapi_conn: Any, record: Any) -> None:
        record.info["tk20_idle_since"] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _checkout(dbapi_conn: Any, record: Any, _proxy: Any) -> None:
        since = record.info.get("tk20_idle_since")
        if since is None or time.monotonic() - since < PING_IDLE_S:
            return
        try:
            engine.dialect.do_ping(dbapi_conn)
        except Exception as exc:  # gone: every older pooled connection is replaced too
            raise InvalidatePoolError() from exc


def alembic_config(engine: Engine | None = None) -> Any:
    """The Alembic configuration of the migrations shipped in the package."""
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).resolve().parent / "migrations"))
    if engine is not None:
        cfg.set_main_option(
            "sqlalchemy.url", engine.url.render_as_string(hide_password=False).replace("%", "%%")
        )
    return cfg


def upgrade(engine: Engine) -> str | None:
    """Apply every migration not yet applied; returns the database's revision after."""
    from alembic import command
    from alembic.runtime.migration import MigrationContext

    cfg = alembic_config(engine)
    with engine.begin() as conn:
        if is_postgres(engine):
            # Several processes may start at once on one database: one migrates at a time.
            conn.exec_driver_sql("SELECT pg_advisory_xact_lock(842020)")
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")
    with engine.connect() as conn:
        rev = MigrationContext.configure(conn).get_current_revision()
    return rev
