"""Typed views: what a side, a seat or the game master is shown, as pydantic v2 models.

:func:`taistelukentta.views.view_for` returns one of :class:`SideView`, :class:`SeatView`
or :class:`GMView`. ``model_dump(mode="json")`` of it is exactly the JSON ``tk20 show
--json`` prints (the golden files under ``tests/golden`` pin it); :func:`view_schema` is the
JSON Schema of every view and event model (``tk20 schema``), from which the game server's
OpenAPI document and the browser client's TypeScript types are generated.

Every model forbids unknown keys and is frozen (its sequences are tuples), so a view can be
shared between callers and a renamed field fails type checking instead of silently reading
nothing. A field with a default is *optional*: it is left out of the JSON when it was not
given (``seat_command_points`` in a side's view, ``commanded`` outside a seat's view,
``winner`` before the game ends …), so the JSON keeps the keys the views always had.

Whitelists: a side's copy of anything (a module's section, a pending strike, an event) is
built with :func:`pick` from the model of what that side may see — only the model's fields
are copied, so a key the engine adds to its full record never reaches a side unless it is
added to the side's model on purpose.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, SerializerFunctionWrapHandler, model_serializer

Side = Literal["blue", "red"]
Cell = tuple[int, int]
"""A map cell ``(x, y)``; a JSON array ``[x, y]``."""

M = TypeVar("M", bound="ViewModel")


class ViewModel(BaseModel):
    """Base of every view model: frozen, no unknown keys, optional fields left out of the
    JSON when they were not given."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    _optional: ClassVar[frozenset[str]] = frozenset()

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        cls._optional = frozenset(
            name for name, f in cls.model_fields.items() if not f.is_required()
        )

    @model_serializer(mode="wrap")
    def _leave_out_unset(self, handler: SerializerFunctionWrapHandler) -> Any:
        out = handler(self)
        if self._optional and isinstance(out, dict):
            given = self.model_fields_set
            for name in self._optional:
                if name not in given:
                    out.pop(name, None)
        return out


def _keys(model: type[BaseModel]) -> frozenset[str]:
    """The JSON keys ``model`` declares (a field's alias where it has one)."""
    return frozenset(f.alias or name for name, f in model.model_fields.items())


def pick(model: type[M], raw: Mapping[str, Any]) -> M:
    """``model`` built from the keys of ``raw`` it declares, and only those (a whitelist:
    any other key of ``raw`` is not copied)."""
    keys = _keys(model)
    return model.model_validate({k: v for k, v in raw.items() if k in keys})


def unpicked(model: type[BaseModel], raw: Mapping[str, Any]) -> set[str]:
    """The keys of ``raw`` :func:`pick` would leave out (for tests: a key the engine
    records that no model shows)."""
    return set(raw) - _keys(model)


# --------------------------------------------------------------------------- pieces


class LocalText(ViewModel):
    """A text in Finnish and English."""

    fi: str
    en: str


class MapSize(ViewModel):
    width: int
    height: int


class WeaponView(ViewModel):
    """An own unit's basic weapon with the attack bonus it has now (R-ATK-2)."""

    id: str
    bonus: int
    """Skill + weapon bonus − SHAKEN − pinning (elevation and modules' terms not included)."""
    damage: str
    damage_divisor: int
    damage_type: str
    at_damage: str | None
    range: int
    min_range: int | None
    indirect: bool


class UnitView(ViewModel):
    """A unit as a SPOTTED enemy shows it (R-REC-5): what is seen, not its orders."""

    id: str
    side: Side
    card: str
    name: LocalText
    cell: Cell
    strength: int
    max_strength: int
    statuses: tuple[str, ...]
    armoured: bool
    protection: int
    cover: int


class OwnUnitView(UnitView):
    """An own unit (or any unit in the game master's view): its orders state and weapon."""

    disabled_abilities: dict[str, int]
    """Abilities a sniper hit disabled, with the turn they come back (R-AB-2)."""
    seat: str
    group: str
    action: str | None
    moved: bool
    fired: bool
    reconned: bool
    movement: int
    weapon: WeaponView
    commanded: bool | None = None
    """In a seat's view: whether this seat commands the unit."""


