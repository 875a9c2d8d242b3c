from __future__ import annotations

from typing import Annotated
from uuid import UUID

from fastapi import APIRouter, Query

from adapters import schemas as out
from api.deps import SeatDep, StakesDep, one_hop

router = APIRouter(prefix="/campaigns/{campaign_id}", tags=["event log"])


@router.get("/log", response_model=out.EventLog)
@one_hop
def event_log(
    campaign_id: UUID,
    seat: SeatDep,
    stakes: StakesDep,
    after: Annotated[int, Query(ge=0, le=2**62, description="Only entries after this position.")] = 0,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
) -> out.EventLog:
    """Who did what, and when, censored for the caller's seat (C-2, C-5)."""
    return stakes.log(campaign_id, seat, after, limit)


@router.get("/commitments", response_model=out.Commitments)
@one_hop
def commitments(campaign_id: UUID, seat: SeatDep, stakes: StakesDep) -> out.Commitments:
    """Each seat's committed next secret, as its SHA-256 and nonce, and where the log published it: read yours
    before a one-shot draw (a roll, a deal, an action) and check the draw's seed_hash against it (C-10)."""
    return stakes.commitments(campaign_id, seat)
