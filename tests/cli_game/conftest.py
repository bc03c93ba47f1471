"""Fixtures of the CLI game tests: the language back to Finnish after every test, and a new
``demo`` game file made by ``tk20 new``."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from taistelukentta.cli.app import app
from taistelukentta.i18n import set_language


@pytest.fixture(autouse=True)
def _finnish() -> Iterator[None]:
    """A test may switch the language (``--lang en``, ``set_language``): back to Finnish."""
    yield
    set_language("fi")


@pytest.fixture
def game_seed() -> int:
    """The dice seed of :func:`game` (a test module overrides it to play another game)."""
    return 7


@pytest.fixture(scope="session")
def _new_games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where ``tk20 new demo --seed N`` writes its game, once per seed and test process."""
    return tmp_path_factory.mktemp("new-games")


@pytest.fixture
def game(tmp_path: Path, game_seed: int, _new_games: Path) -> Path:
    """The test's own copy of a new ``demo`` game file of seed :func:`game_seed`."""
    made = _new_games / f"demo-{game_seed}.json"
    if not made.exists():
        result = CliRunner().invoke(
            app, ["new", "demo", "--seed", str(game_seed), "--out", str(made)]
        )
        assert result.exit_code == 0, result.output
        assert result.stdout.strip() == str(made)  # `new` names the file it wrote
    path = tmp_path / "g.json"
    shutil.copyfile(made, path)
    return path
