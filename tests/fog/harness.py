"""Non-interference harness (issue 8): two worlds that differ only in one secret of one
side, the same orders, and everything the other side can observe compared byte for byte
until that side legitimately learns the secret.

A *world* is a scenario built from the bundled data with one change. Both worlds start
from the same 256-bit seed. The dice are *coupled* (:class:`CoupledRoller`): a roll's dice
depend only on the seed, the side turn, its purpose, the units it is about and how many
rolls of that kind came before in the turn, so a roll made in only one world (against a
unit only it has, by a unit whose secret orders differ) does not shift the others. This
models an unpredictable stream — the game's real HMAC stream gives an observer no way to
tell one position of it from another — while keeping the comparison exact.

The observer's observations after every order (:func:`observe`): the side's view and each
of its seats' views (``tk20 show --as … --json``), every seat's full legal orders
(``tk20 orders --json``), the refusal texts of probe orders naming every enemy unit id of
the scenario and cells around them, the odds it reads before an order (the server's
``/odds`` and the play screen's lines for its fire requests — footprint, delay range,
skilled observer, R-OFF-2…4, R-FD-3 — and for fire at every enemy id), and the side's
copies of the order's events (``tk20 order --json``). The orders: the observer picks from
its legal orders (the same list in both worlds, or the test has already failed); the other
side plays orders that are legal in both worlds (its secret units get only the orders their
world allows).
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import random
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

from taistelukentta.content.loader import parse_toml
from taistelukentta.content.scenario import Scenario, scenario_from_data, scenarios_dir
from taistelukentta.dice.roller import Roller
from taistelukentta.errors import TkError
from taistelukentta.rules import (
    Event,
    GameState,
    Order,
    apply,
    check_order,
    is_legal,
    legal_orders,
    new_game,
    parse_order,
)
from taistelukentta.rules import context as rules_context
from taistelukentta.rules.fire_support import ORGANIC, STRIKE
from taistelukentta.rules.orders import OrderKind
from taistelukentta.rules.state import Side, other_side
from taistelukentta.views import redact, view_for

UNIT_NAMES = (
    "attacker",
    "target",
    "unit",
    "uid",
    "scout",
    "observer",
    "firer",
    "victim",
    "defender",
    "mover",
    "co",
    "u",
)
"""Local names under which the rules hold the units a roll is about (an id or a unit)."""


def _units_of_roll(known: frozenset[str], depth: int = 12) -> str:
    """The units a roll is about: the unit ids (or units) held under :data:`UNIT_NAMES` in
    the nearest calling frame of the rules that holds any, sorted; "" when none does (a
    roll about no unit, e.g. a strike's scatter)."""
    frame: FrameType | None = sys._getframe(3)  # <- _start <- roll/d20 <- the rules
    for _ in range(depth):
        if frame is None:
            break
        if frame.f_globals.get("__name__", "").startswith("taistelukentta."):
            found = set()
            local = frame.f_locals
            for name in UNIT_NAMES:
                value = local.get(name)
                uid = value if isinstance(value, str) else getattr(value, "id", None)
                if isinstance(uid, str) and uid in known:
                    found.add(uid)
            if found:
                return ",".join(sorted(found))
        frame = frame.f_back
    return ""


class CoupledRoller(Roller):
    """Dice keyed by (seed, side turn, purpose, the units the roll is about, how many
    rolls of that key came before in the turn, die index).

    A roll made in one world only (by or against a unit only it has, or by a unit whose
    secret orders differ) then shifts no other roll: another unit's roll, or the same
    units' roll in another turn, has another key. The units are read from the calling
    rules code (:func:`_units_of_roll`). ``forced``: purposes (by prefix) whose every die
    shows a fixed face — how two worlds differ only in a secret roll (a strike's delay)."""

    def __init__(
        self,
        seed: bytes | int,
        counts: dict[str, int] | None = None,
        forced: dict[str, int] | None = None,
        turn: int = 0,
        units: frozenset[str] = frozenset(),
    ) -> None:
        super().__init__(seed)
        prefix = f"{turn}|"
        # only this turn's counts are kept (the state carries them from order to order)
        self._counts: dict[str, int] = {
            k: v for k, v in (counts or {}).items() if k.startswith(prefix)
        }
        self._forced: dict[str, int] = dict(forced or {})
        self._turn = turn
        self._units = units
        self._key = ""
        self._face: int | None = None
        self._i = 0
        self._base = seed.hex() if isinstance(seed, bytes) else str(seed)

    def _start(self, purpose: str) -> None:
        # A setback (``…:setback``, R-ATK-6) is the firer's roll after every target's: the
        # area attack's loop variable still names its last target then, which would key
        # the die by a unit one world may not have (the firer's other rolls key it).
        units = "" if purpose.endswith(":setback") else _units_of_roll(self._units)
        key = f"{self._turn}|{purpose}|{units}"
        n = self._counts.get(key, 0)
        self._counts[key] = n + 1
        self._key = f"{key}#{n}"
        self._face = next((v for k, v in self._forced.items() if purpose.startswith(k)), None)
        self._i = 0

    def roll(self, expr: Any, purpose: str, **kw: Any) -> Any:
        self._start(purpose)
        return super().roll(expr, purpose, **kw)

    def d20(self, purpose: str, **kw: Any) -> Any:
        self._start(purpose)
        return super().d20(purpose, **kw)

    def _die(self, sides: int) -> int:
        if self._face is not None:
            return min(self._face, sides)
        h = hashlib.sha256(f"{self._base}|{self._key}|{self._i}".encode()).digest()
        self._i += 1
        return int.from_bytes(h[:8], "big") % sides + 1

    def getstate(self) -> dict[str, Any]:
        out = {**super().getstate(), "counts": dict(sorted(self._counts.items()))}
        if self._forced:
            out["forced"] = dict(sorted(self._forced.items()))
        return out


def _coupled(state: GameState) -> Roller:
    base = Roller.from_state(state.roller)
    known = frozenset(state.units) | frozenset(p.id for _, _, p in state.scenario.placements())
    r = CoupledRoller(
        base.seed,
        state.roller.get("counts"),
        state.roller.get("forced"),
        turn=state.turn_no,
        units=known,
    )
    r._seq = base.rolls_made
    return r


def force_dice(state: GameState, forced: dict[str, int]) -> GameState:
    """``state`` whose coupled dice show fixed faces for the ``forced`` purposes."""
    if not forced:
        return state
    return dataclasses.replace(
        state, roller={**state.roller, "forced": dict(sorted(forced.items()))}
    )


@contextmanager
def coupled_dice() -> Iterator[None]:
    mp = pytest.MonkeyPatch()
    mp.setattr(rules_context, "make_roller", _coupled)
    try:
        yield
    finally:
        mp.undo()


# ------------------------------------------------------------------------------ worlds

_DATA: dict[str, dict[str, Any]] = {}


def scenario_data(name: str) -> dict[str, Any]:
    if name not in _DATA:
        path = scenarios_dir() / f"{name}.toml"
        _DATA[name] = parse_toml(path.read_text(encoding="utf-8"), str(path))
    out: dict[str, Any] = json.loads(json.dumps(_DATA[name]))
    return out


def build(name: str, change: Callable[[dict[str, Any]], None] | None = None) -> Scenario:
    data = scenario_data(name)
    if change is not None:
        change(data)
    return scenario_from_data(data, source=name, base_dir=scenarios_dir(), default_id=name)


def red_unit(data: dict[str, Any], uid: str) -> dict[str, Any]:
    for g in data["red"]["battle_groups"]:
        for u in g["units"]:
            if u["id"] == uid:
                return u  # type: ignore[no-any-return]
    raise KeyError(uid)


def blue_unit(data: dict[str, Any], uid: str) -> dict[str, Any]:
    for s in data["blue"]["seats"]:
        for u in s["units"]:
            if u["id"] == uid:
                return u  # type: ignore[no-any-return]
    raise KeyError(uid)


def drop_unit(data: dict[str, Any], uid: str) -> None:
    for g in [*data["red"]["battle_groups"], *data["blue"]["seats"]]:
        g["units"] = [u for u in g["units"] if u["id"] != uid]


# ------------------------------------------------------------------------------ observing


@functools.lru_cache(maxsize=4096)
def _parsed(text: str) -> Order:
    """A probe order's text parsed (orders are immutable values: one parse serves every
    step and world)."""
    return parse_order(text)


def _probe_orders(state: GameState, side: Side, seat: str, enemy_ids: list[str]) -> list[str]:
    """Orders whose refusal (or acceptance) the side can read: the seat's units against
    every enemy id of either world (known to it or not)."""
    own = sorted(u.id for u in state.units_of(side) if u.seat == seat)[:3]
    out = []
    for u in own:
        for e in enemy_ids:
            out.append(f"fire {u} {e}")
            out.append(f"attack {u} {e}")
    return out


def observe(
    state: GameState,
    side: Side,
    events: list[Event],
    enemy_ids: list[str],
    legal: dict[str, list[Order]] | None = None,
) -> dict[str, Any]:
    """Everything ``side`` can read after an order (``legal``: every seat's legal orders
    if already listed). Compared with ``==`` (the legal orders as Order values, whose
    notation is a function of them); :func:`as_json` gives the canonical JSON text."""
    seats = state.seats(side)
    # The views without their logs: a view's log is the side's copies of the events, which
    # are compared order by order below (numbers included), so the whole log is equal
    # whenever every step's copies were.
    obs: dict[str, Any] = {
        "view": view_for(state, side, log_limit=0).model_dump(mode="json"),
        # The Red seat is the game master's (it sees everything); Red as a side reads the
        # side view (a computer or a human playing Red without the GM's knowledge).
        "seat_views": {
            s: view_for(state, s, log_limit=0).model_dump(mode="json") for s in seats if s != "gm"
        },
        "legal": legal if legal is not None else all_legal(state, side),
        "events": redact(events, side, state.scenario),
    }
    refusals: dict[str, str] = {}
    if state.active == side and not state.finished:
        seat = next((s for s in seats if s not in state.done), seats[0])
        for text in _probe_orders(state, side, seat, enemy_ids):
            try:
                check_order(state, seat, _parsed(text))
                refusals[text] = "legal"
            except TkError as exc:
                refusals[text] = exc.message("en") + " | " + exc.message("fi")
    obs["refusals"] = refusals
    obs["odds"] = _odds(state, side, obs["legal"], enemy_ids)
    return obs


STRIKE_ODDS = 4
"""Fire requests of the seat to play whose odds are observed at a step (R-OFF-2/3/4,
R-FD-3: the footprint, the exposures, the delay and whether the observer is skilled)."""


def _odds(
    state: GameState, side: Side, legal: dict[str, list[Order]], enemy_ids: list[str]
) -> dict[str, Any]:
    """What the side reads before an order, as the server's ``/odds`` answers it and the
    play screen shows it (``tk20 play``'s confirmation lines): for the seat to play, its
    first :data:`STRIKE_ODDS` legal fire requests (``strike``/``organic``: the footprint,
    exposures, the delay range and ``skilled`` — R-FD-3 from the observer's TT) and a fire
    order of its first unit at every enemy id (the estimate, or the refusal's text when the
    side does not know the target)."""
    from taistelukentta.cli.game_cmds import strike_odds_lines
    from taistelukentta.server.odds import odds_of

    out: dict[str, Any] = {}
    if state.active != side or state.finished:
        return out
    seats = [s for s in state.seats(side) if s not in state.done]
    if not seats:
        return out
    seat = seats[0]
    strikes = [o for o in legal.get(seat, []) if o.kind in (STRIKE, ORGANIC)]
    for order in strikes[:STRIKE_ODDS]:
        out[str(order)] = {
            "server": odds_of(state, side, order),
            "play": strike_odds_lines(state, side, order),
        }
    own = sorted(u.id for u in state.units_of(side) if u.seat == seat)[:1]
    for uid in own:
        for e in enemy_ids:
            order = _parsed(f"fire {uid} {e}")
            try:
                out[str(order)] = odds_of(state, side, order)
            except TkError as exc:
                out[str(order)] = exc.message("en") + " | " + exc.message("fi")
    return out


def all_legal(state: GameState, side: Side) -> dict[str, list[Order]]:
    """Every seat's full legal orders (``tk20 orders --json`` lists their notation)."""
    return {s: legal_orders(state, s) for s in state.seats(side)}


def as_json(obs: dict[str, Any]) -> str:
    """The canonical JSON text of an observation (orders in their notation)."""
    return json.dumps(obs, sort_keys=True, ensure_ascii=False, default=str)


# ------------------------------------------------------------------------------ the CLI


def toml_text(data: Any) -> str:
    """``data`` (a parsed scenario) as TOML: every top-level key with an inline value.
    Enough for the scenario files the CLI loads (strings, numbers, booleans, lists,
    tables); JSON's string escapes are TOML's."""

    def key(k: str) -> str:
        return k if k and all(c.isalnum() or c in "_-" for c in k) else json.dumps(k)

    def value(v: Any) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, int | float):
            return repr(v)
        if isinstance(v, str):
            return json.dumps(v, ensure_ascii=False)
        if isinstance(v, list | tuple):
            return "[" + ", ".join(value(x) for x in v) + "]"
        if isinstance(v, dict):
            return "{" + ", ".join(f"{key(k)} = {value(x)}" for k, x in v.items()) + "}"
        raise TypeError(f"no TOML for {type(v).__name__}")

    return "".join(f"{key(k)} = {value(v)}\n" for k, v in data.items())


