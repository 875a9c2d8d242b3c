"""The event store's recorders: the library's, with a read-set check in the atomic save and bounded retries.

**Read-set check (ADR 0012).** A command that reads an aggregate it does not change (a characteristic
purchase reads the Campaign for PA-2, accepting a loan reads the Loan's adventure for PA-14) saves with
``reads={aggregate id: version read}``. In the same transaction as the insert, after the table's write lock
is held, the recorder checks each of those aggregates is still at the version read; when one moved on, the
transaction rolls back with ``IntegrityError`` and the application retries the command from fresh state
(``domain/retry.py``), answering 409 when it keeps losing. Both stores serialise writers (PostgreSQL: the
``EXCLUSIVE`` table lock eventsourcing takes for gap-free notification ids; SQLite: the database write
lock), so a check made under that lock sees every write committed before it, and no write that commits
after it can be one the check should have seen.

**Bounded retries.** The library retries a failed statement ten times, 0.2 s apart. A broken pooled
connection is worth one quick retry (a COMMIT whose answer was lost is then found by its key, exactly
once); a store that does not answer is not: after waiting ``store_timeout`` for a connection there is no retry,
and the caller answers 503 within about that long.
"""

from __future__ import annotations

import functools
import os
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar
from uuid import UUID

from eventsourcing.persistence import IntegrityError, InterfaceError, OperationalError, StoredEvent
from eventsourcing.postgres import PostgresAggregateRecorder, PostgresApplicationRecorder, PostgresFactory
from eventsourcing.sqlite import SQLiteApplicationRecorder, SQLiteCursor
from psycopg.sql import SQL, Identifier
from psycopg_pool import PoolTimeout

F = TypeVar("F", bound=Callable[..., Any])

#: Attempts at most; a failure after waiting the whole ``store_timeout`` for a connection is not retried.
ATTEMPTS = 3


def waited(exc: BaseException | None) -> bool:
    """The store made us wait the whole ``store_timeout`` already: the pool gave no connection (PostgreSQL),
    or the database stayed locked (SQLite). It is down for this request; retrying only makes us slower."""
    while exc is not None:
        if isinstance(exc, PoolTimeout) or "database is locked" in str(exc):
            return True
        exc = exc.__cause__
    return False


def bounded(method: F) -> F:
    """The library's method without its own retries (``__wrapped__``), retried here within the budget."""
    inner = getattr(method, "__wrapped__", method)

    @functools.wraps(inner)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        for attempt in range(1, ATTEMPTS + 1):
            try:
                return inner(*args, **kwargs)
            except (InterfaceError, OperationalError):
                if attempt == ATTEMPTS or waited(sys.exc_info()[1]):
                    raise
                time.sleep(0.05 * attempt)
        raise AssertionError("unreachable")  # pragma: no cover

    return wrapper  # type: ignore[return-value]


def _latest_versions(table: str, count: int) -> str:
    """Each read aggregate's last stored version, one index probe each (SQLite): ``max() … GROUP BY`` over an
    ``IN`` list walks every event of each aggregate, so a command slowed as its aggregates grew (issue 15)."""
    ids = ", ".join("(?)" for _ in range(count))
    return (f"WITH r(id) AS (VALUES {ids}) SELECT r.id, (SELECT e.originator_version FROM {table} e"
            " WHERE e.originator_id = r.id ORDER BY e.originator_version DESC LIMIT 1) FROM r")


class ReadSetConflict(IntegrityError):
    """An aggregate the command read changed before the command's save: run it again (ADR 0012)."""


def conflicts(reads: Mapping[UUID, int], stored: Mapping[str, int]) -> list[str]:
    return [oid.hex for oid, version in reads.items() if stored.get(oid.hex, 0) != version]


class PostgresAggregates(PostgresAggregateRecorder):
    """The snapshot store, with bounded retries."""

    insert_events = bounded(PostgresAggregateRecorder.insert_events)
    select_events = bounded(PostgresAggregateRecorder.select_events)


