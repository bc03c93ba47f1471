"""Test tiers: ``pytest -m "not slow"`` is the fast tier, plain ``pytest`` runs everything.

Every rule ID named by a slow test must also be named by a fast one, so the fast tier still
exercises every rule that has a test. The split is recorded here, before ``-m`` deselects
anything, and checked by ``tests/test_tiers.py``.

Property tests (hypothesis) run fewer examples in the fast tier (:func:`fast_examples` of the
count the test asks for); the full run (``.ci/run``: every test, no ``-m``) runs the full
count.

The test processes collect garbage less often (:func:`pytest_configure`): the suite builds
a great many long-lived objects (scenarios, model classes, hypothesis' state), and with
Python's default thresholds the cyclic collector went over them thousands of times — ~18 %
of the CPU of ``tests/engine``. They also write compiled modules where the environment says
not to (:func:`_cache_bytecode`).
"""

from __future__ import annotations

import gc
import os
import re
import sys
import tempfile
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import settings

if TYPE_CHECKING:
    from tests.server.live import LiveServers

RULE_ID = re.compile(r"(?<![a-z0-9])r_([a-z]+)_(\d+)")
"""A rule ID in a test's name: ``test_r_atk_4_...`` names R-ATK-4."""

TIERS = pytest.StashKey[tuple[frozenset[str], frozenset[str]]]()
"""(rule IDs named by fast tests, rule IDs named by slow tests) among the collected tests."""


def rule_ids(test_name: str) -> set[str]:
    """The rule IDs a test's function name names, as ``R-ATK-4``."""
    return {f"R-{kind.upper()}-{num}" for kind, num in RULE_ID.findall(test_name)}


def pytest_configure(config: pytest.Config) -> None:
    _scratch_in_memory()
    gc.set_threshold(10_000, 10, 10)  # default (700, 10, 10): a young pass every 700 objects
    # tk20's caches (storage/checked.py) in a folder of this run, not the user's; the tk20
    # processes the tests start inherit it
    if "TK20_CACHE_DIR" not in os.environ:
        os.environ["TK20_CACHE_DIR"] = tempfile.mkdtemp(prefix="tk20-test-cache-")
    _cache_bytecode()
    # no resident start-up process (tk20's launcher) outlives a test: the tk20 processes the
    # tests start run in-process; tests/test_cli_resident.py turns it on in its own folder
    os.environ["TK20_NO_RESIDENT"] = "1"


SCRATCH = "/dev/shm"
"""Where the tests put their throw-away files when the machine has it (a RAM file system)."""
SCRATCH_FREE = 2 << 30
"""The free space :data:`SCRATCH` must have to be used (2 GiB: a run writes ~100 MB)."""


def _scratch_in_memory() -> None:
    """The tests' throw-away files (``tmp_path``, the live servers' SQLite databases, game
    files, the resident process's folders) in :data:`SCRATCH` when it is a writable
    folder and ``TMPDIR`` does not name another place: the server keeps SQLite at
    ``synchronous=FULL`` and ``tk20`` writes game files with ``fsync``, each ~7 ms on this
    machine's disk and thousands of them in a run, waited for with both cores idle. What
    the product does is unchanged; only where its files go in the tests. Set here, before
    pytest picks its temporary root (lazily, at the first ``tmp_path``; pytest-xdist's
    workers get folders under the controller's), and in the environment for the
    processes the tests start."""
    if os.environ.get("TMPDIR") or not (
        os.path.isdir(SCRATCH) and os.access(SCRATCH, os.W_OK | os.X_OK)
    ):
        return
    free = os.statvfs(SCRATCH)
    if free.f_bavail * free.f_frsize < SCRATCH_FREE:
        return  # a small one (a container's 64 MB) would fill up: the disk then
    os.environ["TMPDIR"] = SCRATCH
    tempfile.tempdir = None  # tempfile reads TMPDIR again at its next call


def _cache_bytecode() -> None:
    """Let this run write compiled modules (``__pycache__``, git-ignored) even where the
    environment says not to (``PYTHONDONTWRITEBYTECODE``, set on the machines these
    sessions run on): otherwise every test process compiles the package and rewrites every
    test module's asserts again (~5 CPU-s of each worker's collection), and every ``tk20``
    and server process a test starts compiles what it imports (~0.1–0.5 CPU-s each). The
    variable is dropped for the processes the tests start, too."""
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    sys.dont_write_bytecode = False


