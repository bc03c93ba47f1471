"""Typed events: each event kind's data as the game master, the side it belongs to ("own")
and the other side may see it — a whitelist model per kind and audience (issue 8:
redaction by construction).

A side's copy of an event is *built* from the model of its audience with
:func:`~taistelukentta.views.models.pick`: only the keys the model declares are copied from
the engine's per-side copy (``Event.for_side``, computed from the side's contacts when the
event happened), so a key the engine adds to its record reaches a side only when it is
added here on purpose. A kind without a model for an audience is not shown to it at all
(the same for a kind that has no models: a new kind must be added here before a side sees
it). Which audiences are shown a kind, and whether with its rolls, is decided once, in
``rules.events.SHOWN``, before the side's numbers are drawn; the models here agree with it
(:func:`disagreements`), so a side's numbers never count an event or roll it is not
shown. The game master's models declare the known keys and allow others (the GM sees
everything). Unit references in a side's copy (``UnitRef``) are a unit id (own and
SPOTTED units) or a contact reference ``{contact, card?, area}``.

Who owns an event (``rules.events.owner``): the public kinds (turn flow, game start and
end) have one model for both sides; the company module's kinds are Blue's; otherwise the event's
``side``, else the side of its ``attacker``/``unit``/``observer``, else of its ``seat``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import ConfigDict, Field, model_validator

from taistelukentta.content.scenario import Scenario
from taistelukentta.rules.events import SHOWN, owner
from taistelukentta.views.models import Cell, ViewModel

Audience = Literal["gm", "own", "other"]


class ContactRef(ViewModel):
    """An enemy unit the side knows only as a contact (KNOWN/SUSPECTED)."""

    contact: str
    card: str | None = None
    area: tuple[int, int, int] | None = None


UnitRef = str | ContactRef | None


class RollView(ViewModel):
    """A die roll as logged (R-DICE-2): what was rolled, for what, and the result."""

    seq: int | None = None
    purpose: str | None = None
    expr: str | None = None
    dice: tuple[int, ...] | None = None
    kept: tuple[int, ...] | None = None
    modifier: int | None = None
    total: int | None = None
    secret: bool | None = None


class EventData(ViewModel):
    """Base of a side's event data: the declared keys only (``pick``)."""

    model_config = ConfigDict(
        frozen=True,
        extra="forbid",
        populate_by_name=True,
        serialize_by_alias=True,
        defer_build=True,
    )


class GMEventData(ViewModel):
    """Base of the game master's event data: the known keys typed, others allowed."""

    model_config = ConfigDict(
        frozen=True,
        extra="allow",
        populate_by_name=True,
        serialize_by_alias=True,
        defer_build=True,
    )


class AreaAttackGM(GMEventData):
    attacker: str | None = None
    weapon: str | None = None
    cell: Cell | None = None
    radius: int | None = None
    modifiers: dict[str, Any] | None = None
    bonus: int | None = None
    natural: int | None = None
    total: int | None = None
    targets: tuple[Any, ...] | None = None
    setback: str | None = None
    rolls: tuple[RollView, ...] | None = None


class AreaAttackFields(ViewModel):
    """The fields AreaAttackOther, AreaAttackOwn share (their JSON is the same)."""

    attacker: UnitRef = None
    weapon: str | None = None
    cell: Cell | None = None
    radius: int | None = None
    modifiers: dict[str, Any] | None = None
    bonus: int | None = None
    natural: int | None = None
    total: int | None = None
    targets: tuple[Any, ...] | None = None
    setback: str | None = None
    rolls: tuple[RollView, ...] | None = None


AREA_TARGET_KEYS = frozenset({"target", "defence", "margin", "effect", "damage", "elevation"})
"""What a side's copy may say of each unit an area fire hit (the ones it sees)."""
UNSEEN_AREA_KEYS = frozenset({"attacker", "weapon", "cell", "radius", "targets"})
UNSEEN_AREA_TARGET_KEYS = frozenset({"target", "effect", "damage"})
UNSEEN_ATTACK_KEYS = frozenset({"attacker", "target", "kind", "effect", "damage", "damage_type"})
"""What the target's side is shown of fire whose firer it does not see (R-REC-5): what
happened to its own unit(s) — no roll, total, margin, modifiers or the line's cover, which
would describe the firer and where it stands (rules/fire.py, rules/abilities.py)."""


