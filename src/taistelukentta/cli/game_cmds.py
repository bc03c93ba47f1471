"""The game commands: ``new``, ``show``, ``orders``, ``order``, ``replay``, ``simulate``, ``play``.

Everything a player is shown goes through :func:`taistelukentta.views.view_for` /
:func:`taistelukentta.views.redact` for the seat or side given with ``--as``: the map, the
units and contacts, the events, the odds before an attack. Only ``--as gm`` (the game
master) sees everything.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from taistelukentta.cli.common import (
    checked_report,
    console,
    err_console,
    fail,
    fail_error,
    parse_cell,
    print_json,
)
from taistelukentta.cli.mapdraw import (
    Window,
    draw_window,
    map_key,
    pick_window,
    side_lists,
    unit_points,
    view_marks,
)
from taistelukentta.cli.screen import (
    end_lines,
    play_screen,
    score_lines,
    score_lines_short,
    screen_size,
)
from taistelukentta.cli.typing_help import (
    alternatives,
    known_names,
    normalise,
    unknown_name_hint,
    vocabulary_of,
)
from taistelukentta.content.scenario import Scenario, bundled_ids, load_scenario
from taistelukentta.dice.roller import (
    Seed,
    derive_int,
    fresh_seed,
    parse_seed,
    seed_commitment,
    seed_text,
)
from taistelukentta.errors import TkError
from taistelukentta.grid.geometry import Cell
from taistelukentta.i18n import ACTIONS, ATTACK_TERMS, catalogue, get_language, num, pct, term, tr
from taistelukentta.rules import (
    GM_SEAT,
    Event,
    GameState,
    Order,
    OrderKind,
    is_legal,
    legal_orders,
    next_seat,
)
from taistelukentta.rules.orders import order_weapon, parse_order
from taistelukentta.rules.state import Side
from taistelukentta.rules.terms import Term
from taistelukentta.storage.gamefile import load_game
from taistelukentta.storage.session import (
    GameSession,
    create_game,
    locked_game,
    log_difference,
    open_game,
    replay_record,
)
from taistelukentta.views import attack_estimate, redact, strike_estimate, view_for
from taistelukentta.views.models import (
    AbilitiesView,
    AnyView,
    CommandView,
    ContactView,
    FireSupportView,
    GMFireSupportView,
    GMMinesView,
    GMPendingStrikeView,
    GMView,
    MinesView,
    OwnUnitView,
    PendingStrikeView,
)
from taistelukentta.views.score import score_of
from taistelukentta.views.text import (
    ability_text,
    area_text,
    card_text,
    cell_text,
    describe,
    order_text,
    set_ability_names,
    set_card_names,
    status_text,
)

JsonFlag = Annotated[
    bool, typer.Option("--json", help="Tulosta vain JSON / print one JSON object only.")
]
GameArg = Annotated[Path, typer.Argument(metavar="GAME", help="Pelitiedosto / game file (.json).")]
SeedOpt = Annotated[
    str | None,
    typer.Option(
        "--seed",
        help=(
            "Nopanheittojen siemen: 64 heksanumeroa tai vanha kokonaislukusiemen (ennustettava; "
            "oletus salainen satunnainen) / dice seed: 64 hex digits, or a legacy integer seed "
            "(predictable; default: a secret random one)."
        ),
    ),
]
ScenarioArg = Annotated[
    str,
    typer.Argument(
        metavar="SCENARIO",
        help="Valmiin skenaarion tunnus tai skenaariotiedosto / bundled id or scenario file.",
    ),
]

_BIG_MAP = 100
"""``show`` draws a window around the viewer's units on a map wider or taller than this."""
_WINDOW_ROWS = 20
_EVENTS_SHOWN = 12
_YES = ("k", "kyllä", "kylla", "y", "yes", "j", "joo")


def register(app: typer.Typer) -> None:
    """Add the game commands to ``app``."""
    app.command("new")(new_cmd)
    app.command("show")(show_cmd)
    app.command("orders")(orders_cmd)
    app.command("order")(order_cmd)
    app.command("replay")(replay_cmd)
    app.command("simulate")(simulate_cmd)
    app.command("play")(play_cmd)


# ------------------------------------------------------------------------------ helpers


def _seed(given: str | None) -> Seed:
    """The seed of a new game: a fresh secret 256-bit one (the CLI layer is the only place
    with true randomness), or the one given with ``--seed``."""
    if given is None:
        return fresh_seed()
    try:
        return parse_seed(given)
    except TkError as exc:
        fail_error(exc)


def _warn_legacy_seed(chosen: Seed) -> None:
    """A new game with a legacy integer seed: say on stderr what it gives away (issue 8) —
    predictable dice (Mersenne Twister) and the fog rules of before the side-channel fixes
    (labels, strike ids, refusals, the fire phase's end and the command link as old games
    had them, so that their files replay). For repeatable tests and old games only."""
    if isinstance(chosen, int):
        err_console.print(
            tr(
                "Varoitus: kokonaislukusiemen on vanha muoto — nopat ovat ennustettavat ja "
                "pelissä ovat vanhat sumusäännöt, joista puoli voi päätellä toisen salaisuuksia. "
                "Pelatessa jätä --seed pois (salainen siemen) tai anna 64 heksanumeroa.",
                "Warning: an integer seed is the legacy kind — the dice are predictable and the "
                "game has the old fog rules, through which a side can infer the other's secrets. "
                "For play leave --seed out (a secret seed) or give 64 hex digits.",
            ),
            style="yellow",
            highlight=False,
            soft_wrap=True,
        )


def _open(path: Path) -> GameSession:
    try:
        session = open_game(path)
    except TkError as exc:
        fail_error(exc)
    _use_names(session.scenario)
    return session


def _use_names(scenario: Scenario) -> None:
    """The texts name unit cards by their names in this game (not by their ids)."""
    from taistelukentta.content.units import load_abilities

    set_card_names({cid: (c.name.fi, c.name.en) for cid, c in scenario.cards.items()})
    set_ability_names({aid: (a.name.fi, a.name.en) for aid, a in load_abilities().items()})


@contextmanager
def _locked(path: Path) -> Iterator[GameSession]:
    """The game opened under its lock (held until the block ends); errors exit cleanly."""
    with ExitStack() as stack:
        try:
            session = stack.enter_context(locked_game(path))
        except TkError as exc:
            fail_error(exc)
        _use_names(session.scenario)
        yield session


_PLAY_WORDS = (
    "help",
    "apua",
    "ohje",
    "score",
    "tulos",
    "pisteet",
    "log",
    "loki",
    "units",
    "yksiköt",
    "tilanne",
    "map",
    "kartta",
    "orders",
    "käskyt",
    "kaskyt",
    "quit",
    "lopeta",
    "exit",
)


def _refusal(
    exc: TkError, state: GameState, seat: str, order: Order, names: Sequence[str], text: str
) -> str:
    """A refused order's message, with the legal orders of the same unit and kind (e.g. the
    attack with the weapon that reaches) or a "did you mean" for an unknown id."""
    lines = [exc.message(get_language())]
    hint = unknown_name_hint(text, names)
    if hint is not None:
        lines.append(tr(hint[1], hint[0]))
    else:
        close = alternatives(state, seat, order)
        if close:
            lines.append(
                tr("Laillisia samankaltaisia: ", "Legal ones like it: ")
                + "; ".join(order_text(c) for c in close)
            )
    return "\n".join(lines)


def _seat_for(state: GameState, who: str) -> str:
    """The seat ``--as`` names: a seat id; ``red`` = ``gm``; ``blue`` = the next Blue seat
    that has not ended the phase (the first seat when Blue is not to move)."""
    if who == "red":
        return GM_SEAT
    if who == "blue":
        seats = state.seats("blue")
        if state.active == "blue":
            for s in seats:
                if s not in state.done:
                    return s
        return seats[0]
    if state.side_of_seat(who) is None:
        known = ", ".join((*state.seats("blue"), GM_SEAT, "blue", "red"))
        fail(
            tr(
                f"--as: tuntematon pelipaikka {who!r} (paikat: {known})",
                f"--as: unknown seat {who!r} (seats: {known})",
            )
        )
    return who


