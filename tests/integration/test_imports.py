"""Imports on both stores (C-2): bounded inserts, and no id of the file reserves anything outside the new
campaign, an idempotency key included."""

from __future__ import annotations

from adapters import imports
from adapters.service import Stakes
from domain.seats import Seat
from tests.conftest import sqlite_settings
from tests.drivers import ServiceDriver
from tests.integration.test_event_store import seat_two

HOUSE = Seat("house")


def test_a_large_import_is_inserted_in_bounded_chunks(stakes, tmp_path, monkeypatch):
    source = ServiceDriver(Stakes(sqlite_settings(tmp_path / "source")))
    try:
        cid, *_ = seat_two(source)
        for _ in range(6):
            source.offer_loan(cid, Seat("tomas"), "ilse", 1)
        lines = list(source.export_campaign(cid, HOUSE))
    finally:
        source.close()
    sizes: list[int] = []
    real = stakes.app.recorder.insert_events

    def counting(events, **kwargs):
        sizes.append(len(events))
        return real(events, **kwargs)

    monkeypatch.setattr(imports, "CHUNK", 4)
    monkeypatch.setattr(stakes.app.recorder, "insert_events", counting)
    report = stakes.import_campaign(lines)
    assert sum(sizes) == report.events == len(lines) - 1 and max(sizes) <= 4 and len(sizes) > 2
    assert stakes.audit(report.campaign_id, HOUSE).intact
    assert len(stakes.debts(report.campaign_id, HOUSE).loans) == 6


def test_an_imported_campaigns_creation_key_reserves_nothing_in_the_new_store(stakes, tmp_path):
    source = Stakes(sqlite_settings(tmp_path / "source"))
    try:
        created = source.create_campaign("Keyed", "penny-ante", key="create-1")
        lines = list(source.export_campaign(created.campaign.id, HOUSE))
    finally:
        source.close()
    imported = stakes.import_campaign(lines)
    mine = stakes.create_campaign("Mine", "penny-ante", key="create-1")  # the same key, another client
    assert mine.campaign.id not in (imported.campaign_id, created.campaign.id) and mine.campaign.name == "Mine"