class ContactView(ViewModel):
    """A contact (R-REC-2): a label, a level and what that level shows. ``unit`` only when
    SPOTTED (and always in the game master's view)."""

    label: str
    level: str
    unit: str | None = None
    cell: Cell | None = None
    area: tuple[int, int, int] | None = None
    """``[x0, y0, size]`` of a KNOWN/SUSPECTED contact's area."""
    card: str | None = None


class ObjectiveView(ViewModel):
    id: str
    name: LocalText
    cells: tuple[Cell, ...]
    vp: int
    holder_at_start: Side | None


class SideObjectiveView(ObjectiveView):
    """An objective with what the side knows of who stands on it."""

    own_present: bool
    enemy_seen: bool
    """A SPOTTED enemy stands on it (unseen ones do not count)."""


class GMObjectiveView(ObjectiveView):
    occupied_by: tuple[Side, ...]


class OwnLosses(ViewModel):
    own: tuple[str, ...]


class Losses(ViewModel):
    blue: tuple[str, ...]
    red: tuple[str, ...]


class EventView(ViewModel):
    """One event of the log as the viewer may see it. ``data`` is the dump of the kind's
    whitelist model for the viewer's audience (views/events.py: ``<Kind>Own``,
    ``<Kind>Other`` or ``<Kind>Seen`` for a side, ``<Kind>GM`` for the game master; all in
    the schema's ``$defs``)."""

    seq: int
    kind: str
    data: dict[str, Any]


# --------------------------------------------------------------------------- module sections


class EmptySection(ViewModel):
    """A rule module's section when the viewer sees nothing of it (``{}``)."""


class CommandView(ViewModel):
    """The company module's section (R-LINK, R-CO): Blue's command structure."""

    co_seat: str | None
    co_unit: str | None
    leaderless: bool
    promotion_due: bool
    links: dict[str, bool]
    restored: tuple[str, ...]
    transfers_this_turn: tuple[str, ...]
    tactic_this_turn: bool
    tactics_used: tuple[tuple[int, str], ...]
    """``[turn_no, tactic]`` per tactic used."""
    motti_used: bool
    report_done: bool
    confirmed: tuple[str, ...]
    reconnoitred: tuple[str, ...]
    company_kp: int | None = None
    """After a field promotion (R-LINK-3): the company's KP pool."""


class GMCommandView(CommandView):
    state: dict[str, Any]
    """The module's whole state (game master only)."""


class PendingStrikeView(ViewModel):
    """An own strike on the way, without its timing (R-OFF-2: the delay is secret)."""

    id: str
    kind: str
    weapon: str | None = None
    unit: str | None = None
    observer: str
    cell: Cell


class GMPendingStrikeView(PendingStrikeView):
    side: Side
    seat: str
    requested: int
    due: int
    boost: int
    danger: bool
    contact: str | None = None
    delay: int | None = None
    delay_die: int | None = None
    skilled: bool | None = None


class FireSupportView(ViewModel):
    """The fire-support module's section for a side: own strikes on the way and supply."""

    pending: tuple[PendingStrikeView, ...]
    rounds_left: dict[str, int]
    requests_left: int | None = None
    """Off-board requests left (Blue only, R-OFF-1)."""


class GMFireSupportView(ViewModel):
    pending: tuple[GMPendingStrikeView, ...]
    requests_left: dict[str, int]
    rounds_left: dict[str, int]


class KnownMinefieldCell(ViewModel):
    cell: Cell
    type: str | None


class MinesView(ViewModel):
    """What a side knows of minefields (R-MINE-2…5)."""

    known: tuple[KnownMinefieldCell, ...]
    clear: tuple[Cell, ...]
    in_minefield: dict[str, Cell]
    immobilised: tuple[str, ...]


class MinefieldView(ViewModel):
    id: str
    type: str
    owner: str
    cells: tuple[Cell, ...]


class GMMinesView(ViewModel):
    fields: tuple[MinefieldView, ...] | None = None
    blue: MinesView
    red: MinesView


class AbilitiesView(ViewModel):
    """HIDDEN units and disabled abilities (R-MOR-3, R-AB-2): own units only for a side."""

    hidden: tuple[str, ...]
    disabled: dict[str, dict[str, int]]
    wave_bonus_turn: dict[str, int]


# --------------------------------------------------------------------------- views


