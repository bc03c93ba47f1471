"""The play screen of ``tk20 play`` and the score texts: one screen that fits the terminal
(80×24 at least), drawn again in place after every order.

::

    title · round · side and phase · KP of the open seats          (1 line)
    the score now: VP per side with its parts                       (1 line)
    map window around the player's units │ key, objectives, enemies (rulers + rows)
    what happened last: events, refusals, odds                      (the rest)
    prompt                                                          (1 line)

Everything comes from the side's view (and the public scenario: map, objectives, victory
points), never from the game state.
"""

from __future__ import annotations

import os
import shutil
import sys
import textwrap
from collections.abc import Sequence

from rich.text import Text

from taistelukentta.cli.mapdraw import (
    OBJECTIVE_STYLE,
    Window,
    cut,
    draw_window,
    map_key,
    pick_window,
    side_lists,
    unit_points,
    view_marks,
)
from taistelukentta.content.scenario import Scenario
from taistelukentta.i18n import get_language, term, tr
from taistelukentta.views.models import AnyView
from taistelukentta.views.score import Score

MIN_WIDTH, MIN_HEIGHT = 80, 24
PANEL_WIDTH = 34
"""Columns beside the map for its key and lists (when the terminal is wide enough)."""


def screen_size() -> tuple[int, int]:
    """Columns and lines of the terminal; 80×24 (or ``COLUMNS``/``LINES``) when output is
    not a terminal (pipes, tests)."""
    if sys.stdout.isatty():
        size = shutil.get_terminal_size((MIN_WIDTH, MIN_HEIGHT))
        return max(40, size.columns), max(12, size.lines)
    try:
        cols = int(os.environ.get("COLUMNS", MIN_WIDTH))
        lines = int(os.environ.get("LINES", MIN_HEIGHT))
    except ValueError:
        cols, lines = MIN_WIDTH, MIN_HEIGHT
    return max(40, cols), max(12, lines)


def phase_text(phase: str) -> str:
    return {
        "command": tr("komentovaihe", "command phase"),
        "fire": tr("tulivaihe", "fire phase"),
        "over": tr("peli päättynyt", "game over"),
    }.get(phase, phase)


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0"


def score_lines_short(score: Score, viewer_side: str | None) -> list[str]:
    """The score in two lines, one per side (the viewer's first): VP with objectives, enemies
    destroyed and own losses; ``≈`` marks a side's estimate of the enemy's."""
    order = sorted(score.sides, key=lambda s: s != viewer_side)
    head = tr("Lopulliset VP: ", "Final VP: ") if score.final else tr("VP nyt: ", "VP now: ")
    lines = []
    for i, side in enumerate(order):
        s = score.sides[side]
        approx = "" if score.exact or side == viewer_side else "≈"
        lead = head if i == 0 else " " * len(head)
        lines.append(
            lead
            + tr(
                f"{term(side)} {approx}{s.total} (tavoitteet {s.objectives}, "
                f"tuhottuja vihollisia {_signed(s.kills_vp)}, omat tappiot {_signed(s.losses_vp)})",
                f"{term(side)} {approx}{s.total} (objectives {s.objectives}, "
                f"enemies destroyed {_signed(s.kills_vp)}, own losses {_signed(s.losses_vp)})",
            )
        )
    return lines


def _holder_text(holder: str | None) -> str:
    return term(holder) if holder in ("blue", "red") else tr("ei kenenkään", "nobody's")


def score_lines(score: Score, scenario: Scenario, viewer_side: str | None) -> list[str]:
    """The score in full (``tulos``/``score`` in play, and the end screen): each objective,
    each side's parts and total, and the rule that counts them (R-TURN-2)."""
    lang = get_language()
    v = scenario.victory
    lines = [
        tr(
            "Voittopisteet (R-TURN-2): tavoitteet sille, joka ne pitää, "
            f"{v.destroyed_enemy_vp} VP / tuhottu vihollinen, {_signed(v.own_loss_vp)} VP / oma "
            "tappio.",
            "Victory points (R-TURN-2): objectives to whoever holds them, "
            f"{v.destroyed_enemy_vp} VP per enemy unit destroyed, {_signed(v.own_loss_vp)} VP per "
            "own unit lost.",
        )
    ]
    if not score.exact:
        lines.append(
            tr(
                "Oma arvio: vain näkemäsi viholliset ja tappiot lasketaan.",
                "Your estimate: only the enemies and losses you saw count.",
            )
        )
    lines.append(tr("Tavoitteet:", "Objectives:"))
    for o in score.objectives:
        name = o.name.fi if lang == "fi" else o.name.en
        lines.append(f"  {name} ({o.vp} VP): {_holder_text(o.holder)}")
    for side, s in score.sides.items():
        approx = "" if score.exact or side == viewer_side else "≈"
        lines.append(
            tr(
                f"{term(side)}: tavoitteet {s.objectives} + tuhotut {s.kills} × "
                f"{v.destroyed_enemy_vp} = {_signed(s.kills_vp)} + tappiot {s.losses} × "
                f"{_signed(v.own_loss_vp)} = {_signed(s.losses_vp)} → {approx}{s.total} VP",
                f"{term(side)}: objectives {s.objectives} + destroyed {s.kills} × "
                f"{v.destroyed_enemy_vp} = {_signed(s.kills_vp)} + losses {s.losses} × "
                f"{_signed(v.own_loss_vp)} = {_signed(s.losses_vp)} → {approx}{s.total} VP",
            )
        )
    return lines


