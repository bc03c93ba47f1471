"""The legal-order lists keep their orders *and their order* (issue 7): the bots pick from
them with seeded randomness, so a list in another order changes every computer game.

``tests/golden/legal_lists.json`` was recorded by :mod:`tests.golden.record_legal` from the
engine of before the order handlers were made per-module (each list as its length and the
SHA-256 of its orders' notation, in list order); each recorded game is replayed here and
every pinned list compared: the full list, without recon cells, without attack-after-move,
one unit's, and some kinds' (base and module kinds), of every seat of the active side.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.golden.record_legal import GAMES, GOLDEN, lists_of, positions


def _golden() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(GOLDEN.read_text(encoding="utf-8"))
    return doc


def test_the_pinned_positions_cover_both_scenarios_and_the_module_kinds() -> None:
    doc = _golden()
    assert set(doc) == set(GAMES)
    assert sum(len(g) for g in doc.values()) >= 60
    lengths = [
        lists["full"][0] for g in doc.values() for seats in g.values() for lists in seats.values()
    ]
    assert max(lengths) > 1000 and 1 in lengths  # long lists, and `done` alone


SLOW = {"terasvalli-bots-1"}
"""The longest lists (~half of this file's CPU): in the slow tier."""


@pytest.mark.parametrize(
    "name", [pytest.param(n, marks=[pytest.mark.slow] if n in SLOW else []) for n in GAMES]
)
def test_legal_orders_of_a_recorded_game_keep_their_order(name: str) -> None:
    pinned = _golden()[name]
    seen = 0
    for i, state in positions(name, GAMES[name]):
        for seat, lists in pinned[str(i)].items():
            assert lists_of(state, seat) == lists, f"{name} order {i}, seat {seat}"
            seen += 1
    assert seen >= len(pinned)
