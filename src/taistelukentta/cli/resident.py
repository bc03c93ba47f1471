"""The resident start-up process: ``tk20`` commands run in its forked children.

Started detached by :mod:`taistelukentta.cli.launcher` (``python -P -m
taistelukentta.cli.resident FOLDER DIGEST``) after a command ran in-process. It

1. checks that it is what the client asked for (its own :func:`launcher.key` equals
   ``DIGEST``: same interpreter, flags, package files and installed packages) and that no
   other process serves ``DIGEST`` (an exclusive lock on ``DIGEST.lock``);
2. imports what the player's commands import: a probe child runs ``new``/``show``/
   ``orders``/``order``/``--help`` on a throw-away ``demo`` game in a temporary folder and
   reports the names of the modules it loaded, and this process imports the same names.
   The probe's game, output and data die with the probe: this process holds modules (code
   and the bundled, public data they load at import) — never a game;
3. listens on ``DIGEST.sock`` (mode 0600 in a 0700 folder; a connecting process must be
   of the same user, ``SO_PEERCRED``) and forks a child per connection. The parent reads
   nothing of a request: the child receives the client's stdin/stdout/stderr, argv, working
   folder, environment and umask, makes its interpreter look like the client's (std
   streams with the client's encodings, ``os.environ``, locale, signal handlers,
   ``sys.argv``, ``__main__.__package__``, the rich consoles re-detected), runs
   :func:`taistelukentta.cli.app.main` and sends back its exit status and its own CPU
   time (``getrusage(RUSAGE_SELF)``). Children exit after one command, so nothing of one
   game outlives its request;
4. exits after :data:`launcher.IDLE_SECONDS` without a request, when its package files or
   installed packages change (the digest no longer matches; checked every
   :data:`CHECK_SECONDS`), when its socket file is removed or replaced, or on SIGTERM.
"""

from __future__ import annotations

import atexit
import contextlib
import errno
import fcntl
import importlib
import io
import locale
import marshal
import os
import resource
import signal
import socket
import sys
import tempfile
import time
import types
from collections.abc import Callable

from taistelukentta.cli import launcher

CHECK_SECONDS = 20.0
"""How often an idle resident process checks that its digest and socket still hold."""

PROBE_SECONDS = 120.0
"""The longest the module probe may take."""

PROBE_COMMANDS: tuple[tuple[str, ...], ...] = (
    ("new", "demo", "--seed", "1", "--out", "{game}"),
    ("show", "{game}", "--as", "pl1"),
    ("orders", "{game}", "--as", "pl1"),
    ("order", "{game}", "--as", "pl1", "move 1JJ 0,3"),
)
"""What the probe runs to learn which modules the player's commands load."""


# ----------------------------------------------------------------------------- the child


def _child_streams(setup: list[tuple[str | None, str | None, bool, bool]]) -> None:
    """New ``sys.stdin``/``stdout``/``stderr`` on fds 0–2, as the client's are."""
    made = []
    for fd, (encoding, errors, line_buffering, write_through) in enumerate(setup):
        mode = "r" if fd == 0 else "w"
        stream = io.TextIOWrapper(
            open(fd, mode + "b", closefd=False),  # noqa: SIM115 - until the process exits
            encoding=encoding,
            errors=errors,
            line_buffering=line_buffering,
            write_through=write_through,
        )
        made.append(stream)
    sys.stdin, sys.stdout, sys.stderr = made
    # the interpreter's originals, which some code falls back to, are the client's too
    sys.__stdin__, sys.__stdout__, sys.__stderr__ = made  # type: ignore[misc]


def _refresh_consoles() -> None:
    """The CLI's rich consoles decided colours, terminal and ``NO_COLOR`` when the resident
    process imported them: decide again for this client's streams and environment."""
    common = sys.modules.get("taistelukentta.cli.common")
    if common is None:
        return
    common.console.__init__()  # re-detect in place: the command modules hold them
    common.err_console.__init__(stderr=True)