class ViewBase(ViewModel):
    format: int
    viewer: str
    side: Side | None
    seat: str | None
    scenario: str
    title: LocalText
    map: MapSize
    turn: int
    """The round (1…``rounds``)."""
    rounds: int
    turn_no: int
    """Side turns played so far, from 1."""
    phase: str
    active_side: Side
    done: tuple[str, ...]
    """Seats of the active side that said ``done`` this phase."""
    finished: bool
    dice: str
    """The dice scheme of the game (``hmac-sha256``; ``mt19937`` for a legacy game)."""
    seed_commitment: str | None
    """SHA-256 of the secret seed (hex), public from the start so the seed can be checked
    when it is revealed after the game; None for a legacy game."""


class SideView(ViewBase):
    """A side's view (R-REC-5): its own units in full, enemy units where a SPOTTED contact
    shows them, its contacts, KP and the events it may see."""

    side: Side
    units: tuple[OwnUnitView | UnitView, ...]
    contacts: tuple[ContactView, ...]
    command_points: dict[str, int]
    destroyed: OwnLosses
    objectives: tuple[SideObjectiveView, ...]
    command: CommandView | EmptySection | None = None
    fire_support: FireSupportView | None = None
    mines: MinesView | None = None
    abilities: AbilitiesView | None = None
    log: tuple[EventView, ...]
    winner: Side | Literal["draw"] | None = None
    victory_points: dict[str, int] | None = None

    def own_units(self) -> list[OwnUnitView]:
        """The side's own units (in view order)."""
        return [u for u in self.units if isinstance(u, OwnUnitView)]

    def enemy_units(self) -> list[UnitView]:
        """The SPOTTED enemy units (in view order)."""
        return [u for u in self.units if not isinstance(u, OwnUnitView)]

    def kp_of(self, seat: str) -> int:
        """The KP the view shows for ``seat`` now."""
        return self.command_points.get(seat, 0)


class SeatView(SideView):
    """A Blue seat's view: its side's view, the units it commands marked (``commanded``)
    and its own KP."""

    seat: str
    seat_command_points: int

    def kp_of(self, seat: str) -> int:
        if seat == self.seat:
            return self.seat_command_points
        return self.command_points.get(seat, 0)


class GMView(ViewBase):
    """The game master's view: everything, secret rolls included."""

    side: None
    units: tuple[OwnUnitView, ...]
    contacts: dict[Side, tuple[ContactView, ...]]
    command_points: dict[str, int]
    destroyed: Losses
    objectives: tuple[GMObjectiveView, ...]
    command: GMCommandView | EmptySection | None = None
    fire_support: GMFireSupportView | EmptySection | None = None
    mines: GMMinesView | EmptySection | None = None
    abilities: AbilitiesView | EmptySection | None = None
    log: tuple[EventView, ...]
    winner: Side | Literal["draw"] | None = None
    victory_points: dict[str, int] | None = None


AnyView = SideView | SeatView | GMView


# --------------------------------------------------------------------------- JSON Schema

SCHEMA_ID = "https://taistelukentta.invalid/schema/views.json"
VIEW_MODELS: tuple[type[ViewModel], ...] = (SideView, SeatView, GMView, EventView)
"""The models whose JSON Schema :func:`view_schema` publishes (every model they use is in
its ``$defs``)."""


def view_schema() -> dict[str, Any]:
    """One JSON Schema (draft 2020-12) document for the views and events: every model under
    ``$defs``, and the document itself accepts any view (a side's, a seat's or the game
    master's). The game server's OpenAPI document and the browser client's TypeScript types
    are generated from it."""
    from pydantic.json_schema import models_json_schema

    from taistelukentta.views.events import GM_EVENT_DATA, SIDE_EVENT_DATA

    models: list[type[BaseModel]] = [*VIEW_MODELS, *SIDE_EVENT_DATA, *GM_EVENT_DATA]
    _, defs = models_json_schema(
        [(m, "validation") for m in models], ref_template="#/$defs/{model}"
    )
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "Taistelukenttä d20 views and events",
        "description": (
            "What tk20 shows a side, a seat or the game master (tk20 show --json) and each "
            "event of the log as that viewer may see it."
        ),
        "$defs": defs["$defs"],
        "anyOf": [{"$ref": f"#/$defs/{m.__name__}"} for m in (SeatView, SideView, GMView)],
    }
