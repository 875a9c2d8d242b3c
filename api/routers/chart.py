"""The campaign chart (issue 31, ADR 0035): each sheet's tracked quantity over the campaign."""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

from fastapi import APIRouter, Query

from adapters.chart import DEFAULT_POINTS, MAX_POINTS, CampaignChart
from adapters.luck import LuckReport
from api.deps import SeatDep, StakesDep, one_hop

router = APIRouter(prefix="/campaigns/{campaign_id}", tags=["players and characters"])


@router.get("/chart", response_model=CampaignChart)
@one_hop
def campaign_chart(
    campaign_id: UUID,
    seat: SeatDep,
    stakes: StakesDep,
    points: Annotated[int, Query(ge=2, le=MAX_POINTS, description="Points per line at most: a longer line is "
                                                                  "evenly sampled, its first and last kept.")]
    = DEFAULT_POINTS,
) -> CampaignChart:
    """Each character's tracked quantity (what the campaign's system keeps on its sheets, named by ``label``)
    over the campaign, one line per character, a point per change with
    its place in the campaign's log. A sheet hidden from the caller's seat is not on its chart (C-5)."""
    return stakes.chart(campaign_id, seat, points)


@router.get("/luck", response_model=LuckReport)
@one_hop
def luck(campaign_id: UUID, seat: SeatDep, stakes: StakesDep) -> LuckReport:
    """Every draw of the units that ended and were shown to every seat (C-5), counted per seat and per kind,
    with Pearson's chi-square against the fair distribution the system declares and its p-value; the draws the
    House abandoned with a unit (C-10) counted apart. Every seat reads the same report."""
    return stakes.luck(campaign_id, seat)