_LOADED: dict[tuple[str, str, str, str], Scenario] = {}


@contextmanager
def _reused_scenarios(on: bool) -> Iterator[None]:
    """``load_scenario`` (as the game-file commands call it) remembering what it loaded,
    keyed by the file's bytes, the options and the overlay (see :class:`CliWorlds`)."""
    if not on:
        yield
        return
    from taistelukentta.content import scenario as scenario_mod
    from taistelukentta.storage import session as session_mod

    real = scenario_mod.load_scenario

    def load(
        name_or_path: str,
        options: dict[str, Any] | None = None,
        overlay: dict[str, Any] | None = None,
    ) -> Scenario:
        path = Path(name_or_path)
        if not path.is_file():
            return real(name_or_path, options, overlay)
        key = (
            str(path.resolve()),
            hashlib.sha256(path.read_bytes()).hexdigest(),
            json.dumps(options, sort_keys=True, default=str),
            json.dumps(overlay, sort_keys=True, default=str),
        )
        if key not in _LOADED:
            if len(_LOADED) > 8:
                _LOADED.clear()
            _LOADED[key] = real(name_or_path, options, overlay)
        return _LOADED[key]

    mp = pytest.MonkeyPatch()
    mp.setattr(session_mod, "load_scenario", load)
    mp.setattr(scenario_mod, "load_scenario", load)
    try:
        yield
    finally:
        mp.undo()


