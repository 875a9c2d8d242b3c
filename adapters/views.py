"""Read models, the projection that keeps them, and the seat-token table.

The projection writes its rows and its tracking position in one transaction,
so every event applies exactly once and a restart resumes where it stopped.
The same SQL serves SQLite and PostgreSQL: statements are written with ``?``
placeholders and ``{p}`` before each table name, and each dialect class below
says how to spell those.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

from eventsourcing.domain import Snapshot
from eventsourcing.persistence import Tracking
from eventsourcing.postgres import PostgresTrackingRecorder
from eventsourcing.sqlite import SQLiteTrackingRecorder
from psycopg.adapt import Loader
from psycopg.sql import SQL

import domain.systems
from adapters import chart, luck
from adapters.plugin import ProjectionContext
from adapters.recorders import bounded
from adapters.systems import edges
from domain.kernel.commitments import VISIBILITY as COMMITTED
from domain.kernel.registry import supported

#: How a log entry's seat rules say that they hold until the unit is settled (``json.dumps`` of the rules).
UNTIL_SETTLED = '"until": "settled"'
#: How they say that a rewind abandoned the step before every seat saw it (``ViewsMixin._abandon``).
ABANDONED = '"abandoned": true'


def _abandoned(visibility: str) -> str:
    """The seat rules ``visibility`` (JSON, not ``{}``) marked as abandoned by a rewind."""
    return "{" + ABANDONED + ", " + visibility[1:]

#: The shared read models; each system adds its own (``adapters/systems/<package>.py``).
SHARED_TABLES = ("campaigns", "streams", "event_log", "challenges", "repairs")

SHARED_DDL = (
    "CREATE TABLE IF NOT EXISTS {p}campaigns (campaign_id TEXT PRIMARY KEY, name TEXT NOT NULL,"
    " system TEXT NOT NULL, settings TEXT NOT NULL, created_at TEXT NOT NULL,"
    " adventure BIGINT NOT NULL, adventure_running BIGINT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS {p}streams (originator_id {id} PRIMARY KEY, campaign_id TEXT NOT NULL,"
    " kind TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS {p}event_log (notification_id {row_key} PRIMARY KEY, campaign_id {id} NOT NULL,"
    " at TEXT NOT NULL, actor TEXT NOT NULL, stream TEXT NOT NULL, event TEXT NOT NULL,"
    " detail TEXT NOT NULL, visibility TEXT NOT NULL, challenge_id {id}, seq BIGINT NOT NULL)",
    # ``seq``: the entry's number within its campaign's log (1, 2, 3 ...): the position a seat is shown
    # (``GET …/log``, the stream's ids), never the global one that reveals other campaigns' activity (issue 29)
    "CREATE INDEX IF NOT EXISTS event_log_by_campaign ON {p}event_log (campaign_id, seq)",
    "CREATE INDEX IF NOT EXISTS event_log_by_challenge ON {p}event_log (challenge_id, notification_id)"
    " WHERE challenge_id IS NOT NULL",  # most entries belong to no unit
    # A challenge's current state, kept as a snapshot of its aggregate, and censored per seat when read.
    # The list reads the summary columns (kind, sides …, and ``summary``: the system's own figures as JSON,
    # ``Projection.summarises``) and pages by ``position``, the announcement's place in the log; only one
    # unit's view decodes ``state``.
    "CREATE TABLE IF NOT EXISTS {p}challenges (challenge_id {id} PRIMARY KEY, campaign_id {id} NOT NULL,"
    " position BIGINT NOT NULL, kind TEXT NOT NULL, sides TEXT NOT NULL,"
    " announced_at TEXT NOT NULL, updated_at TEXT NOT NULL, phase TEXT NOT NULL, revealed BIGINT NOT NULL,"
    " summary TEXT NOT NULL, version BIGINT NOT NULL, topic TEXT NOT NULL, state TEXT NOT NULL)",
    # Which shape of the read models the rows were projected for (``ViewsMixin.upgrade``).
    "CREATE TABLE IF NOT EXISTS {p}read_model_shape (id BIGINT PRIMARY KEY, shape TEXT NOT NULL)",
    # Not a projection: tokens are issued here, hashed, and survive a rebuild.
    "CREATE TABLE IF NOT EXISTS {p}seat_tokens (token_hash TEXT PRIMARY KEY, campaign_id TEXT NOT NULL,"
    " seat TEXT NOT NULL, issued_at TEXT NOT NULL, UNIQUE (campaign_id, seat))",
    # One-time invite codes (hashed): a player claims his seat's token with one, once.
    "CREATE TABLE IF NOT EXISTS {p}seat_invites (code_hash TEXT PRIMARY KEY, campaign_id TEXT NOT NULL,"
    " seat TEXT NOT NULL, issued_at TEXT NOT NULL, UNIQUE (campaign_id, seat))",
    # Web sign-ins (issue 29): the cookie's session id (hashed) for one seat until ``expires_at`` (epoch
    # seconds). Not a projection: kept across a rebuild; a reissue or a claim of the seat deletes them.
    "CREATE TABLE IF NOT EXISTS {p}web_sessions (session_hash TEXT PRIMARY KEY, campaign_id TEXT NOT NULL,"
    " seat TEXT NOT NULL, expires_at DOUBLE PRECISION NOT NULL, created_at TEXT NOT NULL)",
    "CREATE INDEX IF NOT EXISTS web_sessions_by_seat ON {p}web_sessions (campaign_id, seat)",
    # Campaigns whose events the read models could not take: they answer 409 until repaired; others go on.
    "CREATE TABLE IF NOT EXISTS {p}repairs (campaign_id TEXT PRIMARY KEY, notification_id BIGINT NOT NULL,"
    " detail TEXT NOT NULL)",
)

#: Indexes on columns an older shape of a table lacks: made by ``upgrade``, once the tables have that shape.
SHARED_INDEXES = ("CREATE INDEX IF NOT EXISTS challenges_by_position ON {p}challenges (campaign_id, position)",)

#: The kernel's own bookkeeping: a command's record (exactly once) is in the log's chain, but no seat reads
#: it (C-5), so the read models keep no row of it; the tracking position still passes it. A third of a
#: campaign's events are these (issue 15: lean read models).
UNREAD = frozenset({"CommandRecord.Executed"})


def unread(topic: str) -> bool:
    """Whether a stored event's topic (``module:Class.Event``) is one the read models keep no row of: the
    projection passes it without decoding it."""
    return topic[topic.rfind(":") + 1:] in UNREAD


_MEMO: dict[str, tuple[tuple[Any, ...], Any]] = {}


def _per_registry(name: str, build: Callable[[], Any]) -> Any:
    """``build()`` once per registry (a test may swap it): these are asked once per projected event."""
    registry = domain.systems.SYSTEMS
    found = _MEMO.get(name)
    if found is None or found[0] is not registry:
        found = _MEMO[name] = (registry, build())
    return found[1]


def visibility_rules() -> dict[str, dict[str, Any]]:
    """Who may read what in the log (C-5), as each system declares it (``RuleSystem.visibility``)."""
    return _per_registry("visibility", lambda: {
        **COMMITTED, **{name: rule for system in supported() for name, rule in system.visibility.items()}})


def unit_kinds() -> tuple[str, ...]:
    """The aggregates that are units of resolution (C-1), kept as snapshots in ``challenges``."""
    return _per_registry("units", lambda: tuple(cls.__name__ for system in supported() for cls in system.resolutions))


def summary_json(unit: Any) -> str:
    """A unit's own figures for its summary row, as its system's projection declares them (issue 30)."""
    summaries: dict[str, Callable[[Any], dict[str, Any]]] = _per_registry("summaries", lambda: {
        cls.__name__: edge.PROJECTION.summary for system, edge in zip(supported(), edges(), strict=True)
        for cls in system.resolutions})
    found = summaries.get(type(unit).__name__)
    summary = found(unit) if found is not None else {}
    if getattr(unit, "abandoned", None) is not None:  # C-10, the kernel's: the lists say "abandoned", not settled
        summary = {**summary, "abandoned": True}
    if getattr(unit, "was_overturned", False):  # C-6, the kernel's: the lists say "overturned", not settled
        summary = {**summary, "overturned": True}
    return json.dumps(summary, sort_keys=True)


def projection_tables() -> tuple[str, ...]:
    return (*SHARED_TABLES, *chart.TABLES, *luck.TABLES, *(t for edge in edges() for t in edge.PROJECTION.tables))


def ddl() -> tuple[str, ...]:
    return (*SHARED_DDL, *chart.DDL, *luck.DDL, *(s for edge in edges() for s in edge.PROJECTION.ddl))


#: Raised when what the rows hold changes while their tables' definitions do not, so that a store projects
#: anew: 2, the log marks the entries a rewind abandoned before every seat saw them (C-5, C-8); 3, a unit's
#: summary says it was abandoned (C-10); 4, that it was overturned (C-6).
ROWS = "4"


def shape() -> str:
    """A digest of every projection table's definition (and ``ROWS``): when it changes, the rows are
    projected anew."""
    tables = projection_tables()
    defined = [s for s in (*ddl(), *SHARED_INDEXES) if any(f"{{p}}{t} " in s for t in tables)]
    # a system's own rows version, once raised (the first, 1, is left out: the digests of stores stay as they were)
    own = [f"rows {e.PROJECTION.tables[0]} {e.PROJECTION.rows}" for e in edges()
           if e.PROJECTION.rows != 1 and e.PROJECTION.tables]
    return hashlib.sha256("\n".join([f"rows {ROWS}", *defined, *own]).encode()).hexdigest()[:16]


def handlers() -> dict[str, Callable[..., None]]:
    return {name: h for edge in edges() for name, h in edge.PROJECTION.handlers.items()}


Row = dict[str, Any]


def censor(detail: dict[str, Any], visibility: dict[str, Any], seat: str, revealed: bool,
           settled: bool) -> tuple[dict, list[str]] | None:
    """An event's detail as ``seat`` may read it (C-5): None when the whole entry is hidden."""
    if settled or (revealed and visibility.get("until") != "settled" and not visibility.get("abandoned")):
        return detail, []
    entry = visibility.get("entry")
    if entry is not None and seat not in entry:
        return None
    hidden = [field for field, seats in visibility.get("fields", {}).items() if seat not in seats]
    return {k: v for k, v in detail.items() if k not in hidden}, hidden


