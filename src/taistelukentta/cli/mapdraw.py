"""The map as the terminal draws it: a window of the map, the marks on it and its key.

Everything drawn comes from a view (:func:`taistelukentta.views.view_for`), never from the
game state, so a side's map shows only what that side may know.

Marks, chosen so that every kind reads without colour (``NO_COLOR`` / ``--no-color``):

- own units: ``K`` the company command group, ``1``…``9`` the platoons, ``&`` two or more
  own units in one cell;
- SPOTTED enemies (on the game master's map: Red's units): a letter each (``A``, ``C``,
  ``D`` …: never ``K``, nor a terrain letter ``B``/``T``, nor ``O``), listed with their unit
  id beside the map; two enemies in a cell share the letter and the list names both;
- contacts: ``!`` KNOWN, ``?`` SUSPECTED (the centre of the contact's area);
- objectives: a magenta cell; without colour ``O``;
- known minefields ``j`` (AP) / ``p`` (AT) / ``m``; a fire request's aimed cell ``*`` (the
  game master: a digit, the turns until it lands);
- water ``≈`` in blue on the terminal's background (Blue units have a blue background).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from rich.text import Text

from taistelukentta.cli.common import colour_on
from taistelukentta.grid import GameMap
from taistelukentta.grid.geometry import Cell
from taistelukentta.i18n import get_language, term, tr
from taistelukentta.views.models import (
    AnyView,
    FireSupportView,
    GMFireSupportView,
    GMMinesView,
    GMPendingStrikeView,
    GMView,
    MinesView,
    OwnUnitView,
    UnitView,
)
from taistelukentta.views.text import area_text, cell_text

SIDE_STYLE = {"blue": "bold bright_white on blue", "red": "bold bright_white on red"}
COMMANDED_STYLE = "bold black on bright_cyan"
CONTACT_STYLE = "bold red on grey23"
OBJECTIVE_STYLE = "bold black on magenta"
MINE_STYLE = "bold yellow on dark_red"
STRIKE_STYLE = "bold black on orange1"

ENEMY_LETTERS = "ACDEFGHIJLMNPQRSUVWXYZ"
"""Letters for SPOTTED enemies: not K (the CO group), B/T (buildings, thicket) nor O
(an objective without colour)."""

# terrain feature -> (character, style, Finnish name, English name); the first feature of
# a cell in this order decides how it is drawn.
TERRAIN_DRAW: tuple[tuple[str, str, str, str, str], ...] = (
    ("building", "B", "bold white on grey37", "rakennus", "building"),
    ("water", "≈", "bold bright_blue", "vesistö", "water"),
    ("road", "=", "bold yellow", "tie", "road"),
    ("thicket", "T", "bold green on dark_green", "tiheikkö", "thicket"),
    ("forest", "♣", "green on dark_green", "metsä", "forest"),
    ("swamp", "~", "cyan on dark_cyan", "suo", "swamp"),
    ("field", ",", "khaki3", "pelto", "field"),
    ("open", "·", "grey50", "avoin", "open"),
)
_ROAD_ON = {
    "building": "bold yellow on grey37",
    "water": "bold yellow on dark_blue",
    "forest": "bold yellow on dark_green",
    "thicket": "bold yellow on dark_green",
}


def terrain_glyph(game_map: GameMap, cell: Cell) -> tuple[str, str]:
    """The character and style of a cell's terrain."""
    features = game_map.features_at(cell)
    if "road" in features:
        for base, style in _ROAD_ON.items():
            if base in features:
                return ("=", style)
    for feature, char, style, _, _ in TERRAIN_DRAW:
        if feature in features:
            return (char, style)
    return ("?", "")


# ------------------------------------------------------------------------------ windows


@dataclass(frozen=True)
class Window:
    """The part of the map drawn: ``width`` × ``height`` cells from ``(x0, y0)``."""

    x0: int
    y0: int
    width: int
    height: int

    def __contains__(self, cell: object) -> bool:
        if not isinstance(cell, tuple) or len(cell) != 2:
            return False
        x, y = cell
        return bool(self.x0 <= x < self.x0 + self.width and self.y0 <= y < self.y0 + self.height)

    def describe(self) -> str:
        """``x0–x1,y0–y1`` of the window."""
        return f"{self.x0}–{self.x0 + self.width - 1},{self.y0}–{self.y0 + self.height - 1}"


def _clamp(start: int, size: int, total: int) -> int:
    return max(0, min(start, total - size))


