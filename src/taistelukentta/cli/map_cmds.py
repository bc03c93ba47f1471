"""``tk20 map``: the printable 1:10 000 map of a scenario or a map file (issue 14)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from taistelukentta.cli.common import console, fail, fail_error
from taistelukentta.errors import TkError
from taistelukentta.i18n import get_language, tr


def register(app: typer.Typer) -> None:
    """Add ``map`` to ``app``."""
    app.command("map")(map_cmd)


def map_cmd(
    subject: Annotated[
        str,
        typer.Argument(
            metavar="SCENARIO_OR_MAP",
            help="Valmis skenaario (demo), skenaario- tai karttatiedosto / a bundled "
            "scenario, a scenario file or a map file.",
        ),
    ],
    out: Annotated[
        Path,
        typer.Option(
            "--out",
            "-o",
            help="Tiedosto: .pdf (kaikki sivut) tai .svg (sivu per tiedosto) / output file: "
            ".pdf (every page) or .svg (one file per page).",
        ),
    ],
    paper: Annotated[
        str, typer.Option("--paper", help="Paperikoko / paper size: A4 | A3 | A2.")
    ] = "A4",
    side: Annotated[
        str,
        typer.Option(
            "--side",
            help="Kenen kartta: blue | red | gm (gm näyttää punaisen ryhmityksen ja "
            "miinoitteet) / whose print: blue | red | gm (gm adds Red's set-up and mines).",
        ),
    ] = "blue",
) -> None:
    """Tulostettava kartta 1:10 000 / the printable map at 1:10 000 (1 cm = 100 m)."""
    from taistelukentta.mapprint import PRINT_SIDES, load_print_content, write
    from taistelukentta.mapprint.layout import PAPERS, plan

    paper_key = paper.upper()
    if paper_key not in PAPERS:
        fail(
            tr(
                f"--paper: tuntematon koko {paper!r}; valitse {', '.join(PAPERS)}",
                f"--paper: unknown size {paper!r}; choose {', '.join(PAPERS)}",
            )
        )
    if side not in PRINT_SIDES:
        fail(
            tr(
                f"--side: tuntematon puoli {side!r}; valitse {', '.join(PRINT_SIDES)}",
                f"--side: unknown side {side!r}; choose {', '.join(PRINT_SIDES)}",
            )
        )
    if out.suffix.lower() not in (".pdf", ".svg"):
        fail(
            tr(
                f"--out: tiedoston päätteen on oltava .pdf tai .svg: {str(out)!r}",
                f"--out: the file must end in .pdf or .svg: {str(out)!r}",
            )
        )
    if not out.parent.is_dir():
        fail(
            tr(
                f"--out: kansiota {str(out.parent)!r} ei ole",
                f"--out: folder {str(out.parent)!r} does not exist",
            )
        )
    try:
        content = load_print_content(subject, side, get_language())  # type: ignore[arg-type]
    except TkError as exc:
        fail_error(exc)
    sheet = plan(content.game_map.width, content.game_map.height, paper_key)
    try:
        written = write(content, out, paper_key)
    except OSError as exc:
        fail(tr(f"--out: ei voi kirjoittaa: {exc}", f"--out: cannot write: {exc}"))
    orient = tr("vaaka", "landscape") if sheet.landscape else tr("pysty", "portrait")
    console.print(
        tr(
            f"{content.title}: {len(sheet.tiles)} sivua {paper_key} {orient} "
            f"({sheet.columns}×{sheet.rows}), mittakaava 1:10 000.",
            f"{content.title}: {len(sheet.tiles)} pages {paper_key} {orient} "
            f"({sheet.columns}×{sheet.rows}), scale 1:10 000.",
        ),
        highlight=False,
    )
    for p in written:
        console.print(str(p), highlight=False, soft_wrap=True)
