"""The terms of an attack: one list of modifiers, each with its rule ID and amount, used
by resolution (:func:`taistelukentta.rules.fire.resolve_fire`), by the exact odds a side
is shown (:func:`taistelukentta.views.estimate.attack_estimate`) and by the computer
player (``bots.knowledge``) — R-ATK-2, R-ATK-3, R-ATK-4, R-ATK-6, R-ATK-7, R-ATK-9, R-TER-2,
R-TER-5, R-MOR-2, R-TK-1.

A recon roll's terms are :func:`recon_terms` (R-REC-1/2), used by the engine's recon and
by ``tk20 odds recon``; a morale test's :func:`morale_terms`. A fire request's terms are
:func:`strike_terms` (R-ORG-1, R-OFF-1…4, R-FD-3/4): the engine's request (delay) and
impact (scatter, damage, morale DC) in ``rules.fire_support``, the footprint odds a side is
shown (``views.strike_estimate`` → ``odds.strike.terms_odds``, ``tk20 odds strike``, the
server's odds and its delay range) and the bot's choice of aim (``bots.commander``) all
build them from the same :class:`StrikeSituation`.

The maths lives in one pure function, :func:`attack_terms`, which turns an
:class:`AttackSituation` (the facts the terms depend on) and the game's rule options into
:class:`AttackTerms`. Who asks decides only which facts go in: resolution gathers the true
ones; a side's odds gather what that side knows (its SPOTTED contact's statuses, its own
units' positions, the public map; a fact it cannot know, such as the target's R-ATK-6
confusion, is left out), and a bot what its view shows. The rule options are always the
scenario's, never the bundled defaults.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from taistelukentta.content.options import RuleOptions
from taistelukentta.dice.expr import DiceExpr
from taistelukentta.dice.opposed import TieRule
from taistelukentta.dice.roller import Advantage
from taistelukentta.rules.strike_geometry import StrikeWeapon

TermKind = Literal["bonus", "advantage", "disadvantage", "defence", "scatter", "delay"]
"""How a term counts: added to a roll's bonus or to the defence, advantage or
disadvantage; a fire request's ``scatter`` (its dice) or ``delay`` (turns added)."""


@dataclass(frozen=True, slots=True)
class Term:
    """One term of a roll: what it is (``name``), the rule that grants it, and how it
    counts (``kind``: added to the ``bonus``, to the ``defence``, or giving advantage or
    disadvantage; ``amount`` is 0 for the last two)."""

    rule: str
    name: str
    amount: int = 0
    kind: TermKind = "bonus"


@dataclass(frozen=True, slots=True)
class ModuleTerm:
    """What a rule module's ``attack_modifiers`` hook adds (its name is the module's)."""

    name: str
    bonus: int = 0
    advantage: bool = False
    disadvantage: bool = False


@dataclass(frozen=True, slots=True)
class AttackSituation:
    """The facts an attack's terms depend on, as the one who asks knows them."""

    skill: int
    """The firer's TT (training, experience; R-ATK-2)."""
    weapon_bonus: int
    """The attack bonus of the weapon it fires (R-UNIT-3)."""
    elevation: int = 0
    """R-TER-5: +1 firing from higher ground (as the map and options give it)."""
    shaken: bool = False
    pinning_penalty: int = 0
    """The firer's pinning penalty (R-ATK-4), 0 when not pinned."""
    protection: int = 10
    """The target's S (R-ATK-3)."""
    cover: int = 0
    """The cover on the line of fire (R-TER-2)."""
    suppressed: bool = False
    confused: bool = False
    flanked: bool = False
    fully_open: bool = False
    """The target's cell is fully open terrain (whether the option applies is decided
    here, with the cover)."""
    fortified: bool = False
    """The target stands in a building (counts with ``fortified_source``
    building_or_position)."""
    fortification: bool = False
    """The target's cell is one of the scenario's fortifications (counts otherwise)."""
    smoke: bool = False
    """The line of fire crosses a smoke cell of the scenario."""
    modules: tuple[ModuleTerm, ...] = ()


