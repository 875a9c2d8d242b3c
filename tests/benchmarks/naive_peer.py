"""The naive peer the load benchmark compares Stakes against (issue 15).

A FastAPI endpoint that loads one eventsourcing aggregate and saves one event: no retries, no projection,
no authentication. It runs on the same kind of store as Stakes, from the same ``STAKES_*`` settings, so
the two differ only in what Stakes does per command.

It runs at a steady state (issue 32): each counter is snapshotted every ``SNAPSHOT_INTERVAL`` events, as
Stakes snapshots its aggregates (``Settings.snapshot_interval``), and the load spreads over
``COUNTERS_PER_CLIENT`` counters a client. Without snapshots every request replayed every earlier increment
of its counter, so the peer slowed as the run went on and its rate depended on how long the run was.

Run it as ``python -m tests.benchmarks.naive_peer`` (it reads ``STAKES_*`` and ``STAKES_PORT``).
"""

from __future__ import annotations

import os
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.domain import Aggregate, event
from fastapi import FastAPI, HTTPException


class Counter(Aggregate):
    @event("Created")
    def __init__(self, name: str) -> None:
        self.name = name
        self.count = 0

    @staticmethod
    def create_id(name: str) -> UUID:
        return uuid5(NAMESPACE_URL, f"naive-peer/{name}")

    @event("Incremented")
    def increment(self, by: int) -> None:
        self.count += by


def environment() -> dict[str, str]:
    """eventsourcing's own settings for the store Stakes' settings name."""
    if os.environ.get("STAKES_STORE", "sqlite") == "postgres":
        return {
            "PERSISTENCE_MODULE": "eventsourcing.postgres",
            "POSTGRES_DBNAME": os.environ["STAKES_POSTGRES_DBNAME"],
            "POSTGRES_HOST": os.environ.get("STAKES_POSTGRES_HOST", "127.0.0.1"),
            "POSTGRES_PORT": os.environ.get("STAKES_POSTGRES_PORT", "5432"),
            "POSTGRES_USER": os.environ.get("STAKES_POSTGRES_USER", "postgres"),
            "POSTGRES_PASSWORD": os.environ.get("STAKES_POSTGRES_PASSWORD", ""),
            "POSTGRES_SCHEMA": os.environ.get("STAKES_POSTGRES_SCHEMA", "public"),
            "POSTGRES_POOL_SIZE": "10",
            "CREATE_TABLE": "y",
        }
    path = os.environ["STAKES_SQLITE_PATH"] + ".naive"
    return {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": path, "CREATE_TABLE": "y"}


#: Events between two snapshots of a counter: Stakes' own default (``adapters.settings.Settings``).
SNAPSHOT_INTERVAL = 25
#: Counters each load client spreads its increments over (8 clients: 40 aggregates): each passes several of its
#: snapshots in a window, so the peer's rate holds (drift about 1.00). Over 200 counters each passed about one in
#: a 10-second window, the second half replaying more events than the first: drift 0.85–0.90.
COUNTERS_PER_CLIENT = 5


class NaivePeer(Application):
    """Its own tables (``naivepeer_events``, ``naivepeer_snapshots``), beside Stakes' in the same store."""

    is_snapshotting_enabled = True
    snapshotting_intervals = {Counter: SNAPSHOT_INTERVAL}


def open_application() -> NaivePeer:
    env = environment()
    if env["PERSISTENCE_MODULE"] == "eventsourcing.postgres":
        import psycopg
        from psycopg import sql

        with psycopg.connect(host=env["POSTGRES_HOST"], port=int(env["POSTGRES_PORT"]), user=env["POSTGRES_USER"],
                             password=env["POSTGRES_PASSWORD"], dbname=env["POSTGRES_DBNAME"], autocommit=True) as c:
            c.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(env["POSTGRES_SCHEMA"])))
    return NaivePeer(env=env)


def create_app() -> FastAPI:
    application = open_application()
    app = FastAPI(title="naive peer")

    @app.post("/counters/{name}/increment", status_code=201)
    def increment(name: str, body: dict) -> dict:
        by = body.get("by")
        if type(by) is not int:
            raise HTTPException(422, "by must be an integer")
        try:
            counter = application.repository.get(Counter.create_id(name))
        except AggregateNotFoundError:
            counter = Counter(name)
        counter.increment(by)
        application.save(counter)
        return {"name": name, "count": counter.count}

    @app.post("/floor/{name}", status_code=201)
    def floor(name: str, body: dict) -> dict:
        """The web stack alone: the same route shape, body and answer, no store (the floor of any endpoint)."""
        by = body.get("by")
        if type(by) is not int:
            raise HTTPException(422, "by must be an integer")
        return {"name": name, "count": by}

    @app.get("/health")
    def health() -> dict:
        return {"status": "ok"}

    return app


if __name__ == "__main__":  # pragma: no cover - started by the load benchmark
    import uvicorn

    uvicorn.run(create_app(), host="127.0.0.1", port=int(os.environ["STAKES_PORT"]), log_level="warning")
