"""The CLI's small config file: the current campaign, and the server and token after ``login``.

It lives at ``STAKES_CONFIG`` (default ``~/.config/stakes/config.json``) and is
written with mode 0600, since it may hold a seat token.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from pydantic import BaseModel

from adapters.settings import Settings


class CliConfig(BaseModel):
    campaign: str | None = None
    challenge: str | None = None
    server: str | None = None
    token: str | None = None


def config_path() -> Path:
    return Settings().config


def load() -> CliConfig:
    path = config_path()
    if not path.exists():
        return CliConfig()
    try:
        return CliConfig.model_validate_json(path.read_text())
    except ValueError:
        return CliConfig()


def save(config: CliConfig) -> None:
    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as handle:
        handle.write(json.dumps(config.model_dump(exclude_none=True), indent=2))
    tmp.replace(path)


def update(**changes: str | None) -> CliConfig:
    config = load().model_copy(update=changes)
    save(config)
    return config
