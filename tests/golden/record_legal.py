"""Record ``tests/golden/legal_lists.json`` (run once, from the engine it pins).

    python -m tests.golden.record_legal

The bots choose among ``legal_orders`` with seeded randomness, so the *order* of the lists
is part of every computer game: a list with the same orders in another order changes the
games. This pins the lists of positions of some recorded games (both scenarios, rule
variants, random games in which every order kind is played): at every ``STEP``-th order of a
game, for every seat of the active side, the full list and filtered ones (without recon
cells, without attack-after-move, one unit, some kinds), each as its length and the
SHA-256 of its orders' notation, one per line, in list order.
:mod:`tests.golden.test_legal_lists` replays the games and compares.

Re-run it only for a deliberate, documented change of the lists (say so in the commit).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from taistelukentta.rules import GameState, apply, format_order, legal_orders, new_game, parse_order
from taistelukentta.rules.orders import Order, OrderKind, order_kind
from tests.golden.record_games import scenario_for

HERE = Path(__file__).parent
RECORDED = HERE / "recorded"
GOLDEN = HERE / "legal_lists.json"

GAMES: dict[str, int] = {
    "demo-random-21": 9,
    "demo-random-variants-24": 9,
    "demo-bots-variants-13": 7,
    "terasvalli-bots-1": 8,
    "terasvalli-random-31": 17,
    "exposed-random-3": 11,
}
"""The recorded games and the step between the positions pinned in each."""

KINDS = (
    OrderKind.ATTACK,
    OrderKind.WITHDRAW,
    OrderKind.FIRE,
    order_kind("strike"),
    order_kind("use"),
    order_kind("lay"),
)
"""The kinds of the filtered list ``kinds`` (base and rule-module kinds)."""


def digest(orders: list[Order]) -> list[Any]:
    """[length, SHA-256 of the notation, one order a line]."""
    text = "\n".join(format_order(o) for o in orders)
    return [len(orders), hashlib.sha256(text.encode()).hexdigest()]


def lists_of(state: GameState, seat: str) -> dict[str, list[Any]]:
    """The pinned lists of ``seat`` in ``state``."""
    mine = sorted(u.id for u in state.units.values() if u.seat == seat)
    out = {
        "full": digest(legal_orders(state, seat)),
        "no_recon": digest(legal_orders(state, seat, recon_cells=False)),
        "no_attack_moves": digest(legal_orders(state, seat, attack_moves=False)),
        "kinds": digest(legal_orders(state, seat, kinds=KINDS)),
    }
    if mine:
        out["unit"] = digest(legal_orders(state, seat, unit=mine[len(mine) // 2]))
    return out


def positions(name: str, step: int) -> Iterator[tuple[int, GameState]]:
    """Every ``step``-th position of recorded game ``name`` (the first included)."""
    doc = json.loads((RECORDED / f"{name}.json").read_text(encoding="utf-8"))
    sc = scenario_for(doc["scenario"], doc["options"], doc["scenario_data"])
    state = new_game(sc, doc["seed"])
    for i, (seat, text) in enumerate(doc["orders"]):
        if i % step == 0 and not state.finished:
            yield i, state
        state, _ = apply(state, seat, parse_order(text))


def record() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, step in GAMES.items():
        game: dict[str, Any] = {}
        for i, state in positions(name, step):
            game[str(i)] = {
                seat: lists_of(state, seat)
                for seat in (*state.seats("blue"), "gm")
                if state.side_of_seat(seat) == state.active
            }
        out[name] = game
    return out


def main() -> None:
    doc = record()
    GOLDEN.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    n = sum(len(g) for g in doc.values())
    print(f"{n} positions of {len(doc)} games written to {GOLDEN}")


if __name__ == "__main__":
    main()
