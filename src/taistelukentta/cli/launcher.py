"""The ``tk20`` entry point: a thin client of the resident start-up process.

Importing pydantic, typer, rich and this package's ~200 model classes costs a ``tk20``
command far more than the command itself (``docs/performance.md``, issue 7). So the player's
short commands (:data:`RESIDENT_COMMANDS`) are run by a child of a resident process that has
imported all that once (:mod:`taistelukentta.cli.resident`): this module — standard library
only, nothing else of the package — connects to that process's Unix socket, hands over its
own stdin/stdout/stderr (``SCM_RIGHTS``: the child writes to the very terminal or pipe this
process was given, so ``isatty``, colours, terminal width and pipes behave as in-process),
its arguments, working directory, environment and umask, forwards Ctrl-C and termination
signals to the child, and exits with the child's exit status.

Anything else runs in this process exactly as before (:func:`taistelukentta.cli.app.main`):
other commands (``play``, ``join``, ``serve``, ``balance`` … are long or interactive),
``TK20_NO_RESIDENT=1``, a non-POSIX system, and every failure before the child has started
the command (no socket, refused, a protocol error, a timeout) — silently. When no resident
process answered, the command runs in-process first and then starts one, detached, for the
next command (the first command is not delayed by it).

A resident process is used only by the exact interpreter, package files and installed
packages it was started from: its socket's name holds a digest of ``sys.executable``,
``sys.prefix``, the Python version and relevant flags, the package version, every package
file's size and modification time and every ``sys.path`` directory's modification time
(installing or removing a package changes its ``site-packages``). A changed tree gets a new
resident process; the old one sees its digest changed and exits, or exits after
:data:`IDLE_SECONDS` without a request.
"""

from __future__ import annotations

import _signal as signal  # type: ignore[import-not-found]  # C modules: no enum, selectors
import _socket as socket
import marshal
import os
import sys

RESIDENT_COMMANDS = frozenset(
    {
        # short commands a player repeats; everything else runs in-process
        "show",
        "orders",
        "order",
        "new",
        "replay",
        "verify",
        "scenarios",
        "scenario",
        "rules",
        "units",
        "unit",
        "move",
        "los",
        "reach",
        "odds",
        "schema",
    }
)
"""The commands a resident process runs (help and ``--version`` too)."""

OFF_VARIABLE = "TK20_NO_RESIDENT"
"""Set to anything but ``""``/``0``: every command runs in its own process."""

DIR_VARIABLE = "TK20_RESIDENT_DIR"
"""The folder of the resident process's socket (default: the user's runtime folder)."""

IDLE_SECONDS = 7200.0
"""A resident process with no request for this long exits: two hours, so that the commands
of an evening's game — a player thinks, the table talks, the GM prepares the next battle —
all find it warm (a cold command takes ~0.6 s instead of ~0.06 s; docs/startup.md). It
holds ~60 MB and no game's data; ``TK20_RESIDENT_IDLE`` seconds shortens it."""

HANDSHAKE_SECONDS = 5.0
"""How long the client waits for the child's first word before running in-process."""

MAGIC = b"tk20r1"
"""The protocol's version, the first bytes of a request."""

_GLOBAL_VALUE_OPTIONS = ("--lang",)
_GLOBAL_FLAGS = ("--no-color", "--no-colour")


def command_of(args: list[str]) -> str | None:
    """The command a ``tk20`` command line runs, past the group's options: ``""`` for the
    group's own help/version (no command), None for a line this module cannot read."""
    i = 0
    while i < len(args):
        arg = args[i]
        if arg in _GLOBAL_VALUE_OPTIONS:
            i += 2
        elif arg.startswith("--lang=") or arg in _GLOBAL_FLAGS:
            i += 1
        elif arg in ("--help", "--version"):
            return ""
        elif arg.startswith("-"):
            return None
        else:
            return arg
    return ""


def resident_wanted(args: list[str]) -> bool:
    """Whether this command line goes to a resident process at all."""
    if os.name != "posix" or not hasattr(socket, "AF_UNIX") or not hasattr(os, "fork"):
        return False
    if os.environ.get(OFF_VARIABLE, "") not in ("", "0"):
        return False
    flags = sys.flags
    if flags.dev_mode or flags.optimize or flags.isolated or flags.no_site:
        return False  # an interpreter set up unlike the resident process's
    if flags.ignore_environment or flags.inspect or flags.interactive:
        return False
    if sys.warnoptions or getattr(sys, "_xoptions", None):
        return False
    command = command_of(args)
    return command is not None and (command == "" or command in RESIDENT_COMMANDS)


def package_dir() -> str:
    """The folder of the ``taistelukentta`` package this interpreter imports."""
    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _tree_stamp(top: str, out: list[str]) -> None:
    """Each file's name, size and modification time under ``top`` (no ``__pycache__``)."""
    try:
        entries = sorted(os.scandir(top), key=lambda e: e.name)
    except OSError:
        out.append(f"?{top}")
        return
    for entry in entries:
        if entry.name == "__pycache__":
            continue
        try:
            if entry.is_dir(follow_symlinks=False):
                _tree_stamp(entry.path, out)
            else:
                st = entry.stat()
                out.append(f"{entry.path}:{st.st_size}:{st.st_mtime_ns}")
        except OSError:
            out.append(f"?{entry.path}")


