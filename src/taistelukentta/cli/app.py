"""Entry point of ``tk20``: the global options and the command registry.

Commands are loaded lazily: :data:`COMMANDS` names the module of each command, and only the
module of the command being run is imported (its heavy imports with it). ``tk20 --help``
and a mistyped command load them all. ``tests/test_cli_startup.py`` checks that the table
lists exactly what the modules register, in this order.
"""

from __future__ import annotations

import errno
import gc
import importlib
import os
import re
import sys
from pathlib import Path
from typing import Any, TextIO, cast

import typer
from typer._click.utils import PacifyFlushWrapper
from typer.core import TyperGroup

from taistelukentta import __version__
from taistelukentta.errors import TkError
from taistelukentta.i18n import LANGUAGES, set_language

COMMANDS: dict[str, str] = {
    # command name -> module of taistelukentta.cli that registers it (help lists this order)
    "new": "game_cmds",
    "show": "game_cmds",
    "orders": "game_cmds",
    "order": "game_cmds",
    "replay": "game_cmds",
    "simulate": "game_cmds",
    "play": "game_cmds",
    "scenarios": "scenario_cmds",
    "scenario": "scenario_cmds",
    "move": "grid_cmds",
    "los": "grid_cmds",
    "reach": "grid_cmds",
    "rules": "rules_cmds",
    "units": "rules_cmds",
    "unit": "rules_cmds",
    "serve": "server_cmds",
    "verify": "server_cmds",
    "join": "server_cmds",
    "schema": "schema_cmds",
    "balance": "balance_cmds",
    "map": "map_cmds",
    # command groups (typer lists them after the plain commands)
    "odds": "odds_cmds",
    "db": "server_cmds",
    "campaign": "campaign_cmds",
}
"""Every ``tk20`` command and the module that adds it (``register(app)``)."""

MODULES: tuple[str, ...] = (
    "game_cmds",
    "scenario_cmds",
    "odds_cmds",
    "grid_cmds",
    "rules_cmds",
    "server_cmds",
    "schema_cmds",
    "balance_cmds",
    "map_cmds",
    "campaign_cmds",
)
"""The command modules in help order: their plain commands in this order, then their
command groups in this order (``COMMANDS`` is ordered so)."""


def module_commands(module_name: str) -> dict[str, Any]:
    """The click commands one command module registers, by name, in its order."""
    module = importlib.import_module(f"taistelukentta.cli.{module_name}")
    sub = typer.Typer(add_completion=False, pretty_exceptions_enable=False, rich_markup_mode=None)
    module.register(sub)
    return dict(typer.main.get_group(sub).commands)


def pick_language(text: str | None, lang: str) -> str | None:
    """A bilingual help text ``"suomeksi / in English"`` in ``lang``: English alone under
    ``--lang en``; Finnish keeps both (the English part often says more). Texts without
    exactly one `` / `` are kept as they are."""
    if text is None or lang != "en":
        return text
    parts = text.split(" / ")
    if len(parts) != 2:
        return text
    english = parts[1].strip()
    return english[:1].upper() + english[1:]


_HELP_OPTION = {"fi": "Näytä tämä ohje ja lopeta.", "en": "Show this message and exit."}


def _localise(cmd: Any, ctx: Any = None) -> None:
    """Put ``cmd``'s help texts (its own, its parameters', its subcommands') in the current
    language before its help is printed; the originals are kept for the next call."""
    from taistelukentta.i18n import get_language

    lang = get_language()
    originals = cmd.__dict__.setdefault("_tk20_help", {})
    for key, obj, attr in [
        ("help", cmd, "help"),
        ("short_help", cmd, "short_help"),
        *((f"param:{p.name}", p, "help") for p in cmd.params),
    ]:
        if key not in originals:
            originals[key] = getattr(obj, attr, None)
        setattr(obj, attr, pick_language(originals[key], lang))
    help_option = cmd.get_help_option(ctx) if ctx is not None else None
    if help_option is not None:
        help_option.help = _HELP_OPTION.get(lang, help_option.help)
    for sub in getattr(cmd, "commands", {}).values():
        _localise(sub)


