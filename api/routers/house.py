from __future__ import annotations

from uuid import UUID

from fastapi import APIRouter, status

from adapters import schemas as out
from api.deps import SeatDep, StakesDep
from api.schemas import AdventureIn, AntagonistIn, CharacteristicIn, FundingIn

router = APIRouter(prefix="/campaigns/{campaign_id}", tags=["adventures and the House"])


@router.post("/adventures", status_code=status.HTTP_201_CREATED, response_model=out.HouseBudget | out.CampaignView)
def start_adventure(
    campaign_id: UUID, seat: SeatDep, stakes: StakesDep, body: AdventureIn | None = None
) -> out.HouseBudget | out.CampaignView:
    """Start an adventure (C-1). Penny Ante: the House pile is the sum of the player piles, or an agreed amount
    with a note (PA-3), unpaid loans are marked defaulted (PA-14), and the House budget is returned; other
    systems return the campaign."""
    body = body or AdventureIn()
    return stakes.start_adventure(campaign_id, seat, body.amount, body.note)


@router.post("/adventures/current/end", response_model=out.HouseBudget | out.CampaignView)
def end_adventure(campaign_id: UUID, seat: SeatDep, stakes: StakesDep) -> out.HouseBudget | out.CampaignView:
    """End the running adventure; the House side's pennies leave play (PA-3)."""
    return stakes.end_adventure(campaign_id, seat)


@router.get("/budget", response_model=out.HouseBudget)
def budget(campaign_id: UUID, seat: SeatDep, stakes: StakesDep) -> out.HouseBudget:
    """The House budget per adventure. Players do not see antagonists' characteristics (C-5)."""
    return stakes.budget(campaign_id, seat)


@router.get("/antagonists", response_model=list[out.Antagonist])
def list_antagonists(campaign_id: UUID, seat: SeatDep, stakes: StakesDep) -> list[out.Antagonist]:
    return stakes.antagonists(campaign_id, seat)


@router.post("/antagonists", status_code=status.HTTP_201_CREATED, response_model=out.Antagonist)
def create_antagonist(campaign_id: UUID, body: AntagonistIn, seat: SeatDep, stakes: StakesDep) -> out.Antagonist:
    """The House creates an antagonist or obstacle with its own characteristics (PA-4)."""
    return stakes.create_antagonist(campaign_id, seat, body.name, body.kind, body.characteristics)


@router.post("/antagonists/{name}/characteristics", status_code=status.HTTP_201_CREATED, response_model=out.Antagonist)
def add_antagonist_characteristic(
    campaign_id: UUID, name: str, body: CharacteristicIn, seat: SeatDep, stakes: StakesDep
) -> out.Antagonist:
    return stakes.add_antagonist_characteristic(campaign_id, seat, name, body.name)


@router.post("/antagonists/{name}/funding", response_model=out.Antagonist)
def fund_antagonist(campaign_id: UUID, name: str, body: FundingIn, seat: SeatDep, stakes: StakesDep) -> out.Antagonist:
    """Move pennies from the House pile to an antagonist, within the campaign's cap (PA-4)."""
    return stakes.fund_antagonist(campaign_id, seat, name, body.amount)
