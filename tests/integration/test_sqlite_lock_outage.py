"""An SQLite store held locked by another process (a long write, a backup) answers 503 after waiting at most
the store timeout, stores nothing, and heals without a restart (issue 10)."""

from __future__ import annotations

import sqlite3
import time

from fastapi.testclient import TestClient

from adapters.service import Stakes
from api.app import create_app
from tests.conftest import sqlite_settings
from tests.e2e.conftest import bearer, player_headers


def test_a_locked_sqlite_store_answers_503_within_the_store_timeout_and_heals(tmp_path):
    settings = sqlite_settings(tmp_path).model_copy(update={"store_timeout": 1})
    stakes = Stakes(settings)
    try:
        with TestClient(create_app(stakes=stakes)) as client:
            created = client.post("/campaigns", json={"name": "Locked", "system": "penny-ante"}).json()
            cid, house = created["campaign"]["id"], bearer(created["house_token"])
            added = client.post(f"/campaigns/{cid}/players", headers=house,
                                json={"seat": "ilse", "character": "Ilse", "characteristic": "Whip"}).json()
            ilse = player_headers(client, added)
            before = client.get(f"/campaigns/{cid}/characters/ilse", headers=ilse).json()

            holder = sqlite3.connect(settings.sqlite_path, isolation_level=None)
            holder.execute("BEGIN EXCLUSIVE")  # another process holds the write lock
            try:
                started = time.monotonic()
                r = client.post(f"/campaigns/{cid}/characters/ilse/characteristics", headers=ilse,
                                json={"name": "Lucky Necklace"})
                waited = time.monotonic() - started
            finally:
                holder.execute("ROLLBACK")
                holder.close()
            assert r.status_code == 503, r.text
            assert r.json()["type"].endswith("store-unavailable")
            assert waited < 10, f"waited {waited:.1f} s, not about the store timeout"  # the library alone retried ten times

            assert client.get(f"/campaigns/{cid}/characters/ilse", headers=ilse).json() == before  # nothing stored
            r = client.post(f"/campaigns/{cid}/characters/ilse/characteristics", headers=ilse,
                            json={"name": "Lucky Necklace"})
            assert r.status_code == 201, r.text  # healed, no restart
            assert client.get("/health").json()["store"] == "up"
    finally:
        stakes.close()
