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
