"""``GET /campaigns/{id}/stream``: the campaign's log as Server-Sent Events, one stream per seat (issues 14, 29).

Each ``log`` frame is one log entry exactly as ``GET /log`` shows it to the same seat (C-5): the same
rows and the same censoring (``adapters.ledger``); entries the seat may not see are never sent. After
each batch a ``head`` frame (no id) carries the campaign's signed head (C-2, ``GET …/audit/checkpoint``).
A frame's id is the entry's number within its campaign's log (1, 2, 3 …, never the global position, which
would reveal other campaigns' activity), so a client that reconnects with ``Last-Event-ID`` (browsers do it
by themselves) gets every later entry once, without a gap or a repeat. ``Last-Event-ID`` that is not a
number in ASCII digits is refused 400 (a browser only ever sends back an id it was given).

One notifier per process (:class:`Hub`) feeds every stream: woken by the fan-out (``adapters.fanout``), it
reads what is new once per campaign (on its own thread), censors it once per seat, and encodes each seat's
batch once, as the very bytes of one HTTP chunk. A live stream's connection is then written to by the hub
itself (:class:`_Wire`, under uvicorn), a hundred streams between two yields to the event loop: no task,
generator, JSON or ASGI ``send`` per stream and batch (issue 32). Whatever is not routine goes through the
stream's own task and the ASGI ``send``, in order: its backlog (a stream opened with an older position reads
it itself, then follows), a credential to check, an end, a keep-alive, or batches the hub left pending
(bounded) while that task was busy. Under another server or a test transport every batch takes that path.

A stream ends (an ``end`` frame, then the response closes) when its credential stops working: a revocation
(``Fanout.revoked``: a reissued seat, a signed-out web session) makes every stream check its credential
again, through ``api.deps`` as a request does, before it sends anything more; a credential that expires by
itself (``Caller.expires_at``) ends its streams at that moment; another process's revocation on SQLite is
seen by the fanout's file watcher within a quarter of a second (and before any row read after it is handed
out, ``Fanout.sync``); one nothing carries (LISTEN down) is found within ``Settings.stream_recheck`` seconds. Its client's reconnect is
then answered 401. A client that falls behind (``stream_buffer`` bytes unread, 1 MiB, or ``stream_queue`` batches pending) is
disconnected too (it reconnects with Last-Event-ID).
Caps: ``Settings.streams_per_credential`` (counted per seat: its token and web sessions together) and
``streams_per_process``, answered 429 with Retry-After.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import random
import socket
import time
import weakref
from collections import Counter, deque
from concurrent.futures import ThreadPoolExecutor
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
#: The notifiers' reading thread (one per process; started on first use).
_READER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="stakes-stream-hub")


@dataclass(eq=False)
class Subscriber:
    """One open stream: its seat, its credential, and what the hub left for its own task."""

    campaign_id: UUID
    seat: Seat
    token: str
    credential: str  # the seat's digest (campaign and seat): what the per-credential cap counts
    expires_at: float | None
    generation: int  # the fan-out's revocation generation its credential was last checked at
    limit: int  # batches that may wait for its task before the stream is dropped as slow
    position: int = 0  # the number of the last entry sent
    checked_at: float = field(default_factory=time.monotonic)
    pinged: float = field(default_factory=time.monotonic)  # when it was last sent anything
    dropped: str | None = None  # why the hub dropped it (it fell behind)
    gone: bool = False  # its client disconnected
    busy: bool = True  # its own task is sending or checking: the hub leaves batches in ``pending``
    wire: _Wire | None = None  # the connection, written to directly by the hub while the stream is live
    pending: deque[Batch] = field(default_factory=deque)
    wake: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass(frozen=True)
class Batch:
    """What the hub read once for a campaign, as one seat sees it, encoded once for every stream of that seat:
    the (position, frame) pairs, the head, and all of it joined (and framed as one HTTP chunk)."""

    entries: tuple[tuple[int, bytes], ...]
    head: bytes
    payload: bytes = b""
    chunk: bytes = b""

    @classmethod
    def of(cls, entries: tuple[tuple[int, bytes], ...], head: bytes) -> Batch:
        payload = b"".join(frame for _, frame in entries) + head
        return cls(entries, head, payload, b"%x\r\n%b\r\n" % (len(payload), payload))

    @property
    def first(self) -> int:
        return self.entries[0][0]

    @property
    def last(self) -> int:
        return self.entries[-1][0]

    def after(self, position: int) -> bytes:
        """The frames after ``position`` and the head (b"" when none is new)."""
        if self.first > position:
            return self.payload
        frames = [frame for at, frame in self.entries if at > position]
        return b"".join(frames) + self.head if frames else b""


class _Wire:
    """The HTTP/1.1 connection under one stream (uvicorn's), written to directly: no task, generator or ASGI
    ``send`` chain per stream and batch. Only used once the response has started as chunked (or HTTP/1.0
    close-delimited) body; anything else (another server, a test transport) keeps the ASGI path."""

    __slots__ = ("chunked", "cycle", "limit", "transport")

    def __init__(self, cycle: Any, transport: Any, chunked: bool, limit: int) -> None:
        self.cycle, self.transport, self.chunked = cycle, transport, chunked
        #: Bytes waiting in the connection's write buffer beyond which its client counts as too slow
        #: (``Settings.stream_buffer``).
        self.limit = limit
        # The kernel's send buffer grows by itself up to megabytes (tcp_wmem) for a client that does not read:
        # held to the same order as the bound, so what an unread stream costs the server stays bounded.
        sock = transport.get_extra_info("socket")
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, min(limit, 1 << 18))

    @classmethod
    def under(cls, raw_send: Any, limit: int) -> _Wire | None:
        cycle = getattr(raw_send, "__self__", None)
        transport = getattr(cycle, "transport", None)
        if transport is None or not hasattr(transport, "get_write_buffer_size"):
            return None
        writer = getattr(getattr(cycle, "conn", None), "_writer", None)  # h11
        kind = type(writer).__name__ if writer is not None else None
        if kind == "ChunkedWriter" or (writer is None and getattr(cycle, "chunked_encoding", None) is True):
            return cls(cycle, transport, True, limit)  # h11, or httptools (which frames chunks itself)
        if kind == "Http10Writer":
            return cls(cycle, transport, False, limit)
        return None

    def write(self, batch: Batch, data: bytes | None = None) -> str | None:
        """Write a batch (or ``data``); None when written, else why not ("gone", "slow")."""
        if getattr(self.cycle, "disconnected", False) or self.transport.is_closing():
            return "gone"
        if self.transport.get_write_buffer_size() > self.limit:
            return "slow"
        if data is None:
            self.transport.write(batch.chunk if self.chunked else batch.payload)
        else:
            self.transport.write(b"%x\r\n%b\r\n" % (len(data), data) if self.chunked else data)
        return None


class Hub:
    """The one notifier of a server process: reads what is new once per campaign and fans it out per seat."""

    #: Streams written to between two yields to the event loop (commands are served in between).
    CHUNK = 100
    #: At most this share of the time is spent in the notifier's passes (issue 32): after a pass that took
    #: ``t`` seconds the next starts ``t × (1 / SHARE - 1)`` later at the earliest (never more than ``SPACING``
    #: later).
    #: A move at a quiet table, or at a table of a few streams (a pass of a fraction of a millisecond), goes out
    #: at once; moves arriving faster than a thousand streams' pass allows go out together, one write per stream
    #: for all of them, so the streams cost the commands a bounded share of the process, not a write per stream
    #: for every move. A pass over a thousand streams is about 12 ms, 10 of them the event loop's CPU, and the
    #: client reading the streams wants a share of the machine for each pass too: commands at such a table ran
    #: at up to 1.25× their idle latency with a fifth, up to 1.22× with an eighth (PostgreSQL; the client on the
    #: same two cores), 0.99–1.10× with a tenth. ``SPACING`` bounds what pacing adds to a move's way to every
    #: stream when the machine is slow and a pass long (p99 140–210 ms with an eighth and no bound).
    SHARE = 0.1
    SPACING = 0.15

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
        #: Per seat digest, then per token digest: the revocation generation, time and outcome (a Caller, or
        #: None: refused) of that token's last check, shared by every stream of that token (not of the seat: a
        #: signed-out web session's refusal must not end the same seat's bearer stream).
        self.checked: dict[str, dict[str, tuple[int, float, deps.Caller | None]]] = {}

    async def _read(self, fn: Any, *args: Any) -> Any:
        """A store read of the notifier's, on its own thread: neither on the event loop nor taking a thread
        from the commands' pool."""
        return await asyncio.get_running_loop().run_in_executor(_READER, fn, *args)

    # -- subscribing ------------------------------------------------------------------------------
    async def admit(self, campaign_id: UUID, caller: deps.Caller, token: str,
                    generation: int | None = None) -> Subscriber | Response:
        """A stream of ``caller``'s, counted, or a 429. ``generation``: the revocation generation read before its
        credential was looked up (the current one if not given)."""
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
        sub = Subscriber(campaign_id, caller.seat, token, credential, caller.expires_at,
                         self.fanout.generation if generation is None else generation, self.settings.stream_queue)
        # routine checks spread over the interval, so streams opened together do not all check at once
        sub.checked_at -= random.uniform(0, self.settings.stream_recheck)
        self.open += 1
        self.per_credential[credential] += 1
        self.subscribers.setdefault(campaign_id, set()).add(sub)  # counted from here; ``release`` frees it
        if campaign_id not in self.read_to:  # the hub follows this campaign from where its log is now
            try:
                last = await self._read(ledger.last_position, self.stakes, campaign_id)
            except BaseException:
                self.release(sub)
                raise
            self.read_to.setdefault(campaign_id, last)
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run(), name="stakes-stream-hub")
        return sub

    def release(self, sub: Subscriber) -> None:
        """The stream ended (or never started): it stops counting; idempotent."""
        sub.wire = None
        found = self.subscribers.get(sub.campaign_id)
        if found is None or sub not in found:
            return
        found.discard(sub)
        self.open -= 1
        self.per_credential[sub.credential] -= 1
        if self.per_credential[sub.credential] <= 0:
            del self.per_credential[sub.credential]
            self.checked.pop(sub.credential, None)
        if not found:
            del self.subscribers[sub.campaign_id]
            self.read_to.pop(sub.campaign_id, None)

    # -- the notifier -------------------------------------------------------------------------------
    async def _run(self) -> None:
        # the first pass at once, over every campaign: what was stored while the streams were being admitted
        seen, earliest, every = -1, 0.0, True
        while self.subscribers:
            woken = await self.fanout.wait(POLL, seen)  # a wake-up during the last pass is not lost
            try:
                self._revocations()
                rest = earliest - time.monotonic()
                if rest > 0:  # a busy table: the moves made meanwhile go out together (``SHARE``)
                    await asyncio.sleep(rest)
                    self._revocations()
                seen, began = self.fanout.wakes, time.monotonic()  # what this pass reads covers those wake-ups
                changed = self.fanout.changed()  # taken after ``seen``: a later wake-up's campaigns, a later pass
                if not woken:  # another process may have written (SQLite, or LISTEN down)
                    await self._read(self.stakes.catch_up)
                    changed = None
                if every:
                    changed, every = None, False
                for campaign_id in list(self.subscribers):
                    if changed is None or campaign_id.hex in changed:  # a campaign whose log did not grow: no read
                        await self._campaign(campaign_id)
            except Exception:  # a store outage: the streams wait, and the next wake or poll tries again
                log.exception("the stream notifier could not read the log")
                every = True  # over every campaign: the campaigns this pass had taken to read are not named again
            else:
                ended = time.monotonic()
                earliest = ended + min((ended - began) * (1 / self.SHARE - 1), self.SPACING)

    def _revocations(self) -> None:
        if self.fanout.generation != self.generation:  # a credential was revoked: every stream checks its own
            self.generation = self.fanout.generation
            for subs in list(self.subscribers.values()):
                for sub in subs:
                    sub.wake.set()

    async def _campaign(self, campaign_id: UUID) -> None:
        while campaign_id in self.read_to:
            after = self.read_to[campaign_id]
            rows = await self._read(ledger._rows, self.stakes, campaign_id, after, 500)
            if not rows or campaign_id not in self.read_to:
                return
            self.read_to[campaign_id] = rows[-1]["seq"]
            await self._read(self.fanout.sync)  # SQLite: another process's revocation before these rows
            seats = {sub.seat for sub in self.subscribers.get(campaign_id, ())}
            batches, head = {}, b""
            for seat in seats:
                entries = tuple((e.position, _log_frame(e)) for r in rows
                                if (e := ledger._log_entry(r, seat)) is not None)
                if entries:
                    if not head:  # the campaign's signed head is the same for every seat: signed once a batch
                        signed = await self._read(heads.current, self.stakes, campaign_id)
                        head = format_sse_event(data_str=signed.model_dump_json(), event="head")
                    batches[seat] = Batch.of(entries, head)
            for k, sub in enumerate(list(self.subscribers.get(campaign_id, ()))):
                if k and k % self.CHUNK == 0:
                    await asyncio.sleep(0)  # commands and other requests are served between chunks
                batch = batches.get(sub.seat)
                if batch is not None:
                    self._hand(sub, batch)
            if len(rows) < 500:
                return

    def _hand(self, sub: Subscriber, batch: Batch) -> None:
        """Write ``batch`` to a live stream's connection at once when nothing stands in the way (its credential
        checked at the current revocation generation, not expired, not due for a routine check, its task idle);
        else leave it for the stream's own task. Too many left waiting drops the stream."""
        if sub.wire is not None and not sub.busy and not sub.pending and not sub.dropped and not sub.gone \
                and sub.generation == self.fanout.generation \
                and (sub.expires_at is None or time.time() < sub.expires_at) \
                and time.monotonic() - sub.checked_at < self.settings.stream_recheck:
            data = None if batch.first > sub.position else batch.after(sub.position)
            if data == b"":
                return
            why = sub.wire.write(batch, data)
            if why is None:
                sub.position, sub.pinged = batch.last, time.monotonic()
                return
            if why == "gone":
                sub.gone = True
            else:
                self._drop(sub)
            sub.wake.set()
            return
        if len(sub.pending) >= sub.limit:
            self._drop(sub)
        else:
            sub.pending.append(batch)
        sub.wake.set()

    def _drop(self, sub: Subscriber) -> None:
        if sub.dropped is None:
            log.warning("a stream of campaign %s fell behind: disconnected (it resumes with Last-Event-ID)",
                        sub.campaign_id)
        sub.dropped = "slow"


