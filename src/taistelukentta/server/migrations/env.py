"""Alembic environment: runs the migrations on the connection the server hands over."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection, create_engine

from taistelukentta.server.models import Base


def _run(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=Base.metadata)
    with context.begin_transaction():
        context.run_migrations()


def run() -> None:
    """Online migrations only: on the handed-over connection, or a new one from the URL."""
    connection = context.config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    url = context.config.get_main_option("sqlalchemy.url")
    assert url is not None
    engine = create_engine(url)
    with engine.connect() as conn:
        _run(conn)
    engine.dispose()


run()
