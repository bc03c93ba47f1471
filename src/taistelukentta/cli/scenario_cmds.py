"""``tk20 scenarios`` and ``tk20 scenario NAME``: the bundled scenarios and one scenario's set-up.

What a player may read: title, briefing, map, the Blue seats and units, the Red battle groups
(names, and a size only where the scenario's ``briefed_units`` states one — the intelligence
estimate, never a count of the real units, hidden ones included), objectives and victory
points. The enemy's positions and the
``[secrets]`` section (minefields, fire support, ammunition, notes) are the game master's and
appear only with ``--gm``.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text as RichText

from taistelukentta.cli.common import console, fail_error, print_json
from taistelukentta.cli.mapdraw import terrain_glyph
from taistelukentta.content.options import RuleOptions, load_options
from taistelukentta.content.scenario import (
    Cell,
    Scenario,
    Text,
    UnitPlacement,
    bundled_scenarios,
    load_scenario,
)
from taistelukentta.errors import TkError
from taistelukentta.grid import GameMap
from taistelukentta.i18n import get_language, term, tr

JsonFlag = Annotated[
    bool, typer.Option("--json", help="Tulosta vain JSON / print one JSON object only.")
]
GmFlag = Annotated[
    bool,
    typer.Option(
        "--gm",
        help="Pelinjohtajan näkymä: vihollisen sijainnit ja salaisuudet / "
        "game master's view: enemy positions and secrets.",
    ),
]
ElevationFlag = Annotated[
    bool,
    typer.Option("--elevation", help="Piirrä myös korkeuskäyrät / also draw the elevation."),
]
NameArg = Annotated[
    str,
    typer.Argument(
        metavar="NAME_OR_PATH",
        help="Valmiin skenaarion tunnus tai skenaariotiedosto / bundled id or scenario file.",
    ),
]

_SIDE_STYLE = {"blue": "bold bright_white on blue", "red": "bold bright_white on red"}
_OBJECTIVE_STYLE = "bold black on magenta"
_MINE_STYLE = "bold black on bright_red"
_ROLE = {
    "company_commander": "company_commander",
    "platoon_leader": "platoon_leader",
}


def register(app: typer.Typer) -> None:
    """Add ``scenarios`` and ``scenario`` to ``app``."""
    app.command("scenarios")(scenarios_cmd)
    app.command("scenario")(scenario_cmd)


def _t(text: Text | None) -> str:
    return "" if text is None else text.get(get_language())


def _reflow(text: str) -> str:
    """Join a text's hard-wrapped lines into paragraphs so the terminal can wrap them."""
    paragraphs = [" ".join(p.split()) for p in text.strip().split("\n\n")]
    return "\n\n".join(p for p in paragraphs if p)


def _count(n: int, one_fi: str, many_fi: str, one_en: str, many_en: str) -> str:
    return f"{n} " + (tr(one_fi, one_en) if n == 1 else tr(many_fi, many_en))


def _cell(cell: Cell) -> str:
    return f"{cell[0]},{cell[1]}"


def _load(name: str) -> Scenario:
    try:
        return load_scenario(name)
    except TkError as exc:
        fail_error(exc)


# ------------------------------------------------------------------------------ listing


def _forces(s: Scenario) -> dict[str, Any]:
    return {
        "blue_seats": len(s.blue.seats),
        "blue_units": sum(len(seat.units) for seat in s.blue.seats),
        "red_battle_groups": len(s.red.battle_groups),
    }


def scenarios_cmd(json_out: JsonFlag = False) -> None:
    """Valmiit skenaariot / the bundled scenarios."""
    rows: list[dict[str, Any]] = []
    for info in bundled_scenarios():
        row: dict[str, Any] = {"id": info.id, "title": _t(info.title), "path": info.path}
        try:
            s = load_scenario(info.path)
        except TkError as exc:
            row["error"] = exc.message(get_language())
        else:
            row |= {
                "rounds": s.rounds,
                "map": {"width": s.map.width, "height": s.map.height},
                "forces": _forces(s),
            }
        rows.append(row)
    if json_out:
        print_json({"scenarios": rows})
        return
    table = Table(title=tr("Skenaariot", "Scenarios"))
    table.add_column(tr("Tunnus", "Id"), style="bold", no_wrap=True)
    table.add_column(tr("Nimi ja joukot", "Title and forces"))
    table.add_column(tr("Kierroksia", "Rounds"), justify="right")
    table.add_column(tr("Kartta", "Map"), justify="right", no_wrap=True)
    for row in rows:
        if "error" in row:
            table.add_row(
                row["id"], f"{escape(row['title'])}\n[red]{escape(row['error'])}[/]", "", ""
            )
            continue
        f = row["forces"]
        forces = (
            f"{term('blue')}: "
            + _count(f["blue_seats"], "pelaajapaikka", "pelaajapaikkaa", "seat", "seats")
            + ", "
            + _count(f["blue_units"], "yksikkö", "yksikköä", "unit", "units")
            + f"; {term('red')}: "
            + _count(
                f["red_battle_groups"],
                "taisteluryhmä",
                "taisteluryhmää",
                "battle group",
                "battle groups",
            )
        )
        table.add_row(
            row["id"],
            f"[bold]{escape(row['title'])}[/]\n[dim]{forces}[/]",
            str(row["rounds"]),
            f"{row['map']['width']}×{row['map']['height']}",
        )
    console.print(table)


