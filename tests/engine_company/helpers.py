"""Small company scenarios and turn helpers."""

from __future__ import annotations

from typing import Any

from taistelukentta.rules import GameState, Order, apply
from taistelukentta.rules.context import Tx
from taistelukentta.rules.engine import new_game
from tests.engine.conftest import build, open_rows

Cell = tuple[int, int]


def company_game(
    *,
    pl1: Cell = (10, 5),
    pl2: Cell = (10, 9),
    reds: list[tuple[str, Cell]] | None = None,
    options: dict[str, Any] | None = None,
    first_side: str = "blue",
    rounds: int = 5,
    width: int = 45,
    height: int = 12,
    extra_blue: list[tuple[Any, ...]] | None = None,
    seed: int | bytes = 7,
) -> GameState:
    """CO ``KP`` at (0,5); platoon 1: ``1JJ`` + ``1R1`` next to it; platoon 2: ``2JJ`` +
    ``2R1``; Red infantry (default one unit far away). ``seed``: an int plays the legacy
    dice and rules, bytes a new game's (issue 8)."""
    blue: list[tuple[Any, ...]] = [
        ("1JJ", "joukkueenjohtaja", pl1, "pl1"),
        ("1R1", "jaakariryhma", (pl1[0], pl1[1] + 1), "pl1"),
        ("2JJ", "joukkueenjohtaja", pl2, "pl2"),
        ("2R1", "jaakariryhma", (pl2[0], pl2[1] + 1), "pl2"),
        *(extra_blue or []),
    ]
    red = [(uid, "motorisoitu_jalkavakiryhma", cell) for uid, cell in (reds or [("R1", (44, 0))])]
    sc = build(
        open_rows(width, height),
        blue,
        red,
        co_cell=(0, 5),
        options=options,
        first_side=first_side,
        rounds=rounds,
    )
    return new_game(sc, seed=seed)


def end_turn(st: GameState) -> GameState:
    """Every seat of the active side says done until the turn passes."""
    side = st.active
    while st.active == side and not st.finished:
        seat = next(s for s in st.seats(side) if s not in st.done)
        st, _ = apply(st, seat, Order.done())
    return st


def surgery(st: GameState, fn: Any) -> GameState:
    """Run ``fn(tx)`` on a working copy (test set-up through the engine's own Tx)."""
    tx = Tx(st)
    fn(tx)
    return tx.finish()
