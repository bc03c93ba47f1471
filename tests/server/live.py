"""A real ``tk20 serve`` in a subprocess, and a small client for the tests.

The database is SQLite (a file in a temporary folder) or PostgreSQL when
``TK20_TEST_PG_URL`` names one (``scripts/test`` starts a cluster and sets it); a fresh
PostgreSQL database is created per server group so tests never see each other's games.
"""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

PG_ENV = "TK20_TEST_PG_URL"

FIXED_SEED = bytes.fromhex("7e" * 32)
"""The seed of every game on a :meth:`LiveServers.fixed` server (tests only)."""


def free_port() -> int:
    """A TCP port free on the loopback interface now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def pg_admin_url() -> str | None:
    """The test PostgreSQL server's URL (a role that may create databases), if any."""
    return os.environ.get(PG_ENV) or None


def require_pg() -> str:
    """The PostgreSQL URL; in CI (``CI=true``) a missing one is a failure, not a skip."""
    import pytest

    url = pg_admin_url()
    if url is None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{PG_ENV} is not set: scripts/test must start PostgreSQL in CI")
        pytest.skip(f"no PostgreSQL ({PG_ENV} unset; scripts/test sets it)")
    return url


def fresh_pg_database(admin_url: str) -> str:
    """Create an empty database on the test server; its SQLAlchemy URL."""
    import psycopg
    from sqlalchemy.engine import make_url

    # The creation time in the name: scripts/test-postgres drops only old leftovers.
    name = f"tk20_test_{int(time.time())}_{secrets.token_hex(6)}"
    base = make_url(admin_url)
    dsn = base.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
        # a throw-away database: its commits need not wait for the disk (each ~7 ms here,
        # with both cores idle); the server's own transactions and locks are unchanged
        conn.execute(f'ALTER DATABASE "{name}" SET synchronous_commit = off')
    return base.set(drivername="postgresql+psycopg", database=name).render_as_string(
        hide_password=False
    )


def drop_pg_database(url: str) -> None:
    """Drop a database :func:`fresh_pg_database` made (after its servers stopped)."""
    import psycopg
    from sqlalchemy.engine import make_url

    target = make_url(url)
    dsn = target.set(drivername="postgresql", database="postgres").render_as_string(
        hide_password=False
    )
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{target.database}" WITH (FORCE)')


class Server:
    """One ``tk20 serve`` process."""

    def __init__(
        self,
        db_url: str,
        log: Path,
        args: tuple[str, ...] = (),
        env: dict[str, str] | None = None,
    ) -> None:
        self.db_url = db_url
        self.args = args
        self.env = env or {}
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = log
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 150.0) -> Server:
        """Start the process and wait until it answers."""
        self.launch()
        return self.wait_ready(timeout)

    def launch(self) -> None:
        """Start the process without waiting for it (:meth:`wait_ready`)."""
        env = {**os.environ, "PYTHONUNBUFFERED": "1", **self.env}
        env.pop("TK20_DATABASE_URL", None)
        fh = self.log.open("ab")
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "taistelukentta",
                "serve",
                "--port",
                str(self.port),
                "--db",
                self.db_url,
                "--log-level",
                "warning",
                *self.args,
            ],
            stdout=fh,
            stderr=subprocess.STDOUT,
            env=env,
        )

    def wait_ready(self, timeout: float = 150.0) -> Server:
        """Wait until the launched process answers; kill it if it does not in time."""
        assert self.proc is not None, "launch() first"
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log.read_text(errors='replace')}")
            try:
                if httpx.get(self.base + "/api/scenarios", timeout=2).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        self.kill()
        tail = self.log.read_text(errors="replace")[-2000:]
        raise RuntimeError(f"server did not start in {timeout:.0f} s: {tail}")

    def kill(self) -> None:
        """``kill -9``."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        """Stop gracefully (SIGTERM), then kill."""
        self.terminate()
        self.wait_stopped()

    def terminate(self) -> None:
        """Ask the process to stop (SIGTERM) without waiting for it."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()

    def wait_stopped(self) -> None:
        """Wait for a process asked to stop; kill it after 15 s."""
        if self.proc is not None:
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()


