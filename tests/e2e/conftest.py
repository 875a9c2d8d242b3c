"""End-to-end drivers: HTTP through the ASGI app, and the ``stakes`` CLI in-process."""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Iterator
from typing import Any

import pytest
import typer
from fastapi.testclient import TestClient
from typer.testing import CliRunner, Result

from adapters.service import Stakes
from adapters.settings import Settings
from api.app import create_app
from cli.main import app as cli_app

VOLATILE = {"id", "campaign_id", "loan_id", "at", "created_at", "started_at", "ended_at", "acquired_at",
            "offered_at", "updated_at", "position", "next_after", "stream", "unit"}


@pytest.fixture(autouse=True)
def no_page_breaks_its_content_security_policy() -> Iterator[None]:
    """A seat's page in the browser (``tests.e2e.board.seat_page``) reports no CSP violation in any test."""
    board = sys.modules.get("tests.e2e.board")
    if board is not None:
        board.VIOLATIONS.clear()
    yield
    board = sys.modules.get("tests.e2e.board")
    if board is not None and board.VIOLATIONS:
        found, board.VIOLATIONS[:] = list(board.VIOLATIONS), []
        pytest.fail("the page broke its Content-Security-Policy:\n" + "\n".join(found[:10]))


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


@functools.cache
def stakes_command() -> Any:
    """The click command of ``stakes``, built once per test process. typer's ``CliRunner.invoke`` builds it
    from the typer app on every call: the whole tree of every system's commands, half of what a CLI test spent.
    The program builds it once per run too (``cli.main``), so a test's command line meets the same command."""
    return typer.main.get_command(cli_app)


def invoke(args: list[str], env: dict[str, str], input: str | None = None) -> Result:
    """``CliRunner().invoke(cli_app, args, env=env, input=input)``, on the command built once."""
    runner = CliRunner()
    command = stakes_command()
    exception: BaseException | None = None
    exc_info: Any = None
    code: Any = 0
    with runner.isolation(input=input, env=env) as (out, err, mixed):
        try:
            command.main(args=args, prog_name=runner.get_default_prog_name(command))
        except SystemExit as exit:
            exc_info, code = sys.exc_info(), 0 if exit.code is None else exit.code
            if code != 0:
                exception = exit
            if not isinstance(code, int):
                sys.stdout.write(f"{code}\n")
                code = 1
        except Exception as error:
            exception, exc_info, code = error, sys.exc_info(), 1
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            stdout, stderr, output = out.getvalue(), err.getvalue(), mixed.getvalue()
    return Result(runner=runner, stdout_bytes=stdout, stderr_bytes=stderr, output_bytes=output, return_value=None,
                  exit_code=code, exception=exception, exc_info=exc_info)


class Cli:
    """Runs ``stakes`` in-process with the environment of a store and a config file."""

    def __init__(self, env: dict[str, str]) -> None:
        self.env = env

    def __call__(self, *args: str, expect: int = 0, env: dict[str, str] | None = None, input: str | None = None):
        result = invoke(list(args), {**self.env, **(env or {})}, input=input)
        assert result.exit_code == expect, f"stakes {' '.join(args)} -> {result.exit_code}\n{result.output}"
        return result

    def json(self, *args: str, env: dict[str, str] | None = None) -> Any:
        return json.loads(self(*args, "--format", "json", env=env).stdout)


@pytest.fixture
def cli(settings: Settings, env_for, tmp_path) -> Cli:
    """``stakes`` on the test's store, with the test's own config file (a store may be shared: ``shared_store``)."""
    return Cli({**env_for(settings), "STAKES_CONFIG": str(tmp_path / "config.json")})
