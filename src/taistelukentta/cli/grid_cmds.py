"""``tk20 move``, ``tk20 los``, ``tk20 reach``: the terrain calculators (issue 2)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table
from rich.text import Text

from taistelukentta.cli.common import colour_on, console, fail, fail_error, parse_cell, print_json
from taistelukentta.cli.mapdraw import Window
from taistelukentta.content.maps import load_map
from taistelukentta.content.terrain import default_terrain
from taistelukentta.errors import TkError
from taistelukentta.grid import GameMap, line_of_sight, move_along_terrain, reachable
from taistelukentta.grid.geometry import Cell
from taistelukentta.grid.sight import Sight
from taistelukentta.grid.terrain import TerrainTable
from taistelukentta.i18n import num, tr
from taistelukentta.rules.state import GameState

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
    return num(x)


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


SourceArg = Annotated[
    str,
    typer.Argument(
        metavar="MAP_SCENARIO_OR_GAME",
        help="Karttatiedosto (TOML), skenaarion tunnus tai pelitiedosto (.json) / map file, "
        "scenario id or game file.",
    ),
]
AsOpt = Annotated[
    str | None,
    typer.Option(
        "--as",
        help="Pelitiedostossa: kenen tiedoilla (blue, red, gm tai paikka) / in a game file: "
        "whose knowledge (blue, red, gm or a seat).",
    ),
]
UnitOpt = Annotated[
    str | None,
    typer.Option("--unit", help="Oma yksikkö (pelitiedosto) / own unit (game file)."),
]


@dataclass
class _Source:
    """What ``los``/``reach`` work on: a map, and for a game file its state."""

    game_map: GameMap
    state: GameState | None = None


def _source(text: str) -> _Source:
    """A map file, a bundled scenario's map, or a game file (state and map)."""
    from taistelukentta.content.scenario import bundled_ids, load_scenario

    path = Path(text)
    try:
        if path.suffix == ".json" and path.is_file():
            from taistelukentta.storage.session import open_game

            state = open_game(path).state
            return _Source(state.scenario.map, state)
        if not path.exists() and text in bundled_ids():
            return _Source(load_scenario(text).map)
        return _Source(load_map(path))
    except TkError as exc:
        fail_error(exc)


def _viewer(src: _Source, who: str | None, unit: str | None) -> str | None:
    """The viewer of a game file (``--as``), needed with ``--unit``; refused for a map."""
    if src.state is None:
        if who is not None or unit is not None:
            fail(
                tr(
                    "--as ja --unit käyvät vain pelitiedoston kanssa",
                    "--as and --unit need a game file",
                )
            )
        return None
    if unit is not None and who is None:
        fail(
            tr(
                "--unit: kerro kenen tiedoilla (--as blue, red, gm tai paikka)",
                "--unit: say whose knowledge to use (--as blue, red, gm or a seat)",
            )
        )
    if who is not None:
        from taistelukentta.views.view import resolve_viewer

        try:
            resolve_viewer(src.state, who)
        except TkError as exc:
            fail_error(exc)
    return who


def los_cmd(
    source: SourceArg,
    to: Annotated[
        str,
        typer.Option(
            "--to",
            help="Kohde X,Y (pelitiedostossa myös näkyvä yksikkö) / target cell X,Y (in a game "
            "file also a unit the viewer sees).",
        ),
    ],
    from_: Annotated[
        str | None, typer.Option("--from", help="Tarkkailija X,Y / observer cell.")
    ] = None,
    who: AsOpt = None,
    unit: UnitOpt = None,
    as_json: JsonFlag = False,
) -> None:
    """Näköyhteys ja kohteen suoja / line of sight and cover (R-TER-4).

    From --from X,Y, or in a game file from a unit: tk20 los GAME --as pl1 --unit 1R1
    --to 16,10."""
    src = _source(source)
    viewer = _viewer(src, who, unit)
    b = _target_cell(src, viewer, to)
    if unit is not None and from_ is not None:
        fail(tr("anna joko --from tai --unit", "give either --from or --unit"))
    if unit is None and from_ is None:
        fail(tr("--from tai --unit puuttuu", "--from or --unit is missing"))
    game_map = src.game_map
    try:
        if unit is not None and src.state is not None and viewer is not None:
            from taistelukentta.views.sight import side_sight, viewer_unit

            seen = viewer_unit(src.state, viewer, unit, own=True)
            a, unit = seen.cell, seen.id
            game_map.check_cell(b, "--to")
            sight = side_sight(src.state, a, b)
        else:
            a = parse_cell(str(from_), "--from")
            game_map.check_cell(a, "--from")
            game_map.check_cell(b, "--to")
            if src.state is not None:
                from taistelukentta.views.sight import side_sight

                sight = side_sight(src.state, a, b)
            else:
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
    for line in sight_lines(game_map, a, b, sight, unit=unit):
        console.print(line, highlight=False)


def _target_cell(src: _Source, viewer: str | None, to: str) -> Cell:
    """``--to``: a cell X,Y, or in a game file with ``--as`` a unit the viewer sees."""
    if "," in to or src.state is None or viewer is None:
        return parse_cell(to, "--to")
    from taistelukentta.views.sight import viewer_unit

    try:
        return viewer_unit(src.state, viewer, to, own=False).cell
    except TkError as exc:
        fail_error(exc)


