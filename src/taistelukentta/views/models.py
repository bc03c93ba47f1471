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

from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel

from taistelukentta.rules.abilities import AbilitiesView as AbilitiesView
from taistelukentta.rules.company import CommandView as CommandView
from taistelukentta.rules.company import GMCommandView as GMCommandView
from taistelukentta.rules.fire_support import FireSupportView as FireSupportView
from taistelukentta.rules.fire_support import GMFireSupportView as GMFireSupportView
from taistelukentta.rules.fire_support import GMPendingStrikeView as GMPendingStrikeView
from taistelukentta.rules.fire_support import PendingStrikeView as PendingStrikeView
from taistelukentta.rules.mines import GMMinesView as GMMinesView
from taistelukentta.rules.mines import KnownMinefieldCell as KnownMinefieldCell
from taistelukentta.rules.mines import MinefieldView as MinefieldView
from taistelukentta.rules.mines import MinesView as MinesView
from taistelukentta.rules.sections import EmptySection as EmptySection
from taistelukentta.rules.sections import ViewModel as ViewModel
from taistelukentta.rules.sections import ViewSection as ViewSection
from taistelukentta.rules.sections import pick as pick
from taistelukentta.rules.sections import unpicked as unpicked

if TYPE_CHECKING:
    from taistelukentta.rules.ruleset import Ruleset

Side = Literal["blue", "red"]
Cell = tuple[int, int]
"""A map cell ``(x, y)``; a JSON array ``[x, y]``."""

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
# Each rule module defines the models of its section (``RuleModule.view``); they are
# imported here to type the bundled ruleset's views (and their JSON Schema).

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


def view_schema(rules: Ruleset | None = None) -> dict[str, Any]:
    """One JSON Schema (draft 2020-12) document for the views and events: every model under
    ``$defs``, and the document itself accepts any view (a side's, a seat's or the game
    master's). The game server's OpenAPI document and the browser client's TypeScript types
    are generated from it. ``rules``: the views of that ruleset (its modules' sections;
    None: the default ruleset's, which are the models here)."""
    from pydantic.json_schema import models_json_schema

    from taistelukentta.views.events import GM_EVENT_DATA, SIDE_EVENT_DATA

    views: tuple[type[ViewModel], ...] = VIEW_MODELS[:3]
    if rules is not None:
        from taistelukentta.views.view import view_classes

        views = view_classes(rules)
    models: list[type[BaseModel]] = [*views, EventView, *SIDE_EVENT_DATA, *GM_EVENT_DATA]
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
        "anyOf": [{"$ref": f"#/$defs/{m.__name__}"} for m in (views[1], views[0], views[2])],
    }