# ------------------------------------------------------------------------------ one scenario


def _changed_options(options: RuleOptions) -> dict[str, Any]:
    base = load_options()
    return {
        name: getattr(options, name)
        for name in RuleOptions.model_fields
        if getattr(options, name) != getattr(base, name)
    }


def _unit_json(s: Scenario, unit: UnitPlacement) -> dict[str, Any]:
    card = s.cards[unit.card]
    return {
        "id": unit.id,
        "card": unit.card,
        "card_name": card.name.model_dump(),
        "name": unit.name.model_dump() if unit.name else None,
        "cell": list(unit.cell),
        "xp": unit.xp,
        "strength": unit.strength if unit.strength is not None else card.stats.strength,
        "max_strength": card.stats.strength,
    }


def scenario_json(s: Scenario, *, gm: bool) -> dict[str, Any]:
    """The scenario as one JSON-ready object; enemy positions and secrets only for the GM."""
    out: dict[str, Any] = {
        "id": s.id,
        "title": s.title.model_dump(),
        "briefing": s.briefing.model_dump(),
        "source": s.source,
        "rounds": s.rounds,
        "first_side": s.first_side,
        "map": {
            "name": s.map.name,
            "width": s.map.width,
            "height": s.map.height,
            "terrain": list(s.map.rows),
            "legend": {ch: list(f) for ch, f in s.map.legend.items()},
            "elevation": s.map.elevation.tolist(),
        },
        "options_changed": _changed_options(s.options),
        "seats": [
            {
                "id": seat.id,
                "role": seat.role,
                "name": seat.name.model_dump(),
                "leader": seat.leader,
                "units": [_unit_json(s, u) for u in seat.units],
            }
            for seat in s.blue.seats
        ],
        "battle_groups": [],
        "objectives": [o.model_dump(mode="json") for o in s.objectives],
        "victory": s.victory.model_dump(),
    }
    for group in s.red.battle_groups:
        entry: dict[str, Any] = {
            "id": group.id,
            "name": group.name.model_dump(),
            # Players: what the briefing says (None = no number); the GM: the real count.
            "unit_count": len(group.units) if gm else group.briefed_units,
        }
        if gm:
            entry["briefed_units"] = group.briefed_units
            entry["leader"] = group.leader
            entry["units"] = [_unit_json(s, u) for u in group.units]
        out["battle_groups"].append(entry)
    if gm:
        out["secrets"] = s.secrets.model_dump(mode="json")
    return out


def _group_mark(group_id: str) -> str:
    if group_id == "co":
        return "K"
    digits = "".join(ch for ch in group_id if ch.isdigit())
    return digits[-1:] or "?"


def _markers(s: Scenario, gm: bool) -> dict[Cell, tuple[str, str]]:
    marks: dict[Cell, tuple[str, str]] = {}
    for obj in s.objectives:
        for cell in obj.cells:
            marks[cell] = ("", _OBJECTIVE_STYLE)
    if gm:
        for field in s.secrets.minefields:
            for cell in field.cells:
                marks[cell] = ("", _MINE_STYLE)
    for side, group, unit in s.placements():
        if side == "red" and not gm:
            continue
        marks[unit.cell] = (_group_mark(group), _SIDE_STYLE[side])
    return marks


