"""A weak attacker's look-ahead over the last rounds (``tactical.LAST_LOOK``): in its side
turn before the last word, the tactical player chooses how its units play that turn — a
**mode** — by playing the rest of the game out in hypothetical worlds built from its side's
view only (:func:`taistelukentta.bots.simworld.build_world`: its own units as the view
shows them, the enemy where its contacts and memory say; Blue's company is public, so a
Red player places every Blue unit; no secret of the scenario, its own dice).

Each mode is played for that side turn by the tactical player with the mode set, then the
game is played to its end by the tactical player (the plain mode) against the baseline
player; the mode with the best mean victory-point margin at the end (R-TURN-2) over the
worlds is played, if it beats the plain mode by ``LAST_LOOK_MARGIN``. The worlds and their
dice are the same for every mode (common random numbers) and come from the player's own
rng. The work is counted in simulated side turns (:data:`LAST_LOOK_WORLDS` worlds times
the modes times the side turns left), never in seconds.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING

from taistelukentta.content.options import RuleOptions
from taistelukentta.views.models import SideView

if TYPE_CHECKING:
    from taistelukentta.bots.tactical import TacticalBot

Cell = tuple[int, int]

MODES = ("default", "hold", "cover")
"""The modes weighed: ``default`` (the tactical player's own turn), ``hold`` (the infantry
keeps its ground and gives no attack order; it still fires from where it stands),
``cover`` (the infantry weighs the threat as a hurt unit does and gives no attack order:
it keeps out of reach). (A fourth, no attack order by the infantry, lost on its own.)"""
FORCE = ""
"""Screening only: a mode played without looking ahead ("" : look ahead)."""
LAST_LOOK_WORLDS = 12
"""Worlds sampled at most per look-ahead (each mode is played in every one)."""
LAST_LOOK_BUDGET = 108
"""Side turns simulated at most per look-ahead, over all modes and worlds: the worlds are
``LAST_LOOK_BUDGET // (modes × side turns left)``, at most :data:`LAST_LOOK_WORLDS`."""
LAST_LOOK_MARGIN = 0.75
"""VP by which a mode's mean must beat ``default`` to be played instead."""
INNER_BUDGET = 600
"""The tactical player's (unit, destination) evaluations per decision in a rollout."""


def choose_mode(
    bot: TacticalBot,
    view: SideView,
    seen: Mapping[str, tuple[Cell, str]],
    options: RuleOptions | None,
) -> tuple[str, dict[str, float], int]:
    """The mode for this side turn, the mean margin per mode and the side turns
    simulated."""
    from taistelukentta.bots.simworld import build_world

    rng = random.Random(bot.rng.getrandbits(62))
    left = 2 * view.rounds - view.turn_no + 1  # side turns left, this one included
    count = min(LAST_LOOK_WORLDS, LAST_LOOK_BUDGET // (len(MODES) * max(1, left)))
    worlds = []
    for _ in range(max(1, count)):
        w = build_world(view, bot, seen, random.Random(rng.getrandbits(62)))
        if w is not None:
            worlds.append((w, rng.getrandbits(62)))
    if not worlds:
        return "default", {}, 0
    scores: dict[str, float] = {}
    played = 0
    for mode in MODES:
        total = 0.0
        for world, seed in worlds:
            margin, n = _rollout(bot, world, view.side, mode, seed)
            total += margin
            played += n
        scores[mode] = total / len(worlds)
    best = max(MODES, key=lambda m: (scores[m], -MODES.index(m)))
    if scores[best] < scores["default"] + LAST_LOOK_MARGIN:
        best = "default"
    return best, scores, played


def _rollout(bot: TacticalBot, world: object, side: str, mode: str, seed: int) -> tuple[float, int]:
    """Play ``mode`` for ``side``'s turn in ``world`` and the rest of the game with the
    tactical player (plain) against the baseline player: the VP margin at the end and the
    side turns played."""
    from taistelukentta.bots.baseline import BaselineBot
    from taistelukentta.bots.players import Player
    from taistelukentta.bots.runner import run_bots
    from taistelukentta.bots.tactical import TacticalBot
    from taistelukentta.rules import GameState
    from taistelukentta.rules.state import Side
    from taistelukentta.rules.victory import score

    assert isinstance(world, GameState)
    own: Side = "red" if side == "red" else "blue"
    enemy: Side = "blue" if own == "red" else "red"
    hands = TacticalBot(seed, "normal", INNER_BUDGET, look=False)
    hands.remember(bot)
    hands.force_mode(world.turn_no, mode)
    bots: dict[Side, Player] = {own: hands, enemy: BaselineBot(seed + 1)}
    state, _ = run_bots(world, bots)
    vp = (
        state.vp
        if state.finished and state.vp is not None
        else score(state.scenario, state.units, state.destroyed)[0]
    )
    return float(vp[own] - vp[enemy]), max(1, state.turn_no - world.turn_no + 1)


__all__ = ["LAST_LOOK_MARGIN", "LAST_LOOK_WORLDS", "MODES", "choose_mode"]
