from __future__ import annotations

from uuid import UUID

from fastapi import APIRouter, status

from adapters import schemas as out
from api.deps import SeatDep, StakesDep
from api.schemas import CharacteristicIn, PlayerIn

router = APIRouter(prefix="/campaigns/{campaign_id}", tags=["players and characters"])


@router.post("/players", status_code=status.HTTP_201_CREATED, response_model=out.PlayerAdded)
def add_player(campaign_id: UUID, body: PlayerIn, seat: SeatDep, stakes: StakesDep) -> out.PlayerAdded:
    """The House seats a player with one character (PA-1, PA-2). The player's token is shown once."""
    return stakes.add_player(campaign_id, seat, body.seat, body.character, body.characteristic, body.description,
                             body.traits)


@router.post("/players/{player}/token", response_model=out.PlayerAdded)
def reissue_token(campaign_id: UUID, player: str, seat: SeatDep, stakes: StakesDep) -> out.PlayerAdded:
    """The House issues a player a new token; the old one stops working."""
    return stakes.reissue_token(campaign_id, seat, player)


@router.get("/characters", response_model=list[out.Sheet | out.PoolSheet])
def list_sheets(campaign_id: UUID, seat: SeatDep, stakes: StakesDep) -> list[out.Sheet | out.PoolSheet]:
    return stakes.sheets(campaign_id, seat)


@router.get("/characters/{player}", response_model=out.Sheet | out.PoolSheet)
def get_sheet(campaign_id: UUID, player: str, seat: SeatDep, stakes: StakesDep) -> out.Sheet | out.PoolSheet:
    """A character sheet: pile, pennies in play, characteristics, what it owes and is owed."""
    return stakes.sheet(campaign_id, seat, player)


@router.post("/characters/{player}/characteristics", status_code=status.HTTP_201_CREATED, response_model=out.Sheet)
def buy_characteristic(campaign_id: UUID, player: str, body: CharacteristicIn, seat: SeatDep, stakes: StakesDep) -> out.Sheet:
    """Buy a characteristic for 5 pennies, between adventures only (PA-2)."""
    return stakes.buy_characteristic(campaign_id, seat, player, body.name)