class CliWorlds:
    """The two worlds as game files the ``tk20`` command reads (in-process, typer's
    CliRunner): at a checked step both states are saved, the observer's side reads
    ``tk20 show --as SIDE|SEAT --json`` and ``tk20 orders --as SEAT --json``, probes the
    refusal texts of ``tk20 order`` naming enemy units (stderr and exit code), and the
    step's order itself is given with ``tk20 order --as SEAT --json`` (its output is
    compared when the seat is the observer's); play then continues from the files."""

    def __init__(
        self,
        folder: Path,
        data_a: dict[str, Any],
        data_b: dict[str, Any],
        *,
        reuse_scenarios: bool = False,
    ) -> None:
        from typer.testing import CliRunner

        self.runner = CliRunner()
        self.reuse_scenarios = reuse_scenarios
        """Each command loads the scenario file the game file names, as a fresh process
        does; with ``reuse_scenarios`` a file already loaded (the same bytes, options and
        overlay) gives the scenario loaded then (immutable; its caches stay warm): the
        commands' outputs are the same, at a fraction of the cost. The fast tier's CLI
        pair runs without it."""
        self.dirs = (folder / "a", folder / "b")
        self.sessions: list[Any] = []
        self.scenario_files = []
        for d, data in zip(self.dirs, (data_a, data_b), strict=True):
            d.mkdir(parents=True, exist_ok=True)
            path = d / f"{data['id']}.toml"
            path.write_text(toml_text(data), encoding="utf-8")
            self.scenario_files.append(path)

    def start(self, sa: GameState, sb: GameState) -> None:
        from taistelukentta.storage.gamefile import GameRecord
        from taistelukentta.storage.session import GameSession

        self.sessions = []
        self.enemy_cells = sorted(
            {f"{u.cell[0]},{u.cell[1]}" for u in sa.units.values()}, key=lambda c: c
        )
        for d, path, state in zip(self.dirs, self.scenario_files, (sa, sb), strict=True):
            record = GameRecord(str(path.resolve()), state.seed)
            (d / "game.json").unlink(missing_ok=True)
            session = GameSession(d / "game.json", record, state.scenario, state)
            session.save()
            self.sessions.append(session)

    def _run(self, world: int, args: list[str], input: str | None = None) -> str:
        from taistelukentta.cli.app import app

        with _reused_scenarios(self.reuse_scenarios):
            result = self.runner.invoke(app, ["--lang", "en", *args], input=input)
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise result.exception
        out = f"exit {result.exit_code}\n{result.stdout}\n{result.stderr}"
        return out.replace(str(self.dirs[world]), "<world>")

    def _ok(self, world: int, args: list[str]) -> str:
        out = self._run(world, args)
        if not out.startswith("exit 0\n"):  # the comparison must not be of two failures
            raise AssertionError(f"tk20 {' '.join(args)} failed:\n{out}")
        return out

    def _save(self, world: int, state: GameState) -> str:
        from taistelukentta.storage.gamefile import file_version

        session = self.sessions[world]
        session.state = state
        session.version = file_version(session.path)  # a command read here may have saved
        session.save()
        return str(session.path)

    def read(self, world: int, side: Side, probes: list[tuple[str, str]]) -> dict[str, str]:
        """What ``side`` reads through the CLI now (the game file holds the state)."""
        path = str(self.sessions[world].path)
        state = self.sessions[world].state
        seats = state.seats(side)
        out: dict[str, str] = {}
        for who in [side, *(s for s in seats if s != "gm")]:
            out[f"show {who}"] = self._ok(world, ["show", path, "--as", who, "--json"])
        for seat in seats:
            out[f"orders {seat}"] = self._ok(world, ["orders", path, "--as", seat, "--json"])
        for seat, text in probes:
            out[f"order {seat} {text}"] = self._run(world, ["order", path, text, "--as", seat])
        # the strike odds table with a skilled observer (R-FD-3): from the rule options
        # alone, no game (the game's own fire-request odds are in :func:`observe`)
        odds = ["odds", "strike", "--weapon", "k9", "--contact", "known", "--skilled", "--json"]
        out["odds strike --skilled"] = self._ok(world, odds)
        for seat, uid, targets in self.tools:
            # the terrain tools on the game file with the seat's knowledge: a cell, an
            # enemy id (seen or not: the refusal must not tell), the unit's moves
            for to in targets:
                args = ["los", path, "--as", seat, "--unit", uid, "--to", to]
                out[" ".join(args[2:])] = self._run(world, args)
            out[f"reach {seat} {uid}"] = self._run(
                world, ["reach", path, "--as", seat, "--unit", uid]
            )
        if self.play_input and state.active == side and side in ("blue", "red"):
            # the terminal play screen (``tk20 play GAME --as SIDE``): drawn, then the
            # display commands and the tools, then quit (nothing is ordered)
            out[f"play {side}"] = self._run(world, ["play", path, "--as", side], self.play_input)
        return out

    tools: tuple[tuple[str, str, tuple[str, ...]], ...] = ()
    """``(seat, own unit, targets)`` for ``tk20 los``/``reach`` at the next :meth:`read`
    (set on the instance by :meth:`step`)."""
    play_input: str = ""
    """Lines typed into ``tk20 play`` at the next :meth:`read` (none: not run)."""

    def step(
        self,
        sa: GameState,
        sb: GameState,
        seat: str,
        order_a: Order,
        order_b: Order,
        observer: Side,
        enemy_ids: list[str],
    ) -> tuple[GameState, list[Event], GameState, list[Event]]:
        """Compare what the observer reads through the CLI, then play the step's orders
        through ``tk20 order`` and continue from the saved files."""
        from taistelukentta.storage.session import open_game

        probes: list[tuple[str, str]] = []
        if sa.active == observer:
            # two enemy ids (any, seen or not) by the step: every id over the steps
            own = sorted(u.id for u in sa.units_of(observer) if u.seat == seat)[:1]
            k = 2 * len(self.sessions[0].record.orders) % max(1, len(enemy_ids))
            named = (enemy_ids + enemy_ids)[k : k + 2]
            probes = [(seat, f"fire {u} {named[0]}") for u in own]
            probes += [(seat, f"attack {u} {named[-1]}") for u in own]
        # los/reach for the seat's first unit, towards the cells where the enemy's units
        # stood at the start in world a (the same cells in both worlds) and two enemy ids;
        # the play screen and its commands when the observer is to play
        self.tools, self.play_input = (), ""
        mine = sorted(u.id for u in sa.units_of(observer) if u.seat == seat)[:1]
        if sa.side_of_seat(seat) == observer and mine:
            k = len(self.sessions[0].record.orders) % max(1, len(self.enemy_cells))
            cells = (self.enemy_cells + self.enemy_cells)[k : k + 2]
            named = (enemy_ids + enemy_ids)[k : k + 2]
            # the GM seat reads everything (it is the umpire): Red's tools run as the side
            tool_as = observer if seat == "gm" else seat
            self.tools = ((tool_as, mine[0], (*cells, *named)),)
            lines = ["units", "log", "score", "orders", f"los {mine[0]} {named[0]}"]
            lines += [f"los {mine[0]} {cells[0]}", f"reach {mine[0]}", "quit"]
            self.play_input = "\n".join(lines) + "\n"
        reads = []
        for world, state in enumerate((sa, sb)):
            self._save(world, state)
            reads.append(self.read(world, observer, probes))
            self._save(world, state)  # a probe that was legal changed the file
        if reads[0] != reads[1]:
            raise Leak(
                f"{observer}'s tk20 --json outputs differ:\n"
                + _diff(json.dumps(reads[0]), json.dumps(reads[1]))
            )
        given = []
        after = []
        for world, (state, order) in enumerate(((sa, order_a), (sb, order_b))):
            path = str(self.sessions[world].path)
            given.append(self._ok(world, ["order", path, str(order), "--as", seat, "--json"]))
            session = open_game(path)
            self.sessions[world] = session
            new = session.state
            after.append((new, list(new.events)[len(state.events) :]))
        # The order's output holds its events: compared with them at the next step, after
        # the check whether they told the observer the secret legitimately.
        self.given = (given[0], given[1]) if sa.side_of_seat(seat) == observer else None
        return after[0][0], after[0][1], after[1][0], after[1][1]

    given: tuple[str, str] | None = None
    """The last ``tk20 order --json`` outputs of an observer's seat, not yet compared."""

    def compare_given(self) -> None:
        """Compare the last order's ``tk20 order --json`` outputs (see :meth:`step`)."""
        given, self.given = self.given, None
        if given is not None and given[0] != given[1]:
            raise Leak(f"tk20 order --json differs:\n{given[0]}\n{given[1]}")


