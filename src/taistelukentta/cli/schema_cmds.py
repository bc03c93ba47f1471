"""``tk20 schema``: the JSON Schema of the views and events (views/models.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from taistelukentta.cli.common import fail
from taistelukentta.i18n import tr


def schema_cmd(
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            help=(
                "Kirjoita tiedostoon (oletus: tuloste) / write to FILE (default: standard output)."
            ),
        ),
    ] = None,
) -> None:
    """Näkymien ja tapahtumien JSON Schema / the JSON Schema of views and events."""
    from taistelukentta.views.models import view_schema

    text = json.dumps(view_schema(), ensure_ascii=False, indent=2) + "\n"
    if out is None:
        typer.echo(text, nl=False)
        return
    try:
        out.write_text(text, encoding="utf-8")
    except OSError as exc:
        reason = exc.strerror or str(exc)
        fail(tr(f"tiedostoa {out} ei voi kirjoittaa: {reason}", f"cannot write {out}: {reason}"))
    typer.echo(str(out))


def register(app: typer.Typer) -> None:
    app.command("schema")(schema_cmd)