#: The key under which ``install`` leaves the server's own ASGI ``send`` in the scope (see ``_Wire``).
RAW_SEND = "stakes.raw_send"


def install(app: Any) -> None:
    """Keeps the server's own ``send`` in each HTTP scope, under every middleware: a live stream's
    connection is found from it (``_Wire.under``). Middleware only ever sees the response's start."""
    build = app.build_middleware_stack

    def capturing() -> Any:
        inner = build()

        async def capture(scope: Any, receive: Any, send: Any) -> None:
            if scope["type"] == "http":
                scope[RAW_SEND] = send
            await inner(scope, receive, send)

        return capture

    app.build_middleware_stack = capturing


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


async def _still_valid(hub: Hub, sub: Subscriber, recheck: bool = False) -> bool:
    """Whether ``sub``'s credential still works: checked again, as a request is, when a revocation moved the
    generation, ``stream_recheck`` passed or the caller asks (``recheck``: rows just read from the store);
    an expired one ends without asking."""
    now = time.time()
    if sub.expires_at is not None and now >= sub.expires_at:
        return False
    moved = recheck or hub.fanout.generation != sub.generation
    if not moved and time.monotonic() - sub.checked_at < hub.settings.stream_recheck:
        return True
    generation = hub.fanout.generation  # read before the check: a revocation during it is checked next time
    try:
        async with hub.checks:  # a revocation checks every stream: a few at a time, commands keep their threads
            # one lookup per token, not per stream: a check of the same token at this generation, younger
            # than ``stream_recheck``, stands for every stream of it (one token may hold many)
            token_key = hashlib.sha256(sub.token.encode()).hexdigest()
            known = hub.checked.get(sub.credential, {}).get(token_key)
            if not recheck and known is not None and known[0] == generation and time.monotonic() - known[1] < \
                    hub.settings.stream_recheck:
                at, caller = known[1], known[2]
            else:
                at = time.monotonic()
                try:
                    caller = await run_in_threadpool(deps._caller, hub.stakes, sub.token)
                except HTTPException:
                    caller = None
                if sub.credential in hub.per_credential:
                    hub.checked.setdefault(sub.credential, {})[token_key] = (generation, at, caller)
        if caller is None or deps._seated(caller, sub.campaign_id) != sub.seat:
            return False
    except HTTPException:
        return False
    except Exception as exc:
        log.warning("a stream's credential could not be checked: %s", str(exc).splitlines()[0] if str(exc) else exc)
        if moved:  # a revocation could not be checked: send nothing more; the client reconnects
            return False
        sub.checked_at = time.monotonic()  # a routine check: the stream goes on and checks again later
        return True
    sub.generation, sub.checked_at, sub.expires_at = generation, at, caller.expires_at
    return sub.expires_at is None or time.time() < sub.expires_at


