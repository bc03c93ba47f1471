"""The server process's garbage-collector settings (issue 10: a full collection walks every
game held in memory while every request waits; docs/performance.md, "Quiet re-run after the
sixth round"). Checked over the application's own start and stop (its lifespan),
in-process: the settings are of the process, not of any answer."""

from __future__ import annotations

import asyncio
import gc
from pathlib import Path

from taistelukentta.server.app import create_app
from taistelukentta.server.settings import Settings


def _while_running(settings: Settings) -> tuple[tuple[int, ...], int]:
    """The collector's thresholds and freeze count while the server runs."""
    app = create_app(settings)

    async def run() -> tuple[tuple[int, ...], int]:
        async with app.router.lifespan_context(app):
            return gc.get_threshold(), gc.get_freeze_count()

    return asyncio.run(run())


def test_the_server_sets_the_collector_up_while_it_runs_and_restores_it(tmp_path: Path) -> None:
    before = gc.get_threshold()
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'gc.sqlite3'}", run_computer=False)
    assert settings.gc_thresholds is not None and before != settings.gc_thresholds
    thresholds, frozen = _while_running(settings)
    assert thresholds == settings.gc_thresholds
    assert frozen > 0  # what the start left alive is out of the collector's walk
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


def test_none_and_false_leave_the_collector_alone(tmp_path: Path) -> None:
    before = gc.get_threshold()
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'gc.sqlite3'}",
        run_computer=False,
        gc_thresholds=None,
        gc_freeze=False,
    )
    assert _while_running(settings) == (before, 0)
    assert gc.get_threshold() == before