ENVELOPE = frozenset({"originator_id", "originator_version", "originator_topic", "timestamp", "actor"})


def event_detail(e: Any) -> dict[str, Any]:
    """An event's own fields, plain, without the envelope the library adds."""
    return {k: _plain(v) for k, v in vars(e).items() if k not in ENVELOPE}


def _json_default(value: Any) -> Any:
    if isinstance(value, UUID):
        return value.hex
    if isinstance(value, datetime):
        return value.isoformat()
    raise TypeError(f"{type(value).__name__} is not JSON")


_DETAIL_JSON = json.JSONEncoder(separators=(",", ":"), default=_json_default)


def event_detail_json(e: Any) -> str:
    """``event_detail`` as the log row stores it (compact JSON), encoded in one pass."""
    return _DETAIL_JSON.encode({k: v for k, v in vars(e).items() if k not in ENVELOPE})


def event_visibility(e: Any, unit: Any | None) -> dict[str, Any]:
    """Who may read an event (``RuleSystem.visibility``), with the owners resolved to seats (C-5): "side",
    the seats of the side the event is about (what a side holds); "seat", the seat the event names (what one
    seat holds). The House sees what belongs to the sides its own characters play."""

    def owners(rule: Any) -> Any:
        if rule == "side":
            return list(unit.sides[e.side]["seats"]) if unit is not None and hasattr(e, "side") else []
        if rule == "seat":
            return [e.seat] if hasattr(e, "seat") else []
        return rule

    visibility = dict(visibility_rules().get(type(e).__qualname__, {}))
    if "entry" in visibility:
        visibility["entry"] = owners(visibility["entry"])
    visibility["fields"] = {k: owners(v) for k, v in visibility.get("fields", {}).items()}
    return visibility


#: At most this many units a catch-up hands off to its thread's answer (``ViewsMixin.projected``): a command
#: touches a few; a rebuild's are not kept.
HAND_OFF = 64
#: The units the commands of this context stored, as their writer left them, by id (``ViewsMixin.handing_in``).
_HANDED_IN: ContextVar[dict[str, Any] | None] = ContextVar("handed_in", default=None)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def now() -> datetime:
    """The server's clock, in UTC: one place for every read model, token and retry window."""
    return datetime.now(UTC)


def now_iso() -> str:
    return now().isoformat()


def _plain(value: Any) -> Any:
    if isinstance(value, UUID):
        return value.hex
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


STREAM_INSERT = "INSERT INTO {p}streams VALUES (?, ?, ?)"


#: What applying an event of one name takes (``ViewsMixin._plan``).
Plan = tuple[Callable[..., None] | None, Callable[..., None] | None, bool, bool, str]


