"""The terms of an attack: one list of modifiers, each with its rule ID and amount, used
by resolution (:func:`taistelukentta.rules.fire.resolve_fire`), by the exact odds a side
is shown (:func:`taistelukentta.views.estimate.attack_estimate`) and by the computer
player (``bots.knowledge``) — R-ATK-2, R-ATK-3, R-ATK-4, R-ATK-6, R-ATK-7, R-ATK-9, R-TER-2,
R-TER-5, R-MOR-2, R-TK-1.

A recon roll's terms are :func:`recon_terms` (R-REC-1/2), used by the engine's recon and
by ``tk20 odds recon``.

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

TermKind = Literal["bonus", "advantage", "disadvantage", "defence"]


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
