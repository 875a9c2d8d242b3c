"""``GET /campaigns/{id}/stream``: the campaign's log as Server-Sent Events, one stream per seat (issues 14, 29).

Each ``log`` frame is one log entry exactly as ``GET /log`` shows it to the same seat (C-5): the same
rows and the same censoring (``adapters.ledger``); entries the seat may not see are never sent. After
each batch a ``head`` frame (no id) carries the campaign's signed head (C-2, ``GET …/audit/checkpoint``).
A frame's id is the entry's number within its campaign's log (1, 2, 3 …, never the global position, which
would reveal other campaigns' activity), so a client that reconnects with ``Last-Event-ID`` (browsers do it
by themselves) gets every later entry once, without a gap or a repeat. ``Last-Event-ID`` that is not a
number in ASCII digits is refused 400 (a browser only ever sends back an id it was given).

One notifier per process (:class:`Hub`) feeds every stream: woken by the fan-out (``adapters.fanout``), it
reads what is new once per campaign, censors it once per seat, and hands each stream a batch through its
own bounded queue. A stream opened with an older position first reads its backlog itself, then follows.

A stream ends (an ``end`` frame, then the response closes) when its credential stops working: a revocation
(``Fanout.revoked``: a reissued seat, a signed-out web session) makes every stream check its credential
again, through ``api.deps`` as a request does, before it sends anything more; a credential that expires by
itself (``Caller.expires_at``) ends its streams at that moment; a revocation this process cannot hear of
(another process on SQLite) is found within ``Settings.stream_recheck`` seconds. Its client's reconnect is
then answered 401. A client that lets its queue fill is disconnected too (it reconnects with Last-Event-ID).
Caps: ``Settings.streams_per_credential`` (counted per seat: its token and web sessions together) and
``streams_per_process``, answered 429 with Retry-After.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import random
import time
import weakref
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Annotated, Any
from uuid import UUID

from fastapi import APIRouter, Depends, Header, HTTPException, Query, Request
from fastapi.responses import Response, StreamingResponse
from fastapi.security import HTTPAuthorizationCredentials
from fastapi.sse import format_sse_event
from starlette.concurrency import run_in_threadpool

from adapters import heads, ledger
from adapters.fanout import POLL
from api import deps
from api.deps import StakesDep, bearer
from api.problems import MEDIA_TYPE, PROBLEM_RESPONSES, Problem, problem
from domain.seats import Seat

router = APIRouter(tags=["event log"])
log = logging.getLogger("stakes.stream")
#: Milliseconds a browser waits before it reconnects.
RETRY_MS = 1000
#: Seconds between keep-alive comments on an idle stream (a gone client is noticed when one fails).
PING = 15.0
#: Seconds a client refused for a cap is told to wait (Retry-After).
RETRY_AFTER = 10
_DIGITS = frozenset("0123456789")


@dataclass(eq=False)
class Subscriber:
    """One open stream: its seat, its credential, and the batches the hub handed it."""

    campaign_id: UUID
    seat: Seat
    token: str
    credential: str  # the seat's digest (campaign and seat): what the per-credential cap counts
    expires_at: float | None
    generation: int  # the fan-out's revocation generation its credential was last checked at
    queue: asyncio.Queue[Any]
    position: int = 0  # the number of the last entry sent
    checked_at: float = field(default_factory=time.monotonic)
    dropped: str | None = None  # why the hub dropped it (its queue filled)


@dataclass(frozen=True)
class Batch:
    """What the hub read once for a campaign, as one seat sees it: (position, frame) pairs, then a head."""

    entries: tuple[tuple[int, bytes], ...]
    head: bytes


class Hub:
    """The one notifier of a server process: reads what is new once per campaign and fans it out per seat."""

    def __init__(self, stakes: Any) -> None:
        self.stakes = stakes
        self.settings = stakes.settings
        self.fanout = stakes.fanout
        self.subscribers: dict[UUID, set[Subscriber]] = {}
        self.read_to: dict[UUID, int] = {}  # per campaign: the last entry the hub has read
        self.per_credential: Counter[str] = Counter()
        self.open = 0
        self.generation = self.fanout.generation
        self._task: asyncio.Task[None] | None = None
        #: Credential checks of streams running at once (a revocation checks every stream of the process).
        self.checks = asyncio.Semaphore(4)

    # -- subscribing ------------------------------------------------------------------------------
    async def admit(self, campaign_id: UUID, caller: deps.Caller, token: str) -> Subscriber | Response:
        # Counted per seat, whatever token or web session opened the stream (issue 29, red team): every sign-in
        # opens a new web session, so a cap per credential let one seat hold any number of streams (three
        # sign-ins: 32 streams at a cap of 8), up to the process cap that every other seat shares.
        credential = hashlib.sha256(f"{campaign_id.hex}/{caller.seat.name}".encode()).hexdigest()
        if self.open >= self.settings.streams_per_process:
            return _too_many(f"this server holds {self.open} open streams, its most "
                             "(STAKES_STREAMS_PER_PROCESS); try again later")
        if self.per_credential[credential] >= self.settings.streams_per_credential:
            return _too_many(f"this seat already holds {self.per_credential[credential]} open streams (its token "
                             "and web sessions together), its most (STAKES_STREAMS_PER_CREDENTIAL); close one first")
        sub = Subscriber(campaign_id, caller.seat, token, credential, caller.expires_at, self.fanout.generation,
                         asyncio.Queue(self.settings.stream_queue))
        # routine checks spread over the interval, so streams opened together do not all check at once
        sub.checked_at -= random.uniform(0, self.settings.stream_recheck)
        self.open += 1
        self.per_credential[credential] += 1
        self.subscribers.setdefault(campaign_id, set()).add(sub)  # counted from here; ``release`` frees it
        if campaign_id not in self.read_to:  # the hub follows this campaign from where its log is now
            try:
                last = await run_in_threadpool(ledger.last_position, self.stakes, campaign_id)
            except BaseException:
                self.release(sub)
                raise
            self.read_to.setdefault(campaign_id, last)
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run(), name="stakes-stream-hub")
        return sub

    def release(self, sub: Subscriber) -> None:
        """The stream ended (or never started): it stops counting; idempotent."""
        found = self.subscribers.get(sub.campaign_id)
        if found is None or sub not in found:
            return
        found.discard(sub)
        self.open -= 1
        self.per_credential[sub.credential] -= 1
        if self.per_credential[sub.credential] <= 0:
            del self.per_credential[sub.credential]
        if not found:
            del self.subscribers[sub.campaign_id]
            self.read_to.pop(sub.campaign_id, None)

    # -- the notifier -------------------------------------------------------------------------------
    async def _run(self) -> None:
        while self.subscribers:
            woken = await self.fanout.wait(POLL)
            try:
                if self.fanout.generation != self.generation:  # a credential was revoked: everyone checks
                    self.generation = self.fanout.generation
                    for subs in list(self.subscribers.values()):
                        for sub in list(subs):
                            self._hand(sub, None)
                if not woken:  # another process may have written (SQLite, or LISTEN down)
                    await run_in_threadpool(self.stakes.catch_up)
                for campaign_id in list(self.subscribers):
                    await self._campaign(campaign_id)
            except Exception:  # a store outage: the streams wait, and the next wake or poll tries again
                log.exception("the stream notifier could not read the log")

    async def _campaign(self, campaign_id: UUID) -> None:
        while campaign_id in self.read_to:
            after = self.read_to[campaign_id]
            rows = await run_in_threadpool(ledger._rows, self.stakes, campaign_id, after, 500)
            if not rows or campaign_id not in self.read_to:
                return
            self.read_to[campaign_id] = rows[-1]["seq"]
            seats = {sub.seat for sub in self.subscribers.get(campaign_id, ())}
            batches, head = {}, b""
            for seat in seats:
                entries = tuple((e.position, _log_frame(e)) for r in rows
                                if (e := ledger._log_entry(r, seat)) is not None)
                if entries:
                    if not head:  # the campaign's signed head is the same for every seat: signed once a batch
                        signed = await run_in_threadpool(heads.current, self.stakes, campaign_id)
                        head = format_sse_event(data_str=signed.model_dump_json(), event="head")
                    batches[seat] = Batch(entries, head)
            for sub in list(self.subscribers.get(campaign_id, ())):
                if sub.seat in batches:
                    self._hand(sub, batches[sub.seat])
            if len(rows) < 500:
                return

    def _hand(self, sub: Subscriber, batch: Batch | None) -> None:
        """A batch for ``sub`` (None: check your credential); a full queue drops the stream."""
        try:
            sub.queue.put_nowait(batch)
        except asyncio.QueueFull:
            if sub.dropped is None:
                log.warning("a stream of campaign %s fell %d batches behind: disconnected (it resumes with "
                            "Last-Event-ID)", sub.campaign_id, sub.queue.qsize())
            sub.dropped = "slow"


def hub_of(request: Request) -> Hub:
    state = request.app.state
    found = getattr(state, "stream_hub", None)
    if found is None or found.stakes is not state.stakes:
        found = state.stream_hub = Hub(state.stakes)
    return found


def _too_many(detail: str) -> Response:
    body = Problem(type="/problems/too-many-streams", title="Too many open streams", status=429, detail=detail)
    return Response(body.model_dump_json(exclude_none=True), status_code=429, media_type=MEDIA_TYPE,
                    headers={"Retry-After": str(RETRY_AFTER)})


def _log_frame(entry: Any) -> bytes:
    return format_sse_event(data_str=entry.model_dump_json(), event="log", id=str(entry.position))


def _position(last_event_id: str | None, after: int | None) -> int:
    """Where the stream starts: ``Last-Event-ID`` (ASCII digits only), else ``after``, else the beginning."""
    if last_event_id is not None and last_event_id.strip():
        text = last_event_id.strip()
        if not (len(text) <= 19 and set(text) <= _DIGITS) or int(text) > 2**62:
            raise _BadLastEventId(f"Last-Event-ID must be an entry's number in ASCII digits (0 to 2^62), "
                                  f"not {text[:40]!r}")
        return int(text)
    return after or 0


class _BadLastEventId(Exception):
    pass


async def _still_valid(hub: Hub, sub: Subscriber) -> bool:
    """Whether ``sub``'s credential still works: checked again, as a request is, when a revocation moved the
    generation or ``stream_recheck`` passed; an expired one ends without asking."""
    now = time.time()
    if sub.expires_at is not None and now >= sub.expires_at:
        return False
    moved = hub.fanout.generation != sub.generation
    if not moved and time.monotonic() - sub.checked_at < hub.settings.stream_recheck:
        return True
    generation = hub.fanout.generation  # read before the check: a revocation during it is checked next time
    try:
        async with hub.checks:  # a revocation checks every stream: a few at a time, commands keep their threads
            caller = await run_in_threadpool(deps._caller, hub.stakes, sub.token)
        if deps._seated(caller, sub.campaign_id) != sub.seat:
            return False
    except HTTPException:
        return False
    except Exception as exc:
        log.warning("a stream's credential could not be checked: %s", str(exc).splitlines()[0] if str(exc) else exc)
        if moved:  # a revocation could not be checked: send nothing more; the client reconnects
            return False
        sub.checked_at = time.monotonic()  # a routine check: the stream goes on and checks again later
        return True
    sub.generation, sub.checked_at, sub.expires_at = generation, time.monotonic(), caller.expires_at
    return sub.expires_at is None or time.time() < sub.expires_at


def _end(reason: str) -> bytes:
    return format_sse_event(data_str=json.dumps({"reason": reason}), event="end")


async def _frames(hub: Hub, sub: Subscriber) -> AsyncIterator[bytes]:
    try:
        yield format_sse_event(comment="stakes", retry=RETRY_MS)
        stakes, cid, seat = hub.stakes, sub.campaign_id, sub.seat
        # a position beyond the campaign's last entry (a global position a page or browser held before ids
        # were per campaign) means "up to now": the stream goes on from the last entry, skipping nothing later
        sub.position = min(sub.position, await run_in_threadpool(ledger.last_position, stakes, cid))
        while True:  # the backlog, read by this stream itself; what comes after it is also queued meanwhile
            if not await _still_valid(hub, sub):
                yield _end("credential")
                return
            entries, read_to = await run_in_threadpool(ledger.entries_after, stakes, cid, seat, sub.position)
            fresh = [e for e in entries if e.position > sub.position]
            if fresh:
                yield b"".join(_log_frame(e) for e in fresh)
                head = await run_in_threadpool(stakes.checkpoint, cid, seat)
                yield format_sse_event(data_str=head.model_dump_json(), event="head")
            if read_to <= sub.position:
                break
            sub.position = read_to
        pinged = time.monotonic()
        while True:
            waits = [PING - (time.monotonic() - pinged),
                     hub.settings.stream_recheck - (time.monotonic() - sub.checked_at)]
            if sub.expires_at is not None:
                waits.append(sub.expires_at - time.time())
            if not sub.queue.empty():
                batch = sub.queue.get_nowait()  # a batch, or None: "check your credential"
            else:
                try:  # asyncio.timeout, not wait_for: no task of its own per wait (1,000 streams wake at once)
                    async with asyncio.timeout(max(0.0, min(waits))):
                        batch = await sub.queue.get()
                except TimeoutError:
                    batch = None
            if sub.dropped:
                yield _end(sub.dropped)
                return
            if not await _still_valid(hub, sub):  # before anything more is sent (issue 29)
                yield _end("credential")
                return
            if batch is not None:
                frames = [frame for position, frame in batch.entries if position > sub.position]
                if frames:
                    sub.position = max(position for position, _ in batch.entries)
                    yield b"".join(frames) + batch.head
                    pinged = time.monotonic()
                    continue
            if time.monotonic() - pinged >= PING:
                yield b": ping\n\n"
                pinged = time.monotonic()
    finally:
        hub.release(sub)


_STREAM_DOC = ("text/event-stream: `event: log`, `id:` the entry's number within the campaign's log, `data:` the "
               "entry as `GET /log` shows it to this seat; after each batch `event: head`, `data:` the signed head "
               "(a Checkpoint); when the credential stops working (revoked, expired) or the client reads too "
               "slowly, `event: end`, `data: {\"reason\": …}`, and the stream closes.")


@router.get("/campaigns/{campaign_id}/stream", response_class=StreamingResponse,
            responses={200: {"description": _STREAM_DOC, "content": {"text/event-stream": {"schema": {"type": "string"}}}},
                       400: {"model": Problem, "content": {MEDIA_TYPE: {}},
                             "description": "Last-Event-ID is not an entry's number in ASCII digits"},
                       **{code: PROBLEM_RESPONSES[code] for code in (401, 403, 404, 409, 422, 503)},
                       429: {"model": Problem, "content": {MEDIA_TYPE: {}},
                             "description": "Too many open streams for this credential or this server; "
                                            "wait Retry-After seconds",
                             "headers": {"Retry-After": {"description": "Seconds to wait",
                                                         "schema": {"type": "integer"}}}}})
async def stream(
    campaign_id: UUID, request: Request, stakes: StakesDep,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
    last_event_id: Annotated[str | None, Header(description="Resume after this entry's number (ASCII digits).")]
    = None,
    after: Annotated[int | None, Query(ge=0, le=2**62, description="Start after this entry's number (default: "
                                                                    "the beginning; Last-Event-ID wins).")] = None,
) -> Response:
    """The campaign's log, live, censored for the caller's seat (C-5). Authenticate with the bearer token, or
    in a browser with the cookie the web view's sign-in sets."""
    token = deps._token(request, credentials)
    caller = await run_in_threadpool(deps._caller, stakes, token)
    seat = deps._seated(caller, campaign_id)
    await run_in_threadpool(stakes.viewer, campaign_id, seat)
    try:
        position = _position(last_event_id, after)
    except _BadLastEventId as exc:
        return problem(request, 400, "bad-last-event-id", "Last-Event-ID is not an entry's number", str(exc))
    hub = hub_of(request)
    admitted = await hub.admit(campaign_id, caller, token or "")
    if isinstance(admitted, Response):
        return admitted
    admitted.position = position
    frames = _frames(hub, admitted)
    weakref.finalize(frames, hub.release, admitted)  # a response never sent still frees its place
    return StreamingResponse(frames, media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
