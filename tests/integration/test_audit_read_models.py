"""Issue 29: the audit covers the read models. Whoever edits a projected row or a log entry in the read-model
database (the sheet's pile, a rewritten log entry, a deleted or a planted row) is reported by the audit, on
SQLite and PostgreSQL; the House is told the row, another seat only the table (C-5); the scratch store the
check rebuilds into is removed afterwards, also when the check fails."""

from __future__ import annotations

import json
import sqlite3
import tempfile
import time
from pathlib import Path

import psycopg
import pytest

from adapters import readcheck
from adapters.projection import StoreUnavailable
from adapters.settings import Settings
from domain.seats import Seat
from tests.integration.test_event_store import seat_two
from tests.integration.test_projections import play_an_economy

HOUSE, ILSE, TOMAS = Seat.house(), Seat("ilse"), Seat("tomas")


class ReadModels:
    """Direct access to the read-model database, as its administrator would edit it by hand."""

    def __init__(self, settings: Settings) -> None:
        if settings.store == "sqlite":
            self.conn = sqlite3.connect(settings.views_path, isolation_level=None)
            self.prefix, self.mark = "", "?"
        else:
            self.conn = psycopg.connect(host=settings.postgres_host, port=settings.postgres_port,
                                        user=settings.postgres_user, dbname=settings.postgres_dbname, autocommit=True)
            self.prefix, self.mark = f'"{settings.postgres_schema}".', "%s"

    def run(self, statement: str, *params) -> list:
        cursor = self.conn.execute(statement.replace("{p}", self.prefix).replace("?", self.mark), params)
        return cursor.fetchall() if cursor.description else []

    def close(self) -> None:
        self.conn.close()


@pytest.fixture
def views(settings):
    r = ReadModels(settings)
    yield r
    r.close()


def differences(report) -> list[tuple[str, str]]:
    return [(d.table, d.kind) for d in report.read_model_differences]


def last_entry(views: ReadModels, cid) -> int:
    return views.run("SELECT MAX(notification_id) FROM {p}event_log WHERE campaign_id = ?", cid.hex)[0][0]


def test_untouched_read_models_are_reported_intact(stakes):
    cid, _ = play_an_economy(stakes)
    for seat in (HOUSE, ILSE):
        report = stakes.audit(cid, seat)
        assert report.intact and report.read_models == "intact" and report.read_model_differences == []


def test_a_sheet_row_edited_in_the_read_models_is_reported_to_the_house_with_its_row(stakes, views):
    cid, _ = play_an_economy(stakes)
    views.run("UPDATE {p}characters SET pile = 999 WHERE campaign_id = ? AND seat = 'ilse'", cid.hex)
    assert stakes.sheet(cid, ILSE, "ilse").pile == 999  # the forgery shows …
    report = stakes.audit(cid, HOUSE)  # … and the audit says so
    assert not report.intact and report.read_models == "altered"
    assert report.first_broken.kind == "read-model-altered" and "characters" in report.first_broken.detail
    (d,) = report.read_model_differences
    assert (d.table, d.kind, d.columns, d.found["pile"]) == ("characters", "altered", ["pile"], 999)
    assert d.expected["pile"] != 999 and d.key == {"character_id": d.key["character_id"]}


def test_a_rewritten_log_entry_is_reported(stakes, views):
    cid, _ = play_an_economy(stakes)
    entry = last_entry(views, cid)
    views.run("UPDATE {p}event_log SET detail = ? WHERE notification_id = ?", json.dumps({"forged": True}), entry)
    report = stakes.audit(cid, HOUSE)
    assert not report.intact and differences(report) == [("event_log", "altered")]
    d = report.read_model_differences[0]
    assert d.key == {"notification_id": entry} and d.columns == ["detail"]


def test_a_deleted_projected_row_is_reported_missing(stakes, views):
    cid, loan = play_an_economy(stakes)  # a loan's history rows name the loan, not the campaign
    views.run("DELETE FROM {p}loan_history WHERE loan_id = ? AND version = 2", loan.hex)
    report = stakes.audit(cid, HOUSE)
    assert not report.intact and differences(report) == [("loan_history", "missing")]


def test_a_row_planted_in_the_campaign_is_reported_foreign(stakes, views):
    cid, _ = play_an_economy(stakes)
    entry = last_entry(views, cid)
    views.run("INSERT INTO {p}event_log SELECT notification_id + 100000, campaign_id, at, actor, stream, event,"
              " detail, visibility, challenge_id, seq + 100000 FROM {p}event_log WHERE notification_id = ?", entry)
    report = stakes.audit(cid, HOUSE)
    assert not report.intact and differences(report) == [("event_log", "foreign")]
    assert report.read_model_differences[0].key == {"notification_id": entry + 100000}


def test_a_row_moved_to_another_campaign_is_reported_by_both(stakes, views):
    cid, _ = play_an_economy(stakes)
    other, *_ = seat_two(stakes)
    views.run("UPDATE {p}characteristics SET character_id = (SELECT character_id FROM {p}characters WHERE"
              " campaign_id = ? AND seat = 'ilse') WHERE name = 'Lucky Necklace'", other.hex)
    assert differences(stakes.audit(cid, HOUSE)) == [("characteristics", "missing")]
    assert differences(stakes.audit(other, HOUSE)) == [("characteristics", "foreign")]


