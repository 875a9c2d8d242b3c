"""C-2, issue 9: every way of editing the store by hand is caught, on SQLite and PostgreSQL. The chain is
written with each event, so a row stored any other way has no link; a rewrite that recomputes the chain
cannot extend a signed head a player holds; an edited snapshot is reported and never obeyed."""

from __future__ import annotations

import threading
import time
import zlib

import pytest

from adapters import audit, checkpoint, codec, heads, merkle
from adapters.service import Stakes
from domain.errors import RuleViolation
from domain.seats import Seat
from tests.drivers import ServiceDriver
from tests.integration.test_audit import Rows, bought_event, chain_rows
from tests.integration.test_event_store import seat_two
from tests.integration.test_projections import play_an_economy

HOUSE, ILSE, TOMAS = Seat.house(), Seat("ilse"), Seat("tomas")


@pytest.fixture
def rows(settings):
    r = Rows(settings)
    yield r
    r.close()


def held_head(stakes, cid, seat=ILSE) -> checkpoint.Head:
    """The signed head a player keeps, checked against the server's public key."""
    cp = stakes.checkpoint(cid, seat)
    return checkpoint.verify(cp.note, stakes.public_key().vkey, cp.origin)


def still_extends(stakes, cid, held: checkpoint.Head) -> checkpoint.Head:
    answer = stakes.consistency(cid, ILSE, held.size)
    return heads.verify_extends(held, answer, stakes.public_key().vkey, held.origin)


def test_an_untouched_log_extends_every_head_a_player_held(stakes):
    cid, *_ = seat_two(stakes)
    first = held_head(stakes, cid)
    for amount in range(1, 8):
        stakes.offer_loan(cid, TOMAS, "ilse", amount)
    newer = still_extends(stakes, cid, first)
    assert newer.size > first.size and still_extends(stakes, cid, newer).size == newer.size


def test_an_event_written_straight_into_the_store_is_reported_unchained(stakes, rows):
    cid, _ = play_an_economy(stakes)
    last = rows.run(f"SELECT MAX({rows.id_col}) FROM {rows.table}")[0][0]
    rows.run(f"INSERT INTO {rows.table} (originator_id, originator_version, topic, state)"
             f" SELECT originator_id, originator_version + 1, topic, state FROM {rows.table} WHERE {rows.id_col} = ?",
             last)
    report = stakes.audit(cid, HOUSE)
    assert not report.intact and report.first_broken.kind == "unchained"


def test_an_event_deleted_with_its_link_is_reported(stakes, rows):
    cid, _ = play_an_economy(stakes)
    target = bought_event(stakes, cid)
    position = next(r for r in chain_rows(stakes, cid) if r["notification_id"] == target)["position"]
    rows.delete(target)
    rows.run(f"DELETE FROM {rows.chain} WHERE notification_id = ?", target)
    report = stakes.audit(cid, HOUSE)
    assert not report.intact and report.first_broken.kind == "deleted" and report.first_broken.position == position


def test_events_reordered_with_their_links_are_reported(stakes, rows):
    cid, _ = play_an_economy(stakes)
    a = bought_event(stakes, cid)
    rows.swap(a, a + 1)
    for old, new in ((a, -1), (a + 1, a), (-1, a + 1)):
        rows.run(f"UPDATE {rows.chain} SET notification_id = ? WHERE notification_id = ?", new, old)
    report = stakes.audit(cid, HOUSE)
    assert not report.intact and report.first_broken.kind == "reordered"


def test_an_altered_event_is_reported_even_when_its_link_is_updated(stakes, rows):
    cid, _ = play_an_economy(stakes)
    target = bought_event(stakes, cid)
    rows.alter(target)
    rows.run(f"UPDATE {rows.chain} SET digest = ? WHERE notification_id = ?", bytes(32), target)
    report = stakes.audit(cid, HOUSE)
    assert not report.intact and report.first_broken.kind in ("altered", "chain-altered")