# ------------------------------------------------------------------------------ playing


@dataclass
class Outcome:
    steps: int
    """Orders compared (both worlds) before the pair stopped."""
    learned: bool
    """The observer legitimately learnt the secret (comparison stopped there)."""
    finished: bool
    diverged: bool = False
    """The owner's own knowledge differs between the worlds: the comparison stopped."""
    cli_checks: int = 0
    """Steps at which the CLI's ``--json`` outputs were compared too."""
    differed: int = 0
    """Steps compared while the two worlds' true states differed (units, contacts, KP,
    module state): a pair whose worlds never differed tested nothing."""
    scripted: int = 0
    """Scripted orders the rules accepted and both worlds played."""
    turn: int = 0
    """The side turn the pair reached (``turn_no``, 1 = the first side's first)."""


class Leak(AssertionError):
    pass


Learned = Callable[[GameState, list[Event]], bool]
Prepare = Callable[[GameState], GameState]


def _knowledge(state: GameState, side: Side) -> dict[str, Any]:
    return {uid: c.to_dict() for uid, c in state.contacts[side].items()}


def _diff(a: str, b: str) -> str:
    da, db = json.loads(a), json.loads(b)
    lines: list[str] = []

    def walk(x: Any, y: Any, path: str) -> None:
        if len(lines) > 8:
            return
        if isinstance(x, dict) and isinstance(y, dict):
            for k in sorted(set(x) | set(y)):
                walk(x.get(k, "<missing>"), y.get(k, "<missing>"), f"{path}.{k}")
        elif isinstance(x, list) and isinstance(y, list) and len(x) == len(y):
            for i, (p, q) in enumerate(zip(x, y, strict=True)):
                walk(p, q, f"{path}[{i}]")
        elif isinstance(x, list) and isinstance(y, list):
            only_a = [v for v in x if v not in y][:5]
            only_b = [v for v in y if v not in x][:5]
            a_text, b_text = json.dumps(only_a)[:300], json.dumps(only_b)[:300]
            lines.append(f"{path}: only in a {a_text}, only in b {b_text}")
        elif x != y:
            lines.append(f"{path}: {json.dumps(x)[:300]} != {json.dumps(y)[:300]}")

    walk(da, db, "")
    return "\n".join(lines)


