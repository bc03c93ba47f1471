"""Fixtures: a server on SQLite and, where PostgreSQL is available, one on PostgreSQL."""

from __future__ import annotations

import pytest

from tests.server.live import LiveServers, Server


@pytest.fixture(params=["sqlite", "postgres"])
def server(request: pytest.FixtureRequest, live_servers: LiveServers) -> Server:
    """A running server of each database kind (the test runs once per kind): the test
    process's shared one (``live_servers``, ``tests/conftest.py``; every test makes its own
    games, so none depends on a fresh server). The PostgreSQL variant is in the slow tier
    (``tests/conftest.py``)."""
    return live_servers.get(str(request.param))


@pytest.fixture
def other_process(server: Server, live_servers: LiveServers) -> Server:
    """A second running server on the database of ``server`` (the same kind), shared by the
    test process's tests like ``server``."""
    kind = next(k for k, srv in live_servers.started.items() if srv is server)
    return live_servers.second(kind)