def _firer_unseen(data: Mapping[str, Any]) -> bool:
    """A copy whose ``attacker`` is not a unit id (a contact reference, or nothing)."""
    return not isinstance(data.get("attacker"), str)


def _only(data: Mapping[str, Any], keys: frozenset[str]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k in keys}


class AreaAttackOther(AreaAttackFields, EventData):
    """The other side's copy (AreaAttackFields) — whitelisted by what it may see: with the
    firer unseen, only the area and its own units' effect and damage; each target named
    only with the keys of :data:`AREA_TARGET_KEYS`."""

    @model_validator(mode="before")
    @classmethod
    def _by_sight(cls, data: Any) -> Any:
        if not isinstance(data, Mapping):
            return data
        unseen = _firer_unseen(data)
        out = _only(data, UNSEEN_AREA_KEYS) if unseen else dict(data)
        targets = out.get("targets")
        if isinstance(targets, list | tuple):
            keys = UNSEEN_AREA_TARGET_KEYS if unseen else AREA_TARGET_KEYS
            out["targets"] = [_only(t, keys) if isinstance(t, Mapping) else t for t in targets]
        return out


class AreaAttackOwn(AreaAttackFields, EventData):
    """The owner side's copy (AreaAttackFields): each target it sees named only with the
    keys of :data:`AREA_TARGET_KEYS`."""

    @model_validator(mode="before")
    @classmethod
    def _targets(cls, data: Any) -> Any:
        if isinstance(data, Mapping) and isinstance(data.get("targets"), list | tuple):
            targets = [
                _only(t, AREA_TARGET_KEYS) if isinstance(t, Mapping) else t for t in data["targets"]
            ]
            return {**data, "targets": targets}
        return data


class AttackVoidGM(GMEventData):
    attacker: str | None = None
    target: str | None = None
    kind: str | None = None
    reason: str | None = None


class AttackVoidOwn(EventData):
    """Fire at a SPOTTED enemy that could not be engaged (it is HIDDEN, R-MOR-3): the
    firer's side learns it by trying; no roll, no reason."""

    attacker: UnitRef = None
    target: UnitRef = None
    kind: str | None = None


class AttackGM(GMEventData):
    attacker: str | None = None
    target: str | None = None
    kind: str | None = None
    modifiers: dict[str, Any] | None = None
    bonus: int | None = None
    advantage: str | None = None
    advantage_reasons: tuple[Any, ...] | None = None
    disadvantage_reasons: tuple[Any, ...] | None = None
    defence: int | None = None
    cover: int | None = None
    natural: int | None = None
    total: int | None = None
    margin: int | None = None
    effect: str | None = None
    damage: int | None = None
    damage_type: str | None = None
    setback: str | None = None
    rolls: tuple[RollView, ...] | None = None
    weapon: str | None = None
    rerolled: bool | None = None


class AttackFields(ViewModel):
    """The fields AttackOther, AttackOwn share (their JSON is the same)."""

    attacker: UnitRef = None
    target: UnitRef = None
    kind: str | None = None
    modifiers: dict[str, Any] | None = None
    bonus: int | None = None
    advantage: str | None = None
    advantage_reasons: tuple[Any, ...] | None = None
    disadvantage_reasons: tuple[Any, ...] | None = None
    defence: int | None = None
    cover: int | None = None
    natural: int | None = None
    total: int | None = None
    margin: int | None = None
    effect: str | None = None
    damage: int | None = None
    damage_type: str | None = None
    setback: str | None = None
    rolls: tuple[RollView, ...] | None = None
    weapon: str | None = None
    rerolled: bool | None = None


class AttackOther(AttackFields, EventData):
    """The other side's copy (AttackFields) — with the firer unseen, only the keys of
    :data:`UNSEEN_ATTACK_KEYS`, whatever the engine put in it."""

    @model_validator(mode="before")
    @classmethod
    def _by_sight(cls, data: Any) -> Any:
        if isinstance(data, Mapping) and _firer_unseen(data):
            return _only(data, UNSEEN_ATTACK_KEYS)
        return data


class AttackOwn(AttackFields, EventData):
    """The owner side's copy (AttackFields)."""


class CoLostGM(GMEventData):
    unit: str | None = None
    leaderless: bool | None = None


class CoLostOwn(EventData):
    unit: UnitRef = None
    leaderless: bool | None = None


