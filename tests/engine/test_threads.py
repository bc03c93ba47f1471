"""Several games in one process, on several threads at once (R-DICE-2): games with
different rule options and rulesets give exactly the orders, events and state hashes they
give when each is played alone. Nothing of one game's rules or caches leaks into another's:
the rules are in each game's ruleset and scenario, not in module globals.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

import pytest

from taistelukentta.bots.baseline import BaselineBot
from taistelukentta.bots.runner import bot_seed, run_bots
from taistelukentta.content.scenario import Scenario
from taistelukentta.rules import SIDES, Ruleset, apply, default_ruleset, format_order, new_game
from tests.golden.record_games import VARIANTS, scenario_for

Result = tuple[tuple[str, ...], tuple[str, ...], str, str | None]
"""(seat:order per order, event kinds, final state hash, winner)"""


def _no_mines() -> Ruleset:
    return Ruleset([m for m in default_ruleset().modules if m.name != "mines"])


def _games() -> list[tuple[str, Scenario, int, Ruleset | None]]:
    """(name, scenario, seed, ruleset): demo under three option sets and two rulesets.
    The same scenario objects are shared between the games that use them."""
    plain = scenario_for("demo", {})
    variants = scenario_for("demo", VARIANTS)
    tight = scenario_for("demo", {"stacking_limit": 1, "opposed_tie": "active", "zoc_radius": 2})
    no_mines = _no_mines()
    return [
        ("plain-4", plain, 4, None),
        ("plain-5", plain, 5, None),
        ("variants-4", variants, 4, None),
        ("tight-6", tight, 6, None),
        ("plain-no-mines-4", plain, 4, no_mines),
    ]


def _play(scenario: Scenario, seed: int, ruleset: Ruleset | None) -> Result:
    start = new_game(scenario, seed, ruleset=ruleset)
    bots = {s: BaselineBot(bot_seed(seed, s)) for s in SIDES}
    end, played = run_bots(start, bots)
    # the same orders replayed give the same state (a second pass, interleaved too)
    again = start
    kinds: list[str] = []
    for p in played:
        again, events = apply(again, p.seat, p.order)
        kinds.extend(e.kind for e in events)
    assert again.state_hash() == end.state_hash()
    orders = tuple(f"{p.seat}:{format_order(p.order)}" for p in played)
    return orders, tuple(kinds), end.state_hash(), end.winner


@contextmanager
def _fast_switching() -> Iterator[None]:
    """Make the interpreter switch threads very often, so games really interleave."""
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    try:
        yield
    finally:
        sys.setswitchinterval(old)


FAST_GAMES = ("plain-4", "variants-4", "plain-no-mines-4")
"""The fast tier's games: rule options and a ruleset besides the plain game (each game is
a whole bot game played three times, ~0.3 CPU-s each); the slow tier plays all five."""


@pytest.mark.parametrize(
    "names",
    [pytest.param(FAST_GAMES, id="fast"), pytest.param(None, id="all", marks=pytest.mark.slow)],
)
def test_r_dice_2_games_on_several_threads_give_what_they_give_alone(
    names: tuple[str, ...] | None,
) -> None:
    games = [g for g in _games() if names is None or g[0] in names]
    assert len(games) == len(names or games)
    alone = {name: _play(sc, seed, rs) for name, sc, seed, rs in games}
    # the option sets and rulesets make different games: the test compares real differences
    assert len({r[2] for r in alone.values()}) == len(games)
    assert alone["plain-4"][0] != alone["plain-no-mines-4"][0] or (
        alone["plain-4"][2] != alone["plain-no-mines-4"][2]
    )
    jobs: list[tuple[str, Scenario, int, Ruleset | None]] = [*games, *reversed(games)]
    with _fast_switching(), ThreadPoolExecutor(max_workers=len(jobs)) as pool:
        futures = [(name, pool.submit(_play, sc, seed, rs)) for name, sc, seed, rs in jobs]
        together: list[tuple[str, Any]] = [(name, f.result()) for name, f in futures]
    assert len(together) == 2 * len(games)
    for name, result in together:
        assert result == alone[name], name


def test_r_dice_2_a_ruleset_is_used_only_by_its_own_games() -> None:
    plain = scenario_for("demo", {})
    no_mines = _no_mines()
    with_mines = new_game(plain, 4)
    without = new_game(plain, 4, ruleset=no_mines)
    assert "mines" in default_ruleset().module_names
    assert "mines" not in no_mines.module_names
    # the scenario's minefields are laid by the mines module's game-start hook only
    assert "mines" in with_mines.ext and "mines" not in without.ext
    assert with_mines.state_hash() != without.state_hash()
