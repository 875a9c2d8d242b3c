"""End-to-end drivers: HTTP through the ASGI app, and the ``stakes`` CLI in-process."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from adapters.service import Stakes
from adapters.settings import Settings
from api.app import create_app
from cli.main import app as cli_app

VOLATILE = {"id", "campaign_id", "loan_id", "at", "created_at", "started_at", "ended_at", "acquired_at",
            "offered_at", "updated_at", "position", "next_after", "stream", "unit"}


def normalized(value: Any) -> Any:
    """Drop ids and times so two runs of one story compare equal."""
    if isinstance(value, dict):
        return {k: normalized(v) for k, v in value.items() if k not in VOLATILE}
    if isinstance(value, list):
        return [normalized(v) for v in value]
    return value


@pytest.fixture
def client(stakes: Stakes) -> Iterator[TestClient]:
    with TestClient(create_app(stakes=stakes)) as test_client:
        yield test_client


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def player_token(http: Any, added: dict[str, Any]) -> str:
    """The long-lived token of a seat the House just added (the answer of ``POST …/players``, or of
    ``POST …/players/{seat}/token``): the player claims the answer's one-time invite code himself
    (``POST /invites``), so the House never holds his token. ``http`` is a TestClient or an
    ``httpx.Client`` with a base URL.
    """
    r = http.post("/invites", json={"code": added["invite"]})
    assert r.status_code == 201, r.text
    return r.json()["token"]


def player_headers(http: Any, added: dict[str, Any]) -> dict[str, str]:
    return bearer(player_token(http, added))


class Cli:
    """Runs ``stakes`` in-process with the environment of a store and a config file."""

    def __init__(self, env: dict[str, str]) -> None:
        self.env = env
        self.runner = CliRunner()

    def __call__(self, *args: str, expect: int = 0, env: dict[str, str] | None = None, input: str | None = None):
        result = self.runner.invoke(cli_app, list(args), env={**self.env, **(env or {})}, input=input)
        assert result.exit_code == expect, f"stakes {' '.join(args)} -> {result.exit_code}\n{result.output}"
        return result

    def json(self, *args: str, env: dict[str, str] | None = None) -> Any:
        return json.loads(self(*args, "--format", "json", env=env).stdout)


@pytest.fixture
def cli(settings: Settings, env_for) -> Cli:
    return Cli(env_for(settings))
