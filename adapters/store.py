"""Event store and read-model store configuration for SQLite and PostgreSQL."""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import cast

import psycopg
from eventsourcing.persistence import InfrastructureFactory
from eventsourcing.utils import Environment
from psycopg import sql

from adapters import recorders
from adapters.checkpoint import Signer
from adapters.settings import Settings
from adapters.views import PostgresViews, SQLiteViews, ViewsMixin
from domain.application import StakesApplication, snapshot_classes

VIEWS_NAME = "StakesViews"


def _postgres_env(settings: Settings) -> dict[str, str]:
    return {
        "PERSISTENCE_MODULE": recorders.POSTGRES_FACTORY,  # read-set check, bounded retries (ADR 0012)
        "POSTGRES_HOST": settings.postgres_host,
        "POSTGRES_PORT": str(settings.postgres_port),
        "POSTGRES_USER": settings.postgres_user,
        "POSTGRES_PASSWORD": settings.postgres_password,
        "POSTGRES_DBNAME": settings.postgres_dbname,
        "POSTGRES_SCHEMA": settings.postgres_schema,
        "POSTGRES_POOL_SIZE": "2",
        "POSTGRES_CONNECT_TIMEOUT": str(max(1, settings.store_timeout)),  # the wait for a pooled connection
        "POSTGRES_PRE_PING": "y",  # a connection broken by an outage is replaced, not handed out
        "POSTGRES_MAX_OVERFLOW": "8",
        # eventsourcing ends a transaction left idle 5 s by default; on a starved machine a thread holding one
        # can be descheduled that long and the command answers 503: 30 s still ends a truly stuck transaction
        "POSTGRES_IDLE_IN_TRANSACTION_SESSION_TIMEOUT": "30",
        # Never enable POSTGRES_ENABLE_DB_FUNCTIONS: it drops tracking records.
        "POSTGRES_ENABLE_DB_FUNCTIONS": "n",
    }


def _sqlite_env(path: str, timeout: int) -> dict[str, str]:
    # A write waits at most ``store_timeout`` for the file's lock (another process's long write, a backup
    # holding it): then it answers 503, stores nothing, and the next request tries again.
    return {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": path,
            "SQLITE_LOCK_TIMEOUT": str(max(1, timeout))}


def application_env(settings: Settings) -> dict[str, str]:
    env = (_postgres_env(settings) if settings.store == "postgres"
           else _sqlite_env(str(settings.sqlite_path), settings.store_timeout))
    env["IS_SNAPSHOTTING_ENABLED"] = "y"
    if settings.aggregate_cache:
        env["AGGREGATE_CACHE_MAXSIZE"] = str(settings.aggregate_cache)
        env["AGGREGATE_CACHE_FASTFORWARD"] = "y"  # a cached aggregate reads what was stored after it

    # The recorders that write each event's link of the chain in the event's own transaction (C-2), check
    # the command's read set there (ADR 0012) and seal snapshots; built on ``adapters/recorders.py``.
    env["PERSISTENCE_MODULE"] = ("adapters.chained:PostgresChainedFactory" if settings.store == "postgres"
                                 else "adapters.chained:SQLiteChainedFactory")
    # Each state is stored deflated against the words every event repeats (ADR 0018); a state stored before,
    # plain JSON, is read as it is.
    env["COMPRESSOR_TOPIC"] = "adapters.codec:CODEC"
    # eventsourcing looks up ``<APP NAME>_<KEY>`` in the process environment before ``<KEY>``, and the
    # application is named Stakes: ``STAKES_POSTGRES_SCHEMA`` (this project's own setting) would otherwise
    # place the event store by the environment while the read models follow the settings given.
    return {**env, **{f"{StakesApplication.name.upper()}_{key}": value for key, value in env.items()}}


def views_env(settings: Settings) -> dict[str, str]:
    # Each SQLite store gets its own file; PostgreSQL keeps both in one schema.
    return (_postgres_env(settings) if settings.store == "postgres"
            else _sqlite_env(str(settings.views_path), settings.store_timeout))


@contextmanager
def prepare(settings: Settings) -> Iterator[None]:
    """Create the SQLite folder, or the PostgreSQL schema, when missing; the body creates the tables.

    On PostgreSQL the whole start-up holds a session advisory lock per schema, so any number of workers
    starting at once create the schema and its tables one after another (``CREATE … IF NOT EXISTS`` alone
    races on the catalogue)."""
    if settings.store == "sqlite":
        settings.sqlite_path.parent.mkdir(parents=True, exist_ok=True)
        yield
        return
    # libpq's own connect timeout, for every connection the pools open (it has none by default).
    os.environ.setdefault("PGCONNECT_TIMEOUT", str(max(1, settings.store_timeout)))
    with psycopg.connect(
        host=settings.postgres_host, port=settings.postgres_port, user=settings.postgres_user,
        password=settings.postgres_password, dbname=settings.postgres_dbname, autocommit=True,
        connect_timeout=max(1, settings.store_timeout),
    ) as conn:
        key = f"stakes-schema/{settings.postgres_schema}"
        conn.execute("SELECT pg_advisory_lock(hashtextextended(%s, 0))", (key,))
        try:
            conn.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(settings.postgres_schema)))
            yield
        finally:
            conn.execute("SELECT pg_advisory_unlock(hashtextextended(%s, 0))", (key,))


