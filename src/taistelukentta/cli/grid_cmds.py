"""``tk20 move``, ``tk20 los``, ``tk20 reach``: the terrain calculators (issue 2)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table
from rich.text import Text

from taistelukentta.cli.common import console, fail, fail_error, parse_cell, print_json
from taistelukentta.content.maps import load_map
from taistelukentta.content.terrain import default_terrain
from taistelukentta.errors import TkError
from taistelukentta.grid import GameMap, line_of_sight, move_along_terrain, reachable
from taistelukentta.grid.terrain import TerrainTable
from taistelukentta.i18n import get_language, tr

JsonFlag = Annotated[
    bool, typer.Option("--json", help="Tulosta vain JSON / print one JSON object only.")
]
MapArg = Annotated[Path, typer.Argument(help="Karttatiedosto (TOML) / map file.")]
MovementOpt = Annotated[
    float, typer.Option("--movement", "-L", help="Liike L (ruutuja) / movement allowance.")
]


def register(app: typer.Typer) -> None:
    """Add ``move``, ``los`` and ``reach`` to ``app``."""
    app.command("move")(move_cmd)
    app.command("los")(los_cmd)
    app.command("reach")(reach_cmd)


def _num(x: float) -> str:
    text = f"{x:g}"
    return text.replace(".", ",") if get_language() == "fi" else text


def _name(table: TerrainTable, terrain_id: str | None) -> str:
    if terrain_id is None:
        return "—"
    t = table.get(terrain_id)
    return tr(t.name_fi, t.name_en)


def _load(path: Path) -> GameMap:
    try:
        return load_map(path)
    except TkError as exc:
        fail_error(exc)


def _check_movement(movement: float) -> None:
    if movement < 0:
        fail(
            tr(
                f"--movement: liikkeen on oltava vähintään 0, saatiin {_num(movement)}",
                f"--movement: the allowance must be at least 0, got {_num(movement)}",
            )
        )


_STOP_REASONS = {
    "allowance": ("liike loppui", "allowance used up"),
    "impassable": ("ruutuun ei voi liikkua", "impassable cell"),
    "blocked": ("ruutu varattu", "cell blocked"),
    "stop_cell": ("liike pysähtyi", "the move had to stop"),
    "squeeze": ("vino askel kahden esteen välistä", "diagonal squeeze between obstacles"),
}


def move_cmd(
    movement: MovementOpt,
    path: Annotated[
        str,
        typer.Option(
            "--path",
            help="Maastot pilkuin eroteltuina, ruutu kerrallaan / terrain per cell, "
            "comma-separated (e.g. road,road,field,swamp).",
        ),
    ],
    as_json: JsonFlag = False,
) -> None:
    """Kuinka pitkälle yksikkö pääsee maastoreittiä / how far a unit gets (R-TER-3)."""
    _check_movement(movement)
    table = default_terrain()
    names = [p for p in (s.strip() for s in path.split(",")) if p]
    try:
        ids = [table.find(n).id for n in names]
        result = move_along_terrain(table, movement, ids)
    except TkError as exc:
        fail_error(exc)
    if as_json:
        print_json(
            {
                "movement": movement,
                "cells": result.cells,
                "remaining": result.remaining,
                "stopped_by": result.stopped_by,
                "steps": [
                    {"terrain": s.terrain, "cost": s.cost, "remaining": s.remaining}
                    for s in result.steps
                ],
            }
        )
        return
    out = Table(
        title=tr(f"Liike {_num(movement)}", f"Movement {_num(movement)}"), title_justify="left"
    )
    out.add_column("#", justify="right")
    out.add_column(tr("Maasto", "Terrain"))
    out.add_column(tr("Hinta", "Cost"), justify="right")
    out.add_column(tr("Jäljellä", "Remaining"), justify="right")
    for i, s in enumerate(result.steps, 1):
        out.add_row(str(i), _name(table, s.terrain), _num(s.cost), _num(s.remaining))
    console.print(out)
    line = tr(
        f"Yksikkö etenee {result.cells}/{len(ids)} ruutua.",
        f"The unit moves {result.cells}/{len(ids)} cells.",
    )
    if result.stopped_by is not None:
        fi, en = _STOP_REASONS.get(result.stopped_by, (result.stopped_by, result.stopped_by))
        line += " " + tr(f"Pysähtyi: {fi}.", f"Stopped: {en}.")
    console.print(line, highlight=False)


def los_cmd(
    mapfile: MapArg,
    from_: Annotated[str, typer.Option("--from", help="Tarkkailija X,Y / observer cell.")],
    to: Annotated[str, typer.Option("--to", help="Kohde X,Y / target cell.")],
    as_json: JsonFlag = False,
) -> None:
    """Näköyhteys ja kohteen suoja / line of sight and cover (R-TER-4)."""
    a = parse_cell(from_, "--from")
    b = parse_cell(to, "--to")
    game_map = _load(mapfile)
    try:
        game_map.check_cell(a, "--from")
        game_map.check_cell(b, "--to")
        sight = line_of_sight(game_map, a, b)
    except TkError as exc:
        fail_error(exc)
    if as_json:
        print_json(
            {
                "from": list(a),
                "to": list(b),
                "visible": sight.visible,
                "distance": sight.distance,
                "cover": sight.cover,
                "limited_by": sight.limited_by,
            }
        )
        return
    out = Table(
        title=tr("Näköyhteys", "Line of sight") + f" {a[0]},{a[1]} → {b[0]},{b[1]}",
        title_justify="left",
        show_header=False,
    )
    out.add_column()
    out.add_column()
    out.add_row(tr("Näkyy", "Visible"), tr("kyllä", "yes") if sight.visible else tr("ei", "no"))
    out.add_row(
        tr("Etäisyys", "Distance"), tr(f"{sight.distance} ruutua", f"{sight.distance} cells")
    )
    out.add_row(tr("Suoja", "Cover"), f"+{sight.cover}")
    label = tr("Rajoittaa", "Limited by") if not sight.visible else tr("Suojaa", "Cover from")
    out.add_row(label, _name(game_map.terrain, sight.limited_by))
    console.print(out)


def reach_cmd(
    mapfile: MapArg,
    from_: Annotated[str, typer.Option("--from", help="Lähtöruutu X,Y / start cell.")],
    movement: MovementOpt,
    as_json: JsonFlag = False,
) -> None:
    """Ruudut, joihin yksikkö pääsee / cells a unit can reach (R-TER-3, R-TER-5)."""
    start = parse_cell(from_, "--from")
    _check_movement(movement)
    game_map = _load(mapfile)
    try:
        game_map.check_cell(start, "--from")
        reach = reachable(game_map, start, movement)
    except TkError as exc:
        fail_error(exc)
    cells = sorted(reach)
    if as_json:
        print_json(
            {
                "from": list(start),
                "movement": movement,
                "cells": [list(c) for c in cells],
                "spent": [reach[c] for c in cells],
            }
        )
        return
    console.print(_draw(game_map, start, set(reach)))
    console.print(
        tr(
            f"{len(cells)} ruutua saavutettavissa liikkeellä {_num(movement)} ruudusta "
            f"{start[0]},{start[1]} (@); saavutettavat korostettu"
            + (" (*)." if console.color_system is None else "."),
            f"{len(cells)} cells reachable with movement {_num(movement)} from "
            f"{start[0]},{start[1]} (@); reachable cells highlighted"
            + (" (*)." if console.color_system is None else "."),
        ),
        highlight=False,
    )
    console.print(_legend(game_map), highlight=False)


def _draw(game_map: GameMap, start: tuple[int, int], marked: set[tuple[int, int]]) -> Text:
    """The map with ``start`` as @ and the marked cells highlighted (``*`` without colour)."""
    plain = console.color_system is None
    text = Text()
    header = "   " + "".join(str(x % 10) for x in range(game_map.width))
    text.append(header + "\n", style="dim")
    for y in range(game_map.height):
        text.append(f"{y:>2} ", style="dim")
        for x in range(game_map.width):
            ch = game_map.char_at((x, y))
            if (x, y) == start:
                text.append("@", style="bold black on yellow")
            elif (x, y) in marked:
                text.append("*" if plain else ch, style="bold black on green")
            else:
                text.append(ch, style="dim")
        text.append("\n")
    return text


def _legend(game_map: GameMap) -> str:
    parts = []
    for ch, feats in sorted(game_map.legend.items()):
        names = " + ".join(_name(game_map.terrain, f) for f in feats)
        parts.append(f"{ch} {names}")
    return tr("Selite: ", "Legend: ") + ", ".join(parts)
