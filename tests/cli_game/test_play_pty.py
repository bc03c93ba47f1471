"""``tk20 play`` on a real 80×24 terminal (a pseudo-terminal): the screen is cleared and
drawn in place after every order, and what is drawn fits 80 columns and 24 lines with the
prompt."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.cells import cell_len

CLEAR = "\x1b[H\x1b[2J"
ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>]|\r")

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="pty test on Linux")


class Terminal:
    """A child process on an 80×24 pseudo-terminal."""

    def __init__(self, args: list[str], cwd: Path) -> None:
        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        env = {
            **os.environ,
            "TERM": "xterm-256color",
            "COLUMNS": "80",
            "LINES": "24",
            "PROMPT_TOOLKIT_NO_CPR": "1",
        }
        env.pop("NO_COLOR", None)
        self.proc = subprocess.Popen(
            args, stdin=slave, stdout=slave, stderr=slave, cwd=cwd, env=env, start_new_session=True
        )
        os.close(slave)
        self.out = ""

    def read_until(self, text: str, timeout: float = 60) -> str:
        """Output up to and including the next ``text`` (answering cursor-position queries)."""
        return self._read(lambda seen: text in seen, repr(text), timeout)

    def read_screen(self, prompt: str, timeout: float = 60) -> str:
        """Output up to a screen clear and the ``prompt`` drawn after it: one wait, since
        the clear and the prompt may come in one read (two waits would miss the prompt)."""
        return self._read(
            lambda seen: CLEAR in seen and prompt in seen.rsplit(CLEAR, 1)[1],
            f"a clear, then {prompt!r}",
            timeout,
        )

    def _read(self, done: Callable[[str], bool], what: str, timeout: float) -> str:
        start = len(self.out)
        end = time.monotonic() + timeout
        while not done(self.out[start:]):
            left = end - time.monotonic()
            assert left > 0, f"no {what} in {self.out[start:][-2000:]!r}"
            ready, _, _ = select.select([self.master], [], [], min(left, 1))
            if ready:
                try:
                    chunk = os.read(self.master, 65536).decode("utf-8", "replace")
                except OSError:
                    break
                if "\x1b[6n" in chunk:
                    os.write(self.master, b"\x1b[1;1R")
                self.out += chunk
        return self.out[start:]

    def send(self, line: str) -> None:
        os.write(self.master, line.encode() + b"\r")

    def close(self) -> None:
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
            os.close(self.master)


def _screen(segment: str) -> list[str]:
    """The lines of the last screen drawn in ``segment`` (after its last clear), up to the
    prompt, without escape sequences."""
    assert CLEAR in segment, "the screen was not cleared"
    drawn = segment.rsplit(CLEAR, 1)[1]
    plain = ANSI.sub("", drawn)
    lines = plain.split("\n")
    prompt = next(i for i, line in enumerate(lines) if "] >" in line)
    return lines[: prompt + 1]


def test_play_redraws_in_place_within_80x24(tmp_path: Path) -> None:
    game = tmp_path / "pty.json"
    term = Terminal(
        [sys.executable, "-m", "taistelukentta", "play", "demo", "--seed", "5", "--out", str(game)],
        tmp_path,
    )
    try:
        screens = [_screen(term.read_until("komentovaihe] >"))]
        term.send("move 1R1 12,7")
        screens.append(_screen(term.read_screen("komentovaihe] >")))
        term.send("done")
        screens.append(_screen(term.read_screen("tulivaihe] >")))
        term.send("quit")
        term.read_until("Peli tallennettu")
    finally:
        term.close()
    for lines in screens:
        assert len(lines) <= 24, lines
        assert all(cell_len(line) <= 80 for line in lines), [
            line for line in lines if cell_len(line) > 80
        ]
        assert lines[0].startswith("Kierros 1/6")
        assert lines[1].startswith("VP nyt: Sininen")
    assert any("1R1 liikkui 7,6 → 12,7" in line for line in screens[1])