def _exit_code(code: object) -> int:
    """The process status ``SystemExit(code)`` gives, as the interpreter computes it."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1


def _run_main(run: Callable[[], None]) -> int:
    """Run ``tk20``'s main as the interpreter would run it as a script: its exit status
    (an uncaught exception prints its traceback and gives 1)."""
    try:
        run()
    except SystemExit as exc:
        return _exit_code(exc.code)
    except KeyboardInterrupt:
        sys.excepthook(*sys.exc_info())
        _flush()
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGINT)  # as the interpreter does: die by SIGINT
        return 130
    except BaseException:
        sys.excepthook(*sys.exc_info())
        return 1
    return 0


def _flush() -> bool:
    ok = True
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            ok = False
    return ok


def child(conn: socket.socket, keep: list[int]) -> None:
    """Serve one client (in the forked child) and exit."""
    status = 1
    try:
        for fd in keep:
            os.close(fd)
        for signum in (signal.SIGTERM, signal.SIGHUP, signal.SIGCHLD, signal.SIGQUIT):
            signal.signal(signum, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.signal(signal.SIGPIPE, signal.SIG_IGN)  # as python sets it up
        conn.settimeout(launcher.HANDSHAKE_SECONDS)
        msg, fds, _flags, _addr = socket.recv_fds(conn, len(launcher.MAGIC) + 4, 3)
        if len(fds) != 3 or not msg.startswith(launcher.MAGIC):
            os._exit(2)
        data = launcher.recv_exact(conn, int.from_bytes(msg[len(launcher.MAGIC) :], "big"))
        request = marshal.loads(data) if data is not None else None
        if not isinstance(request, dict):
            os._exit(2)
        # make this process the client's; any failure so far: exit, the client runs the
        # command in its own process
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
            os.close(fd)
        os.chdir(request["cwd"])
        os.umask(request["umask"])
        os.environ.clear()
        os.environ.update(request["env"])
        with contextlib.suppress(locale.Error):
            locale.setlocale(locale.LC_CTYPE, "")
        sys.argv = list(request["argv"])
        main_module = types.ModuleType("__main__")
        main_module.__package__ = request["main_package"]
        sys.modules["__main__"] = main_module
        _child_streams(request["streams"])
        _refresh_consoles()
        launcher.send_frame(conn, ("pid", os.getpid()))
        if conn.recv(1) != b"g":  # the client gave up: run nothing
            os._exit(0)
        conn.settimeout(None)
        atexit._clear()
        from taistelukentta.cli.app import main

        status = _run_main(main)
        atexit._run_exitfuncs()
        if not _flush() and status == 0:
            status = 120  # as the interpreter reports a failed flush at exit
        usage = resource.getrusage(resource.RUSAGE_SELF)
        launcher.send_frame(conn, ("exit", status, usage.ru_utime, usage.ru_stime))
    except BaseException:
        status = 1
    finally:
        os._exit(status)


# ----------------------------------------------------------------------------- the probe


def _probe(folder: str) -> list[str]:
    """The modules the player's commands load (run in a forked, throw-away child)."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(read)
            os.environ["TK20_CACHE_DIR"] = "off"
            os.environ["NO_COLOR"] = "1"
            devnull = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(devnull, fd)
            from taistelukentta.cli.app import main

            with tempfile.TemporaryDirectory(dir=folder) as tmp:
                game = os.path.join(tmp, "g.json")
                for argv in PROBE_COMMANDS:
                    sys.argv = ["tk20", *(a.replace("{game}", game) for a in argv)]
                    _run_main(main)
            names = sorted(n for n in sys.modules if n != "__main__")
            os.write(write, marshal.dumps(names))
        finally:
            os._exit(0)
    os.close(write)
    chunks = []
    deadline = time.monotonic() + PROBE_SECONDS
    try:
        while time.monotonic() < deadline:
            chunk = os.read(read, 1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
    except BaseException:  # told to stop: the probe goes too
        os.kill(pid, signal.SIGKILL)
        raise
    finally:
        os.close(read)
        os.waitpid(pid, 0)
    try:
        names = marshal.loads(b"".join(chunks))
    except (EOFError, ValueError, TypeError):
        return []
    return [n for n in names if isinstance(n, str)]


def _warm_bundled() -> None:
    """Load the bundled scenarios and what the rules derive from a scenario alone: the
    default ruleset, each scenario's rule caches and the map's sight-ray table."""
    from taistelukentta.content import scenario as scenarios
    from taistelukentta.rules.context import cache_for

    scenarios.keep_bundled_scenarios()
    for scenario in scenarios.kept_scenarios():
        cache = cache_for(scenario)
        for _side, _seat, unit in scenario.placements():
            cache.visible_from(unit.cell)
            break


def preload(folder: str) -> None:
    """Import what the player's commands import (see :func:`_probe`), load the bundled
    scenarios (public, immutable: a game of one whose file is byte for byte the bundled
    one starts from it, ``content.scenario.keep_bundled_scenarios``), then freeze it all
    out of the garbage collector's sight (the children share these pages copy-on-write)."""
    for name in _probe(folder):
        if name in sys.modules or name.startswith("taistelukentta.cli.resident"):
            continue
        with contextlib.suppress(Exception):
            importlib.import_module(name)
    with contextlib.suppress(Exception):
        _warm_bundled()
    import gc

    gc.collect()
    gc.freeze()


# ----------------------------------------------------------------------------- the server


class _Stop(BaseException):
    """SIGTERM/SIGHUP: stop serving (a BaseException: no ``except Exception`` of the
    preload or a command module may swallow it)."""


class _StopRequest:
    """The SIGTERM/SIGHUP handler of :func:`serve`: it raises :class:`_Stop` to cut short
    what runs (the preload's imports, a wait) *and* remembers the request, so that a
    ``_Stop`` swallowed on its way (a bare ``except:`` in a module imported by the
    preload) still stops the process at the next check instead of at its idle timeout."""

    def __init__(self) -> None:
        self.requested = False

    def __call__(self, signum: int, frame: object) -> None:
        self.requested = True
        raise _Stop

    def check(self) -> None:
        if self.requested:
            raise _Stop


def serve(folder: str, digest: str) -> int:
    """Serve ``digest`` from ``folder`` until idle, stale or told to stop."""
    if launcher.key() != digest:
        return 2  # started by another interpreter or tree than the client's
    lock_path = os.path.join(folder, f"{digest}.lock")
    lock = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(lock)
        return 0  # one is running already
    os.ftruncate(lock, 0)
    os.write(lock, f"{os.getpid()}\n".encode())  # for whoever wants to stop it
    idle = _idle_seconds()
    check = min(CHECK_SECONDS, idle / 4)
    stop = _StopRequest()
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGHUP, stop)
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(var, "1")  # no BLAS thread pools in a process that forks
    path = launcher.socket_path(folder, digest)
    listener: socket.socket | None = None
    children: set[int] = set()
    try:
        preload(folder)
        stop.check()
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)  # a dead one's (we hold the lock)
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        old = os.umask(0o177)
        try:
            listener.bind(path)
        finally:
            os.umask(old)
        os.chmod(path, 0o600)
        inode = os.stat(path).st_ino
        listener.listen(64)
        listener.settimeout(min(1.0, check))
        last = checked = time.monotonic()
        while True:
            stop.check()
            _reap(children)
            now = time.monotonic()
            if now - checked > check:
                checked = now
                if not _still_valid(path, inode, digest):
                    break
            if not children and now - last > idle:
                break
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            except InterruptedError:
                continue
            last = time.monotonic()
            with conn:
                if launcher.peer_uid(conn) != os.getuid():
                    continue
                pid = os.fork()
                if pid == 0:
                    child(conn, [listener.fileno(), lock])
                children.add(pid)
    except _Stop:
        pass
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        if listener is not None:
            listener.close()
            with contextlib.suppress(OSError):
                if os.stat(path).st_ino == inode:
                    os.unlink(path)
        os.close(lock)
    return 0


