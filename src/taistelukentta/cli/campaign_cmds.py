"""``tk20 campaign …``: campaigns (issue 12, RULES.md §17) on the game server's database.

The commands work on the same database as ``tk20 serve`` (``--db``, default the server's)
and act as the campaign's GM. ``--json`` prints one object.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer

from taistelukentta.cli.common import console, fail, fail_error, print_json
from taistelukentta.cli.server_cmds import DbOpt, ScenariosOpt, scenario_folders
from taistelukentta.errors import TkError
from taistelukentta.i18n import get_language, tr

campaign_app = typer.Typer(
    help="Kampanja: komppania taistelusta toiseen / campaigns: a company from battle to battle.",
    no_args_is_help=True,
)

JsonOpt = Annotated[bool, typer.Option("--json", help="Tulosta JSON / print one JSON object.")]
IdArg = Annotated[str, typer.Argument(metavar="ID", help="Kampanjan tunnus / campaign id.")]


def register(app: typer.Typer) -> None:
    """Add the ``campaign`` sub-commands to ``app``."""
    app.add_typer(campaign_app, name="campaign")


@contextmanager
def _stores(db: str | None, scenarios: list[Path] | None = None) -> Iterator[Any]:
    from taistelukentta.server.campaigns import CampaignStore
    from taistelukentta.server.db import make_engine, upgrade
    from taistelukentta.server.games import GameStore, StoreError
    from taistelukentta.server.settings import Settings, default_database_url

    try:
        engine = make_engine(db or default_database_url())
    except TkError as exc:
        fail_error(exc)
    upgrade(engine)
    dirs = scenario_folders(scenarios)
    settings = Settings(database_url=str(engine.url), run_computer=False, scenario_dirs=dirs)
    games = GameStore(engine, settings)
    try:
        yield CampaignStore(games)
    except StoreError as exc:
        fail(exc.fi if get_language() == "fi" else exc.en)
    finally:
        games.close()
        engine.dispose()


def _parse_options(given: list[str]) -> dict[str, Any]:
    """``NAME=VALUE`` pairs; a VALUE is a TOML value (``2``, ``true``, ``["a", "b"]``,
    ``{jaakariryhma = 12}``) or else plain text (``individual``)."""
    import tomllib

    out: dict[str, Any] = {}
    for item in given:
        name, eq, text = item.partition("=")
        name = name.strip()
        if not eq or not name:
            fail(
                tr(
                    f"--option {item!r}: muoto NIMI=ARVO",
                    f"--option {item!r}: expected NAME=VALUE",
                )
            )
        try:
            out[name] = tomllib.loads(f"v = {text.strip()}")["v"]
        except tomllib.TOMLDecodeError:
            out[name] = text.strip()
    return out


def _units(view: dict[str, Any]) -> list[dict[str, Any]]:
    keys = ("name", "card", "xp", "tt", "strength", "max_strength", "abilities")
    return [{k: u[k] for k in keys} for u in view["units"]]


def _summary(view: dict[str, Any], *, battles: bool) -> dict[str, Any]:
    out = {"id": view["id"], "name": view["name"], "tp": view["tp"], "units": _units(view)}
    if battles:
        out["battles"] = view["battles"]
        out["fallen"] = _units({"units": view["fallen"]})
        out["battle"] = view["battle"]
    return out


def _print_roster(view: dict[str, Any]) -> None:
    from rich.table import Table

    table = Table(title=f"{view['name']} — TP {view['tp']}")
    for head in (
        tr("Yksikkö", "Unit"),
        tr("Kortti", "Card"),
        "XP",
        "TT",
        "TK",
        tr("Kyvyt", "Abilities"),
        tr("Taisteluja", "Battles"),
    ):
        table.add_column(head)
    for u in view["units"]:
        table.add_row(
            u["name"],
            u["card"],
            str(u["xp"]),
            f"{u['tt']:+d}",
            f"{u['strength']}/{u['max_strength']}",
            ", ".join(u["abilities"]),
            str(u["battles"]),
        )
    console.print(table)


def _answer(
    db: str | None,
    scenarios: list[Path] | None,
    as_json: bool,
    act: Callable[[Any], dict[str, Any]],
    *,
    battles: bool = False,
) -> dict[str, Any] | None:
    """Open the stores, ``act`` on them (it answers the campaign's view), then print the
    summary as JSON (``None`` returned) or the roster (the view returned, for more lines)."""
    with _stores(db, scenarios) as store:
        view = act(store)
    if as_json:
        print_json(_summary(view, battles=battles))
        return None
    _print_roster(view)
    return view


@campaign_app.command("new")
def new_cmd(
    name: Annotated[str, typer.Argument(metavar="NAME", help="Kampanjan nimi / campaign name.")],
    company: Annotated[
        str | None,
        typer.Option("--company", help="Skenaario, jonka siniset joukot / scenario whose Blue."),
    ] = None,
    roster: Annotated[
        Path | None,
        typer.Option("--roster", help="Vahvuusluettelo (TOML/JSON) / roster file (TOML/JSON)."),
    ] = None,
    co_spends: Annotated[
        bool, typer.Option("--co-spends", help="Päällikkö saa käyttää TP / the CO may spend TP.")
    ] = False,
    option: Annotated[
        list[str] | None,
        typer.Option(
            "--option",
            help="Kampanjan sääntövalinta NIMI=ARVO, esim. campaign_xp_share=individual / a "
            "campaign rule option NAME=VALUE (repeatable; tk20 rules lists them).",
        ),
    ] = None,
    db: DbOpt = None,
    scenarios: ScenariosOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Uusi kampanja / start a campaign (the GM's invite links: ``--json`` ``seats``)."""
    options = _parse_options(option or [])
    data = None
    if roster is not None:
        from taistelukentta.server.campaigns import parse_roster_text

        try:
            text = roster.read_text(encoding="utf-8")
        except OSError as exc:
            fail(tr(f"--roster: ei voi lukea: {exc}", f"--roster: cannot read: {exc}"))
        with _stores(db, scenarios):
            data = parse_roster_text(text, str(roster))
    with _stores(db, scenarios) as store:
        made = store.create(
            name, scenario=company, roster=data, options=options, co_spends=co_spends
        )
    out = _summary(made.view, battles=False)
    out["seats"] = made.tokens
    if as_json:
        print_json(out)
        return
    _print_roster(made.view)
    console.print(tr(f"Kampanja {made.id}", f"Campaign {made.id}"), highlight=False)


@campaign_app.command("show")
def show_cmd(
    campaign_id: IdArg, db: DbOpt = None, scenarios: ScenariosOpt = None, as_json: JsonOpt = False
) -> None:
    """Vahvuusluettelo ja taistelut / the roster and its battles."""
    view = _answer(
        db, scenarios, as_json, lambda store: store.view(campaign_id, "gm"), battles=True
    )
    if view is None:
        return
    for b in view["battles"]:
        console.print(
            f"{b['number']}. {b['scenario']}: {b['winner']}, VP {b['victory_points']}, "
            f"+{b['tp']} TP",
            highlight=False,
        )


@campaign_app.command("battle")
def battle_cmd(
    campaign_id: IdArg,
    scenario: Annotated[str, typer.Option("--scenario", help="Skenaario / scenario id.")],
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed",
            help="Noppien siemen, vain --computer kanssa (toistettavat ajot) / dice seed, "
            "only with --computer (repeatable runs).",
        ),
    ] = None,
    computer: Annotated[
        bool,
        typer.Option("--computer", help="Tietokone pelaa molemmat / the computer plays both."),
    ] = False,
    leave_out: Annotated[
        list[str] | None,
        typer.Option("--leave-out", help="Jätä yksikkö pois / keep a unit out (repeatable)."),
    ] = None,
    out_file: Annotated[
        Path | None,
        typer.Option(
            "--out",
            help="Tallenna taistelun pelitiedosto (tk20 replay/verify/show; ennen loppua "
            "sinetöity, ilman siementä) / save the battle's game file (for tk20 replay, "
            "verify, show; before its end sealed: no seed).",
        ),
    ] = None,
    db: DbOpt = None,
    scenarios: ScenariosOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Seuraava taistelu / the next battle (``--computer``: played to its end at once;
    the same ``--seed`` plays the same battle)."""
    if seed is not None and not 0 <= seed < 2**63:
        fail(tr("--seed: 0 … 2^63-1", "--seed: 0 … 2^63-1"))
    if seed is not None and not computer:
        # A chosen number is known to whoever chose it, and a small one is found from the
        # commitment every seat reads: it would give away every roll, secret ones included
        # (issue 8). Only a battle the computer plays both sides of may be repeated.
        fail(
            tr(
                "--seed vain yhdessä --computer kanssa: ihmisten pelaama taistelu saa salaisen "
                "siemenen (valitun luvun voi päätellä julkaistusta sitoumuksesta)",
                "--seed only with --computer: a battle people play gets a secret seed (a "
                "chosen number can be found from the published commitment)",
            )
        )
    if out_file is not None and not out_file.parent.is_dir():
        fail(
            tr(
                f"--out: kansiota {str(out_file.parent)!r} ei ole",
                f"--out: folder {str(out_file.parent)!r} does not exist",
            )
        )
    with _stores(db, scenarios) as store:
        before = store.view(campaign_id, "gm")
        seats: list[str] = []
        if computer:
            from taistelukentta.server.games import scenario_for

            sc = scenario_for(scenario, {}, store.games.settings.scenario_dirs)
            seats = [s.id for s in sc.blue.seats] + ["gm"]
        created = store.start_battle(
            campaign_id, "gm", scenario, leave_out=leave_out or [], computer=seats, seed=seed
        )
        game = created.game.id
        if computer:
            store.games.play_computer_now(game)
        after = store.view(campaign_id, "gm")
        if out_file is not None:
            from taistelukentta.server.export import export_text, sealed_export_text

            # before the battle's end sealed, as the server's /export: no seed
            played = store.games.game(game)
            text = export_text(played) if played.state.finished else sealed_export_text(played)
            try:
                out_file.write_text(text, encoding="utf-8")
            except OSError as exc:
                fail(tr(f"--out: ei voi kirjoittaa: {exc}", f"--out: cannot write: {exc}"))
    record = next((b for b in after["battles"] if b["game"] == game), None)
    out: dict[str, Any] = {
        "game": game,
        "winner": record["winner"] if record else None,
        "victory_points": record["victory_points"] if record else None,
        "xp": record["xp"] if record else {},
        "tp": after["tp"] - before["tp"] if record else 0,
        "roster": _units(after),
    }
    if not computer:
        out["seats"] = created.tokens
    if as_json:
        print_json(out)
        return
    if record is None:
        console.print(tr(f"Taistelu {game} alkoi.", f"Battle {game} started."), highlight=False)
        for seat, token in created.tokens.items():
            console.print(f"  {seat}: {token}", highlight=False)
        return
    console.print(
        f"{game}: {record['winner']}, VP {record['victory_points']}, +{out['tp']} TP",
        highlight=False,
    )
    _print_roster(after)


@campaign_app.command("spend")
def spend_cmd(
    campaign_id: IdArg,
    action: Annotated[
        str,
        typer.Argument(
            metavar="ACTION",
            help='"restore NIMI K" | "buy KORTTI NIMI" | "ability NIMI KYKY" / '
            '"restore NAME K" | "buy CARD NAME" | "ability NAME ABILITY"',
        ),
    ],
    why: Annotated[str, typer.Option("--why", help="Syy / why (history).")] = "",
    db: DbOpt = None,
    scenarios: ScenariosOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Käytä täydennyspisteitä / spend replacement points (R-CAMP-4) or pick an ability."""
    _answer(db, scenarios, as_json, lambda store: store.act(campaign_id, "gm", action, why=why))


