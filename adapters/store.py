"""Event store and read-model store configuration for SQLite and PostgreSQL."""

from __future__ import annotations

import os
from typing import cast

import psycopg
from eventsourcing.persistence import InfrastructureFactory
from eventsourcing.utils import Environment
from psycopg import sql

from adapters.settings import Settings
from adapters.views import PostgresViews, SQLiteViews, ViewsMixin
from domain.application import StakesApplication, snapshot_classes

VIEWS_NAME = "StakesViews"


def _postgres_env(settings: Settings) -> dict[str, str]:
    return {
        "PERSISTENCE_MODULE": "eventsourcing.postgres",
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
        # Never enable POSTGRES_ENABLE_DB_FUNCTIONS: it drops tracking records.
        "POSTGRES_ENABLE_DB_FUNCTIONS": "n",
    }


def _sqlite_env(path: str) -> dict[str, str]:
    return {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": path, "SQLITE_LOCK_TIMEOUT": "30"}


def application_env(settings: Settings) -> dict[str, str]:
    env = _postgres_env(settings) if settings.store == "postgres" else _sqlite_env(str(settings.sqlite_path))
    env["IS_SNAPSHOTTING_ENABLED"] = "y"
    return env


def views_env(settings: Settings) -> dict[str, str]:
    # Each SQLite store gets its own file; PostgreSQL keeps both in one schema.
    return _postgres_env(settings) if settings.store == "postgres" else _sqlite_env(str(settings.views_path))


def prepare(settings: Settings) -> None:
    """Create the SQLite folder or the PostgreSQL schema when missing."""
    if settings.store == "sqlite":
        settings.sqlite_path.parent.mkdir(parents=True, exist_ok=True)
        return
    # libpq's own connect timeout, for every connection the pools open (it has none by default).
    os.environ.setdefault("PGCONNECT_TIMEOUT", str(max(1, settings.store_timeout)))
    with psycopg.connect(
        host=settings.postgres_host, port=settings.postgres_port, user=settings.postgres_user,
        password=settings.postgres_password, dbname=settings.postgres_dbname, autocommit=True,
        connect_timeout=max(1, settings.store_timeout),
    ) as conn:
        conn.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(settings.postgres_schema)))


def open_application(settings: Settings) -> StakesApplication:
    app = StakesApplication(env=application_env(settings))
    app.snapshotting_intervals = {cls: settings.snapshot_interval for cls in snapshot_classes()}
    return app


def open_views(settings: Settings) -> ViewsMixin:
    factory = InfrastructureFactory.construct(Environment(VIEWS_NAME, views_env(settings)))
    cls = PostgresViews if settings.store == "postgres" else SQLiteViews
    views = cast(ViewsMixin, factory.tracking_recorder(cls))  # type: ignore[arg-type]
    views.factory = factory  # type: ignore[attr-defined]  # keeps the connection pool open
    return views