def interpreter_paths() -> list[str]:
    """``sys.path`` without the script's or working folder (``sys.path[0]``), which a
    resident process started with ``-P`` does not have."""
    return list(sys.path) if sys.flags.safe_path else list(sys.path[1:])


def stamp() -> str:
    """What a resident process must share with this interpreter to run its commands."""
    from taistelukentta import __version__

    parts = [
        MAGIC.decode(),
        __version__,
        sys.executable,
        sys.prefix,
        sys.version,
        f"utf8={sys.flags.utf8_mode}",
        package_dir(),
    ]
    for path in interpreter_paths():
        try:
            parts.append(f"{path}:{os.stat(path).st_mtime_ns}")
        except OSError:
            parts.append(f"{path}:-")
    _tree_stamp(package_dir(), parts)
    return "\n".join(parts)


def key() -> str:
    """The name part of the socket: a digest of :func:`stamp`."""
    try:
        from _blake2 import blake2b  # what hashlib.blake2b is, without hashlib's imports
    except ImportError:  # pragma: no cover - CPython always has it
        from hashlib import blake2b
    data = stamp().encode("utf-8", "surrogateescape")
    return blake2b(data, digest_size=12).hexdigest()


def runtime_dir() -> str | None:
    """The folder for the socket, created 0700 if missing; None if it is not this user's
    alone (then no resident process is used)."""
    base = os.environ.get(DIR_VARIABLE)
    if not base:
        xdg = os.environ.get("XDG_RUNTIME_DIR")
        if xdg and os.path.isdir(xdg):
            base = os.path.join(xdg, "tk20")
        else:
            base = os.path.join("/tmp", f"tk20-{os.getuid()}")
    try:
        os.makedirs(base, mode=0o700, exist_ok=True)
    except OSError:
        return None
    return base if private_dir(base) else None


def private_dir(folder: str) -> bool:
    """Whether ``folder`` is a real folder of this user that no one else may enter."""
    import stat

    try:
        st = os.lstat(folder)
    except OSError:
        return False
    return stat.S_ISDIR(st.st_mode) and st.st_uid == os.getuid() and not st.st_mode & 0o077


def socket_path(folder: str, digest: str) -> str:
    return os.path.join(folder, f"{digest}.sock")


def send_frame(sock: socket.socket, value: tuple[int | float | str, ...]) -> None:
    data = marshal.dumps(value)
    sock.sendall(len(data).to_bytes(4, "big") + data)


def recv_exact(sock: socket.socket, n: int) -> bytes | None:
    chunks = []
    while n:
        chunk = sock.recv(n)
        if not chunk:
            return None
        chunks.append(chunk)
        n -= len(chunk)
    return b"".join(chunks)


def recv_frame(sock: socket.socket, limit: int = 1 << 24) -> object:
    """One frame; ``None`` at the end of the stream. Raises ``ValueError`` on nonsense."""
    head = recv_exact(sock, 4)
    if head is None:
        return None
    size = int.from_bytes(head, "big")
    if size > limit:
        raise ValueError("frame too long")
    data = recv_exact(sock, size)
    if data is None:
        raise ValueError("frame cut short")
    return marshal.loads(data)


def send_fds(sock: socket.socket, data: bytes, fds: list[int]) -> None:
    """Send ``data`` with the file descriptors ``fds`` (``SCM_RIGHTS``), as
    ``socket.send_fds`` does."""
    rights = b"".join(fd.to_bytes(4, sys.byteorder, signed=True) for fd in fds)
    sock.sendmsg([data], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, rights)])


def peer_uid(sock: socket.socket) -> int | None:
    """The user id of the process at the other end of a Unix socket (Linux)."""
    so_peercred = getattr(socket, "SO_PEERCRED", None)
    if so_peercred is None:
        return None
    creds = sock.getsockopt(socket.SOL_SOCKET, so_peercred, 12)
    return int.from_bytes(creds[4:8], sys.byteorder)


def _stream_setup() -> list[tuple[str | None, str | None, bool, bool]] | None:
    """Encoding, errors, line buffering and write-through of this process's std streams
    (the child's streams are made the same), or None if one is missing."""
    setup = []
    for stream in (sys.stdin, sys.stdout, sys.stderr):
        if stream is None:
            return None
        setup.append(
            (
                getattr(stream, "encoding", None),
                getattr(stream, "errors", None),
                bool(getattr(stream, "line_buffering", False)),
                bool(getattr(stream, "write_through", False)),
            )
        )
    return setup