def _end(reason: str) -> bytes:
    return format_sse_event(data_str=json.dumps({"reason": reason}), event="end")


class _Live(Response):
    """The stream's response: its backlog and everything out of the ordinary (credential checks, ends, pings,
    batches the hub left) go through the ASGI ``send``; while it is live the hub writes to its connection."""

    media_type = "text/event-stream"

    def __init__(self, hub: Hub, sub: Subscriber) -> None:
        # no body (``Response.__init__`` would announce Content-Length: 0): the headers a StreamingResponse sends
        self.status_code, self.background = 200, None
        self.raw_headers = [(b"content-type", b"text/event-stream; charset=utf-8"), (b"cache-control", b"no-cache"),
                            (b"x-accel-buffering", b"no")]
        self.hub, self.sub = hub, sub

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        hub, sub = self.hub, self.sub
        listener = asyncio.get_running_loop().create_task(_listen(receive, sub))
        send = _bounded(send, scope.get(RAW_SEND), hub.settings.stream_send_wait, sub)
        try:
            await send({"type": "http.response.start", "status": self.status_code, "headers": self.raw_headers})
            ended = await _serve(hub, sub, send, scope.get(RAW_SEND))
            if not sub.gone:
                await send({"type": "http.response.body", "body": ended, "more_body": False})
        except _HungUp:
            pass
        finally:
            sub.wire = None
            listener.cancel()
            hub.release(sub)