def _idle_seconds() -> float:
    """:data:`launcher.IDLE_SECONDS`, or ``TK20_RESIDENT_IDLE`` seconds (at least 1)."""
    try:
        return max(1.0, float(os.environ.get("TK20_RESIDENT_IDLE", "")))
    except ValueError:
        return launcher.IDLE_SECONDS


def _still_valid(path: str, inode: int, digest: str) -> bool:
    try:
        if os.stat(path).st_ino != inode:
            return False
        return launcher.key() == digest
    except OSError:
        return False


def _reap(children: set[int]) -> None:
    for pid in list(children):
        try:
            done, _ = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            done = pid
        if done:
            children.discard(pid)


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python -P -m taistelukentta.cli.resident FOLDER DIGEST", file=sys.stderr)
        return 2
    folder, digest = argv
    if not launcher.private_dir(folder):
        return 2
    try:
        return serve(folder, digest)
    except OSError as exc:
        if exc.errno in (errno.EADDRINUSE, errno.ENAMETOOLONG):
            return 0
        raise


def run(argv: list[str]) -> None:
    """The process's whole life: :func:`main`, then an immediate exit — no interpreter
    shutdown that could wait on a thread or an ``atexit`` hook of an imported module
    (SIGTERM is ignored by then, so such a wait would outlast any number of them)."""
    status = 1
    try:
        status = main(argv)
    finally:
        os._exit(status)


if __name__ == "__main__":
    run(sys.argv[1:])
