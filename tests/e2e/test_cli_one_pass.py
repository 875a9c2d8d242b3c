"""One pass per command from the CLI (issue 30, item 7): a whole unit id is taken without listing the campaign's
units, and the campaign's rule system comes with the seat (the session, the claim), so no command asks for it."""

from __future__ import annotations

from typing import Any
from uuid import uuid4

import httpx
import pytest

from cli import config
from cli.commands import unit_id
from cli.remote import RemoteStakes
from cli.session import Target, _session
from domain.seats import Seat
from tests.e2e.conftest import bearer


class Counting(httpx.BaseTransport):
    """The test client's transport, remembering each request's method and path."""

    def __init__(self, inner: httpx.BaseTransport) -> None:
        self.inner = inner
        self.seen: list[str] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        self.seen.append(f"{request.method} {request.url.path}")
        return self.inner.handle_request(request)


class NoBackend:
    """A backend any request to which fails the test."""

    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"the CLI asked the backend {name!r}")


@pytest.fixture
def cli_config(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STAKES_CONFIG", str(tmp_path / "config.json"))


def test_a_whole_unit_id_is_taken_without_listing_the_campaigns_units(cli_config) -> None:
    unit = uuid4()
    target = Target(NoBackend(), Seat("ilse"), uuid4(), remote=True)
    assert unit_id(target, str(unit)) == unit
    assert unit_id(target, unit.hex.upper()) == unit


def test_the_claim_and_the_session_tell_the_campaigns_system_so_no_command_asks_for_it(client, cli_config) -> None:
    created = client.post("/campaigns", json={"name": "Quiet Pool", "system": "pool"}).json()
    cid, house = created["campaign"]["id"], bearer(created["house_token"])
    added = client.post(f"/campaigns/{cid}/players", headers=house,
                        json={"seat": "ilse", "character": "Ilse", "description": "A calm and patient monk",
                              "traits": {"Calm": 1}}).json()
    claimed = client.post("/invites", json={"code": added["invite"]}).json()
    assert claimed["system"] == "pool"
    assert client.get("/session", headers=bearer(claimed["token"])).json()["system"] == "pool"

    transport = Counting(client._transport)
    remote = RemoteStakes("http://testserver", claimed["token"], transport=transport)
    try:
        held, seat = _session(remote, config.load(), "http://testserver", claimed["token"])
        assert (held.hex, seat) == (cid.replace("-", ""), "ilse")
        assert transport.seen == ["GET /session"]  # asked once, with the system in the answer
        remote.sheet(held, Seat(seat))
        assert transport.seen == ["GET /session", f"GET /campaigns/{held}/characters/ilse"]  # no GET of the campaign
    finally:
        remote.close()
