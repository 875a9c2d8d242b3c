from __future__ import annotations

from uuid import UUID

from fastapi import APIRouter, status

from adapters import schemas as out
from api.deps import SeatDep, StakesDep
from api.schemas import ActionIn, ChallengeIn

router = APIRouter(prefix="/campaigns/{campaign_id}/challenges", tags=["challenges"])


@router.post("", status_code=status.HTTP_201_CREATED, response_model=out.ChallengeView)
def announce(campaign_id: UUID, body: ChallengeIn, seat: SeatDep, stakes: StakesDep) -> out.ChallengeView:
    """Announce a challenge (PA-5, PA-6, PA-7, PA-17). Its seed's SHA-256 is published at once (C-4)."""
    return stakes.announce_challenge(
        campaign_id, seat, body.challenger.model_dump(exclude_none=True), body.opponent.model_dump(exclude_none=True),
        body.ante, body.stake, body.table, body.circumstance)


@router.get("", response_model=list[out.ChallengeSummary])
def list_challenges(campaign_id: UUID, seat: SeatDep, stakes: StakesDep) -> list[out.ChallengeSummary]:
    return stakes.challenges(campaign_id, seat)


@router.get("/{challenge_id}", response_model=out.ChallengeView)
def show(campaign_id: UUID, challenge_id: UUID, seat: SeatDep, stakes: StakesDep) -> out.ChallengeView:
    """The table as the caller's seat may see it (C-5), with the legal actions now and their limits."""
    return stakes.challenge(campaign_id, seat, challenge_id)


@router.post("/{challenge_id}/actions", response_model=out.ChallengeView)
def act(campaign_id: UUID, challenge_id: UUID, body: ActionIn, seat: SeatDep, stakes: StakesDep) -> out.ChallengeView:
    """Play one move for the caller's side, or lend or bid from outside it (PA-8 … PA-15)."""
    args = body.model_dump(exclude_none=True, exclude={"action"})
    return stakes.challenge_action(campaign_id, seat, challenge_id, body.action, args)


@router.get("/{challenge_id}/verify", response_model=out.Verification)
def verify(campaign_id: UUID, challenge_id: UUID, seat: SeatDep, stakes: StakesDep) -> out.Verification:
    """Recompute every server-rolled die from the revealed seeds and report any mismatch (C-4)."""
    return stakes.verify_challenge(campaign_id, seat, challenge_id)
