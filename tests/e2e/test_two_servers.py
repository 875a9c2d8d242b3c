"""Two ``stakes serve`` processes on one PostgreSQL schema, under load from both sides (ADR 0012).

Clients race economy commands against both servers for ``STAKES_SOAK_SECONDS`` (default 30): no answer is a
5xx, the pennies are conserved (PA-1), and the views equal a rebuild of the log. Not a timing test: it
asserts what was stored, never how fast.
"""

from __future__ import annotations

import os
import random
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack

import httpx
import pytest

from adapters.service import Stakes
from tests.e2e.conftest import player_headers
from tests.e2e.live import live_server

pytestmark = pytest.mark.postgres
SOAK = float(os.environ.get("STAKES_SOAK_SECONDS", "30"))
CLIENTS = 8
PILE = 100


@pytest.fixture
def servers(pg_server, pg_schema, tmp_path, env_for) -> Iterator[tuple[list[str], object]]:
    from tests.conftest import postgres_settings

    settings = postgres_settings(pg_server, pg_schema, tmp_path)
    env = env_for(settings)
    with ExitStack() as running:
        urls = [running.enter_context(live_server(env, tmp_path / f"server{i}.log")) for i in range(2)]
        yield urls, settings


def test_two_servers_on_one_schema_under_load_give_no_5xx_and_conserve_pennies(servers) -> None:
    (first, second), settings = servers
    seats = ["ilse", "tomas", "vera", "odo"]
    with httpx.Client(base_url=first, timeout=30) as c:
        created = c.post("/campaigns", json={"name": "Two servers", "system": "penny-ante",
                                             "settings": {"starting_pile": PILE}})
        assert created.status_code == 201, created.text
        cid = created.json()["campaign"]["id"]
        house = {"Authorization": "Bearer " + created.json()["house_token"]}
        headers = {}
        for seat in seats:
            added = c.post(f"/campaigns/{cid}/players", headers=house,
                           json={"seat": seat, "character": seat.title(), "characteristic": "Sly"})
            assert added.status_code == 201, added.text
            headers[seat] = player_headers(c, added.json())

    statuses: list[int] = []
    lock = threading.Lock()
    stop = time.monotonic() + SOAK

    def client(n: int) -> None:
        rng = random.Random(n)
        with httpx.Client(base_url=(first, second)[n % 2], timeout=30) as c:
            while time.monotonic() < stop:
                lender, borrower = rng.sample(seats, 2)
                offered = c.post(f"/campaigns/{cid}/loans", headers=headers[lender],
                                 json={"borrower": borrower, "amount": 1})
                got = [offered.status_code]
                if offered.status_code < 300:
                    loan = offered.json()["loan_id"]
                    got.append(c.post(f"/campaigns/{cid}/loans/{loan}/accept",
                                      headers=headers[borrower], json={}).status_code)
                    got.append(c.post(f"/campaigns/{cid}/loans/{loan}/repayments", headers=headers[borrower],
                                      json={"amount": 1}).status_code)
                got.append(c.get(f"/campaigns/{cid}/characters", headers=house).status_code)
                with lock:
                    statuses.extend(got)

    threads = [threading.Thread(target=client, args=(n,)) for n in range(CLIENTS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(SOAK + 120)

    assert not [s for s in statuses if s >= 500], sorted(set(statuses))
    assert len([s for s in statuses if s < 300]) > len(statuses) / 2, sorted(set(statuses))  # the load was real
    with httpx.Client(base_url=second, timeout=30) as c:
        sheets = c.get(f"/campaigns/{cid}/characters", headers=house).json()
    assert sum(s["pile"] for s in sheets) == PILE * len(seats)  # PA-1: lending moves pennies, never makes them

    stakes = Stakes(settings)  # a third process's view: what the servers projected equals a rebuild
    try:
        stakes.catch_up()
        projected = stakes.views.dump()
        stakes.rebuild()
        assert stakes.views.dump() == projected
    finally:
        stakes.close()
