"""Real network faults between Stakes and PostgreSQL (``tests/pgproxy.py``): a COMMIT whose answer is lost
runs its command once (C-2, exactly once), and an outage answers 503 quickly and heals without a restart."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from uuid import UUID

import pytest
from fastapi.testclient import TestClient

from adapters.service import Stakes
from api.app import create_app
from domain.seats import Seat
from tests.conftest import postgres_settings
from tests.pgproxy import PgProxy

pytestmark = pytest.mark.postgres
HOUSE, TOMAS = Seat.house(), Seat("tomas")
LOST_ACKS = int(os.environ.get("STAKES_LOST_ACKS", "100"))


@pytest.fixture
def proxy(pg_server) -> Iterator[PgProxy]:
    found = PgProxy(pg_server.host, pg_server.port)
    yield found
    found.close()


@pytest.fixture
def proxied(pg_server, pg_schema, tmp_path, proxy):
    return postgres_settings(pg_server, pg_schema, tmp_path).model_copy(
        update={"postgres_port": proxy.port, "store_timeout": 2})  # a server's default: an outage answers in ~2 s


def stored_events(stakes: Stakes) -> int:
    """Counted, not the last notification id: a retried insert that hit its own first attempt's key
    leaves a gap in PostgreSQL's sequence."""
    return len(stakes.app.recorder.select_notifications(start=1, limit=1_000_000))


def test_a_commit_whose_answer_is_lost_runs_its_command_once_a_hundred_times_over(proxied, proxy) -> None:
    stakes = Stakes(proxied)
    try:
        cid = stakes.create_campaign("Lost answers", "penny-ante", {"starting_pile": 500}).campaign.id
        for seat in ("ilse", "tomas"):
            stakes.run(cid, HOUSE, "add-player", {"seat": seat, "character": seat.title(), "characteristic": "Sly"})
        loans: list[UUID] = []
        for attempt in range(LOST_ACKS):
            before = stored_events(stakes)
            proxy.drop_next_commit_answer()
            loans.append(stakes.run(cid, TOMAS, "offer-loan", {"borrower": "ilse", "amount": 1}).loan_id)
            assert proxy.dropped == attempt + 1  # the fault really happened
            assert stored_events(stakes) == before + 2, attempt  # the offer and its record, once
        stored = [x.loan_id for x in stakes.read(cid, HOUSE, "debts").loans]
        assert sorted(stored) == sorted(loans) and len(set(stored)) == LOST_ACKS  # 0 duplicates
    finally:
        stakes.close()


def test_an_outage_answers_503_quickly_and_heals_without_a_restart(proxied, proxy) -> None:
    with TestClient(create_app(proxied)) as client:
        created = client.post("/campaigns", json={"name": "Outage", "system": "penny-ante"}).json()
        house = {"Authorization": "Bearer " + created["house_token"]}
        assert client.get("/health").json()["store"] == "up"

        proxy.cut()
        for path in ("/health", f"/campaigns/{created['campaign']['id']}"):
            started = time.monotonic()
            answer = client.get(path, headers=house)
            took = time.monotonic() - started
            assert answer.status_code == 503, (path, answer.text)
            assert took < 3.0, (path, took)  # store_timeout is 2 s
        assert client.get("/health").json()["store"] == "down"

        proxy.restore()
        deadline = time.monotonic() + 20
        while client.get("/health").status_code != 200:
            assert time.monotonic() < deadline, "the store did not come back"
            time.sleep(0.2)
        assert client.get("/health").json()["store"] == "up"
