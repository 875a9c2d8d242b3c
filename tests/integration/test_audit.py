"""C-2: the hash chain catches any stored event altered, deleted or reordered in the database, on both
stores; export and import carry a campaign between stores with equal projections."""

from __future__ import annotations

import json
import re
import sqlite3
import uuid
from collections.abc import Callable
from typing import Any

import psycopg
import pytest
from psycopg import sql

from adapters import checkpoint, codec
from adapters.codec import CODEC
from adapters.service import Stakes
from adapters.settings import Settings
from domain.seats import Seat
from tests.conftest import postgres_settings, sqlite_settings
from tests.drivers import ServiceDriver
from tests.integration.test_event_store import seat_two
from tests.integration.test_projections import play_a_challenge, play_an_economy

HOUSE, ILSE, TOMAS = Seat.house(), Seat("ilse"), Seat("tomas")


class Rows:
    """Direct access to the stored events, as someone editing the database by hand."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        if settings.store == "sqlite":
            self.conn = sqlite3.connect(settings.sqlite_path, isolation_level=None)
            self.table, self.id_col, self.mark = "stored_events", "rowid", "?"
            self.chain, self.snapshots = "stored_events_chain", "stored_snapshots"
            self.head = "stored_events_chain_head"
        else:
            self.conn = psycopg.connect(host=settings.postgres_host, port=settings.postgres_port,
                                        user=settings.postgres_user, dbname=settings.postgres_dbname, autocommit=True)
            self.table = f'"{settings.postgres_schema}".stakes_events'
            self.id_col, self.mark = "notification_id", "%s"
            self.chain = f'"{settings.postgres_schema}".stakes_events_chain'
            self.head = f'"{settings.postgres_schema}".stakes_events_chain_head'
            self.snapshots = f'"{settings.postgres_schema}".stakes_snapshots'

    def run(self, statement: str, *params) -> list:
        cursor = self.conn.execute(statement.replace("?", self.mark), params)
        return cursor.fetchall() if cursor.description else []

    def ids(self) -> list[int]:
        return [r[0] for r in self.run(f"SELECT {self.id_col} FROM {self.table} ORDER BY {self.id_col}")]

    def alter(self, nid: int, stored: Callable[[bytes], bytes] = CODEC.compress) -> None:
        """Edit the event's JSON and store it again, deflated as the store keeps it (an editor who knows the
        codec, ADR 0018) unless ``stored`` says otherwise."""
        (state,) = self.run(f"SELECT state FROM {self.table} WHERE {self.id_col} = ?", nid)[0]
        text = codec.plain(state)
        altered = text.replace(b'"cost":5', b'"cost":6')  # still valid JSON, still a valid event
        assert altered != text
        self.run(f"UPDATE {self.table} SET state = ? WHERE {self.id_col} = ?", stored(altered), nid)

    def delete(self, nid: int) -> None:
        self.run(f"DELETE FROM {self.table} WHERE {self.id_col} = ?", nid)

    def swap(self, a: int, b: int) -> None:
        for old, new in ((a, -1), (b, a), (-1, b)):
            self.run(f"UPDATE {self.table} SET {self.id_col} = ? WHERE {self.id_col} = ?", new, old)

    def close(self) -> None:
        self.conn.close()


@pytest.fixture
def rows(settings: Settings):
    r = Rows(settings)
    yield r
    r.close()


def chain_rows(stakes: Stakes, cid) -> list[dict]:
    """The campaign's links of the chain, as the event store keeps them (C-2)."""
    return stakes.app.recorder.read_chain(cid.hex)["linked"]


def bought_event(stakes: Stakes, cid) -> int:
    """The notification id of Ilse's CharacteristicBought (its state holds the cost, 5). The log shows each entry's
    number within the campaign (issue 29); the store's own id is the read model's key."""
    found = stakes.views.query_one("SELECT notification_id FROM {p}event_log WHERE campaign_id = ? AND event = ?",
                                   (cid.hex, "CharacteristicBought"))
    return int(found["notification_id"])


def test_an_untouched_log_verifies_and_its_head_is_reported(stakes):
    cid, *_ = seat_two(stakes)
    report = stakes.audit(cid, ILSE)
    assert report.intact and report.events == stakes.app.recorder.max_notification_id() and len(report.head) == 64