def _side_of(state: GameState, seat: str) -> Side:
    side = state.side_of_seat(seat)
    assert side is not None
    return side


def _phase_text(phase: str) -> str:
    return {
        "command": tr("komentovaihe", "command phase"),
        "fire": tr("tulivaihe", "fire phase"),
        "over": tr("peli päättynyt", "game over"),
    }.get(phase, phase)


def _title(view: AnyView) -> str:
    return view.title.fi if get_language() == "fi" else view.title.en


def _event_lines(events: Sequence[dict[str, Any]]) -> list[str]:
    return [line for line in (describe(e) for e in events) if line]


# ------------------------------------------------------------------------------ drawing


def _turns_to_impact(view: AnyView, strike: PendingStrikeView) -> int | None:
    """Own turns until a pending strike lands (0 = in this turn's fire phase), or None when
    the viewer may not know (a side never sees the delay, R-OFF-2)."""
    if not isinstance(strike, GMPendingStrikeView):
        return None
    return max(0, (strike.due - view.turn_no + 1) // 2)


def _window_for(
    view: AnyView,
    scenario: Scenario,
    *,
    window: bool,
    full: bool,
    centre: str | None,
    size: str | None,
) -> Window | None:
    """The window ``show`` draws (None: the whole map). Big maps get a window around the
    viewer's units unless ``--full``."""
    game_map = scenario.map
    big = game_map.width > _BIG_MAP or game_map.height > _BIG_MAP
    if full and (window or centre or size):
        fail(tr("--full: ei yhdessä ikkunan kanssa", "--full: not together with a window"))
    if full or not (window or centre or size or big):
        return None
    ruler = len(str(game_map.height - 1)) + 1
    w, h = max(10, console.width - ruler), _WINDOW_ROWS
    if size is not None:
        w, h = _parse_size(size)
    at = parse_cell(centre, "--centre") if centre is not None else None
    if at is not None:
        try:
            game_map.check_cell(at, "--centre")
        except TkError as exc:
            fail_error(exc)
    return pick_window(game_map.width, game_map.height, w, h, unit_points(view), at)


def _parse_size(text: str) -> tuple[int, int]:
    parts = text.lower().replace("×", "x").split("x")
    try:
        if len(parts) != 2 or not text.isascii():
            raise ValueError(text)
        w, h = int(parts[0]), int(parts[1])
        if w < 1 or h < 1:
            raise ValueError(text)
    except ValueError:
        fail(
            tr(
                f"--size: odotettiin muotoa LEVEYSxKORKEUS (esim. 60x20), saatiin {text!r}",
                f"--size: expected WIDTHxHEIGHT (e.g. 60x20), got {text!r}",
            )
        )
    return w, h


def _print_map(view: AnyView, scenario: Scenario, window: Window | None) -> None:
    game_map = scenario.map
    win = window or Window(0, 0, game_map.width, game_map.height)
    marks = view_marks(view)
    for line in draw_window(game_map, win, marks.cells):
        console.print(line, soft_wrap=True)
    if window is not None:
        console.print(
            tr(
                f"Ikkuna {win.describe()} (kartta {game_map.width}×{game_map.height}; "
                "--centre X,Y --size LxK, koko kartta: --full)",
                f"Window {win.describe()} (map {game_map.width}×{game_map.height}; "
                "--centre X,Y --size WxH, whole map: --full)",
            ),
            style="dim",
            highlight=False,
        )
    width = max(40, console.width)
    for line in map_key(view, game_map, win, marks, width):
        console.print(line, soft_wrap=True)
    for line in side_lists(view, marks, win, width):
        console.print(line, soft_wrap=True)


def _draw_view(
    view: AnyView,
    scenario: Scenario,
    *,
    events: int = _EVENTS_SHOWN,
    window: Window | None = None,
) -> None:
    side = view.side
    who = term("gm") if side is None else term(side)
    if view.seat:
        who += f" / {view.seat}"
    head = tr(
        f"{_title(view)} — kierros {view.turn}/{view.rounds}, "
        f"{term(view.active_side)} vuorossa, {_phase_text(view.phase)} — näkymä: {who}",
        f"{_title(view)} — round {view.turn}/{view.rounds}, "
        f"{term(view.active_side)} to move, {_phase_text(view.phase)} — view: {who}",
    )
    console.print(head, style="bold", highlight=False)
    _print_map(view, scenario, window)
    _units_table(view)
    _contacts_table(view)
    kp_text = ", ".join(f"{s} {v}" for s, v in view.command_points.items())
    console.print(f"{term('command_points')}: {kp_text}", highlight=False)
    for line in module_lines(view):
        _say(line)
    score = score_of(view, scenario.victory)
    if view.finished:
        for line in end_lines(score, scenario, view.side):
            _say(line, style="bold" if line.startswith(("PELI", "GAME")) else None)
    else:
        for line in score_lines_short(score, view.side):
            _say(line)
    log = [e.model_dump(mode="json") for e in view.log[-events:]] if events else []
    lines = _event_lines(log)[-events:] if events else []
    if lines:
        console.print(tr("Viimeisimmät tapahtumat:", "Latest events:"), style="bold")
        for line in lines:
            _say(f"  {line}")


def module_lines(view: AnyView) -> list[str]:
    """The rule modules' panel of a view: command status (R-LINK, R-CO), fire support on
    the way (R-ORG-1, R-OFF-*), minefields (R-MINE-*) and abilities (R-MOR-3, R-AB-2)."""
    lines: list[str] = []
    cmd = view.command
    if isinstance(cmd, CommandView):
        co = f"{cmd.co_seat} ({cmd.co_unit or '—'})"
        links = ", ".join(
            f"{seat} {tr('yhteys', 'linked') if ok else tr('EI YHTEYTTÄ', 'NO LINK')}"
            for seat, ok in cmd.links.items()
        )
        head = tr(
            f"Komentosuhteet: {term('company_commander')} {co}; {links}",
            f"Command: {term('company_commander')} {co}; {links}",
        )
        if cmd.leaderless:
            head += tr(" — JOHDOTON", " — LEADERLESS")
        elif cmd.promotion_due:
            head += tr(" — kenttäylennys odottaa", " — field promotion due")
        lines.append(head)
        if cmd.company_kp is not None:
            lines.append(
                tr(
                    f"  Komppanian {term('command_points')}: {cmd.company_kp}",
                    f"  Company {term('command_points')}: {cmd.company_kp}",
                )
            )
        used = ", ".join(status_text(str(t[1])) for t in cmd.tactics_used)
        yes, no = tr("kyllä", "yes"), tr("ei", "no")
        lines.append(
            tr(
                f"  Taktiikka tällä vuorolla: {yes if cmd.tactic_this_turn else no}; "
                f"Motti käytetty: {yes if cmd.motti_used else no}; "
                f"käytetyt: {used or '—'}",
                f"  Tactic this turn: {yes if cmd.tactic_this_turn else no}; "
                f"Motti used: {yes if cmd.motti_used else no}; used: {used or '—'}",
            )
        )
        if cmd.confirmed:
            lines.append(
                tr("  Vahvistetut maalit: ", "  Confirmed targets: ") + ", ".join(cmd.confirmed)
            )
    fs = view.fire_support
    if isinstance(fs, FireSupportView | GMFireSupportView):
        for strike in fs.pending:
            left = _turns_to_impact(view, strike)
            gm_strike = strike if isinstance(strike, GMPendingStrikeView) else None
            when = (
                ""
                if left is None or gm_strike is None
                else tr(f", iskee {left} vuoron päästä", f", lands in {left} turn(s)")
                + f" (turn_no {gm_strike.due})"
            )
            side = f"{term(gm_strike.side)}: " if gm_strike is not None else ""
            what = status_text(str(strike.weapon or strike.kind))
            if strike.unit:
                what += f" ({strike.unit})"
            lines.append(
                tr(
                    f"Tulipyyntö matkalla: {side}{what} → {cell_text(strike.cell)}, "
                    f"tulenjohtaja {strike.observer}{when}",
                    f"Strike on the way: {side}{what} → {cell_text(strike.cell)}, "
                    f"observer {strike.observer}{when}",
                )
            )
        supply = []
        if isinstance(fs, FireSupportView):
            if fs.requests_left is not None:
                n = fs.requests_left
                supply.append(tr(f"tulipyyntöjä {n}", f"requests {n}"))
        else:
            supply.extend(
                tr(f"tulipyyntöjä {term(s)} {n}", f"requests {term(s)} {n}")
                for s, n in fs.requests_left.items()
            )
        supply.extend(
            tr(f"{uid} laukauksia {n}", f"{uid} rounds {n}") for uid, n in fs.rounds_left.items()
        )
        if supply:
            lines.append(tr("Tulituki: ", "Fire support: ") + ", ".join(supply))
    mines = view.mines
    parts = (
        [mines.blue, mines.red]
        if isinstance(mines, GMMinesView)
        else [mines]
        if isinstance(mines, MinesView)
        else []
    )
    for part in parts:
        for uid, cell in part.in_minefield.items():
            lines.append(
                tr(
                    f"{uid} on miinoitteessa ruudussa {cell_text(cell)} (raivaa tai rynnistä)",
                    f"{uid} is in a minefield at {cell_text(cell)} (clear or rush)",
                )
            )
        if part.immobilised:
            lines.append(tr("Liikuntakyvyttömät: ", "Immobilised: ") + ", ".join(part.immobilised))
    ab = view.abilities
    if isinstance(ab, AbilitiesView):
        for uid, disabled in ab.disabled.items():
            for ability, until in disabled.items():
                lines.append(
                    tr(
                        f"{uid}: kyky {ability_text(ability)} lamautettu (vuoroon {until})",
                        f"{uid}: {ability_text(ability)} disabled (until turn {until})",
                    )
                )
    return lines


def _units_table(view: AnyView) -> None:
    table = Table(title=tr("Yksiköt", "Units"), title_justify="left")
    for col in (
        tr("Tunnus", "Id"),
        tr("Puoli", "Side"),
        tr("Tyyppi", "Type"),
        tr("Ruutu", "Cell"),
        "TK",
        tr("Tilat", "Statuses"),
        tr("Käsky", "Order"),
    ):
        table.add_column(col)
    lang = get_language()
    for u in view.units:
        own = u if isinstance(u, OwnUnitView) else None
        uid = u.id + (" *" if own is not None and own.commanded else "")
        action = catalogue(ACTIONS, own.action) if own is not None and own.action else ""
        table.add_row(
            uid,
            term(u.side),
            u.name.fi if lang == "fi" else u.name.en,
            f"{u.cell[0]},{u.cell[1]}",
            f"{u.strength}/{u.max_strength}",
            ", ".join(status_text(s) for s in u.statuses),
            action,
        )
    console.print(table)


def _contacts_table(view: AnyView) -> None:
    rows: list[tuple[str, ContactView]]
    if isinstance(view, GMView):  # the game master: both sides' contacts
        rows = [(side, c) for side, items in view.contacts.items() for c in items]
    else:
        rows = [(view.side, c) for c in view.contacts]
    if not rows:
        console.print(tr("Ei kontakteja.", "No contacts."))
        return
    table = Table(title=tr("Kontaktit", "Contacts"), title_justify="left")
    for col in (
        tr("Puoli", "Side"),
        tr("Merkki", "Label"),
        tr("Taso", "Level"),
        tr("Yksikkö", "Unit"),
        tr("Tyyppi", "Type"),
        tr("Sijainti", "Where"),
    ):
        table.add_column(col)
    for side, c in rows:
        where = f"{c.cell[0]},{c.cell[1]}" if c.cell else area_text(list(c.area)) if c.area else "?"
        card = card_text(c.card) if c.card else "?"
        table.add_row(term(side), c.label, term(c.level), c.unit or "?", card, where)
    console.print(table)


# ------------------------------------------------------------------------------ commands


def new_cmd(
    scenario: ScenarioArg,
    seed: SeedOpt = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            help=(
                "Pelitiedosto (oletus games/SKENAARIO-xxxxxxxx.json) / "
                "game file (default games/SCENARIO-xxxxxxxx.json)."
            ),
        ),
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help="Korvaa olemassa oleva tiedosto / overwrite.")
    ] = False,
    json_out: JsonFlag = False,
) -> None:
    """Uusi peli: luo pelitiedoston / create a new game file and print its path.

    The seed stays in the file (the game master's); only its commitment is printed."""
    chosen = _seed(seed)
    _warn_legacy_seed(chosen)
    try:
        session = create_game(scenario, chosen, out, overwrite=force)
    except TkError as exc:
        fail_error(exc)
    if json_out:
        print_json(
            {
                "path": str(session.path),
                "scenario": session.scenario.id,
                "dice": session.state.dice_scheme,
                "seed_commitment": seed_commitment(chosen),
            }
        )
        return
    typer.echo(str(session.path))