class CommandLinkFields(ViewModel):
    """The fields CommandLinkGM, CommandLinkOwn share (their JSON is the same)."""

    out_of_link: tuple[Any, ...] | None = None


class CommandLinkGM(CommandLinkFields, GMEventData):
    """The game master's copy (CommandLinkFields)."""


class CommandLinkOwn(CommandLinkFields, EventData):
    """The owner side's copy (CommandLinkFields)."""


class ConfirmedTargetGM(GMEventData):
    target: str | None = None
    bonus: int | None = None


class ConfirmedTargetOwn(EventData):
    target: UnitRef = None
    bonus: int | None = None


class ContactGM(GMEventData):
    side: str | None = None
    unit: str | None = None
    label: str | None = None
    level: str | None = None
    cell: Cell | None = None
    card: str | None = None
    area: tuple[int, int, int] | None = None


class ContactOwn(EventData):
    side: str | None = None
    unit: UnitRef = None
    level: str | None = None
    cell: Cell | None = None
    card: str | None = None
    area: tuple[int, int, int] | None = None


class DamageGM(GMEventData):
    unit: str | None = None
    amount: int | None = None
    strength: int | None = None
    reason: str | None = None


class DamageFields(ViewModel):
    """The fields DamageOther, DamageOwn share (their JSON is the same)."""

    unit: UnitRef = None
    amount: int | None = None
    strength: int | None = None
    reason: str | None = None


class DamageOther(DamageFields, EventData):
    """The other side's copy (DamageFields)."""


class DamageOwn(DamageFields, EventData):
    """The owner side's copy (DamageFields)."""


class DestroyedGM(GMEventData):
    unit: str | None = None
    cell: Cell | None = None
    reason: str | None = None


class DestroyedFields(ViewModel):
    """The fields DestroyedOther, DestroyedOwn share (their JSON is the same)."""

    unit: UnitRef = None
    cell: Cell | None = None
    reason: str | None = None


class DestroyedOther(DestroyedFields, EventData):
    """The other side's copy (DestroyedFields)."""


class DestroyedOwn(DestroyedFields, EventData):
    """The owner side's copy (DestroyedFields)."""


class FireDirectionFields(ViewModel):
    """The fields FireDirectionGM, FireDirectionOwn share (their JSON is the same)."""

    observer: str | None = None
    need: int | None = None
    ok: bool | None = None
    rolls: tuple[RollView, ...] | None = None


class FireDirectionGM(FireDirectionFields, GMEventData):
    """The game master's copy (FireDirectionFields)."""


class FireDirectionOwn(FireDirectionFields, EventData):
    """The owner side's copy (FireDirectionFields)."""


class GameOverFields(ViewModel):
    """The fields GameOverGM, GameOverSeen share (their JSON is the same)."""

    winner: str | None = None
    reason: str | None = None
    vp: dict[str, Any] | None = None
    detail: dict[str, Any] | None = None
    eliminated: str | None = None


class GameOverGM(GameOverFields, GMEventData):
    """The game master's copy (GameOverFields)."""


class GameOverSeen(GameOverFields, EventData):
    """Either side's copy (GameOverFields)."""


class GameStartedFields(ViewModel):
    """The fields GameStartedGM, GameStartedSeen share (their JSON is the same)."""

    scenario: str | None = None
    rounds: int | None = None
    dice: str | None = None
    seed_commitment: str | None = None


class GameStartedGM(GameStartedFields, GMEventData):
    """The game master's copy (GameStartedFields)."""


class GameStartedSeen(GameStartedFields, EventData):
    """Either side's copy (GameStartedFields)."""


class HiddenGM(GMEventData):
    unit: str | None = None
    on: bool | None = None
    reason: str | None = None


class HiddenOwn(EventData):
    unit: UnitRef = None
    on: bool | None = None
    reason: str | None = None


class KpFields(ViewModel):
    """The fields KpGM, KpOwn share (their JSON is the same)."""

    seat: str | None = None
    kp: int | None = None
    pool: str | None = None


class KpGM(KpFields, GMEventData):
    """The game master's copy (KpFields)."""


class KpOwn(KpFields, EventData):
    """The owner side's copy (KpFields)."""


class KpTransferFields(ViewModel):
    """The fields KpTransferGM, KpTransferOwn share (their JSON is the same)."""

    from_: str | None = Field(default=None, alias="from")
    to: str | None = None
    kp: int | None = None


class KpTransferGM(KpTransferFields, GMEventData):
    """The game master's copy (KpTransferFields)."""