@dataclass(frozen=True, slots=True)
class AttackTerms:
    """Every term of one attack, in the order they are logged."""

    terms: tuple[Term, ...]

    @property
    def bonus(self) -> int:
        """The attack's bonus: the sum of its ``bonus`` terms (R-ATK-2)."""
        return sum(t.amount for t in self.terms if t.kind == "bonus")

    @property
    def defence(self) -> int:
        """The target's defence: S + cover (R-ATK-3)."""
        return sum(t.amount for t in self.terms if t.kind == "defence")

    @property
    def advantage(self) -> Advantage:
        """Advantage and disadvantage cancel (R-ATK-7)."""
        return Advantage.of(bool(self.advantage_reasons), bool(self.disadvantage_reasons))

    @property
    def modifiers(self) -> dict[str, int]:
        """The bonus's parts by name, in order (the ``attack`` event's ``modifiers``)."""
        out: dict[str, int] = {}
        for t in self.terms:
            if t.kind == "bonus":
                out[t.name] = out.get(t.name, 0) + t.amount
        return out

    @property
    def advantage_reasons(self) -> list[str]:
        return [t.name for t in self.terms if t.kind == "advantage"]

    @property
    def disadvantage_reasons(self) -> list[str]:
        return [t.name for t in self.terms if t.kind == "disadvantage"]


def attack_terms(s: AttackSituation, opts: RuleOptions) -> AttackTerms:
    """The terms of an attack in situation ``s`` under the game's rule options ``opts``."""
    terms: list[Term] = [
        Term("R-ATK-2", "skill", s.skill),
        Term("R-ATK-2", "weapon", s.weapon_bonus),
    ]
    if s.elevation:
        terms.append(Term("R-TER-5", "elevation", s.elevation))
    if s.shaken:
        terms.append(Term("R-MOR-2", "shaken", -opts.shaken_attack_penalty))
    if s.pinning_penalty:
        terms.append(Term("R-ATK-4", "pinned", -s.pinning_penalty))
    for m in s.modules:
        if m.bonus:
            terms.append(Term("R-ATK-2", m.name, m.bonus))
    if s.suppressed:
        terms.append(Term("R-ATK-7", "suppressed", kind="advantage"))
    if s.confused:
        terms.append(Term("R-ATK-6", "confused", kind="advantage"))
    if s.flanked:
        terms.append(Term("R-ATK-7", "flanked", kind="advantage"))
    if opts.fully_open_advantage and s.fully_open and s.cover == 0:
        terms.append(Term("R-ATK-7", "fully_open", kind="advantage"))
    for m in s.modules:
        if m.advantage:
            terms.append(Term("R-ATK-7", m.name, kind="advantage"))
    building = opts.fortified_source == "building_or_position"
    if s.fortified if building else s.fortification:
        terms.append(Term("R-ATK-7", "fortified", kind="disadvantage"))
    if opts.very_poor_visibility or s.smoke:
        terms.append(Term("R-ATK-7", "poor_visibility", kind="disadvantage"))
    for m in s.modules:
        if m.disadvantage:
            terms.append(Term("R-ATK-7", m.name, kind="disadvantage"))
    terms.append(Term("R-ATK-3", "protection", s.protection, "defence"))
    terms.append(Term("R-TER-2", "cover", s.cover, "defence"))
    return AttackTerms(tuple(terms))


@dataclass(frozen=True, slots=True)
class AttackDamage:
    """The damage an attack rolls (R-ATK-9, R-TK-1): dice, divisor and type."""

    dice: DiceExpr
    divisor: int
    damage_type: str


