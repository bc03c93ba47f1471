"""Event copies already checked against their whitelist models, remembered across commands.

Opening a game file checks every side's stored copy of every event against the whitelist
models its view is built from (:func:`taistelukentta.storage.schema.check_game_document`).
Building those models and validating a finished game's few hundred copies costs a ``tk20``
command 20–60 ms, and a game only grows by appending: the next command would check the same
copies again. So a copy that passed is remembered by a digest of its content (sha256 of the
canonical JSON of ``[kind, copy]``), and a copy whose digest is remembered is not checked
again. The answer cannot go stale: a copy that differs in any byte of its canonical JSON —
an edited, truncated or tampered copy — has another digest and is checked in full; a copy
that failed is never remembered. The digests name no content and no side.

The digests live in the user's cache directory (platformdirs), one file per version of the
checking code (the package's version and the size and modification time of every module
under ``views/``, ``rules/`` and ``storage/``, where the models are defined), appended to
and trimmed to the newest :data:`MAX_DIGESTS`. ``TK20_CACHE_DIR`` puts it elsewhere; set to
``off`` (or if the directory cannot be written) nothing is remembered and every copy is
checked every time.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import threading
from pathlib import Path
from typing import Any

ENV_CACHE_DIR = "TK20_CACHE_DIR"
MAX_DIGESTS = 20_000
"""Digests kept (about 30 finished ``demo`` games); the oldest are dropped beyond it."""
_DIGEST = re.compile(r"[0-9a-f]{32}")
_CODE_DIRS = ("views", "rules", "storage")


def cache_dir() -> Path | None:
    """Where tk20 keeps its caches (None: caching is off)."""
    env = os.environ.get(ENV_CACHE_DIR)
    if env == "off":
        return None
    if env:
        return Path(env)
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("taistelukentta", appauthor=False))


def _code_fingerprint() -> str:
    """Changes whenever the checking code may have: the version and the modules' stats."""
    from taistelukentta import __version__

    package = Path(__file__).resolve().parent.parent
    parts = [__version__]
    for name in _CODE_DIRS:
        with os.scandir(package / name) as entries:
            for entry in sorted(entries, key=lambda e: e.name):
                if entry.name.endswith(".py"):
                    st = entry.stat()
                    parts.append(f"{name}/{entry.name}:{st.st_size}:{st.st_mtime_ns}")
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:16]


def copy_digest(kind: str, copy: Any) -> str | None:
    """The digest of one event copy (None if it is not plain JSON: then it is checked)."""
    try:
        text = json.dumps([kind, copy], sort_keys=True, separators=(",", ":"))
    except (TypeError, ValueError):
        return None
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


class CheckedCopies:
    """The digests of copies that passed, read from and appended to one file."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._known: set[str] = set()
        self._new: list[str] = []
        self._lines = 0
        if path is None:
            return
        try:
            lines = path.read_text(encoding="ascii", errors="replace").split()
        except OSError:
            return
        self._lines = len(lines)
        self._known = {line for line in lines if _DIGEST.fullmatch(line)}

    def __contains__(self, digest: str) -> bool:
        return digest in self._known

    def add(self, digest: str) -> None:
        if digest not in self._known:
            self._known.add(digest)
            self._new.append(digest)

    def save(self) -> None:
        """Append the digests added since the last save (trim the file when it is full).
        A cache that cannot be written is left alone: the next command checks again."""
        new, self._new = self._new, []
        if not new or self.path is None:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            if self._lines + len(new) > MAX_DIGESTS:
                self._trim(new)
                return
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
            try:
                os.write(fd, "".join(f"{d}\n" for d in new).encode("ascii"))
            finally:
                os.close(fd)
            self._lines += len(new)
        except OSError:
            return

    def _trim(self, new: list[str]) -> None:
        assert self.path is not None
        try:
            lines = self.path.read_text(encoding="ascii", errors="replace").split()
        except OSError:
            lines = []
        keep = [line for line in lines if _DIGEST.fullmatch(line)]
        keep = (keep + new)[-(MAX_DIGESTS // 2) :]
        tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            os.write(fd, "".join(f"{d}\n" for d in keep).encode("ascii"))
        finally:
            os.close(fd)
        os.replace(tmp, self.path)
        self._lines = len(keep)


_lock = threading.Lock()
_open: dict[Path | None, CheckedCopies] = {}


def checked_copies() -> CheckedCopies | None:
    """This process's memo of checked copies (None: caching is off). Read once per cache
    file; a process that runs for long (a server) also keeps the digests it adds."""
    folder = cache_dir()
    if folder is None:
        return None
    path = folder / f"checked-copies-{_code_fingerprint()}.txt"
    with _lock:
        memo = _open.get(path)
        if memo is None:
            memo = _open[path] = CheckedCopies(path)
        return memo
