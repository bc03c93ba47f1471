"""The resident start-up process (issue 7): ``tk20``'s short commands run in a forked child
of a process that has imported everything once (``cli/launcher.py``, ``cli/resident.py``).

These tests run real ``tk20`` processes (``python -m taistelukentta``) with the resident
process on, in a folder of their own, and stop it at the end. They check that a command gives
the same bytes and exit status through it as in its own process, that the first command
starts one, that a changed package or a stale socket is never used and an unusable one falls
back silently, and that nothing of a game stays in the resident process's memory.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from taistelukentta.cli import launcher

pytestmark = pytest.mark.skipif(os.name != "posix", reason="the resident process is POSIX only")

TK20 = [sys.executable, "-m", "taistelukentta"]


class Resident:
    """A folder for resident processes and the environment that uses it."""

    def __init__(self, folder: Path, cpu_file: Path) -> None:
        self.folder = folder
        self.cpu_file = cpu_file
        self.env = {k: v for k, v in os.environ.items() if k != launcher.OFF_VARIABLE}
        self.env[launcher.DIR_VARIABLE] = str(folder)
        self.env["TK20_RESIDENT_CPU_FILE"] = str(cpu_file)

    def run(
        self, argv: list[str], env: dict[str, str] | None = None, cwd: Path | None = None
    ) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run(
            [*TK20, *argv],
            capture_output=True,
            env=env or self.env,
            cwd=cwd,
            check=False,
            timeout=120,
        )

    def pids(self) -> list[int]:
        """The resident processes running from this folder (their lock files hold the pid)."""
        found = []
        for lock in self.folder.glob("*.lock"):
            text = lock.read_text().strip()
            if text.isdigit() and _alive(int(text)):
                found.append(int(text))
        return found

    def wait_ready(self, count: int = 1) -> None:
        """Wait until ``count`` resident processes listen."""
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            socks = list(self.folder.glob("*.sock"))
            if len(socks) >= count and len(self.pids()) >= count:
                return
            time.sleep(0.1)
        raise AssertionError(f"no resident process listens in {self.folder}")

    def resident_runs(self) -> int:
        """How many commands a resident child has answered (the client's CPU report)."""
        if not self.cpu_file.exists():
            return 0
        return len(self.cpu_file.read_text().splitlines())

    def stop(self) -> None:
        """SIGTERM every resident process of this folder, again each second while it runs
        (once in CI a resident process that had just started outlived a single SIGTERM by
        30 s, cause not found yet; it would still end by its idle timeout); one that
        outlives 30 s of them fails the test."""
        deadline = time.monotonic() + 30
        sent = 0.0
        while self.pids() and time.monotonic() < deadline:
            if time.monotonic() - sent >= 1.0:
                sent = time.monotonic()
                for pid in self.pids():
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, signal.SIGTERM)
            time.sleep(0.05)
        assert not self.pids(), "a resident process did not stop"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    return not (stat.exists() and stat.read_text().split(") ")[-1].startswith("Z"))


@pytest.fixture
def resident() -> Iterator[Resident]:
    """A folder of its own, no resident process running yet."""
    yield from _resident()


@pytest.fixture(scope="module")
def running() -> Iterator[Resident]:
    """A resident process started by a first command (``scenarios``), shared by the tests
    that only use it (each start costs a probe of the commands and the imports)."""
    for res in _resident():
        first = res.run(["scenarios"])
        assert first.returncode == 0, first.stderr
        assert res.resident_runs() == 0  # nothing listened: in-process, then one started
        res.wait_ready()
        yield res