Prefer = Callable[[Order], bool]
Scripted = tuple[str, str, str | None]
"""A scripted step: ``(seat, order in world a, order in world b or None = the same)``."""
Policy = Callable[[GameState, str, list[Order], random.Random], Order | None]
"""A scripted observer: ``(world a's state, seat, the seat's legal orders, rng)`` → the
order to give (None: a random one). It may read only what the observer knows (its own
units, its legal orders): the worlds' states differ in the secret."""


def _pick(
    orders: list[Order],
    rng: random.Random,
    prefer: Prefer | None = None,
    done_rate: float = 0.15,
    ok: Callable[[Order], bool] | None = None,
) -> Order:
    """A random order of ``orders`` (``done`` last): half the time one ``prefer`` likes
    when there is one, ``done`` at ``done_rate``, else any other. With ``ok`` only orders
    it accepts are picked (the choice is uniform over them: random draws, each refused one
    taken out), ``done`` when none is."""
    real = [o for o in orders if o.kind is not OrderKind.DONE]

    def draw(among: list[Order]) -> Order | None:
        among = list(among)
        while among:
            o = among.pop(rng.randrange(len(among)))
            if ok is None or ok(o):
                return o
        return None

    if prefer is not None:
        liked = [o for o in real if prefer(o)]
        if liked and rng.random() < 0.5:
            found = draw(liked)
            if found is not None:
                return found
    if not real or rng.random() < done_rate:
        return orders[-1]
    return draw(real) or orders[-1]


