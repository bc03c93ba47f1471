"""What a bot may know besides its view: the public rules data (unit cards, the bundled rule
options) and the view's own figures turned into odds. Nothing here reads a game state.

The unit cards are public (every player has the card catalogue on the table); the bot looks
up a card only by the ``card`` id its view shows (own units, and enemy units it has at
least KNOWN). The rule options used are the bundled defaults (a scenario's own options are
public too, but the view carries only the scenario id; the bot's judgement does not need
them exactly).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import cache, lru_cache

from taistelukentta.content.options import RuleOptions, load_options
from taistelukentta.content.terrain import default_terrain
from taistelukentta.content.units import UnitCard, Weapon, load_unit_cards
from taistelukentta.dice.roller import Advantage
from taistelukentta.odds.exact import AttackOdds, attack_odds
from taistelukentta.rules.terms import AttackSituation, AttackTerms, attack_terms
from taistelukentta.views.models import OwnUnitView, UnitView

Cell = tuple[int, int]

HIDE_ABILITY = "piiloutuminen"
AREA_ABILITY = "lamauttava_tuli"
PIONEER_ABILITY = "pioneeri"


def cheb(a: Sequence[int], b: Sequence[int]) -> int:
    """Chebyshev distance between two cells given as sequences."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


@cache
def _cards() -> dict[str, UnitCard]:
    return load_unit_cards()


def card(card_id: object) -> UnitCard | None:
    """The public unit card of that id (None for an unknown id)."""
    return _cards().get(str(card_id))


@cache
def default_options() -> RuleOptions:
    """The bundled rule options (DEFAULT readings)."""
    return load_options()


@cache
def cheapest_step() -> float:
    """The smallest movement multiplier of the bundled terrain (a road's): no unit gets
    farther in one move than its movement divided by this."""
    return min(t.move_cost for t in default_terrain() if t.move_cost is not None)


def attack_reach(unit: OwnUnitView, weapon_range: int | None = None) -> int:
    """How far from its cell ``unit`` (an own unit of the view) could fire this turn at
    most: its movement over the cheapest terrain, plus the weapon's range."""
    rng = unit.weapon.range if weapon_range is None else weapon_range
    return int(unit.movement / cheapest_step()) + rng


def has_ability(card_id: object, ability: str) -> bool:
    c = card(card_id)
    return c is not None and any(a.id == ability for a in c.abilities)


@cache
def special_weapons(card_id: str) -> tuple[Weapon, ...]:
    """The card's non-basic direct-fire weapons that fire at a unit (AT weapons and the
    like; not area or indirect weapons)."""
    c = card(card_id)
    if c is None:
        return ()
    return tuple(w for w in c.weapons if not w.basic and not w.area and not w.indirect)


@cache
def area_weapon(card_id: str) -> Weapon | None:
    c = card(card_id)
    if c is None:
        return None
    return next((w for w in c.weapons if w.area), None)


@lru_cache(maxsize=4096)
def rule_odds(
    bonus: int,
    defence: int,
    advantage: Advantage,
    damage: str,
    divisor: int,
    rules: tuple[str, str, int, int],
) -> AttackOdds:
    """``odds.attack_odds`` with the options resolution uses, given as ``rules`` (heavy hit
    extra, natural 20 miss, the heavy-hit and pinning margins): the one place the bots
    turn their terms into exact odds (cached: the bot asks the same often)."""
    heavy, nat20, heavy_margin, pinning_margin = rules
    return attack_odds(
        bonus,
        defence,
        advantage=advantage,
        damage=damage,
        damage_divisor=divisor,
        heavy_hit_extra=heavy,  # type: ignore[arg-type]
        natural20_miss=nat20,  # type: ignore[arg-type]
        heavy_hit_margin=heavy_margin,
        pinning_margin=pinning_margin,
    )


