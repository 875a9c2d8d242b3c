"""Units of resolution (C-1) of every system: a challenge, a roll, a contest … Announcing one, rewinding
and overturning it are commands (``api/commands.py``); these are its reads and its moves."""

from __future__ import annotations

import functools
from typing import Annotated, Any
from uuid import UUID

from fastapi import APIRouter, Body, Query, Request

from adapters import answers
from adapters import schemas as out
from api.commands import action_body
from api.deps import KeyDep, SeatDep, StakesDep, one_hop
from api.heads import sign_after


@one_hop
def list_challenges(
    campaign_id: UUID, seat: SeatDep, stakes: StakesDep,
    after: Annotated[int, Query(ge=0, le=2**62, description="The `position` of the last unit already read.")] = 0,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
    open: Annotated[bool, Query(description="Only the units not yet settled.")] = False,
) -> list[out.ChallengeSummary]:
    """One page of the campaign's challenges, rolls and contests, oldest first."""
    return stakes.challenges(campaign_id, seat, after, limit, open)


@one_hop
def show(campaign_id: UUID, challenge_id: UUID, seat: SeatDep, stakes: StakesDep) -> Any:
    """The table as the caller's seat may see it (C-5), with the legal actions now and their limits."""
    return stakes.challenge(campaign_id, seat, challenge_id)


@functools.partial(one_hop, writes=True)
def act(request: Request, campaign_id: UUID, challenge_id: UUID, seat: SeatDep, stakes: StakesDep, key: KeyDep,
        body: Annotated[dict[str, Any], Body(include_in_schema=False)]) -> Any:
    """Play one move, ``{"action": …}`` with its inputs; the unit's system decides which moves it has and
    refuses any other naming the ruling."""
    answer = stakes.act(campaign_id, seat, challenge_id, body, key=key)
    sign_after(request, stakes, campaign_id)
    return answer


@one_hop
def verify(campaign_id: UUID, challenge_id: UUID, seat: SeatDep, stakes: StakesDep) -> out.Verification:
    """Recompute every server-drawn result from the revealed seeds and report any mismatch (C-4)."""
    return stakes.verify_challenge(campaign_id, seat, challenge_id)


@one_hop
def waiting(campaign_id: UUID, challenge_id: UUID, seat: SeatDep, stakes: StakesDep) -> out.Waiting:
    """Whom the table waits for: each seat that may act now and the names of its moves (not their limits)."""
    return stakes.waiting_for(campaign_id, seat, challenge_id)


@one_hop
def replay(campaign_id: UUID, challenge_id: UUID, seat: SeatDep, stakes: StakesDep,
           step: Annotated[int | None, Query(ge=1, le=100_000, description="Only this step.")] = None) -> out.Replay:
    """Every step: event, actor, time, what changed, and the state after it, as the caller's seat may see it;
    after settlement every hidden value is shown (C-2, C-5)."""
    return stakes.replay(campaign_id, seat, challenge_id, step)


def router() -> APIRouter:
    """The routes, made when the app is: the views' schemas (and the moves' bodies) are those of the systems
    registered then, a system plugged in at run time included, like the commands' routes (``api/commands.py``)."""
    unit: Any = answers.unit_models()
    found = APIRouter(prefix="/campaigns/{campaign_id}/challenges", tags=["challenges, rolls and contests"])
    found.add_api_route("", list_challenges, methods=["GET"], response_model=list[out.ChallengeSummary])
    found.add_api_route("/{challenge_id}", show, methods=["GET"], response_model=unit)
    found.add_api_route("/{challenge_id}/actions", act, methods=["POST"], response_model=unit,
                        openapi_extra=action_body())
    found.add_api_route("/{challenge_id}/verify", verify, methods=["GET"], response_model=out.Verification)
    found.add_api_route("/{challenge_id}/waiting", waiting, methods=["GET"], response_model=out.Waiting)
    found.add_api_route("/{challenge_id}/replay", replay, methods=["GET"], response_model=out.Replay)
    return found
