from __future__ import annotations

from typing import Annotated
from uuid import UUID

from fastapi import APIRouter, Query, status

from adapters import schemas as out
from api.deps import SeatDep, StakesDep
from api.schemas import ActionIn, ChallengeIn, OverturnIn, RewindIn

router = APIRouter(prefix="/campaigns/{campaign_id}/challenges", tags=["challenges"])


@router.post("", status_code=status.HTTP_201_CREATED, response_model=out.ChallengeView | out.ResolutionView)
def announce(campaign_id: UUID, body: ChallengeIn, seat: SeatDep, stakes: StakesDep) -> out.ChallengeView | out.ResolutionView:
    """Announce a challenge (PA-5, PA-6, PA-7, PA-17). Its seed's SHA-256 is published at once (C-4)."""
    return stakes.announce_challenge(
        campaign_id, seat, body.challenger.model_dump(exclude_none=True), body.opponent.model_dump(exclude_none=True),
        body.ante, body.stake, body.table, body.circumstance)


@router.get("", response_model=list[out.ChallengeSummary])
def list_challenges(campaign_id: UUID, seat: SeatDep, stakes: StakesDep) -> list[out.ChallengeSummary]:
    return stakes.challenges(campaign_id, seat)


@router.get("/{challenge_id}", response_model=out.ChallengeView | out.ResolutionView)
def show(campaign_id: UUID, challenge_id: UUID, seat: SeatDep, stakes: StakesDep) -> out.ChallengeView | out.ResolutionView:
    """The table as the caller's seat may see it (C-5), with the legal actions now and their limits."""
    return stakes.challenge(campaign_id, seat, challenge_id)


@router.post("/{challenge_id}/actions", response_model=out.ChallengeView | out.ResolutionView)
def act(campaign_id: UUID, challenge_id: UUID, body: ActionIn, seat: SeatDep, stakes: StakesDep) -> out.ChallengeView | out.ResolutionView:
    """Play one move for the caller's side, or lend or bid from outside it (PA-8 … PA-15)."""
    args = body.model_dump(exclude_none=True, exclude={"action"})
    return stakes.challenge_action(campaign_id, seat, challenge_id, body.action, args)


@router.get("/{challenge_id}/verify", response_model=out.Verification)
def verify(campaign_id: UUID, challenge_id: UUID, seat: SeatDep, stakes: StakesDep) -> out.Verification:
    """Recompute every server-rolled die from the revealed seeds and report any mismatch (C-4)."""
    return stakes.verify_challenge(campaign_id, seat, challenge_id)


@router.get("/{challenge_id}/replay", response_model=out.Replay)
def replay(campaign_id: UUID, challenge_id: UUID, seat: SeatDep, stakes: StakesDep,
           step: Annotated[int | None, Query(ge=1, le=100_000, description="Only this step.")] = None) -> out.Replay:
    """Every step of the challenge: event, actor, time, what changed, and the state after it, as the caller's
    seat may see it; after settlement every hidden value is shown (C-2, C-5)."""
    return stakes.replay(campaign_id, seat, challenge_id, step)


@router.post("/{challenge_id}/rewind", response_model=out.ChallengeView | out.ResolutionView)
def rewind(campaign_id: UUID, challenge_id: UUID, body: RewindIn, seat: SeatDep, stakes: StakesDep) -> out.ChallengeView | out.ResolutionView:
    """The House takes an open challenge back to an earlier step (C-6); the same dice come up again (C-7)."""
    return stakes.rewind_challenge(campaign_id, seat, challenge_id, body.to_step, body.reason)


@router.post("/{challenge_id}/overturn", response_model=out.ChallengeView | out.ResolutionView)
def overturn(campaign_id: UUID, challenge_id: UUID, body: OverturnIn, seat: SeatDep,
             stakes: StakesDep) -> out.ChallengeView | out.ResolutionView:
    """The House reverses a settled result and applies it again with a winner, or void (C-6)."""
    return stakes.overturn_challenge(campaign_id, seat, challenge_id, body.winner, body.void, body.reason)
