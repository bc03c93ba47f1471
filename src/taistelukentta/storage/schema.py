"""The shape of a game file, checked in full before anything reads it.

A game file comes from disk, where anything can happen to it: a truncated write, an editor,
a hand "fix", a fuzzer. :func:`parse_json` reads the text safely (no recursion blow-up, no
giant integers, no NaN); :func:`check_game_document` validates the whole document against
the pydantic models below — the header, every order, the saved state, every unit, contact
and event (each side's copy of it included) and every dice record in it — and turns every
mismatch into one line naming where it is (``state.events[12].visible``). Nothing past this
point needs to guard against a wrong type.

The models validate only; the engine still builds its own values from the (now trusted)
plain data. Unknown keys are allowed where rule modules and future versions add their own
(``data`` of an event, a module's ``ext`` slot); the known keys are typed wherever they
appear.
"""

from __future__ import annotations

import json
import math
import re
from itertools import accumulate
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    field_validator,
)
from pydantic import ValidationError as PydanticValidationError

from taistelukentta.content.loader import format_loc
from taistelukentta.storage.checked import checked_copies, copy_digest

MAX_DEPTH = 48
"""Deepest nesting of lists/objects a game file may have (the engine writes at most ~8)."""
MAX_INT_DIGITS = 100
"""Longest integer a game file may hold, in digits (a 256-bit seed has 78; Python refuses
to read integers beyond 4 300 digits at all)."""
MAX_FILE_BYTES = 256 * 1024 * 1024
"""A game file larger than this is refused before it is read."""


class JsonProblem(ValueError):
    """The text is not JSON a game file can hold; the message says where and why."""


def _parse_int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_INT_DIGITS:
        raise JsonProblem(f"an integer with {digits} digits (at most {MAX_INT_DIGITS} allowed)")
    return int(text)


def _parse_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise JsonProblem(f"a number out of range: {text[:20]}")
    return value


def _parse_constant(text: str) -> Any:
    raise JsonProblem(f"{text} is not allowed in a game file")


def _depth(doc: Any) -> int:
    """Nesting depth of parsed JSON, without recursion."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(doc, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            deepest = max(deepest, depth)
            stack.extend((v, depth + 1) for v in value.values())
        elif isinstance(value, list):
            deepest = max(deepest, depth)
            stack.extend((v, depth + 1) for v in value)
    return deepest


_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*(?:"|\\?\Z)', re.DOTALL)
"""A JSON string, escapes included; an unterminated one runs to the end of the text."""
_BRACKET = re.compile(r"[\[\]{}]")
_BRACKET_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def _nesting_of_text(text: str) -> int:
    """Deepest bracket nesting of JSON text (strings skipped), counted without parsing
    (at most ``MAX_DEPTH + 1``: deeper is too deep)."""
    # without escapes (the usual file) the strings are every other piece between quotes
    escapes = "\\" in text
    outside = _STRING.sub("", text) if escapes else "".join(text.split('"')[::2])
    brackets = _BRACKET.findall(outside)
    deepest = max(accumulate(map(_BRACKET_STEP.__getitem__, brackets), initial=0))
    return min(deepest, MAX_DEPTH + 1)


def parse_json(text: str) -> Any:
    """Parse game-file JSON; JsonProblem (a clear one-line reason) for anything unsafe."""
    if _nesting_of_text(text) > MAX_DEPTH:
        raise JsonProblem(f"nested deeper than {MAX_DEPTH} levels")
    try:
        return json.loads(
            text,
            parse_int=_parse_int,
            parse_float=_parse_float,
            parse_constant=_parse_constant,
        )
    except JsonProblem:
        raise
    except json.JSONDecodeError as exc:
        raise JsonProblem(f"not valid JSON: {exc}") from None
    except (ValueError, RecursionError) as exc:  # pragma: no cover - guarded above
        raise JsonProblem(f"not valid JSON: {exc}") from None


# -- models ---------------------------------------------------------------------------------

_LOOSE = ConfigDict(extra="allow", strict=True)
_CLOSED = ConfigDict(extra="forbid", strict=True)

NonNegInt = Annotated[StrictInt, Field(ge=0)]
CellModel = Annotated[list[StrictInt], Field(min_length=2, max_length=2)]
SideName = Literal["blue", "red"]
Json = Any


class RollModel(BaseModel):
    """One die roll record (``RollRecord.to_dict``)."""

    model_config = _LOOSE
    seq: StrictInt
    purpose: StrictStr
    expr: StrictStr
    dice: list[StrictInt]
    kept: list[StrictInt]
    modifier: StrictInt
    total: StrictInt
    secret: StrictBool = False


class OrderModel(BaseModel):
    """One recorded order."""

    model_config = _CLOSED
    seat: Annotated[StrictStr, Field(min_length=1, max_length=40)]
    order: Annotated[StrictStr, Field(min_length=1, max_length=4000)]


UnitRef = StrictStr | dict[StrictStr, Json] | None


class EventPayload(BaseModel):
    """An event's data (the GM's copy or one side's copy). Kinds add their own keys; the
    ones every reader relies on are typed here wherever they appear (present means not
    null, except ``unit``)."""

    model_config = _LOOSE
    rolls: list[RollModel] = []
    unit: UnitRef = None
    target: UnitRef = ""
    attacker: UnitRef = ""
    cell: CellModel = [0, 0]
    seat: StrictStr = ""
    side: SideName = "blue"
    area: Annotated[list[StrictInt], Field(min_length=3, max_length=3)] | None = None
    units: list[StrictStr | dict[StrictStr, Json]] = []


class MovePayload(EventPayload):
    from_: Annotated[CellModel, Field(alias="from")] = [0, 0]
    to: CellModel = [0, 0]
    path: list[CellModel] = []


class PlacedField(BaseModel):
    model_config = _LOOSE
    field: StrictStr
    type: Literal["AP", "AT"]
    cells: list[CellModel]


class MinefieldsPayload(EventPayload):
    fields: list[PlacedField] = []


class StrikeLandedPayload(EventPayload):
    cells: list[CellModel] = []


KIND_PAYLOADS: dict[str, type[EventPayload]] = {
    "move": MovePayload,
    "minefields_placed": MinefieldsPayload,
    "strike_landed": StrikeLandedPayload,
}
"""Event kinds with more keys typed than :class:`EventPayload` types for every kind."""


class EventModel(BaseModel):
    """One logged event with each side's redacted copy (or null)."""

    model_config = _CLOSED
    seq: Annotated[StrictInt, Field(ge=1)]
    kind: Annotated[StrictStr, Field(min_length=1, max_length=60)]
    data: dict[StrictStr, Json]
    visible: dict[SideName, dict[StrictStr, Json] | None]
    numbers: dict[SideName, Annotated[StrictInt, Field(ge=1)]] = Field(default_factory=dict)
    """Per side that sees it: the event's number in that side's own sequence."""


