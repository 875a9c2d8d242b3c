"""Settings read from the environment (prefix ``STAKES_``); ``compose.yaml`` uses the same names."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal

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
    #: Where ``stakes serve`` listens.
    host: str = "127.0.0.1"
    port: int = 8000
    #: The CLI's file for the current campaign, server and token.
    config: Path = _config_home() / "config.json"

    @property
    def views_path(self) -> Path:
        return self.sqlite_path.with_name(self.sqlite_path.stem + ".views.sqlite")

    def describe(self) -> str:
        if self.store == "sqlite":
            return f"sqlite:{self.sqlite_path}"
        return f"postgres://{self.postgres_user}@{self.postgres_host}:{self.postgres_port}/{self.postgres_dbname}?schema={self.postgres_schema}"
