"""Fixtures: a server on SQLite and, where PostgreSQL is available, one on PostgreSQL."""

from __future__ import annotations

import pytest

from tests.server.live import LiveServers, Server


@pytest.fixture(params=["sqlite", "postgres"])
def server(request: pytest.FixtureRequest, live_servers: LiveServers) -> Server:
    """A running server of each database kind (the test runs once per kind): the test
    process's shared one (``live_servers``, ``tests/conftest.py``; every test makes its own
    games, so none depends on a fresh server). The PostgreSQL variant is in the slow tier
    unless the test is marked ``db_differs`` (``tests/conftest.py``)."""
    return live_servers.get(str(request.param))
