"""The campaign (RULES.md §17, R-CAMP-1…5): a company's roster carried from battle to battle.

Pure and deterministic: every function takes a :class:`Roster` (an immutable value) and
returns a new one; no I/O, no clock (the caller passes ``when``), no dice. The figures come
from the rule options (``data/options.toml``, ``campaign_*``) the campaign recorded when it
began (:class:`CampaignRules`), never from code.

- **After a battle** (:func:`apply_battle`): the company's VP (never below 0) becomes
  ``campaign_xp_per_vp`` XP and ``campaign_tp_per_vp`` TP each (R-CAMP-1). The XP is
  shared among the units that fought (R-CAMP-2): ``equal`` — the total divided by the
  number of units that fought, rounded down; ``individual`` — each unit the VP of its own
  deeds (enemy units it destroyed × ``destroyed_enemy_vp``, and an equal share, rounded
  down, of each objective it stood on at the end that its side held). A unit DAMAGED at
  the end gets half its share (rounded down; ``campaign_damaged_xp``). Destroyed units
  leave the roster and go to its ``fallen`` list. Every full ``campaign_xp_per_tt`` XP is
  +1 TT (R-CAMP-3; TT = card training + XP // ``campaign_xp_per_tt``, as the engine
  computes it). At ``campaign_veteran_xp`` XP a unit may choose a veteran ability.
- **Between battles** (:func:`apply_action`): ``restore NAME K`` (R-CAMP-4: one TP
  restores ``campaign_tk_per_tp`` lost TK; the cost is rounded up), ``buy CARD NAME``
  (``campaign_unit_costs``), ``ability NAME ABILITY`` (R-CAMP-3), ``rename NAME LABEL``.
  Each change is a :class:`HistoryEntry` holding the roster before it, so the GM can undo
  (:func:`undo`) every change since the last battle, newest first.
"""

from __future__ import annotations

import math
import re
import shlex
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Literal

from taistelukentta.errors import ArgumentError

if TYPE_CHECKING:
    from taistelukentta.content.options import RuleOptions

NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,23}\Z")
"""A roster unit's name: it becomes the unit's id in a battle (notation ``move 1R1 …``)."""

ROSTER_FORMAT = 1


class CampaignError(ArgumentError):
    """A campaign action that the rules refuse; the message says what and why (both
    languages). Nothing has changed."""


def _err(en: str, fi: str) -> CampaignError:
    return CampaignError(en, fi)


# ----------------------------------------------------------------------------- the rules


@dataclass(frozen=True, slots=True)
class CampaignRules:
    """The campaign figures (R-CAMP-1…4), read from the rule options."""

    xp_per_vp: int
    tp_per_vp: int
    xp_share: Literal["equal", "individual"]
    damaged_xp: Literal["half", "full"]
    xp_per_tt: int
    veteran_xp: int
    veteran_max: int
    veteran_abilities: tuple[str, ...]
    tk_per_tp: int
    unit_costs: Mapping[str, int]
    damaged_threshold: int
    """R-TK-1 ``damaged_threshold``: DAMAGED below this percentage of max TK."""

    @classmethod
    def from_options(cls, opts: RuleOptions) -> CampaignRules:
        """From the rule options (a scenario's, or the bundled defaults)."""
        return cls(
            xp_per_vp=opts.campaign_xp_per_vp,
            tp_per_vp=opts.campaign_tp_per_vp,
            xp_share=opts.campaign_xp_share,
            damaged_xp=opts.campaign_damaged_xp,
            xp_per_tt=opts.campaign_xp_per_tt,
            veteran_xp=opts.campaign_veteran_xp,
            veteran_max=opts.campaign_veteran_max,
            veteran_abilities=tuple(opts.campaign_veteran_abilities),
            tk_per_tp=opts.campaign_tk_per_tp,
            unit_costs=dict(opts.campaign_unit_costs),
            damaged_threshold=opts.damaged_threshold,
        )

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> CampaignRules:
        """From the option values a campaign recorded (:meth:`to_dict`)."""
        return cls(
            xp_per_vp=int(d["campaign_xp_per_vp"]),
            tp_per_vp=int(d["campaign_tp_per_vp"]),
            xp_share=d["campaign_xp_share"],
            damaged_xp=d["campaign_damaged_xp"],
            xp_per_tt=int(d["campaign_xp_per_tt"]),
            veteran_xp=int(d["campaign_veteran_xp"]),
            veteran_max=int(d["campaign_veteran_max"]),
            veteran_abilities=tuple(d["campaign_veteran_abilities"]),
            tk_per_tp=int(d["campaign_tk_per_tp"]),
            unit_costs={str(k): int(v) for k, v in d["campaign_unit_costs"].items()},
            damaged_threshold=int(d["damaged_threshold"]),
        )

    def to_dict(self) -> dict[str, Any]:
        """The option values (names as in ``data/options.toml``)."""
        return {
            "campaign_xp_per_vp": self.xp_per_vp,
            "campaign_tp_per_vp": self.tp_per_vp,
            "campaign_xp_share": self.xp_share,
            "campaign_damaged_xp": self.damaged_xp,
            "campaign_xp_per_tt": self.xp_per_tt,
            "campaign_veteran_xp": self.veteran_xp,
            "campaign_veteran_max": self.veteran_max,
            "campaign_veteran_abilities": list(self.veteran_abilities),
            "campaign_tk_per_tp": self.tk_per_tp,
            "campaign_unit_costs": dict(self.unit_costs),
            "damaged_threshold": self.damaged_threshold,
        }