def test_a_truncated_log_cannot_extend_a_head_a_player_holds(stakes, rows):
    cid, _ = play_an_economy(stakes)
    held = held_head(stakes, cid)
    for row in chain_rows(stakes, cid)[-3:]:  # the tail, events and links both, and the head set back
        rows.delete(row["notification_id"])
        rows.run(f"DELETE FROM {rows.chain} WHERE notification_id = ?", row["notification_id"])
    rechain(rows, [(r["notification_id"], r["salt"]) for r in chain_rows(stakes, cid)])
    betrayed = stakes.audit(cid, HOUSE)  # the chain verifies, but the read models still hold the cut tail …
    assert not betrayed.intact and betrayed.first_broken.kind == "read-model-altered"  # (issue 29)
    stakes.rebuild()  # … until they are projected anew from the cut log: then the store agrees with itself
    assert stakes.audit(cid, HOUSE).intact
    assert stakes.checkpoint(cid, ILSE).size == held.size - 3
    with pytest.raises(RuleViolation, match="C-2: the log of this campaign holds"):
        still_extends(stakes, cid, held)


def rechain(rows: Rows, links: list[tuple[int, str]]) -> None:
    """What someone with the database would do to hide an edit: recompute every digest and link of one
    campaign, given its links' (notification id, salt) in order, and its tree head."""
    previous, frontier, campaign = audit.GENESIS, [], None
    for position, (nid, salt) in enumerate(links):
        salt = audit.hexed(salt)
        (oid, version, topic, state), = rows.run(
            f"SELECT originator_id, originator_version, topic, state FROM {rows.table} WHERE {rows.id_col} = ?", nid)
        d = audit.digest(str(oid), version, topic, codec.plain(state), salt)  # of the JSON (ADR 0018)
        previous = audit.link(previous, d)
        frontier = merkle.extend(frontier, position, audit.leaves([d])[0])
        rows.run(f"UPDATE {rows.chain} SET digest = ?, chain = ? WHERE notification_id = ?",
                 bytes.fromhex(d), bytes.fromhex(previous), nid)
        (campaign,), = rows.run(f"SELECT campaign_id FROM {rows.chain} WHERE notification_id = ?", nid)
        campaign = getattr(campaign, "hex", campaign)  # PostgreSQL keeps it as a uuid (ADR 0018), the head as hex
    rows.run(f"UPDATE {rows.head} SET position = ?, chain = ?, frontier = ?, root = ? WHERE campaign_id = ?",
             len(links), previous, audit.pack(frontier), merkle.frontier_root(frontier).hex(), campaign)


def test_a_consistent_rewrite_of_events_and_chain_cannot_extend_a_head_a_player_holds(stakes, rows):
    cid, _ = play_an_economy(stakes)
    held = held_head(stakes, cid)
    rows.alter(bought_event(stakes, cid))
    rechain(rows, [(r["notification_id"], r["salt"]) for r in chain_rows(stakes, cid)])
    betrayed = stakes.audit(cid, HOUSE)  # the read models still show the purchase as it was (issue 29) …
    assert not betrayed.intact and betrayed.first_broken.kind == "read-model-altered"
    stakes.rebuild()
    assert stakes.audit(cid, HOUSE).intact  # … rebuilt, the store agrees with itself …
    assert stakes.checkpoint(cid, ILSE).size == held.size  # … and signs a head of the same size …
    with pytest.raises(checkpoint.InvalidCheckpoint, match="truncated, forked or rewritten"):
        still_extends(stakes, cid, held)  # … but not with the head Ilse holds


