"""The family of errors the program raises on bad input.

Every error carries an English message and, where given, a Finnish one; the command line
shows the one for the user's language (:meth:`TkError.message`). ``str()`` is English.
"""

from __future__ import annotations


class TkError(Exception):
    """Base of every error caused by bad input (files, orders, arguments)."""

    def __init__(self, en: str, fi: str | None = None) -> None:
        super().__init__(en)
        self.en = en
        self.fi = fi if fi is not None else en

    def message(self, lang: str) -> str:
        """The message in ``lang`` ("fi" or "en")."""
        return self.fi if lang == "fi" else self.en


class DataError(TkError, ValueError):
    """A data file (terrain, options, unit card, map, scenario) is broken.

    ``problems`` lists every problem found, each already naming the key (and line where
    known); the message names the file.
    """

    def __init__(self, path: str, problems: list[str]) -> None:
        self.path = path
        self.problems = list(problems)
        body = "\n".join(f"  - {p}" for p in self.problems)
        super().__init__(
            f"{path}: {len(self.problems)} problem(s):\n{body}",
            f"{path}: {len(self.problems)} virhe(ttä):\n{body}",
        )


class ArgumentError(TkError, ValueError):
    """A command-line argument or calculator input is invalid (unknown terrain, off-map cell)."""


class InvalidOrderError(TkError, ValueError):
    """An order's text cannot be parsed."""


class IllegalOrderError(TkError, ValueError):
    """An order is well formed but not legal in the current state."""
