from __future__ import annotations

from uuid import UUID

from fastapi import APIRouter, Request, status

from adapters import schemas as out
from api.deps import CallerDep, KeyDep, SeatDep, StakesDep, one_hop
from api.schemas import CampaignIn
from domain.errors import RuleViolation

router = APIRouter(tags=["campaigns"])
#: The shortest creation key taken: 32 characters (a UUID's hex digits) of a random key are 128 bits.
MIN_CREATION_KEY = 32


@router.post("/campaigns", status_code=status.HTTP_201_CREATED, response_model=out.CampaignCreated)
def create_campaign(body: CampaignIn, stakes: StakesDep, key: KeyDep,  # type: ignore[valid-type]
                    request: Request) -> out.CampaignCreated:
    """Create a campaign. The caller holds its House seat; the House token is shown once, in this answer only.

    With an ``Idempotency-Key`` the campaign is created once (C-1, issue 29): the same key and body sent again
    within 10 minutes answers the same campaign with ``house_token: null`` and a ``note`` saying why (ADR 0028):
    the token went to the first answer only, so no one who learns the key gets the House. If that first answer
    was lost, create a new campaign (the first is still empty; no one can hand the House seat out again).
    Later, the key is answered 409. The key must be at least 32 characters drawn at random (a UUID, 128 bits);
    a shorter one is refused (422), nothing created. The server keeps only a keyed digest of it."""
    if key is not None and len(key) < MIN_CREATION_KEY:
        raise RuleViolation("an Idempotency-Key on POST /campaigns names the campaign it created to whoever sends "
                            f"it again, so it is a secret: at least {MIN_CREATION_KEY} characters drawn at random "
                            "(a UUID); nothing was created",
                            ruling="C-1")
    settings = body.settings.model_dump(exclude_none=True) if body.settings is not None else {}  # type: ignore[attr-defined]
    created = stakes.create_campaign(body.name, body.system, settings, key=key)  # type: ignore[attr-defined]
    request.state.checkpoint_campaign = created.campaign.id  # its first signed head (api/heads.py)
    return created


@router.get("/session", response_model=out.Session)
def session(caller: CallerDep, stakes: StakesDep) -> out.Session:
    """Which campaign and seat the bearer token stands for, and the campaign's rule system."""
    return out.Session(campaign_id=caller.campaign_id, seat=caller.seat.name,
                       system=stakes.system_id(caller.campaign_id))  # type: ignore[attr-defined]


@router.get("/campaigns/{campaign_id}", response_model=out.CampaignView)
@one_hop
def get_campaign(campaign_id: UUID, seat: SeatDep, stakes: StakesDep) -> out.CampaignView:
    return stakes.campaign(campaign_id, seat)
