"""Character sheets, whatever the system, and seat tokens."""

from __future__ import annotations

import functools
from typing import Any
from uuid import UUID

from fastapi import APIRouter

from adapters import answers
from api.deps import KeyDep, SeatDep, StakesDep, one_hop


@functools.partial(one_hop, writes=True)
def reissue_token(campaign_id: UUID, player: str, seat: SeatDep, stakes: StakesDep, key: KeyDep) -> Any:
    """The House hands a seat out again: the old token and the seat's web sessions stop working, and the answer
    holds a new one-time invite code. With an ``Idempotency-Key`` it is applied once (issue 29): a retry answers
    the same code and revokes nothing again (a code the player claimed meanwhile then seats nobody, C-1)."""
    return stakes.reissue_token(campaign_id, seat, player, key=key)


@one_hop
def list_sheets(campaign_id: UUID, seat: SeatDep, stakes: StakesDep) -> Any:
    return stakes.sheets(campaign_id, seat)


@one_hop
def get_sheet(campaign_id: UUID, player: str, seat: SeatDep, stakes: StakesDep) -> Any:
    """A character sheet, as the campaign's system keeps it."""
    return stakes.sheet(campaign_id, seat, player)


def router() -> APIRouter:
    """The routes, made when the app is: the sheets' schemas are those of the systems registered then, a system
    plugged in at run time included, like the commands' routes (``api/commands.py``)."""
    sheet: Any = answers.sheet_models()
    found = APIRouter(prefix="/campaigns/{campaign_id}", tags=["players and characters"])
    found.add_api_route("/players/{player}/token", reissue_token, methods=["POST"],
                        response_model=answers.player_added_models())
    found.add_api_route("/characters", list_sheets, methods=["GET"], response_model=list[sheet])
    found.add_api_route("/characters/{player}", get_sheet, methods=["GET"], response_model=sheet)
    return found
