from __future__ import annotations

import hmac
from collections.abc import AsyncIterator
from typing import Annotated, Any
from uuid import UUID

from anyio import CapacityLimiter, fail_after, to_thread
from fastapi import APIRouter, Depends, HTTPException, Query, Request, status
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import StreamingResponse
from fastapi.security import HTTPAuthorizationCredentials

from adapters import readcheck
from adapters import schemas as out
from adapters.imports import TooLarge, bounded_lines
from adapters.projection import StoreUnavailable
from api.deps import SeatDep, SeatLater, StakesDep, bearer, get_seat_later, one_hop
from api.problems import MEDIA_TYPE, Problem
from domain.errors import NotPermitted

router = APIRouter(tags=["audit, export and import"])
NDJSON = "application/x-ndjson"


def _audits(request: Request) -> CapacityLimiter:
    """The audits one server process runs at once (``readcheck.AT_ONCE``), made on first use."""
    state = request.app.state
    found = getattr(state, "audit_turns", None)
    if found is None:
        found = state.audit_turns = CapacityLimiter(readcheck.AT_ONCE)
    return found


#: Seconds a client refused for too many audits is told to wait (Retry-After).
AUDIT_RETRY_AFTER = 10


class AuditsInFlight:
    """The audits of one server process in flight (running or waiting for their turn), per seat and in all
    (issue 29, ADR 0028): an audit rebuilds the campaign into a scratch store, so a client that sends many at
    once could take the server's CPU. One more than ``Settings.audits_per_credential`` for the seat (its token
    and web sessions together), or ``Settings.audits_per_process`` in all, is answered 429 with Retry-After. The
    counts live on the event loop: no lock is needed."""

    def __init__(self) -> None:
        self.total = 0
        self.per_seat: dict[tuple[UUID, str], int] = {}

    def admit(self, key: tuple[UUID, str], settings: Any) -> None:
        if self.total >= settings.audits_per_process:
            raise _busy(f"this server has {self.total} audits running or waiting, its most "
                        "(STAKES_AUDITS_PER_PROCESS); retry later")
        if self.per_seat.get(key, 0) >= settings.audits_per_credential:
            raise _busy(f"this seat already has {self.per_seat[key]} audit(s) running or waiting, its most "
                        "(STAKES_AUDITS_PER_CREDENTIAL); wait for its answer, then retry")
        self.total += 1
        self.per_seat[key] = self.per_seat.get(key, 0) + 1

    def release(self, key: tuple[UUID, str]) -> None:
        self.total -= 1
        left = self.per_seat.pop(key) - 1
        if left:
            self.per_seat[key] = left


def _busy(detail: str) -> HTTPException:
    return HTTPException(status.HTTP_429_TOO_MANY_REQUESTS, detail,
                         headers={"Retry-After": str(AUDIT_RETRY_AFTER)})


def _in_flight(request: Request) -> AuditsInFlight:
    state = request.app.state
    found = getattr(state, "audits_in_flight", None)
    if found is None:
        found = state.audits_in_flight = AuditsInFlight()
    return found


AUDIT_RESPONSES: dict[int | str, dict[str, Any]] = {
    429: {"model": Problem, "content": {MEDIA_TYPE: {}},
          "description": "Too many audits running or waiting for this seat (STAKES_AUDITS_PER_CREDENTIAL) or this "
                         "server (STAKES_AUDITS_PER_PROCESS); wait Retry-After seconds",
          "headers": {"Retry-After": {"description": "Seconds to wait", "schema": {"type": "integer"}}}},
}


@router.get("/campaigns/{campaign_id}/audit", response_model=out.AuditReport, responses=AUDIT_RESPONSES)
async def verify(campaign_id: UUID, request: Request,
                 later: Annotated[SeatLater, Depends(get_seat_later)]) -> out.AuditReport:
    """Recompute the campaign's hash chain from the stored events and name the first broken link (C-2), then
    compare every projected row of the campaign with what its events project to (issue 29). An audit reads
    and projects the whole campaign: a few run at once per server, the others wait their turn (503 after a
    minute); a seat may have ``STAKES_AUDITS_PER_CREDENTIAL`` audits running or waiting (1 by default), the
    server ``STAKES_AUDITS_PER_PROCESS``, and one more is answered 429 with Retry-After."""
    # issue 29, red team: the audit's turn is awaited on the event loop, after the credential is checked. A
    # turn awaited in a worker thread held that thread: 45 audits of a 3,000-event campaign, sent by the House
    # of any campaign (anyone may create one), stalled every other campaign's reads for 27 s.
    seat = await to_thread.run_sync(later.seat)
    key, flight = (campaign_id, seat.name), _in_flight(request)
    flight.admit(key, later.stakes.settings)
    try:
        turns = _audits(request)
        try:
            with fail_after(readcheck.WAIT):
                await turns.acquire()
        except TimeoutError:
            raise StoreUnavailable(f"{readcheck.AT_ONCE} audits are running on this server and others wait their "
                                   "turn; retry later") from None
        try:
            return await to_thread.run_sync(lambda: later.stakes.audit(campaign_id, seat))
        finally:
            turns.release()
    finally:
        flight.release(key)


