"""Fixtures: a server on SQLite and, where PostgreSQL is available, one on PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.live import Server, drop_pg_database, fresh_pg_database, require_pg, running


@pytest.fixture(scope="session", params=["sqlite", "postgres"])
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    """A running server per database kind, shared by the test files that use it (session
    scope: started once per test process; every test makes its own games, so none depends
    on a fresh server — one start costs ~2 CPU-s)."""
    folder: Path = tmp_path_factory.mktemp("server")
    if request.param == "sqlite":
        url = f"sqlite:///{folder / 'tk20.sqlite3'}"
    else:
        url = fresh_pg_database(require_pg())
    try:
        with running(url, folder / "server.log") as srv:
            yield srv
    finally:
        if request.param == "postgres":
            drop_pg_database(url)