def show_cmd(
    game: GameArg,
    who: Annotated[
        str,
        typer.Option(
            "--as",
            help="Kenen näkymä / whose view: blue, red, gm tai paikka (co, pl1, …).",
        ),
    ],
    events: Annotated[
        int, typer.Option("--events", help="Näytettävien tapahtumien määrä / events shown.")
    ] = _EVENTS_SHOWN,
    window: Annotated[
        bool,
        typer.Option(
            "--window",
            help="Piirrä vain ikkuna omien yksiköiden ympäriltä / draw only a window around "
            "the viewer's units.",
        ),
    ] = False,
    centre: Annotated[
        str | None,
        typer.Option(
            "--centre", "--center", help="Ikkunan keskiruutu X,Y / the window's centre cell X,Y."
        ),
    ] = None,
    size: Annotated[
        str | None,
        typer.Option(
            "--size", help="Ikkunan koko LxK, esim. 60x20 / the window's size WxH, e.g. 60x20."
        ),
    ] = None,
    full: Annotated[
        bool,
        typer.Option(
            "--full",
            help="Koko kartta myös isolla kartalla / the whole map, even a big one.",
        ),
    ] = False,
    json_out: JsonFlag = False,
) -> None:
    """Näytä pelitilanne yhden puolen tai paikan silmin / show the game as one side sees it.

    On a map over 100 cells wide or high only a window around the viewer's units is drawn
    (--full draws it all)."""
    session = _open(game)
    try:
        view = view_for(session.state, who)
    except TkError as exc:
        fail_error(exc)
    if json_out:
        print_json(view.model_dump(mode="json"))
        return
    win = _window_for(view, session.scenario, window=window, full=full, centre=centre, size=size)
    _draw_view(view, session.scenario, events=events, window=win)


def _orders_payload(state: GameState, seat: str) -> dict[str, Any]:
    orders = legal_orders(state, seat)
    return {
        "seat": seat,
        "side": state.side_of_seat(seat),
        "turn": state.round,
        "phase": state.phase.value,
        "active_side": state.active,
        "orders": [str(o) for o in orders],
    }


