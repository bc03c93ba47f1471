"""Attack odds as a side can judge them, for the odds shown before an attack is committed.

:func:`attack_estimate` rebuilds the inputs of a direct-fire attack (R-ATK-2…9) from what
the attacking side knows: its own unit, its SPOTTED contact on the target (type, cell and
the statuses a spotted unit shows), its own units' positions (flanking) and the public map.
It never reads anything a side's contacts do not allow, so the estimate may differ from the
real roll where hidden facts count (e.g. the target's R-ATK-6 confusion).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from taistelukentta.dice.expr import DiceExpr
from taistelukentta.dice.roller import Advantage
from taistelukentta.errors import ArgumentError
from taistelukentta.grid.geometry import Cell, chebyshev
from taistelukentta.odds.exact import AttackOdds, attack_odds
from taistelukentta.rules import GameState
from taistelukentta.rules.context import cache_for
from taistelukentta.rules.recon import ContactLevel
from taistelukentta.rules.state import Side


@dataclass(frozen=True, slots=True)
class AttackEstimate:
    """The inputs of one attack as the attacking side sees them, and its exact odds."""

    attacker: str
    target: str
    origin: Cell
    bonus: int
    defence: int
    advantage: Advantage
    damage: str
    damage_divisor: int
    odds: AttackOdds


def attack_estimate(
    state: GameState, side: Side, attacker: str, target: str, origin: Cell | None = None
) -> AttackEstimate:
    """Odds of ``attacker`` (own unit of ``side``) firing at ``target`` (a SPOTTED contact)
    from ``origin`` (default: where it stands). ArgumentError if either is not known."""
    cache = cache_for(state.scenario)
    opts = cache.opts
    a = state.units.get(attacker)
    if a is None or a.side != side:
        raise ArgumentError(
            f"you have no unit {attacker!r}", f"sinulla ei ole yksikköä {attacker!r}"
        )
    c = state.contacts[side].get(target)
    if c is None or c.level != ContactLevel.SPOTTED or c.cell is None or c.card is None:
        raise ArgumentError(
            f"{target} is not a SPOTTED enemy unit", f"{target} ei ole havaittu vihollisyksikkö"
        )
    t = state.units[target]  # SPOTTED: its statuses are shown to the side (R-REC-5)
    at = a.cell if origin is None else origin
    tcell = c.cell
    card_a = cache.card(a)
    card_t = state.scenario.cards[c.card]
    weapon = card_a.basic_weapon
    bonus = cache.skill(a) + weapon.attack_bonus + cache.elevation(at, tcell)
    if a.shaken is not None:
        bonus -= opts.shaken_attack_penalty
    if a.pinned is not None:
        bonus -= a.pinning_penalty
    sight = cache.sight(at, tcell)
    adv = t.suppressed is not None or _flanked(state, side, attacker, at, tcell)
    if opts.fully_open_advantage and cache.fully_open(tcell) and sight.cover == 0:
        adv = True
    dis = opts.fortified_source == "building_or_position" and "building" in cache.map.features_at(
        tcell
    )
    advantage = Advantage.of(adv, dis)
    defence = card_t.stats.protection + sight.cover
    if card_t.armoured and weapon.at_damage is not None:
        dice, divisor = DiceExpr.parse(weapon.at_damage), 1
    else:
        fp = cache.firepower(a, DiceExpr.parse(weapon.damage))
        dice, divisor = fp.dice, fp.divisor
    odds = attack_odds(
        bonus,
        defence,
        advantage=advantage,
        damage=dice,
        heavy_hit_extra=opts.heavy_hit_extra,
        natural20_miss=opts.natural20_miss,
        damage_divisor=divisor,
        heavy_hit_margin=opts.heavy_hit_margin,
        pinning_margin=opts.pinning_margin,
    )
    return AttackEstimate(attacker, target, at, bonus, defence, advantage, str(dice), divisor, odds)


def _flanked(state: GameState, side: Side, attacker: str, at: Cell, tcell: Cell) -> bool:
    """R-ATK-7 flanking from the side's own unit positions (the attacker at ``at``)."""
    opts = cache_for(state.scenario).opts
    cells = [at if u.id == attacker else u.cell for u in state.units_of(side)]
    angles = [
        math.degrees(math.atan2(c[1] - tcell[1], c[0] - tcell[0]))
        for c in cells
        if 0 < chebyshev(c, tcell) <= opts.flank_radius
    ]
    for i, x in enumerate(angles):
        for y in angles[i + 1 :]:
            diff = abs(x - y) % 360
            if min(diff, 360 - diff) >= opts.flank_min_angle - 1e-9:
                return True
    return False