class _HungUp(Exception):
    """The server hung up on a client that stopped reading (``_bounded``)."""


def _bounded(send: Any, raw_send: Any, seconds: float, sub: Subscriber) -> Any:
    """``send``, waiting at most ``seconds`` for a client to take what is already waiting for it (uvicorn's
    ``send`` waits while the connection's buffer is over its high-water mark, for as long as the client lets
    it): past that the client counts as gone and its connection is cut, so a stream whose client stopped
    reading frees its memory and its place within ``seconds`` (issue 29), its ``end`` frame included. Under
    another server, ``send`` as it is."""
    transport = getattr(getattr(raw_send, "__self__", None), "transport", None)
    if transport is None or not hasattr(transport, "abort"):
        return send

    async def bounded(message: Any) -> None:
        try:
            async with asyncio.timeout(seconds):
                await send(message)
        except TimeoutError:
            if sub.dropped is None:
                log.warning("a stream of campaign %s stopped reading: disconnected", sub.campaign_id)
            sub.gone = True
            transport.abort()
            raise _HungUp from None

    return bounded


async def _listen(receive: Any, sub: Subscriber) -> None:
    """Notices the client going away (the hub then stops writing to it, and its place is freed)."""
    while (await receive())["type"] != "http.disconnect":
        pass
    sub.gone = True
    sub.wake.set()