def orders_cmd(
    game: GameArg,
    who: Annotated[
        str, typer.Option("--as", help="Pelipaikka / seat: co, pl1, …, gm (red), blue.")
    ],
    json_out: JsonFlag = False,
) -> None:
    """Luettele paikan lailliset käskyt / list the seat's legal orders in notation."""
    session = _open(game)
    seat = _seat_for(session.state, who)
    payload = _orders_payload(session.state, seat)
    if json_out:
        print_json(payload)
        return
    orders = payload["orders"]
    if not orders:
        state = session.state
        why = (
            tr("peli on päättynyt", "the game is over")
            if state.finished
            else tr(
                f"vuorossa on {term(state.active)}, {_phase_text(state.phase.value)}",
                f"{term(state.active)} to move, {_phase_text(state.phase.value)}",
            )
        )
        console.print(
            tr(
                f"Paikalla {seat} ei ole käskyjä nyt ({why}).",
                f"Seat {seat} has no orders now ({why}).",
            ),
            highlight=False,
        )
        return
    console.print(
        tr(
            f"Paikan {seat} lailliset käskyt ({_phase_text(payload['phase'])}, {len(orders)}):",
            f"Legal orders of seat {seat} ({_phase_text(payload['phase'])}, {len(orders)}):",
        ),
        style="bold",
        highlight=False,
    )
    typer.echo("\n".join(f"  {text}" for text in orders))  # one write: ~1 300 lines on demo


def order_cmd(
    game: GameArg,
    text: Annotated[
        str, typer.Argument(metavar="ORDER", help="Käsky / order, e.g. 'move 1R1 12,7'.")
    ],
    who: Annotated[
        str, typer.Option("--as", help="Pelipaikka / seat: co, pl1, …, gm (red), blue.")
    ],
    json_out: JsonFlag = False,
) -> None:
    """Anna yksi käsky ja tallenna / give one order, save, print what the seat sees."""
    with _locked(game) as session:
        seat = _seat_for(session.state, who)
        side = _side_of(session.state, seat)
        names = known_names(session.state, side)
        try:
            vocab = vocabulary_of(session.state)  # the game's ruleset's orders
            order = parse_order(normalise(text, names, vocabulary=vocab), vocab)  # parsed once
        except TkError as exc:
            hint = unknown_name_hint(text, names)
            fail(f"{exc.message(get_language())}" + (f"\n{tr(hint[1], hint[0])}" if hint else ""))
        try:
            events = session.give(seat, order)
        except TkError as exc:
            fail(_refusal(exc, session.state, seat, order, names, text))
    seen = redact(events, side, session.scenario)
    state = session.state
    if json_out:
        print_json(
            {
                "seat": seat,
                "order": str(order),
                "events": seen,
                "turn": state.round,
                "phase": state.phase.value,
                "active_side": state.active,
                "finished": state.finished,
            }
        )
        return
    for line in _event_lines(seen):
        _say(line)
    console.print(_status_line(state), style="dim", highlight=False)


def _status_line(state: GameState) -> str:
    if state.finished:
        return tr("Peli on päättynyt.", "The game is over.")
    seat = next_seat(state)
    return tr(
        f"Kierros {state.round}, {term(state.active)} vuorossa, "
        f"{_phase_text(state.phase.value)}; seuraavaksi paikka {seat}.",
        f"Round {state.round}, {term(state.active)} to move, "
        f"{_phase_text(state.phase.value)}; next seat {seat}.",
    )


def replay_cmd(game: GameArg, json_out: JsonFlag = False) -> None:
    """Tarkista peli pelaamalla käskyt uudelleen / replay the orders, check the saved state.

    Exit 1 if the replayed state differs from the saved one. A sealed export (a server
    game exported before its end, no seed) is replayed from its own logged dice."""
    from taistelukentta.storage.gamefile import read_sealed

    try:
        sealed = read_sealed(game)
    except TkError as exc:
        fail_error(exc)
    if sealed is not None:
        _replay_sealed(sealed, str(game), json_out)
        return
    report = checked_report(lambda: _record_report(game), json_out)
    if report is None:
        return
    replayed = report["state_hash"]
    console.print(
        tr(
            f"OK: {report['orders']} käskyä, tila {replayed[:16]}… vastaa tallennettua.",
            f"OK: {report['orders']} orders, state {replayed[:16]}… matches the saved one.",
        ),
        highlight=False,
    )


def _record_report(game: Path) -> dict[str, Any]:
    """``tk20 replay``'s report of a game file: its orders replayed against its saved state
    hash, state and event log."""
    record = load_game(game)
    _, state = replay_record(record, str(game))
    replayed = state.state_hash()
    problems: list[str] = []
    if record.state_hash is None:
        problems.append(tr("tiedostossa ei ole tilan tiivistettä", "the file has no state hash"))
    elif replayed != record.state_hash:
        problems.append(
            tr(
                f"uudelleenpelattu tila {replayed[:12]}… ei vastaa tallennettua "
                f"{record.state_hash[:12]}…",
                f"the replayed state {replayed[:12]}… differs from the saved hash "
                f"{record.state_hash[:12]}…",
            )
        )
    if record.state is not None:
        try:
            saved = GameState.from_dict(record.state, state.scenario).state_hash()
        except TkError as exc:
            saved = None
            problems.append(exc.message(get_language()))
        if saved is not None and saved != replayed:
            problems.append(
                tr(
                    "tallennettu tila ei vastaa käskyistä syntyvää tilaa (tiedostoa on muokattu?)",
                    "the saved state is not the state the orders lead to (was the file edited?)",
                )
            )
        where = log_difference(record, state)
        if where is not None:
            problems.append(
                tr(
                    f"{game}: {where}: tallennettu tapahtumaloki poikkeaa käskyistä "
                    "syntyvästä (tiedostoa on muokattu?)",
                    f"{game}: {where}: the saved event log differs from the one the orders "
                    "give (was the file edited?)",
                )
            )
    return {
        "ok": not problems,
        "orders": len(record.orders),
        "options": record.options,
        "state_hash": replayed,
        "saved_hash": record.state_hash,
        "problems": problems,
    }


def _replay_sealed(doc: dict[str, Any], source: str, json_out: bool) -> None:
    """``tk20 replay`` of a sealed export: its orders and logged dice give its log and
    state (the dice themselves are checked after the end, ``tk20 verify --seed``)."""
    from taistelukentta.server.verify import replay_sealed

    report = checked_report(lambda: replay_sealed(doc, source), json_out)
    if report is None:
        return
    console.print(
        tr(
            f"OK (sinetöity vienti, ei siementä): {report['orders']} käskyä ja "
            f"{report['rolls']} lokin heittoa antavat tallennetun lokin ja tilan. Nopat "
            "tarkistetaan sitoumusta vasten pelin päätyttyä: tk20 verify TIEDOSTO --seed SIEMEN.",
            f"OK (sealed export, no seed): {report['orders']} orders and {report['rolls']} "
            "logged rolls give the saved log and state. The dice are checked against the "
            "commitment after the end: tk20 verify FILE --seed SEED.",
        ),
        highlight=False,
    )


def _check_bot(name: str, option: str) -> str:
    from taistelukentta.bots.players import BOT_NAMES  # only here: the bots are heavy

    if name not in BOT_NAMES:
        choices = ", ".join(BOT_NAMES)
        fail(
            tr(
                f"{option}: tuntematon tietokonepelaaja {name!r} (vaihtoehdot: {choices})",
                f"{option}: unknown computer player {name!r} (choices: {choices})",
            )
        )
    return name


