"""The projection runner: applies the notification log to the read models, in batches, exactly once.

Each batch and its tracking position are written in one transaction (``views.project``) that first takes
the projection's lock (a PostgreSQL advisory lock, SQLite's write lock) and reads the position again
inside it, so whichever process gets there first applies an event and the others skip it (ADR 0012). A
conflict that still happens (a store error) rolls the batch back and the runner reads the position again.
"""

from __future__ import annotations

import gc
import json
import logging
import threading
import time
from collections.abc import Callable, Generator, Iterator
from contextlib import closing, contextmanager
from typing import Any
from uuid import UUID

from eventsourcing.domain import OriginatorVersionError
from eventsourcing.persistence import IntegrityError, OperationalError, Tracking
from eventsourcing.utils import resolve_topic

from adapters.recorders import waited
from adapters.views import hex_id, unit_kinds, unread
from domain.errors import StakesError

#: Events read, decoded and projected in one transaction. Each commit costs its WAL pages on SQLite and a
#: round trip on PostgreSQL; a rebuild projected 39,800 events/s at 500 and 44,900 at 2,000 (10,000-event
#: campaign, SQLite). A command's own catch-up is a few events whatever this is.
BATCH = 2000
#: A rebuild's batches (ADR 0037): the read models are emptied and nothing reads them meanwhile, so fewer,
#: larger transactions (fewer commits, unit reads and COPY round trips on PostgreSQL) cost less; another
#: process's catch-up waits for the projection's lock a batch at a time (about 0.3 s here).
REBUILD_BATCH = 10_000
#: Events applied in one catch-up after which the planner's statistics are stale: PostgreSQL would otherwise
#: plan the rebuilt tables as empty until autovacuum's next pass (the debt register's first page went from
#: 6 ms to 31 ms at 1M events, sorting every loan instead of reading the campaign's index in order).
ANALYZE_AFTER = 10_000
CONFLICTS = 50
#: A race with another projector, or the store being down: retried, never set aside.
CONFLICTS_OR_OUTAGES = (IntegrityError, OperationalError, OriginatorVersionError)
log = logging.getLogger("stakes.projection")


def _campaign_of(event: Any) -> str | None:
    if event is None:
        return None
    if type(event).__qualname__.startswith("Campaign."):
        return hex_id(event.originator_id)
    found = getattr(event, "campaign_id", None)
    return hex_id(found) if isinstance(found, UUID | str) else None


#: The library's transcodings whose stored text is the very value the read models keep: a stream's or a
#: campaign's id as its 32 hex digits, a time as its ISO 8601 text (``event_detail``, ``at``).
AS_TEXT = frozenset({"uuid_hex", "datetime_iso"})
_TYPED = b'"_type_"'
_JSON = json.JSONDecoder().decode  # the library's transcoder without its hook: UTF-8, then JSON