class UnitModel(BaseModel):
    """One unit on the map (``UnitState.to_dict``)."""

    model_config = _CLOSED
    id: StrictStr
    card: StrictStr
    side: SideName
    seat: StrictStr
    group: StrictStr
    cell: CellModel
    strength: NonNegInt
    max_strength: Annotated[StrictInt, Field(ge=1)]
    xp: StrictInt
    shaken: StrictInt | None = None
    suppressed: StrictInt | None = None
    retreating: StrictInt | None = None
    status_dc: StrictInt = 0
    pinned: StrictInt | None = None
    pinning_penalty: StrictInt = 0
    morale_marks: StrictInt = 0
    confused: StrictBool = False
    jammed_turn: StrictInt | None = None
    comms_until: StrictInt | None = None
    damaged_before: StrictBool = False
    action: Literal["defend", "move", "attack", "disengage", "withdraw"] | None = None
    moved: StrictBool = False
    fired: StrictBool = False
    reconned: StrictBool = False
    rallied: StrictBool = False
    zoc_at_start: StrictBool = False
    ext: UnitExtModel | None = None


class ContactModel(BaseModel):
    """What one side knows of one enemy unit."""

    model_config = _CLOSED
    # the engine draws labels as c1, c2, … (views sort contacts by the number)
    label: Annotated[StrictStr, Field(pattern=r"^c[0-9]{1,9}$")]
    level: Literal["SUSPECTED", "KNOWN", "SPOTTED"]
    cell: CellModel | None
    area: Annotated[list[StrictInt], Field(min_length=3, max_length=3)] | None
    card: StrictStr | None


CellKey = Annotated[StrictStr, Field(pattern=r"^-?[0-9]{1,6},-?[0-9]{1,6}$")]


class MinefieldModel(BaseModel):
    model_config = _LOOSE
    type: Literal["AP", "AT"]
    owner: SideName


class _KnownMines(BaseModel):
    model_config = _CLOSED
    blue: dict[CellKey, Literal["AP", "AT"]]
    red: dict[CellKey, Literal["AP", "AT"]]


class _ClearedCells(BaseModel):
    model_config = _CLOSED
    blue: list[CellKey]
    red: list[CellKey]