CAMPAIGN_OPTIONS: tuple[str, ...] = (
    "campaign_xp_per_vp",
    "campaign_tp_per_vp",
    "campaign_xp_share",
    "campaign_damaged_xp",
    "campaign_xp_per_tt",
    "campaign_veteran_xp",
    "campaign_veteran_max",
    "campaign_veteran_abilities",
    "campaign_tk_per_tp",
    "campaign_unit_costs",
    "damaged_threshold",
)
"""The rule options a campaign records when it begins."""


# ---------------------------------------------------------------------------- the roster


@dataclass(frozen=True, slots=True)
class RosterUnit:
    """One named unit of the company (R-CAMP-5)."""

    name: str
    """Its name and battle slot: the unit id it has in a battle (e.g. ``1R1``)."""
    card: str
    training: int
    """The card's K (kept so TT needs no card lookup)."""
    xp: int
    strength: int
    max_strength: int
    label: Mapping[str, str] | None = None
    """A display name ``{"fi", "en"}``, or None."""
    abilities: tuple[str, ...] = ()
    """Veteran abilities chosen (R-CAMP-3)."""
    battles: tuple[int, ...] = ()
    """The numbers of the campaign battles it fought."""

    def tt(self, rules: CampaignRules) -> int:
        """TT = K + floor(XP / ``xp_per_tt``) (R-UNIT-1, R-CAMP-3)."""
        return self.training + self.xp // rules.xp_per_tt

    def damaged(self, rules: CampaignRules) -> bool:
        """DAMAGED: TK below ``damaged_threshold`` % of max (R-TK-1)."""
        return self.strength * 100 < rules.damaged_threshold * self.max_strength

    def ability_slots(self, rules: CampaignRules) -> int:
        """Veteran abilities it may have: one per full ``veteran_xp``, at most
        ``veteran_max``."""
        return min(rules.veteran_max, self.xp // rules.veteran_xp)

    def may_choose(self, rules: CampaignRules) -> bool:
        """Whether it may choose a veteran ability now."""
        return len(self.abilities) < self.ability_slots(rules)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "card": self.card,
            "training": self.training,
            "xp": self.xp,
            "strength": self.strength,
            "max_strength": self.max_strength,
            "label": dict(self.label) if self.label else None,
            "abilities": list(self.abilities),
            "battles": list(self.battles),
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> RosterUnit:
        return cls(
            name=str(d["name"]),
            card=str(d["card"]),
            training=int(d["training"]),
            xp=int(d["xp"]),
            strength=int(d["strength"]),
            max_strength=int(d["max_strength"]),
            label=dict(d["label"]) if d.get("label") else None,
            abilities=tuple(d.get("abilities", ())),
            battles=tuple(int(b) for b in d.get("battles", ())),
        )

    def view(self, rules: CampaignRules) -> dict[str, Any]:
        """What a roster page shows of the unit."""
        return {
            "name": self.name,
            "label": dict(self.label) if self.label else None,
            "card": self.card,
            "xp": self.xp,
            "tt": self.tt(rules),
            "strength": self.strength,
            "max_strength": self.max_strength,
            "statuses": ["DAMAGED"] if self.damaged(rules) else [],
            "abilities": list(self.abilities),
            "may_choose_ability": self.may_choose(rules),
            "battles": len(self.battles),
            "next_tt_at": (self.xp // rules.xp_per_tt + 1) * rules.xp_per_tt,
        }


@dataclass(frozen=True, slots=True)
class BattleRecord:
    """One battle of the campaign, as the company saw it."""

    number: int
    game: str
    scenario: str
    winner: str
    victory_points: int
    """The company's (Blue) VP."""
    xp: Mapping[str, int]
    """Unit name → XP gained."""
    tp: int
    fought: tuple[str, ...]
    destroyed: tuple[str, ...]
    left_out: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "game": self.game,
            "scenario": self.scenario,
            "winner": self.winner,
            "victory_points": self.victory_points,
            "xp": dict(self.xp),
            "tp": self.tp,
            "fought": list(self.fought),
            "destroyed": list(self.destroyed),
            "left_out": list(self.left_out),
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> BattleRecord:
        return cls(
            number=int(d["number"]),
            game=str(d["game"]),
            scenario=str(d["scenario"]),
            winner=str(d["winner"]),
            victory_points=int(d["victory_points"]),
            xp={str(k): int(v) for k, v in d["xp"].items()},
            tp=int(d["tp"]),
            fought=tuple(d["fought"]),
            destroyed=tuple(d["destroyed"]),
            left_out=tuple(d.get("left_out", ())),
        )


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """One change of the roster: who, when, what, why; ``before`` makes it undoable."""

    seq: int
    kind: str
    """``created``, ``battle``, ``restore``, ``buy``, ``ability``, ``rename``, ``undo``."""
    actor: str
    when: str
    what: str
    why: str = ""
    before: Mapping[str, Any] | None = None
    """The roster's units and TP before the change (None: not undoable)."""
    undone: bool = False

    def to_dict(self, *, with_before: bool = True) -> dict[str, Any]:
        out: dict[str, Any] = {
            "seq": self.seq,
            "kind": self.kind,
            "actor": self.actor,
            "when": self.when,
            "what": self.what,
            "why": self.why,
            "undone": self.undone,
        }
        if with_before:
            out["before"] = dict(self.before) if self.before is not None else None
        return out

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> HistoryEntry:
        return cls(
            seq=int(d["seq"]),
            kind=str(d["kind"]),
            actor=str(d["actor"]),
            when=str(d["when"]),
            what=str(d["what"]),
            why=str(d.get("why", "")),
            before=d.get("before"),
            undone=bool(d.get("undone", False)),
        )


@dataclass(frozen=True, slots=True)
class Roster:
    """A campaign's state: the company and what happened to it."""

    name: str
    rules: CampaignRules
    tp: int
    units: tuple[RosterUnit, ...]
    fallen: tuple[RosterUnit, ...] = ()
    """Units destroyed in battle (R-CAMP-2: they leave the roster, kept in its history)."""
    battles: tuple[BattleRecord, ...] = ()
    history: tuple[HistoryEntry, ...] = ()

    def unit(self, name: str) -> RosterUnit | None:
        return next((u for u in self.units if u.name == name), None)

    def _need(self, name: str) -> RosterUnit:
        found = self.unit(name)
        if found is None:
            known = ", ".join(u.name for u in self.units) or "-"
            raise _err(
                f"no unit {name!r} in the roster (units: {known})",
                f"vahvuusluettelossa ei ole yksikköä {name!r} (yksiköt: {known})",
            )
        return found

    def _core(self) -> dict[str, Any]:
        return {
            "tp": self.tp,
            "units": [u.to_dict() for u in self.units],
            "fallen": [u.to_dict() for u in self.fallen],
        }

    def _record(
        self, kind: str, actor: str, when: str, what: str, why: str, *, undoable: bool
    ) -> HistoryEntry:
        return HistoryEntry(
            seq=len(self.history) + 1,
            kind=kind,
            actor=actor,
            when=when,
            what=what,
            why=why,
            before=self._core() if undoable else None,
        )

    def to_dict(self) -> dict[str, Any]:
        """The whole state (the database stores this)."""
        return {
            "format": ROSTER_FORMAT,
            "name": self.name,
            "rules": self.rules.to_dict(),
            "tp": self.tp,
            "units": [u.to_dict() for u in self.units],
            "fallen": [u.to_dict() for u in self.fallen],
            "battles": [b.to_dict() for b in self.battles],
            "history": [h.to_dict() for h in self.history],
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Roster:
        return cls(
            name=str(d["name"]),
            rules=CampaignRules.from_dict(d["rules"]),
            tp=int(d["tp"]),
            units=tuple(RosterUnit.from_dict(u) for u in d["units"]),
            fallen=tuple(RosterUnit.from_dict(u) for u in d.get("fallen", ())),
            battles=tuple(BattleRecord.from_dict(b) for b in d.get("battles", ())),
            history=tuple(HistoryEntry.from_dict(h) for h in d.get("history", ())),
        )

    def view(self) -> dict[str, Any]:
        """What every seat of the campaign may see: the company only (nothing of Red)."""
        return {
            "name": self.name,
            "tp": self.tp,
            "units": [u.view(self.rules) for u in self.units],
            "fallen": [u.view(self.rules) for u in self.fallen],
            "battles": [b.to_dict() for b in self.battles],
            "history": [h.to_dict(with_before=False) for h in self.history],
            "undoable": [h.seq for h in undoable_entries(self)],
            "rules": self.rules.to_dict(),
        }


def new_roster(
    name: str,
    units: Iterable[RosterUnit],
    rules: CampaignRules,
    *,
    actor: str,
    when: str,
    tp: int = 0,
    why: str = "",
) -> Roster:
    """A new campaign's roster. CampaignError for a bad or duplicate unit name."""
    if not name.strip() or len(name) > 100:
        raise _err("campaign name: 1…100 characters", "kampanjan nimi: 1…100 merkkiä")
    listed = list(units)
    if not listed:
        raise _err("a campaign needs at least one unit", "kampanjassa on oltava yksikkö")
    seen: set[str] = set()
    for u in listed:
        _check_name(u.name)
        if u.name in seen:
            raise _err(f"unit name {u.name!r} twice", f"yksikön nimi {u.name!r} kahdesti")
        seen.add(u.name)
        if not 0 < u.strength <= u.max_strength or u.xp < 0:
            raise _err(
                f"unit {u.name!r}: strength must be 1…{u.max_strength} and XP ≥ 0",
                f"yksikkö {u.name!r}: TK:n oltava 1…{u.max_strength} ja XP ≥ 0",
            )
    if tp < 0:
        raise _err("TP must be ≥ 0", "TP:n oltava ≥ 0")
    roster = Roster(name=name.strip(), rules=rules, tp=tp, units=tuple(listed))
    entry = roster._record(
        "created",
        actor,
        when,
        f"campaign {roster.name!r}: {len(listed)} units",
        why,
        undoable=False,
    )
    return replace(roster, history=(entry,))


def _check_name(name: str) -> None:
    if not NAME_RE.match(name):
        raise _err(
            f"unit name {name!r}: 1…24 letters A-Z, digits, '_' or '-', starting with a "
            "letter or digit",
            f"yksikön nimi {name!r}: 1…24 kirjainta A-Z, numeroa, '_' tai '-', alussa kirjain "
            "tai numero",
        )


# ---------------------------------------------------------------------- after a battle


@dataclass(frozen=True, slots=True)
class UnitResult:
    """How one roster unit ended a battle."""

    name: str
    strength: int
    """TK at the end (0 = destroyed)."""
    kills: int = 0
    """Enemy units it destroyed (for the ``individual`` XP option)."""
    objective_vp: int = 0
    """Its share of the VP of objectives it held at the end (``individual``)."""


@dataclass(frozen=True, slots=True)
class BattleResult:
    """What a finished battle gives the campaign (built from the game by the caller)."""

    game: str
    scenario: str
    winner: str
    victory_points: int
    """The company's (Blue) VP total."""
    destroyed_enemy_vp: int
    """The scenario's VP per enemy unit destroyed (``individual`` XP)."""
    units: tuple[UnitResult, ...]
    """Every roster unit that fought."""
    left_out: tuple[str, ...] = ()


def xp_awards(result: BattleResult, rules: CampaignRules, roster: Roster) -> dict[str, int]:
    """XP each unit that fought gains (R-CAMP-1, R-CAMP-2); destroyed units get none."""
    total = max(0, result.victory_points) * rules.xp_per_vp
    fought = [r for r in result.units if roster.unit(r.name) is not None]
    out: dict[str, int] = {}
    for r in fought:
        if r.strength <= 0:
            continue
        if rules.xp_share == "equal":
            share = total // len(fought)
        else:
            share = max(0, r.kills * result.destroyed_enemy_vp + r.objective_vp) * rules.xp_per_vp
        unit = roster._need(r.name)
        if rules.damaged_xp == "half" and r.strength * 100 < rules.damaged_threshold * (
            unit.max_strength
        ):
            share //= 2
        out[r.name] = share
    return out


def apply_battle(roster: Roster, result: BattleResult, *, when: str) -> Roster:
    """The roster after a battle (R-CAMP-1…3, R-CAMP-5). Not undoable (the battle happened)."""
    rules = roster.rules
    names = [r.name for r in result.units]
    for n in names:
        roster._need(n)
    if len(set(names)) != len(names):
        raise _err("a unit listed twice in the battle result", "yksikkö kahdesti tuloksessa")
    number = len(roster.battles) + 1
    awards = xp_awards(result, rules, roster)
    tp = max(0, result.victory_points) * rules.tp_per_vp
    ends = {r.name: r for r in result.units}
    units: list[RosterUnit] = []
    fallen = list(roster.fallen)
    destroyed: list[str] = []
    for u in roster.units:
        end = ends.get(u.name)
        if end is None:
            units.append(u)
            continue
        fought = replace(
            u,
            strength=max(0, min(end.strength, u.max_strength)),
            xp=u.xp + awards.get(u.name, 0),
            battles=(*u.battles, number),
        )
        if end.strength <= 0:
            fallen.append(fought)
            destroyed.append(u.name)
        else:
            units.append(fought)
    record = BattleRecord(
        number=number,
        game=result.game,
        scenario=result.scenario,
        winner=result.winner,
        victory_points=result.victory_points,
        xp=awards,
        tp=tp,
        fought=tuple(names),
        destroyed=tuple(destroyed),
        left_out=result.left_out,
    )
    what = (
        f"battle {number} ({result.scenario}): {result.winner}, VP {result.victory_points}, "
        f"+{tp} TP, +{sum(awards.values())} XP"
        + (f", destroyed: {', '.join(destroyed)}" if destroyed else "")
    )
    entry = roster._record("battle", "rules", when, what, "R-CAMP-1…3", undoable=False)
    return replace(
        roster,
        tp=roster.tp + tp,
        units=tuple(units),
        fallen=tuple(fallen),
        battles=(*roster.battles, record),
        history=(*roster.history, entry),
    )


# ----------------------------------------------------------------------- between battles


@dataclass(frozen=True, slots=True)
class Restore:
    """``restore NAME K``: give back K lost TK (R-CAMP-4)."""

    name: str
    tk: int


@dataclass(frozen=True, slots=True)
class Buy:
    """``buy CARD NAME``: a new basic unit (R-CAMP-4)."""

    card: str
    name: str


@dataclass(frozen=True, slots=True)
class Choose:
    """``ability NAME ABILITY``: a veteran ability (R-CAMP-3)."""

    name: str
    ability: str


@dataclass(frozen=True, slots=True)
class Rename:
    """``rename NAME LABEL``: the unit's display name (costs nothing)."""

    name: str
    label: str


Action = Restore | Buy | Choose | Rename

_USAGE_EN = (
    "expected `restore NAME K`, `buy CARD NAME`, `ability NAME ABILITY` or `rename NAME LABEL`"
)
_USAGE_FI = (
    "odotettiin `restore NIMI K`, `buy KORTTI NIMI`, `ability NIMI KYKY` tai `rename NIMI NIMITYS`"
)


def parse_action(text: str) -> Action:
    """One between-battle action from its text. CampaignError naming what is wrong."""
    try:
        words = shlex.split(text)
    except ValueError as exc:
        raise _err(f"{text!r}: {exc}; {_USAGE_EN}", f"{text!r}: {exc}; {_USAGE_FI}") from None
    if len(words) != 3:
        raise _err(f"{text!r}: {_USAGE_EN}", f"{text!r}: {_USAGE_FI}")
    verb, a, b = words
    if verb == "restore":
        if not b.isdigit() or int(b) < 1:
            raise _err(
                f"{text!r}: K must be a whole number ≥ 1 (the TK to restore)",
                f"{text!r}: K:n oltava kokonaisluku ≥ 1 (palautettava TK)",
            )
        return Restore(a, int(b))
    if verb == "buy":
        return Buy(a, b)
    if verb == "ability":
        return Choose(a, b)
    if verb == "rename":
        return Rename(a, b)
    raise _err(f"{text!r}: unknown action {verb!r}; {_USAGE_EN}", f"{text!r}: {_USAGE_FI}")


def restore_cost(tk: int, rules: CampaignRules) -> int:
    """TP for ``tk`` lost TK: one TP per ``tk_per_tp`` (rounded up; R-CAMP-4)."""
    return math.ceil(tk / rules.tk_per_tp)


CardInfo = Mapping[str, tuple[int, int, int]]
"""Unit card id → (max TK, K, card XP): what a bought unit starts with."""


def apply_action(
    roster: Roster,
    action: Action,
    *,
    actor: str,
    when: str,
    cards: CardInfo,
    why: str = "",
) -> Roster:
    """The roster after one between-battle action; CampaignError (nothing changed) when the
    rules refuse it."""
    rules = roster.rules
    if isinstance(action, Restore):
        unit = roster._need(action.name)
        lost = unit.max_strength - unit.strength
        if action.tk > lost:
            raise _err(
                f"{unit.name} has lost {lost} TK; cannot restore {action.tk}",
                f"{unit.name} on menettänyt {lost} TK:ta; ei voi palauttaa {action.tk}",
            )
        cost = restore_cost(action.tk, rules)
        if cost > roster.tp:
            raise _err(
                f"restoring {action.tk} TK costs {cost} TP; the company has {roster.tp}",
                f"{action.tk} TK:n palautus maksaa {cost} TP; komppanialla on {roster.tp}",
            )
        new = replace(unit, strength=unit.strength + action.tk)
        what = f"restore {unit.name} +{action.tk} TK (-{cost} TP)"
        return _changed(roster, "restore", actor, when, what, why, -cost, new)
    if isinstance(action, Buy):
        price = rules.unit_costs.get(action.card)
        if price is None:
            known = ", ".join(f"{c} {p} TP" for c, p in sorted(rules.unit_costs.items())) or "-"
            raise _err(
                f"{action.card!r} cannot be bought (basic units: {known})",
                f"{action.card!r} ei ole ostettavissa (perusyksiköt: {known})",
            )
        card = cards.get(action.card)
        if card is None:
            raise _err(
                f"unknown unit card {action.card!r}", f"tuntematon yksikkökortti {action.card!r}"
            )
        _check_name(action.name)
        if roster.unit(action.name) is not None:
            raise _err(
                f"the roster already has a unit {action.name!r}",
                f"vahvuusluettelossa on jo yksikkö {action.name!r}",
            )
        if price > roster.tp:
            raise _err(
                f"{action.card} costs {price} TP; the company has {roster.tp}",
                f"{action.card} maksaa {price} TP; komppanialla on {roster.tp}",
            )
        max_tk, training, xp = card
        new = RosterUnit(action.name, action.card, training, xp, max_tk, max_tk)
        what = f"buy {action.card} {action.name} (-{price} TP)"
        return _changed(roster, "buy", actor, when, what, why, -price, new)
    if isinstance(action, Choose):
        unit = roster._need(action.name)
        if action.ability not in rules.veteran_abilities:
            known = ", ".join(rules.veteran_abilities) or "-"
            raise _err(
                f"{action.ability!r} is not a veteran ability (choices: {known})",
                f"{action.ability!r} ei ole veteraanikyky (valittavissa: {known})",
            )
        if action.ability in unit.abilities:
            raise _err(
                f"{unit.name} already has {action.ability}",
                f"yksiköllä {unit.name} on jo {action.ability}",
            )
        if not unit.may_choose(rules):
            raise _err(
                f"{unit.name} has {unit.xp} XP and {len(unit.abilities)} veteran abilities; "
                f"one per {rules.veteran_xp} XP, at most {rules.veteran_max}",
                f"yksiköllä {unit.name} on {unit.xp} XP ja {len(unit.abilities)} "
                f"veteraanikykyä; yksi kutakin {rules.veteran_xp} XP:tä kohden, enintään "
                f"{rules.veteran_max}",
            )
        new = replace(unit, abilities=(*unit.abilities, action.ability))
        what = f"ability {unit.name} {action.ability}"
        return _changed(roster, "ability", actor, when, what, why, 0, new)
    unit = roster._need(action.name)
    label = action.label.strip()
    if not label or len(label) > 60:
        raise _err("a display name has 1…60 characters", "nimityksessä 1…60 merkkiä")
    new = replace(unit, label={"fi": label, "en": label})
    return _changed(roster, "rename", actor, when, f"rename {unit.name} {label!r}", why, 0, new)


def _changed(
    roster: Roster,
    kind: str,
    actor: str,
    when: str,
    what: str,
    why: str,
    tp: int,
    unit: RosterUnit,
) -> Roster:
    entry = roster._record(kind, actor, when, what, why, undoable=True)
    units = list(roster.units)
    at = next((i for i, u in enumerate(units) if u.name == unit.name), None)
    if at is None:
        units.append(unit)
    else:
        units[at] = unit
    return replace(roster, tp=roster.tp + tp, units=tuple(units), history=(*roster.history, entry))


def battle_started(roster: Roster, *, actor: str, when: str, what: str) -> Roster:
    """The roster with a ``battle_started`` entry: the changes before it can no longer be
    undone (the next battle has started)."""
    entry = roster._record("battle_started", actor, when, what, "", undoable=False)
    return replace(roster, history=(*roster.history, entry))


def undoable_entries(roster: Roster) -> list[HistoryEntry]:
    """The changes the GM may still undo: those after the last battle (or the start), not
    undone, newest first."""
    out: list[HistoryEntry] = []
    for h in reversed(roster.history):
        if h.kind in ("battle", "battle_started", "created"):
            break
        if h.before is not None and not h.undone:
            out.append(h)
    return out


def undo(roster: Roster, *, actor: str, when: str, seq: int | None = None) -> Roster:
    """The roster with its newest undoable change taken back (``seq``, if given, must be
    that change). CampaignError when nothing can be undone."""
    open_ = undoable_entries(roster)
    if not open_:
        raise _err(
            "nothing to undo since the last battle",
            "viimeisen taistelun jälkeen ei ole mitään peruttavaa",
        )
    last = open_[0]
    if seq is not None and seq != last.seq:
        raise _err(
            f"only the newest change (#{last.seq}) can be undone, not #{seq}",
            f"vain uusimman muutoksen (#{last.seq}) voi perua, ei #{seq}",
        )
    before = last.before
    assert before is not None
    history = [replace(h, undone=True) if h.seq == last.seq else h for h in roster.history]
    entry = HistoryEntry(
        seq=len(history) + 1,
        kind="undo",
        actor=actor,
        when=when,
        what=f"undo #{last.seq}: {last.what}",
    )
    return replace(
        roster,
        tp=int(before["tp"]),
        units=tuple(RosterUnit.from_dict(u) for u in before["units"]),
        fallen=tuple(RosterUnit.from_dict(u) for u in before["fallen"]),
        history=(*history, entry),
    )


def roster_units_named(roster: Roster, names: Sequence[str]) -> list[RosterUnit]:
    """The roster units of ``names`` (CampaignError for an unknown one)."""
    return [roster._need(n) for n in names]