@contextmanager
def running(
    db_url: str, log: Path, args: tuple[str, ...] = (), env: dict[str, str] | None = None
) -> Iterator[Server]:
    """A started server, stopped afterwards."""
    server = Server(db_url, log, args, env).start()
    try:
        yield server
    finally:
        server.stop()


class LiveServers:
    """The test process's shared servers, one per database kind (``sqlite``, ``postgres``),
    each started when a test first asks for it and stopped at the end of the run: one
    start per kind and process whatever order the tests come in (~2 CPU-s and a few
    seconds each). A PostgreSQL server gets a fresh database, dropped afterwards. Each kind
    has a scenario folder of its own (:meth:`scenarios`), empty unless a test publishes or
    writes a scenario there (the server reads the folder at each request). They log at info
    level (every request; the fair-dice test reads the whole log for the seed)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.started: dict[str, Server] = {}

    def get(self, kind: str) -> Server:
        """The server of ``kind``, started now if it is not yet (skips the test when
        PostgreSQL is not available)."""
        if kind not in self.started:
            if kind == "sqlite":
                url = f"sqlite:///{self.folder / 'tk20.sqlite3'}"
            else:
                url = fresh_pg_database(require_pg())
            # the log at info level: the fair-dice test looks for the seed in all of it
            args = ("--scenarios", str(self.scenarios(kind)), "--log-level", "info")
            server = Server(url, self.folder / f"server-{kind}.log", args)
            try:
                server.start()
            except BaseException:
                cleanup_db(url)
                raise
            self.started[kind] = server
        return self.started[kind]

    def scenarios(self, kind: str) -> Path:
        """The scenario folder (``--scenarios``) of the servers of ``kind``: empty until a
        test publishes into it (the editor's tests)."""
        folder = self.folder / f"scenarios-{kind}"
        folder.mkdir(exist_ok=True)
        return folder

    def second(self, kind: str) -> Server:
        """A second server process on the database of :meth:`get`'s server of ``kind``
        (two processes on one database: NOTIFY, catching up from the database), started
        when first asked for and shared like the first: every test makes its own games."""
        first = self.get(kind)
        key = f"{kind}-second"
        if key not in self.started:
            server = Server(first.db_url, self.folder / f"server-{key}.log", first.args)
            self.started[key] = server.start()
        return self.started[key]

    def fixed(self, *worlds: str) -> tuple[Server, ...]:
        """SQLite servers, one per ``world``, whose every new game gets the seed
        :data:`FIXED_SEED` (``TK20_TEST_FIXED_SEED``), so two games — on two such
        servers, each world with its own scenario folder (:meth:`scenarios` of
        ``fixed-WORLD``) — can be compared roll for roll; started when first asked for
        (those not yet running launched together: a start is ~1.5 s of one core) and
        shared like the others."""
        pending = []
        for world in worlds:
            key = f"fixed-{world}"
            if key not in self.started:
                server = Server(
                    f"sqlite:///{self.folder / f'tk20-{key}.sqlite3'}",
                    self.folder / f"server-{key}.log",
                    ("--scenarios", str(self.scenarios(key))),
                    {"TK20_TEST_FIXED_SEED": FIXED_SEED.hex()},
                )
                server.launch()
                self.started[key] = server
                pending.append(server)
        for server in pending:
            server.wait_ready()
        return tuple(self.started[f"fixed-{world}"] for world in worlds)

    def stop(self) -> None:
        """Stop every started server, then drop their PostgreSQL databases."""
        try:
            for server in self.started.values():  # all at once: each takes ~0.7 s to stop
                server.terminate()
            for server in self.started.values():
                server.wait_stopped()
        finally:
            for url in dict.fromkeys(server.db_url for server in self.started.values()):
                cleanup_db(url)
            self.started.clear()


class Seat:
    """A client for one seat's token."""

    def __init__(self, server: Server, game_id: str, token: str) -> None:
        self.base = server.base
        self.game = game_id
        self.token = token
        self.http = httpx.Client(
            base_url=f"{server.base}/api/games/{game_id}",
            headers={"Authorization": f"Bearer {token}"},
            timeout=60,
        )

    def get(self, path: str, **params: Any) -> httpx.Response:
        """GET a game endpoint."""
        return self.http.get(path, params=params)

    def view(self) -> dict[str, Any]:
        """``{"version", "view"}``."""
        r = self.get("/view")
        assert r.status_code == 200, r.text
        out: dict[str, Any] = r.json()
        return out

    def order(self, text: str, version: int, key: str | None = None) -> httpx.Response:
        """POST an order."""
        headers = {"Idempotency-Key": key} if key else {}
        return self.http.post("/orders", json={"order": text, "version": version}, headers=headers)

    def ws_url(self, after: int | None = None) -> str:
        """The WebSocket URL with the token as a query parameter."""
        url = f"ws://127.0.0.1:{self.base.rsplit(':', 1)[1]}/api/games/{self.game}/ws"
        url += f"?token={self.token}"
        if after is not None:
            url += f"&after={after}"
        return url


def create(server: Server, scenario: str = "demo", **body: Any) -> dict[str, Any]:
    """POST /api/games; the answer."""
    r = httpx.post(f"{server.base}/api/games", json={"scenario": scenario, **body}, timeout=60)
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def seats(server: Server, created: dict[str, Any]) -> dict[str, Seat]:
    """A client per seat of a created game."""
    return {
        name: Seat(server, created["id"], inv["token"]) for name, inv in created["seats"].items()
    }


def blue_done_until(
    server: Server, clients: dict[str, Seat], *, finished: bool = True, timeout: float = 180
) -> dict[str, Any]:
    """Blue's seats act whenever Blue is to (the computer plays Red) until the game ends:
    the first ``fire``/``attack`` order if there is one, else the move furthest east,
    else ``done``; the co's last view."""
    deadline = time.monotonic() + timeout
    blue = [s for s in clients if s != "gm"]
    while time.monotonic() < deadline:
        view: dict[str, Any] = clients["co"].view()["view"]
        if view["finished"]:
            return view
        if view["active_side"] != "blue":
            time.sleep(0.02)
            continue
        blue_seats_act(clients, blue, fight=True)
    raise AssertionError("the game did not end in time")


def blue_seats_act(clients: dict[str, Seat], blue: list[str], *, fight: bool) -> None:
    """Each Blue seat gives one order: the first ``fire``/``attack`` if ``fight`` and there
    is one, else the move furthest east, else ``done``."""
    for name in blue:
        body = clients[name].get("/orders").json()
        if fight:
            hits = [o for o in body["orders"] if o.startswith(("fire ", "attack "))]
            if hits and clients[name].order(hits[0], body["version"]).status_code == 200:
                continue
        moves = [o for o in body["orders"] if o.startswith("move ")]
        if moves:
            east = max(moves, key=lambda o: int(o.rsplit(" ", 1)[1].split(",")[0]))
            if clients[name].order(east, body["version"]).status_code == 200:
                continue
        if "done" in body["orders"]:
            clients[name].order("done", body["version"])


def new_db_url(kind: str, folder: Path) -> str:
    """A fresh empty database of ``kind`` (``sqlite`` file in ``folder`` or a new
    PostgreSQL database)."""
    if kind == "sqlite":
        return f"sqlite:///{folder / f'tk20-{secrets.token_hex(4)}.sqlite3'}"
    return fresh_pg_database(require_pg())


def cleanup_db(url: str) -> None:
    """Drop a PostgreSQL test database (SQLite files go with their folder)."""
    if url.startswith("postgresql"):
        drop_pg_database(url)


@dataclass
class CliRun:
    """What a ``tk20`` command gave: its exit status and outputs."""

    returncode: int
    stdout: str
    stderr: str


def tk20_in_process(*args: str) -> CliRun:
    """``tk20 ARGS`` in-process (typer's runner) — for tests whose subject is a file or an
    output, not the process (a fresh interpreter costs ~0.8 CPU-s); a crash fails the test."""
    from typer.testing import CliRunner

    from taistelukentta.cli.app import app

    result = CliRunner().invoke(app, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return CliRun(result.exit_code, result.stdout, result.stderr)
