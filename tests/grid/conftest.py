"""Shared fixtures for the grid tests."""

from __future__ import annotations

import pytest

from taistelukentta.content.loader import data_path
from taistelukentta.grid import GameMap, TerrainTable, default_terrain, load_map


@pytest.fixture(scope="session")
def table() -> TerrainTable:
    return default_terrain()


@pytest.fixture(scope="session")
def example() -> GameMap:
    return load_map(data_path("maps", "example.toml"))