@router.get("/campaigns/{campaign_id}/audit/checkpoint", response_model=out.Checkpoint)
@one_hop
def checkpoint(campaign_id: UUID, seat: SeatDep, stakes: StakesDep) -> out.Checkpoint:
    """The campaign's signed head (C2SP tlog-checkpoint, Ed25519): keep it; every later head must extend it (C-2)."""
    return stakes.checkpoint(campaign_id, seat)


@router.get("/campaigns/{campaign_id}/audit/consistency", response_model=out.Consistency)
@one_hop
def consistency(campaign_id: UUID, seat: SeatDep, stakes: StakesDep,
                first: Annotated[int, Query(alias="from", ge=0, le=2**62,
                                            description="The size of the head you hold.")],
                second: Annotated[int | None, Query(ge=0, le=2**62, description=(
                    "The size of a larger head to prove it against (another player's, to compare two held "
                    "heads); the log's whole size by default."))] = None) -> out.Consistency:
    """An RFC 9162 consistency proof that the log of ``second`` events (today's whole log by default) extends
    the head of ``from`` events you hold, with the signed head of those ``second`` events (C-2). A log that was
    cut, forked or rewritten has none: a size the log does not reach, or ``from`` above ``second``, is 422."""
    return stakes.consistency(campaign_id, seat, first, second)


@router.get("/campaigns/{campaign_id}/audit/leaves", response_model=out.Leaves)
@one_hop
def leaves(campaign_id: UUID, seat: SeatDep, stakes: StakesDep) -> out.Leaves:
    """Every event's salted digest, with its stored JSON and salt where this seat may read all of it (C-5),
    and the signed head they make: recompute each opened digest and the root yourself (C-2)."""
    return stakes.leaves(campaign_id, seat)


@router.get("/audit/public-key", response_model=out.PublicKey)
def public_key(stakes: StakesDep) -> out.PublicKey:
    """The key that signs every checkpoint of this server; pin it the first time you see it."""
    return stakes.public_key()


@router.get("/campaigns/{campaign_id}/export", response_class=StreamingResponse,
            responses={200: {"content": {NDJSON: {"schema": {"type": "string"}}},
                             "description": "JSON Lines: a header, then each event with its digest and chain link."}})
def export(campaign_id: UUID, seat: SeatDep, stakes: StakesDep) -> StreamingResponse:
    """The House's copy of the whole campaign log, to keep or to import elsewhere. Never holds tokens."""
    lines = list(stakes.export_campaign(campaign_id, seat))  # refusals are raised before streaming starts
    return StreamingResponse((line + "\n" for line in lines), media_type=NDJSON)


@router.post("/imports", status_code=status.HTTP_201_CREATED, response_model=out.ImportReport,
             openapi_extra={"requestBody": {"required": True, "content": {NDJSON: {"schema": {"type": "string"}}}}})
async def import_campaign(request: Request, stakes: StakesDep,
                          credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]
                          ) -> out.ImportReport:
    """Load an export as a new campaign (new ids), verifying its chain and every value (C-2). Needs the
    operator token (``STAKES_OPERATOR_TOKEN``: 401 for an unknown token, 403 for a seat's); the body is at
    most ``STAKES_IMPORT_MAX_BYTES``. Answers the House's new token and one-time invite codes for the players."""
    expected = stakes.settings.operator_token
    given = credentials.credentials if credentials else ""
    if not given:
        raise HTTPException(401, "An import needs the operator token (STAKES_OPERATOR_TOKEN) as bearer token")
    if not expected or not hmac.compare_digest(given.encode(), expected.encode()):
        # 401 for a token this server does not know, as on every route (issue 29); a seat's token is known,
        # and its seat may not import (403)
        if await run_in_threadpool(stakes.authenticate, given) is None:
            raise HTTPException(401, "Unknown token: an import needs the operator token (STAKES_OPERATOR_TOKEN)")
        raise NotPermitted("only the server's operator imports a campaign (STAKES_OPERATOR_TOKEN)", ruling="C-2")
    limit = stakes.settings.import_max_bytes
    length = request.headers.get("content-length", "")
    if length.isdigit() and int(length) > limit:  # refused before a byte of the body is read
        raise TooLarge(f"an import is at most {limit:,} bytes (STAKES_IMPORT_MAX_BYTES); nothing was imported",
                       ruling="C-2")
    lines = []
    async for line in _lines(request, limit):
        lines.append(line)
    return await run_in_threadpool(stakes.import_campaign, lines)


async def _lines(request: Request, limit: int) -> AsyncIterator[str]:
    """The body's lines, refusing as soon as more than ``limit`` bytes have arrived."""
    chunks: list[bytes] = []
    seen = 0
    async for chunk in request.stream():
        seen += len(chunk)
        if seen > limit:
            raise TooLarge(f"an import is at most {limit:,} bytes (STAKES_IMPORT_MAX_BYTES); nothing was imported",
                           ruling="C-2")
        chunks.append(chunk)
    for line in bounded_lines(chunks, limit):
        yield line


@router.post("/invites", status_code=status.HTTP_201_CREATED, response_model=out.SeatClaimed, tags=["seats"])
def claim_invite(claim: out.InviteClaim, stakes: StakesDep) -> out.SeatClaimed:
    """A player claims his seat with the one-time invite code the House handed him; the answer holds his
    token, shown once and to him alone. A code works once."""
    return stakes.claim(claim.code)