class KpTransferOwn(KpTransferFields, EventData):
    """The owner side's copy (KpTransferFields)."""


class MineClearGM(GMEventData):
    unit: str | None = None
    cell: Cell | None = None
    type: str | None = None
    field: str | None = None
    dc: int | None = None
    bonus: int | None = None
    total: int | None = None
    success: bool | None = None
    rolls: tuple[RollView, ...] | None = None
    result: str | None = None
    damage: int | None = None
    damage_type: str | None = None


class MineClearOwn(EventData):
    unit: UnitRef = None
    cell: Cell | None = None
    type: str | None = None
    dc: int | None = None
    bonus: int | None = None
    total: int | None = None
    success: bool | None = None
    rolls: tuple[RollView, ...] | None = None
    result: str | None = None
    damage: int | None = None
    damage_type: str | None = None


class MineFoundGM(GMEventData):
    unit: str | None = None
    cell: Cell | None = None
    type: str | None = None
    how: str | None = None
    field: str | None = None


class MineFoundOwn(EventData):
    unit: UnitRef = None
    cell: Cell | None = None
    type: str | None = None
    how: str | None = None


class MineRushGM(GMEventData):
    unit: str | None = None
    cell: Cell | None = None
    type: str | None = None
    field: str | None = None
    result: str | None = None
    damage: int | None = None
    damage_type: str | None = None
    rolls: tuple[RollView, ...] | None = None


class MineRushOwn(EventData):
    unit: UnitRef = None
    cell: Cell | None = None
    type: str | None = None
    result: str | None = None
    damage: int | None = None
    damage_type: str | None = None
    rolls: tuple[RollView, ...] | None = None


class MineSearchGM(GMEventData):
    unit: str | None = None
    cell: Cell | None = None
    dc: int | None = None
    bonus: int | None = None
    total: int | None = None
    success: bool | None = None
    rolls: tuple[RollView, ...] | None = None
    mined: bool | None = None
    type: str | None = None
    field: str | None = None


class MineSearchOwn(EventData):
    unit: UnitRef = None
    cell: Cell | None = None
    dc: int | None = None
    bonus: int | None = None
    total: int | None = None
    success: bool | None = None
    rolls: tuple[RollView, ...] | None = None
    mined: bool | None = None
    type: str | None = None


class MinefieldsPlacedFields(ViewModel):
    """The fields MinefieldsPlacedGM, MinefieldsPlacedOwn share (their JSON is the same)."""

    side: str | None = None
    fields: tuple[Any, ...] | None = None


class MinefieldsPlacedGM(MinefieldsPlacedFields, GMEventData):
    """The game master's copy (MinefieldsPlacedFields)."""


class MinefieldsPlacedOwn(MinefieldsPlacedFields, EventData):
    """The owner side's copy (MinefieldsPlacedFields)."""


class MinesLaidGM(GMEventData):
    unit: str | None = None
    type: str | None = None
    cells: tuple[Cell, ...] | None = None
    placed: tuple[Cell, ...] | None = None
    field: str | None = None


class MinesLaidOwn(EventData):
    unit: UnitRef = None
    type: str | None = None
    cells: tuple[Cell, ...] | None = None


class MoraleGM(GMEventData):
    unit: str | None = None
    reason: str | None = None
    dc: int | None = None
    bonus: int | None = None
    total: int | None = None
    natural: int | None = None
    outcome: str | None = None
    rolls: tuple[RollView, ...] | None = None
    rolled: str | None = None
    passed_by: str | None = None


class MoraleOther(EventData):
    unit: UnitRef = None
    reason: str | None = None
    dc: int | None = None
    total: int | None = None
    outcome: str | None = None
    rolls: tuple[RollView, ...] | None = None
    rolled: str | None = None
    passed_by: str | None = None


class MoraleOwn(EventData):
    unit: UnitRef = None
    reason: str | None = None
    dc: int | None = None
    bonus: int | None = None
    total: int | None = None
    natural: int | None = None
    outcome: str | None = None
    rolls: tuple[RollView, ...] | None = None
    rolled: str | None = None
    passed_by: str | None = None


class MoveGM(GMEventData):
    unit: str | None = None
    kind: str | None = None
    from_: Cell | None = Field(default=None, alias="from")
    to: Cell | None = None
    path: tuple[Cell, ...] | None = None
    stopped_by: str | None = None


