"""The campaign endpoints under ``/api/campaigns`` (issue 12, RULES.md §17).

Every seat of a campaign (``gm``, ``co``, the platoon seats) reads its roster with its
token; the GM (and, by the campaign's option, the CO) spends TP; the GM undoes and starts
battles. A battle's end applies the campaign rules by itself. Answers hold only the
company (nothing of Red).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Path, Query, Request, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from taistelukentta.server.campaign_schemas import (
    CampaignAction,
    CampaignBattleStart,
    CampaignBattleStarted,
    CampaignCreate,
    CampaignCreated,
    CampaignOut,
    CampaignUndo,
)
from taistelukentta.server.campaigns import CampaignStore
from taistelukentta.server.routes.games import invite_url
from taistelukentta.server.schemas import ErrorOut, SeatInvite
from taistelukentta.server.settings import MAX_KEY_CHARS

router = APIRouter(prefix="/api")
_bearer = HTTPBearer(auto_error=False, description="The campaign seat's token.")

_ERR: dict[int | str, dict[str, Any]] = {
    401: {"model": ErrorOut, "description": "Missing or unknown token."},
    403: {"model": ErrorOut, "description": "The seat may not do that."},
    404: {"model": ErrorOut, "description": "No such campaign (or a token of another one)."},
    409: {"model": ErrorOut, "description": "Stale version, or a battle is under way."},
    422: {"model": ErrorOut, "description": "Bad input; nothing changed."},
}


def get_campaigns(request: Request) -> CampaignStore:
    """The process's campaign store."""
    store: CampaignStore = request.app.state.campaigns
    return store


Campaigns = Annotated[CampaignStore, Depends(get_campaigns)]
CampaignId = Annotated[str, Path(max_length=32, pattern=r"^[0-9a-f]{1,32}$")]
IdemKey = Annotated[str | None, Header(alias="Idempotency-Key", max_length=MAX_KEY_CHARS)]


def campaign_seat(
    store: Campaigns,
    campaign_id: CampaignId,
    creds: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> str:
    """The campaign seat of the request's token."""
    return store.authenticate(campaign_id, creds.credentials if creds else None)


SeatOf = Annotated[str, Depends(campaign_seat)]


def campaign_url(request: Request, campaign_id: str, token: str) -> str:
    """The campaign's link for a seat (the token in the fragment, never sent to a server)."""
    base = str(request.base_url).rstrip("/")
    return f"{base}/#campaign={campaign_id}&token={token}"


@router.post("/campaigns", status_code=201, response_model=CampaignCreated, responses=_ERR)
def create_campaign(body: CampaignCreate, request: Request, store: Campaigns) -> CampaignCreated:
    """Start a campaign; the creator is its GM and receives every seat's invite."""
    made = store.create(
        body.name,
        scenario=body.scenario,
        roster=body.roster,
        options=dict(body.options),
        co_spends=body.co_spends,
    )
    return CampaignCreated(
        id=made.id,
        campaign=CampaignOut.model_validate(made.view),
        seats={
            seat: SeatInvite(token=tok, url=campaign_url(request, made.id, tok))
            for seat, tok in made.tokens.items()
        },
    )


@router.get("/campaigns/{campaign_id}", response_model=CampaignOut, responses=_ERR)
def get_campaign(campaign_id: CampaignId, seat: SeatOf, store: Campaigns) -> CampaignOut:
    """The roster, battles and history as the seat sees them."""
    return CampaignOut.model_validate(store.view(campaign_id, seat))


@router.post("/campaigns/{campaign_id}/actions", response_model=CampaignOut, responses=_ERR)
def post_action(
    campaign_id: CampaignId,
    body: CampaignAction,
    seat: SeatOf,
    store: Campaigns,
    idempotency_key: IdemKey = None,
) -> CampaignOut:
    """Spend between battles: ``restore NAME K``, ``buy CARD NAME``, ``ability NAME
    ABILITY`` or ``rename NAME LABEL``."""
    view = store.act(
        campaign_id, seat, body.action, why=body.why, version=body.version, key=idempotency_key
    )
    return CampaignOut.model_validate(view)


@router.post("/campaigns/{campaign_id}/undo", response_model=CampaignOut, responses=_ERR)
def post_undo(
    campaign_id: CampaignId,
    body: CampaignUndo,
    seat: SeatOf,
    store: Campaigns,
    idempotency_key: IdemKey = None,
) -> CampaignOut:
    """The GM takes back the newest change since the last battle."""
    view = store.undo(campaign_id, seat, seq=body.seq, version=body.version, key=idempotency_key)
    return CampaignOut.model_validate(view)


@router.post(
    "/campaigns/{campaign_id}/battles",
    status_code=201,
    response_model=CampaignBattleStarted,
    responses=_ERR,
)
def start_battle(
    campaign_id: CampaignId,
    body: CampaignBattleStart,
    request: Request,
    seat: SeatOf,
    store: Campaigns,
) -> CampaignBattleStarted:
    """The next battle (GM): the roster's units take the scenario's Blue slots."""
    created = store.start_battle(
        campaign_id,
        seat,
        body.scenario,
        leave_out=body.leave_out,
        computer=body.computer,
        version=body.version,
    )
    game = created.game
    return CampaignBattleStarted(
        game=game.id,
        scenario=game.scenario_ref,
        seats={
            s: SeatInvite(token=tok, url=invite_url(request, game.id, tok))
            for s, tok in created.tokens.items()
        },
        campaign=CampaignOut.model_validate(store.view(campaign_id, seat)),
    )


@router.get("/campaigns/{campaign_id}/export", responses=_ERR)
def export_campaign(
    campaign_id: CampaignId,
    seat: SeatOf,
    store: Campaigns,
    format: Annotated[str, Query(pattern="^(csv|html|pdf)$")] = "csv",
    lang: Annotated[str, Query(pattern="^(fi|en)$")] = "fi",
) -> Response:
    """The roster as CSV, a printable HTML page or a PDF."""
    media, content = store.export(campaign_id, format, lang)
    name = f"roster-{campaign_id}.{format}"
    return Response(
        content,
        media_type=media,
        headers={"Content-Disposition": f'inline; filename="{name}"'},
    )
