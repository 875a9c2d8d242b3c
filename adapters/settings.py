"""Settings read from the environment (prefix ``STAKES_``); ``compose.yaml`` uses the same names."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


def _data_home() -> Path:
    return Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "stakes"


def _config_home() -> Path:
    return Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config") / "stakes"


class Settings(BaseSettings):
    """Where the event store lives and how the server listens."""

    model_config = SettingsConfigDict(env_prefix="STAKES_", extra="ignore")

    #: ``sqlite`` (embedded, the default) or ``postgres``.
    store: Literal["sqlite", "postgres"] = "sqlite"
    #: The SQLite event store; read models live beside it in ``<name>.views.sqlite``.
    sqlite_path: Path = _data_home() / "stakes.sqlite"
    postgres_host: str = "127.0.0.1"
    postgres_port: int = 5432
    postgres_user: str = "postgres"
    postgres_password: str = ""
    postgres_dbname: str = "stakes"
    #: Created when missing; tests give each run its own.
    postgres_schema: str = "public"
    #: Seconds to wait for the store: a new PostgreSQL connection, or a free one in the pool. An outage is
    #: then answered 503 within about this long, and the next request reconnects (no restart).
    store_timeout: int = 2
    #: Events between snapshots of one aggregate.
    snapshot_interval: int = 25
    #: Aggregates each process keeps in memory (0: none). A cached aggregate is brought up to date with
    #: one read of the events stored after it (another process's writes included), then copied for the
    #: command, so a command that fails leaves the cache as it was (issue 15).
    aggregate_cache: int = Field(default=1000, ge=0)
    #: The operator's credential for ``POST /imports`` (C-2). Unset: the server takes no imports over HTTP
    #: (the embedded CLI, which holds the store itself, still imports).
    operator_token: str | None = None
    #: The largest import body, in bytes; a larger one is refused (413) before it is read whole.
    import_max_bytes: int = 16 * 1024 * 1024
    #: The largest request body any other route takes, in bytes (issue 29): a larger one is answered 413
    #: before it is read (``api/limits.py``), so no request can make the server hold more than this.
    max_body_bytes: int = Field(default=1024 * 1024, ge=1024)
    #: Where ``stakes serve`` listens.
    host: str = "127.0.0.1"
    port: int = 8000
    #: The Ed25519 key that signs every campaign's checkpoints (C-2), kept OUTSIDE the database: created on
    #: first run (mode 0600). Default: beside the SQLite file, or in the data folder for PostgreSQL.
    signing_key: Path | None = None
    #: The name in signed checkpoints: their origin is ``<log_name>/campaigns/<id>``; the key is named so too.
    log_name: str = "stakes"
    #: Worker processes of ``stakes serve``; each opens its own connections to the one store (ADR 0012).
    workers: int = 1
    #: Commands arriving together are decided by one thread and stored in one write (issue 32, ADR 0042);
    #: off: each command is stored alone, as before.
    group_commit: bool = True
    #: Commands (HTTP requests that write) one worker process runs at once; the others wait their turn.
    #: Unset: the store's own (``writers``).
    command_threads: int | None = Field(default=None, ge=1)
    #: How long a web sign-in lasts, in seconds, counted from the sign-in (fixed, not sliding; issue 29): the
    #: browser's cookie holds a session id stored hashed beside the seat tokens, never the seat token. After
    #: that the pages, the API and the stream refuse it, and the player signs in again with his seat token.
    web_session_seconds: int = Field(default=12 * 60 * 60, ge=1, le=30 * 24 * 60 * 60)
    #: Live web sessions one seat keeps (issue 29, ADR 0028): a sign-in beyond it ends the seat's oldest session
    #: (its cookie stops working and its open streams end, as after a sign-out). Expired rows are swept.
    web_sessions_per_seat: int = Field(default=10, ge=1, le=1000)
    #: Live streams (``GET …/stream``, issue 29): open at once per credential (a seat token or a web
    #: session) and per server process; one more is answered 429 with Retry-After.
    streams_per_credential: int = Field(default=8, ge=1)
    streams_per_process: int = Field(default=2000, ge=1)
    #: Audits (``GET …/audit``, issue 29, ADR 0028) running or waiting for their turn at once, per seat (its token
    #: and web sessions together) and per server process; one more is answered 429 with Retry-After. An audit
    #: rebuilds its campaign into a scratch store: CPU a client must not be able to multiply.
    audits_per_credential: int = Field(default=1, ge=1)
    audits_per_process: int = Field(default=16, ge=1)
    #: Batches a stream holds for a client that reads slowly; a client that lets it fill is disconnected
    #: (it reconnects with Last-Event-ID and misses nothing).
    stream_queue: int = Field(default=256, ge=1)
    #: Bytes a stream's connection may hold unread by its client before the client counts as too slow and is
    #: disconnected the same way (1 MiB; the kernel's own socket buffers come on top).
    stream_buffer: int = Field(default=1 << 20, ge=1024)
    #: Seconds a stream waits for its client to take what is waiting for it (its connection's buffer full)
    #: before the server hangs up on it; the client reconnects with Last-Event-ID.
    stream_send_wait: float = Field(default=10.0, gt=0, le=600)
    #: Seconds between checks of an open stream's credential when nothing says it changed (a revocation
    #: made by another process on SQLite); a revocation in this process, or any on PostgreSQL, ends it at once.
    stream_recheck: float = Field(default=30.0, gt=0)
    #: One line per request on stderr (method, path, status, time); the token is in a header, never logged.
    #: Seconds ``stakes serve`` waits, once told to stop, for requests still running; then it ends what is left,
    #: live streams above all (they never end by themselves: their clients reconnect with Last-Event-ID).
    shutdown_grace: int = Field(default=3, ge=0, le=600)
    access_log: bool = True
    #: The CLI's file for the current campaign, server and token.
    config: Path = _config_home() / "config.json"

    @property
    def writers(self) -> int | None:
        """Commands one process runs at once; None: as many as the server's thread pool holds (ADR 0017).

        SQLite takes one writer at a time: more commands at once in one process only contend for the
        interpreter (a thread that waits for the database hands the interpreter to another, which wakes, finds
        the write lock taken and waits), so two run at once, one writing while the other reads its answer.
        PostgreSQL's round trips leave the interpreter free meanwhile: its commands use the whole pool.

        With group commit (ADR 0042) one thread decides and stores the commands waiting, and the others only
        wait for their answers: eight on SQLite let a group gather what a table's clients send at once."""
        if self.command_threads is not None:
            return self.command_threads
        if self.store != "sqlite":
            return None
        return 8 if self.group_commit else 2

    @property
    def views_path(self) -> Path:
        return self.sqlite_path.with_name(self.sqlite_path.stem + ".views.sqlite")

    @property
    def signing_key_path(self) -> Path:
        if self.signing_key is not None:
            return self.signing_key
        if self.store == "sqlite":
            return self.sqlite_path.with_name(self.sqlite_path.stem + ".signing-key.pem")
        return _data_home() / f"signing-key-{self.postgres_dbname}-{self.postgres_schema}.pem"

    @property
    def served_path(self) -> Path:
        """Where ``stakes serve`` notes the address it serves this store at, while it runs: the embedded CLI's
        invite links name that address (not the default port) when the table is served from another shell."""
        if self.store == "sqlite":
            return self.sqlite_path.with_name(self.sqlite_path.stem + ".served.json")
        return _data_home() / f"served-{self.postgres_dbname}-{self.postgres_schema}.json"

    def describe(self) -> str:
        if self.store == "sqlite":
            return f"sqlite:{self.sqlite_path}"
        return f"postgres://{self.postgres_user}@{self.postgres_host}:{self.postgres_port}/{self.postgres_dbname}?schema={self.postgres_schema}"
