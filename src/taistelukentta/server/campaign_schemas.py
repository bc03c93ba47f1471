"""Request and answer bodies of the campaign endpoints (issue 12)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from taistelukentta.server.schemas import SeatInvite
from taistelukentta.server.settings import MAX_VERSION

_Id = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_\-]{0,31}$")]
_Name = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9][A-Za-z0-9_\-]{0,23}$")]
_Version = Annotated[int, Field(ge=0, le=MAX_VERSION)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class CampaignCreate(_Strict):
    """``POST /api/campaigns``: from a scenario's Blue forces or from a roster file."""

    name: Annotated[str, StringConstraints(min_length=1, max_length=100)]
    scenario: _Id | None = Field(default=None, description="Its Blue forces become the company.")
    roster: dict[str, Any] | None = Field(
        default=None, description="A roster file: {units: [{name, card, xp?, strength?}], tp?}"
    )
    options: dict[_Id, int | str | list[str] | dict[str, int]] = Field(
        default_factory=dict, max_length=16, description="Campaign rule options (tk20 rules)."
    )
    co_spends: bool = Field(default=False, description="The CO seat may spend TP too.")


class CampaignUnitOut(BaseModel):
    """One unit of the roster as every seat of the campaign sees it."""

    name: str
    label: dict[str, str] | None
    card: str
    xp: int
    tt: int
    strength: int
    max_strength: int
    statuses: list[str]
    abilities: list[str]
    may_choose_ability: bool
    battles: int
    next_tt_at: int


class CampaignBattleOut(BaseModel):
    """One battle of the campaign: the company's result (nothing of Red)."""

    number: int
    game: str
    scenario: str
    winner: str
    victory_points: int
    xp: dict[str, int]
    tp: int
    fought: list[str]
    destroyed: list[str]
    left_out: list[str]


class CampaignHistoryOut(BaseModel):
    """One change of the roster: who, when, what, why."""

    seq: int
    kind: str
    actor: str
    when: str
    what: str
    why: str
    undone: bool


class BattleUnderWay(BaseModel):
    """The battle being fought now."""

    game: str | None
    scenario: str | None
    left_out: list[str]


class CampaignOut(BaseModel):
    """A campaign as a seat sees it."""

    id: str
    name: str
    version: int
    seat: str
    tp: int
    units: list[CampaignUnitOut]
    fallen: list[CampaignUnitOut]
    battles: list[CampaignBattleOut]
    history: list[CampaignHistoryOut]
    undoable: list[int]
    rules: dict[str, Any]
    co_spends: bool
    may_spend: bool
    may_undo: bool
    battle: BattleUnderWay | None
    costs: dict[str, int]
    veteran_abilities: list[str]
    seats: list[str]


class CampaignCreated(BaseModel):
    """The new campaign: the GM receives every seat's invite."""

    id: str
    campaign: CampaignOut
    seats: dict[str, SeatInvite]


class CampaignAction(_Strict):
    """``POST /api/campaigns/{id}/actions``: one between-battle action."""

    action: Annotated[str, StringConstraints(min_length=1, max_length=120)] = Field(
        description="restore NAME K | buy CARD NAME | ability NAME ABILITY | rename NAME LABEL"
    )
    why: Annotated[str, StringConstraints(max_length=200)] = ""
    version: _Version | None = Field(default=None, description="The version it was made at.")


class CampaignUndo(_Strict):
    """``POST /api/campaigns/{id}/undo``: take back the newest change (GM)."""

    seq: Annotated[int, Field(ge=1, le=MAX_VERSION)] | None = None
    version: _Version | None = None


class CampaignBattleStart(_Strict):
    """``POST /api/campaigns/{id}/battles``: the next battle (GM)."""

    scenario: _Id
    leave_out: list[_Name] = Field(default_factory=list, max_length=64)
    computer: list[_Id] = Field(default_factory=list, max_length=16)
    version: _Version | None = None


class CampaignBattleStarted(BaseModel):
    """The battle's game and its seats' invites (for the GM to hand out)."""

    game: str
    scenario: str
    seats: dict[str, SeatInvite]
    campaign: CampaignOut