def _resident() -> Iterator[Resident]:
    # a short path: a Unix socket's path has a limit of ~100 bytes
    folder = Path(tempfile.mkdtemp(prefix="tk20r-"))
    os.chmod(folder, 0o700)
    res = Resident(folder / "run", folder / "cpu.txt")
    res.folder.mkdir(mode=0o700)
    try:
        yield res
    finally:
        res.stop()
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def fresh_game() -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="tk20g-"))
    game = folder / "fresh.json"
    env = {**os.environ, launcher.OFF_VARIABLE: "1"}
    done = subprocess.run(
        [*TK20, "new", "demo", "--seed", "5", "--out", str(game)],
        capture_output=True,
        env=env,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    yield game
    shutil.rmtree(folder, ignore_errors=True)


# the cases (each runs twice: through a resident child and in its own process, ~0.6 CPU-s):
# a show with a language and an option, an order written to the file and a refused order;
# then the others (a plain show and typer's usage error among them)
CASES = [
    ["--lang", "en", "show", "{g}", "--as", "pl1", "--events", "2"],
    ["order", "{g}", "--as", "pl1", "move 1JJ 0,3", "--json"],
    ["order", "{g}", "--as", "pl1", "defend 1XX"],  # refused: exit 2, a message
]
MORE_CASES = [
    ["show", "{g}", "--as", "pl1"],
    ["show", "{g}", "--as"],  # typer's usage error
    ["show", "{g}", "--as=blue", "--json"],
    ["orders", "{g}", "--as", "co"],
    ["--help"],
    ["orders", "{g}", "--as", "pl1", "--json"],
    ["order", "{g}", "--as", "pl1", "move 1JJ 0,3"],
    ["show", "{g}", "--as", "nobody"],  # a bad seat: exit 2
    ["show", "{g}/missing.json", "--as", "pl1"],  # no such file
    ["show", "--help"],
    ["--version"],
    ["scenarios"],
    ["--lang", "en", "rules", "R-ATK-1"],
]


@pytest.mark.parametrize(
    "cases",
    [  # the slow tier: the fast one compares a show's bytes through the resident process
        # in test_the_child_has_the_clients_folder_umask_environment_and_streams
        pytest.param(CASES, marks=pytest.mark.slow),
        pytest.param(MORE_CASES, marks=pytest.mark.slow),
    ],
    ids=["fast", "more"],
)
def test_commands_answer_the_same_bytes_through_the_resident_process(
    running: Resident, fresh_game: Path, tmp_path: Path, cases: list[list[str]]
) -> None:
    resident = running
    runs = resident.resident_runs()
    off = {**resident.env, launcher.OFF_VARIABLE: "1"}
    for case in cases:
        outputs = []
        for env in (resident.env, off):
            game = tmp_path / "g.json"
            game.write_bytes(fresh_game.read_bytes())
            argv = [a.replace("{g}", str(game)) for a in case]
            done = resident.run(argv, env=env, cwd=tmp_path)
            outputs.append((done.returncode, done.stdout, done.stderr, game.read_bytes()))
        assert outputs[0] == outputs[1], case
    assert resident.resident_runs() == runs + len(cases)  # each ran in a resident child
    assert len(resident.pids()) == 1


def test_the_child_has_the_clients_folder_umask_environment_and_streams(
    running: Resident, fresh_game: Path, tmp_path: Path
) -> None:
    resident = running
    runs = resident.resident_runs()
    (tmp_path / "g.json").write_bytes(fresh_game.read_bytes())
    env = {
        **resident.env,
        "NO_COLOR": "1",
        "COLUMNS": "61",
        "PYTHONIOENCODING": "ascii:backslashreplace",
    }
    out = tmp_path / "new.json"
    script = (
        "import os, sys; os.umask(0o077); sys.argv[0] = 'tk20';"
        "from taistelukentta.cli.launcher import main; main()"
    )
    for use_env in (env, {**env, launcher.OFF_VARIABLE: "1"}):
        out.unlink(missing_ok=True)
        done = subprocess.run(
            [sys.executable, "-c", script, "new", "demo", "--seed", "2", "--out", "new.json"],
            capture_output=True,
            env=use_env,
            cwd=tmp_path,
            check=False,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        assert out.stat().st_mode & 0o777 == 0o600  # the client's umask, in its folder
    runs += 1
    assert resident.resident_runs() == runs
    both = []
    for use_env in (env, {**env, launcher.OFF_VARIABLE: "1"}):
        done = resident.run(["--lang", "en", "show", "g.json", "--as", "pl1"], use_env, tmp_path)
        assert done.returncode == 0, done.stderr
        both.append(done.stdout)
    assert both[0] == both[1]
    assert resident.resident_runs() == runs + 1
    # the child writes to the very pipe it was given: a reader that stops early
    done = subprocess.run(
        f"{' '.join(TK20)} show g.json --as pl1 | head -c 10",
        shell=True,
        capture_output=True,
        env=env,
        cwd=tmp_path,
        check=False,
        timeout=120,
    )
    assert len(done.stdout) == 10


@pytest.mark.slow
def test_a_changed_package_never_uses_the_old_resident_process(
    resident: Resident, tmp_path: Path
) -> None:
    src = tmp_path / "src"
    shutil.copytree(
        Path(launcher.package_dir()),
        src / "taistelukentta",
        ignore=shutil.ignore_patterns("__pycache__", "web_dist"),
    )
    env = {**resident.env, "PYTHONPATH": str(src), "TK20_RESIDENT_IDLE": "8"}
    assert resident.run(["scenarios"], env=env).returncode == 0
    resident.wait_ready()
    old = resident.pids()
    assert resident.run(["scenarios"], env=env).returncode == 0
    assert resident.resident_runs() == 1
    # an edited source file: the next command runs in its own process and starts a new one
    edited = src / "taistelukentta" / "cli" / "common.py"
    edited.write_text(edited.read_text() + "\n# edited\n")
    os.utime(edited, ns=(time.time_ns(), time.time_ns() + 10**9))
    done = resident.run(["scenarios"], env=env)
    assert done.returncode == 0, done.stderr
    assert resident.resident_runs() == 1  # not through the stale one
    # the stale one sees its digest changed and exits (it checks every idle/4 seconds)
    deadline = time.monotonic() + 30
    while _alive(old[0]) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _alive(old[0])
    resident.wait_ready()
    assert resident.run(["scenarios"], env=env).returncode == 0
    assert resident.resident_runs() == 2  # the new one
    # idle: it exits by itself, and takes its socket with it
    deadline = time.monotonic() + 30
    while resident.pids() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert resident.pids() == []
    assert list(resident.folder.glob("*.sock")) == []


@pytest.mark.slow
def test_an_unusable_socket_or_folder_falls_back_silently(
    resident: Resident, fresh_game: Path, tmp_path: Path
) -> None:
    digest_env = {**resident.env}
    probe = "from taistelukentta.cli import launcher; print(launcher.runtime_dir(), launcher.key())"
    found = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, env=digest_env, check=True
    )
    folder, digest = found.stdout.split()
    path = Path(launcher.socket_path(folder, digest))
    # a socket file nobody listens on (a crashed one): refused, in-process, no message
    import socket

    dead = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    dead.bind(str(path))
    dead.close()
    game = tmp_path / "g.json"
    game.write_bytes(fresh_game.read_bytes())
    expected = resident.run(
        ["show", str(game), "--as", "pl1"], env={**resident.env, launcher.OFF_VARIABLE: "1"}
    )
    done = resident.run(["show", str(game), "--as", "pl1"])
    assert (done.returncode, done.stdout, done.stderr) == (0, expected.stdout, expected.stderr)
    # a listener that answers nonsense: the same
    resident.stop()
    path.unlink(missing_ok=True)
    liar = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    liar.bind(str(path))
    liar.listen(1)
    proc = subprocess.Popen(
        [*TK20, "show", str(game), "--as", "pl1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=resident.env,
    )
    conn, _ = liar.accept()
    conn.recv(1 << 16)
    conn.sendall(b"\x00\x00\x00\x05junk!")
    conn.close()
    out, err = proc.communicate(timeout=120)
    liar.close()
    assert (proc.returncode, out, err) == (0, expected.stdout, expected.stderr)
    assert resident.resident_runs() == 0
    # a folder others may enter is not used at all
    resident.stop()
    path.unlink(missing_ok=True)
    os.chmod(resident.folder, 0o755)
    try:
        done = resident.run(["show", str(game), "--as", "pl1"])
        assert (done.returncode, done.stdout) == (0, expected.stdout)
        time.sleep(1)
        assert list(resident.folder.glob("*.sock")) == []
    finally:
        os.chmod(resident.folder, 0o700)


def test_a_signal_reaches_the_child_and_the_exit_is_the_in_process_one(
    running: Resident, tmp_path: Path
) -> None:
    """A signal to ``tk20`` goes to the child running the command; a SIGTERM kills the
    client as it would kill an in-process ``tk20``."""
    resident = running
    # a command that waits on its stdin (an order from '-' is not a thing; `new` with a
    # prompt is not either): use the resident child's pid, reported to the client
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    # show reads the game file: a FIFO blocks it until the signal comes
    proc = subprocess.Popen(
        [*TK20, "show", str(fifo), "--as", "pl1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=resident.env,
    )
    child = _wait_child(resident)
    proc.send_signal(signal.SIGTERM)
    proc.communicate(timeout=60)
    assert proc.returncode == -signal.SIGTERM
    deadline = time.monotonic() + 10
    while _alive(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(child)


def _wait_child(resident: Resident) -> int:
    (server,) = resident.pids()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        children = Path(f"/proc/{server}/task/{server}/children")
        if children.exists():
            pids = [int(p) for p in children.read_text().split()]
            if pids:
                time.sleep(0.5)  # past the handshake
                return pids[0]
        time.sleep(0.05)
    raise AssertionError("no child started")


def test_nothing_of_a_game_stays_in_the_resident_process(
    running: Resident, fresh_game: Path, tmp_path: Path
) -> None:
    """The parent forks before reading a request: after commands on a game whose file,
    folder, order text and environment carry a marker, the marker is nowhere in the
    resident process's memory, and no child of it is left."""
    resident = running
    runs = resident.resident_runs()
    (server,) = resident.pids()
    marker = "Zq" + os.urandom(8).hex()
    folder = tmp_path / marker
    folder.mkdir()
    game = folder / f"{marker}.json"
    game.write_bytes(fresh_game.read_bytes())
    env = {**resident.env, "TK20_MARKER": marker}
    for argv in (
        ["show", str(game), "--as", "pl1"],
        ["orders", str(game), "--as", "pl1"],
        ["order", str(game), "--as", "pl1", f"move 1JJ 0,3 # {marker}"],
        ["show", str(game), "--as", "gm", "--json"],
    ):
        resident.run(argv, env=env, cwd=folder)
    assert resident.resident_runs() == runs + 4
    children = Path(f"/proc/{server}/task/{server}/children")
    deadline = time.monotonic() + 10  # the last one is reaped within a second
    while children.read_text().split() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert children.read_text().split() == []
    try:
        memory = _memory_of(server)
    except PermissionError:
        pytest.skip("this system does not let a process read another's memory")
    assert memory, "read nothing"
    assert marker.encode() not in memory
    assert marker.encode("utf-16-le") not in memory
    assert (fresh_game.read_bytes()[:200]) not in memory  # the game file's text, neither


def _memory_of(pid: int) -> bytes:
    """The readable, writable memory of process ``pid`` (Linux ``/proc``)."""
    chunks = []
    with open(f"/proc/{pid}/maps") as maps, open(f"/proc/{pid}/mem", "rb", 0) as mem:
        for line in maps:
            fields = line.split()
            if "r" not in fields[1] or "w" not in fields[1]:
                continue
            start, end = (int(x, 16) for x in fields[0].split("-"))
            try:
                mem.seek(start)
                chunks.append(mem.read(end - start))
            except OSError:
                continue
    return b"".join(chunks)


def test_a_kept_bundled_scenario_serves_only_its_exact_file_and_options(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The resident process keeps the bundled scenarios loaded; a game gets the kept one
    only when the file it loads is byte for byte the kept file, with the same options and
    no overlay — an edited scenario is loaded from its text."""
    from taistelukentta.content import scenario as scenarios

    bundled = scenarios.scenarios_dir()
    folder = tmp_path / "scenarios"
    folder.mkdir()
    shutil.copy(bundled / "demo.toml", folder / "demo.toml")
    monkeypatch.setattr(scenarios, "_RESIDENT_SCENARIOS", {})
    monkeypatch.setattr(scenarios, "scenarios_dir", lambda: folder)
    assert scenarios.load_scenario("demo") is not scenarios.load_scenario("demo")  # not kept
    scenarios.keep_bundled_scenarios()
    (kept,) = scenarios.kept_scenarios()
    assert scenarios.load_scenario("demo") is kept
    assert scenarios.load_scenario("demo", {}) is kept
    other = scenarios.load_scenario("demo", {"opposed_tie": "active"})
    assert other is not kept and other.options.opposed_tie == "active"
    # the same text elsewhere is another file
    shutil.copy(folder / "demo.toml", tmp_path / "demo.toml")
    assert scenarios.load_scenario(str(tmp_path / "demo.toml")) is not kept
    # an edited file: loaded from its text
    text = (folder / "demo.toml").read_text(encoding="utf-8")
    assert "rounds = 6" in text
    (folder / "demo.toml").write_text(text.replace("rounds = 6", "rounds = 5"), "utf-8")
    edited = scenarios.load_scenario("demo")
    assert edited is not kept and (edited.rounds, kept.rounds) == (5, 6)