def end_lines(score: Score, scenario: Scenario, viewer_side: str | None) -> list[str]:
    """The end-of-game screen: who won, why, and the VP breakdown."""
    winner = score.winner
    if winner == "draw":
        result = tr("Tasapeli", "A draw")
    else:
        result = tr(f"{term(str(winner))} voitti", f"{term(str(winner))} won")
    why = {
        "rounds": tr("kaikki kierrokset pelattu", "all rounds played"),
        "eliminated": tr("toiselta puolelta ei jäänyt yksiköitä", "one side has no units left"),
    }.get(str(score.reason), str(score.reason or ""))
    totals = ", ".join(f"{term(s)} {p.total} VP" for s, p in score.sides.items())
    head = tr(
        f"PELI PÄÄTTYI — {result} ({why}): {totals}.",
        f"GAME OVER — {result} ({why}): {totals}.",
    )
    return [head, *score_lines(score, scenario, viewer_side)]


def _header(view: AnyView, kp: str) -> str:
    """Round, phase, KP, then the title (cut first when the line is too long)."""
    title = view.title.fi if get_language() == "fi" else view.title.en
    return tr(
        f"Kierros {view.turn}/{view.rounds} · {term(view.active_side)}: "
        f"{phase_text(view.phase)} · {term('command_points')} {kp} · {title}",
        f"Round {view.turn}/{view.rounds} · {term(view.active_side)}: "
        f"{phase_text(view.phase)} · {term('command_points')} {kp} · {title}",
    )


def play_window(view: AnyView, scenario: Scenario, width: int, height: int) -> Window:
    """The map window of the play screen for a ``width`` × ``height`` terminal."""
    rows, cols, _ = _layout(scenario, width, height)
    return pick_window(scenario.map.width, scenario.map.height, cols, rows, unit_points(view))


def _layout(scenario: Scenario, width: int, height: int, messages: int = 5) -> tuple[int, int, int]:
    """(map rows, map columns, panel columns) leaving ``messages`` lines below the map."""
    game_map = scenario.map
    rows = max(4, min(game_map.height, height - 6 - max(5, messages)))
    ruler = len(str(game_map.height - 1)) + 1
    panel = PANEL_WIDTH if width - ruler - 1 - PANEL_WIDTH >= 20 else 0
    cols = max(4, min(game_map.width, width - ruler - (panel + 1 if panel else 0)))
    if panel:
        panel = width - ruler - cols - 1
    return rows, cols, panel


def play_screen(
    view: AnyView,
    scenario: Scenario,
    score: Score,
    messages: Sequence[str],
    *,
    kp: str,
    width: int,
    height: int,
    keep_messages: bool = False,
) -> list[Text]:
    """The screen's lines (``height`` − 1 at most: the prompt takes the last line), each at
    most ``width`` columns. Messages are wrapped to the width; ``keep_messages`` makes the
    map smaller so that all of them show (odds before a confirmation)."""
    msgs = [
        part
        for text in messages
        for line in text.split("\n")
        for part in (
            textwrap.wrap(
                line,
                width,
                subsequent_indent=" " * min(len(line) - len(line.lstrip()) + 2, 8),
                break_on_hyphens=False,
            )
            or [""]
        )
    ]
    rows, cols, panel = _layout(scenario, width, height, len(msgs) if keep_messages else 5)
    window = pick_window(scenario.map.width, scenario.map.height, cols, rows, unit_points(view))
    marks = view_marks(view)
    out = [
        cut(Text(_header(view, kp), style="bold"), width),
        *(cut(line, width) for line in score_lines_short(score, view.side)),
    ]
    map_lines = draw_window(scenario.map, window, marks.cells)
    side: list[Text] = []
    if panel:
        side = map_key(view, scenario.map, window, marks, panel)
        lang = get_language()
        for o in score.objectives:
            name = o.name.fi if lang == "fi" else o.name.en
            item = Text()
            item.append("O", style=OBJECTIVE_STYLE)
            item.append(f" {name} {o.vp} VP: {_holder_text(o.holder)}")
            side.append(cut(item, panel))
        lists = side_lists(view, marks, window, panel)
        room = len(map_lines) - len(side)
        if len(lists) > room:
            more = len(lists) - room + 1
            lists = [
                *lists[: max(0, room - 1)],
                Text(tr(f"… +{more} (komento: kartta)", f"… +{more} (command: map)")),
            ]
        side.extend(lists)
        side = side[: len(map_lines)]
    full = max(line.cell_len for line in map_lines)
    for i, line in enumerate(map_lines):
        if i < len(side):
            line = line.copy()
            line.pad_right(full - line.cell_len)
            line = Text.assemble(line, " ", side[i])
        out.append(cut(line, width))
    room = max(1, height - 1 - len(out))
    if len(msgs) > room:
        # the first line (the order given, or whose turn it was), what was left out, the
        # newest lines
        keep = max(0, room - 2)
        hidden = len(msgs) - 1 - keep
        note = tr(
            f"  … {hidden} riviä välissä (komento: loki)",
            f"  … {hidden} lines between (command: log)",
        )
        msgs = [msgs[0], note, *(msgs[-keep:] if keep else [])][:room]
    out.extend(cut(m, width) for m in msgs)
    return out
