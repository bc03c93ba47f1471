"""Random simulation (issue 4): hundreds of games of random LEGAL orders never crash, keep
the game's invariants after every order, and between them generate and apply every
``OrderKind``; a game replays to the same state hash from the same seed and orders.

Orders are drawn from the engine's ``legal_orders`` (computed from the side's knowledge):
first a kind, uniformly among the kinds listed now (so rare kinds such as ``promote`` or
``boost`` are picked whenever they are legal), then an order of that kind. ``done`` is
drawn with a fixed weight so that turns end.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest

from taistelukentta.content.scenario import Scenario, load_scenario, scenario_from_data
from taistelukentta.rules import GameState, Order, OrderKind, Phase, apply, legal_orders, new_game
from taistelukentta.rules.company import company_kp
from taistelukentta.rules.ruleset import default_ruleset
from tests.engine.conftest import build_data, open_rows

pytestmark = pytest.mark.slow  # hundreds of whole games: the long tier (README, Tests)

SQUAD = "jaakariryhma"
RED = "motorisoitu_jalkavakiryhma"

DONE_WEIGHT = 0.2
"""Chance that a seat says ``done`` when it could do something else."""


@cache
def _bundled(name: str) -> Scenario:
    return load_scenario(name)


def _exposed_co(variant: int) -> Scenario:
    return scenario_from_data(exposed_co_data(variant))


def exposed_co_data(variant: int) -> dict[str, Any]:
    """A small field where the company commander stands weak in front of the enemy (so
    ``promote`` becomes legal once it falls) while a platoon stands beyond the command
    link range (so ``restore`` is legal), with a mortar section for organic fire."""
    width = 30 + variant % 3
    rows = open_rows(width, 9)
    rows[4] = "." * 10 + "FF" + "." * (width - 12)  # a little wood in the middle
    return build_data(
        rows,
        [
            ("KP", "komppanianpaallikko", (6, 4), "co"),
            ("1JJ", "joukkueenjohtaja", (1, 1), "pl1"),
            ("1R1", SQUAD, (2, 1), "pl1"),
            ("2JJ", "joukkueenjohtaja", (width - 2, 8), "pl2"),
            ("2R1", SQUAD, (width - 3, 8), "pl2"),
            ("KRH", "kranaatinheitinryhma", (0, 7), "pl1"),
        ],
        [
            ("R1", RED, (8, 4), "bg1"),
            ("R2", RED, (8, 5), "bg1"),
            ("R3", RED, (9, 3), "bg1"),
            ("B1", "bmp2", (14, 2), "bg2"),
        ],
        rounds=4 + variant % 2,
        objectives=[{"id": "x", "name": "X", "cells": [[12, 4]], "vp": 2}],
    )


def _check_invariants(st: GameState) -> None:
    sc = st.scenario
    gmap = sc.map
    limit = sc.options.stacking_limit
    cells: dict[tuple[int, int], list[str]] = {}
    for u in st.units.values():
        assert 0 <= u.strength <= u.max_strength, u  # TK within 0…max
        assert gmap.in_bounds(u.cell), u
        cells.setdefault(u.cell, []).append(u.side)
    for cell, sides in cells.items():
        assert len(sides) <= limit, (cell, sides)
        assert len(set(sides)) == 1, (cell, sides)
    for seat, kp in st.kp.items():
        assert kp >= 0, (seat, kp)
    assert company_kp(st) >= 0
    for key, spent in st.group_spent.items():
        assert spent >= 0, (key, spent)
    fs = st.ext.get("fire_support") or {}
    for p in fs.get("pending", ()):
        assert p["due"] >= st.turn_no, (p, st.turn_no)
        if p["side"] == st.active and st.phase is not Phase.COMMAND:
            # the requesting side's fire phase of this turn has landed what was due
            assert p["due"] > st.turn_no, (p, st.turn_no)
    mines = st.ext.get("mines") or {}
    for key in mines.get("mined", {}):
        assert gmap.in_bounds(_cell(key)), key
    for known in (mines.get("known") or {}).values():
        for key in known:
            assert gmap.in_bounds(_cell(key)), key


def _cell(key: str) -> tuple[int, int]:
    x, y = key.split(",")
    return int(x), int(y)


def _draw(st: GameState, seat: str, rng: random.Random) -> Order:
    """A random legal order: a kind uniformly among the kinds listed, then an order."""
    orders = legal_orders(st, seat, recon_cells=rng.random() < 0.25)
    if len(orders) == 1 or rng.random() < DONE_WEIGHT:
        return orders[-1]
    by_kind: dict[OrderKind, list[Order]] = {}
    for o in orders[:-1]:
        by_kind.setdefault(o.kind, []).append(o)
    kind = rng.choice(sorted(by_kind))
    return rng.choice(by_kind[kind])


def random_game(
    sc: Scenario, seed: int, max_orders: int, kinds: Counter[OrderKind]
) -> tuple[GameState, list[tuple[str, Order]]]:
    rng = random.Random(seed * 7919 + 1)
    st = new_game(sc, seed)
    played: list[tuple[str, Order]] = []
    _check_invariants(st)
    while not st.finished and len(played) < max_orders:
        seat = next(s for s in st.seats(st.active) if s not in st.done)
        order = _draw(st, seat, rng)
        st, _ = apply(st, seat, order)
        _check_invariants(st)
        kinds[order.kind] += 1
        played.append((seat, order))
    return st, played


def _games() -> Iterator[tuple[Scenario, int, int]]:
    """(scenario, seed, order cap): a seeded mix of demo, terasvalli and small variants."""
    master = random.Random(20261129)
    for _ in range(70):
        yield _bundled("demo"), master.randrange(1 << 30), 160
    for _ in range(12):
        yield _bundled("terasvalli"), master.randrange(1 << 30), 220
    for v in range(120):
        yield _exposed_co(v), master.randrange(1 << 30), 90


def test_random_legal_games_keep_invariants_and_use_every_order_kind() -> None:
    kinds: Counter[OrderKind] = Counter()
    games = 0
    for sc, seed, cap in _games():
        random_game(sc, seed, cap, kinds)
        games += 1
    assert games >= 200
    missing = [k.value for k in default_ruleset().vocabulary.kinds if kinds[k] == 0]
    assert not missing, f"order kinds never generated and applied: {missing} ({kinds})"


def test_r_dice_2_replaying_the_same_orders_gives_the_same_state_hash() -> None:
    for sc, seed in ((_bundled("terasvalli"), 5), (_bundled("demo"), 9), (_exposed_co(1), 3)):
        first, played = random_game(sc, seed, 200, Counter())
        again = new_game(sc, seed)
        for seat, order in played:
            again, _ = apply(again, seat, order)
        assert again.state_hash() == first.state_hash()
        assert len(played) > 20
