"""Coin Flip, the toy system under ``tests/``, plugged in from the test side, is served whole by the API: its
command's route, its moves, its sheet, verify, the log and the OpenAPI schema, with no shared file naming it
(issue 30: the shared diff of adding a system is empty)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from adapters.service import Stakes
from adapters.settings import Settings
from api.app import create_app
from tests.e2e.conftest import bearer, player_headers
from tests.toy_system import plug_in


@pytest.fixture
def toy_client(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    plug_in(monkeypatch)  # before the service and the app: both read the registry when they start
    service = Stakes(settings)
    with TestClient(create_app(stakes=service)) as client:
        yield client
    service.close()


def seated(client: TestClient) -> tuple[str, dict[str, Any]]:
    created = client.post("/campaigns", json={"name": "Heads or tails", "system": "coin-flip"})
    assert created.status_code == 201, created.text
    c, t = f"/campaigns/{created.json()['campaign']['id']}", {"house": bearer(created.json()["house_token"])}
    for seat in ("ilse", "tomas", "mara"):
        r = client.post(f"{c}/players", headers=t["house"], json={"seat": seat, "character": seat.title()})
        assert r.status_code == 201 and r.json()["sheet"] == {"system": "coin-flip", "seat": seat,
                                                               "name": seat.title(), "wins": 0, "losses": 0}, r.text
        t[seat] = player_headers(client, r.json())
    return c, t


def test_a_flip_is_played_over_http_from_open_to_verify(toy_client: TestClient) -> None:
    client = toy_client
    c, t = seated(client)
    early = client.post(f"{c}/flips", headers=t["house"], json={"players": ["ilse", "tomas"]})
    assert early.status_code == 422 and early.json()["ruling"] == "C-1"  # no adventure yet
    assert client.post(f"{c}/adventures", headers=t["house"], json={}).status_code == 201
    opened = client.post(f"{c}/flips", headers=t["house"], json={"players": ["ilse", "tomas"]})
    assert opened.status_code == 201, opened.text
    flip, act = opened.json(), f"{c}/challenges/{opened.json()['id']}/actions"
    assert flip["kind"] == "CoinFlip" and flip["state"]["seed_hash"] and flip["waiting_for"] == ["ilse", "tomas"]
    assert client.post(act, headers=t["mara"], json={"action": "seed", "seed": "me too"}).json()["ruling"] == "CF-2"
    for seat, body in (("ilse", {"action": "seed", "seed": "lucky"}), ("tomas", {"action": "pass"}),
                       ("ilse", {"action": "call", "call": "heads"}), ("house", {"action": "settle"})):
        r = client.post(act, headers=t[seat], json=body)
        assert r.status_code == 200, r.text
    settled = r.json()["state"]
    assert settled["phase"] == "settled" and settled["coin"] in ("heads", "tails")
    assert settled["won"] == (settled["coin"] == "heads")
    verified = client.get(f"{c}/challenges/{flip['id']}/verify", headers=t["mara"]).json()
    assert verified["commitment_matches"] and verified["checked"] == 1 and not verified["mismatches"]
    sheet = client.get(f"{c}/characters/ilse", headers=t["tomas"]).json()
    assert (sheet["wins"], sheet["losses"]) == ((1, 0) if settled["won"] else (0, 1))
    assert "/campaigns/{campaign_id}/flips" in client.get("/openapi.json").json()["paths"]