def attack_damage(
    *,
    damage: str,
    at_damage: str | None,
    damage_type: str,
    target_armoured: bool,
    weakened: DiceExpr | None,
    divisor: int = 1,
) -> AttackDamage:
    """The weapon's dice against this target: its AT dice against an armoured target when
    it has them (R-ATK-9); otherwise its damage, stepped down (``weakened``, with
    ``divisor``) when the firer is DAMAGED and the weapon weakens (R-TK-1)."""
    if target_armoured and at_damage is not None:
        return AttackDamage(DiceExpr.parse(at_damage), 1, "AT")
    if weakened is not None:
        return AttackDamage(weakened, divisor, damage_type)
    return AttackDamage(DiceExpr.parse(damage), 1, damage_type)


@dataclass(frozen=True, slots=True)
class ReconSituation:
    """The facts a recon roll's terms depend on (R-REC-1), as the one who asks knows
    them."""

    skill: int
    """The scout's TT."""
    stealth: int
    """The target's H (stealth)."""
    cover: int
    """The target's cover bonus where it stands (R-TER-2)."""
    elevation: int = 0
    """R-TER-5 (or a drone, R-AB-4): the scout's height modifier."""


@dataclass(frozen=True, slots=True)
class ReconTerms:
    """Everything a recon roll needs (R-REC-1, R-REC-2): the scout's ``bonus`` on its d20,
    the target's ``stealth`` and ``cover`` against the defender's die, and the game's
    options that turn the margin into a contact level. ``terms`` lists the bonus's parts."""

    bonus: int
    stealth: int
    cover: int
    defender_die: DiceExpr
    use_stealth: bool
    tie: TieRule
    known_at: int
    spotted_at: int
    terms: tuple[Term, ...]

    def roll_options(self) -> dict[str, Any]:
        """The keywords of :func:`~taistelukentta.rules.recon.resolve_recon` and
        :func:`~taistelukentta.odds.exact.recon_odds` after their first arguments."""
        return {
            "defender_die": self.defender_die,
            "use_stealth": self.use_stealth,
            "tie": self.tie,
            "known_at": self.known_at,
            "spotted_at": self.spotted_at,
        }


def recon_terms(s: ReconSituation, opts: RuleOptions) -> ReconTerms:
    """The terms of a recon roll under the game's options: one function for resolution
    (:func:`taistelukentta.rules.contacts`) and the odds (``tk20 odds recon``)."""
    terms = [Term("R-REC-1", "skill", s.skill)]
    if s.elevation:
        terms.append(Term("R-TER-5", "elevation", s.elevation))
    return ReconTerms(
        bonus=s.skill + s.elevation,
        stealth=s.stealth,
        cover=s.cover,
        defender_die=DiceExpr.of(opts.recon_defender_die),
        use_stealth=opts.recon_use_stealth,
        tie=opts.opposed_tie,
        known_at=opts.recon_known_at,
        spotted_at=opts.recon_spotted_at,
        terms=tuple(terms),
    )


@dataclass(frozen=True, slots=True)
class MoraleSituation:
    """The facts a morale test's terms depend on (R-MOR-1/2)."""

    morale: int
    """The unit card's M."""
    marks: int = 0
    """Morale marks it carries (the natural-20 variant's, already scaled; R-ATK-5)."""
    strength: int = 0
    """Its strength effects' morale modifier (R-TK-1)."""
    modules: int = 0
    """What the rule modules' ``morale_modifiers`` hooks add (Sitova tuli marks, a
    leaderless company, abilities)."""


@dataclass(frozen=True, slots=True)
class MoraleTerms:
    """Everything a morale test needs: the ``bonus`` on the d20 (its parts in ``terms``)
    and the game's thresholds of the failure outcomes."""

    bonus: int
    suppressed_at: int
    retreat_at: int
    terms: tuple[Term, ...]

    def roll_options(self) -> dict[str, Any]:
        """The keywords of :func:`~taistelukentta.rules.morale.resolve_morale` and
        :func:`~taistelukentta.odds.exact.morale_odds` after ``bonus`` and ``dc``."""
        return {"suppressed_at": self.suppressed_at, "retreat_at": self.retreat_at}


