"""Fixtures for the rule-reading tests (docs/rules-readings.md)."""

from __future__ import annotations

from tests.engine.conftest import dice  # noqa: F401  (re-exported fixture)
