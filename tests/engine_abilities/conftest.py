"""Builders and scripted dice for the abilities tests (shared with tests/engine)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.engine.conftest import Dice


@pytest.fixture
def dice(monkeypatch: pytest.MonkeyPatch) -> Iterator[Dice]:
    yield Dice(monkeypatch)