def test_an_edit_in_one_campaign_leaves_the_others_intact(stakes, views):
    cid, _ = play_an_economy(stakes)
    other, *_ = seat_two(stakes)
    views.run("UPDATE {p}characters SET pile = 999 WHERE campaign_id = ?", other.hex)
    assert stakes.audit(cid, HOUSE).intact
    assert not stakes.audit(other, HOUSE).intact


def test_a_players_audit_names_the_table_but_no_row_nor_value_of_it(stakes, views):
    cid, _ = play_an_economy(stakes)
    (tomas_id,) = views.run("SELECT character_id FROM {p}characters WHERE campaign_id = ? AND seat = 'tomas'",
                            cid.hex)[0]
    views.run("UPDATE {p}characters SET pile = 987654, name = 'PLANTED-SECRET' WHERE character_id = ?", tomas_id)
    report = stakes.audit(cid, ILSE)
    assert not report.intact and report.first_broken.kind == "read-model-altered"
    (d,) = report.read_model_differences
    assert (d.table, d.kind, d.rows, d.key, d.columns, d.found, d.expected) == (
        "characters", "altered", 1, None, [], None, None)
    told = report.model_dump_json()
    for secret in ("987654", "PLANTED-SECRET", "Brother Tomas", str(tomas_id), "pile"):
        assert secret not in told
    assert "987654" in stakes.audit(cid, HOUSE).model_dump_json()  # the House may see every row


def test_a_player_learns_that_a_log_entry_was_rewritten_but_not_what_it_now_holds(stakes, views):
    cid, _ = play_an_economy(stakes)
    entry = last_entry(views, cid)
    views.run("UPDATE {p}event_log SET detail = ? WHERE notification_id = ?",
              json.dumps({"hidden_dice": "SECRET-DICE-6-6-6"}), entry)
    report = stakes.audit(cid, TOMAS)
    assert differences(report) == [("event_log", "altered")]
    assert "SECRET-DICE" not in report.model_dump_json() and str(entry) not in report.first_broken.detail


def test_the_scratch_store_is_removed_after_the_check(stakes, settings, monkeypatch, tmp_path):
    cid, _ = play_an_economy(stakes)
    made = scratch_places(settings, monkeypatch, tmp_path)
    assert stakes.audit(cid, HOUSE).intact
    assert made and not any(still_there(settings, place) for place in made)


def test_the_scratch_store_is_removed_when_the_check_fails(stakes, settings, monkeypatch, tmp_path):
    cid, _ = play_an_economy(stakes)
    made = scratch_places(settings, monkeypatch, tmp_path)

    def broken(*args):
        raise RuntimeError("the scratch projection failed")

    monkeypatch.setattr(readcheck, "_Replayed", broken)  # inside the scratch store's lifetime
    with pytest.raises(RuntimeError, match="scratch projection failed"):
        stakes.audit(cid, HOUSE)
    assert made and not any(still_there(settings, place) for place in made)


def scratch_places(settings: Settings, monkeypatch, tmp_path) -> list[str]:
    """Records every scratch store the check makes: a folder on SQLite; on PostgreSQL, the oids of its tables,
    which are temporary tables of the scratch store's own connection (ADR 0039), so a process killed mid-check
    leaves nothing behind either."""
    made: list[str] = []
    if settings.store == "sqlite":
        real = tempfile.mkdtemp

        def mkdtemp(*a, **k):
            made.append(real(*a, dir=tmp_path, **{x: y for x, y in k.items() if x != "dir"}))
            return made[-1]

        monkeypatch.setattr(readcheck.tempfile, "mkdtemp", mkdtemp)
    else:
        assert readcheck.__dict__.get("open_scratch_views") is None  # imported late, inside the check
        import adapters.store

        real_views = adapters.store.open_scratch_views

        def open_scratch_views(scratch):
            views = real_views(scratch)
            with views.datastore.transaction(commit=False) as c:
                c.execute("SELECT c.oid, n.nspname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
                          " WHERE c.relname = 'event_log' AND n.oid = pg_my_temp_schema()")
                rows = c.fetchall()
            assert len(rows) == 1 and rows[0]["nspname"].startswith("pg_temp_")
            made.append(str(rows[0]["oid"]))
            return views

        monkeypatch.setattr(adapters.store, "open_scratch_views", open_scratch_views)
    return made


def still_there(settings: Settings, place: str) -> bool:
    if settings.store == "sqlite":
        return Path(place).exists()
    # the server drops a session's temporary tables as the session ends, just after its connection closes
    deadline = time.monotonic() + 10
    with psycopg.connect(host=settings.postgres_host, port=settings.postgres_port, user=settings.postgres_user,
                         dbname=settings.postgres_dbname, autocommit=True) as conn:
        while True:
            found = conn.execute("SELECT 1 FROM pg_class WHERE oid = %s", (int(place),)).fetchone() is not None
            if not found or time.monotonic() > deadline:
                return found
            time.sleep(0.05)


def test_an_audit_beyond_the_process_bound_answers_unavailable_until_a_turn_is_free(stakes, monkeypatch):
    cid, _ = play_an_economy(stakes)
    monkeypatch.setattr(readcheck, "WAIT", 0.01)
    held = [readcheck._turns.acquire(blocking=False) for _ in range(readcheck.AT_ONCE)]
    try:
        assert all(held)
        with pytest.raises(StoreUnavailable, match="audits of the read models are running"):
            stakes.audit(cid, ILSE)
    finally:
        for _ in held:
            readcheck._turns.release()
    assert stakes.audit(cid, ILSE).intact  # its turn came back