def simulate_cmd(
    scenario: ScenarioArg,
    seed: SeedOpt = None,
    blue: Annotated[
        str, typer.Option("--blue", help="Sininen / Blue: baseline|easy|normal|hard.")
    ] = "baseline",
    red: Annotated[
        str, typer.Option("--red", help="Punainen / Red: baseline|easy|normal|hard.")
    ] = "baseline",
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Tallenna peli tiedostoon / save the game to a file."),
    ] = None,
    json_out: JsonFlag = False,
) -> None:
    """Tietokone pelaa molempia puolia loppuun / the computer plays both sides to the end."""
    from taistelukentta.bots import simulate  # only here: the bots are heavy

    _check_bot(blue, "--blue")
    _check_bot(red, "--red")
    chosen = _seed(seed)
    try:
        scen = load_scenario(scenario)
        if out is not None:
            session = create_game(scenario, chosen, out, overwrite=True)
        state, played = simulate(scen, chosen, blue=blue, red=red)
    except TkError as exc:
        fail_error(exc)
    if out is not None:
        session.state = state
        session.extend((p.seat, p.order) for p in played)
    vp = dict(state.vp or {})
    payload = {
        "scenario": scen.id,
        # Both sides are computer players here: the output is the game master's.
        "dice": state.dice_scheme,
        "seed": seed_text(chosen),
        "winner": state.winner,
        "victory_points": vp,
        "rounds": state.round,
        "orders": len(played),
        "state_hash": state.state_hash(),
    }
    if json_out:
        print_json(payload)
        return
    winner = state.winner
    who = tr("tasapeli", "draw") if winner == "draw" else term(str(winner))
    console.print(
        tr(
            f"{scen.title.fi} (siemen {seed_text(chosen)}): {who} — VP sininen {vp.get('blue')}, "
            f"punainen {vp.get('red')}; {state.round} kierrosta, {len(played)} käskyä.",
            f"{scen.title.en} (seed {seed_text(chosen)}): {who} — VP blue {vp.get('blue')}, "
            f"red {vp.get('red')}; {state.round} rounds, {len(played)} orders.",
        ),
        highlight=False,
    )
    if out is not None:
        typer.echo(str(out))


# ------------------------------------------------------------------------------ play


def _reader() -> Callable[[str, list[str]], str | None]:
    """A line reader: prompt_toolkit with completion on a terminal, plain lines otherwise
    (pipes and tests). Returns None at end of input."""
    if sys.stdin.isatty() and sys.stdout.isatty():
        from prompt_toolkit import PromptSession
        from prompt_toolkit.completion import WordCompleter

        session: PromptSession[str] = PromptSession()

        def ask_tty(prompt: str, words: list[str]) -> str | None:
            completer = WordCompleter(words, sentence=True, match_middle=False)
            try:
                return session.prompt(prompt, completer=completer)
            except (EOFError, KeyboardInterrupt):
                return None

        return ask_tty

    def ask_plain(prompt: str, words: list[str]) -> str | None:
        typer.echo(prompt, nl=False)
        line = sys.stdin.readline()
        if not line:
            typer.echo("")
            return None
        typer.echo(line.rstrip("\n"))  # echo piped input so the transcript reads well
        return line.strip()

    return ask_plain


_COMMANDS = (
    *("help", "apua", "map", "kartta", "orders", "käskyt", "tulos", "score"),
    *("loki", "log", "yksiköt", "units", "los", "näkyvyys", "reach", "liikealue"),
    *("quit", "lopeta"),
)


ORDER_HELP: tuple[tuple[str, str, str], ...] = (
    ("move U X,Y", "perusliike (R-KP-3)", "basic move (R-KP-3)"),
    ("defend U", "puolustaa, saa ampua tulivaiheessa", "defends, may fire in the fire phase"),
    ("attack U T [from X,Y] [with W]", "hyökkäyskäsky (R-KP-4)", "attack order (R-KP-4)"),
    ("disengage U X,Y", "irtautuminen (R-ZOC-3)", "disengage (R-ZOC-3)"),
    ("withdraw U X,Y", "vetäytyminen (R-KP-4)", "withdrawal (R-KP-4)"),
    ("rally U", "moraalin kohotus (R-MOR-2)", "rally (R-MOR-2)"),
    ("recon U X,Y", "aktiivinen tiedustelu (R-REC-4)", "active recon (R-REC-4)"),
    (
        "fire U T [with W [disable A]]",
        "tuli tulivaiheessa (R-ATK-*, R-AB-2)",
        "fire in the fire phase (R-ATK-*, R-AB-2)",
    ),
    ("transfer SEAT", "KP:n siirto paikalle (R-CO-2)", "pass 1 KP to a seat (R-CO-2)"),
    ("restore SEAT", "komentoyhteyden palautus (R-LINK-2)", "restore a command link (R-LINK-2)"),
    ("tactic motti X,Y", "Mottitaktiikka (R-CO-1)", "Motti tactic (R-CO-1)"),
    ("tactic painopiste SEAT", "Painopiste (R-CO-1)", "main effort (R-CO-1)"),
    ("tactic sitova SEAT", "Sitova tuli (R-CO-1)", "holding fire (R-CO-1)"),
    (
        "tactic vetaytyminen U [U [U]]",
        "Järjestäytynyt vetäytyminen (R-CO-1)",
        "orderly withdrawal (R-CO-1)",
    ),
    ("confirm T", "vahvistettu maali (R-CO-5)", "confirmed target (R-CO-5)"),
    ("promote SEAT", "kenttäylennys (R-LINK-3)", "field promotion (R-LINK-3)"),
    ("report X,Y", "tiedusteluraportti ennen taistelua (R-CO-4)", "pre-game report (R-CO-4)"),
    (
        "organic M X,Y by O [danger]",
        "kranaatinheitintuli, tulenjohtaja O (R-ORG-1)",
        "organic mortar fire, observer O (R-ORG-1)",
    ),
    ("boost M", "tulen tehostus (R-FD-4)", "boost a pending organic strike (R-FD-4)"),
    (
        "strike k9|mlrs X,Y by O [danger]",
        "epäsuora tuli kartan ulkopuolelta (R-OFF-*)",
        "off-board strike (R-OFF-*)",
    ),
    ("clear U", "miinanraivaus (R-MINE-3)", "careful mine clearing (R-MINE-3)"),
    ("rush U", "rynnistys miinoitteen läpi (R-MINE-4)", "rush through a minefield (R-MINE-4)"),
    ("search U X,Y", "miinojen etsintä (R-REC-4)", "search a cell for mines (R-REC-4)"),
    ("breach U X,Y", "suunniteltu raivaus (R-MINE-5)", "planned breach (R-MINE-5)"),
    ("lay U X,Y [at]", "miinoitus, Murtosulute (R-MINE-1)", "lay mines, Murtosulute (R-MINE-1)"),
    ("hide U", "piiloutuminen (R-MOR-3)", "hide (R-MOR-3)"),
    ("use U ABILITY [T | X,Y]", "kyvyn käyttö (R-AB-*)", "use an ability (R-AB-*)"),
    ("done", "vaihe päättyy", "end the phase"),
)
"""Every order of the notation (docs/notation.md) with a short description, for ``help``."""


_HELP_WORDS_FI = {"SEAT": "PAIKKA", "ABILITY": "KYKY"}


def _help_notation(notation: str) -> str:
    """A line of ORDER_HELP in Finnish notation, the optional parts in brackets too."""
    out = []
    for word in notation.split(" "):
        bare = word.strip("[]")
        fi = _HELP_WORDS_FI.get(bare) or order_text(bare)
        out.append(word.replace(bare, fi) if bare else word)
    return " ".join(out)


