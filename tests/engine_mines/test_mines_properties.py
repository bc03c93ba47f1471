"""Minefield properties: random games with mines, legal orders, redaction, the TT test."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st_

from taistelukentta.content.scenario import Scenario
from taistelukentta.rules import (
    GameState,
    Order,
    apply,
    check_order,
    legal_orders,
    new_game,
    view_extras,
)
from taistelukentta.rules.context import cache_for
from taistelukentta.rules.mines import (
    BREACH,
    CLEAR,
    LAY,
    MODULE,
    RUSH,
    SEARCH,
    clear_order,
    known_mines,
    mined_cells,
)
from taistelukentta.rules.orders import OrderKind
from tests.engine.conftest import Dice
from tests.engine_mines.conftest import mined

MINE_KINDS = {CLEAR, RUSH, SEARCH, BREACH, LAY}


def field_scenario(options: dict[str, Any] | None = None) -> Scenario:
    return mined(
        [
            ("1R1", "jaakariryhma", (1, 2)),
            ("1R2", "jaakariryhma", (1, 5)),
            ("P1", "pioneeriryhma", (2, 3)),
            ("V1", "cv9030", (0, 4)),
        ],
        [
            ("R1", "motorisoitu_jalkavakiryhma", (10, 2)),
            ("R2", "motorisoitu_jalkavakiryhma", (10, 5)),
            ("T1", "t72", (11, 3)),
            ("B1", "bmp2", (11, 6)),
        ],
        [
            {"id": "ap", "type": "AP", "shape": "cells", "cells": [[5, y] for y in range(8)]},
            {"id": "at", "type": "AT", "shape": "cells", "cells": [[6, y] for y in range(8)]},
            {"id": "own", "type": "AP", "at": [3, 0], "owner": "blue"},
        ],
        options=options,
        rounds=6,
    )


def invariants(st: GameState) -> None:
    m = st.ext.get(MODULE)
    assert m is not None
    for key, fid in m["mined"].items():
        assert fid in m["fields"], key
    for side in ("blue", "red"):
        assert not set(m["known"][side]) & set(m["clear"][side])
        assert m["clear"][side] == sorted(m["clear"][side])
    for u in st.units.values():
        data = u.ext.get(MODULE) or {}
        pending = data.get("pending")
        if pending is not None:
            assert pending == f"{u.cell[0]},{u.cell[1]}", u
            assert pending in m["known"][u.side]
            assert cache_for(st).movement(u) == 0


def red_field_cells(st: GameState) -> set[tuple[int, int]]:
    m = st.ext[MODULE]
    return {
        (int(k.split(",")[0]), int(k.split(",")[1]))
        for k, fid in m["mined"].items()
        if m["fields"][fid]["owner"] == "red"
    }


def random_game(sc: Scenario, seed: int, max_orders: int = 160) -> tuple[GameState, set[OrderKind]]:
    rng = random.Random(seed)
    st = new_game(sc, seed)
    seen: set[OrderKind] = set()
    n = 0
    while not st.finished and n < max_orders:
        seat = next(s for s in st.seats(st.active) if s not in st.done)
        orders = legal_orders(st, seat, recon_cells=False, attack_moves=False)
        for o in orders:
            if o.kind in MINE_KINDS:
                check_order(st, seat, o)  # every listed mine order passes its check
        mine_orders = [o for o in orders if o.kind in MINE_KINDS]
        if mine_orders and rng.random() < 0.5:
            order = rng.choice(mine_orders)
        else:
            order = orders[-1] if rng.random() < 0.2 else rng.choice(orders)
        st, events = apply(st, seat, order)
        seen.add(order.kind)
        for e in events:
            blue = e.visible.get("blue")
            if blue is not None:
                assert "field" not in blue  # field ids are the GM's
        invariants(st)
        n += 1
    return st, seen


@pytest.mark.parametrize(
    "options",
    [{}, {"mine_triggers_immediately": True}, {"mine_cell_safe_after": False}],
)
def test_r_mine_random_games_keep_invariants_and_list_only_legal_orders(
    options: dict[str, Any],
) -> None:
    sc = field_scenario(options)
    kinds: set[OrderKind] = set()
    for seed in range(6):
        _, seen = random_game(sc, seed)
        kinds |= seen
    assert {SEARCH, LAY} <= kinds
    if not options:
        assert RUSH in kinds or CLEAR in kinds


def test_r_rec_5_blue_view_shows_only_mines_it_found() -> None:
    sc = field_scenario()
    for seed in range(4):
        rng = random.Random(seed)
        st = new_game(sc, seed)
        for _ in range(120):
            if st.finished:
                break
            seat = next(s for s in st.seats(st.active) if s not in st.done)
            orders = legal_orders(st, seat, recon_cells=False, attack_moves=False)
            st, _ = apply(st, seat, rng.choice(orders))
            view = view_extras(st, "blue").get(MODULE, {})
            shown = {tuple(k["cell"]) for k in view.get("known", [])}
            assert shown == set(known_mines(st, "blue"))
            # Blue never sees a Red mined cell it has not found.
            assert not (red_field_cells(st) - set(known_mines(st, "blue"))) & shown
            red_view = view_extras(st, "red").get(MODULE, {})
            assert "fields" not in red_view and "fields" not in view


@settings(max_examples=25, deadline=None)
@given(natural=st_.integers(1, 20), damage=st_.integers(1, 4))
def test_r_mine_3_careful_clearing_succeeds_iff_d20_plus_tt_reaches_dc(
    natural: int, damage: int
) -> None:
    sc = mined(
        [("1R1", "jaakariryhma", (3, 3))],
        [("R1", "t72", (11, 0))],
        [{"id": "f", "type": "AP", "at": [4, 3]}],
    )
    st0 = new_game(sc, 1)
    st0, _ = apply(st0, "pl1", Order.move("1R1", (4, 3)))
    with pytest.MonkeyPatch.context() as mp:
        dice = Dice(mp)
        dice.script(natural, damage, 20)
        st, events = apply(st0, "pl1", clear_order("1R1"))
    ev = next(e for e in events if e.kind == "mine_clear")
    success = natural + 2 >= 14
    assert ev.data["success"] is success
    assert (4, 3) not in mined_cells(st)
    assert st.units["1R1"].strength == (10 if success else 10 - damage)