def pytest_collection_finish(session: pytest.Session) -> None:
    if "matplotlib" in sys.modules:  # a test module prints (collection imported it)
        _memo_font_subsets()
    gc.collect()
    gc.freeze()  # the modules and data loaded so far live as long as the process


def _memo_font_subsets() -> None:
    """Subset each font for a given set of glyphs once per test process.

    A PDF print embeds its fonts cut down to the glyphs it uses (matplotlib's PDF backend,
    fontTools' subsetter): ~40 % of a print's CPU, the same few fonts and glyph sets print
    after print (the fast tier's prints asked for 56 subsets, 23 of them different). This
    memo keeps each subset's bytes and hands out a fresh font read from them: the PDF is
    byte-for-byte what it is without the memo (``tests/mapprint/test_print.py``
    ``test_a_memoised_font_subset_is_matplotlibs_own``). Nothing happens if matplotlib's
    internals move (the prints are then just slower)."""
    import importlib
    from contextlib import contextmanager
    from io import BytesIO

    try:
        ttfont: Any = importlib.import_module("fontTools.ttLib").TTFont
        pdf_ps: Any = importlib.import_module("matplotlib.backends._backend_pdf_ps")
        original = pdf_ps.get_glyphs_subset
        results = pdf_ps.SubsetResults
        as_file = pdf_ps.font_as_file
    except (ImportError, AttributeError):
        return
    if getattr(original, "_tk20_memo", False):
        return
    memo: dict[tuple[str, int, frozenset[Any]], tuple[bytes, dict[Any, Any]]] = {}

    @contextmanager
    def get_glyphs_subset(fontfile: Any, glyphs: Any) -> Iterator[Any]:
        gids = frozenset(glyphs)
        key = (str(fontfile), int(getattr(fontfile, "face_index", 0)), gids)
        if key not in memo:
            with original(fontfile, gids) as subset:
                memo[key] = (as_file(subset.font).getvalue(), dict(subset.glyph_index_map))
        data, index_map = memo[key]
        # as the subsetter opens it: no bounding boxes or time stamp recomputed on save
        with ttfont(BytesIO(data), recalcBBoxes=False, recalcTimestamp=False) as font:
            yield results(font, dict(index_map))

    get_glyphs_subset._tk20_memo = True  # type: ignore[attr-defined]
    get_glyphs_subset.original = original  # type: ignore[attr-defined]
    pdf_ps.get_glyphs_subset = get_glyphs_subset


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        _postgres_variant_in_the_slow_tier(item)
    fast: set[str] = set()
    slow: set[str] = set()
    for item in items:
        name = getattr(item, "originalname", item.name)
        (slow if item.get_closest_marker("slow") else fast).update(rule_ids(name))
    config.stash[TIERS] = (frozenset(fast), frozenset(slow))
    if fast_tier(config):
        for item in items:
            _fewer_examples(item)


def _postgres_variant_in_the_slow_tier(item: pytest.Item) -> None:
    """A test's PostgreSQL variant (a fixture or parameter of the test set to
    ``"postgres"``) is in the slow tier: the fast tier runs the server on SQLite, and
    needs no PostgreSQL. ``.ci/run`` (``scripts/test`` starts a PostgreSQL) runs both, and
    the tests only PostgreSQL has (two processes on one database, ``scripts/test-postgres``),
    whose modules mark themselves slow."""
    callspec = getattr(item, "callspec", None)
    if callspec is not None and "postgres" in callspec.params.values():
        item.add_marker(pytest.mark.slow)


# How ``-n N`` (pytest-xdist) hands out the tests: by file (a module's fixtures start once),
# the tests of the live servers as one unit (one worker starts the servers, once per database
# kind), the heaviest units first (a long file handed out last would leave the other worker
# idle at the end: the wall clock is the longest worker). A test missing from these lists is
# still run; the lists only steer the order.
_SCHEDULE_GROUPS = {
    "tests/server/": "live servers",
    "tests/campaign/test_campaign_server.py": "live servers",
    "tests/web/": "browser",  # one chromium and one web server (tests/web/conftest.py)
}
_SCHEDULE_FIRST = (
    "live servers",
    "browser",
    "tests/views/test_views.py",
    "tests/mapprint/test_print.py",
    "tests/fog/test_noninterference.py",
    "tests/test_cli_startup.py",
    "tests/golden/test_recorded_games.py",
    "tests/storage/test_file_safety.py",
    "tests/test_cli_resident.py",
    "tests/bots/test_search.py",
    "tests/bots/test_tactical.py",
    "tests/cli_game/test_language.py",
    "tests/mapprint/test_game_print.py",
    "tests/campaign/test_campaign_cli.py",
)


