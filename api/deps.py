"""Dependencies: the service, and the seat a bearer token stands for."""

from __future__ import annotations

import functools
import inspect
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any
from uuid import UUID

from anyio import CapacityLimiter, to_thread
from fastapi import Depends, Header, HTTPException, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from adapters.service import Stakes
from adapters.settings import Settings
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
    #: When the credential stops working by itself (a web session's expiry, epoch seconds); None: never.
    expires_at: float | None = None


#: The HttpOnly cookie the web view's sign-in sets (``api/web``): a browser's EventSource and its pages
#: cannot send an Authorization header. It holds a web session id (``ses_…``, issue 29), never the seat
#: token: the session is stored hashed server-side, ends at a fixed expiry, and sign-out or a reissue of the
#: seat deletes it. SameSite=Strict, and the origin check of ``api.web.guard``, keep other sites off it.
SEAT_COOKIE = "stakes_session"
SESSION_COOKIE = SEAT_COOKIE
#: The cookie of earlier releases, which held the seat token itself: never read, deleted at sign-in/out.
LEGACY_COOKIE = "stakes_seat"
SESSION_PREFIX = "ses_"


def _token(request: Request, credentials: HTTPAuthorizationCredentials | None) -> str | None:
    """The request's credential: the bearer token, else the web session id of the cookie (a cookie holding
    anything else, such as an old release's seat token, counts as none)."""
    if credentials is not None:
        return credentials.credentials
    cookie = request.cookies.get(SEAT_COOKIE)
    return cookie if cookie and cookie.startswith(SESSION_PREFIX) else None


def _caller(stakes: Stakes, token: str | None) -> Caller:
    """The one place a credential becomes a Caller: a seat token, or a web session (with its expiry)."""
    if not token:
        raise HTTPException(401, "A bearer token is required")
    if token.startswith(SESSION_PREFIX):
        session = stakes.session(token)
        if session is None:
            raise HTTPException(401, "Unknown token: this web session ended (signed out, expired, or the seat "
                                     "was handed out again); sign in again")
        return Caller(*session)
    found = stakes.authenticate(token)
    if found is None:
        raise HTTPException(401, "Unknown token")
    return Caller(*found)


def caller_or_none(request: Request) -> Caller | None:
    """The seat a web page's request stands for (its session cookie), or None: for the web view's pages."""
    try:
        return _caller(request.app.state.stakes, _token(request, None))
    except HTTPException:
        return None


def _seated(caller: Caller, campaign_id: UUID) -> Seat:
    if caller.campaign_id != campaign_id:
        raise NotPermitted("this token holds a seat in another campaign")
    return caller.seat


def get_caller(request: Request, stakes: StakesDep,
               credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]) -> Caller:
    return _caller(stakes, _token(request, credentials))


async def get_seat(campaign_id: UUID, caller: Annotated[Caller, Depends(get_caller)]) -> Seat:
    """The caller's seat, if the token belongs to the campaign in the path."""
    return _seated(caller, campaign_id)


@dataclass(frozen=True)
class SeatLater:
    """A request's token, looked up in the endpoint's own worker thread (``one_hop``)."""

    stakes: Stakes
    token: str | None
    campaign_id: UUID
    #: The threads a command may run in (``Settings.writers``); None: the server's whole thread pool.
    writers: CapacityLimiter | None = None

    def seat(self) -> Seat:
        return _seated(_caller(self.stakes, self.token), self.campaign_id)


async def get_seat_later(request: Request, campaign_id: UUID,
                         credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]) -> SeatLater:
    token = _token(request, credentials)
    if not token:  # answered before the request's own inputs are checked, as get_caller answers it
        raise HTTPException(401, "A bearer token is required")
    # the service straight from the app (as ``get_stakes``): each dependency FastAPI solves costs a request
    return SeatLater(request.app.state.stakes, token, campaign_id, getattr(request.app.state, "writers", None))


def writers(settings: Settings) -> CapacityLimiter | None:
    """The command threads of one server process (``Settings.writers``), made where the server starts."""
    found = settings.writers
    return None if found is None else CapacityLimiter(found)


def one_hop(endpoint: Callable[..., Any], seat: str = "seat", writes: bool = False) -> Callable[..., Any]:
    """A seated endpoint (its ``SeatDep`` parameter, named ``seat``) made to cost one thread hop, not three (issue 15).

    FastAPI runs a plain ``def`` dependency in the thread pool, then the endpoint, then the validation of its
    answer: three hand-overs between the event loop and a worker thread per request, each a wake-up the
    interpreter pays for. Here the endpoint is ``async``: the token is looked up (exactly as ``get_seat`` does)
    and then the endpoint runs, in ONE worker thread; FastAPI checks the answer of an ``async`` endpoint on
    the event loop, where a model the endpoint built is taken as it is. An endpoint that ``writes`` runs in
    the server's command threads (``Settings.writers``)."""
    hints = typing.get_type_hints(endpoint, include_extras=True)
    signature = inspect.signature(endpoint)
    def resolved(p: inspect.Parameter) -> Any:  # a postponed annotation (text) as the object it names
        return hints.get(p.name, p.annotation) if isinstance(p.annotation, str) else p.annotation

    # The service is the seat's (``SeatLater.stakes``): a ``StakesDep`` parameter is given it here, not solved
    # by FastAPI as a dependency of its own (each costs the event loop a little on every request).
    service = [p.name for p in signature.parameters.values() if p.name != seat and resolved(p) == StakesDep]
    params = [p.replace(annotation=Annotated[SeatLater, Depends(get_seat_later)] if p.name == seat
                        else resolved(p)) for p in signature.parameters.values() if p.name not in service]

    @functools.wraps(endpoint)
    async def hop(**kwargs: Any) -> Any:
        later: SeatLater = kwargs.pop(seat)
        kwargs.update(dict.fromkeys(service, later.stakes))
        return await to_thread.run_sync(lambda: endpoint(**{seat: later.seat()}, **kwargs),
                                        limiter=later.writers if writes else None)

    returned = signature.return_annotation
    shown = signature.replace(parameters=params, return_annotation=hints.get("return", Any)
                              if isinstance(returned, str) else returned)
    hop.__signature__ = shown  # type: ignore[attr-defined]
    del hop.__wrapped__  # FastAPI reads the signature above, not the wrapped function's
    return hop


async def get_key(idempotency_key: Annotated[str | None, Header(
        max_length=200, description="Send the same key again to retry a command safely: it is applied once. A "
                                    "campaign command's retry answers the result stored with it; a move's or a "
                                    "ruling's retry answers the unit as it stands now (the move is not made "
                                    "again).")] = None) -> str | None:
    return idempotency_key


CallerDep = Annotated[Caller, Depends(get_caller)]
KeyDep = Annotated[str | None, Depends(get_key)]
SeatDep = Annotated[Seat, Depends(get_seat)]
