"""Every command exactly once (C-2): a lost commit acknowledgement and a client's retry under the same
Idempotency-Key are answered with the first result, never applied twice. Real stores, both kinds."""

from __future__ import annotations

import threading
from datetime import timedelta
from typing import Any

import pytest
from eventsourcing.persistence import IntegrityError

from adapters.service import Stakes
from domain import application
from domain.errors import ConcurrencyConflict, NotPermitted, StakesError
from domain.seats import Seat

HOUSE, ILSE, TOMAS = Seat.house(), Seat("ilse"), Seat("tomas")


@pytest.fixture
def stakes(settings) -> Stakes:
    """The bare service (the integration tests' driver is not needed: these call its public methods)."""
    service = Stakes(settings)
    yield service
    service.close()


@pytest.fixture
def table(stakes: Stakes):
    cid = stakes.create_campaign("Once", "penny-ante", {"starting_pile": 30}).campaign.id
    for seat in ("ilse", "tomas"):
        stakes.run(cid, HOUSE, "add-player", {"seat": seat, "character": seat.title(), "characteristic": "Sly"})
    return cid


def lose_the_acknowledgement(stakes: Stakes, times: int = 1) -> list[int]:
    """The store commits, then the answer is lost and the library's retry of the same insert hits the
    primary key of its own first attempt: what PostgreSQL does when the connection drops after COMMIT."""
    real = stakes.app.recorder.insert_events
    calls: list[int] = []

    def insert_then_lose_the_answer(stored_events, **kwargs):
        result = real(stored_events, **kwargs)
        calls.append(len(stored_events))
        if len(calls) <= times:
            raise IntegrityError("duplicate key value violates unique constraint (the first attempt committed)")
        return result

    stakes.app.recorder.insert_events = insert_then_lose_the_answer  # type: ignore[method-assign]
    return calls


def events(stakes: Stakes) -> int:
    return stakes.app.recorder.max_notification_id() or 0


def test_a_lost_commit_acknowledgement_never_runs_a_command_twice(stakes: Stakes, table) -> None:
    for round_ in range(20):
        before = events(stakes)
        lose_the_acknowledgement(stakes)
        loan = stakes.run(table, TOMAS, "offer-loan", {"borrower": "ilse", "amount": 1})
        stakes.app.recorder.insert_events = type(stakes.app.recorder).insert_events.__get__(stakes.app.recorder)
        assert events(stakes) == before + 2, round_  # the offer and its record, once
        assert [x.loan_id for x in stakes.read(table, HOUSE, "debts").loans].count(loan.loan_id) == 1
    assert len(stakes.read(table, HOUSE, "debts").loans) == 20


def test_a_lost_acknowledgement_does_not_charge_a_purchase_twice(stakes: Stakes, table) -> None:
    lose_the_acknowledgement(stakes)
    sheet = stakes.run(table, ILSE, "buy-characteristic", {"name": "Lucky Necklace"})
    assert sheet.pile == 25 and [c.name for c in sheet.characteristics] == ["Sly", "Lucky Necklace"]


def test_a_retry_under_the_same_key_is_answered_as_the_first_time(stakes: Stakes, table) -> None:
    first = stakes.run(table, TOMAS, "offer-loan", {"borrower": "ilse", "amount": 3}, key="k-1")
    before = events(stakes)
    again = stakes.run(table, TOMAS, "offer-loan", {"borrower": "ilse", "amount": 3}, key="k-1")
    assert again.loan_id == first.loan_id and events(stakes) == before
    assert len(stakes.read(table, HOUSE, "debts").loans) == 1


def test_a_key_is_the_seats_own(stakes: Stakes, table) -> None:
    """Another seat sending the same key runs its own command."""
    mine = stakes.run(table, TOMAS, "offer-loan", {"borrower": "ilse", "amount": 3}, key="same")
    theirs = stakes.run(table, ILSE, "offer-loan", {"borrower": "tomas", "amount": 3}, key="same")
    assert mine.loan_id != theirs.loan_id


def test_a_key_sent_again_with_another_command_is_refused(stakes: Stakes, table) -> None:
    stakes.run(table, TOMAS, "offer-loan", {"borrower": "ilse", "amount": 3}, key="k-2")
    before = events(stakes)
    with pytest.raises(ConcurrencyConflict, match="was used for another command"):
        stakes.run(table, TOMAS, "offer-loan", {"borrower": "ilse", "amount": 4}, key="k-2")
    assert events(stakes) == before


def test_a_move_in_a_challenge_is_applied_once_under_its_key(stakes: Stakes, table) -> None:
    stakes.run(table, HOUSE, "start-adventure", {})
    view = stakes.run(table, ILSE, "announce-challenge",
                      {"challenger": {"players": ["ilse"]}, "opponent": {"players": ["tomas"]}, "ante": 1})
    stakes.act(table, ILSE, view.id, {"action": "seed", "seed": "mine"}, key="s-1")
    before = events(stakes)
    again = stakes.act(table, ILSE, view.id, {"action": "seed", "seed": "mine"}, key="s-1")
    assert events(stakes) == before and again.sides["challenger"].seed == "mine"


def test_creating_a_campaign_twice_under_one_key_creates_one(stakes: Stakes) -> None:
    first = stakes.create_campaign("Keyed", "pool", key="c-1")
    again = stakes.create_campaign("Keyed", "pool", key="c-1")
    assert again.campaign.id == first.campaign.id
    assert [c.name for c in stakes.campaigns()].count("Keyed") == 1