def render_map(
    game_map: GameMap,
    marks: dict[Cell, tuple[str, str]] | None = None,
    *,
    elevation: bool = False,
) -> RichText:
    """The map as rich text with x/y rulers; ``marks`` overlays (char or "" = keep, style)."""
    marks = marks or {}
    out = RichText()
    pad = " " * (len(str(game_map.height - 1)) + 1)
    tens = "".join(str(x // 10) if x % 10 == 0 else " " for x in range(game_map.width))
    ones = "".join(str(x % 10) for x in range(game_map.width))
    out.append(f"{pad}{tens}\n{pad}{ones}\n", style="dim")
    width = len(pad) - 1
    for y in range(game_map.height):
        out.append(f"{y:>{width}} ", style="dim")
        for x in range(game_map.width):
            cell = (x, y)
            if elevation:
                h = game_map.elevation_at(cell)
                char = str(h) if h < 10 else "+"
                style = _elevation_style(h)
            else:
                char, style = terrain_glyph(game_map, cell)
            if cell in marks:
                mark, mark_style = marks[cell]
                char = mark or char
                style = mark_style
            out.append(char, style=style)
        out.append("\n")
    return out


def _elevation_style(h: int) -> str:
    ramp = (
        "grey30",
        "grey50",
        "green",
        "green3",
        "yellow3",
        "yellow",
        "orange1",
        "dark_orange",
        "red",
        "bright_red",
    )
    return ramp[max(0, min(h, len(ramp) - 1))]


def _map_legend(gm: bool) -> RichText:
    legend = RichText()
    items = [
        ("·", "grey50", tr("avoin", "open")),
        (",", "khaki3", tr("pelto", "field")),
        ("♣", "green on dark_green", tr("metsä", "forest")),
        ("T", "bold green on dark_green", tr("tiheikkö", "thicket")),
        ("~", "cyan on dark_cyan", tr("suo", "swamp")),
        ("B", "bold white on grey37", tr("rakennus", "building")),
        ("≈", "bold bright_blue", tr("vesistö", "water")),
        ("=", "bold yellow", tr("tie", "road")),
        (" ", _OBJECTIVE_STYLE, tr("tavoite", "objective")),
        ("K", _SIDE_STYLE["blue"], tr("päällikön yksikkö", "CO's unit")),
        ("1", _SIDE_STYLE["blue"], tr("joukkueen yksikkö", "platoon's unit")),
    ]
    if gm:
        items.append(("1", _SIDE_STYLE["red"], tr("taisteluryhmän yksikkö", "battle-group unit")))
        items.append((" ", _MINE_STYLE, tr("miinoite", "minefield")))
    for char, style, label in items:
        legend.append(char, style=style)
        legend.append(f" {label}  ")
    return legend


def _cells_text(cells: list[Cell]) -> str:
    xs = sorted({x for x, _ in cells})
    ys = sorted({y for _, y in cells})
    full = len(xs) * len(ys) == len(set(cells))
    xs_run = xs == list(range(xs[0], xs[-1] + 1))
    ys_run = ys == list(range(ys[0], ys[-1] + 1))
    if len(cells) > 2 and full and xs_run and ys_run:
        return f"{xs[0]}–{xs[-1]}, {ys[0]}–{ys[-1]}"
    return "; ".join(_cell(c) for c in cells)


def _unit_line(s: Scenario, unit: UnitPlacement, leader: str | None) -> str:
    card = s.cards[unit.card]
    name = _t(unit.name) or tr(card.name.fi, card.name.en)
    star = " ★" if unit.id == leader else ""
    extra = []
    if unit.strength is not None:
        extra.append(f"{term('strength')} {unit.strength}/{card.stats.strength}")
    if unit.xp:
        extra.append(f"{term('xp')} {unit.xp}")
    tail = f" ({', '.join(extra)})" if extra else ""
    return f"[bold]{escape(unit.id)}[/]{star} {escape(name)} @ {_cell(unit.cell)}{tail}"


def _holder(holder: str | None) -> str:
    return term(holder) if holder else "—"


def scenario_cmd(
    name: NameArg,
    json_out: JsonFlag = False,
    gm: GmFlag = False,
    elevation: ElevationFlag = False,
) -> None:
    """Skenaarion tilanne, kartta, joukot ja tavoitteet / show a scenario."""
    s = _load(name)
    if json_out:
        print_json(scenario_json(s, gm=gm))
        return
    first = term(s.first_side)
    console.print(
        Panel(
            escape(_reflow(_t(s.briefing))),
            title=f"[bold]{escape(_t(s.title))}[/] ({escape(s.id)})",
            subtitle=tr(
                f"{s.rounds} kierrosta · aloittaa: {first}",
                f"{s.rounds} rounds · moves first: {first}",
            ),
        )
    )
    console.print(
        tr(
            f"Kartta: {escape(s.map.name)} {s.map.width}×{s.map.height} ruutua (1 ruutu = 100 m)",
            f"Map: {escape(s.map.name)} {s.map.width}×{s.map.height} cells (1 cell = 100 m)",
        )
    )
    console.print(render_map(s.map, _markers(s, gm)), highlight=False)
    console.print(_map_legend(gm))
    if elevation:
        console.print(tr("Korkeuskäyrät (≈ 5 m)", "Elevation (contours, ≈ 5 m)"))
        console.print(render_map(s.map, elevation=True), highlight=False)

    changed = _changed_options(s.options)
    if changed:
        text = ", ".join(f"{k} = {v}" for k, v in changed.items())
        console.print(tr("Muutetut sääntövalinnat: ", "Changed rule options: ") + escape(text))

    seats = Table(title=tr("Sininen: pelaajapaikat", "Blue: player seats"))
    seats.add_column(tr("Paikka", "Seat"), style="bold blue")
    seats.add_column(tr("Nimi", "Name"))
    seats.add_column(tr("Rooli", "Role"))
    seats.add_column(tr("Yksiköt (★ = johtaja)", "Units (★ = leader)"))
    for seat in s.blue.seats:
        seats.add_row(
            seat.id,
            escape(_t(seat.name)),
            term(_ROLE[seat.role]),
            "\n".join(_unit_line(s, u, seat.leader) for u in seat.units),
        )
    console.print(seats)

    groups = Table(title=tr("Punainen: taisteluryhmät", "Red: battle groups"))
    groups.add_column(tr("Ryhmä", "Group"), style="bold red")
    groups.add_column(tr("Nimi", "Name"))
    groups.add_column(tr("Yksiköt", "Units"))
    for group in s.red.battle_groups:
        if gm:
            units = "\n".join(_unit_line(s, u, group.leader) for u in group.units)
        elif group.briefed_units is not None:
            units = tr(
                f"arviolta {group.briefed_units} (sijainnit: vain pelinjohtaja)",
                f"estimated {group.briefed_units} (positions: game master only)",
            )
        else:
            units = tr("ei tiedossa (vain pelinjohtaja)", "unknown (game master only)")
        groups.add_row(group.id, escape(_t(group.name)), units)
    console.print(groups)

    objectives = Table(title=tr("Tavoitteet", "Objectives"))
    objectives.add_column(tr("Tunnus", "Id"), style="bold magenta")
    objectives.add_column(tr("Nimi", "Name"))
    objectives.add_column(tr("Ruudut (x, y)", "Cells (x, y)"))
    objectives.add_column(term("victory_points"), justify="right")
    objectives.add_column(tr("Hallussa alussa", "Held at start"))
    for obj in s.objectives:
        objectives.add_row(
            obj.id,
            escape(_t(obj.name)),
            _cells_text(obj.cells),
            str(obj.vp),
            _holder(obj.holder_at_start),
        )
    console.print(objectives)
    v = s.victory
    console.print(
        tr(
            f"Voittopisteet: {v.destroyed_enemy_vp:+d} jokaisesta tuhotusta vihollisesta, "
            f"{v.own_loss_vp:+d} jokaisesta omasta menetyksestä.",
            f"Victory points: {v.destroyed_enemy_vp:+d} for each enemy unit destroyed, "
            f"{v.own_loss_vp:+d} for each own unit lost.",
        )
    )
    if gm:
        _print_secrets(s)
    else:
        console.print(
            tr(
                "[dim]Pelinjohtajan tiedot (vihollisen sijainnit, miinoitteet, tulituki) "
                "näkyvät valitsimella --gm.[/]",
                "[dim]The game master's information (enemy positions, minefields, fire "
                "support) is shown with --gm.[/]",
            )
        )


def _print_secrets(s: Scenario) -> None:
    sec = s.secrets
    console.rule(tr("Pelinjohtajan salaisuudet", "Game master's secrets"))
    if sec.minefields:
        mines = Table(title=tr("Miinoitteet", "Minefields"))
        mines.add_column(tr("Tunnus", "Id"), style="bold")
        mines.add_column(tr("Tyyppi", "Type"))
        mines.add_column(tr("Muoto", "Shape"))
        mines.add_column(tr("Ruudut", "Cells"))
        mines.add_column(tr("Asettaja", "Laid by"))
        shapes = {
            "box": tr("laatikko 2×2", "box 2×2"),
            "strip": tr("nauha 4×1", "strip 4×1"),
            "cells": tr("ruudut", "cells"),
        }
        kinds = {"AP": tr("JM (jalkaväki)", "AP"), "AT": tr("PM (panssari)", "AT")}
        for field in sec.minefields:
            mines.add_row(
                field.id,
                kinds[field.type],
                shapes[field.shape],
                _cells_text(field.cells),
                term(field.owner),
            )
        console.print(mines)
    fire = sec.fire_support
    weapons = ", ".join(w.upper() for w in fire.weapons) or "—"
    console.print(
        tr(
            f"Epäorgaaninen tulituki: {fire.off_board_requests} pyyntöä ({weapons})",
            f"Off-board fire support: {fire.off_board_requests} requests ({weapons})",
        )
    )
    if sec.organic_rounds:
        rounds = ", ".join(f"{uid} {n}" for uid, n in sec.organic_rounds.items())
        console.print(tr(f"Orgaaniset ammukset: {rounds}", f"Organic rounds: {rounds}"))
    if sec.notes is not None:
        console.print(Panel(escape(_reflow(_t(sec.notes))), title=tr("Muistiinpanot", "Notes")))