def schedule_unit(nodeid: str) -> str:
    """The unit of work a test is handed out in (:data:`_SCHEDULE_GROUPS`, else its file)."""
    for prefix, group in _SCHEDULE_GROUPS.items():
        if nodeid.startswith(prefix):
            return group
    return nodeid.split("::", 1)[0]


@pytest.hookimpl(tryfirst=True, optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """``--dist load`` (``-n``'s default) hands out :func:`schedule_unit` units, the
    heaviest first (:data:`_SCHEDULE_FIRST`); another ``--dist`` keeps xdist's own."""
    if config.getvalue("dist") != "load":
        return None
    from xdist.scheduler import LoadScopeScheduling  # type: ignore[import-untyped]

    class UnitScheduling(LoadScopeScheduling):  # type: ignore[misc]
        def _split_scope(self, nodeid: str) -> str:
            return schedule_unit(nodeid)

        def _assign_work_unit(self, node: Any) -> None:
            # LoadScopeScheduling queues the units in collection order and hands out the
            # first: move the heavy ones to the front once, before the first is handed out
            if not getattr(self, "_ranked", False):
                rank = {unit: i for i, unit in enumerate(_SCHEDULE_FIRST)}
                for unit in sorted(self.workqueue, key=lambda u: rank.get(u, len(rank))):
                    self.workqueue.move_to_end(unit)
                self._ranked = True
            super()._assign_work_unit(node)

    return UnitScheduling(config, log)


@pytest.fixture(scope="session")
def live_servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServers]:
    """The test process's shared ``tk20 serve`` processes, one per database kind, started
    when first asked for (``tests.server.live.LiveServers``): the server tests and the
    campaign server tests share them."""
    from tests.server.live import LiveServers

    servers = LiveServers(tmp_path_factory.mktemp("server"))
    try:
        yield servers
    finally:
        servers.stop()


def fast_tier(config: pytest.Config) -> bool:
    """Whether this run is the fast tier (``-m "not slow"``)."""
    return " ".join(str(config.getoption("markexpr", "") or "").split()) == "not slow"


def fast_examples(count: int) -> int:
    """A property test's example count in the fast tier: up to 10 as asked, else an eighth
    of it (at least 10); the full run (no ``-m``) runs the count the test asks for."""
    return count if count <= 10 else max(10, count // 8)


def _fewer_examples(item: pytest.Item) -> None:
    """Give a hypothesis test :func:`fast_examples` of its count (once per function: the
    parametrised copies of a test share it)."""
    test = getattr(item, "function", None)
    if not getattr(test, "is_hypothesis_test", False) or getattr(test, "_tk20_fast", False):
        return
    # hypothesis keeps a test's settings here (the @settings decorator writes it); fail
    # loudly if that changes rather than quietly running the full count
    current = test._hypothesis_internal_use_settings  # type: ignore[union-attr]
    test._hypothesis_internal_use_settings = settings(  # type: ignore[union-attr]
        current, max_examples=fast_examples(current.max_examples)
    )
    test._tk20_fast = True  # type: ignore[union-attr]


@pytest.fixture(autouse=True)
def _language_finnish() -> Iterator[None]:
    """Every test starts in Finnish, the default, and leaves Finnish behind: a test that
    runs ``tk20 --lang en`` in-process (typer's runner) or calls ``set_language`` sets the
    language of the worker's context, and the next test on that worker — whichever file the
    scheduler gives it — would read English (a clean-clone CI saw the play screen's score
    line in English after such a test)."""
    from taistelukentta.i18n import set_language

    set_language("fi")
    yield
    set_language("fi")


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config: pytest.Config) -> None:
    """Freeze the heap before the process exits: the interpreter's shutdown then skips its
    collections over everything the run left (scenarios, models, hypothesis' state: ~1 s
    per test process, waited for by pytest-xdist's controller at the end of the run)."""
    gc.freeze()