def hex_id(value: Any) -> str:
    """An id as its 32 hex digits: a UUID's, or the text the projection reads it as (ADR 0037): the event
    store's (hyphenated) or the stored event's (hex already)."""
    return value.replace("-", "") if value.__class__ is str else value.hex


class ViewsMixin:
    """Dialect-free projection logic and queries."""

    placeholder = "?"
    prefix = ""
    #: DDL words each store spells: a 64-bit integer key (SQLite's INTEGER PRIMARY KEY is the row id itself,
    #: with no index of its own), and a table stored in its key's order (SQLite's WITHOUT ROWID). ``{id}``,
    #: a column that only ever holds a stream's or a campaign's id: its 32 hex digits on SQLite, PostgreSQL's
    #: 16-byte uuid (read back as the same hex, ``PostgresViews``): half the bytes, in the row and its indexes.
    row_key, clustered, id_type = "INTEGER", " WITHOUT ROWID", "TEXT"

    @property
    def handlers(self) -> dict[str, Callable[..., None]]:
        found = getattr(self, "_handlers", None)
        if found is None:
            found = self._handlers = handlers()
        return found

    # -- plumbing ---------------------------------------------------------------
    def _sql(self, statement: str) -> str:
        return (statement.replace("{p}", self.prefix).replace("?", self.placeholder)
                .replace("{row_key}", self.row_key).replace("{clustered}", self.clustered)
                .replace("{id}", self.id_type))

    def _x(self, c: Any, statement: str, params: Sequence[Any] = ()) -> None:
        c.execute(self._sql(statement), tuple(params))

    def _one(self, c: Any, statement: str, params: Sequence[Any] = ()) -> Row | None:
        self._x(c, statement, params)
        row = c.fetchone()
        return dict(row) if row is not None else None

    @contextmanager
    def reading(self) -> Iterator[None]:
        """The reads of one answer on one connection (on SQLite, one snapshot of the read models): a sheet
        or a view makes several queries, and each would otherwise take a connection of the pool and, on
        SQLite, begin and roll back a transaction of its own. Reentrant; per thread. Only around reads that
        write nothing and take no other connection of this pool (``load_challenge`` reads through
        ``query``; ``Stakes.viewer`` skips its catch-up inside): a thread holding one connection and waiting
        for a second could wait on the others doing the same."""
        local = self.__dict__.get("_reader")
        if local is None:
            local = self.__dict__.setdefault("_reader", threading.local())
        if getattr(local, "run", None) is not None:
            yield
            return
        with self._read_connection() as run:
            local.run = run
            try:
                yield
            finally:
                local.run = None

    def in_reading(self) -> bool:
        """Whether this thread is inside ``reading()``."""
        local = self.__dict__.get("_reader")
        return local is not None and getattr(local, "run", None) is not None

    @contextmanager
    def _read_connection(self) -> Iterator[Callable[[str, Sequence[Any]], list[Row]]]:
        with self.datastore.transaction(commit=False) as c:  # type: ignore[attr-defined]
            def run(statement: str, params: Sequence[Any]) -> list[Row]:
                self._x(c, statement, params)
                return [dict(r) for r in c.fetchall()]

            yield run

    def query(self, statement: str, params: Sequence[Any] = ()) -> list[Row]:
        local = self.__dict__.get("_reader")
        run = getattr(local, "run", None) if local is not None else None
        if run is not None:
            return run(statement, params)
        with self._read_connection() as run:
            return run(statement, params)

    def query_one(self, statement: str, params: Sequence[Any] = ()) -> Row | None:
        rows = self.query(statement, params)
        return rows[0] if rows else None

    # -- the projection ---------------------------------------------------------
    def project(self, application_name: str, batch: Iterable[tuple[Any, Any]]) -> int:
        """Apply a batch of (event, notification) and record the last notification id, atomically;
        returns how many events this call applied.

        One writer per position, whichever process runs it (ADR 0012): the transaction first takes the
        projection's lock, then reads the position again, and applies only what is still ahead of it."""
        last = applied = 0
        units: dict[str, Any] = {}
        with self.datastore.transaction(commit=True) as c, self._units_in_batch(c):  # type: ignore[attr-defined]
            units = self._batch(c)[0]  # type: ignore[index]  # the batch's units, handed off once committed
            position, broken = self._begin_projection(c, application_name)
            log_rows: list[tuple[Any, ...]] = []  # the batch's log entries, written together
            with self._pipelined(c):
                for domain_event, notification in batch:
                    if notification.id <= position:
                        continue
                    if domain_event is not None:  # None: an event no read model keeps (``unread``)
                        self._apply(c, domain_event, notification.id, broken, log_rows)
                    last, applied = notification.id, applied + 1
                self._write_units(c)
            chart.flush(self, c)
            self._write_later(c)  # after the pipeline, as the log: PostgreSQL copies new rows in
            campaigns = {row[1] for row in log_rows}
            self._write_log(c, log_rows)
            if last:
                self._insert_tracking(c, Tracking(application_name, last))  # type: ignore[attr-defined]
                self._published(c, campaigns)
        self._handed_off().touched |= campaigns  # committed: this catch-up's campaigns (``touched``)
        handed = self._handed()
        if len(handed) + len(units) <= HAND_OFF:  # committed: this thread's answer may read them (``projected``)
            handed.update(units)
        else:  # a rebuild or a long catch-up: no answer waits for these; memory is not held for them
            handed.clear()
        return applied

    # -- the units a command's writer left in memory (issue 30, item 7: no second build) -------------------
    @contextmanager
    def handing_in(self) -> Iterator[None]:
        """A command, its catch-up and its answer, in this thread: the projection takes a unit the command stored
        from its writer (``hand_in``) instead of decoding its row and running the event's mutator on it again.
        The caller keeps the writer's aggregates out of the cache meanwhile (``StakesApplication.taking``), so
        the object is this thread's alone until the answer is built."""
        token = _HANDED_IN.set({})
        try:
            yield
        finally:
            _HANDED_IN.reset(token)

    @staticmethod
    def hand_in(added: list[tuple[Any, int]]) -> None:
        """``StakesApplication.stored``: the aggregates a command stored, each with the events it added. A unit
        that took one event is its state after that event, which is what the projection builds from the row; a
        unit that took several is not (the projection's handlers read its state after each of them)."""
        found = _HANDED_IN.get()
        if found is not None:
            for aggregate, events in added:
                if events == 1:
                    found[aggregate.id.hex] = aggregate

    # -- the units a catch-up left in memory (issue 30: one pass per command) ------------------------------
    def _handed_off(self) -> Any:
        """This thread's hand-off: ``units`` (``projected``) and ``touched`` (``touched``)."""
        local = self.__dict__.get("_hand_off")
        if local is None:
            local = self.__dict__.setdefault("_hand_off", threading.local())
        if getattr(local, "units", None) is None:
            local.units, local.touched = {}, set()
        return local

    def _handed(self) -> dict[str, Any]:
        found: dict[str, Any] = self._handed_off().units
        return found

    def forget_projected(self) -> None:
        """A catch-up begins: what this thread's last one handed off is forgotten."""
        self._handed().clear()
        self._handed_off().touched = set()

    def touched(self) -> set[str]:
        """The campaigns (hex) whose log this thread's last catch-up extended, taken: the stream notifier reads
        only those (``Fanout.changed``)."""
        local = self._handed_off()
        found: set[str] = local.touched
        local.touched = set()
        return found

    def projected(self, unit_id: UUID) -> Any:
        """The unit as this thread's last catch-up wrote its row, in memory, or None (it did not touch it:
        another process projected it, or nothing changed). The object is this thread's alone (each batch
        reads its units from their rows), so an answer reads it instead of decoding the row it just wrote;
        it is taken, not kept: a later catch-up of this thread hands off afresh."""
        return self._handed().pop(unit_id.hex, None)

    def _pipelined(self, c: Any) -> Any:
        """Around a batch's writes: PostgreSQL sends them without waiting for each answer."""
        return nullcontext()

    def _published(self, c: Any, campaigns: set[str]) -> None:
        """The read models moved on (for ``campaigns``): tell the other processes, at commit (PostgreSQL
        ``NOTIFY``)."""

    def reset(self, application_name: str) -> None:
        """Empty every read model and forget the tracking position (tokens are kept)."""
        with self.datastore.transaction(commit=True) as c:  # type: ignore[attr-defined]
            self._empty(c, projection_tables())
            c.execute(self._delete_tracking_statement(), (application_name,))

    def _delete_tracking_statement(self) -> Any:
        raise NotImplementedError

    def analyze(self) -> None:
        """Fresh planner statistics for the read models, after many rows changed at once (PostgreSQL).
        SQLite keeps none unless asked; its reads are written to need none."""

    def _lock_projection(self, c: Any, application_name: str) -> None:
        """Held until the transaction ends: no other projector, in any process, writes meanwhile."""
        raise NotImplementedError

    def _begin_projection(self, c: Any, application_name: str) -> tuple[int, set[str]]:
        """A batch's transaction begins: the projection's lock, then (read after it) the position and the
        campaigns set aside for repair."""
        self._lock_projection(c, application_name)
        position = self._max_tracking_id(application_name, c) or 0  # type: ignore[attr-defined]
        self._x(c, "SELECT campaign_id FROM {p}repairs")
        return position, {dict(r)["campaign_id"] for r in c.fetchall()}

    def _empty(self, c: Any, tables: Sequence[str]) -> None:
        for table in tables:
            self._x(c, f"DELETE FROM {{p}}{table}")

    def _exclusive(self, c: Any) -> None:
        """Hold the read models' schema alone until the transaction ends (processes start together)."""

    def upgrade(self, application_name: str) -> bool:
        """Project anew when the read models' shape changed since the rows were written (a new release).

        Rows projected for another shape are dropped with their tables, the tables are created in the
        new shape, and the tracking position is forgotten, so the next catch-up projects the whole log.
        Returns whether that happened. Tokens and other tables that are not projections are kept.
        """
        wanted = shape()
        with self.datastore.transaction(commit=True) as c:  # type: ignore[attr-defined]
            self._exclusive(c)
            row = self._one(c, "SELECT shape FROM {p}read_model_shape WHERE id = 1")
            fresh = row is None and not self._one(c, "SELECT 1 AS x FROM {p}campaigns LIMIT 1")
            stale = not fresh and (row is None or row["shape"] != wanted)
            if stale:
                for table in projection_tables():
                    self._x(c, f"DROP TABLE IF EXISTS {{p}}{table}")
                for statement in ddl():
                    self._x(c, statement)
                c.execute(self._delete_tracking_statement(), (application_name,))
            for statement in SHARED_INDEXES:
                self._x(c, statement)
            self._x(c, "DELETE FROM {p}read_model_shape")
            self._x(c, "INSERT INTO {p}read_model_shape VALUES (1, ?)", (wanted,))
            return stale

    # -- aggregates kept as snapshots (challenges) -----------------------------------------
    @contextmanager
    def _units_in_batch(self, c: Any) -> Iterator[None]:
        """While a batch is projected, its units stay in memory: each is read from its row once, takes the
        batch's events as the aggregate itself does, and its row is written once at the end of the batch
        (``_write_units``). Only this transaction's cursor sees them; they are forgotten when it ends,
        committed or rolled back."""
        self.__dict__["_batch_units"] = (c, {}, {})
        self.__dict__["_batch_later"] = (c, {}, {}, {})
        self.__dict__["_batch_seq"] = (c, {})
        self.__dict__["_batch_chart"] = (c, {})  # the chart's lines the batch touched (``chart.flush``)
        self.__dict__["_batch_luck"] = (c, set())  # the units the luck report counted (``luck.project``)
        try:
            yield
        finally:
            self.__dict__["_batch_units"] = self.__dict__["_batch_later"] = self.__dict__["_batch_seq"] = None
            self.__dict__["_batch_chart"] = self.__dict__["_contexts"] = self.__dict__["_batch_luck"] = None

    def _next_seq(self, c: Any, campaign: str) -> int:
        """The next entry's number within its campaign's log (``event_log.seq``): read once per campaign
        per batch, then counted in memory."""
        found = self.__dict__.get("_batch_seq")
        seqs: dict[str, int] = found[1] if found is not None and found[0] is c else {}
        last = seqs.get(campaign)
        if last is None:
            row = self._one(c, "SELECT MAX(seq) AS last FROM {p}event_log WHERE campaign_id = ?", (campaign,))
            last = int(row["last"]) if row is not None and row["last"] is not None else 0
        seqs[campaign] = last + 1
        return last + 1

    def _batch(self, c: Any) -> tuple[dict[str, Any], dict[str, str]] | None:
        found = self.__dict__.get("_batch_units")
        return (found[1], found[2]) if found is not None and found[0] is c else None

    # -- writes a batch gathers and makes once, at its end ---------------------------------------------
    def _later(self, c: Any) -> tuple[dict[tuple[str, Any], list[int]], dict[str, list[tuple[Any, ...]]],
                                      dict[str, dict[str, dict[str, Any]]]] | None:
        found = self.__dict__.get("_batch_later")
        return (found[1], found[2], found[3]) if found is not None and found[0] is c else None

    def _add_later(self, c: Any, statement: str, key: Any, *deltas: int) -> None:
        """``statement`` adds ``deltas`` to the columns of the row ``key`` names (its last parameter): the
        batch sums them and writes each row once at its end. Only for columns that no projection reads
        back while a batch runs (a pile: the reads are the API's)."""
        later = self._later(c)
        if later is None:
            self._x(c, statement, (*deltas, key))
            return
        sums = later[0].setdefault((statement, key), [0] * len(deltas))
        for i, delta in enumerate(deltas):
            sums[i] += delta

    def _insert_later(self, c: Any, statement: str, params: tuple[Any, ...]) -> None:
        """An INSERT of a row that no projection reads back while a batch runs (a history line): the batch
        writes them together, in order, at its end."""
        later = self._later(c)
        if later is None:
            self._x(c, statement, params)
            return
        later[1].setdefault(statement, []).append(params)

    def _insert_row_later(self, c: Any, table: str, key: str, row: dict[str, Any]) -> None:
        """A new row (every column, in the table's order) that later events of the same batch may change
        (an offer made, taken and settled): kept in memory, changed there (``_row_later``), and inserted
        with the others at the batch's end. Only for a table no projection reads back while a batch runs."""
        later = self._later(c)
        if later is None:
            self._x(c, f"INSERT INTO {{p}}{table} VALUES ({', '.join('?' * len(row))})", tuple(row.values()))
            return
        later[2].setdefault(table, {})[key] = row

    def _row_later(self, c: Any, table: str, key: str) -> dict[str, Any] | None:
        """The row ``key`` of ``table`` this batch inserts, to change in memory; None: change it in SQL."""
        later = self._later(c)
        return None if later is None else later[2].get(table, {}).get(key)

    def _write_later(self, c: Any) -> None:
        later = self._later(c)
        if later is None:
            return
        sums, inserts, new_rows = later
        for table, fresh in new_rows.items():  # first: the summed updates and the inserts may name them
            if fresh:
                width = len(next(iter(fresh.values())))
                self._insert_many(c, f"INSERT INTO {{p}}{table} VALUES ({', '.join('?' * width)})",
                                  [tuple(r.values()) for r in fresh.values()])
        for statement, rows in inserts.items():
            self._insert_many(c, statement, rows)
        by_statement: dict[str, list[tuple[Any, ...]]] = {}
        for (statement, key), deltas in sums.items():
            by_statement.setdefault(statement, []).append((*deltas, key))
        for statement, rows in by_statement.items():
            c.executemany(self._sql(statement), rows)
        sums.clear()
        inserts.clear()
        new_rows.clear()

    def _insert_many(self, c: Any, statement: str, rows: list[tuple[Any, ...]]) -> None:
        """Rows of one INSERT statement, together (PostgreSQL copies a plain one in)."""
        c.executemany(self._sql(statement), rows)

    def _write_units(self, c: Any) -> None:
        """Write the rows of the units the batch changed: their state after its last event."""
        batch = self._batch(c)
        if batch is None:
            return
        units, changed = batch
        for oid, at in changed.items():
            unit = units[oid]
            version, _, state = self._dump_state(unit)
            self._x(c, "UPDATE {p}challenges SET updated_at = ?, phase = ?, revealed = ?, summary = ?,"
                       " version = ?, state = ? WHERE challenge_id = ?",
                    (at, unit.phase, int(unit.revealed), summary_json(unit), version, state, oid))
        changed.clear()

    def _load_state(self, c: Any, table: str, key: str, oid: str) -> Any:
        batch = self._batch(c) if table == "challenges" else None
        if batch is not None and oid in batch[0]:
            return batch[0][oid]
        row = self._one(c, f"SELECT version, topic, state FROM {{p}}{table} WHERE {key} = ?", (oid,))
        return None if row is None else self._from_row(oid, row)

    def _from_row(self, oid: str, row: Row) -> Any:
        snapshot = Snapshot(originator_id=UUID(oid), originator_version=row["version"], timestamp=now(),
                            topic=row["topic"], state=self.transcoder.decode(row["state"].encode()))  # type: ignore[attr-defined]
        return snapshot.mutate(None)

    def _dump_state(self, aggregate: Any) -> tuple[int, str, str]:
        snapshot = Snapshot.take(aggregate)
        return snapshot.originator_version, snapshot.topic, self.transcoder.encode(snapshot.state).decode()  # type: ignore[attr-defined]

    def _write_log(self, c: Any, rows: list[tuple[Any, ...]]) -> None:
        """Insert the batch's log entries, in one statement, at its end (outside PostgreSQL's pipeline)."""
        if rows:
            c.executemany(self._sql("INSERT INTO {p}event_log VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"), rows)
            rows.clear()

    def _apply(self, c: Any, e: Any, nid: int, broken: set[str], rows: list[tuple[Any, ...]]) -> str | None:
        """Apply one event to the read models; its log entry joins the batch's ``rows``."""
        name = type(e).__qualname__
        at = e.timestamp  # the stored text (``adapters.projection.Decoder``), or the library's datetime
        as_text = at.__class__ is str
        if not as_text:
            at = at.isoformat()
        oid = hex_id(e.originator_id)
        if e.originator_version == 1:  # the event that creates a stream names its campaign
            campaign = oid if name.startswith("Campaign.") else hex_id(e.campaign_id)
            kind = name.split(".")[0]
            if campaign in broken:
                return None
            self._insert_later(c, STREAM_INSERT, (oid, campaign, kind))
            self._remember_stream(oid, campaign, kind)
        else:
            campaign, kind = self._stream(c, oid, name)
        if campaign in broken:  # marked for repair: its later events wait, the other campaigns go on
            return None
        challenge, seq = None, self._next_seq(c, campaign)
        if kind in unit_kinds():  # a unit's place is its announcement's number in the campaign's log
            if as_text:  # the unit's own mutators read typed values: the Decoder gives a unit's events whole
                raise TypeError(f"{name} of unit {oid} was decoded as text")
            challenge = self._on_challenge(c, e, oid, campaign, at, seq)
        shared, handler, charted, ruled, short = self._plan(name)
        if shared is not None:
            shared(c, e, oid, campaign, at, nid)
        if handler is not None:  # a system's: it sees the read models through their public face only
            handler(self._context(c), e, oid, campaign, at, nid)
        if charted:
            chart.project(self, c, e, name, oid, campaign, at, seq)  # the campaign chart's points (issue 31)
        if challenge is not None:
            luck.project(self, c, e, name, oid, campaign, challenge)  # the luck report's counts (issue 31)
        if ruled:
            visibility = event_visibility(e, challenge)
            if not visibility["fields"]:  # no field kept from anyone: the row is smaller without the key
                del visibility["fields"]
            seen = json.dumps(visibility)
        else:
            seen = "{}"  # what event_visibility gives an event no rule names, once its empty "fields" go
        rows.append((nid, campaign, at, getattr(e, "actor", "house"), f"{kind}:{oid}", short, event_detail_json(e),
                     seen, oid if challenge is not None else None, seq))
        if challenge is not None and name.endswith(".Rewound"):
            self._abandon(c, rows, oid, e.to_step, nid)
        if challenge is not None and challenge.revealed:
            # C-8, every system: what was shown to every seat stays public, even after a rewind re-hides the
            # unit. Its entries so far lose their seat rules (what waits for the settlement keeps waiting, and
            # so does what a rewind abandoned before anyone saw it): those the batch still holds here, those of
            # earlier batches in the table.
            for i, row in enumerate(rows):
                if row[8] == oid and row[7] != "{}" and UNTIL_SETTLED not in row[7] and ABANDONED not in row[7]:
                    rows[i] = (*row[:7], "{}", *row[8:])
            self._x(c, "UPDATE {p}event_log SET visibility = ? WHERE challenge_id = ? AND notification_id <= ?"
                       " AND visibility <> ? AND visibility NOT LIKE ? AND visibility NOT LIKE ?",
                    ("{}", oid, nid, "{}", f"%{UNTIL_SETTLED}%", f"%{ABANDONED}%"))
        return campaign

    def _plan(self, name: str) -> Plan:
        """What applying an event named ``name`` takes, worked out once per registry (ADR 0037): the shared
        handler, the system's, whether the chart tracks it, whether a seat rule names it, its short name."""
        registry = domain.systems.SYSTEMS
        kept = self.__dict__.get("_plans")
        if kept is None or kept[0] is not registry:
            kept = self.__dict__["_plans"] = (registry, {})
        plans: dict[str, Plan] = kept[1]
        found = plans.get(name)
        if found is None:
            found = plans[name] = (getattr(self, "_on_" + name.replace(".", "_"), None), self.handlers.get(name),
                                      name in chart.events(), name in visibility_rules(), name.split(".", 1)[1])
        return found

    def _context(self, c: Any) -> ProjectionContext:
        """The systems' handlers' face of the read models in the transaction ``c``: one per transaction."""
        found = self.__dict__.get("_contexts")
        if found is None or found[0] is not c:
            found = self.__dict__["_contexts"] = (c, ProjectionContext(self, c))
        context: ProjectionContext = found[1]
        return context

    def _abandon(self, c: Any, rows: list[tuple[Any, ...]], oid: str, to_step: int, nid: int) -> None:
        """C-5, C-8: a rewind to ``to_step`` abandons the unit's later steps. What they hid stays hidden when the
        unit is later shown to every seat (only what every seat saw before stays public) until it is settled:
        their entries are marked. The unit's k-th entry is its k-th step (every step has one)."""
        c.execute(self._sql("SELECT notification_id FROM {p}event_log WHERE challenge_id = ? ORDER BY notification_id"),
                  (oid,))
        steps = [r["notification_id"] for r in c.fetchall()] + [r[0] for r in rows if r[8] == oid and r[0] != nid]
        if len(steps) <= to_step:
            return
        after = steps[to_step]  # the first abandoned step
        for i, row in enumerate(rows):
            if row[8] == oid and after <= row[0] < nid and row[7] != "{}" and ABANDONED not in row[7]:
                rows[i] = (*row[:7], _abandoned(row[7]), *row[8:])
        self._x(c, "UPDATE {p}event_log SET visibility = ? || substr(visibility, 2) WHERE challenge_id = ?"
                   " AND notification_id >= ? AND notification_id < ? AND visibility <> ? AND visibility NOT LIKE ?",
                ("{" + ABANDONED + ", ", oid, after, nid, "{}", f"%{ABANDONED}%"))

    #: Streams remembered per process: which campaign and kind an aggregate belongs to is a fact of the log
    #: (its first event says it) and never changes, so it is kept even if the batch that read it rolls back.
    STREAMS_REMEMBERED = 100_000

    def _remember_stream(self, oid: str, campaign: str, kind: str) -> None:
        known = self.__dict__.setdefault("_streams", {})
        if len(known) >= self.STREAMS_REMEMBERED:
            known.clear()
        known[oid] = (campaign, kind)

    def _stream(self, c: Any, oid: str, name: str) -> tuple[str, str]:
        """The campaign and kind of a stream that began earlier: from memory, else from its row."""
        found = self.__dict__.get("_streams", {}).get(oid)
        if found is not None:
            return found
        later = self._later(c)  # begun in this batch, after the memory was cleared: its row waits there
        for stream, campaign, kind in (later[1].get(STREAM_INSERT, []) if later is not None else []):
            if stream == oid:
                self._remember_stream(oid, campaign, kind)
                return campaign, kind
        row = self._one(c, "SELECT campaign_id, kind FROM {p}streams WHERE originator_id = ?", (oid,))
        if row is None:
            raise ValueError(f"event {name} of unknown stream {oid}")
        self._remember_stream(oid, row["campaign_id"], row["kind"])
        return row["campaign_id"], row["kind"]

    def _on_challenge(self, c: Any, e: Any, oid: str, campaign: str, at: str, nid: int) -> Any:
        """Apply a challenge event to its snapshot row (the same mutators the aggregate uses), or take the unit
        as the command that stored the event left it, when this thread stored it (``handing_in``): its state
        after this very event, at this event's version, so the mutator is not run on a second copy."""
        handed = (_HANDED_IN.get() or {}).get(oid)
        if handed is not None and handed.version == e.originator_version:
            challenge, first = handed, e.originator_version == 1
        else:
            previous = self._load_state(c, "challenges", "challenge_id", oid) if e.originator_version > 1 else None
            challenge, first = e.mutate(previous), previous is None
        units, changed = self._batch(c)  # type: ignore[misc]  # projected in a batch: ``project``
        units[oid] = challenge
        if first:
            version, topic, state = self._dump_state(challenge)
            sides = [s.get("members") or s["seats"] for s in challenge.sides.values()]
            self._x(c, "INSERT INTO {p}challenges VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (oid, campaign, nid, type(challenge).__name__, json.dumps(sides), at, at, challenge.phase,
                     int(challenge.revealed), summary_json(challenge), version, topic, state))
        else:
            changed[oid] = at  # its row is written at the end of the batch
        return challenge

    def load_challenge(self, challenge_id: UUID) -> Any:
        """A unit from its row (through ``query``, so inside ``reading`` it takes no second connection)."""
        row = self.query_one("SELECT version, topic, state FROM {p}challenges WHERE challenge_id = ?",
                             (challenge_id.hex,))
        return None if row is None else self._from_row(challenge_id.hex, row)

    # campaigns (C-1)
    def _on_Campaign_Created(self, c, e, oid, campaign, at, nid) -> None:
        self._x(c, "INSERT INTO {p}campaigns VALUES (?, ?, ?, ?, ?, 0, 0)",
                (oid, e.name, e.system, json.dumps(e.settings), at))

    def _on_Campaign_AdventureStarted(self, c, e, oid, campaign, at, nid) -> None:
        self._x(c, "UPDATE {p}campaigns SET adventure = ?, adventure_running = 1 WHERE campaign_id = ?",
                (e.number, oid))

    def _on_Campaign_AdventureEnded(self, c, e, oid, campaign, at, nid) -> None:
        self._x(c, "UPDATE {p}campaigns SET adventure_running = 0 WHERE campaign_id = ?", (oid,))
        self._x(c, "UPDATE {p}adventures SET ended_at = ? WHERE campaign_id = ? AND number = ?",
                (at, oid, e.number))

    # -- seat tokens (hashed; never in events, exports or logs) ----------------
    def store_token(self, token: str, campaign_id: UUID, seat: str, c: Any = None) -> None:
        """The seat's token, replacing its old one; in the caller's transaction ``c`` if given."""
        if c is None:
            with self.datastore.transaction(commit=True) as own:  # type: ignore[attr-defined]
                self.store_token(token, campaign_id, seat, own)
            return
        self._x(c, "INSERT INTO {p}seat_tokens VALUES (?, ?, ?, ?) ON CONFLICT (campaign_id, seat) DO UPDATE"
                   " SET token_hash = excluded.token_hash, issued_at = excluded.issued_at",
                (token_hash(token), campaign_id.hex, seat, now_iso()))

    def seat_for_token(self, token: str) -> tuple[UUID, str] | None:
        row = self.query_one("SELECT campaign_id, seat FROM {p}seat_tokens WHERE token_hash = ?", (token_hash(token),))
        return (UUID(row["campaign_id"]), row["seat"]) if row else None

    def dump(self) -> dict[str, list[Row]]:
        """Every projection row, in a stable order (used to compare rebuilds)."""
        return {t: sorted((r for r in self.query(f"SELECT * FROM {{p}}{t}")), key=repr) for t in projection_tables()}


