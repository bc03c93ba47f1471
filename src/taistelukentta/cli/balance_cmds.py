"""``tk20 balance``: many computer-vs-computer games of a scenario and their summary
(win rates with 95 % intervals, VP, rounds, survival, objectives), locally or on Dask."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.table import Table

from taistelukentta.cli.common import console, err_console, fail, fail_error, print_json
from taistelukentta.errors import TkError
from taistelukentta.i18n import term, tr

if TYPE_CHECKING:
    from rich.progress import Task
    from rich.text import Text as RichText

    from taistelukentta.bots.balance import GameResult, GameSpec


def balance_cmd(
    scenario: Annotated[
        str,
        typer.Argument(
            metavar="SCENARIO",
            help="Valmiin skenaarion tunnus tai skenaariotiedosto / bundled id or scenario file.",
        ),
    ],
    games: Annotated[
        int, typer.Option("--games", "-n", help="Pelien määrä / number of games.", min=1)
    ] = 100,
    blue: Annotated[
        str,
        typer.Option(
            "--blue", help="Sinisen tietokonepelaaja / Blue's computer player (baseline, …)."
        ),
    ] = "baseline",
    red: Annotated[
        str,
        typer.Option(
            "--red", help="Punaisen tietokonepelaaja / Red's computer player (baseline, …)."
        ),
    ] = "baseline",
    seed: Annotated[
        int,
        typer.Option(
            "--seed",
            help="Ensimmäinen siemen S; pelit S…S+N−1 / first seed S: games S…S+N−1.",
            min=0,
        ),
    ] = 1,
    workers: Annotated[
        int,
        typer.Option(
            "--workers",
            "-w",
            help="Rinnakkaiset prosessit / worker processes (local pool or LocalCluster).",
            min=1,
        ),
    ] = 1,
    scheduler: Annotated[
        str | None,
        typer.Option(
            "--scheduler",
            help="Dask-ajoittimen osoite / a Dask scheduler address (tcp://host:8786).",
        ),
    ] = None,
    local_cluster: Annotated[
        bool,
        typer.Option(
            "--local-cluster",
            help="Dask LocalCluster --workers prosessilla / a Dask LocalCluster of --workers.",
        ),
    ] = False,
    option: Annotated[
        list[str] | None,
        typer.Option(
            "--option",
            help=("Sääntövalinnan arvot rinnakkain: NIMI=A1,A2 / sweep a rule option: NAME=V1,V2."),
        ),
    ] = None,
    json_out: Annotated[
        bool, typer.Option("--json", help="Tulosta vain JSON / print one JSON object only.")
    ] = False,
    report: Annotated[
        Path | None,
        typer.Option("--report", help="HTML-raportti kansioon / write an HTML report to DIR."),
    ] = None,
) -> None:
    """Skenaarion tasapaino: N tietokonepeliä / scenario balance: N computer games."""
    from taistelukentta.bots import balance as bal  # only here: the bots are heavy

    try:
        bal.check_bot(blue, "blue")
        bal.check_bot(red, "red")
        sweep = bal.parse_option_sweep(option or [])
        base = bal.GameSpec(scenario, blue, red)
        specs = bal.sweep_specs(base, sweep)
        for spec in specs:
            bal.spec_scenario(spec)  # every bad scenario/option before any game
    except TkError as exc:
        fail_error(exc)
    seeds = list(range(seed, seed + games))
    summaries: list[dict[str, Any]] = []
    all_results: list[list[GameResult]] = []
    try:
        for spec in specs:
            results = _run_with_progress(bal, spec, seeds, workers, scheduler, local_cluster)
            all_results.append(results)
            summaries.append(bal.summarise(spec, results))
    except TkError as exc:
        fail_error(exc)
    except KeyboardInterrupt:
        fail(tr("keskeytetty", "interrupted"), 130)
    if report is not None:
        try:
            import matplotlib  # noqa: F401

            from taistelukentta.bots.report import write_report
        except ImportError:  # an install without the balance extra
            fail(
                tr(
                    "--report tarvitsee matplotlibin: pip install 'taistelukentta[balance]'",
                    "--report needs matplotlib: pip install 'taistelukentta[balance]'",
                )
            )
        try:
            index = write_report(
                report,
                [
                    (s, bal.spec_scenario(sp), r)
                    for s, sp, r in zip(summaries, specs, all_results, strict=True)
                ],
            )
        except OSError as exc:
            reason = exc.strerror or str(exc)
            fail(
                tr(
                    f"raporttia ei voi kirjoittaa ({report}): {reason}",
                    f"cannot write the report ({report}): {reason}",
                )
            )
    if json_out:
        print_json(summaries[0] if not sweep else {"sweep": summaries})
        return
    _print_table(summaries, [dict(sp.options) for sp in specs] if sweep else None)
    if report is not None:
        typer.echo(str(index))


def _run_with_progress(
    bal: Any,
    spec: GameSpec,
    seeds: list[int],
    workers: int,
    scheduler: str | None,
    local_cluster: bool,
) -> list[GameResult]:
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from rich.text import Text

    class RateColumn(ProgressColumn):
        def render(self, task: Task) -> RichText:
            speed = task.finished_speed or task.speed
            if speed is None:
                return Text("– " + tr("peliä/s", "games/s"), style="progress.data.speed")
            return Text(f"{speed:.1f} " + tr("peliä/s", "games/s"), style="progress.data.speed")

    label = spec.scenario
    if spec.options:
        label += " " + " ".join(f"{k}={v}" for k, v in spec.options)
    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        RateColumn(),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=err_console,
        disable=not err_console.is_terminal,
    ) as progress:
        task = progress.add_task(label, total=len(seeds))
        results: list[GameResult] = bal.run_games(
            spec,
            seeds,
            workers=workers,
            scheduler=scheduler,
            local_cluster=local_cluster,
            on_result=lambda _r: progress.advance(task),
        )
    return results


def _pct(x: float) -> str:
    return f"{100 * x:.1f} %"


def _print_table(summaries: list[dict[str, Any]], sweep: list[dict[str, Any]] | None) -> None:
    first = summaries[0]
    title = tr(
        f"{first['scenario']}: sininen {first['blue_bot']}, punainen {first['red_bot']}, "
        f"siemenet {first['seeds'][0]}…{first['seeds'][1]}",
        f"{first['scenario']}: blue {first['blue_bot']}, red {first['red_bot']}, "
        f"seeds {first['seeds'][0]}…{first['seeds'][1]}",
    )
    table = Table(title=title, title_justify="left")
    table.add_column("")
    if sweep is None:
        table.add_column(tr("tulos", "result"), justify="right")
    else:
        for opts in sweep:
            table.add_column(" ".join(f"{k}={v}" for k, v in opts.items()), justify="right")

    def row(name: str, values: list[str]) -> None:
        table.add_row(name, *values)

    row(tr("pelejä", "games"), [str(s["games"]) for s in summaries])
    row(tr("[95 %:n väli]", "[95 % interval]"), ["Wilson" for _ in summaries])
    for side in ("blue", "red"):
        row(
            tr(f"{term(side)} voittaa", f"{term(side)} wins"),
            [
                f"{s['wins'][side]} · {_pct(s[f'{side}_win_rate'])} "
                f"[{_pct(s[f'{side}_win_interval'][0])}–{_pct(s[f'{side}_win_interval'][1])}]"
                for s in summaries
            ],
        )
    row(tr("tasapeli", "draws"), [str(s["wins"]["draw"]) for s in summaries])
    for side in ("blue", "red"):
        row(
            tr(f"VP {term(side)} (ka.)", f"VP {term(side)} (mean)"),
            [f"{s['vp'][side]['mean']:.2f}" for s in summaries],
        )
    row(tr("kierroksia (ka.)", "rounds (mean)"), [f"{s['rounds']['mean']:.2f}" for s in summaries])
    for oid in first["objectives"]:
        row(
            tr(f"{oid}: sininen/punainen", f"{oid}: blue/red"),
            [
                f"{_pct(s['objectives'][oid]['blue'])} / {_pct(s['objectives'][oid]['red'])}"
                for s in summaries
            ],
        )
    for side in ("blue", "red"):
        for card in first["survival"][side]:
            row(
                tr(f"{card} ({term(side)}) selviää", f"{card} ({term(side)}) survives"),
                [_pct(s["survival"][side].get(card, {}).get("rate", 0.0)) for s in summaries],
            )
    console.print(table)


def register(app: typer.Typer) -> None:
    app.command("balance")(balance_cmd)