class Decoder:
    """Stored events as the projection reads them (ADR 0037): the read models keep no row of a kernel record
    (None: ``unread``); a unit's event is the library's own domain event (the projection applies it to the unit
    with the aggregate's own mutators); every other event is an instance of its class whose fields are the
    stored JSON as it is, the ids and times it holds at the top level left as their stored text (hex digits,
    ISO 8601), which is what the handlers write to the read models. That skips the library's per-value
    decoding hook, the ids and times built only to be written out again as text, and its upcasting chain,
    which applies to no class at version 1. Anything else (a class at a later version, an event holding a
    typed value deeper down or of another type, a cipher) is decoded by the library's mapper."""

    def __init__(self, mapper: Any) -> None:
        self.mapper = mapper
        self.classes: dict[str, Any] = {}  # topic -> the event's class, or None: the mapper decodes it
        self.kinds: Any = None

    def __call__(self, note: Any) -> Any:
        topic = note.topic
        if unread(topic):
            return None
        cls = self.classes.get(topic, self)
        if cls is self:
            cls = self.classes[topic] = self._class(topic)
        mapper = self.mapper
        if cls is None:
            return mapper.to_domain_event(note)
        try:
            data = note.state if mapper.compressor is None else mapper.compressor.decompress(note.state)
            state = _JSON(data.decode("utf8"))
            typed = data.count(_TYPED)
            if typed:
                for key, value in state.items():
                    if value.__class__ is dict and len(value) == 2 and value.get("_type_") in AS_TEXT \
                            and value.get("_data_").__class__ is str:
                        state[key] = value["_data_"]
                        typed -= 1
        except Exception:  # the mapper says what is wrong with it, as it says it everywhere else
            return mapper.to_domain_event(note)
        if typed or state.__class__ is not dict or "class_version" in state:  # deeper or other typed values,
            return mapper.to_domain_event(note)  # or an older shape to upcast
        state["originator_id"] = note.originator_id
        state["originator_version"] = note.originator_version
        event = object.__new__(cls)
        object.__setattr__(event, "__dict__", state)
        return event

    def refresh(self) -> Decoder:
        """Before a page: when the registry changed (a test swaps it), so may have its unit kinds."""
        kinds = unit_kinds()
        if kinds is not self.kinds:
            self.classes, self.kinds = {}, kinds
        return self

    def _class(self, topic: str) -> Any:
        cls = resolve_topic(topic)
        if self.mapper.cipher is not None or getattr(cls, "class_version", 1) != 1:
            return None
        return None if cls.__qualname__.split(".", 1)[0] in self.kinds else cls


class StoreUnavailable(Exception):
    """The event store or the read models cannot be reached or written (HTTP 503, CLI exit 9)."""


class NeedsRepair(StakesError):
    """An event of this campaign could not be projected; the campaign is marked for repair (HTTP 409).
    Every other campaign goes on."""