def pick_window(
    map_width: int,
    map_height: int,
    width: int,
    height: int,
    points: Iterable[Cell] = (),
    centre: Cell | None = None,
) -> Window:
    """A ``width`` × ``height`` window (cut to the map) centred on ``centre``, else on the
    middle of the bounding box of ``points`` (the viewer's units), else on the map's
    middle; kept inside the map."""
    w, h = max(1, min(width, map_width)), max(1, min(height, map_height))
    pts = list(points)
    if centre is None:
        if pts:
            xs, ys = [p[0] for p in pts], [p[1] for p in pts]
            centre = ((min(xs) + max(xs)) // 2, (min(ys) + max(ys)) // 2)
        else:
            centre = (map_width // 2, map_height // 2)
    return Window(
        _clamp(centre[0] - w // 2, w, map_width), _clamp(centre[1] - h // 2, h, map_height), w, h
    )


# ------------------------------------------------------------------------------ marks


@dataclass
class Marks:
    """What is drawn over the terrain, and the lists beside the map."""

    cells: dict[Cell, tuple[str, str]] = field(default_factory=dict)
    enemies: list[tuple[str, Cell, list[UnitView]]] = field(default_factory=list)
    """(letter, cell, the SPOTTED enemies there)."""
    stacks: list[tuple[Cell, list[str]]] = field(default_factory=list)
    """Cells with two or more own units (``&``), with their ids."""
    contacts: list[tuple[str, str, str]] = field(default_factory=list)
    """(mark, label, where) of KNOWN/SUSPECTED contacts."""
    mines: bool = False
    strikes: bool = False


def group_mark(group: str) -> str:
    """``K`` for the company command group, else the platoon's digit."""
    if group == "co":
        return "K"
    digits = "".join(ch for ch in group if ch.isdigit())
    return digits[-1:] or "?"


def _mine_cells(view: AnyView) -> dict[Cell, str | None]:
    mines = view.mines
    out: dict[Cell, str | None] = {}
    if isinstance(mines, GMMinesView):
        for f in mines.fields or ():
            for c in f.cells:
                out[c] = f.type
    elif isinstance(mines, MinesView):
        for k in mines.known:
            if k.type is not None:
                out[k.cell] = k.type
    return out


def view_marks(view: AnyView, *, colour: bool | None = None) -> Marks:
    """The marks of a view (see the module's docstring)."""
    colour = colour_on() if colour is None else colour
    out = Marks()
    cells = out.cells
    for obj in view.objectives:
        for c in obj.cells:
            cells[c] = ("" if colour else "O", OBJECTIVE_STYLE)
    if not isinstance(view, GMView):
        for ct in view.contacts:
            if ct.area and ct.level != "SPOTTED":
                half = ct.area[2] // 2
                mark = "?" if ct.level == "SUSPECTED" else "!"
                cells[(ct.area[0] + half, ct.area[1] + half)] = (mark, CONTACT_STYLE)
                out.contacts.append((mark, ct.label, area_text(list(ct.area))))
    for cell, mine_type in _mine_cells(view).items():
        cells[cell] = ("j" if mine_type == "AP" else "p" if mine_type == "AT" else "m", MINE_STYLE)
        out.mines = True
    by_cell: dict[Cell, list[UnitView]] = {}
    for u in view.units:
        by_cell.setdefault(u.cell, []).append(u)
    letters = iter(ENEMY_LETTERS)
    for cell, here in by_cell.items():
        own = [  # the game master's map: Blue as own, Red lettered like a side's enemies
            u for u in here if isinstance(u, OwnUnitView) and u.side == (view.side or "blue")
        ]
        if own and len(own) == len(here):
            style = SIDE_STYLE[own[0].side]
            if view.seat is not None and any(u.commanded for u in own):
                style = COMMANDED_STYLE
            if len(own) > 1:
                cells[cell] = ("&", style)
                out.stacks.append((cell, [u.id for u in own]))
            else:
                cells[cell] = (group_mark(own[0].group), style)
            continue
        letter = next(letters, "X")
        enemies = [u for u in here if u not in own]
        cells[cell] = (letter, SIDE_STYLE[enemies[0].side])
        out.enemies.append((letter, cell, enemies))
    fs = view.fire_support
    if isinstance(fs, FireSupportView | GMFireSupportView):
        for strike in fs.pending:
            mark = "*"
            if isinstance(strike, GMPendingStrikeView):  # the GM: turns to impact
                mark = str(min(max(0, (strike.due - view.turn_no + 1) // 2), 9))
            cells[strike.cell] = (mark, STRIKE_STYLE)
            out.strikes = True
    return out


# ------------------------------------------------------------------------------ drawing


def draw_window(
    game_map: GameMap, window: Window, marks: dict[Cell, tuple[str, str]] | None = None
) -> list[Text]:
    """The window as lines: two rulers (tens, ones of x) and one line per row."""
    marks = marks or {}
    xs = range(window.x0, window.x0 + window.width)
    pad = " " * (len(str(window.y0 + window.height - 1)) + 1)
    tens = "".join(str(x // 10 % 10) if x % 10 == 0 or x == window.x0 else " " for x in xs)
    lines = [Text(pad + tens, style="dim"), Text(pad + "".join(str(x % 10) for x in xs), "dim")]
    width = len(pad) - 1
    for y in range(window.y0, window.y0 + window.height):
        line = Text(f"{y:>{width}} ", style="dim")
        run, run_style = "", ""
        for x in xs:  # runs of one style appended at once (a 500-wide row is 1 append, not 500)
            char, style = terrain_glyph(game_map, (x, y))
            mark = marks.get((x, y))
            if mark is not None:
                char, style = mark[0] or char, mark[1]
            if style != run_style and run:
                line.append(run, style=run_style)
                run = ""
            run += char
            run_style = style
        if run:
            line.append(run, style=run_style)
        lines.append(line)
    return lines


def terrain_key(game_map: GameMap, window: Window) -> list[tuple[str, str, str]]:
    """(character, style, name) of each terrain drawn in the window."""
    seen: set[str] = set()
    for y in range(window.y0, window.y0 + window.height):
        for x in range(window.x0, window.x0 + window.width):
            seen.add(terrain_glyph(game_map, (x, y))[0])
    fi = get_language() == "fi"
    return [
        (char, style, name_fi if fi else name_en)
        for _, char, style, name_fi, name_en in TERRAIN_DRAW
        if char in seen
    ]


def _pack(items: Sequence[Text], width: int) -> list[Text]:
    """Items joined by two spaces into lines of at most ``width``."""
    lines: list[Text] = []
    current = Text()
    for item in items:
        if current.cell_len and current.cell_len + 2 + item.cell_len > width:
            lines.append(current)
            current = Text()
        if current.cell_len:
            current.append("  ")
        current.append_text(item)
    if current.cell_len:
        lines.append(current)
    return lines


def _item(char: str, style: str, label: str) -> Text:
    out = Text()
    out.append(char, style=style)
    out.append(f" {label}")
    return out


def map_key(
    view: AnyView, game_map: GameMap, window: Window, marks: Marks, width: int
) -> list[Text]:
    """The key of the marks and terrains in the window, in lines of at most ``width``."""
    colour = colour_on()
    items = [
        _item("K", SIDE_STYLE["blue" if view.side is None else view.side], tr("komento", "CO")),
        _item(
            "1", SIDE_STYLE["blue" if view.side is None else view.side], tr("joukkue", "platoon")
        ),
    ]
    if marks.stacks:
        items.append(_item("&", SIDE_STYLE["blue"], tr("2+ omaa", "2+ own")))
    enemy_side = "red" if view.side != "red" else "blue"
    if marks.enemies:
        label = tr("vihollinen", "enemy") if view.side is not None else term("red")
        items.append(_item("A", SIDE_STYLE[enemy_side], label))
    if marks.contacts:
        items.append(_item("!", CONTACT_STYLE, term("KNOWN")))
        items.append(_item("?", CONTACT_STYLE, term("SUSPECTED")))
    items.append(_item("O" if not colour else " ", OBJECTIVE_STYLE, tr("tavoite", "objective")))
    if marks.mines:
        items.append(_item("j", MINE_STYLE, tr("JV-miina", "AP mine")))
        items.append(_item("p", MINE_STYLE, tr("PS-miina", "AT mine")))
    if marks.strikes:
        items.append(_item("*", STRIKE_STYLE, tr("tulipyyntö", "fire request")))
    items.extend(_item(c, s, n) for c, s, n in terrain_key(game_map, window))
    return _pack(items, width)


def side_lists(view: AnyView, marks: Marks, window: Window, width: int) -> list[Text]:
    """Beside the map: the enemies (letter, id, type, cell), contacts and stacks."""
    lang = get_language()
    labels = {} if isinstance(view, GMView) else {c.unit: c.label for c in view.contacts if c.unit}
    lines: list[Text] = []
    for letter, cell, units in marks.enemies:
        names = ", ".join(
            f"{u.id}{'/' + labels[u.id] if u.id in labels else ''} "
            f"{u.name.fi if lang == 'fi' else u.name.en}"
            for u in units
        )
        lines.append(_item(letter, SIDE_STYLE[units[0].side], f"{names} {cell_text(cell)}"))
    for mark, label, where in marks.contacts:
        lines.append(_item(mark, CONTACT_STYLE, f"{label} {where}"))
    for cell, ids in marks.stacks:
        lines.append(Text(f"& {cell_text(cell)}: {', '.join(ids)}"))
    return [_cut(line, width) for line in lines]


def _cut(line: Text, width: int) -> Text:
    if line.cell_len <= width:
        return line
    out = line.copy()
    out.truncate(width - 1)
    out.append("…")
    return out


def cut(line: Text | str, width: int) -> Text:
    """``line`` cut to ``width`` columns (an ellipsis marks the cut)."""
    return _cut(Text(line) if isinstance(line, str) else line, width)


def unit_points(view: AnyView) -> list[Cell]:
    """Cells the window is centred on: the viewer's own units (every unit for the GM)."""
    return [
        u.cell
        for u in view.units
        if isinstance(u, OwnUnitView) and (view.side is None or u.side == view.side)
    ]