def view_attack_terms(
    attacker: OwnUnitView, target: UnitView, weapon: Weapon | None, opts: RuleOptions
) -> AttackTerms:
    """The terms of an attack (``rules.terms.attack_terms``, as resolution uses them) from
    what the view shows: the firer's own bonus (``weapon.bonus`` of the view — TT with its
    SHAKEN and pinning penalties — less its basic weapon's bonus), the bonus of ``weapon``
    (None: the basic weapon), the target's protection, the cover of its cell and whether it
    shows SUPPRESSED. Terms the view cannot tell (elevation, flanking, open terrain, a
    building) are left out."""
    c = card(attacker.card)
    basic = None
    if c is not None:
        basic = next((w for w in c.weapons if w.id == attacker.weapon.id), None) or next(
            (w for w in c.weapons if w.basic), None
        )
    basic_bonus = basic.attack_bonus if basic is not None else 0
    situation = AttackSituation(
        skill=attacker.weapon.bonus - basic_bonus,
        weapon_bonus=basic_bonus if weapon is None else weapon.attack_bonus,
        protection=target.protection,
        cover=target.cover,
        suppressed="SUPPRESSED" in target.statuses,
    )
    return attack_terms(situation, opts)


def _rules(opts: RuleOptions) -> tuple[str, str, int, int]:
    return (
        str(opts.heavy_hit_extra),
        str(opts.natural20_miss),
        int(opts.heavy_hit_margin),
        int(opts.pinning_margin),
    )


def shot_value(
    attacker: OwnUnitView, target: UnitView, opts: RuleOptions | None = None
) -> tuple[Fraction, Fraction]:
    """(hit chance, expected damage) of ``attacker`` (an own unit of the view) firing its
    basic weapon at ``target`` (a SPOTTED enemy unit of the view), from the view's figures
    and the game's rule options ``opts`` (default: the bundled ones)."""
    opts = opts or default_options()
    w = attacker.weapon
    armoured = target.armoured
    damage = w.at_damage if armoured and w.at_damage else w.damage
    divisor = 1 if armoured and w.at_damage else w.damage_divisor
    terms = view_attack_terms(attacker, target, None, opts)
    bonus, defence, adv = terms.bonus, terms.defence, terms.advantage
    o = rule_odds(bonus, defence, adv, str(damage), divisor, _rules(opts))
    hit, dmg = o.hit + o.heavy_hit, o.expected_damage
    if armoured and not w.at_damage and w.damage_type == "FRAG":
        dmg = _frag_vs_armour(dmg, opts)
    return hit, dmg


def _frag_vs_armour(dmg: Fraction, opts: RuleOptions) -> Fraction:
    """R-ATK-9 ``frag_vs_armour``: FRAG against armour does half (DEFAULT) or nothing."""
    return dmg / 2 if opts.frag_vs_armour == "half" else Fraction(0)


def special_shot_value(
    attacker: OwnUnitView, target: UnitView, weapon_id: str, opts: RuleOptions | None = None
) -> tuple[Fraction, Fraction] | None:
    """(hit chance, expected damage) of ``attacker`` firing its special weapon
    ``weapon_id`` (from its public card) at ``target``: the same terms with the special
    weapon's bonus. None if the card has no such weapon."""
    opts = opts or default_options()
    c = card(attacker.card)
    if c is None:
        return None
    special = next((w for w in c.weapons if w.id == weapon_id), None)
    basic = next((w for w in c.weapons if w.id == attacker.weapon.id), None) or next(
        (w for w in c.weapons if w.basic), None
    )
    if special is None or basic is None:
        return None
    terms = view_attack_terms(attacker, target, special, opts)
    armoured = target.armoured
    damage = special.at_damage if armoured and special.at_damage else special.damage
    o = rule_odds(terms.bonus, terms.defence, terms.advantage, str(damage), 1, _rules(opts))
    hit, dmg = o.hit + o.heavy_hit, o.expected_damage
    if armoured and not special.at_damage and special.damage_type == "FRAG":
        dmg = _frag_vs_armour(dmg, opts)
    return hit, dmg