class SQLiteViews(ViewsMixin, SQLiteTrackingRecorder):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The views file holds what the log can rebuild, and its tracking position in the same transaction,
        # so it need not wait for the disk on each commit: after a power cut it is consistent, maybe a few
        # commits behind, and the next catch-up projects them again. (The event store keeps FULL.)
        pool = self.datastore.pool
        connect = pool._create_connection

        def relaxed() -> Any:
            connection = connect()
            connection._sqlite_conn.execute("PRAGMA synchronous=NORMAL")
            return connection

        pool._create_connection = relaxed  # type: ignore[method-assign]

    def construct_create_table_statements(self) -> list[str]:
        return [*super().construct_create_table_statements(), *(self._sql(s) for s in ddl())]

    def _delete_tracking_statement(self) -> str:
        return "DELETE FROM tracking WHERE application_name = ?"

    def _lock_projection(self, c: Any, application_name: str) -> None:
        # A write statement takes the database's write lock (waiting up to the lock timeout) before any
        # read in this transaction, so the position read next is the latest committed one.
        c.execute("UPDATE tracking SET notification_id = notification_id WHERE application_name = ? AND 0",
                  (application_name,))

    def _exclusive(self, c: Any) -> None:
        # The write lock first (waiting up to the lock timeout), as the projection takes it: a start-up's read
        # then write of the shape in a deferred transaction would fail at once ("database is locked", the busy
        # timeout does not apply to upgrading a stale read) while another process projects (red team, 2026-11-28).
        self._x(c, "UPDATE {p}read_model_shape SET id = id WHERE 0")