def _garbled(text: bytes) -> bytes:
    """Deflated bytes that no longer inflate whole (a flipped byte in the middle of the stream)."""
    packed = bytearray(CODEC.compress(text))
    packed[len(packed) // 2] ^= 0xFF
    return bytes(packed)


@pytest.mark.parametrize("tamper", ["alter", "alter-as-json", "garble", "delete", "swap"])
def test_the_audit_names_the_first_broken_link_when_the_database_is_edited(stakes, rows, tamper):
    cid, _ = play_an_economy(stakes)
    target = bought_event(stakes, cid)
    position = next(e for e in chain_rows(stakes, cid) if e["notification_id"] == target)["position"]
    if tamper == "alter":
        rows.alter(target)
    elif tamper == "alter-as-json":  # ADR 0018: the edited JSON stored as it is, not deflated
        rows.alter(target, stored=bytes)
    elif tamper == "garble":
        rows.alter(target, stored=_garbled)
    elif tamper == "delete":
        rows.delete(target)
    else:
        rows.swap(target, target + 1)
    report = stakes.audit(cid, HOUSE)
    assert not report.intact
    expected = {"alter": "altered", "alter-as-json": "altered", "garble": "altered", "delete": "deleted",
                "swap": "reordered"}[tamper]
    assert report.first_broken.kind == expected and report.first_broken.position == position


def test_a_state_garbled_in_the_database_is_shown_in_the_leaves_and_fails_the_seats_check(stakes, rows):
    """ADR 0018: bytes that no longer inflate (nor are text) still answer the leaves, never a 500; the seat's
    own check of the leaves then names the event (C-2)."""
    from adapters import heads

    cid, _ = play_an_economy(stakes)
    rows.alter(bought_event(stakes, cid), stored=_garbled)
    answer = stakes.leaves(cid, HOUSE)
    with pytest.raises(checkpoint.InvalidCheckpoint, match="does not hash to its digest"):
        heads.verify_leaves(answer, stakes.public_key().vkey, f"stakes/campaigns/{cid.hex}")


def test_a_rebuild_does_not_launder_a_tampered_log(stakes, rows):
    cid, _ = play_an_economy(stakes)
    rows.alter(bought_event(stakes, cid))
    stakes.rebuild()
    assert stakes.audit(cid, HOUSE).first_broken.kind == "altered"


def projections(stakes: Stakes, cid) -> dict:
    from tests.e2e.conftest import normalized

    return normalized({
        "sheets": [s.model_dump(mode="json") for s in stakes.sheets(cid, HOUSE)],
        "debts": stakes.debts(cid, HOUSE).model_dump(mode="json"),
        "budget": stakes.budget(cid, HOUSE).model_dump(mode="json"),
        "log": [(e.event, e.actor, e.detail) for e in stakes.log(cid, HOUSE, limit=1000).entries],
        "challenges": [stakes.challenge(cid, HOUSE, c.id).model_dump(mode="json") for c in stakes.challenges(cid, HOUSE)],
    })


def renamed(value: Any) -> Any:
    """``value`` with every id replaced by the order it first appears in: two campaigns that differ only
    in their ids compare equal."""
    text, seen = json.dumps(value, sort_keys=True), {}

    def label(match: re.Match) -> str:
        key = match.group(0).replace("-", "")
        return seen.setdefault(key, f"id{len(seen)}")

    return json.loads(re.sub(r"[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}", label, text))


def full_campaign(stakes: Stakes):
    cid, *_ = seat_two(stakes)
    play_a_challenge(stakes, cid)
    stakes.end_adventure(cid, HOUSE)
    stakes.buy_characteristic(cid, ILSE, "ilse", "Quick")
    return cid


def round_trip(source: Stakes, target: Stakes) -> None:
    cid = full_campaign(source)
    lines = list(source.export_campaign(cid, HOUSE))
    assert not any("stk_" in line for line in lines)  # tokens never leave the store
    assert all(line == json.dumps(json.loads(line)) for line in lines)  # plain json.dumps lines, whatever wrote them
    report = target.import_campaign(lines)
    new = report.campaign_id  # an import never keeps the exported ids (C-2)
    assert new != cid and report.imported_from == cid and report.head == source.audit(cid, HOUSE).head
    assert renamed(projections(target, new)) == renamed(projections(source, cid))
    assert target.audit(new, HOUSE).intact
    assert target.authenticate(report.house_token) == (new, HOUSE)
    assert set(report.invites) == {"ilse", "tomas"}
    assert target.claim(report.invites["ilse"]).seat == "ilse"


def test_export_then_import_gives_equal_projections_on_the_same_kind_of_store(settings, tmp_path, request):
    if settings.store == "sqlite":
        other = sqlite_settings(tmp_path / "other")
    else:
        other = postgres_settings(request.getfixturevalue("pg_server"), request.getfixturevalue("pg_schema") + "_b",
                                  tmp_path)
    source, target = ServiceDriver(Stakes(settings)), ServiceDriver(Stakes(other))
    try:
        round_trip(source, target)
    finally:
        source.close(), target.close()
        if other.store == "postgres":
            with psycopg.connect(host=other.postgres_host, port=other.postgres_port, user=other.postgres_user,
                                 dbname=other.postgres_dbname, autocommit=True) as conn:
                conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(other.postgres_schema)))