class HiddenOrders:
    """The owner side's orders differ between the worlds for units the observer has no
    contact on (orders given but not yet seen carried out): now and then one such unit
    gets a random legal order in world a and another in world b. The observer learns of
    them legitimately once it has a contact on one of those units."""

    def __init__(self, owner: Side, rate: float = 0.5) -> None:
        self.owner = owner
        self.rate = rate
        self.units: set[str] = set()

    def orders(
        self,
        sa: GameState,
        sb: GameState,
        la: list[Order],
        lb: Callable[[], list[Order]],
        rng: random.Random,
    ) -> tuple[Order, Order] | None:
        """``lb``: world b's legal orders (listed only when needed)."""
        if rng.random() >= self.rate:
            return None
        observer = other_side(self.owner)
        unseen_a = {o.unit for o in la if o.unit is not None}
        unseen_a -= set(sa.contacts[observer]) | set(sb.contacts[observer])
        if not unseen_a:
            return None
        lb_ = lb()
        unseen = sorted(unseen_a & {o.unit for o in lb_ if o.unit is not None})
        if not unseen:
            return None
        uid = rng.choice(unseen)
        mine_a = [o for o in la if o.unit == uid]
        mine_b = [o for o in lb_ if o.unit == uid]
        oa, ob = rng.choice(mine_a), rng.choice(mine_b)
        if oa == ob:
            return None
        self.units.add(uid)
        return oa, ob

    def learned(self, state: GameState, events: list[Event]) -> bool:
        return contact_on(other_side(self.owner), self.units)(state, events)


