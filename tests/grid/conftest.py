"""Shared fixtures for the grid tests."""

from __future__ import annotations

import pytest

from taistelukentta.content.loader import data_path
from taistelukentta.content.maps import load_map
from taistelukentta.content.terrain import default_terrain
from taistelukentta.grid import GameMap, TerrainTable


@pytest.fixture(scope="session")
def table() -> TerrainTable:
    return default_terrain()


@pytest.fixture(scope="session")
def example() -> GameMap:
    return load_map(data_path("maps", "example.toml"))
