"""A server starts answering before its read models have caught up with the log, and catches up on its own
(issue 15): a restored store or a new release's read models do not keep it silent for minutes."""

from __future__ import annotations

import time

from fastapi.testclient import TestClient

from adapters.service import Stakes
from api.app import create_app
from domain.seats import Seat


def test_a_server_catches_up_behind_while_it_already_answers(settings) -> None:
    stakes = Stakes(settings)
    cid = stakes.create_campaign("Restored", "penny-ante", {"starting_pile": 50}).campaign.id
    stakes.run(cid, Seat.house(), "add-player", {"seat": "ilse", "character": "Ilse", "characteristic": "Whip"})
    stakes.views.reset(stakes.app.name)  # the log is whole, the read models empty
    stakes.close()
    with TestClient(create_app(settings)) as client:
        health = client.get("/health").json()
        assert health["status"] == "ok" and health["log"] > 0
        deadline = time.monotonic() + 30
        while client.get("/health").json()["projected"] < health["log"]:  # no request asked it to
            assert time.monotonic() < deadline, "the read models did not catch up"
            time.sleep(0.05)
