"""Fixtures of the browser tests: a real `tk20 serve` on SQLite and Debian's chromium."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.server.live import Server, running
from tests.web.browser import chromium, require_browser
from tests.web.variants import write_variants


@pytest.fixture(scope="session")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server with the bundled scenarios and the demo variants of ``variants.py`` in its
    scenario folder (``browser.web_scenarios``), shared by the test process's browser tests
    (each makes its own games; a start costs ~2 CPU-s). The editor's tests publish into
    its folder too."""
    require_browser()
    folder = tmp_path_factory.mktemp("web")
    scenarios = folder / "scenarios"
    scenarios.mkdir()
    write_variants(scenarios)
    with running(
        f"sqlite:///{folder / 'tk20.sqlite3'}",
        folder / "server.log",
        ("--scenarios", str(scenarios)),
    ) as srv:
        yield srv


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """One chromium per test process (each test opens its own context and pages)."""
    require_browser()
    with chromium() as b:
        yield b