#: A pooled PostgreSQL connection handed out again within this many seconds is not pinged first.
PING_AFTER = 1.0


def ping_when_idle(datastore: object) -> None:
    """Pre-ping (``POSTGRES_PRE_PING``) only the connections that sat idle in the pool.

    A ping costs a round trip on each of a command's dozen checkouts. A connection used less than
    ``PING_AFTER`` seconds ago was alive then; if an outage broke it since, its one request answers 503
    and the pool drops it (it is broken), as after any outage. Idle connections are still pinged, so an
    outage heals without a restart (tests/integration/test_network_faults.py)."""
    try:
        connections = datastore.pool  # type: ignore[attr-defined]  # psycopg_pool's ConnectionPool
    except AttributeError:
        return
    ping = getattr(connections, "_check", None)
    if ping is None or getattr(connections, "_stakes_lazy_ping", False):  # SQLite, no pre-ping asked, or done
        return

    def check(conn: psycopg.Connection) -> None:
        now = time.monotonic()
        if now - getattr(conn, "_stakes_checked", float("-inf")) >= PING_AFTER:
            ping(conn)
        conn._stakes_checked = now  # type: ignore[attr-defined]

    connections._check = check  # type: ignore[union-attr]
    connections._stakes_lazy_ping = True  # type: ignore[union-attr]


def open_signer(settings: Settings) -> Signer:
    return Signer(settings.signing_key_path, settings.log_name)


def open_application(settings: Settings, signer: Signer | None = None) -> StakesApplication:
    app = StakesApplication(env=application_env(settings))
    signer = signer or open_signer(settings)
    app.snapshots.recorder.signer = signer  # type: ignore[union-attr]  # seals snapshots; unsealed ones are ignored
    app.snapshotting_intervals = {cls: settings.snapshot_interval for cls in snapshot_classes()}  # type: ignore[misc]
    for recorder in (app.recorder, app.snapshots.recorder if app.snapshots else None):
        ping_when_idle(getattr(recorder, "datastore", None))
    return app


def open_scratch_views(settings: Settings) -> ViewsMixin:
    """Empty read models for one audit of the read models (ADR 0023, ADR 0039), of the live store's kind: on
    PostgreSQL, temporary tables (``pg_temp``) of one connection, which write no WAL and go with the connection
    when the views are closed (a schema's 47 tables and indexes took 0.6 s to create and 0.2 s to drop, a
    temporary set 0.15 s in all); on SQLite, a file that need not survive a crash (``settings.sqlite_path``:
    a fresh temporary folder)."""
    if settings.store == "sqlite":
        settings.sqlite_path.parent.mkdir(parents=True, exist_ok=True)
        env = _sqlite_env(str(settings.views_path), settings.store_timeout)
    else:
        os.environ.setdefault("PGCONNECT_TIMEOUT", str(max(1, settings.store_timeout)))
        # one connection, never replaced: its temporary tables are the scratch store
        env = {**_postgres_env(settings), "POSTGRES_SCHEMA": "pg_temp", "POSTGRES_POOL_SIZE": "1",
               "POSTGRES_MAX_OVERFLOW": "0", "POSTGRES_PRE_PING": "n"}
    factory = InfrastructureFactory.construct(Environment(VIEWS_NAME, env))
    cls = PostgresViews if settings.store == "postgres" else SQLiteViews
    views = cast(ViewsMixin, factory.tracking_recorder(cls))  # type: ignore[arg-type]
    views.factory = factory  # type: ignore[attr-defined]
    if isinstance(views, PostgresViews):
        views.lock_scope = f"audit-{uuid.uuid4().hex}"  # every session's temporary schema is called pg_temp
    return views


def open_views(settings: Settings) -> ViewsMixin:
    factory = InfrastructureFactory.construct(Environment(VIEWS_NAME, views_env(settings)))
    cls = PostgresViews if settings.store == "postgres" else SQLiteViews
    views = cast(ViewsMixin, factory.tracking_recorder(cls))  # type: ignore[arg-type]
    views.factory = factory  # type: ignore[attr-defined]  # keeps the connection pool open
    if isinstance(views, PostgresViews):
        from adapters.fanout import channel

        views.channel = channel(settings)  # each projection commit wakes the other processes' streams
        ping_when_idle(views.datastore)
    return views