class PostgresEvents(PostgresApplicationRecorder):
    """The event store: a read-set check inside the insert's transaction, bounded retries."""

    select_events = bounded(PostgresApplicationRecorder.select_events)
    select_notifications = bounded(PostgresApplicationRecorder.select_notifications)
    max_notification_id = bounded(PostgresApplicationRecorder.max_notification_id)

    @bounded
    def insert_events(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int] | None:
        reads: Mapping[UUID, int] = kwargs.get("reads") or {}
        with self.datastore.get_connection() as conn, conn.transaction(), conn.cursor() as curs:
            if not stored_events:
                return []
            # Takes the table's EXCLUSIVE lock first: every writer is serialised from here to COMMIT.
            self._insert_stored_events(curs, stored_events, **kwargs)
            ids = self._fetch_ids_after_insert_events(curs, stored_events, **kwargs)
            if reads:
                curs.execute(SQL("SELECT r.id AS originator_id, (SELECT e.originator_version FROM {}.{} e"
                                 " WHERE e.originator_id = r.id ORDER BY e.originator_version DESC LIMIT 1) AS version"
                                 " FROM unnest(%s::uuid[]) AS r(id)").format(
                    Identifier(self.datastore.schema), Identifier(self.events_table_name)), (list(reads),))
                moved = conflicts(reads, {UUID(str(r["originator_id"])).hex: r["version"] or 0
                                          for r in curs.fetchall()})
                if moved:
                    raise ReadSetConflict(f"read aggregates changed concurrently: {', '.join(moved)}")
            return ids


#: Every session of the store's pools reads and writes at READ COMMITTED, whatever the server's or the role's
#: default (``default_transaction_isolation``): the projection's batch reads its position after it takes the
#: lock (``PostgresViews._begin_projection``) and the write's read-set check sees what committed before its
#: lock; under a stricter default both would fail as serialisation errors, or read an older snapshot. The few
#: reads that need one snapshot of several statements (the audit, an export) ask for REPEATABLE READ themselves.
SESSION_OPTIONS = "-c default_transaction_isolation=read\\ committed"


class PostgresStore(PostgresFactory):
    aggregate_recorder_class = PostgresAggregates
    application_recorder_class = PostgresEvents

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        # set as the connection opens (libpq's ``options``, which would replace PGOPTIONS: kept before it, so
        # an operator's other settings still apply and this one, given last, wins): no statement to run
        kwargs = self.datastore.pool.kwargs
        assert isinstance(kwargs, dict)  # the library hands the pool a dict (not a callable)
        kwargs["options"] = f"{os.environ.get('PGOPTIONS', '')} {SESSION_OPTIONS}".strip()


class SQLiteEvents(SQLiteApplicationRecorder):
    """The event store on SQLite: the same read-set check, after the inserts took the write lock, and the
    same bounded retries (the library's ten would wait ten lock timeouts)."""

    insert_events = bounded(SQLiteApplicationRecorder.insert_events)
    select_events = bounded(SQLiteApplicationRecorder.select_events)
    select_notifications = bounded(SQLiteApplicationRecorder.select_notifications)
    max_notification_id = bounded(SQLiteApplicationRecorder.max_notification_id)

    def _insert_events(self, c: SQLiteCursor, stored_events: Sequence[StoredEvent],
                       **kwargs: Any) -> Sequence[int] | None:
        ids = super()._insert_events(c, stored_events, **kwargs)
        reads: Mapping[UUID, int] = kwargs.get("reads") or {}
        if reads:
            c.execute(_latest_versions(self.events_table_name, len(reads)), [oid.hex for oid in reads])
            moved = conflicts(reads, {UUID(str(r[0])).hex: r[1] or 0 for r in c.fetchall()})
            if moved:
                raise ReadSetConflict(f"read aggregates changed concurrently: {', '.join(moved)}")
        return ids


POSTGRES_FACTORY = f"{__name__}:PostgresStore"