class MoveOther(EventData):
    """Where a SPOTTED enemy went — not which order sent it (attack, withdraw, disengage:
    issue 8); older files' copies with a ``kind`` lose it here."""

    unit: UnitRef = None
    to: Cell | None = None


class MoveOwn(EventData):
    unit: UnitRef = None
    kind: str | None = None
    from_: Cell | None = Field(default=None, alias="from")
    to: Cell | None = None
    path: tuple[Cell, ...] | None = None
    stopped_by: str | None = None


class OrderFields(ViewModel):
    """The fields OrderGM, OrderOwn share (their JSON is the same)."""

    seat: str | None = None
    order: str | None = None
    cost: int | None = None


class OrderGM(OrderFields, GMEventData):
    """The game master's copy (OrderFields)."""


class OrderOwn(OrderFields, EventData):
    """The owner side's copy (OrderFields)."""


class PhaseFields(ViewModel):
    """The fields PhaseGM, PhaseSeen share (their JSON is the same)."""

    phase: str | None = None
    side: str | None = None


class PhaseGM(PhaseFields, GMEventData):
    """The game master's copy (PhaseFields)."""


class PhaseSeen(PhaseFields, EventData):
    """Either side's copy (PhaseFields)."""


class PromotedGM(GMEventData):
    seat: str | None = None
    unit: str | None = None
    company_kp: int | None = None
    by: str | None = None


class PromotedOwn(EventData):
    seat: str | None = None
    unit: UnitRef = None
    company_kp: int | None = None
    by: str | None = None


class RallyGM(GMEventData):
    unit: str | None = None


class RallyFields(ViewModel):
    """The fields RallyOther, RallyOwn share (their JSON is the same)."""

    unit: UnitRef = None


class RallyOther(RallyFields, EventData):
    """The other side's copy (RallyFields)."""


class RallyOwn(RallyFields, EventData):
    """The owner side's copy (RallyFields)."""


class ReconGM(GMEventData):
    unit: str | None = None
    cell: Cell | None = None
    results: tuple[Any, ...] | None = None


class ReconOwn(EventData):
    unit: UnitRef = None
    cell: Cell | None = None
    found: tuple[Any, ...] | None = None
    rolls: tuple[RollView, ...] | None = None


class ReconReportGM(GMEventData):
    cell: Cell | None = None
    unit_co: str | None = None
    dc: int | None = None
    total: int | None = None
    success: bool | None = None
    rolls: tuple[RollView, ...] | None = None
    unit: str | None = None


class ReconReportOther(EventData):
    unit: UnitRef = None
    reconnoitred: bool | None = None


class ReconReportOwn(EventData):
    cell: Cell | None = None
    unit_co: str | None = None
    dc: int | None = None
    total: int | None = None
    success: bool | None = None
    rolls: tuple[RollView, ...] | None = None
    unit: UnitRef = None


class SeatDoneFields(ViewModel):
    """The fields SeatDoneGM, SeatDoneOwn share (their JSON is the same)."""

    seat: str | None = None
    phase: str | None = None
    auto: bool | None = None
    """The seat's phase ended by itself (no unit of it could act)."""
    units: tuple[dict[str, Any], ...] | None = None
    """Own units and why each could not act (``{unit, reason}``)."""


class SeatDoneGM(SeatDoneFields, GMEventData):
    """The game master's copy (SeatDoneFields)."""


class SeatDoneOther(EventData):
    seat: str | None = None
    phase: str | None = None


class SeatDoneOwn(SeatDoneFields, EventData):
    """The owner side's copy (SeatDoneFields)."""


class SetbackGM(GMEventData):
    unit: str | None = None
    setback: str | None = None


class SetbackFields(ViewModel):
    """The fields SetbackOther, SetbackOwn share (their JSON is the same)."""

    unit: UnitRef = None
    setback: str | None = None


class SetbackOther(SetbackFields, EventData):
    """The other side's copy (SetbackFields)."""


class SetbackOwn(SetbackFields, EventData):
    """The owner side's copy (SetbackFields)."""


class SitovaMarkGM(GMEventData):
    unit: str | None = None
    marks: int | None = None


class SitovaMarkFields(ViewModel):
    """The fields SitovaMarkOther, SitovaMarkOwn share (their JSON is the same)."""

    unit: UnitRef = None
    marks: int | None = None


class SitovaMarkOther(SitovaMarkFields, EventData):
    """The other side's copy (SitovaMarkFields)."""