#: The application whose log the read models project (``StakesApplication.name``, the runner's ``app.name``).
PROJECTED = "Stakes"
#: Log entries a batch must hold before PostgreSQL takes them with COPY rather than an INSERT each.
COPY_FROM = 50
#: Bytes of a NOTIFY payload that name campaigns (PostgreSQL allows 8,000): 242 campaigns of 32 hex digits.
PAYLOAD = 7_999
#: An INSERT of whole rows, nothing else (no ON CONFLICT): what ``COPY`` can do instead.
_PLAIN_INSERT = re.compile(r"INSERT INTO \{p\}(\w+) VALUES \((?:\?, )*\?\)")


class HexId(Loader):
    """A uuid column read as the 32 hex digits the read models use everywhere (``{id}``)."""

    def load(self, data: Any) -> str:
        return bytes(data).decode().replace("-", "")


class PostgresViews(ViewsMixin, PostgresTrackingRecorder):
    placeholder = "%s"
    row_key, clustered, id_type = "BIGINT", "", "uuid"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.prefix = '"' + self.datastore.schema.replace('"', '""') + '".'
        self.sql_create_statements.extend(SQL(self._sql(s)) for s in ddl())  # type: ignore[arg-type,misc]
        # Every connection of the read models' own pool reads a uuid as its hex, from its first: the pool
        # opens on first use, after this (psycopg_pool keeps the callback it calls on each new connection
        # as ``_configure``). Written ids go as text, which PostgreSQL casts to the column's uuid.
        pool = self.datastore.pool
        configure = pool._configure

        def configured(conn: Any) -> None:
            if configure is not None:
                configure(conn)
            conn.adapters.register_loader("uuid", HexId)

        pool._configure = configured

    max_tracking_id = bounded(PostgresTrackingRecorder.max_tracking_id)
    #: The schema's NOTIFY channel (``adapters.fanout.channel``); set by ``adapters.store.open_views``.
    channel: str | None = None
    #: What the projection's advisory lock is named after (``_lock_projection``): the schema, unless set (an
    #: audit's scratch read models live in its own session's ``pg_temp``, a name every session shares).
    lock_scope: str | None = None

    @contextmanager
    def _read_connection(self) -> Iterator[Callable[[str, Sequence[Any]], list[Row]]]:
        """Statements on an autocommit connection: each reads one snapshot of the database already, so it
        needs no BEGIN and ROLLBACK round trips around it."""
        with self.datastore.get_connection() as conn:  # type: ignore[attr-defined]
            yield lambda statement, params: [dict(r) for r in conn.execute(self._sql(statement),
                                                                           tuple(params)).fetchall()]

    def _write_log(self, c: Any, rows: list[tuple[Any, ...]]) -> None:
        if len(rows) < COPY_FROM:
            super()._write_log(c, rows)
            return
        with c.copy(self._sql("COPY {p}event_log FROM STDIN")) as copy:  # one stream, not a statement a row
            for row in rows:
                copy.write_row(row)
        rows.clear()

    def _insert_many(self, c: Any, statement: str, rows: list[tuple[Any, ...]]) -> None:
        plain = _PLAIN_INSERT.fullmatch(statement)
        if plain is None or len(rows) < COPY_FROM:
            super()._insert_many(c, statement, rows)
            return
        with c.copy(self._sql(f"COPY {{p}}{plain.group(1)} FROM STDIN")) as copy:
            for row in rows:
                copy.write_row(row)

    def _pipelined(self, c: Any) -> Any:
        # psycopg's pipeline mode: a batch's INSERTs and UPDATEs go out without a round trip each; a read
        # (a unit's snapshot row) syncs first, and an error still surfaces inside this transaction.
        return c.connection.pipeline()

    def _published(self, c: Any, campaigns: set[str]) -> None:
        # Delivered when this transaction commits, and only then: in the projection's own transaction, so
        # it costs no connection and no round trip of its own (ADR 0014). The payload names the campaigns
        # whose log grew (hex, comma-separated), so each process's notifier reads only those; empty (any may
        # have) when they would not fit NOTIFY's payload.
        if self.channel is not None:
            named = ",".join(sorted(campaigns))
            c.execute("SELECT pg_notify(%s, %s)", (self.channel, named if len(named) <= PAYLOAD else ""))

    def _delete_tracking_statement(self) -> Any:
        return SQL(f'DELETE FROM {self.prefix}"{self.tracking_table_name}" WHERE application_name = %s')  # type: ignore[arg-type]

    def _lock_projection(self, c: Any, application_name: str) -> None:
        # A transaction-scoped advisory lock, one per schema and application. The batch's commit does not wait
        # for the disk (ADR 0037), as the SQLite views file's does not (``synchronous=NORMAL``): its rows and
        # its tracking position commit together or not at all, and what a crash loses of the last commits the
        # next catch-up projects again from the log, which keeps waiting for the disk. One statement (SET LOCAL
        # as ``set_config(…, true)``).
        c.execute("SELECT set_config('synchronous_commit', 'off', true), pg_advisory_xact_lock(hashtextextended(%s, 0))",
                  (f"stakes-projection/{self.lock_scope or self.datastore.schema}/{application_name}",))

    def _begin_projection(self, c: Any, application_name: str) -> tuple[int, set[str]]:
        # Two statements, not four: the lock, then the position and the repairs in one read. The read is a
        # statement of its own, after the lock's: under READ COMMITTED its snapshot is taken once the lock is
        # held, so it sees what the lock's last holder committed.
        self._lock_projection(c, application_name)
        c.execute(f'SELECT (SELECT MAX(notification_id) FROM {self.prefix}"{self.tracking_table_name}"'  # type: ignore[attr-defined]
                  f" WHERE application_name = %s) AS position, ARRAY(SELECT campaign_id FROM {self.prefix}repairs)"
                  " AS broken", (application_name,))
        row = c.fetchone()
        return row["position"] or 0, set(row["broken"] or ())

    #: Columns no read filters, joins or sorts on: the payloads a row carries (an entry's detail and who may see
    #: it, a unit's state and summary). ``analyze`` leaves them out: their statistics serve no plan, and on wide
    #: JSON text they were most of the time ANALYZE took (the event log's: 21 of 27 ms of a 10,000-event rebuild).
    PAYLOADS = {"event_log": ("detail", "visibility", "at"), "challenges": ("sides", "summary", "state", "topic")}

    def analyze(self) -> None:
        with self.datastore.transaction(commit=True) as c:  # type: ignore[attr-defined]
            # the catalog itself: information_schema's view of it took 20 ms here
            c.execute("SELECT c.relname AS table_name, a.attname AS column_name FROM pg_attribute a"
                      " JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace"
                      " WHERE n.nspname = %s AND c.relname = ANY(%s) AND a.attnum > 0 AND NOT a.attisdropped"
                      " ORDER BY c.relname, a.attnum", (self.datastore.schema, list(self.PAYLOADS)))
            columns: dict[str, list[str]] = {}
            for row in c.fetchall():
                columns.setdefault(row["table_name"], []).append(row["column_name"])
            parts = []
            for table in projection_tables():
                left_out = self.PAYLOADS.get(table, ())
                kept = [col for col in columns.get(table, []) if col not in left_out]
                quoted = ", ".join(f'"{col}"' for col in kept)
                parts.append(f"{{p}}{table}" + (f" ({quoted})" if left_out and kept else ""))
            self._x(c, "ANALYZE " + ", ".join(parts))

    def _empty(self, c: Any, tables: Sequence[str]) -> None:
        """TRUNCATE leaves no dead rows behind, so rebuilding again and again does not bloat the tables. Only
        the tables that hold a row (one statement asks): each truncated table is a new file the commit waits
        for, and a store's systems not played leave theirs empty (ADR 0039). The commit need not wait for the
        disk, as the projection's does not (ADR 0037): the tables and the tracking position go together."""
        c.execute("SET LOCAL synchronous_commit TO OFF")
        self._x(c, " UNION ALL ".join(f"SELECT '{t}' AS name WHERE EXISTS (SELECT 1 FROM {{p}}{t})" for t in tables))
        held = [r["name"] for r in c.fetchall()]
        if held:
            self._x(c, "TRUNCATE " + ", ".join(f"{{p}}{t}" for t in held))

    def _exclusive(self, c: Any) -> None:
        c.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (f"stakes-read-models:{self.prefix}",))

    def _create_table(self, curs: Any) -> None:
        # A start-up's DDL (``CREATE … IF NOT EXISTS``) takes SHARE locks table after table, while a batch of a
        # running process has ROW EXCLUSIVE locks on the same tables in another order: "deadlock detected",
        # and the server failed to start (red team, 2026-11-28). The projection's own lock first: the DDL waits
        # for the batch, and a batch begun after waits for the DDL.
        self._lock_projection(curs, PROJECTED)
        super()._create_table(curs)
