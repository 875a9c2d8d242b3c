"""Dependencies: the service, and the seat a bearer token stands for."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated
from uuid import UUID

from fastapi import Depends, Header, HTTPException, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from adapters.service import Stakes
from domain.errors import NotPermitted
from domain.seats import Seat

bearer = HTTPBearer(auto_error=False, description="A seat token, issued when a campaign is created or a player added.")


# Dependencies that do no I/O are ``async def``: FastAPI runs a plain ``def`` dependency in the thread pool,
# a hop per dependency per request (issue 15). Only ``get_caller`` reads the store.
async def get_stakes(request: Request) -> Stakes:
    return request.app.state.stakes


StakesDep = Annotated[Stakes, Depends(get_stakes)]


@dataclass(frozen=True)
class Caller:
    campaign_id: UUID
    seat: Seat


#: The HttpOnly cookie the web view's sign-in sets (``api/web``): a browser's EventSource and its pages
#: cannot send an Authorization header. SameSite=Strict keeps other sites from riding on it.
SEAT_COOKIE = "stakes_seat"


def get_caller(request: Request, stakes: StakesDep,
               credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]) -> Caller:
    token = credentials.credentials if credentials is not None else request.cookies.get(SEAT_COOKIE)
    if not token:
        raise HTTPException(401, "A bearer token is required")
    found = stakes.authenticate(token)
    if found is None:
        raise HTTPException(401, "Unknown token")
    return Caller(*found)


async def get_seat(campaign_id: UUID, caller: Annotated[Caller, Depends(get_caller)]) -> Seat:
    """The caller's seat, if the token belongs to the campaign in the path."""
    if caller.campaign_id != campaign_id:
        raise NotPermitted("this token holds a seat in another campaign")
    return caller.seat


async def get_key(idempotency_key: Annotated[str | None, Header(
        max_length=200, description="Send the same key again to retry a command safely: it is applied once, "
                                    "and a retry answers as the first attempt did.")] = None) -> str | None:
    return idempotency_key


CallerDep = Annotated[Caller, Depends(get_caller)]
KeyDep = Annotated[str | None, Depends(get_key)]
SeatDep = Annotated[Seat, Depends(get_seat)]