class SitovaMarkOwn(SitovaMarkFields, EventData):
    """The owner side's copy (SitovaMarkFields)."""


class StatusGM(GMEventData):
    unit: str | None = None
    status: str | None = None
    on: bool | None = None
    reason: str | None = None


class StatusFields(ViewModel):
    """The fields StatusOther, StatusOwn share (their JSON is the same)."""

    unit: UnitRef = None
    status: str | None = None
    on: bool | None = None
    reason: str | None = None


class StatusOther(StatusFields, EventData):
    """The other side's copy (StatusFields)."""


class StatusOwn(StatusFields, EventData):
    """The owner side's copy (StatusFields)."""


class StrikeBoostedGM(GMEventData):
    strike: str | None = None
    unit: str | None = None
    bonus: int | None = None


class StrikeBoostedOwn(EventData):
    strike: str | None = None
    unit: UnitRef = None
    bonus: int | None = None


class StrikeCancelledGM(GMEventData):
    strike: str | None = None
    unit: str | None = None
    reason: str | None = None


class StrikeCancelledOwn(EventData):
    strike: str | None = None
    unit: UnitRef = None
    reason: str | None = None


class StrikeHitGM(GMEventData):
    unit: str | None = None
    weapon: str | None = None
    amount: int | None = None
    rolls: tuple[RollView, ...] | None = None
    boost: int | None = None


class StrikeHitOther(EventData):
    unit: UnitRef = None
    amount: int | None = None


class StrikeHitOwn(EventData):
    unit: UnitRef = None
    weapon: str | None = None
    amount: int | None = None
    rolls: tuple[RollView, ...] | None = None
    boost: int | None = None


class StrikeLandedGM(GMEventData):
    strike: str | None = None
    kind: str | None = None
    weapon: str | None = None
    side: str | None = None
    observer: str | None = None
    cells: tuple[Cell, ...] | None = None
    units: tuple[Any, ...] | None = None
    morale: tuple[Any, ...] | None = None
    aimed: Cell | None = None
    corner: int | None = None
    direction: int | None = None
    distance: int | None = None
    rerolled: bool | None = None
    rolls: tuple[RollView, ...] | None = None


class StrikeLandedOther(EventData):
    weapon: str | None = None
    cells: tuple[Cell, ...] | None = None


class StrikeLandedOwn(EventData):
    strike: str | None = None
    kind: str | None = None
    weapon: str | None = None
    side: str | None = None
    observer: str | None = None
    cells: tuple[Cell, ...] | None = None
    aimed: Cell | None = None
    corner: int | None = None
    direction: int | None = None
    distance: int | None = None
    rerolled: bool | None = None
    rolls: tuple[RollView, ...] | None = None


class StrikeOrderedGM(GMEventData):
    id: str | None = None
    kind: str | None = None
    unit: str | None = None
    side: str | None = None
    seat: str | None = None
    observer: str | None = None
    cell: Cell | None = None
    requested: int | None = None
    due: int | None = None
    danger: bool | None = None
    boost: int | None = None
    weapon: str | None = None
    delay: int | None = None
    delay_die: int | None = None
    contact: str | None = None
    skilled: bool | None = None
    rolls: tuple[RollView, ...] | None = None


class StrikeOrderedOwn(EventData):
    id: str | None = None
    kind: str | None = None
    unit: UnitRef = None
    observer: str | None = None
    cell: Cell | None = None
    weapon: str | None = None


class TacticFields(ViewModel):
    """The fields TacticGM, TacticOwn share (their JSON is the same)."""

    tactic: str | None = None
    seat: str | None = None
    cell: Cell | None = None
    radius: int | None = None
    dc: int | None = None
    units: tuple[Any, ...] | None = None


class TacticGM(TacticFields, GMEventData):
    """The game master's copy (TacticFields)."""


class TacticOther(EventData):
    tactic: str | None = None
    cell: Cell | None = None
    radius: int | None = None
    dc: int | None = None


class TacticOwn(TacticFields, EventData):
    """The owner side's copy (TacticFields)."""


class TurnFields(ViewModel):
    """The fields of turn_started and turn_ended, every audience (their JSON is the same)."""

    round: int | None = None
    side: str | None = None
    turn_no: int | None = None


class TurnEndedGM(TurnFields, GMEventData):
    """The game master's copy (TurnFields)."""