def sight_lines(
    game_map: GameMap, a: Cell, b: Cell, sight: Sight, *, unit: str | None = None
) -> list[str]:
    """Line of sight in words: whether it is clear, distance, cover and what limits it."""
    who = f"{unit} ({a[0]},{a[1]})" if unit else f"{a[0]},{a[1]}"
    head = tr("Näköyhteys", "Line of sight") + f" {who} → {b[0]},{b[1]}: "
    head += tr("näkyy", "visible") if sight.visible else tr("ei näy", "not visible")
    lines = [
        head,
        tr(f"  Etäisyys {sight.distance} ruutua", f"  Distance {sight.distance} cells")
        + tr(f", kohteen suoja +{sight.cover}", f", target's cover +{sight.cover}"),
    ]
    if sight.limited_by is not None:
        label = tr("Rajoittaa", "Limited by") if not sight.visible else tr("Suojaa", "Cover from")
        lines.append(f"  {label}: {_name(game_map.terrain, sight.limited_by)}")
    return lines


def reach_cmd(
    source: SourceArg,
    from_: Annotated[
        str | None, typer.Option("--from", help="Lähtöruutu X,Y / start cell.")
    ] = None,
    movement: Annotated[
        float | None,
        typer.Option("--movement", "-L", help="Liike L (ruutuja) / movement allowance."),
    ] = None,
    who: AsOpt = None,
    unit: UnitOpt = None,
    as_json: JsonFlag = False,
) -> None:
    """Ruudut, joihin yksikkö pääsee / cells a unit can reach (R-TER-3, R-TER-5).

    On a map: --from X,Y --movement L. In a game file, a unit's moves this turn as its side
    knows the board: tk20 reach GAME --as pl1 --unit 1R1."""
    src = _source(source)
    viewer = _viewer(src, who, unit)
    game_map = src.game_map
    if unit is not None and src.state is not None and viewer is not None:
        if from_ is not None or movement is not None:
            fail(
                tr(
                    "--unit: yksikön ruutu ja liike tulevat pelistä (ei --from/--movement)",
                    "--unit: the unit's cell and movement come from the game "
                    "(no --from/--movement)",
                )
            )
        from taistelukentta.views.sight import side_reach

        try:
            answer = side_reach(src.state, viewer, unit)
        except TkError as exc:
            fail_error(exc)
        start, allowance, spent = answer.start, float(answer.movement), answer.cells
        label = answer.unit
    else:
        if from_ is None or movement is None:
            fail(
                tr(
                    "anna --from X,Y ja --movement L (tai pelitiedostossa --as ja --unit)",
                    "give --from X,Y and --movement L (or in a game file --as and --unit)",
                )
            )
        start = parse_cell(from_, "--from")
        _check_movement(movement)
        allowance = movement
        try:
            game_map.check_cell(start, "--from")
            spent = reachable(game_map, start, movement)
        except TkError as exc:
            fail_error(exc)
        label = None
    cells = sorted(spent)
    if as_json:
        print_json(
            {
                "from": list(start),
                "unit": label,
                "movement": allowance,
                "cells": [list(c) for c in cells],
                "spent": [spent[c] for c in cells],
            }
        )
        return
    for line in reach_lines(game_map, start, set(spent), allowance, unit=label):
        console.print(line, highlight=False, soft_wrap=True)


def reach_lines(
    game_map: GameMap,
    start: Cell,
    marked: set[Cell],
    movement: float,
    *,
    unit: str | None = None,
    window: tuple[int, int] | None = None,
) -> list[Text]:
    """The map (or a ``window`` = (width, height) around the reach) with ``start`` as @ and
    the reachable cells highlighted, then a line in words and the terrain key."""
    win = None
    if window is not None:
        from taistelukentta.cli.mapdraw import pick_window

        pts = [start, *marked]
        win = pick_window(game_map.width, game_map.height, window[0], window[1], pts)
    lines = _draw(game_map, start, marked, win)
    who = f"{unit} " if unit else ""
    n = len(marked - {start})
    lines.append(
        Text(
            tr(
                f"{who}{n} ruutua saavutettavissa liikkeellä {_num(movement)} ruudusta "
                f"{start[0]},{start[1]} (@); saavutettavat korostettu"
                + (" (*)." if not colour_on() else "."),
                f"{who}{n} cells reachable with movement {_num(movement)} from "
                f"{start[0]},{start[1]} (@); reachable cells highlighted"
                + (" (*)." if not colour_on() else "."),
            )
        )
    )
    lines.append(Text(_legend(game_map)))
    return lines


def _draw(
    game_map: GameMap, start: Cell, marked: set[Cell], window: Window | None = None
) -> list[Text]:
    """The map (or ``window``) with ``start`` as @ and the marked cells highlighted (``*``
    without colour)."""
    plain = not colour_on()
    win = window or Window(0, 0, game_map.width, game_map.height)
    xs = range(win.x0, win.x0 + win.width)
    width = len(str(win.y0 + win.height - 1))
    lines = [Text(" " * (width + 1) + "".join(str(x % 10) for x in xs), style="dim")]
    for y in range(win.y0, win.y0 + win.height):
        text = Text(f"{y:>{width}} ", style="dim")
        for x in xs:
            ch = game_map.char_at((x, y))
            if (x, y) == start:
                text.append("@", style="bold black on yellow")
            elif (x, y) in marked:
                text.append("*" if plain else ch, style="bold black on green")
            else:
                text.append(ch, style="dim")
        lines.append(text)
    return lines


def _legend(game_map: GameMap) -> str:
    parts = []
    for ch, feats in sorted(game_map.legend.items()):
        names = " + ".join(_name(game_map.terrain, f) for f in feats)
        parts.append(f"{ch} {names}")
    return tr("Selite: ", "Legend: ") + ", ".join(parts)
