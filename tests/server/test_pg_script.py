"""``scripts/test-postgres`` may run while other test runs use the same PostgreSQL server
(two engineers' test runs, a benchmark beside a test): it drops only leftovers of killed
runs — test databases nobody is connected to and older than its limit — never a database
another run has just made or is using."""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
from pathlib import Path

import psycopg
import pytest
from sqlalchemy.engine import make_url

from tests.server.live import drop_pg_database, fresh_pg_database, require_pg

pytestmark = pytest.mark.slow  # PostgreSQL only: the fast tier runs the server on SQLite

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "test-postgres"


def _can_administer() -> bool:
    """The script works as root, or through passwordless sudo."""
    if os.geteuid() == 0:
        return True
    sudo = shutil.which("sudo")
    return sudo is not None and subprocess.run([sudo, "-n", "true"]).returncode == 0


def _dsn(url: str, database: str) -> str:
    return (
        make_url(url)
        .set(drivername="postgresql", database=database)
        .render_as_string(hide_password=False)
    )


def _databases(admin: str) -> set[str]:
    with psycopg.connect(_dsn(admin, "postgres"), autocommit=True) as conn:
        rows = conn.execute("SELECT datname FROM pg_database").fetchall()
    return {r[0] for r in rows}


def test_test_postgres_keeps_databases_in_use_and_new_ones(tmp_path: Path) -> None:
    admin = require_pg()
    if not _can_administer():
        pytest.skip("scripts/test-postgres needs root or passwordless sudo")
    # A leftover of a run killed long ago (2001 in its name), one of the same age someone
    # is still connected to, and one a parallel run has just made (not connected yet).
    stale = f"tk20_test_1000000000_{secrets.token_hex(6)}"
    busy = f"tk20_test_1000000000_{secrets.token_hex(6)}"
    with psycopg.connect(_dsn(admin, "postgres"), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{stale}"')
        conn.execute(f'CREATE DATABASE "{busy}"')
    fresh = fresh_pg_database(admin)
    fresh_name = make_url(fresh).database
    try:
        with psycopg.connect(_dsn(admin, busy)):
            out = subprocess.run(
                [str(SCRIPT)], capture_output=True, text=True, timeout=120, check=True
            )
            left = _databases(admin)
        assert out.stdout.strip().startswith("postgresql+psycopg://tk20_test:")
        assert stale not in left
        assert busy in left
        assert fresh_name in left
    finally:
        for name in (stale, busy):
            drop_pg_database(make_url(fresh).set(database=name).render_as_string(False))
        drop_pg_database(fresh)
