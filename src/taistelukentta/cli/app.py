"""Entry point of ``tk20``: the global options and the command registry."""

from __future__ import annotations

import typer

from taistelukentta import __version__
from taistelukentta.errors import TkError
from taistelukentta.i18n import LANGUAGES, set_language

app = typer.Typer(
    name="tk20",
    help="Taistelukenttä d20 — digitaalinen pelipöytä / the digital table.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
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
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Näytä versio / show version."
    ),
) -> None:
    """Taistelukenttä d20: sääntömoottori, laskimet ja pelipöytä."""
    if lang not in LANGUAGES:
        raise typer.BadParameter(f"choose one of {', '.join(LANGUAGES)}", param_hint="--lang")
    set_language(lang)


def _register() -> None:
    # Each command module adds its own commands; keep this list the only shared edit point.
    from taistelukentta.cli import (
        game_cmds,
        grid_cmds,
        odds_cmds,
        rules_cmds,
        scenario_cmds,
        server_cmds,
    )

    for module in (game_cmds, scenario_cmds, odds_cmds, grid_cmds, rules_cmds, server_cmds):
        module.register(app)


_register()


def main() -> None:
    """Run the ``tk20`` command."""
    try:
        app()
    except TkError as exc:  # last resort: never show a traceback for bad input
        from taistelukentta.cli.common import fail_error

        try:
            fail_error(exc)
        except typer.Exit as ex:
            raise SystemExit(ex.exit_code) from None