class _Forwarder:
    """Forwards the signals a terminal or a supervisor sends to ``tk20`` to the child."""

    SIGNALS = ("SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT")

    def __init__(self) -> None:
        self.pid: int | None = None
        self.pending: list[int] = []
        self.forwarded: list[int] = []
        self.saved: dict[int, object] = {}

    def install(self) -> None:
        for name in self.SIGNALS:
            signum = getattr(signal, name, None)
            if signum is not None:
                self.saved[signum] = signal.signal(signum, self._handle)

    def restore(self) -> None:
        for signum, handler in self.saved.items():
            signal.signal(signum, handler)

    def _handle(self, signum: int, frame: object) -> None:
        if self.pid is None:
            self.pending.append(signum)
            return
        self._send(signum)

    def _send(self, signum: int) -> None:
        try:
            os.kill(self.pid, signum)  # type: ignore[arg-type]
            self.forwarded.append(signum)
        except OSError:
            pass

    def started(self, pid: int) -> None:
        self.pid = pid
        for signum in self.pending:
            self._send(signum)
        self.pending.clear()


def run_resident(args: list[str], folder: str, digest: str) -> int | None:
    """Run the command in a child of the resident process: its exit status, or None if
    nothing ran (the caller runs it in-process)."""
    setup = _stream_setup()
    if setup is None:
        return None
    path = socket_path(folder, digest)
    if len(path.encode()) > 100:
        return None
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    forwarder = _Forwarder()
    started = False
    try:
        sock.settimeout(HANDSHAKE_SECONDS)
        sock.connect(path)
        if peer_uid(sock) not in (None, os.getuid()):
            return None
        umask = os.umask(0o022)
        os.umask(umask)
        main = sys.modules.get("__main__")
        request = {
            "argv": list(sys.argv),
            "cwd": os.getcwd(),
            "env": dict(os.environ),
            "umask": umask,
            "streams": setup,
            "main_package": getattr(main, "__package__", None),
        }
        data = marshal.dumps(request)
        send_fds(sock, MAGIC + len(data).to_bytes(4, "big"), [0, 1, 2])
        sock.sendall(data)
        hello = recv_frame(sock)
        if not (isinstance(hello, tuple) and len(hello) == 2 and hello[0] == "pid"):
            return None
        forwarder.install()
        sock.sendall(b"g")  # go: from here on the command runs, no fallback
        started = True
        forwarder.started(int(hello[1]))
        sock.settimeout(None)
        while True:
            try:
                done = recv_frame(sock)
            except InterruptedError:
                continue
            break
        if isinstance(done, tuple) and len(done) == 4 and done[0] == "exit":
            _record_cpu(float(done[2]), float(done[3]))
            return int(done[1])
        # the child ended without a word: killed. Die by the signal sent to it, if any.
        for signum in forwarder.forwarded:
            forwarder.restore()
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)
        return 1
    except (OSError, ValueError, EOFError, TypeError):
        if started:
            return 1
        return None
    finally:
        forwarder.restore()
        sock.close()


CHILD_CPU: list[float] = []
"""The child's user and system CPU seconds of the last resident run (for benchmarks)."""


def _record_cpu(user: float, system: float) -> None:
    CHILD_CPU[:] = [user, system]
    report = os.environ.get("TK20_RESIDENT_CPU_FILE")
    if report:
        try:
            with open(report, "a", encoding="ascii") as out:
                out.write(f"{user:.6f} {system:.6f}\n")
        except OSError:
            pass


def start_resident(folder: str, digest: str) -> None:
    """Start a resident process for ``digest``, detached (its own session, no terminal,
    stdio on /dev/null); it exits at once if one is already running."""
    argv = [
        sys.executable,
        "-P",
        "-m",
        "taistelukentta.cli.resident",
        folder,
        digest,
    ]
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(interpreter_paths())
    try:
        devnull = os.open(os.devnull, os.O_RDWR)
    except OSError:
        return
    try:
        os.posix_spawn(
            sys.executable,
            argv,
            env,
            file_actions=[
                (os.POSIX_SPAWN_DUP2, devnull, 0),
                (os.POSIX_SPAWN_DUP2, devnull, 1),
                (os.POSIX_SPAWN_DUP2, devnull, 2),
            ],
            setsid=True,
        )
    except (OSError, AttributeError):
        pass
    finally:
        os.close(devnull)


def main() -> None:
    """Run the ``tk20`` command (the console script's entry point)."""
    args = sys.argv[1:]
    folder = digest = None
    if resident_wanted(args):
        try:
            folder = runtime_dir()
            digest = key() if folder is not None else None
        except Exception:
            folder = None
        if folder is not None and digest is not None:
            status = run_resident(args, folder, digest)
            if status is not None:
                try:
                    sys.stdout.flush()
                finally:
                    os._exit(status)
    from taistelukentta.cli.app import main as app_main

    try:
        app_main()
    finally:
        if folder is not None and digest is not None:
            for stream in (sys.stdout, sys.stderr):
                try:
                    stream.flush()
                except Exception:  # the interpreter's exit reports it, as before
                    break
            start_resident(folder, digest)