@pytest.mark.parametrize("twice", [False, True], ids=["edited", "deflated-twice"])
def test_an_edited_snapshot_is_reported_and_never_obeyed(settings, rows, twice):
    stakes = ServiceDriver(Stakes(settings.model_copy(update={"snapshot_interval": 2})))
    try:
        cid, *_ = seat_two(stakes)
        stakes.buy_characteristic(cid, TOMAS, "tomas", "Quick")  # Tomas's snapshot at v2 holds pile 25
        stakes.buy_characteristic(cid, TOMAS, "tomas", "Strong")
        (state,) = [s for (s,) in rows.run(f"SELECT state FROM {rows.snapshots}")
                    if b'"seat":"tomas"' in codec.plain(s)]
        assert b'"pile":25' in codec.plain(state)
        edited = codec.CODEC.compress(codec.plain(state).replace(b'"pile":25', b'"pile":500'))
        if twice:  # the stored bytes deflated once more: a reader inflating twice would find them unchanged
            packer = zlib.compressobj(6, zlib.DEFLATED, -15, 8, zlib.Z_DEFAULT_STRATEGY, codec.DICTIONARY_V1)
            edited = codec.DEFLATED_V1 + packer.compress(bytes(state)) + packer.flush()
        rows.run(f"UPDATE {rows.snapshots} SET state = ? WHERE state = ?", edited, state)
        report = stakes.audit(cid, HOUSE)
        assert not report.intact and report.first_broken.kind == "snapshot-altered"
        with pytest.raises(RuleViolation, match=r"PA-14: a loan is at most the lender's pile \(20\)"):
            stakes.offer_loan(cid, TOMAS, "ilse", 400)
    finally:
        stakes.close()


def test_the_audit_raises_no_false_alarm_while_commands_arrive(stakes):
    cid, *_ = seat_two(stakes)
    stop, reports, errors = threading.Event(), [], []

    def play() -> None:
        try:
            while not stop.is_set():
                stakes.offer_loan(cid, TOMAS, "ilse", 1)
        except Exception as exc:
            errors.append(exc)

    player = threading.Thread(target=play)
    player.start()
    give_up = time.monotonic() + 120  # a guard against a hang, not a timing assertion
    try:
        # Audit until several commands have landed between audits, however the threads are scheduled.
        while len(reports) < 15 or reports[-1].events < reports[0].events + 3:
            assert time.monotonic() < give_up, "no command landed while the audit ran"
            reports.append(stakes.audit(cid, ILSE))
    finally:
        stop.set()
        player.join()
    assert not errors and all(r.intact for r in reports)


def test_the_audit_reads_the_log_in_one_snapshot_not_event_by_event(stakes, monkeypatch):
    cid, _ = play_an_economy(stakes)
    stakes.catch_up()
    calls: list[str] = []
    for name in ("select_events", "select_notifications", "log_page"):
        real = getattr(stakes.service.app.recorder, name)
        monkeypatch.setattr(stakes.service.app.recorder, name,
                            lambda *a, _real=real, _name=name, **k: calls.append(_name) or _real(*a, **k))
    assert stakes.audit(cid, HOUSE).intact
    assert calls == ["log_page"]  # the projection's one look for new events (ADR 0037); the audit reads none


def test_the_chain_walk_runs_in_a_child_process_beside_the_projection(stakes, monkeypatch, tmp_path):
    """ADR 0043: the walk and the snapshots' replay run in a forked child while this process projects the
    campaign into its scratch store; the child's verdict is the audit's, on either store."""
    import os

    cid, _ = play_an_economy(stakes)
    walked = tmp_path / "walked"
    real = audit.verify

    def spied(*args, **kwargs):
        walked.write_text(str(os.getpid()))
        return real(*args, **kwargs)

    monkeypatch.setattr(audit, "verify", spied)
    assert stakes.audit(cid, HOUSE).intact
    assert walked.read_text() != str(os.getpid())


def test_an_event_without_a_link_is_named_by_a_walk_in_this_process(stakes, rows, monkeypatch):
    """The walk asks the read models which streams are the campaign's when an event has no link: that walk
    runs here, never in a child holding copies of this process's connections (ADR 0043)."""
    from adapters import forked

    cid, _ = play_an_economy(stakes)
    target = bought_event(stakes, cid)
    rows.run(f"DELETE FROM {rows.chain} WHERE notification_id = ?", target)
    monkeypatch.setattr(forked, "beside", lambda work: pytest.fail("the walk was sent to a child"))
    report = stakes.audit(cid, HOUSE)
    assert not report.intact and report.first_broken.kind in {"unchained", "deleted"}


def test_a_changed_tree_head_in_the_store_is_reported(stakes, rows):
    cid, _ = play_an_economy(stakes)
    rows.run(f"UPDATE {rows.head} SET root = ? WHERE campaign_id = ?", "0" * 64, cid.hex)
    report = stakes.audit(cid, HOUSE)
    assert not report.intact and report.first_broken.kind == "chain-altered"