@pytest.mark.postgres
def test_a_campaign_moves_from_sqlite_to_postgresql_by_export_and_import(tmp_path, pg_server, pg_schema):
    source = ServiceDriver(Stakes(sqlite_settings(tmp_path)))
    target = ServiceDriver(Stakes(postgres_settings(pg_server, pg_schema, tmp_path)))
    try:
        round_trip(source, target)
    finally:
        source.close(), target.close()


def test_an_import_refuses_a_broken_chain_and_stores_nothing(stakes, tmp_path):
    cid, *_ = seat_two(stakes)
    lines = list(stakes.export_campaign(cid, HOUSE))
    target = Stakes(sqlite_settings(tmp_path / "t"))
    try:
        first = json.loads(lines[1])
        assert "30" in first["state"]  # the campaign's starting pile
        forged = [lines[0], json.dumps({**first, "state": first["state"].replace("30", "300")}), *lines[2:]]
        with pytest.raises(Exception, match="C-2: the export's chain breaks at event 1"):
            target.import_campaign(forged)
        with pytest.raises(Exception, match="C-2: the export is incomplete"):
            target.import_campaign(lines[:-1])
        assert (target.app.recorder.max_notification_id() or 0) == 0
    finally:
        target.close()


def test_replay_reads_only_that_challenges_events(stakes, monkeypatch):
    cid, *_ = seat_two(stakes)
    challenge = play_a_challenge(stakes, cid)
    for _ in range(20):  # plenty of other history in the campaign
        stakes.offer_loan(cid, TOMAS, "ilse", 1)
    read: list[int] = []
    real: Callable = stakes.app.recorder.select_events

    def counting(originator_id, *args, **kwargs):
        events = real(originator_id, *args, **kwargs)
        read.append(len(events))
        return events

    scanned: list[int] = []
    real_scan: Callable = stakes.app.recorder.select_notifications

    def counting_scan(*args, **kwargs):
        notes = real_scan(*args, **kwargs)
        scanned.append(len(notes))
        return notes

    monkeypatch.setattr(stakes.app.recorder, "select_events", counting)
    monkeypatch.setattr(stakes.app.recorder, "select_notifications", counting_scan)
    real_notes: Callable = stakes.app.recorder.log_page  # the projection's read of the log (ADR 0037)

    def counting_notes(*args, **kwargs):
        notes = real_notes(*args, **kwargs)
        scanned.append(len(notes))
        return notes

    monkeypatch.setattr(stakes.app.recorder, "log_page", counting_notes)
    replay = stakes.replay(cid, TOMAS, challenge)
    assert read == [replay.total] and replay.total == len(replay.steps) == 19  # 15 moves, the pass, 2 calls, the fresh seed (C-9)
    assert sum(scanned) == 0  # the projection was up to date: not one other event was read