def _help_text(full: bool = True, *, tools: bool = True) -> str:
    """The help of the prompt: short (the first screen) or every order; ``tools=False`` for
    ``tk20 join``, which has only help, orders, map and quit besides the orders."""
    if not tools:
        if not full:
            return tr(
                "Anna käskyjä (esim. liiku 1R1 12,7); valmis päättää vaiheen.\n"
                "Myös: apua, käskyt, kartta, lopeta. Tab täydentää.",
                "Give orders (e.g. move 1R1 12,7); done ends the phase.\n"
                "Also: help, orders, map, quit. Tab completes.",
            )
        return (
            _order_help()
            + "\n"
            + tr(
                "Komennot: apua, käskyt (lailliset käskyt), kartta, lopeta.",
                "Commands: help, orders (legal orders), map, quit.",
            )
        )
    if not full:
        return tr(
            "Anna käskyjä (esim. liiku 1R1 12,7); valmis päättää vaiheen. Tab täydentää.\n"
            "Myös: apua, käskyt, kartta, tulos, loki, yksiköt, näkyvyys, liikealue, lopeta",
            "Give orders (e.g. move 1R1 12,7); done ends the phase. Tab completes.\n"
            "Also: help, orders, map, score, log, units, los, reach, quit",
        )
    return tr(
        "Johdat koko puolta: käsky menee yksikön omalle paikalle, valmis päättää vaiheen.\n"
        f"{_order_help()}\n"
        "Ennen hyökkäystä, tulta ja tulipyyntöä näytetään todennäköisyydet ja kysytään "
        "vahvistus.\n"
        "Komennot: apua (tämä ohje), kartta (piirrä uudelleen), käskyt (lailliset käskyt), "
        "tulos (pisteet), loki (tapahtumat), yksiköt (yksiköt ja kontaktit), näkyvyys YKSIKKÖ "
        "X,Y (näköyhteys), liikealue YKSIKKÖ (minne yksikkö pääsee), lopeta (tallenna ja "
        "lopeta). Tab täydentää käskyt päätteessä.",
        "You command the whole side: an order goes to its unit's seat, done ends the phase.\n"
        f"{_order_help()}\n"
        "Before an attack, fire or a fire request the odds are shown and you confirm.\n"
        "Commands: help (this text), map (redraw), orders (legal orders), score, log "
        "(events), units (units and contacts), los UNIT X,Y (line of sight), reach UNIT (where "
        "it can move), quit (save and stop). Tab completes orders on a terminal.",
    )


def _order_help() -> str:
    """Every order of the notation with a line on each, in the language's notation."""
    lang_fi = get_language() == "fi"
    rows = [(_help_notation(n) if lang_fi else n, fi, en) for n, fi, en in ORDER_HELP]
    width = max(len(n) for n, _, _ in rows)
    orders = "\n".join(
        f"  {notation:<{width}}  {fi if lang_fi else en}" for notation, fi, en in rows
    )
    return tr(
        f"Käskyt (myös englanniksi, esim. move, attack, strike):\n{orders}",
        f"Orders (Finnish keywords work too):\n{orders}",
    )


def _orders_summary(orders: Sequence[Order]) -> list[str]:
    """The legal orders, compact: per unit and kind, the count and an example (in the
    language's notation: Finnish keywords under ``fi``)."""
    groups: dict[tuple[str, str], list[Order]] = {}
    for o in orders:
        groups.setdefault((o.unit or "", o.kind.value), []).append(o)
    lines = []
    for (unit, kind), items in groups.items():
        if kind == "done":
            lines.append(order_text("done"))
        elif len(items) <= 4:
            lines.append(" · ".join(order_text(o) for o in items))
        else:
            word = order_text(kind)
            lines.append(
                tr(
                    f"{word} {unit} … ({len(items)} vaihtoehtoa, esim. {order_text(items[0])})",
                    f"{word} {unit} … ({len(items)} choices, e.g. {items[0]})",
                )
            )
    return lines


def _odds_lines(state: GameState, side: Side, order: Order) -> list[str]:
    assert order.unit is not None and order.target is not None
    est = attack_estimate(state, side, order.unit, order.target, order.cell, order_weapon(order))
    o = est.odds
    p = {k: pct(v) for k, v in o.outcomes().items()}
    adv = {"advantage": tr("etu", "advantage"), "disadvantage": tr("haitta", "disadvantage")}
    extra = f", {adv[est.advantage.value]}" if est.advantage.value in adv else ""
    weapon = f" [{est.weapon}]" if order_weapon(order) else ""
    return [
        tr(
            f"Todennäköisyydet: {order.unit} → {order.target}{weapon} (bonus {est.bonus:+d}, "
            f"puolustus {est.defence}{extra}, vahinko {est.damage}):",
            f"Odds: {order.unit} → {order.target}{weapon} (bonus {est.bonus:+d}, "
            f"defence {est.defence}{extra}, damage {est.damage}):",
        ),
        *terms_lines(est.terms),
        f"  {term('HEAVY_HIT')} {p['heavy_hit']} · {term('HIT')} {p['hit']} · "
        f"{term('PINNING')} {p['pinning']} · {term('MISS')} {p['miss']} · "
        + tr(
            f"odotettu vahinko {num(o.expected_damage, 2)}",
            f"expected damage {num(o.expected_damage, 2)}",
        ),
    ]


def terms_lines(terms: Sequence[Term]) -> list[str]:
    """An attack's terms in words (i18n.ATTACK_TERMS) with their rules: the bonus's parts,
    what gives advantage or disadvantage, and the defence's parts."""

    def name(t: Term) -> str:
        return catalogue(ATTACK_TERMS, t.name)

    bonus = ", ".join(f"{name(t)} {t.amount:+d}" for t in terms if t.kind == "bonus")
    rules = ", ".join(sorted({t.rule for t in terms}))
    lines = [f"  {bonus} [{rules}]" if bonus else f"  [{rules}]"]
    parts = []
    labels = (("advantage", tr("etu", "advantage")), ("disadvantage", tr("haitta", "disadvantage")))
    for kind, label in labels:
        found = [name(t) for t in terms if t.kind == kind]
        if found:
            parts.append(f"{label}: {', '.join(found)}")
    defence = " + ".join(f"{name(t)} {t.amount}" for t in terms if t.kind == "defence")
    if defence:
        parts.append(tr(f"puolustus = {defence}", f"defence = {defence}"))
    if parts:
        lines.append("  " + "; ".join(parts))
    return lines


def _pct(p: Fraction) -> str:
    return pct(p)


def strike_odds_lines(state: GameState, side: Side, order: Order) -> list[str]:
    """The odds shown before a ``strike``/``organic`` order (views.strike_estimate): the
    exact footprint for an off-board strike (R-OFF-3/4: the side's contact level on the
    aimed cell, the scenario's scatter rule), the fixed area of an organic one (R-ORG-1),
    and each own unit (danger close) and SPOTTED enemy the impact may reach."""
    est = strike_estimate(state, side, order)
    where = cell_text(est.aimed)
    if est.odds is None:
        head = tr(
            f"Tulipyyntö: {status_text('organic')} ({est.weapon}) → {where}: ei hajontaa, "
            f"{len(est.area)} ruutua osuu varmasti",
            f"Fire request: {status_text('organic')} ({est.weapon}) → {where}: no scatter, "
            f"{len(est.area)} cells hit for certain",
        )
        lines = [head]
    else:
        contact = term(str(est.contact).upper())
        lines = [
            tr(
                f"Tulipyyntö: {status_text(est.weapon)} → {where} (kontakti {contact}, "
                f"hajonta {est.scatter}):",
                f"Fire request: {status_text(est.weapon)} → {where} (contact {contact}, "
                f"scatter {est.scatter}):",
            ),
            tr(
                f"  maaliruutu iskualueella {_pct(est.odds.p_aimed_hit)}, "
                f"mahdollisia iskuruutuja {len(est.area)}",
                f"  aimed cell in the impact area {_pct(est.odds.p_aimed_hit)}, "
                f"{len(est.area)} cells may be hit",
            ),
        ]
    for e in est.exposures:
        who = tr("oma", "own") if e.own else tr("vihollinen", "enemy")
        lines.append(
            tr(
                f"  {e.unit} ({who}, {cell_text(e.cell)}): osuma {_pct(e.p_hit)}, "
                f"moraalikoe {_pct(e.p_morale_test)}",
                f"  {e.unit} ({who}, {cell_text(e.cell)}): hit {_pct(e.p_hit)}, "
                f"morale test {_pct(e.p_morale_test)}",
            )
        )
    if not est.exposures:
        lines.append(tr("  (ei tunnettuja yksiköitä alueella)", "  (no known unit in reach)"))
    return lines