async def _serve(hub: Hub, sub: Subscriber, send: Any, raw_send: Any) -> bytes:
    """Runs one stream until it ends; returns its last bytes (an ``end`` frame, or nothing for a gone client)."""

    async def body(data: bytes) -> None:
        await send({"type": "http.response.body", "body": data, "more_body": True})
        sub.pinged = time.monotonic()

    await body(format_sse_event(comment="stakes", retry=RETRY_MS))
    stakes, cid, seat = hub.stakes, sub.campaign_id, sub.seat
    # a position beyond the campaign's last entry (a global position a page or browser held before ids
    # were per campaign) means "up to now": the stream goes on from the last entry, skipping nothing later
    sub.position = min(sub.position, await run_in_threadpool(ledger.last_position, stakes, cid))
    while True:  # the backlog, read by this stream itself; what comes after it is left pending meanwhile
        if sub.gone:
            return b""
        if not await _still_valid(hub, sub):
            return _end("credential")
        entries, read_to = await run_in_threadpool(ledger.entries_after, stakes, cid, seat, sub.position)
        fresh = [e for e in entries if e.position > sub.position]
        if fresh:
            # the rows are read: a revocation committed before any of them is seen now, so nothing written
            # after it reaches the old holder (issue 29; another process may have revoked and written while
            # this backlog was being read: SQLite looks at the credential tables, and the credential is
            # looked up again on either store, since a PostgreSQL notification may still be on its way)
            await run_in_threadpool(hub.fanout.sync)
            if not await _still_valid(hub, sub, recheck=True):
                return _end("credential")
            head = await run_in_threadpool(stakes.checkpoint, cid, seat)
            await body(b"".join(_log_frame(e) for e in fresh)
                       + format_sse_event(data_str=head.model_dump_json(), event="head"))
        if read_to <= sub.position:
            break
        sub.position = read_to
    sub.wire = _Wire.under(raw_send, hub.settings.stream_buffer) if raw_send is not None else None
    while True:
        sub.wake.clear()
        if sub.gone:
            return b""
        if sub.dropped:
            return _end(sub.dropped)
        now = time.monotonic()
        if (sub.pending or sub.generation != hub.fanout.generation
                or now - sub.checked_at >= hub.settings.stream_recheck
                or (sub.expires_at is not None and time.time() >= sub.expires_at)):
            sub.busy = True  # the hub leaves batches pending meanwhile: they go out in order
            if not await _still_valid(hub, sub):  # before anything more is sent (issue 29)
                return _end("credential")
            while sub.pending and not sub.gone and not sub.dropped:
                batch = sub.pending.popleft()
                data = batch.after(sub.position)
                if data:
                    sub.position = batch.last
                    await body(data)
            sub.busy = False
            continue
        if now - sub.pinged >= PING:
            sub.busy = True
            await body(b": ping\n\n")
            sub.busy = False
            continue
        waits = [PING - (now - sub.pinged), hub.settings.stream_recheck - (now - sub.checked_at)]
        if sub.expires_at is not None:
            waits.append(sub.expires_at - time.time())
        sub.busy = False  # idle: the hub writes to the connection itself from here
        try:  # asyncio.timeout, not wait_for: no task of its own per wait
            async with asyncio.timeout(max(0.0, min(waits))):
                await sub.wake.wait()
        except TimeoutError:
            pass


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
    hub = hub_of(request)
    # the revocation generation before the credential is looked up: a revocation that lands between the lookup
    # and the admission leaves the stream at an older generation, so it checks again before sending anything
    # (red team: stamped at the admission, such a stream counted as checked and carried rows written after the
    # revocation until the routine re-check)
    generation = hub.fanout.generation
    caller = await run_in_threadpool(deps._caller, stakes, token)
    seat = deps._seated(caller, campaign_id)
    await run_in_threadpool(stakes.viewer, campaign_id, seat)
    try:
        position = _position(last_event_id, after)
    except _BadLastEventId as exc:
        return problem(request, 400, "bad-last-event-id", "Last-Event-ID is not an entry's number", str(exc))
    admitted = await hub.admit(campaign_id, caller, token or "", generation)
    if isinstance(admitted, Response):
        return admitted
    admitted.position = position
    response = _Live(hub, admitted)
    weakref.finalize(response, hub.release, admitted)  # a response never sent still frees its place
    return response