class TurnEndedSeen(TurnFields, EventData):
    """Either side's copy (TurnFields)."""


class TurnStartedGM(TurnFields, GMEventData):
    """The game master's copy (TurnFields)."""


class TurnStartedSeen(TurnFields, EventData):
    """Either side's copy (TurnFields)."""


class AbilityDisabledGM(GMEventData):
    attacker: str | None = None
    target: str | None = None
    ability: str | None = None
    until_turn: int | None = None


class AbilityDisabledSeen(EventData):
    attacker: UnitRef = None
    target: UnitRef = None
    ability: str | None = None
    until_turn: int | None = None


class AbilityRestoredGM(GMEventData):
    unit: str | None = None
    ability: str | None = None


class AbilityRestoredOwn(EventData):
    unit: UnitRef = None
    ability: str | None = None


class LinkRestoreGM(GMEventData):
    seat: str | None = None
    unit: str | None = None
    dc: int | None = None
    total: int | None = None
    success: bool | None = None
    rolls: tuple[RollView, ...] | None = None


class LinkRestoreOwn(EventData):
    seat: str | None = None
    unit: UnitRef = None
    dc: int | None = None
    total: int | None = None
    success: bool | None = None
    rolls: tuple[RollView, ...] | None = None


class BumpGM(GMEventData):
    unit: str | None = None
    cell: Cell | None = None
    enemies: tuple[str, ...] | None = None


class BumpOwn(EventData):
    unit: UnitRef = None
    cell: Cell | None = None
    enemies: tuple[str, ...] | None = None


class BumpOther(EventData):
    unit: UnitRef = None
    cell: Cell | None = None


class MineBreachGM(GMEventData):
    unit: str | None = None
    cell: Cell | None = None
    field: str | None = None
    dc: int | None = None
    bonus: int | None = None
    total: int | None = None
    success: bool | None = None
    result: str | None = None
    rolls: tuple[RollView, ...] | None = None


class MineBreachOwn(EventData):
    unit: UnitRef = None
    cell: Cell | None = None
    dc: int | None = None
    bonus: int | None = None
    total: int | None = None
    success: bool | None = None
    result: str | None = None
    rolls: tuple[RollView, ...] | None = None


@dataclass(frozen=True, slots=True)
class Audiences:
    """The models of one event kind: the game master's, its owner side's and the other
    side's (None: that audience sees nothing of it)."""

    gm: type[GMEventData]
    own: type[EventData] | None
    other: type[EventData] | None


