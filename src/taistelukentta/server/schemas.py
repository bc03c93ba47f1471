"""Request and answer bodies of the HTTP API (pydantic; unknown fields are refused)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, WithJsonSchema

from taistelukentta.server.settings import MAX_ORDER_CHARS, MAX_VERSION

_Id = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_\-]{0,31}$")]
_Order = Annotated[str, StringConstraints(min_length=1, max_length=MAX_ORDER_CHARS)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class GameCreate(_Strict):
    """``POST /api/games``."""

    scenario: _Id = Field(description="A bundled scenario id (GET /api/scenarios).")
    options: dict[_Id, bool | int | float | str] = Field(
        default_factory=dict, max_length=64, description="Rule options (tk20 rules)."
    )
    computer: list[_Id] = Field(
        default_factory=list, max_length=16, description="Seats the server's computer plays."
    )
    computer_level: Literal["baseline", "easy", "normal", "hard"] = Field(
        # a factory, not a default: the schema shows no default, so generated clients
        # keep the field optional (openapi-typescript makes defaulted fields required)
        default_factory=lambda: "baseline",
        description="The computer player of those seats (docs/bots.md); default baseline.",
    )


class SeatInvite(BaseModel):
    """One seat's access: its token (shown once) and its invite link."""

    token: str
    url: str


class GameCreated(BaseModel):
    """The new game: the GM receives every seat's invite."""

    id: str
    scenario: str
    seed_commitment: str
    commitment_scheme: str
    seats: dict[str, SeatInvite]
    computer: list[str]
    computer_level: str = "baseline"


class OrderPost(_Strict):
    """``POST /api/games/{id}/orders``."""

    order: _Order = Field(description="One order in notation, e.g. 'move 1R1 12,7'.")
    version: int = Field(ge=0, le=MAX_VERSION, description="The seat's version it saw.")


VIEW_MODELS = ("SeatView", "SideView", "GMView")
"""The view models (``taistelukentta.views.models``) a ``view`` answer is one of."""

_ViewJson = Annotated[
    dict[str, Any],
    WithJsonSchema({"anyOf": [{"$ref": f"#/components/schemas/{m}"} for m in VIEW_MODELS]}),
]
"""A view as the server sends it (built by ``present.seat_view``; its schema is the view
models', added to the OpenAPI document by :func:`view_components`)."""


def view_components() -> dict[str, Any]:
    """The OpenAPI components of the view models: the views' JSON Schema (``tk20 schema``)
    restricted to what the views use, with one server difference: an event in a view's
    ``log`` carries no ``seq`` (the server leaves the engine's global event numbers out)."""
    import json

    from taistelukentta.views.models import view_schema

    defs: dict[str, Any] = view_schema()["$defs"]
    wanted: set[str] = set()
    todo = list(VIEW_MODELS)
    while todo:
        name = todo.pop()
        if name in wanted:
            continue
        wanted.add(name)
        text = json.dumps(defs[name])
        todo += [ref.split('"', 1)[0] for ref in text.split('"$ref": "#/$defs/')[1:]]
    out = json.loads(
        json.dumps({n: defs[n] for n in sorted(wanted)}).replace(
            '"#/$defs/', '"#/components/schemas/'
        )
    )
    event = out.get("EventView")
    if event is not None:
        event["properties"].pop("seq", None)
        event["required"] = [r for r in event.get("required", []) if r != "seq"]
    return dict(out)


class ViewOut(BaseModel):
    """A seat's view of the game at its version."""

    version: int
    view: _ViewJson


class SeatViewOut(ViewOut):
    """A seat's view at its version and its legal orders then (``GET /view``)."""

    orders: list[str]


class OrdersOut(BaseModel):
    """The seat's legal orders now."""

    version: int
    orders: list[str]


class Change(BaseModel):
    """One change as a seat sees it."""

    version: int
    events: list[dict[str, Any]]


class ChangesOut(BaseModel):
    """The seat's changes after a version."""

    version: int
    changes: list[Change]


class SeatInfo(BaseModel):
    """Who a token is."""

    game: str
    seat: str
    side: str
    version: int
    computer: list[str]


class OddsTerm(BaseModel):
    """One modifier of a roll, with the rule that gives it (an attack's terms are
    ``rules.terms.attack_terms``, the list resolution uses)."""

    name: str
    value: int
    """The amount (``bonus``, ``defence``), or +1 / -1 (``advantage`` / ``disadvantage``)."""
    rule: str
    kind: Literal["bonus", "defence", "advantage", "disadvantage", "scatter", "delay"]
    """How it counts: added to the attack bonus or to the defence, advantage,
    disadvantage; ``scatter`` for a fire request's scatter dice, ``delay`` for turns added
    to its delay (a fire request's terms are ``rules.terms.strike_terms``)."""


class OddsOut(BaseModel):
    """The exact odds of an order from the seat's knowledge."""

    version: int
    order: str
    kind: str
    odds: dict[str, Any]
    terms: list[OddsTerm]


class RevealOut(BaseModel):
    """The secrets after the end: the seed and every order."""

    id: str
    scenario: str
    options: dict[str, Any]
    seed: str
    seed_commitment: str
    commitment_scheme: str
    orders: list[dict[str, str]]
    state_hash: str


class ErrorBody(BaseModel):
    """``{"code", "message": {"fi", "en"}}``."""

    code: str
    message: dict[str, str]
    version: int | None = None


class ErrorOut(BaseModel):
    """Every 4xx answer."""

    error: ErrorBody


class ScenarioOut(BaseModel):
    """A bundled scenario."""

    id: str
    title: dict[str, str]
    seats: list[str]