def _say(text: str, style: str | None = None) -> None:
    """Print plain text (no rich markup: orders contain brackets)."""
    console.print(text, style=style, markup=False, highlight=False)


def _human_orders(state: GameState, seats: Sequence[str]) -> list[Order]:
    """The legal orders of all the human's open seats (one ``done`` at the end)."""
    out: list[Order] = []
    for seat in seats:
        out.extend(o for o in legal_orders(state, seat) if o.kind != OrderKind.DONE)
    out.append(Order.done())
    return out


_ODDS_KINDS = (OrderKind.ATTACK, OrderKind.FIRE)
"""The base kinds with odds (and the fire-support module's fire requests)."""


def _order_seat(state: GameState, human: Side, seats: Sequence[str], order: Order) -> str:
    """The seat a human's order goes to: its unit's seat; otherwise (strike, tactic …) the
    first open seat that may give it, else the first open seat."""
    unit = state.units.get(order.unit or "")
    if unit is not None and unit.side == human and unit.seat is not None:
        return unit.seat
    for seat in seats:
        if is_legal(state, seat, order):
            return seat
    return seats[0]


def _confirm_lines(
    state: GameState, human: Side, seats: Sequence[str], orders: Sequence[Order], order: Order
) -> list[str]:
    """Odds to show and confirm before a legal attack, fire or fire request (empty for any
    other order, or one the seat may not give: the engine then says why)."""
    from taistelukentta.rules.fire_support import ORGANIC, STRIKE

    if order.kind not in _ODDS_KINDS and order.kind not in (STRIKE, ORGANIC):
        return []
    if order not in orders and not is_legal(state, _order_seat(state, human, seats, order), order):
        return []
    try:
        if order.kind in (STRIKE, ORGANIC):
            return strike_odds_lines(state, human, order)
        return _odds_lines(state, human, order)
    except TkError as exc:
        return [exc.message(get_language())]


def _give_human(
    session: GameSession, human: Side, seats: Sequence[str], order: Order
) -> list[Event]:
    """Give a human's order as the seat that commands its unit; ``done`` ends the phase
    for every open seat of the side."""
    if order.kind == OrderKind.DONE:
        events: list[Event] = []
        start = (session.state.turn_no, session.state.phase)
        for seat in seats:
            state = session.state
            if (state.turn_no, state.phase) != start or seat in state.done:
                break
            events.extend(session.give(seat, order))
        return events
    return session.give(_order_seat(session.state, human, seats, order), order)


def _computer_turn(session: GameSession, human: Side, level: str = "baseline") -> list[str]:
    """The computer (``level``: a computer player's name) plays until it is the human's
    turn or the game ends; each order is saved at once. Returns what the human is shown:
    only the events its side may see."""
    from taistelukentta.bots import bot_order  # only here: the bots are heavy
    from taistelukentta.bots.players import make_bot

    cpu_side: Side = "red" if human == "blue" else "blue"
    state = session.state
    if state.finished or state.active != cpu_side:
        return []
    # Derived one-way from the game seed and the number of orders so far: a resumed game
    # plays on exactly as an uninterrupted one would, and the bot's choices tell nothing of
    # the seed.
    bot = make_bot(level, derive_int(session.record.seed, f"play-bot:{len(session.record.orders)}"))
    seen: list[dict[str, Any]] = []
    while not session.state.finished and session.state.active == cpu_side:
        seat = next_seat(session.state)
        if seat is None:
            break
        order = bot_order(session.state, seat, bot)
        events = session.give(seat, order)
        seen.extend(redact(events, human, session.scenario))
    head = tr(f"— Tietokone ({term(cpu_side)}) pelasi —", f"— Computer ({term(cpu_side)}) played —")
    return [head, *(f"  {line}" for line in _event_lines(_screen_events(seen)))]


