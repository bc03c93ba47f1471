"""``tk20 serve``, ``tk20 db upgrade`` and ``tk20 verify``: the game server from the
command line."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

from taistelukentta.cli.common import (
    checked_report,
    console,
    err_console,
    fail,
    fail_error,
)
from taistelukentta.errors import TkError
from taistelukentta.i18n import tr

DbOpt = Annotated[
    str | None,
    typer.Option(
        "--db",
        help="Tietokanta: sqlite:///FILE tai postgresql+psycopg://USER@HOST/DB (oletus "
        "TK20_DATABASE_URL tai SQLite-tiedosto käyttäjän datahakemistossa) / database URL: "
        "sqlite:///FILE or postgresql+psycopg://USER@HOST/DB (default TK20_DATABASE_URL or an "
        "SQLite file in the user's data folder).",
    ),
]

ScenariosOpt = Annotated[
    list[Path] | None,
    typer.Option(
        "--scenarios",
        help="Kansio omille skenaarioille / a folder of extra scenario files (ID.toml); "
        "repeatable.",
    ),
]


def scenario_folders(given: list[Path] | None) -> tuple[Path, ...]:
    """``--scenarios`` folders, each checked to be a folder (else a clear error)."""
    dirs = tuple(given or ())
    for folder in dirs:
        if not folder.is_dir():
            fail(
                tr(f"--scenarios: {folder} ei ole kansio", f"--scenarios: {folder} is not a folder")
            )
    return dirs


db_app = typer.Typer(help="Tietokannan ylläpito / database maintenance.", no_args_is_help=True)


def register(app: typer.Typer) -> None:
    """Add the server commands to ``app``."""
    app.command("serve")(serve_cmd)
    app.command("verify")(verify_cmd)
    app.command("join")(join_cmd)
    app.add_typer(db_app, name="db")


def serve_cmd(
    host: Annotated[str, typer.Option("--host", help="Osoite / address to listen on.")] = (
        "127.0.0.1"
    ),
    port: Annotated[int, typer.Option("--port", help="Portti / port.", min=1, max=65535)] = 8420,
    db: DbOpt = None,
    log_level: Annotated[str, typer.Option("--log-level", help="uvicorn log level.")] = "info",
    scenarios: ScenariosOpt = None,
) -> None:
    """Käynnistä pelipalvelin / start the game server (FastAPI on uvicorn)."""
    import uvicorn

    from taistelukentta.server import logs
    from taistelukentta.server.app import create_app
    from taistelukentta.server.db import normalize_url
    from taistelukentta.server.settings import (
        ENV_TEST_FIXED_SEED,
        Settings,
        default_database_url,
    )

    try:
        url = normalize_url(db or default_database_url())
    except TkError as exc:
        fail_error(exc)
    dirs = scenario_folders(scenarios)
    fixed = os.environ.get(ENV_TEST_FIXED_SEED)
    fixed_seed = None
    if fixed:
        fixed_seed = bytes.fromhex(fixed)
        err_console.print(
            f"WARNING: {ENV_TEST_FIXED_SEED} is set: every game gets the same seed (tests only)"
        )
    app = create_app(Settings(database_url=url, scenario_dirs=dirs, fixed_seed=fixed_seed))
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
    console.print(
        tr(
            f"Taistelukenttä d20 -palvelin: http://{shown}:{port}/  "
            f"(pelinjohtaja avaa tämän; rajapinta /docs)",
            f"Taistelukenttä d20 server: http://{shown}:{port}/  (the GM opens this; API at /docs)",
        ),
        highlight=False,
    )
    logs.install()
    # A change's WebSocket text is a few hundred bytes, built once and sent to every seat:
    # per-message deflate would compress it again on each connection (its own zlib
    # stream) for next to no saving, so it is off.
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level=log_level,
        timeout_keep_alive=30,
        ws_per_message_deflate=False,
    )


@db_app.command("upgrade")
def db_upgrade_cmd(db: DbOpt = None) -> None:
    """Aja tietokannan migraatiot / apply the database migrations."""
    from taistelukentta.server.db import make_engine, upgrade
    from taistelukentta.server.settings import default_database_url

    try:
        engine = make_engine(db or default_database_url())
    except TkError as exc:
        fail_error(exc)
    rev = upgrade(engine)
    engine.dispose()
    console.print(tr(f"Tietokanta ajan tasalla ({rev}).", f"Database up to date ({rev})."))


def verify_cmd(
    export: Annotated[Path, typer.Argument(metavar="EXPORT", help="Viety peli / game export.")],
    json_out: Annotated[bool, typer.Option("--json", help="Tulosta JSON / print JSON.")] = False,
    seed: Annotated[
        str | None,
        typer.Option(
            "--seed",
            help="Paljastettu siemen sinetöidylle viennille (pelin /reveal) / the revealed "
            "seed, for a sealed export made before the end (the game's /reveal).",
        ),
    ] = None,
) -> None:
    """Tarkista viety peli: siemenen sitoumus ja jokainen heitto / check a game export:
    the seed's commitment and every roll (replayed)."""
    from taistelukentta.server.verify import verify_export

    report = checked_report(lambda: verify_export(export, seed), json_out)
    if report is None:
        return
    console.print(
        tr(
            f"OK: sitoumus täsmää, {report['orders']} käskyä ja {report['rolls']} heittoa "
            f"pelattu uudelleen, tila {report['state_hash'][:16]}… täsmää.",
            f"OK: commitment matches, {report['orders']} orders and {report['rolls']} rolls "
            f"replayed, state {report['state_hash'][:16]}… matches.",
        ),
        highlight=False,
    )


def join_cmd(
    url: Annotated[
        str,
        typer.Argument(metavar="URL", help="Kutsulinkki tai palvelimen osoite / invite link."),
    ],
    token: Annotated[
        str | None, typer.Option("--token", help="Paikan tunniste / the seat's token.")
    ] = None,
    game: Annotated[str | None, typer.Option("--game", help="Pelin tunnus / game id.")] = None,
) -> None:
    """Pelaa paikkaa palvelimen kautta päätteessä / play a seat through a server."""
    from taistelukentta.cli.join import join

    try:
        join(url, token=token, game=game)
    except TkError as exc:
        fail_error(exc)