def test_a_store_from_before_the_chain_is_linked_once_when_opened(settings):
    """Stores written by an older release have events and no links: they are linked once, in log order,
    and a link missing later is still reported (C-2)."""
    stakes = Stakes(settings)
    cid = stakes.create_campaign("Old", "penny-ante", {"starting_pile": 30}).campaign.id
    stakes.run(cid, HOUSE, "add-player", {"seat": "ilse", "character": "Ilse", "characteristic": "Whip"})
    recorder = stakes.app.recorder
    with recorder.datastore.transaction(commit=True) as c:  # as the older release left it: no links at all
        c.execute(recorder.q("DELETE FROM {chain}"))
    stakes.close()
    reopened = Stakes(settings)
    try:
        assert reopened.audit(cid, HOUSE).intact
        assert reopened.app.recorder.link_legacy() == 0  # once only
        with reopened.app.recorder.datastore.transaction(commit=True) as c:
            c.execute(reopened.app.recorder.q("DELETE FROM {chain} WHERE position = 2"))
    finally:
        reopened.close()
    again = Stakes(settings)
    try:
        report = again.audit(cid, HOUSE)
        assert not report.intact
    finally:
        again.close()


def test_a_store_whose_links_each_kept_the_tree_head_is_made_lean_once(settings, rows):
    """An older release kept the campaign's Merkle compact range and root on every link (issue 15: two thirds
    of the chain's bytes), indexed links by stream and wrote hashes (and, on PostgreSQL, the campaign) as hex
    text. Opened by this release, the last link's head becomes the campaign's head row, the columns and index
    go and the campaign becomes a uuid; old hashes stay text, new ones follow them; the log still extends the
    heads players hold, and the audit finds it intact."""
    stakes = ServiceDriver(Stakes(settings))
    cid, _ = play_an_economy(stakes)
    held = held_head(stakes, cid)
    links = chain_rows(stakes, cid)
    stakes.close()
    rows.run(f"ALTER TABLE {rows.chain} ADD COLUMN frontier TEXT NOT NULL DEFAULT ''")
    rows.run(f"ALTER TABLE {rows.chain} ADD COLUMN root TEXT NOT NULL DEFAULT ''")
    frontier: list[bytes] = []
    for position, link in enumerate(links):  # as the older release wrote them
        frontier = merkle.extend(frontier, position, audit.leaves([link["digest"]])[0])
        rows.run(f"UPDATE {rows.chain} SET frontier = ?, root = ? WHERE notification_id = ?",
                 audit.pack(frontier), merkle.frontier_root(frontier).hex(), link["notification_id"])
    rows.run(f"DROP TABLE {rows.head}")
    index = rows.chain.rsplit(".", 1)[-1] + "_by_stream"
    rows.run(f"CREATE INDEX {index} ON {rows.chain} (originator_id, originator_version)")
    for column in ("salt", "digest", "chain"):  # as hex text
        rows.run(f"ALTER TABLE {rows.chain} ALTER COLUMN {column} TYPE TEXT USING encode({column}, 'hex')"
                 if settings.store == "postgres" else f"UPDATE {rows.chain} SET {column} = lower(hex({column}))")
    if settings.store == "postgres":  # and each link's campaign as hex text (ADR 0018)
        rows.run(f"ALTER TABLE {rows.chain} ALTER COLUMN campaign_id TYPE TEXT USING replace(campaign_id::text, '-', '')")
    reopened = ServiceDriver(Stakes(settings))
    try:
        recorder = reopened.service.app.recorder
        assert "frontier" not in recorder.chain_columns() and not recorder.has_stream_index()
        assert recorder.chain_columns()["campaign_id"].lower() == recorder.campaign_type.lower()
        assert not recorder.upgrade_chain()
        assert reopened.checkpoint(cid, ILSE).size == held.size
        assert reopened.audit(cid, HOUSE).intact
        reopened.offer_loan(cid, TOMAS, "ilse", 1)
        assert still_extends(reopened, cid, held).size > held.size
        assert reopened.audit(cid, HOUSE).intact
    finally:
        reopened.close()