class MinesExtModel(BaseModel):
    """``ext["mines"]``: the minefields, their cells and each side's knowledge."""

    model_config = _LOOSE
    fields: dict[StrictStr, MinefieldModel]
    mined: dict[CellKey, StrictStr]
    known: _KnownMines
    clear: _ClearedCells
    laid: NonNegInt = 0


TurnMap = dict[StrictStr, StrictInt]


class CompanyExtModel(BaseModel):
    """``ext["company"]`` (rules/company.py)."""

    model_config = _LOOSE
    report_done: StrictBool = False
    order_turn: StrictInt = 0
    combat: TurnMap = {}
    transfers: TurnMap = {}
    restored: TurnMap = {}
    confirmed: TurnMap = {}
    reconnoitred: dict[StrictStr, StrictBool] = {}
    tactic_turn: StrictInt = 0
    tactics_used: list[
        Annotated[list[StrictInt | StrictStr], Field(min_length=2, max_length=2)]
    ] = []
    """Each company tactic used: [turn, tactic name]."""
    motti_used: StrictBool = False
    co_lost: StrictInt = 0
    leaderless: StrictBool = False
    promoted_unit: StrictStr = ""
    promoted_seat: StrictStr = ""
    company_kp: StrictInt = 0
    flagged: list[StrictStr] = []
    painopiste: dict[StrictStr, Json] = {}

    @field_validator("tactics_used")
    @classmethod
    def _turn_then_name(cls, value: list[list[int | str]]) -> list[list[int | str]]:
        for i, (turn, name) in enumerate(value):
            if isinstance(turn, bool) or not isinstance(turn, int) or not isinstance(name, str):
                raise ValueError(f"item {i}: expected [turn number, tactic name]")
        return value


class StrikeModel(BaseModel):
    """A pending fire-support strike (rules/fire_support.py)."""

    model_config = _LOOSE
    id: StrictStr
    kind: StrictStr
    side: SideName
    seat: StrictStr
    observer: StrictStr
    cell: CellModel
    requested: StrictInt
    due: StrictInt
    danger: StrictBool = False
    boost: StrictInt = 0
    unit: StrictStr = ""
    weapon: StrictStr = ""


class FireSupportExtModel(BaseModel):
    """``ext["fire_support"]``."""

    model_config = _LOOSE
    rounds_used: TurnMap = {}
    requests_used: dict[SideName, StrictInt] = {}
    next: StrictInt = 0
    pending: list[StrikeModel] = []


class AbilitiesExtModel(BaseModel):
    """``ext["abilities"]``."""

    model_config = _LOOSE
    wave: dict[StrictStr, list[StrictStr]] = {}


class StateExtModel(BaseModel):
    model_config = _LOOSE
    mines: MinesExtModel | None = None
    company: CompanyExtModel | None = None
    fire_support: FireSupportExtModel | None = None
    abilities: AbilitiesExtModel | None = None


class UnitAbilitiesExt(BaseModel):
    model_config = _LOOSE
    hidden: StrictBool = False
    disabled: TurnMap = {}
    wave: StrictInt = 0


class UnitMinesExt(BaseModel):
    model_config = _LOOSE
    pending: CellKey | None = None
    hold: StrictBool | StrictInt | None = None
    immobilised: StrictBool | None = None


class UnitExtModel(BaseModel):
    model_config = _LOOSE
    abilities: UnitAbilitiesExt | None = None
    mines: UnitMinesExt | None = None
    company: dict[StrictStr, Json] | None = None


class StateModel(BaseModel):
    """The saved dynamic state (``GameState.to_dict``)."""

    model_config = _LOOSE
    format: Literal[1]
    scenario: StrictStr
    seed: StrictInt | Annotated[StrictStr, Field(pattern=r"^[0-9a-f]{64}$")]
    dice: Literal["hmac-sha256", "mt19937"] = "mt19937"
    round: Annotated[StrictInt, Field(ge=1, le=10_000)]
    active: SideName
    phase: Literal["command", "fire", "over"]
    turn_no: Annotated[StrictInt, Field(ge=1, le=20_000)]
    done: list[StrictStr]
    units: list[UnitModel]
    contacts: dict[SideName, dict[StrictStr, ContactModel]]
    contact_serial: dict[SideName, NonNegInt]
    kp: dict[StrictStr, StrictInt]
    group_spent: dict[StrictStr, StrictInt]
    destroyed: dict[SideName, list[StrictStr]]
    roller: dict[StrictStr, Json]
    event_count: NonNegInt
    winner: Literal["blue", "red", "draw"] | None = None
    vp: dict[SideName, StrictInt] | None = None
    ext: StateExtModel | None = None
    events: list[EventModel] = []


