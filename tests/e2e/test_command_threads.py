"""A server process runs at most ``Settings.writers`` commands at once (ADR 0017, issue 15; with group commit,
ADR 0042, that many wait for one group); reads are not held back by them, and every command queued behind the
others is still answered (on both stores)."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from fastapi.testclient import TestClient

from adapters.settings import Settings
from api.app import create_app
from tests.e2e.conftest import bearer, player_headers


def test_sqlite_lets_eight_commands_gather_for_a_group_by_default_and_postgresql_its_whole_pool() -> None:
    assert Settings(store="sqlite").writers == 8  # one thread decides and stores a group (ADR 0042)
    assert Settings(store="sqlite", group_commit=False).writers == 2  # each command alone (ADR 0017)
    assert Settings(store="postgres").writers is None
    assert Settings(store="postgres", command_threads=3).writers == 3


def test_command_threads_must_be_at_least_one() -> None:
    with pytest.raises(ValueError, match="command_threads"):
        Settings(command_threads=0)


def test_a_server_runs_no_more_commands_at_once_than_its_command_threads(stakes, monkeypatch) -> None:
    stakes.settings = stakes.settings.model_copy(update={"command_threads": 2})
    running, most, lock = 0, 0, threading.Lock()
    run = stakes.run

    def counted(*args, **kwargs):
        nonlocal running, most
        with lock:
            running += 1
            most = max(most, running)
        try:
            time.sleep(0.1)  # long enough for the other requests to arrive meanwhile
            return run(*args, **kwargs)
        finally:
            with lock:
                running -= 1

    monkeypatch.setattr(stakes, "run", counted)
    with TestClient(create_app(stakes=stakes)) as client:
        created = client.post("/campaigns", json={"name": "Queue", "system": "penny-ante",
                                                  "settings": {"starting_pile": 1000}}).json()
        cid, house = created["campaign"]["id"], bearer(created["house_token"])
        seats = {}
        for k in range(6):
            added = client.post(f"/campaigns/{cid}/players", headers=house,
                                json={"seat": f"p{k}", "character": f"Player {k}", "characteristic": "Grit"})
            seats[f"p{k}"] = player_headers(client, added.json())
        most = 0  # the players above were added one at a time

        def buy(seat: str) -> int:
            return client.post(f"/campaigns/{cid}/characters/{seat}/characteristics", headers=seats[seat],
                               json={"name": "Nerve"}).status_code

        with ThreadPoolExecutor(6) as pool:
            futures = [pool.submit(buy, seat) for seat in seats]
            deadline = time.monotonic() + 10
            while running < 2 and time.monotonic() < deadline:
                time.sleep(0.005)
            # a read while the commands queue is answered from the rest of the pool, not behind them
            assert client.get(f"/campaigns/{cid}", headers=house).status_code == 200
            assert not all(f.done() for f in futures)
            statuses = [f.result() for f in futures]
    assert statuses == [201] * 6
    assert most == 2
