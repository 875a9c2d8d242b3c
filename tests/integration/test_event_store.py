"""The event store on real SQLite files and PostgreSQL schemas: round trip, concurrency, snapshots."""

from __future__ import annotations

import threading

import pytest
from eventsourcing.persistence import IntegrityError

from adapters.service import Stakes
from adapters.store import open_application
from domain.errors import ConcurrencyConflict
from domain.seats import Seat
from domain.systems.penny_ante.character import Character

HOUSE, ILSE, TOMAS = Seat.house(), Seat("ilse"), Seat("tomas")


def seat_two(stakes: Stakes):
    created = stakes.create_campaign("Jade Court", "penny-ante", {"starting_pile": 30})
    cid = created.campaign.id
    ilse = stakes.add_player(cid, HOUSE, "ilse", "Ilse Varn", "Whip Smart")
    tomas = stakes.add_player(cid, HOUSE, "tomas", "Brother Tomas", "Love Conquers All")
    # each player claims his own seat with the House's one-time invite code
    return cid, created.house_token, stakes.claim(ilse.invite).token, stakes.claim(tomas.invite).token


def test_events_round_trip_through_the_store_with_actor_and_time(stakes, settings):
    cid, *_ = seat_two(stakes)
    stakes.buy_characteristic(cid, ILSE, "ilse", "Lucky Necklace")
    reopened = open_application(settings)
    try:
        character = reopened.repository.get(Character.create_id(cid, "ilse"))
        assert (character.pile, character.characteristics) == (25, ["Whip Smart", "Lucky Necklace"])
        events = [reopened.mapper.to_domain_event(n) for n in reopened.recorder.select_notifications(1, 100)]
        bought = next(e for e in events if type(e).__qualname__ == "Character.CharacteristicBought")
        assert bought.actor == "ilse" and bought.timestamp.tzinfo is not None
        assert all(hasattr(e, "actor") for e in events)
    finally:
        reopened.close()


def test_a_stale_save_is_refused_by_optimistic_concurrency(stakes, settings):
    cid, *_ = seat_two(stakes)
    other = open_application(settings)
    try:
        character_id = Character.create_id(cid, "ilse")
        mine, theirs = stakes.app.repository.get(character_id), other.repository.get(character_id)
        mine.buy_characteristic("Quick", adventure_running=False, actor="ilse")
        theirs.buy_characteristic("Strong", adventure_running=False, actor="ilse")
        stakes.app.save(mine)
        with pytest.raises(IntegrityError):
            other.save(theirs)
    finally:
        other.close()


def test_racing_commands_on_one_character_never_lose_an_update(stakes):
    cid, *_ = seat_two(stakes)
    outcomes: list[str] = []
    barrier = threading.Barrier(5)

    def buy(i: int) -> None:
        barrier.wait()
        try:
            stakes.buy_characteristic(cid, ILSE, "ilse", f"Trick {i}")
            outcomes.append("ok")
        except ConcurrencyConflict:
            outcomes.append("409")

    threads = [threading.Thread(target=buy, args=(i,)) for i in range(5)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    bought = outcomes.count("ok")
    assert bought >= 1 and len(outcomes) == 5
    character = stakes.app.repository.get(Character.create_id(cid, "ilse"))
    assert len(character.characteristics) == 1 + bought and character.pile == 30 - 5 * bought
    sheet = stakes.sheet(cid, ILSE)
    assert sheet.pile == character.pile and len(sheet.characteristics) == 1 + bought


def test_snapshots_are_taken_for_busy_aggregates(stakes):
    cid, *_ = seat_two(stakes)
    loan = stakes.offer_loan(cid, TOMAS, "ilse", 30)
    stakes.accept_loan(cid, ILSE, loan.loan_id)
    for _ in range(30):
        stakes.repay_loan(cid, ILSE, loan.loan_id, 1)
    assert stakes.app.snapshots is not None
    snapshots = list(stakes.app.snapshots.get(loan.loan_id))
    assert snapshots, "the loan has more than 25 events and should have been snapshotted"
    assert stakes.app.repository.get(loan.loan_id).status == "repaid"


def test_tokens_never_appear_in_stored_events_or_read_models(stakes):
    cid, house_token, ilse_token, _ = seat_two(stakes)
    notes = stakes.app.recorder.select_notifications(1, 1000)
    blob = b"".join(n.state for n in notes)
    assert house_token.encode() not in blob and ilse_token.encode() not in blob
    dump = repr(stakes.views.dump())
    assert house_token not in dump and ilse_token not in dump
    rows = stakes.views.query("SELECT * FROM {p}seat_tokens")
    assert len(rows) == 3 and all(house_token not in repr(r) and ilse_token not in repr(r) for r in rows)
    assert stakes.authenticate(ilse_token) == (cid, ILSE)
    assert stakes.authenticate("stk_forged") is None


@pytest.mark.postgres
def test_every_postgres_session_reads_committed_whatever_the_servers_default(pg_server, pg_schema, tmp_path,
                                                                             monkeypatch):
    """The projection's lock-then-read and the write's read-set check assume READ COMMITTED: a server, role or
    environment whose default is stricter must not change what a session of Stakes sees (ADR 0042)."""
    from tests.conftest import postgres_settings
    from tests.drivers import ServiceDriver

    monkeypatch.setenv("PGOPTIONS", "-c default_transaction_isolation=serializable")  # the stricter default
    service = Stakes(postgres_settings(pg_server, pg_schema, tmp_path))
    stakes = ServiceDriver(service)
    try:
        cid, *_ = seat_two(stakes)
        stakes.buy_characteristic(cid, ILSE, "ilse", "Lucky Necklace")
        stores = {"events": service.app.recorder.datastore, "snapshots": service.app.snapshots.recorder.datastore,
                  "read models": service.views.datastore}
        for name, datastore in stores.items():
            with datastore.get_connection() as conn, conn.transaction(), conn.cursor() as c:
                c.execute("SHOW transaction_isolation")
                assert c.fetchone()["transaction_isolation"] == "read committed", name
        assert [c.name for c in stakes.sheet(cid, ILSE, "ilse").characteristics][-1] == "Lucky Necklace"
    finally:
        service.close()