@dataclass
class Pair:
    """Two worlds and how they are played."""

    a: Scenario
    b: Scenario
    observer: Side
    learned: Learned
    prepare_a: Prepare | None = None
    prepare_b: Prepare | None = None
    """A change to the started game only one world has (e.g. a combat mark)."""
    forced_a: dict[str, int] = dataclasses.field(default_factory=dict)
    forced_b: dict[str, int] = dataclasses.field(default_factory=dict)
    """Fixed faces of secret rolls per purpose prefix (the strike delay)."""
    prefer: Prefer | None = None
    """Orders either side picks half the time when it may (e.g. a strike)."""
    done_rate: float = 0.15
    """How often a seat says ``done`` when it could do something else (higher: the
    turns pass in fewer orders)."""
    hidden: HiddenOrders | None = None
    script: tuple[Scripted, ...] = ()
    """Orders played first (see :func:`play_pair`'s ``script``)."""
    policy: Policy | None = None
    """How the observer picks its orders when no script step is left (None: at random);
    it sees only the observer's own state and legal orders (the same in both worlds)."""
    exempt: frozenset[str] = frozenset()
    """Enemy units whose differences between the worlds ``learned`` alone judges (a
    contact on them held in both worlds from the start tells the observer nothing of the
    secret by itself)."""


