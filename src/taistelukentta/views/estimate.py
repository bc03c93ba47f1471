"""Odds as a side can judge them, for the odds shown before an order is committed.

:func:`attack_estimate` rebuilds the inputs of a direct-fire attack (R-ATK-2…9) from what
the attacking side knows: its own unit and the weapon it fires (``with W``: a weapon or a
weapon ability of its card, R-UNIT-3), its SPOTTED contact on the target (type, cell and
the statuses a spotted unit shows), its own units' positions (flanking), the public map,
and the rule modules' attack modifiers (``fire.hook_attack_modifiers``: e.g. a confirmed
target's bonus, R-CO-5), which use the attacking side's knowledge. It never reads anything
a side's contacts do not allow, so the estimate may differ from the real roll where hidden
facts count (e.g. the target's R-ATK-6 confusion).

:func:`strike_estimate` gives the exact footprint odds of an off-board strike
(``odds.strike.strike_odds``, with the contact level the side has on the aimed cell and
the scenario's ``scatter`` option) or the fixed area of an organic strike, and the chance
that each own unit and each SPOTTED enemy is in the impact area.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TYPE_CHECKING

from taistelukentta.content.units import UnitCard, Weapon
from taistelukentta.dice.roller import Advantage
from taistelukentta.errors import ArgumentError, TkError
from taistelukentta.grid.geometry import Cell, chebyshev
from taistelukentta.rules import GameState, UnitState
from taistelukentta.rules.context import ScenarioCache, cache_for
from taistelukentta.rules.fire import disadvantage_facts, hook_module_terms, weapon_damage
from taistelukentta.rules.orders import Order
from taistelukentta.rules.recon import ContactLevel
from taistelukentta.rules.services import AbilitiesApi
from taistelukentta.rules.state import Side
from taistelukentta.rules.terms import (
    AttackSituation,
    StrikeTerms,
    Term,
    attack_terms,
    strike_terms,
)

if TYPE_CHECKING:  # the odds (icepool) are imported only when an estimate is made
    from taistelukentta.odds.exact import AttackOdds
    from taistelukentta.odds.strike import StrikeOdds


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
    weapon: str = ""
    modifiers: tuple[tuple[str, int], ...] = ()
    """The bonus's parts (``skill``, ``weapon``, ``elevation``, ``shaken``, ``pinned``
    and the rule modules' by module name), in the order they were added."""
    advantage_reasons: tuple[str, ...] = ()
    disadvantage_reasons: tuple[str, ...] = ()
    terms: tuple[Term, ...] = ()
    """Every term with its rule ID (``rules.terms.attack_terms``, as resolution uses)."""


def attack_estimate(
    state: GameState,
    side: Side,
    attacker: str,
    target: str,
    origin: Cell | None = None,
    weapon: str | None = None,
) -> AttackEstimate:
    """Odds of ``attacker`` (own unit of ``side``) firing at ``target`` (a SPOTTED contact)
    from ``origin`` (default: where it stands) with ``weapon`` (a weapon id or weapon
    ability of its card; default the basic weapon). ArgumentError if any is not known."""
    cache = cache_for(state)
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
    at = a.cell if origin is None else origin
    card_a = cache.card(a)
    card_t = state.scenario.cards[c.card]
    w, weakened = _weapon(cache, card_a, a, weapon)
    terms = attack_terms(
        known_attack_situation(state, side, replace(a, cell=at), target, w),
        opts,
    )
    bonus = terms.bonus
    advantage = terms.advantage
    defence = terms.defence
    dmg = weapon_damage(cache, a, w, weakened=weakened, target_armoured=card_t.armoured)
    dice, divisor = dmg.dice, dmg.divisor
    from taistelukentta.odds.exact import attack_odds

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
    return AttackEstimate(
        attacker,
        target,
        at,
        bonus,
        defence,
        advantage,
        str(dice),
        divisor,
        odds,
        weapon=w.id,
        modifiers=tuple(terms.modifiers.items()),
        advantage_reasons=tuple(terms.advantage_reasons),
        disadvantage_reasons=tuple(terms.disadvantage_reasons),
        terms=terms.terms,
    )


def _weapon(
    cache: ScenarioCache, card: UnitCard, unit: UnitState, name: str | None
) -> tuple[Weapon, bool]:
    """The weapon ``with NAME`` fires and whether its damage steps down when the firer is
    DAMAGED (R-TK-1): the basic weapon does; a special one as its ability says (the
    ruleset's abilities module's table, R-UNIT-3; without the module, a weapon id of the
    card)."""
    basic = card.basic_weapon
    if name is None or name == basic.id:
        return basic, True
    api = cache.rules.api(AbilitiesApi)
    if api is None:
        found = card.weapon(name)
        if found is None:
            raise ArgumentError(
                f"{unit.id} has no weapon {name!r}", f"yksiköllä {unit.id} ei ole asetta {name!r}"
            ) from None
        return found, False
    try:
        use = api.table.resolve_weapon(card, unit, name)
    except TkError as exc:
        raise ArgumentError(exc.message("en"), exc.message("fi")) from None
    weakened = use.ability.weakens_when_damaged if use.ability is not None else False
    return use.weapon, weakened