@campaign_app.command("undo")
def undo_cmd(
    campaign_id: IdArg, db: DbOpt = None, scenarios: ScenariosOpt = None, as_json: JsonOpt = False
) -> None:
    """Peru viimeisin muutos / undo the newest change since the last battle."""
    _answer(db, scenarios, as_json, lambda store: store.undo(campaign_id, "gm"))


@campaign_app.command("export")
def export_cmd(
    campaign_id: IdArg,
    fmt: Annotated[str, typer.Option("--format", help="csv | html | pdf")] = "csv",
    out: Annotated[
        Path | None, typer.Option("--out", help="Tiedosto / file (default stdout).")
    ] = None,
    db: DbOpt = None,
    scenarios: ScenariosOpt = None,
) -> None:
    """Vie vahvuusluettelo / export the roster (CSV, printable HTML or PDF)."""
    if fmt not in ("csv", "html", "pdf"):
        fail(
            tr(
                f"--format: csv, html tai pdf, ei {fmt!r}",
                f"--format: csv, html or pdf, not {fmt!r}",
            )
        )
    with _stores(db, scenarios) as store:
        _media, content = store.export(campaign_id, fmt, get_language())
    if out is not None:
        out.write_bytes(content)
        return
    sys.stdout.buffer.write(content)
    sys.stdout.flush()
