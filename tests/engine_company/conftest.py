"""Shared helpers for the company-command tests (builders from tests/engine)."""

from __future__ import annotations

from tests.engine.conftest import dice  # noqa: F401  (re-exported fixture)