def morale_terms(s: MoraleSituation, opts: RuleOptions) -> MoraleTerms:
    """The terms of a morale test under the game's options: one function for the engine's
    morale and recovery tests (:mod:`taistelukentta.rules.status`) and the odds (``tk20
    odds morale``)."""
    terms = [Term("R-MOR-2", "morale", s.morale)]
    if s.marks:
        terms.append(Term("R-ATK-5", "morale_marks", -s.marks))
    if s.strength:
        terms.append(Term("R-TK-1", "strength", s.strength))
    if s.modules:
        terms.append(Term("R-MOR-4", "modules", s.modules))
    return MoraleTerms(
        bonus=s.morale - s.marks + s.strength + s.modules,
        suppressed_at=opts.morale_suppressed_at,
        retreat_at=opts.morale_retreat_at,
        terms=tuple(terms),
    )


@dataclass(frozen=True, slots=True)
class StrikeSituation:
    """The facts a fire request's terms depend on (R-ORG-1, R-OFF-1…4, R-FD-3/4), as the
    one who asks knows them: the requesting side knows its own observer and support unit
    and its own best contact on the aimed cell."""

    kind: Literal["organic", "off_board"]
    weapon: str
    """Off-board: ``k9`` or ``mlrs``; organic: the support unit's indirect weapon id."""
    contact: Literal["spotted", "known"] = "spotted"
    """The requesting side's contact on the aimed cell (R-OFF-4: a KNOWN one shifts)."""
    skilled: bool = False
    """The observer's TT reaches ``skilled_observer_skill`` (R-FD-3)."""
    boost: int = 0
    """The CO's boost of an organic strike, added to its damage (R-FD-4)."""
    damage_soft: str | None = None
    """Organic: the support weapon's damage dice (its card)."""
    damage_armoured: str | None = None
    """Organic: its dice against an armoured target (its AT dice, else its damage)."""
    damage_type: str | None = None
    armoured_damage_type: str | None = None


@dataclass(frozen=True, slots=True)
class StrikeTerms:
    """Everything a fire request needs from order to impact, under the game's options:
    the impact area (``size`` cells square off-board, ``radius`` around the aimed cell
    organic), the scatter (mode, the KNOWN contact's extra shift, the skilled observer's
    reroll), the delay in the side's own turns, the damage dice per target type with the
    boost added after the damage type, the morale DC of the units in and next to the area,
    and the danger-close d6. ``terms`` lists what the situation changed, with rule IDs."""

    kind: Literal["organic", "off_board"]
    weapon: str
    size: int
    radius: int
    requests: int
    contact: Literal["spotted", "known"]
    scatter: str | None
    """Off-board: the ``scatter`` mode (R-OFF-4); None: organic fire does not scatter."""
    known_shift: bool
    reroll: bool
    delay_mode: Literal["fixed", "d6_table", "by_calibre"]
    delay_min: int
    delay_max: int
    delay_minus: int
    """Turns taken off the rolled delay (R-FD-3 ``delay_minus_1``; at least 1 remains)."""
    damage_soft: str
    damage_armoured: str
    damage_type: str | None
    """Applied to soft targets (None: the amount counts as rolled)."""
    armoured_damage_type: str | None
    bonus: int
    morale_dc: int
    per_unit: bool
    """Damage rolled for each unit hit (else once per dice expression)."""
    hits_hidden: bool
    danger_close_hit_max: int
    """An own unit under the strike takes half damage on a d6 of at most this (R-FD-5)."""
    terms: tuple[Term, ...]

    def weapon_shape(self) -> StrikeWeapon:
        """The off-board weapon's footprint and dice (``rules.strike_geometry``)."""
        return StrikeWeapon(
            self.weapon, self.size, self.damage_soft, self.damage_armoured, self.requests
        )

    def delay(self, rolled: int) -> int:
        """The delay after the skilled observer's reduction (at least 1 turn)."""
        return max(1, rolled - self.delay_minus)

    def scatter_options(self) -> dict[str, Any]:
        """The keywords of :func:`~taistelukentta.rules.fire_support.roll_scatter` and
        :func:`~taistelukentta.odds.strike.strike_odds` after weapon, aimed cell and
        contact."""
        return {
            "scatter": self.scatter or "corner",
            "known_shift": self.known_shift,
            "reroll": self.reroll,
        }


