"""The Pool (PL-1 … PL-8): traits, moves, help, rolls and contests. Replay, undo and verify use the
challenge routes, which serve every system's units of resolution."""

from __future__ import annotations

from uuid import UUID

from fastapi import APIRouter, status

from adapters import schemas as out
from api.deps import SeatDep, StakesDep
from api.schemas import ContestIn, HelpIn, MoveIn, RollIn, TraitIn

router = APIRouter(prefix="/campaigns/{campaign_id}", tags=["the Pool"])
Resolution = out.ChallengeView | out.ResolutionView


@router.post("/characters/{player}/traits", response_model=out.PoolSheet)
def raise_trait(campaign_id: UUID, player: str, body: TraitIn, seat: SeatDep, stakes: StakesDep) -> out.PoolSheet:
    """Buy a new trait at +1 or raise one a step, at the escalating cost (PL-5)."""
    return stakes.raise_trait(campaign_id, seat, player, body.name, body.new)


@router.post("/characters/{player}/traits/{trait}/cash-in", response_model=out.PoolSheet)
def cash_in(campaign_id: UUID, player: str, trait: str, seat: SeatDep, stakes: StakesDep) -> out.PoolSheet:
    """Erase a trait and add its rating to the pool (PL-5)."""
    return stakes.cash_in_trait(campaign_id, seat, player, trait)


@router.post("/characters/{player}/moves", status_code=status.HTTP_201_CREATED, response_model=out.PoolSheet)
def buy_move(campaign_id: UUID, player: str, body: MoveIn, seat: SeatDep, stakes: StakesDep) -> out.PoolSheet:
    """Buy a move with dice (PL-6)."""
    return stakes.buy_move(campaign_id, seat, player, body.name, body.cost)


@router.post("/help", response_model=out.PoolSheet)
def offer_help(campaign_id: UUID, body: HelpIn, seat: SeatDep, stakes: StakesDep) -> out.PoolSheet:
    """Give another character dice for his next roll, keeping two (PL-7)."""
    return stakes.offer_help(campaign_id, seat, body.to, body.dice)


@router.post("/rolls", status_code=status.HTTP_201_CREATED, response_model=Resolution)
def roll(campaign_id: UUID, body: RollIn, seat: SeatDep, stakes: StakesDep) -> Resolution:
    """Roll dice from your pool with at most one trait (PL-2 … PL-4, PL-7); answer a hit with the
    'choose' action on /challenges/{id}/actions."""
    return stakes.pool_roll(campaign_id, seat, body.count, body.trait, body.helper, body.seed, body.dice)


@router.post("/contests", status_code=status.HTTP_201_CREATED, response_model=Resolution)
def oppose(campaign_id: UUID, body: ContestIn, seat: SeatDep, stakes: StakesDep) -> Resolution:
    """Oppose another character (PL-8); both roll with the 'roll' action on /challenges/{id}/actions."""
    return stakes.open_contest(campaign_id, seat, body.opponent)