def _localised_help(cmd: Any) -> None:
    """Make ``cmd`` (and its subcommands) localise their help when it is printed."""
    if "_tk20_localised" in cmd.__dict__:
        return
    cmd.__dict__["_tk20_localised"] = True
    original = cmd.format_help

    def format_help(ctx: Any, formatter: Any) -> None:
        _localise(cmd, ctx)
        original(ctx, formatter)

    cmd.format_help = format_help
    for sub in getattr(cmd, "commands", {}).values():
        _localised_help(sub)


_gc_held: list[bool] = []
"""Set while :func:`main` holds the cyclic garbage collector off for the start-up."""


def _hold_gc() -> None:
    """No cyclic garbage collection while a command's modules load: importing builds ~200
    pydantic models and ~100 dataclasses, a great many objects none of which is garbage,
    and the collector went over them ~130 times — about a fifth of a ``show``'s CPU."""
    if gc.isenabled():
        gc.disable()
        _gc_held.append(True)


def _release_gc() -> None:
    """The command's modules are loaded: move what they made out of the collector's sight
    (``gc.freeze``: module-level objects live as long as the process) and collect again,
    for what the command itself makes."""
    if _gc_held:
        _gc_held.clear()
        gc.freeze()
        gc.enable()


class LazyGroup(TyperGroup):
    """The ``tk20`` group: a command's module is imported when the command is looked up."""

    def format_help(self, ctx: Any, formatter: Any) -> None:
        for name in COMMANDS:
            self.get_command(ctx, name)
        _localise(self, ctx)
        super().format_help(ctx, formatter)

    def list_commands(self, ctx: Any) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        module_name = COMMANDS.get(cmd_name)
        if cmd_name not in self.commands and module_name is not None:
            for name, cmd in module_commands(module_name).items():
                _localised_help(cmd)
                self.commands.setdefault(name, cmd)
        return self.commands.get(cmd_name)

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        if args and args[0] not in COMMANDS:  # a typo: load all, for the suggestions
            for name in COMMANDS:
                self.get_command(ctx, name)
        resolved = super().resolve_command(ctx, args)
        _release_gc()
        return resolved


app = typer.Typer(
    name="tk20",
    help="Taistelukenttä d20 — digitaalinen pelipöytä / Taistelukenttä d20 — the digital table.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    cls=LazyGroup,
    rich_markup_mode=None,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"tk20 {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    lang: str = typer.Option(
        "fi", "--lang", help="Käyttöliittymän kieli / interface language: fi | en."
    ),
    no_color: bool = typer.Option(
        False,
        "--no-color",
        "--no-colour",
        help="Ei värejä (kuten NO_COLOR): kartan merkit kirjaimin / no colours (as NO_COLOR): "
        "the map's marks as characters.",
    ),
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Näytä versio / show version."
    ),
) -> None:
    """Taistelukenttä d20: sääntömoottori, laskimet ja pelipöytä."""
    if lang not in LANGUAGES:
        raise typer.BadParameter(f"choose one of {', '.join(LANGUAGES)}", param_hint="--lang")
    set_language(lang)
    if no_color:
        from taistelukentta.cli.common import set_colour

        set_colour(False)


_FAST: dict[str, tuple[dict[str, str], dict[str, str], tuple[str, ...]]] = {
    # command -> (options taking a value, flags, positional arguments): the parameters of
    # game_cmds' show_cmd / orders_cmd / order_cmd, named as typer names them
    "show": (
        {
            "--as": "who",
            "--events": "events",
            "--centre": "centre",
            "--center": "centre",
            "--size": "size",
        },
        {"--window": "window", "--full": "full", "--json": "json_out"},
        ("game",),
    ),
    "orders": ({"--as": "who"}, {"--json": "json_out"}, ("game",)),
    "order": ({"--as": "who"}, {"--json": "json_out"}, ("game", "text")),
}
"""The player's commands :func:`fast_call` runs without typer's parser."""

_INT = re.compile(r"[0-9]{1,9}")


