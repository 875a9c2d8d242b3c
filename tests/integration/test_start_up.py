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
        assert health["status"] == "ok" and "log" not in health  # no log position (issue 29, ADR 0028)
        deadline = time.monotonic() + 30
        while client.get("/health").json()["read_models"] != "ready":  # no request asked it to
            assert time.monotonic() < deadline, "the read models did not catch up"
            time.sleep(0.05)
        served = client.app.state.stakes  # type: ignore[attr-defined]
        assert served.projection.position() == served.app.recorder.max_notification_id() > 0


def test_the_event_store_is_where_the_settings_given_say_whatever_the_environment_says(settings, monkeypatch):
    """eventsourcing reads ``STAKES_<KEY>`` before ``<KEY>`` (the application is named Stakes), and
    ``STAKES_POSTGRES_SCHEMA`` is also this project's own setting: settings passed in must still decide where
    the events go, or the log and its read models would live apart."""
    monkeypatch.setenv("STAKES_POSTGRES_SCHEMA", "not_this_schema")
    monkeypatch.setenv("STAKES_SQLITE_DBNAME", str(settings.sqlite_path) + ".not-this-file")
    stakes = Stakes(settings)
    try:
        datastore = stakes.app.recorder.datastore
        if settings.store == "postgres":
            assert datastore.schema == settings.postgres_schema
        else:
            assert datastore.pool.db_name == str(settings.sqlite_path)
        cid = stakes.create_campaign("Here", "penny-ante").campaign.id
        assert stakes.audit(cid, Seat.house()).events > 0
    finally:
        stakes.close()
