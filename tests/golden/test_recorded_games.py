"""Recorded games (R-DICE-2): every game of ``tests/golden/recorded/`` — recorded with the
engine and bots of before the rule-wiring refactor (issue 7) by
:mod:`tests.golden.record_games` — replays from its seed and orders through the public
engine API to the same state hash after every order, and its orders keep their notation.

The games cover the bundled scenarios with the baseline bots on both sides, some with rule
options set to their variants, and games of random legal orders in which every order kind
is played.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from taistelukentta.rules import apply, format_order, new_game, parse_order
from taistelukentta.rules.ruleset import default_ruleset
from taistelukentta.storage.gamefile import FORMAT
from tests.golden.record_games import DICE_SCHEME, scenario_for

RECORDED = Path(__file__).parent / "recorded"
FILES = sorted(RECORDED.glob("*.json"))


def _load(path: Path) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return doc


def test_r_dice_2_the_recorded_games_cover_every_order_kind_and_both_scenarios() -> None:
    kinds: Counter[str] = Counter()
    scenarios: Counter[str | None] = Counter()
    for path in FILES:
        doc = _load(path)
        scenarios[doc["scenario"]] += 1
        for _, text in doc["orders"]:
            kinds[text.split()[0]] += 1
    assert len(FILES) >= 20
    assert scenarios["demo"] >= 12 and scenarios["terasvalli"] >= 2
    assert [k.value for k in default_ruleset().vocabulary.kinds if kinds[k.value] == 0] == []


def _fast_files(files: list[Path]) -> set[Path]:
    """The recorded games the fast tier replays (the slow tier replays them all): the first
    of each family (its name without the number: scenario, players, variants) and then,
    greedily, the game playing most order kinds not yet played, until every order kind of
    the recordings is."""
    kinds = {p: {text.split()[0] for _, text in _load(p)["orders"]} for p in files}
    chosen: dict[str, Path] = {}
    for p in files:
        chosen.setdefault(p.stem.rsplit("-", 1)[0], p)
    fast = set(chosen.values())
    left = set().union(*kinds.values()) - set().union(*(kinds[p] for p in fast))
    while left:
        best = max(files, key=lambda p: (len(kinds[p] & left), -files.index(p)))
        fast.add(best)
        left -= kinds[best]
    return fast


FAST = _fast_files(FILES)


@pytest.mark.parametrize(
    "path",
    [p if p in FAST else pytest.param(p, marks=pytest.mark.slow) for p in FILES],
    ids=[p.stem for p in FILES],
)
def test_r_dice_2_a_recorded_game_replays_to_every_recorded_hash(path: Path) -> None:
    doc = _load(path)
    # files of game-file format version 1: the dice are the game's seeded Mersenne Twister
    assert (doc["format"], doc["version"], doc["dice"]) == (FORMAT, 1, DICE_SCHEME)
    sc = scenario_for(doc["scenario"], doc["options"], doc["scenario_data"])
    hashes: list[str] = doc["hashes"]
    assert len(hashes) == len(doc["orders"]) + 1
    state = new_game(sc, doc["seed"])
    assert state.state_hash() == hashes[0], "initial state"
    for i, (seat, text) in enumerate(doc["orders"]):
        order = parse_order(text)
        assert format_order(order) == text, f"orders[{i}]: notation changed"
        state, _ = apply(state, seat, order)
        assert state.state_hash() == hashes[i + 1], f"orders[{i}] ({seat}: {text!r})"
    assert state.finished == doc["finished"]