class ProjectionRunner:
    """``analyze``: whether a large catch-up refreshes the planner's statistics (not for the audit's scratch
    store, which is read once and dropped: ADR 0039)."""

    def __init__(self, app: Any, views: Any, analyze: bool = True) -> None:
        self.app, self.views, self.analyze = app, views, analyze
        self._lock = threading.Lock()
        self._decode = Decoder(app.mapper)

    def position(self) -> int:
        return self.views.max_tracking_id(self.app.name) or 0

    def catch_up(self, progress: Callable[[int, int], None] | None = None, batch: int | None = None) -> int:
        """Apply every event not yet projected; returns how many were applied. After a large catch-up (a
        rebuild, a server started on an empty read store) the store's planner statistics are refreshed.
        ``batch``: events a transaction, BATCH by default."""
        applied = self._catch_up(progress, batch or BATCH)
        if self.analyze and applied >= ANALYZE_AFTER:
            self.views.analyze()
        return applied

    def _catch_up(self, progress: Callable[[int, int], None] | None, size: int) -> int:
        applied, conflicts = 0, 0
        with self._lock:
            self.views.forget_projected()  # what an earlier catch-up of this thread left is not this one's
            while True:  # each pass reads the log from the position; a conflict or a bad event starts anew
                with closing(self._pages(self.position() + 1, size)) as pages:
                    for notes, batch in pages:
                        if batch is None:  # an event that cannot be decoded: find it, set it aside
                            applied += self._one_by_one(notes)
                            break
                        try:
                            done = self.views.project(self.app.name, batch)  # skips what another process applied
                        except CONFLICTS_OR_OUTAGES as exc:
                            if waited(exc):  # the store made us wait its whole timeout: down for this request
                                raise StoreUnavailable(f"the read models cannot catch up: {exc}") from exc
                            # Another process projected these first (its rows, or a unit's snapshot already
                            # past this event): this transaction rolled back; read the position again.
                            conflicts += 1
                            if conflicts > CONFLICTS:
                                raise StoreUnavailable(f"the read models cannot catch up: {exc}") from exc
                            time.sleep(0.01 * conflicts)
                            break
                        except Exception:
                            applied += self._one_by_one(notes)
                            break
                        applied += done
                        if progress:
                            progress(applied, self.app.recorder.max_notification_id() or applied)
                    else:
                        return applied

    def _pages(self, start: int, size: int) -> Generator[tuple[list[Any], list[tuple[Any, Any]] | None], None, None]:
        """The log from ``start`` a page at a time, each with its events decoded (None: one cannot be). A
        short page is the log's end as it was read: no second look. (Reading the next page in a second
        thread while this one is projected was measured slower on both stores: the threads contend for the
        interpreter, even while PostgreSQL's server writes.)"""

        recorder = self.app.recorder
        select = getattr(recorder, "log_page", None)  # the store's lean read of the log (ADR 0037), else the library's

        def read(since: int) -> tuple[list[Any], list[tuple[Any, Any]] | None]:
            notes = select(since, size) if select is not None else recorder.select_notifications(start=since,
                                                                                               limit=size)
            try:
                decode = self._decode.refresh()
                return notes, [(decode(n), n) for n in notes]
            except Exception:
                return notes, None

        notes, batch = read(start)
        while notes:
            yield notes, batch
            if len(notes) < size:
                return
            notes, batch = read(notes[-1].id + 1)

    def _decoded(self, note: Any) -> Any:
        """The event of a stored one as the projection reads it (``Decoder``), or None for an event the read
        models keep no row of."""
        return self._decode.refresh()(note)

    def _one_by_one(self, notes: list[Any]) -> int:
        """Project ``notes`` one at a time; an event that fails marks its campaign for repair."""
        applied = 0
        for note in notes:
            event = None
            try:
                event = self._decoded(note)
                applied += self.views.project(self.app.name, [(event, note)])
            except CONFLICTS_OR_OUTAGES:
                return applied  # the caller reads the position again
            except Exception as exc:
                campaign = _campaign_of(event)
                log.error("event %s cannot be projected (%s): campaign %s is marked for repair", note.id,
                          type(exc).__name__, campaign or "unknown")
                self._quarantine(note, campaign, f"{type(exc).__name__}: {exc}")
        return applied

    def _quarantine(self, notification: Any, campaign: str | None, detail: str) -> None:
        """Mark the event's campaign for repair and step past the event, atomically: one event the read
        models cannot take never stops the other campaigns."""
        views = self.views
        with views.datastore.transaction(commit=True) as c:
            if campaign is None:
                row = views._one(c, "SELECT campaign_id FROM {p}streams WHERE originator_id = ?",
                                 (hex_id(notification.originator_id),))
                campaign = row["campaign_id"] if row else ""
            views._x(c, "INSERT INTO {p}repairs VALUES (?, ?, ?) ON CONFLICT (campaign_id) DO NOTHING",
                     (campaign, notification.id, detail[:500]))
            if notification.originator_version == 1:  # its later events find the campaign, and wait
                kind = notification.topic.rsplit(":", 1)[-1].split(".")[0]
                views._x(c, "INSERT INTO {p}streams VALUES (?, ?, ?) ON CONFLICT (originator_id) DO NOTHING",
                         (hex_id(notification.originator_id), campaign, kind))
            views._insert_tracking(c, Tracking(self.app.name, notification.id))

    def rebuild(self, progress: Callable[[int, int], None] | None = None) -> int:
        """Empty every read model and project the whole log again; returns the events applied. The cyclic
        garbage collector pauses meanwhile (``collector_paused``)."""
        with collector_paused():
            with self._lock:
                self.views.reset(self.app.name)
            return self.catch_up(progress, REBUILD_BATCH)


_paused = [0]
_pausing = threading.Lock()


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off while a rebuild runs (ADR 0037). A batch allocates a hundred
    thousand objects that stay alive until it commits (events, rows, tuples), none of them in a cycle, so
    each collection walks them for nothing; a full one also walks every object of the process (measured on
    a 10,000-event rebuild: up to 80 ms of 500). Reference counting still frees what the batch drops; the
    collector resumes when the last rebuild of the process ends, where it was if it was off before."""
    with _pausing:
        if _paused[0] == 0:
            _paused.append(gc.isenabled())
            gc.disable()
        _paused[0] += 1
    try:
        yield
    finally:
        with _pausing:
            _paused[0] -= 1
            if _paused[0] == 0 and _paused.pop():
                gc.enable()
