"""ADR 0018: each event's state is stored deflated against the words every event repeats; the chain, the
exports and the leaves shown to seats keep the event's JSON, and a store written before the codec (plain
JSON states) is read, audited, exported and played on as it is."""

from __future__ import annotations

import json

from adapters import codec
from adapters.service import Stakes
from domain.seats import Seat
from tests.drivers import ServiceDriver
from tests.integration.test_audit import HOUSE, Rows, rows  # noqa: F401  (the fixture)
from tests.integration.test_projections import play_an_economy


def stored_states(store: Rows, table: str) -> list[bytes]:
    return [bytes(s) for (s,) in store.run(f"SELECT state FROM {table}")]


def test_every_state_is_stored_deflated_and_read_back_as_its_json(stakes, rows):  # noqa: F811
    cid, _ = play_an_economy(stakes)
    states = stored_states(rows, rows.table)
    assert states and all(s[:1] == codec.DEFLATED_V1 for s in states)
    plain = [codec.plain(s) for s in states]
    assert all(isinstance(json.loads(p), dict) for p in plain)
    assert sum(map(len, states)) < 0.7 * sum(map(len, plain))  # the point of it: disk per event (issue 15)
    exported = [json.loads(line) for line in stakes.export_campaign(cid, HOUSE)][1:]
    assert {e["state"].encode() for e in exported} <= set(plain)  # an export carries the JSON, never the codec


def test_a_store_written_before_the_codec_is_read_audited_and_played_on(settings, rows):  # noqa: F811
    """The old shape of the store: every state and snapshot its plain JSON, as an older release wrote them."""
    stakes = ServiceDriver(Stakes(settings.model_copy(update={"snapshot_interval": 2})))
    try:
        cid, loan = play_an_economy(stakes)
        before = list(stakes.export_campaign(cid, HOUSE))
        sheet = stakes.sheet(cid, HOUSE, "ilse").model_dump()
    finally:
        stakes.close()
    for table in (rows.table, rows.snapshots):
        for state in stored_states(rows, table):
            rows.run(f"UPDATE {table} SET state = ? WHERE state = ?", codec.plain(state), state)
    assert all(s[:1] == b"{" for s in stored_states(rows, rows.table) + stored_states(rows, rows.snapshots))

    stakes = ServiceDriver(Stakes(settings.model_copy(update={"snapshot_interval": 2})))
    try:
        report = stakes.audit(cid, HOUSE)
        assert report.intact  # the digests were always of the JSON; the seals too
        assert list(stakes.export_campaign(cid, HOUSE)) == before
        stakes.rebuild()
        assert stakes.sheet(cid, HOUSE, "ilse").model_dump() == sheet
        stakes.repay_loan(cid, Seat("ilse"), loan, 6)  # the old aggregates load, act and are stored
        assert stakes.audit(cid, HOUSE).intact
        (newest,), = rows.run(f"SELECT state FROM {rows.table} ORDER BY {rows.id_col} DESC LIMIT 1")
        assert bytes(newest)[:1] == codec.DEFLATED_V1  # what is stored from now on is deflated
    finally:
        stakes.close()
