"""Helpers shared by the CLI commands: output, errors, argument parsing."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any, NoReturn

import typer
from rich.console import Console
from rich.markup import escape

from taistelukentta.errors import TkError
from taistelukentta.i18n import get_language, tr

console = Console()
err_console = Console(stderr=True)


def set_colour(on: bool) -> None:
    """Colours on or off for everything ``tk20`` prints (``--no-color``; rich already
    honours ``NO_COLOR``)."""
    for c in (console, err_console):
        c.no_color = not on


def colour_on() -> bool:
    """Whether the output has colours (a terminal, no ``NO_COLOR``, no ``--no-color``): the
    map then marks some cells by colour alone, otherwise by a character."""
    return not console.no_color and console.color_system is not None


def fail(message: str, code: int = 2) -> NoReturn:
    """Print ``message`` to stderr and exit with ``code`` (2 = bad input)."""
    err_console.print(
        f"[bold red]{tr('Virhe', 'Error')}:[/] {escape(message)}", highlight=False, soft_wrap=True
    )
    raise typer.Exit(code)


def fail_error(exc: TkError, code: int = 2) -> NoReturn:
    """Report a :class:`TkError` in the user's language and exit."""
    fail(exc.message(get_language()), code)


def checked_report(make: Callable[[], dict[str, Any]], json_out: bool) -> dict[str, Any] | None:
    """Run a check that answers a report (``ok``, ``problems`` and its figures), the way
    ``tk20 replay`` and ``tk20 verify`` answer: a :class:`TkError` while checking exits 2;
    with ``--json`` the report is printed (exit 1 unless ok) and ``None`` returned; else a
    failed check exits 1 naming its problems and an ok report is returned for the caller's
    OK line."""
    try:
        report = make()
    except TkError as exc:
        fail_error(exc)
    if json_out:
        print_json(report)
        if not report["ok"]:
            raise typer.Exit(1)
        return None
    if not report["ok"]:
        fail("; ".join(report["problems"]), code=1)
    return report


def print_json(obj: Any) -> None:
    """Print one JSON object to stdout and nothing else."""
    sys.stdout.write(json.dumps(obj, ensure_ascii=False, sort_keys=False) + "\n")


def parse_cell(text: str, option: str) -> tuple[int, int]:
    """Parse ``X,Y`` into a cell; a bad value exits 2 naming the option."""
    parts = text.split(",")
    if not text.isascii() or len(parts) != 2:
        fail(
            tr(
                f"{option}: odotettiin muotoa X,Y (numerot 0-9), saatiin {text!r}",
                f"{option}: expected X,Y (digits 0-9), got {text!r}",
            )
        )
    try:
        return int(parts[0].strip()), int(parts[1].strip())
    except ValueError:
        fail(
            tr(
                f"{option}: koordinaattien on oltava kokonaislukuja: {text!r}",
                f"{option}: coordinates must be integers: {text!r}",
            )
        )