def test_an_import_cannot_plant_events_in_another_campaign(stakes, tmp_path):
    """C-2: a forged file with a valid chain still only creates its own campaign's streams."""
    from adapters import audit

    victim, *_ = seat_two(stakes)
    own = uuid.uuid4()  # a campaign id this store does not hold
    lines = list(stakes.export_campaign(victim, HOUSE))
    header, events = json.loads(lines[0]), [json.loads(line) for line in lines[1:]]
    # Re-chain the victim's loan-free log under another campaign id, as a forger would.
    forged_events = [e for e in events if e["originator_version"] > 1][:1]
    previous, rechained = audit.GENESIS, []
    for i, e in enumerate(forged_events, 1):
        d = audit.digest(e["originator_id"], e["originator_version"], e["topic"], e["state"].encode(), e["salt"])
        previous = audit.link(previous, d)
        rechained.append(json.dumps({**e, "position": i, "digest": d, "chain": previous}))
    forged = [json.dumps({**header, "campaign_id": own.hex, "events": len(rechained), "head": previous}), *rechained]
    before = stakes.app.recorder.max_notification_id()
    with pytest.raises(Exception, match="C-2: event 1 continues a stream the export did not start"):
        stakes.import_campaign(forged)
    assert stakes.app.recorder.max_notification_id() == before
    assert stakes.audit(victim, HOUSE).intact


def test_the_audit_notices_events_missing_from_the_chain(stakes, rows):
    cid, _ = play_an_economy(stakes)
    last = chain_rows(stakes, cid)[-1]
    rows.run(f"DELETE FROM {rows.chain} WHERE notification_id = ?", last["notification_id"])
    report = stakes.audit(cid, HOUSE)
    assert not report.intact and report.first_broken.kind == "unchained"


def test_a_tampered_log_is_not_exported(stakes, rows):
    cid, _ = play_an_economy(stakes)
    rows.alter(bought_event(stakes, cid))
    with pytest.raises(Exception, match="C-2: the log was tampered with"):
        list(stakes.export_campaign(cid, HOUSE))


@pytest.mark.parametrize("salt", ["0" * 32, "00", "A" * 32])
def test_an_import_whose_events_do_not_apply_or_whose_salt_is_malformed_stores_nothing(stakes, salt):
    """C-2: a file with a consistent chain but an event that does not apply, or a salt Stakes would not have
    drawn (it is stored as 16 bytes), never reaches the store."""
    from adapters import audit

    campaign = uuid.uuid4()
    state = b'{"timestamp":{"_type_":"datetime_iso","_data_":"2026-01-01T00:00:00+00:00"}}'
    d = audit.digest(campaign, 1, "domain.campaign:Campaign.Created", state, salt)
    chain = audit.link(audit.GENESIS, d)
    lines = [json.dumps({"format": "stakes-export", "version": audit.FORMAT_VERSION, "campaign_id": campaign.hex,
                         "events": 1, "head": chain}),
             json.dumps({"position": 1, "originator_id": campaign.hex, "originator_version": 1,
                         "topic": "domain.campaign:Campaign.Created", "state": state.decode(), "salt": salt,
                         "digest": d, "chain": chain})]
    before = stakes.app.recorder.max_notification_id()
    with pytest.raises(Exception, match="C-2: event 1 of the export"):
        stakes.import_campaign(lines)
    assert stakes.app.recorder.max_notification_id() == before
    stakes.create_campaign("Still works", "penny-ante")


@pytest.mark.parametrize("header", [
    {"format": "stakes-export", "version": 2, "events": 0},
    {"format": "stakes-export", "version": 2, "campaign_id": 5, "events": 0, "head": "x"},
    {"format": "stakes-export", "version": 2, "campaign_id": "nope", "events": 0, "head": "x"},
])
def test_a_malformed_export_header_is_refused_naming_c2(stakes, header):
    with pytest.raises(Exception, match="C-2"):
        stakes.import_campaign([json.dumps(header)])


def test_a_campaign_is_not_exported_while_a_challenge_is_open(stakes):
    cid, *_ = seat_two(stakes)
    stakes.create_antagonist(cid, HOUSE, "Lady Sen")
    stakes.start_adventure(cid, HOUSE)
    stakes.fund_antagonist(cid, HOUSE, "Lady Sen", 10)
    stakes.announce_challenge(cid, HOUSE, {"antagonist": "Lady Sen"}, {"players": ["ilse"]}, 1)
    with pytest.raises(Exception, match=r"C-5: Challenge [0-9a-f]{8} is still open"):
        list(stakes.export_campaign(cid, HOUSE))
