"""Server settings: where the database is and the limits on input."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

ENV_DATABASE_URL = "TK20_DATABASE_URL"
ENV_TEST_FIXED_SEED = "TK20_TEST_FIXED_SEED"
DEFAULT_PORT = 8420

MAX_BODY_BYTES = 16 * 1024
"""Largest request body accepted (413 above)."""
EDITOR_MAX_BODY_BYTES = 4 * 1024 * 1024
"""Largest body of the scenario editor's endpoints (``/api/editor/``: a whole scenario
with its map; a 500 × 500 map with heights is about 1.5 MB)."""
EDITOR_PATH = "/api/editor/"
MAX_ORDER_CHARS = 200
"""Longest order text accepted (orders are short notation: ``move 1R1 12,7``)."""
MAX_KEY_CHARS = 200
"""Longest Idempotency-Key accepted."""
MAX_VERSION = 2**31 - 1
"""Largest version number a client may send."""


def data_dir() -> Path:
    """The user's data directory for tk20 (platformdirs), created on demand."""
    from platformdirs import user_data_dir

    path = Path(user_data_dir("taistelukentta", appauthor=False))
    path.mkdir(parents=True, exist_ok=True)
    return path


def default_database_url() -> str:
    """``TK20_DATABASE_URL`` if set, else a SQLite file in the user's data directory."""
    env = os.environ.get(ENV_DATABASE_URL)
    if env:
        return env
    return f"sqlite:///{data_dir() / 'tk20.sqlite3'}"


def web_dist_dir() -> Path:
    """Where the built browser client lives inside the package (``web/`` builds into it)."""
    return Path(__file__).resolve().parent.parent / "web_dist"


@dataclass(frozen=True)
class Settings:
    """Everything a server process is configured with."""

    database_url: str = field(default_factory=default_database_url)
    snapshot_every: int = 100
    """A state snapshot is stored every this many log entries (fast load: at most this
    many orders are replayed on a load). Writing one serialises the whole state with its
    log, so every 25 entries cost ~12 % of the server's CPU under the benchmark."""
    cached_games: int = 512
    """How many games a process keeps in memory (least recently used dropped first; a
    dropped game is loaded again from its newest snapshot)."""
    run_computer: bool = True
    """Play the computer seats (tests of the raw log may switch it off)."""
    web_dist: Path = field(default_factory=web_dist_dir)
    scenario_dirs: tuple[Path, ...] = ()
    """Folders of extra scenario files (``tk20 serve --scenarios DIR``): ``DIR/ID.toml``
    becomes scenario ``ID`` beside the bundled ones."""
    switch_interval: float | None = 0.001
    """The interpreter's thread switch interval in the server process, in seconds
    (``sys.setswitchinterval``; None: Python's default 5 ms). A thread that wants the
    interpreter lock while another computes waits up to this long: the event loop that
    sends an order's WebSocket messages, or the thread committing it, waited up to 5 ms
    at each such hand-over behind a view being built."""
    gc_thresholds: tuple[int, int, int] | None = (700, 10, 1000)
    """The garbage collector's thresholds in the server process (``gc.set_threshold``;
    None: Python's, ``(700, 10, 10)``). A full collection walks every object of the
    process — the games held in memory, their states, caches and views — and every request
    waits while it runs: under the benchmark's 50 games, 13 of them a run, up to 321 ms each
    (docs/performance.md). The young generations keep their default sizes (short pauses);
    a full collection waits for 1 000 collections of the middle one instead of 10."""
    gc_freeze: bool = True
    """Move everything alive once the server has started (its modules, the bundled
    scenarios, the database engine) out of the collector's walk (``gc.freeze``): none of
    it is ever garbage, and no collection has to walk it again."""
    fixed_seed: bytes | None = None
    """Tests only (``TK20_TEST_FIXED_SEED``): every new game gets this seed, so two games
    can be compared roll for roll. Never set on a real server: the dice become known."""