def known_attack_situation(
    state: GameState, side: Side, attacker: UnitState, target: str, weapon: Weapon
) -> AttackSituation:
    """The facts of an attack of ``attacker`` (an own unit of ``side``, at the cell it
    fires from) at ``target`` (a SPOTTED contact) as ``side`` knows them: its own unit, the
    statuses a spotted unit shows (R-REC-5), its own units' positions (flanking), the
    public map, and the rule modules' terms (which use the attacking side's knowledge). The
    target's R-ATK-6 confusion is not shown to the firer's side, so it is not counted."""
    cache = cache_for(state.scenario)
    c = state.contacts[side][target]
    assert c.cell is not None and c.card is not None
    t = state.units[target]
    tcell = c.cell
    at = attacker.cell
    return AttackSituation(
        skill=cache.skill(attacker),
        weapon_bonus=weapon.attack_bonus,
        elevation=cache.elevation(at, tcell),
        shaken=attacker.shaken is not None,
        pinning_penalty=attacker.pinning_penalty if attacker.pinned is not None else 0,
        protection=state.scenario.cards[c.card].stats.protection,
        cover=cache.sight(at, tcell).cover,
        suppressed=t.suppressed is not None,
        flanked=_flanked(state, side, attacker.id, at, tcell),
        fully_open=cache.fully_open(tcell),
        **disadvantage_facts(cache, at, tcell),
        modules=hook_module_terms(state, attacker, target),
    )


def _flanked(state: GameState, side: Side, attacker: str, at: Cell, tcell: Cell) -> bool:
    """R-ATK-7 flanking from the side's own unit positions (the attacker at ``at``)."""
    opts = cache_for(state).opts
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


@dataclass(frozen=True, slots=True)
class StrikeExposure:
    """The chance that one unit the side knows of is caught by a strike."""

    unit: str
    own: bool
    cell: Cell
    p_hit: Fraction
    p_morale_test: Fraction


@dataclass(frozen=True, slots=True)
class StrikeEstimate:
    """What a side can know before a fire request: the footprint odds and who is exposed.

    ``odds`` is the exact scatter distribution of an off-board strike (None for an organic
    strike, which does not scatter: ``area`` is then the cells it hits for certain)."""

    kind: str
    weapon: str
    aimed: Cell
    contact: str | None
    scatter: str | None
    odds: StrikeOdds | None
    area: tuple[Cell, ...]
    exposures: tuple[StrikeExposure, ...]
    terms: StrikeTerms | None = None
    """The request's terms (``rules.terms.strike_terms``; None for an organic request
    naming no support unit of the side)."""


def strike_estimate(state: GameState, side: Side, order: Order) -> StrikeEstimate:
    """Odds of a ``strike k9|mlrs X,Y by O`` or ``organic M X,Y by O`` order of ``side``:
    the request's terms (``rules.terms.strike_terms`` from what ``side`` knows: its own
    observer and support unit, its own contact on the aimed cell; the scenario's options),
    the footprint (R-OFF-3/R-OFF-4 exactly as resolution rolls it; R-ORG-1's fixed area)
    and, for each own unit and each SPOTTED enemy, the chance it is in the impact area or
    must test morale."""
    from taistelukentta.rules import fire_support

    if order.kind not in (fire_support.STRIKE, fire_support.ORGANIC) or order.cell is None:
        raise ArgumentError(
            "odds are given for strike and organic orders with a cell",
            "todennäköisyydet annetaan isku- ja tukitulikäskyille, joissa on ruutu",
        )
    cache = cache_for(state)
    aimed = order.cell
    known: list[tuple[str, bool, Cell]] = [(u.id, True, u.cell) for u in state.units_of(side)]
    known += [
        (uid, False, c.cell)
        for uid, c in sorted(state.contacts[side].items())
        if c.level == ContactLevel.SPOTTED and c.cell is not None
    ]
    try:
        situation = fire_support.strike_situation(state, side, order)
    except ValueError as exc:
        if order.kind != fire_support.ORGANIC:
            raise ArgumentError(str(exc), str(exc)) from None
        situation = None  # not the side's support unit: the area alone
    if order.kind == fire_support.ORGANIC:
        area = tuple(fire_support.organic_area(cache, aimed))
        inside = set(area)
        exposures = tuple(
            StrikeExposure(uid, own, cell, Fraction(1), Fraction(1))
            for uid, own, cell in known
            if cell in inside
        )
        terms = None if situation is None else strike_terms(situation, cache.opts)
        weapon = "organic" if situation is None else situation.weapon
        return StrikeEstimate("organic", weapon, aimed, None, None, None, area, exposures, terms)
    assert situation is not None
    terms = strike_terms(situation, cache.opts)
    from taistelukentta.odds.strike import terms_odds

    odds = terms_odds(terms)
    by_offset = {(c.dx, c.dy): c for c in odds.cells}
    out: list[StrikeExposure] = []
    for uid, own, cell in known:
        c = by_offset.get((cell[0] - aimed[0], cell[1] - aimed[1]))
        if c is not None and c.p_morale_test > 0:
            out.append(StrikeExposure(uid, own, cell, c.p_hit, c.p_morale_test))
    area = tuple((aimed[0] + c.dx, aimed[1] + c.dy) for c in odds.cells if c.p_hit > 0)
    return StrikeEstimate(
        "off_board",
        terms.weapon,
        aimed,
        terms.contact,
        terms.scatter,
        odds,
        area,
        tuple(out),
        terms,
    )