def _screen_events(events: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Events worth a line on the play screen: KP refills are left out (the header shows
    the KP; ``loki`` lists everything)."""
    return [e for e in events if e.get("kind") != "kp"]


def _resolve_play_target(
    target: str, who: str | None, seed: str | None, out: Path | None
) -> GameSession:
    path = Path(target)
    if target not in bundled_ids() and path.is_file() and path.suffix == ".json":
        session = _open(path)
        if who is not None and session.record.human not in (None, who):
            fail(
                tr(
                    f"pelissä {path} pelaat puolta {session.record.human}, ei {who}",
                    f"in {path} you play {session.record.human}, not {who}",
                )
            )
        if session.record.human is None:
            session.record.human = who or "blue"
            session.save()
        return session
    chosen = _seed(seed)
    _warn_legacy_seed(chosen)
    try:
        session = create_game(target, chosen, out, human=who or "blue")
    except TkError as exc:
        fail_error(exc)
    console.print(
        tr(f"Uusi peli tallennetaan: {session.path}", f"New game saved to: {session.path}"),
        highlight=False,
    )
    return session


def play_cmd(
    target: Annotated[
        str,
        typer.Argument(
            metavar="SCENARIO_OR_GAME",
            help="Skenaario (uusi peli) tai pelitiedosto (jatka) / scenario or game file.",
        ),
    ],
    who: Annotated[
        str | None,
        typer.Option(
            "--as", help="Pelaamasi puoli (oletus blue) / your side: blue | red (default blue)."
        ),
    ] = None,
    seed: SeedOpt = None,
    out: Annotated[
        Path | None, typer.Option("--out", help="Uuden pelin tiedosto / new game's file.")
    ] = None,
    level: Annotated[
        str,
        typer.Option(
            "--level",
            help=(
                "Tietokoneen taso: baseline, easy, normal, hard / the computer's level: "
                "baseline, easy, normal, hard."
            ),
        ),
    ] = "baseline",
) -> None:
    """Pelaa tietokonetta vastaan päätteessä / play against the computer in the terminal.

    The game is saved after every order; `tk20 play GAME` resumes it."""
    if who is not None and who not in ("blue", "red"):
        fail(
            tr(f"--as: valitse blue tai red, ei {who!r}", f"--as: choose blue or red, not {who!r}")
        )
    _check_bot(level, "--level")
    session = _resolve_play_target(target, who, seed, out)
    _use_names(session.scenario)
    human: Side = "red" if session.record.human == "red" else "blue"
    _Play(session, human, level).run()


_SCREEN_CLEAR = "\x1b[H\x1b[2J"
_LOG_LINES = 40
_PLAY_COMMANDS = {
    "help": "help",
    "apua": "help",
    "ohje": "help",
    "?": "help",
    "map": "map",
    "kartta": "map",
    "orders": "orders",
    "käskyt": "orders",
    "kaskyt": "orders",
    "score": "score",
    "tulos": "score",
    "pisteet": "score",
    "log": "log",
    "loki": "log",
    "units": "units",
    "yksiköt": "units",
    "yksikot": "units",
    "tilanne": "units",
}
"""Play commands (Finnish and English) other than orders and quit; each alone on its line."""


_TOOL_COMMANDS = {
    "los": "los",
    "näkyvyys": "los",
    "nakyvyys": "los",
    "reach": "reach",
    "liikealue": "reach",
}
"""Terrain tools in play (``los``, ``reach``) and their Finnish names."""
_CELL_ARG = re.compile(r"(\d+)\s*,\s*(\d+)")


def _tool_args(text: str) -> list[str | Cell]:
    """The arguments of ``los``/``reach``: cells ``X,Y`` (``12, 7`` too; ASCII digits) and
    unit ids, in order."""
    out: list[str | Cell] = []
    pos = 0
    text = text.strip()
    while pos < len(text):
        m = _CELL_ARG.match(text, pos)
        if m is not None and text[m.start() : m.end()].isascii():
            out.append((int(m.group(1)), int(m.group(2))))
            pos = m.end()
        else:
            end = text.find(" ", pos)
            end = len(text) if end < 0 else end
            out.append(text[pos:end])
            pos = end
        while pos < len(text) and text[pos] == " ":
            pos += 1
    return out


class _Play:
    """One ``tk20 play`` session: the screen drawn in place after every order (a terminal)
    or printed again (pipes), the prompt, and the play commands."""

    def __init__(self, session: GameSession, human: Side, level: str = "baseline") -> None:
        self.session = session
        self.human = human
        self.level = level
        self.ask = _reader()
        self.tty = sys.stdout.isatty()
        self.messages: list[str] = []

    def view(self) -> AnyView:
        return view_for(self.session.state, self.human)

    def _clear(self) -> None:
        if self.tty:
            sys.stdout.write(_SCREEN_CLEAR)
            sys.stdout.flush()

    def draw(self, *, keep_messages: bool = False) -> None:
        view = self.view()  # everything drawn comes from the side's view
        kp = ", ".join(f"{s} {view.command_points.get(s, 0)}" for s in self.seats()) or "—"
        score = score_of(view, self.session.scenario.victory)
        width, height = screen_size()
        lines = play_screen(
            view,
            self.session.scenario,
            score,
            self.messages,
            kp=kp,
            width=width - 1,
            height=height,
            keep_messages=keep_messages,
        )
        self._clear()
        for line in lines:
            console.print(line, soft_wrap=True)

    def end_screen(self) -> None:
        score = score_of(self.view(), self.session.scenario.victory)
        self._clear()
        for line in self.messages[-6:]:
            _say(line)
        for line in end_lines(score, self.session.scenario, self.human):
            _say(line, style="bold" if line.startswith(("PELI", "GAME")) else None)
        _say(
            tr(
                f"Peli tallennettu: {self.session.path} "
                f"(katso: tk20 show {self.session.path} --as {self.human})",
                f"Game saved: {self.session.path} "
                f"(look: tk20 show {self.session.path} --as {self.human})",
            )
        )

    def run(self) -> None:
        session, human = self.session, self.human
        self.messages = [_help_text(full=False), *_computer_turn(session, human, self.level)]
        redraw = True
        while not session.state.finished:
            state = session.state
            if state.active != human:
                self.messages = _computer_turn(session, human, self.level)
                redraw = True
                continue
            if redraw:
                self.draw()
                redraw = False
            line = self.ask(f"[{term(human)} · {_phase_text(state.phase.value)}] > ", self.words())
            if line is None or line.lower() in ("quit", "lopeta", "exit"):
                _say(
                    tr(
                        f"Peli tallennettu: {session.path} (jatka: tk20 play {session.path})",
                        f"Game saved: {session.path} (resume: tk20 play {session.path})",
                    )
                )
                return
            if line:
                redraw = self.handle(line)
        self.end_screen()

    def seats(self) -> list[str]:
        state = self.session.state
        return [s for s in state.seats(self.human) if s not in state.done]

    def words(self) -> list[str]:
        orders = _human_orders(self.session.state, self.seats())
        texts = [str(o) for o in orders]
        finnish = [order_text(t) for t in texts] if get_language() == "fi" else []
        # every order keyword of the game's ruleset too, so an order the listing leaves out
        # (e.g. ``fire … with W disable A``) can be typed
        keywords = sorted(set(vocabulary_of(self.session.state).keywords()))
        return texts + finnish + list(_COMMANDS) + keywords

    def command(self, name: str) -> bool:
        """Run a play command; True when the screen is to be drawn again."""
        session, human = self.session, self.human
        if name == "help":
            _say(_help_text())
        elif name == "map":
            return True
        elif name == "orders":
            for text in _orders_summary(_human_orders(session.state, self.seats())):
                _say(f"  {text}")
        elif name == "score":
            score = score_of(self.view(), session.scenario.victory)
            for text in score_lines(score, session.scenario, human):
                _say(text)
        elif name == "log":
            log = [e.model_dump(mode="json") for e in self.view().log]
            for text in _event_lines(log)[-_LOG_LINES:]:
                _say(f"  {text}")
        elif name == "units":
            view = self.view()
            _units_table(view)
            _contacts_table(view)
            for text in module_lines(view):
                _say(text)
        return False

    def tool(self, name: str, rest: list[str]) -> None:
        """``los UNIT X,Y|ENEMY`` / ``los X,Y X,Y`` and ``reach UNIT``: the terrain tools
        with the side's knowledge (views.sight)."""
        from taistelukentta.cli.grid_cmds import reach_lines, sight_lines
        from taistelukentta.views.sight import side_reach, side_sight, viewer_unit

        state, human = self.session.state, self.human
        args = _tool_args(rest[0] if rest else "")
        try:
            if name == "reach":
                if len(args) != 1 or isinstance(args[0], tuple):
                    _say(tr("Käyttö: reach YKSIKKÖ", "Usage: reach UNIT"), style="red")
                    return
                answer = side_reach(state, human, args[0])
                width, height = screen_size()
                ruler = len(str(state.scenario.map.height - 1)) + 1
                for text in reach_lines(
                    state.scenario.map,
                    answer.start,
                    set(answer.cells),
                    answer.movement,
                    unit=answer.unit,
                    window=(width - 1 - ruler, max(4, height - 6)),
                ):
                    console.print(text, highlight=False, soft_wrap=True)
                return
            if len(args) != 2:
                _say(
                    tr(
                        "Käyttö: los YKSIKKÖ X,Y | los YKSIKKÖ VIHOLLINEN | los X,Y X,Y",
                        "Usage: los UNIT X,Y | los UNIT ENEMY | los X,Y X,Y",
                    ),
                    style="red",
                )
                return
            a_arg, b_arg = args
            unit = None if isinstance(a_arg, tuple) else a_arg
            a = (
                a_arg
                if isinstance(a_arg, tuple)
                else viewer_unit(state, human, a_arg, own=True).cell
            )
            b = (
                b_arg
                if isinstance(b_arg, tuple)
                else viewer_unit(state, human, b_arg, own=False).cell
            )
            sight = side_sight(state, a, b)
            if unit is not None:
                unit = viewer_unit(state, human, unit, own=True).id
            for line in sight_lines(state.scenario.map, a, b, sight, unit=unit):
                _say(line)
        except TkError as exc:
            _say(exc.message(get_language()), style="red")

    def handle(self, line: str) -> bool:
        """Act on one input line; True when the screen is to be drawn again."""
        session, human, state = self.session, self.human, self.session.state
        words = line.lower().split()
        if len(words) == 1 and words[0] in _PLAY_COMMANDS:
            return self.command(_PLAY_COMMANDS[words[0]])
        if words and words[0] in _TOOL_COMMANDS:
            self.tool(_TOOL_COMMANDS[words[0]], line.split(None, 1)[1:])
            return False
        seats = self.seats()
        orders = _human_orders(state, seats)
        names = known_names(state, human)
        try:
            vocab = vocabulary_of(state)
            order = parse_order(normalise(line, names, _PLAY_WORDS, vocab), vocab)
        except TkError as exc:
            hint = unknown_name_hint(line, names)
            self.messages = [exc.message(get_language()), *([tr(hint[1], hint[0])] if hint else [])]
            return True
        odds = _confirm_lines(state, human, seats, orders, order)
        if odds:
            self.messages = odds
            self.draw(keep_messages=True)
            answer = self.ask(tr("Vahvista (k/e)? ", "Confirm (y/n)? "), ["k", "e", "y", "n"])
            if answer is None or answer.lower() not in _YES:
                self.messages = [tr("Peruttu.", "Cancelled.")]
                return True
        try:
            events = _give_human(session, human, seats, order)
        except TkError as exc:
            seat = _order_seat(state, human, seats, order)
            self.messages = _refusal(exc, state, seat, order, names, line).split("\n")
            return True
        seen = _screen_events(redact(events, human, session.scenario))
        self.messages = [f"> {order_text(order)}", *_event_lines(seen)]
        return True
