"""``GET /campaigns/{id}/stream``: the campaign's log as Server-Sent Events, one stream per seat (issue 14).

Each ``log`` frame is one log entry exactly as ``GET /log`` shows it to the same seat (C-5): the same
query and the same censoring (``adapters.ledger.entries_after``); entries the seat may not see are never
sent. After each batch a ``head`` frame (no id) carries the campaign's signed head (C-2,
``GET …/audit/checkpoint``), so a client keeps heads as it follows and can check later ones extend them.
A frame's id is the entry's position in the log, so a client that reconnects with ``Last-Event-ID``
(browsers do it by themselves) gets every later entry once, without a gap or a repeat. The stream
waits on the service's fan-out (``adapters.fanout``) and re-reads the store at least every
``POLL`` seconds.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated
from uuid import UUID

from fastapi import APIRouter, Depends, Header, Query, Request
from fastapi.sse import EventSourceResponse, ServerSentEvent
from starlette.concurrency import run_in_threadpool

from adapters import ledger
from adapters.fanout import POLL
from api.deps import SeatDep, StakesDep
from domain.seats import Seat

router = APIRouter(tags=["event log"])
#: Milliseconds a browser waits before it reconnects.
RETRY_MS = 1000


def member(campaign_id: UUID, seat: SeatDep, stakes: StakesDep) -> Seat:
    """The caller's seat, once it is known to sit in the campaign (refused before the stream starts)."""
    stakes.viewer(campaign_id, seat)
    return seat


def _position(last_event_id: str | None, after: int | None) -> int:
    if last_event_id is not None and last_event_id.strip().isdigit():
        return min(int(last_event_id.strip()), 2**62)
    return after or 0


@router.get("/campaigns/{campaign_id}/stream", response_class=EventSourceResponse,
            responses={200: {"description": "text/event-stream: `event: log`, `id:` the entry's position, "
                                            "`data:` the entry as `GET /log` shows it to this seat; after each "
                                            "batch `event: head`, `data:` the signed head (a Checkpoint).",
                             "content": {"text/event-stream": {"schema": {"type": "string"}}}}})
async def stream(
    campaign_id: UUID, request: Request, seat: Annotated[Seat, Depends(member)], stakes: StakesDep,
    last_event_id: Annotated[str | None, Header(max_length=40, description="Resume after this position.")] = None,
    after: Annotated[int | None, Query(ge=0, le=2**62, description="Start after this position (default: "
                                                                    "the beginning; Last-Event-ID wins).")] = None,
) -> AsyncIterator[ServerSentEvent]:
    """The campaign's log, live, censored for the caller's seat (C-5). Authenticate with the bearer token, or
    in a browser with the cookie the web view's sign-in sets."""
    position = _position(last_event_id, after)
    yield ServerSentEvent(comment="stakes", retry=RETRY_MS)
    while not await request.is_disconnected():
        await run_in_threadpool(stakes.catch_up)  # another process may have written (SQLite, or LISTEN down)
        entries, read_to = await run_in_threadpool(ledger.entries_after, stakes, campaign_id, seat, position)
        for entry in entries:
            yield ServerSentEvent(id=str(entry.position), event="log", data=entry)
        if entries:  # C-2: the signed head the log has reached, to keep and check later heads against
            head = await run_in_threadpool(stakes.checkpoint, campaign_id, seat)
            yield ServerSentEvent(event="head", data=head)
        if read_to > position:
            position = read_to
            continue  # there may be more than one page
        await stakes.fanout.wait(POLL)