def test_a_creation_retried_under_its_key_answers_the_campaign_without_the_house_token_which_stays_valid(
        stakes: Stakes) -> None:
    """Issue 29 (ADR 0028): the House token is answered once, to the creating request; a retry under the key
    (the creator's, or anyone's who learnt the key) gets the campaign and a note, never the token."""
    first = stakes.create_campaign("Keyed", "pool", key="c-2")
    again = stakes.create_campaign("Keyed", "pool", key="c-2")
    assert again.campaign.id == first.campaign.id and again.house_token is None and first.note is None
    assert again.note is not None and "new key" in again.note
    assert stakes.tokens.authenticate(first.house_token) == (first.campaign.id, Seat.house())
    other = stakes.create_campaign("Keyed", "pool", key="c-3")
    unkeyed = stakes.create_campaign("Keyed", "pool")
    assert len({first.house_token, other.house_token, unkeyed.house_token}) == 3


def test_a_creation_sent_again_past_the_retry_window_answers_no_house_token(stakes: Stakes, monkeypatch) -> None:
    """C-1: the key is in the campaign's record and export; past the window of a lost answer it is no
    credential, so whoever holds it gets a 409 and no token, and the House's token stays valid."""
    import adapters.service
    first = stakes.create_campaign("Keyed", "pool", key="c-4")
    monkeypatch.setattr(adapters.service, "RETRY_WINDOW", timedelta(0))
    with pytest.raises(ConcurrencyConflict, match="send a new key"):
        stakes.create_campaign("Keyed", "pool", key="c-4")
    assert stakes.tokens.authenticate(first.house_token) == (first.campaign.id, Seat.house())


def test_seating_a_player_retried_under_its_key_answers_the_same_invite(stakes: Stakes) -> None:
    cid = stakes.create_campaign("Once", "penny-ante").campaign.id
    seat = {"seat": "ilse", "character": "Ilse", "characteristic": "Sly"}
    first = stakes.run(cid, HOUSE, "add-player", seat, key="seat-ilse")
    again = stakes.run(cid, HOUSE, "add-player", seat, key="seat-ilse")  # the first answer was lost
    assert again.invite == first.invite
    claimed = stakes.claim(again.invite)
    assert stakes.tokens.authenticate(claimed.token) == (cid, Seat("ilse"))


def test_replaying_a_player_seating_after_the_claim_seats_nobody_twice(stakes: Stakes) -> None:
    """C-1: the House re-sending the command that seated a player gets no code that takes his seat
    silently (handing it out again is ``reissue``, which the log shows)."""
    cid = stakes.create_campaign("Once", "penny-ante").campaign.id
    seat = {"seat": "ilse", "character": "Ilse", "characteristic": "Sly"}
    first = stakes.run(cid, HOUSE, "add-player", seat, key="seat-ilse")
    token = stakes.claim(first.invite).token
    before = events(stakes)
    replayed = stakes.run(cid, HOUSE, "add-player", seat, key="seat-ilse")
    assert events(stakes) == before
    with pytest.raises(NotPermitted):
        stakes.claim(replayed.invite)
    assert stakes.tokens.authenticate(token) == (cid, Seat("ilse"))
    stakes.tokens.revoke(cid, "ilse")  # even with no token held at all, the spent code is not armed again
    with pytest.raises(NotPermitted):
        stakes.claim(stakes.run(cid, HOUSE, "add-player", seat, key="seat-ilse").invite)


def test_a_copy_racing_the_first_under_one_key_answers_the_stored_result_not_a_refusal(settings) -> None:
    """Two copies of one command under one key, on two processes (a client retrying while its first request
    still runs): the second read before the first was stored, so running it again would be refused ("an
    adventure is already running"). Its answer is the one stored under the key (exactly once, red team of
    2026-11-28): the copy finds the record once refused. Deterministic: the first copy waits in its save
    until the second has looked for the record and found none."""
    first, second = Stakes(settings), Stakes(settings)
    try:
        cid = first.create_campaign("Race", "penny-ante").campaign.id
        paused, go, done = threading.Event(), threading.Event(), threading.Event()

        def hold() -> None:
            if threading.current_thread().name == "first":
                paused.set()
                go.wait(10)

        first.app.before_save = hold  # type: ignore[method-assign]
        looked = application.Once.stored

        def stored(self: application.Once) -> Any:
            found = looked(self)
            if threading.current_thread().name == "second" and found is None and not go.is_set():
                go.set()  # the second copy found no record: now the first is stored
                done.wait(10)
            return found

        answers: dict[str, Any] = {}

        def send(name: str, service: Stakes) -> None:
            try:
                answers[name] = service.run(cid, HOUSE, "start-adventure", {}, key="k" * 40)
            except StakesError as exc:
                answers[name] = exc
            finally:
                if name == "first":
                    done.set()

        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(application.Once, "stored", stored)
            one = threading.Thread(target=send, args=("first", first), name="first")
            one.start()
            assert paused.wait(10)
            two = threading.Thread(target=send, args=("second", second), name="second")
            two.start()
            one.join(20)
            two.join(20)
        assert not isinstance(answers["second"], StakesError), answers["second"]
        assert answers["second"] == answers["first"] and answers["first"].adventure == 1
        assert sum(1 for e in first.log(cid, HOUSE, 0, 100).entries if e.event == "AdventureStarted") == 1
    finally:
        first.close()
        second.close()
