"""Character sheets, whatever the system, and seat tokens."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from fastapi import APIRouter

from adapters import answers
from api.deps import SeatDep, StakesDep, one_hop

router = APIRouter(prefix="/campaigns/{campaign_id}", tags=["players and characters"])
Sheet: Any = answers.sheet_models()


@router.post("/players/{player}/token", response_model=answers.player_added_models())
@one_hop
def reissue_token(campaign_id: UUID, player: str, seat: SeatDep, stakes: StakesDep) -> Any:
    """The House issues a player a new token; the old one stops working."""
    return stakes.reissue_token(campaign_id, seat, player)


@router.get("/characters", response_model=list[Sheet])
@one_hop
def list_sheets(campaign_id: UUID, seat: SeatDep, stakes: StakesDep) -> Any:
    return stakes.sheets(campaign_id, seat)


@router.get("/characters/{player}", response_model=Sheet)
@one_hop
def get_sheet(campaign_id: UUID, player: str, seat: SeatDep, stakes: StakesDep) -> Any:
    """A character sheet, as the campaign's system keeps it."""
    return stakes.sheet(campaign_id, seat, player)
