"""The CLI's small config file: the current campaign, and the server and token after ``login``.

It lives at ``STAKES_CONFIG`` (default ``~/.config/stakes/config.json``, the ``config`` setting of
``adapters.settings.Settings``, read here without loading the settings machinery) and is written with
mode 0600, since it may hold a seat token.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class CliConfig:
    campaign: str | None = None
    challenge: str | None = None
    server: str | None = None
    token: str | None = None
    #: The last signed head seen of each campaign, by "<server> <campaign id>" (C-2, ``cli/witness.py``).
    heads: dict[str, str] = field(default_factory=dict)
    #: The checkpoint key each server signed with the first time (its verifier key).
    server_keys: dict[str, str] = field(default_factory=dict)
    #: The campaign and seat each token holds ("<campaign id> <seat>"), by a digest of server and token: a
    #: token names one seat of one campaign for good, so a command need not ask the server again.
    sessions: dict[str, str] = field(default_factory=dict)
    #: The rule system of each campaign this CLI has met, by campaign id: a campaign's system never changes, so
    #: a command against a server need not ask for it, and ``stakes --help`` lists its commands first.
    systems: dict[str, str] = field(default_factory=dict)
    #: Each seat's current unit of resolution, by "<campaign id> <seat>": two seats of one embedded store keep
    #: their own (issue 31). ``challenge`` is what a CLI before that kept, read when a seat has none.
    units: dict[str, str] = field(default_factory=dict)


def config_path() -> Path:
    explicit = os.environ.get("STAKES_CONFIG")
    if explicit:
        return Path(explicit)
    return Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config") / "stakes" / "config.json"


def load() -> CliConfig:
    path = config_path()
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return CliConfig()
    if not isinstance(data, dict):
        return CliConfig()
    kinds = {f.name: dict if f.name in ("heads", "server_keys", "sessions", "systems", "units") else str for f in fields(CliConfig)}
    kept: dict[str, Any] = {k: v for k, v in data.items() if k in kinds and (v is None or isinstance(v, kinds[k]))}
    return CliConfig(**kept)


def save(config: CliConfig) -> None:
    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as handle:
        handle.write(json.dumps({k: v for k, v in asdict(config).items() if v is not None}, indent=2))
    tmp.replace(path)


def remember_system(campaign_id: str, system: str) -> None:
    """Note a campaign's rule system (once: it never changes)."""
    known = load()
    if known.systems.get(campaign_id) != system:
        update(systems={**known.systems, campaign_id: system})


def update(**changes: Any) -> CliConfig:
    config = replace(load(), **changes)
    save(config)
    return config
