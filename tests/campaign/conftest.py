"""Fixtures of the campaign tests."""

from __future__ import annotations

from tests.engine.conftest import dice  # noqa: F401  (re-exported fixture)
from tests.server.conftest import server  # noqa: F401  (re-exported fixture)