class OverlayUnitModel(BaseModel):
    """A campaign roster unit in a Blue slot (what the overlay uses of it)."""

    model_config = _LOOSE
    name: Annotated[StrictStr, Field(min_length=1, max_length=40)]
    card: Annotated[StrictStr, Field(min_length=1, max_length=64)]
    xp: NonNegInt
    strength: NonNegInt
    label: dict[StrictStr, StrictStr] | None = None
    abilities: list[StrictStr] = []


class OverlayModel(BaseModel):
    """A campaign battle's roster overlay (``blue_overlay``: roster unit per Blue slot)."""

    model_config = _LOOSE
    slots: dict[StrictStr, OverlayUnitModel] = {}
    left_out: list[StrictStr] = []


class GameFileModel(BaseModel):
    """A whole game file."""

    model_config = _LOOSE
    format: Literal["tk20-game"]
    version: Literal[1]
    scenario: Annotated[StrictStr, Field(min_length=1)]
    dice: Literal["hmac-sha256", "mt19937"] = "mt19937"
    seed: StrictInt | Annotated[StrictStr, Field(pattern=r"^[0-9a-fA-F]{64}$")]
    human: SideName | None = None
    orders: list[OrderModel] = []
    state_hash: StrictStr | None = None
    log_hash: StrictStr | None = None
    state: StateModel | None = None
    blue_overlay: OverlayModel | None = None


def _problems(exc: PydanticValidationError, prefix: tuple[str | int, ...] = ()) -> list[str]:
    out = []
    for err in exc.errors()[:20]:
        where = format_loc((*prefix, *err["loc"]))
        out.append(f"{where}: {err['msg']}")
    if len(exc.errors()) > 20:
        out.append(f"… and {len(exc.errors()) - 20} more")
    return out


def _seen_copy_problems(kind: str, copy: dict[str, Any], where: tuple[str | int, ...]) -> list[str]:
    """Problems of one side's stored copy of an event against the whitelist models its
    view is built from (the owner's and the other side's)."""
    from taistelukentta.views.events import EVENT_MODELS  # on load only
    from taistelukentta.views.models import pick

    models = EVENT_MODELS.get(kind)
    if models is None:
        return []
    out: list[str] = []
    for model in {models.own, models.other} - {None}:
        assert model is not None
        try:
            pick(model, copy)
        except PydanticValidationError as exc:
            out.extend(p for p in _problems(exc, where) if p not in out)
    return out


def check_game_document(doc: Any) -> list[str]:
    """Every problem of a parsed game file, one line each naming where (empty: it is fine)."""
    if not isinstance(doc, dict):
        return ["(top level): expected a JSON object"]
    try:
        model = GameFileModel.model_validate(doc)
    except PydanticValidationError as exc:
        return _problems(exc)
    problems: list[str] = []
    state = model.state
    if state is not None:
        checked = checked_copies() if state.events else None
        for i, event in enumerate(state.events):
            payload = KIND_PAYLOADS.get(event.kind, EventPayload)
            copies = [(("data",), event.data)] + [
                (("visible", side), copy) for side, copy in event.visible.items() if copy
            ]
            for where, copy in copies:
                try:
                    payload.model_validate(copy)
                except PydanticValidationError as exc:
                    problems.extend(_problems(exc, ("state", "events", i, *where)))
            # A side's copy is shown through its kind's whitelist models (views/events.py):
            # a value of the wrong type there is the file's problem, named here, not a
            # traceback when the view is drawn.
            # A copy that passed before (in this or an earlier command) is remembered by a
            # digest of its content (storage/checked.py): any change to it is checked again.
            for where, copy in copies[1:]:
                digest = copy_digest(event.kind, copy) if checked is not None else None
                if digest is not None and checked is not None and digest in checked:
                    continue
                found = _seen_copy_problems(event.kind, copy, ("state", "events", i, *where))
                if not found and digest is not None and checked is not None:
                    checked.add(digest)
                problems.extend(found)
            if len(problems) >= 20:
                return problems
        if checked is not None:
            checked.save()
        for i, event in enumerate(state.events):
            if event.seq != i + 1:
                problems.append(f"state.events[{i}].seq: expected {i + 1}, got {event.seq}")
                break
        if state.events and state.event_count != len(state.events):
            problems.append(
                f"state.event_count: {state.event_count}, but the log holds "
                f"{len(state.events)} events"
            )
        mines = state.ext.mines if state.ext is not None else None
        if mines is not None:
            for cell, field_id in mines.mined.items():
                if field_id not in mines.fields:
                    problems.append(f"state.ext.mines.mined.{cell}: no minefield {field_id!r}")
        ids = [u.id for u in state.units]
        if len(set(ids)) != len(ids):
            problems.append("state.units: a unit id appears twice")
    return problems