def fast_call(args: list[str]) -> tuple[str, str | None, bool, dict[str, Any]] | None:
    """``(command, --lang, --no-color, keyword arguments)`` of a plain ``show``/``orders``/
    ``order`` command line, or None for anything else (help, another command, an unknown
    or repeated option, a value that looks like an option, a bad number, a missing
    argument): typer then parses it as always, with its messages.

    Building typer's parser and its parameter converters (pydantic ``TypeAdapter``s) costs
    more than a player's whole command should; this reads the few forms those three
    commands accept (``--opt value``, ``--opt=value``, options before, between or after the
    arguments) into the same values typer would pass."""
    i, lang, no_color = 0, None, False
    while i < len(args) and args[i].startswith("-"):  # the group's options
        arg = args[i]
        if arg == "--lang" and lang is None and i + 1 < len(args):
            lang, i = args[i + 1], i + 2
        elif arg.startswith("--lang=") and lang is None:
            lang, i = arg[7:], i + 1
        elif arg in ("--no-color", "--no-colour") and not no_color:
            no_color, i = True, i + 1
        else:
            return None
    if lang is not None and lang not in LANGUAGES:
        return None
    if i >= len(args) or args[i] not in _FAST:
        return None
    command = args[i]
    options, flags, positional = _FAST[command]
    kwargs: dict[str, Any] = {}
    values: list[str] = []
    rest = args[i + 1 :]
    j = 0
    while j < len(rest):
        arg = rest[j]
        j += 1
        if not arg.startswith("-") or arg == "-":
            values.append(arg)
            continue
        name, eq, value = arg.partition("=")
        if name in flags and not eq and flags[name] not in kwargs:
            kwargs[flags[name]] = True
            continue
        if name not in options or options[name] in kwargs:
            return None
        if not eq:
            if j >= len(rest) or rest[j].startswith("-"):
                return None
            value = rest[j]
            j += 1
        kwargs[options[name]] = value
    if len(values) != len(positional) or "who" not in kwargs or "" in values:
        return None
    for key, value in zip(positional, values, strict=True):
        kwargs[key] = Path(value) if key == "game" else value
    if "events" in kwargs:
        if not _INT.fullmatch(kwargs["events"]):
            return None
        kwargs["events"] = int(kwargs["events"])
    return command, lang, no_color, kwargs


def _run_fast(command: str, lang: str | None, no_color: bool, kwargs: dict[str, Any]) -> None:
    """Run a command :func:`fast_call` read, as typer's ``main`` would: the group's
    callback first, exits and interrupts handled the same way."""
    from collections.abc import Callable

    from taistelukentta.cli import game_cmds

    _release_gc()

    commands: dict[str, Callable[..., None]] = {
        "show": game_cmds.show_cmd,
        "orders": game_cmds.orders_cmd,
        "order": game_cmds.order_cmd,
    }
    function = commands[command]
    try:
        try:
            _root(lang=lang or "fi", no_color=no_color, version=False)
            function(**kwargs)
        except EOFError as exc:
            typer.echo(file=sys.stderr)
            raise typer.Abort() from exc
        except KeyboardInterrupt as exc:
            raise typer.Exit(130) from exc
        except OSError as exc:
            if exc.errno != errno.EPIPE:
                raise
            sys.stdout = cast(TextIO, PacifyFlushWrapper(sys.stdout))
            sys.stderr = cast(TextIO, PacifyFlushWrapper(sys.stderr))
            sys.exit(1)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except typer.Abort:
        typer.echo("Aborted!", err=True)
        sys.exit(1)
    sys.exit(0)


def main() -> None:
    """Run the ``tk20`` command."""
    # pydantic looks for plugins in every installed package's metadata the first time it
    # builds a validator (~20 ms of each command's start); tk20 uses none. Setting the
    # variable (even to "") before running tk20 lets pydantic look again.
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    _hold_gc()
    args = sys.argv[1:]
    for i, arg in enumerate(args):  # --lang before the group's own --help is handled
        if arg == "--lang" and i + 1 < len(args) and args[i + 1] in LANGUAGES:
            set_language(args[i + 1])
        elif arg.startswith("--lang=") and arg[7:] in LANGUAGES:
            set_language(arg[7:])
    try:
        fast = fast_call(args)
        if fast is not None:
            _run_fast(*fast)
        app()
    except TkError as exc:  # last resort: never show a traceback for bad input
        from taistelukentta.cli.common import fail_error

        try:
            fail_error(exc)
        except typer.Exit as ex:
            raise SystemExit(ex.exit_code) from None