EVENT_MODELS: dict[str, Audiences] = {
    "ability_disabled": Audiences(AbilityDisabledGM, AbilityDisabledSeen, AbilityDisabledSeen),
    "ability_restored": Audiences(AbilityRestoredGM, AbilityRestoredOwn, None),
    "bump": Audiences(BumpGM, BumpOwn, BumpOther),
    "link_restore": Audiences(LinkRestoreGM, LinkRestoreOwn, None),
    "mine_breach": Audiences(MineBreachGM, MineBreachOwn, None),
    "mine_triggered": Audiences(MineRushGM, MineRushOwn, None),
    "area_attack": Audiences(AreaAttackGM, AreaAttackOwn, AreaAttackOther),
    "attack": Audiences(AttackGM, AttackOwn, AttackOther),
    "attack_void": Audiences(AttackVoidGM, AttackVoidOwn, None),
    "co_lost": Audiences(CoLostGM, CoLostOwn, None),
    "command_link": Audiences(CommandLinkGM, CommandLinkOwn, None),
    "confirmed_target": Audiences(ConfirmedTargetGM, ConfirmedTargetOwn, None),
    "contact": Audiences(ContactGM, ContactOwn, None),
    "damage": Audiences(DamageGM, DamageOwn, DamageOther),
    "destroyed": Audiences(DestroyedGM, DestroyedOwn, DestroyedOther),
    "fire_direction": Audiences(FireDirectionGM, FireDirectionOwn, None),
    "game_over": Audiences(GameOverGM, GameOverSeen, GameOverSeen),
    "game_started": Audiences(GameStartedGM, GameStartedSeen, GameStartedSeen),
    "hidden": Audiences(HiddenGM, HiddenOwn, None),
    "kp": Audiences(KpGM, KpOwn, None),
    "kp_transfer": Audiences(KpTransferGM, KpTransferOwn, None),
    "mine_clear": Audiences(MineClearGM, MineClearOwn, None),
    "mine_found": Audiences(MineFoundGM, MineFoundOwn, None),
    "mine_rush": Audiences(MineRushGM, MineRushOwn, None),
    "mine_search": Audiences(MineSearchGM, MineSearchOwn, None),
    "minefields_placed": Audiences(MinefieldsPlacedGM, MinefieldsPlacedOwn, None),
    "mines_laid": Audiences(MinesLaidGM, MinesLaidOwn, None),
    "morale": Audiences(MoraleGM, MoraleOwn, MoraleOther),
    "move": Audiences(MoveGM, MoveOwn, MoveOther),
    "order": Audiences(OrderGM, OrderOwn, None),
    "phase": Audiences(PhaseGM, PhaseSeen, PhaseSeen),
    "promoted": Audiences(PromotedGM, PromotedOwn, None),
    "rally": Audiences(RallyGM, RallyOwn, RallyOther),
    "recon": Audiences(ReconGM, ReconOwn, None),
    "recon_report": Audiences(ReconReportGM, ReconReportOwn, ReconReportOther),
    "seat_done": Audiences(SeatDoneGM, SeatDoneOwn, SeatDoneOther),
    "setback": Audiences(SetbackGM, SetbackOwn, SetbackOther),
    "sitova_mark": Audiences(SitovaMarkGM, SitovaMarkOwn, SitovaMarkOther),
    "status": Audiences(StatusGM, StatusOwn, StatusOther),
    "strike_boosted": Audiences(StrikeBoostedGM, StrikeBoostedOwn, None),
    "strike_cancelled": Audiences(StrikeCancelledGM, StrikeCancelledOwn, None),
    "strike_hit": Audiences(StrikeHitGM, StrikeHitOwn, StrikeHitOther),
    "strike_landed": Audiences(StrikeLandedGM, StrikeLandedOwn, StrikeLandedOther),
    "strike_ordered": Audiences(StrikeOrderedGM, StrikeOrderedOwn, None),
    "tactic": Audiences(TacticGM, TacticOwn, TacticOther),
    "turn_ended": Audiences(TurnEndedGM, TurnEndedSeen, TurnEndedSeen),
    "turn_started": Audiences(TurnStartedGM, TurnStartedSeen, TurnStartedSeen),
}


def audience(
    kind: str, gm_data: Mapping[str, Any], side: str, scenario: Scenario | None
) -> Audience:
    """``side``'s audience for an event: ``gm``, ``own`` (its owner, or any side for a
    public kind) or ``other``."""
    if side == "gm":
        return "gm"
    who = owner(kind, gm_data, scenario)
    return "own" if who is None or who == side else "other"


def seen_model(kind: str, aud: Audience) -> type[EventData] | type[GMEventData] | None:
    """The whitelist model of ``kind`` for ``aud`` (None: not shown)."""
    models = EVENT_MODELS.get(kind)
    if models is None:
        return GMEventData if aud == "gm" else None
    return models.gm if aud == "gm" else models.own if aud == "own" else models.other


def disagreements(
    models: Mapping[str, Audiences] = EVENT_MODELS,
    table: Mapping[str, tuple[str, str]] = SHOWN,
) -> list[str]:
    """Where the whitelist models and the engine's table of what each audience is shown
    (``rules.events.SHOWN``) disagree: a kind in one and not the other, a model for an
    audience the table shows nothing (or none for one it shows something), a ``rolls``
    field where the table shows no rolls (or none where it does). Empty when they agree."""
    out: list[str] = []
    for kind in sorted(set(models) | set(table)):
        if kind not in models or kind not in table:
            out.append(f"{kind}: only in {'the models' if kind in models else 'SHOWN'}")
            continue
        pair = models[kind]
        for aud, model, want in (
            ("own", pair.own, table[kind][0]),
            ("other", pair.other, table[kind][1]),
        ):
            have = "none" if model is None else "rolls" if "rolls" in model.model_fields else "data"
            if have != want:
                out.append(f"{kind} ({aud}): model shows {have}, SHOWN says {want}")
    return out


SIDE_EVENT_DATA: tuple[type[EventData], ...] = tuple(
    dict.fromkeys(m for a in EVENT_MODELS.values() for m in (a.own, a.other) if m is not None)
)
GM_EVENT_DATA: tuple[type[GMEventData], ...] = tuple(
    dict.fromkeys(a.gm for a in EVENT_MODELS.values())
)
