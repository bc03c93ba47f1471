"""Non-interference harness (issue 8): two worlds that differ only in one secret of one
side, the same orders, and everything the other side can observe compared byte for byte
until that side legitimately learns the secret.

A *world* is a scenario built from the bundled data with one change. Both worlds start
from the same 256-bit seed. The dice are *coupled* (:class:`CoupledRoller`): a roll's dice
depend only on the seed, its purpose and how many rolls of that purpose came before, so a
roll made in only one world (against a unit only it has) does not shift the others. This
models an unpredictable stream — the game's real HMAC stream gives an observer no way to
tell one position of it from another — while keeping the comparison exact.

The observer's observations after every order (:func:`observe`): the side's view and each
of its seats' views (``tk20 show --as … --json``), every seat's full legal orders
(``tk20 orders --json``), the refusal texts of probe orders naming every enemy unit id of
the scenario and cells around them, and the side's copies of the order's events
(``tk20 order --json``). The orders: the observer picks from its legal orders (the same
list in both worlds, or the test has already failed); the other side plays the orders that
are legal in both worlds (its secret units get only the orders their world allows).
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
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
    legal_orders,
    new_game,
    parse_order,
)
from taistelukentta.rules import context as rules_context
from taistelukentta.rules.state import Side, other_side
from taistelukentta.views import redact, view_for


class CoupledRoller(Roller):
    """Dice keyed by (seed, purpose, count of that purpose so far, die index)."""

    def __init__(self, seed: bytes | int, counts: dict[str, int] | None = None) -> None:
        super().__init__(seed)
        self._counts: dict[str, int] = dict(counts or {})
        self._key = ""
        self._i = 0
        self._base = seed.hex() if isinstance(seed, bytes) else str(seed)

    def _start(self, purpose: str) -> None:
        n = self._counts.get(purpose, 0)
        self._counts[purpose] = n + 1
        self._key = f"{purpose}#{n}"
        self._i = 0

    def roll(self, expr: Any, purpose: str, **kw: Any) -> Any:
        self._start(purpose)
        return super().roll(expr, purpose, **kw)

    def d20(self, purpose: str, **kw: Any) -> Any:
        self._start(purpose)
        return super().d20(purpose, **kw)

    def _die(self, sides: int) -> int:
        h = hashlib.sha256(f"{self._base}|{self._key}|{self._i}".encode()).digest()
        self._i += 1
        return int.from_bytes(h[:8], "big") % sides + 1

    def getstate(self) -> dict[str, Any]:
        return {**super().getstate(), "counts": dict(sorted(self._counts.items()))}


def _coupled(state: GameState) -> Roller:
    base = Roller.from_state(state.roller)
    r = CoupledRoller(base.seed, state.roller.get("counts"))
    r._seq = base.rolls_made
    return r


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


def observe(state: GameState, side: Side, events: list[Event], enemy_ids: list[str]) -> str:
    """Everything ``side`` can read after an order, as one canonical JSON text."""
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
        "legal": {s: [str(o) for o in legal_orders(state, s)] for s in seats},
        "events": redact(events, side, state.scenario),
    }
    refusals: dict[str, str] = {}
    if state.active == side and not state.finished:
        seat = next((s for s in seats if s not in state.done), seats[0])
        for text in _probe_orders(state, side, seat, enemy_ids):
            try:
                check_order(state, seat, parse_order(text))
                refusals[text] = "legal"
            except TkError as exc:
                refusals[text] = exc.message("en") + " | " + exc.message("fi")
    obs["refusals"] = refusals
    return json.dumps(obs, sort_keys=True, ensure_ascii=False)


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


class Leak(AssertionError):
    pass


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
        elif x != y:
            lines.append(f"{path}: {json.dumps(x)[:300]} != {json.dumps(y)[:300]}")

    walk(da, db, "")
    return "\n".join(lines)


def _pick(orders: list[Order], rng: random.Random) -> Order:
    real = [o for o in orders if str(o) != "done"]
    if not real or rng.random() < 0.15:
        return orders[-1]
    return rng.choice(real)


def play_pair(
    a: Scenario,
    b: Scenario,
    observer: Side,
    seed: bytes,
    rng: random.Random,
    learned: Callable[[GameState, list[Event]], bool],
    *,
    steps: int = 120,
    script: list[tuple[str, str, str | None]] | None = None,
) -> Outcome:
    """Play both worlds in lockstep and compare the observer's observations.

    ``learned(state, events)`` tells whether, in that world, the observer has legitimately
    learnt the secret (checked in both worlds after each order; the comparison stops at the
    first order after which it holds in either). ``script``: orders played first, as
    ``(seat, order in world a, order in world b or None = the same)``."""
    enemy = other_side(observer)
    enemy_ids = sorted({p.id for sc in (a, b) for s, _, p in sc.placements() if s == enemy})
    with coupled_dice():
        sa, sb = new_game(a, seed), new_game(b, seed)
        ea = list(sa.events)
        eb = list(sb.events)
        n = 0
        for n in range(steps + 1):
            if learned(sa, ea) or learned(sb, eb):
                return Outcome(n, True, False)
            if _knowledge(sa, enemy) != _knowledge(sb, enemy):
                # The secret's owner knows different things in the two worlds (e.g. the
                # extra unit saw an enemy): from here its visible units may act on it,
                # which the observer may legitimately see.
                return Outcome(n, False, False, diverged=True)
            oa = observe(sa, observer, ea, enemy_ids)
            ob = observe(sb, observer, eb, enemy_ids)
            if oa != ob:
                raise Leak(f"observations of {observer} differ after {n} orders:\n{_diff(oa, ob)}")
            if sa.finished or sb.finished:
                if sa.finished != sb.finished:
                    raise Leak(f"one world ended after {n} orders")
                return Outcome(n, False, True)
            if sa.active != sb.active or sa.phase != sb.phase:
                raise Leak(f"turn flow differs after {n} orders")
            seat_a = next(s for s in sa.seats(sa.active) if s not in sa.done)
            seat_b = next(s for s in sb.seats(sb.active) if s not in sb.done)
            if seat_a != seat_b:
                raise Leak(f"next seat differs after {n} orders: {seat_a} / {seat_b}")
            if script:
                seat, text_a, text_b = script.pop(0)
                order_a, order_b = parse_order(text_a), parse_order(text_b or text_a)
                assert seat == seat_a, (seat, seat_a)
            elif sa.active == observer:
                order_a = order_b = _pick(legal_orders(sa, seat_a), rng)
            else:
                la = legal_orders(sa, seat_a)
                lb = {str(o) for o in legal_orders(sb, seat_b)}
                both = [o for o in la if str(o) in lb]
                order_a = order_b = _pick(both, rng)
            sa, ea = apply(sa, seat_a, order_a)
            sb, eb = apply(sb, seat_b, order_b)
        return Outcome(n, False, False)


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