def strike_terms(s: StrikeSituation, opts: RuleOptions) -> StrikeTerms:
    """The terms of a fire request under the game's options: one function for the
    engine's request and impact (:mod:`taistelukentta.rules.fire_support`), the odds a
    side is shown (``views.strike_estimate``, ``tk20 odds strike``, the server's odds)
    and the computer player's choice of aim (``bots.commander``)."""
    terms: list[Term] = []
    if s.kind == "organic":
        if s.damage_soft is None:
            raise ValueError("an organic strike's terms need the support weapon's damage")
        soft = s.damage_soft
        if s.boost:
            terms.append(Term("R-FD-4", "boost", s.boost))
        r = opts.organic_area_radius
        return StrikeTerms(
            kind="organic",
            weapon=s.weapon,
            size=2 * r + 1,
            radius=r,
            requests=0,
            contact=s.contact,
            scatter=None,
            known_shift=False,
            reroll=False,
            delay_mode="fixed",
            delay_min=opts.organic_delay,
            delay_max=opts.organic_delay,
            delay_minus=0,
            damage_soft=soft,
            damage_armoured=s.damage_armoured or soft,
            damage_type=s.damage_type,
            armoured_damage_type=s.armoured_damage_type or s.damage_type,
            bonus=s.boost,
            morale_dc=opts.organic_morale_dc,
            per_unit=opts.strike_damage_per_unit,
            hits_hidden=opts.strike_hits_hidden,
            danger_close_hit_max=opts.danger_close_hit_max,
            terms=tuple(terms),
        )
    if s.weapon == "k9":
        size, soft, requests = opts.k9_area, opts.k9_damage_soft, 1
        armoured = opts.k9_damage_armoured
    elif s.weapon == "mlrs":
        size, soft, requests = opts.mlrs_area, opts.mlrs_damage_soft, opts.mlrs_requests
        armoured = opts.mlrs_damage_armoured
    else:
        raise ValueError(f"unknown strike type {s.weapon!r}; choose k9 or mlrs")
    terms.append(Term("R-OFF-4", "scatter", 0, "scatter"))
    known_shift = opts.known_contact_shift == "d2_d8_direction"
    if s.contact == "known" and known_shift:
        terms.append(Term("R-OFF-4", "known_contact", 0, "scatter"))
    reroll = s.skilled and opts.skilled_observer == "reroll_scatter_die"
    if reroll:
        terms.append(Term("R-FD-3", "skilled_observer", 0, "scatter"))
    delay_minus = 1 if s.skilled and opts.skilled_observer == "delay_minus_1" else 0
    if delay_minus:
        terms.append(Term("R-FD-3", "skilled_observer", -delay_minus, "delay"))
    by_calibre = opts.off_board_delay == "by_calibre"
    lo, hi = (2, 5) if by_calibre else (1, 3)
    return StrikeTerms(
        kind="off_board",
        weapon=s.weapon,
        size=size,
        radius=0,
        requests=requests,
        contact=s.contact,
        scatter=opts.scatter,
        known_shift=known_shift,
        reroll=reroll,
        delay_mode="by_calibre" if by_calibre else "d6_table",
        delay_min=max(1, lo - delay_minus),
        delay_max=max(1, hi - delay_minus),
        delay_minus=delay_minus,
        damage_soft=soft,
        damage_armoured=armoured,
        damage_type=None,
        armoured_damage_type=None,
        bonus=0,
        morale_dc=opts.off_board_morale_dc,
        per_unit=opts.strike_damage_per_unit,
        hits_hidden=opts.strike_hits_hidden,
        danger_close_hit_max=opts.danger_close_hit_max,
        terms=tuple(terms),
    )