def play_pair(
    a: Scenario | Pair,
    b: Scenario | None = None,
    observer: Side | None = None,
    seed: bytes = b"",
    rng: random.Random | None = None,
    learned: Learned | None = None,
    *,
    steps: int = 120,
    script: list[Scripted] | None = None,
    cli: CliWorlds | None = None,
    cli_every: int = 0,
) -> Outcome:
    """Play both worlds in lockstep and compare the observer's observations.

    ``learned(state, events)`` tells whether, in that world, the observer has legitimately
    learnt the secret (checked in both worlds after each order; the comparison stops at the
    first order after which it holds in either). ``script`` (or the pair's): orders played
    first, as ``(seat, order in world a, order in world b or None = the same)``; a scripted
    order the rules refuse in both worlds is skipped — for the observer's seat its refusal
    texts must be the same (they are what the player reads) — and one refused in a single
    world is a leak when the observer gave it (a test error otherwise). With ``cli``, every
    ``cli_every``-th step (and the first) is also played through ``tk20`` itself: its
    ``show``/``orders``/``order --json`` outputs and refusal texts for the observer's side
    and seats are compared byte for byte (:class:`CliWorlds`)."""
    if isinstance(a, Pair):
        pair = a
    else:
        assert b is not None and observer is not None and learned is not None
        pair = Pair(a, b, observer, learned)
    rng = rng if rng is not None else random.Random(0)
    observer = pair.observer
    enemy = other_side(observer)
    hidden = pair.hidden
    scen = (pair.a, pair.b)
    enemy_ids = sorted({p.id for sc in scen for s, _, p in sc.placements() if s == enemy})
    script = list(script if script is not None else pair.script)
    checks = 0
    differed = 0
    scripted = 0

    def outcome(n: int, learned: bool, finished: bool, diverged: bool = False) -> Outcome:
        return Outcome(
            n,
            learned,
            finished,
            diverged=diverged,
            cli_checks=checks,
            differed=differed,
            scripted=scripted,
            turn=sa.turn_no,
        )

    def learnt(sa: GameState, ea: list[Event], sb: GameState, eb: list[Event]) -> bool:
        if pair.learned(sa, ea) or pair.learned(sb, eb):
            return True
        if hidden is not None and (hidden.learned(sa, ea) or hidden.learned(sb, eb)):
            return True
        # The observer has a contact on an enemy unit that is not the same in the two
        # worlds (where it stands, its strength, what it did): it sees the secret's effect
        # on that unit by the rules (e.g. a unit whose move a hidden one blocked).
        seen = (set(sa.contacts[observer]) | set(sb.contacts[observer])) - pair.exempt
        return any(sa.units.get(u) != sb.units.get(u) for u in seen)

    with coupled_dice():
        sa = force_dice(new_game(pair.a, seed), pair.forced_a)
        sb = force_dice(new_game(pair.b, seed), pair.forced_b)
        if pair.prepare_a is not None:
            sa = pair.prepare_a(sa)
        if pair.prepare_b is not None:
            sb = pair.prepare_b(sb)
        ea = list(sa.events)
        eb = list(sb.events)
        if cli is not None:
            cli.start(sa, sb)
        n = 0
        for n in range(steps + 1):
            if learnt(sa, ea, sb, eb):
                return outcome(n, True, False)
            if _knowledge(sa, enemy) != _knowledge(sb, enemy):
                # The secret's owner knows different things in the two worlds (e.g. the
                # extra unit saw an enemy): from here its visible units may act on it,
                # which the observer may legitimately see.
                return outcome(n, False, False, diverged=True)
            legal_a, legal_b = all_legal(sa, observer), all_legal(sb, observer)
            oa = observe(sa, observer, ea, enemy_ids, legal_a)
            ob = observe(sb, observer, eb, enemy_ids, legal_b)
            if (sa.units, sa.contacts, sa.kp, sa.ext) != (sb.units, sb.contacts, sb.kp, sb.ext):
                differed += 1
            if cli is not None:
                cli.compare_given()
            if oa != ob:
                raise Leak(
                    f"observations of {observer} differ after {n} orders:\n"
                    + _diff(as_json(oa), as_json(ob))
                )
            if sa.finished or sb.finished:
                if sa.finished != sb.finished:
                    raise Leak(f"one world ended after {n} orders")
                return outcome(n, False, True)
            if sa.active != sb.active or sa.phase != sb.phase:
                raise Leak(f"turn flow differs after {n} orders")
            seat_a = next(s for s in sa.seats(sa.active) if s not in sa.done)
            seat_b = next(s for s in sb.seats(sb.active) if s not in sb.done)
            if seat_a != seat_b:
                raise Leak(f"next seat differs after {n} orders: {seat_a} / {seat_b}")
            if script:
                seat, text_a, text_b = script.pop(0)
                order_a, order_b = parse_order(text_a), parse_order(text_b or text_a)
                assert seat == seat_a, (n, seat, seat_a)
                refused = _refusals(sa, sb, seat, order_a, order_b)
                if refused is not None:
                    if sa.side_of_seat(seat) == observer and refused[0] != refused[1]:
                        raise Leak(f"scripted {text_a!r} after {n} orders: {refused}")
                    if None in refused:
                        if sa.side_of_seat(seat) == observer:
                            raise Leak(f"scripted {text_a!r} legal in one world only: {refused}")
                        raise AssertionError(f"scripted {text_a!r}/{text_b!r}: {refused}")
                    continue  # refused in both worlds alike: the next step
                scripted += 1
            elif sa.active == observer:
                chosen = None
                if pair.policy is not None:
                    chosen = pair.policy(sa, seat_a, legal_a[seat_a], rng)
                if chosen is None:
                    chosen = _pick(legal_a[seat_a], rng, pair.prefer, pair.done_rate)
                order_a = order_b = chosen
            else:
                # the other side: an order legal in both worlds (world a's list, each
                # pick checked in world b: one list instead of two)
                la = legal_orders(sa, seat_a)
                differ = None
                if hidden is not None and hidden.owner == sa.active:
                    differ = hidden.orders(
                        sa, sb, la, functools.partial(legal_orders, sb, seat_b), rng
                    )
                if differ is not None:
                    order_a, order_b = differ
                else:
                    in_b = functools.partial(is_legal, sb, seat_b)
                    order_a = order_b = _pick(la, rng, pair.prefer, pair.done_rate, ok=in_b)
            if cli is not None and cli_every and (n % cli_every == 0):
                checks += 1
                sa, ea, sb, eb = cli.step(sa, sb, seat_a, order_a, order_b, observer, enemy_ids)
            else:
                sa, ea = apply(sa, seat_a, order_a)
                sb, eb = apply(sb, seat_b, order_b)
        return outcome(n, False, False)


def _refusals(
    sa: GameState, sb: GameState, seat: str, order_a: Order, order_b: Order
) -> tuple[str | None, str | None] | None:
    """The refusal texts of a scripted step's orders in the two worlds (None: accepted);
    None when both are accepted."""
    out: list[str | None] = []
    for state, order in ((sa, order_a), (sb, order_b)):
        try:
            check_order(state, seat, order)
            out.append(None)
        except TkError as exc:
            out.append(exc.message("en") + " | " + exc.message("fi"))
    return None if out == [None, None] else (out[0], out[1])


def contact_on(side: Side, units: set[str]) -> Callable[[GameState, list[Event]], bool]:
    """The observer has (or its events name) a contact on one of ``units``, or one of them
    attacked or was attacked by it: a secret about them is the side's to learn from then."""

    def learned(state: GameState, events: list[Event]) -> bool:
        if any(u in state.contacts[side] for u in units):
            return True
        for e in events:
            d = e.data
            named = any(d.get(k) in units for k in ("attacker", "target", "unit"))
            if named and e.for_side(side) is not None:
                return True
        return False

    return learned


HERE = Path(__file__).parent
