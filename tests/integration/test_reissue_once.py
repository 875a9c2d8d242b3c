"""A reissue under its Idempotency-Key (issue 29, review finding 4, ADR 0028), on both stores: a replay finishes
what a first run that failed after its write left undone, a replay after the retry window is refused 409, and two
identical requests racing each other apply the reissue once, never undoing a claim made between them (C-1); a
command whose own commit acknowledgement was lost is still no replay."""

from __future__ import annotations

import threading
import uuid
from datetime import timedelta
from uuid import UUID

import pytest

import adapters.service
from adapters.projection import StoreUnavailable
from adapters.service import RETRY_WINDOW, Stakes
from adapters.views import now, token_hash
from domain.errors import ConcurrencyConflict, NotPermitted
from domain.seats import Seat
from tests.integration.test_exactly_once import lose_the_acknowledgement

HOUSE = Seat.house()


@pytest.fixture
def stakes(settings):
    service = Stakes(settings)
    yield service
    service.close()


@pytest.fixture
def seated(stakes):
    """A campaign whose player ``ilse`` claimed her seat: (campaign id, her token)."""
    cid = stakes.create_campaign("Reissue night", "pool").campaign.id
    added = stakes.run(cid, HOUSE, "add-player", {"seat": "ilse", "character": "Ilse", "description": "ilse the bold"})
    return cid, stakes.claim(added.invite).token


def reissues(stakes: Stakes, cid) -> int:
    """How many ``SeatReissued`` events the campaign's log shows the House."""
    return sum(1 for e in stakes.log(cid, HOUSE, limit=1000).entries if e.event.endswith("SeatReissued"))


def test_a_replay_after_a_fault_past_the_reissues_write_revokes_the_old_token_and_stores_the_code(
        stakes, seated, monkeypatch):
    cid, old = seated
    session, _ = stakes.open_session(cid, Seat("ilse"))
    key = uuid.uuid4().hex
    real = stakes.catch_up

    calls: list[int] = []

    def down(*args: object) -> int:  # the first catch-up (the seat check) goes through, the one after the write fails
        calls.append(1)
        if len(calls) > 1:
            raise StoreUnavailable("the read store went away after the reissue's write")
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(stakes, "catch_up", down)
    with pytest.raises(StoreUnavailable):
        stakes.reissue_token(cid, HOUSE, "ilse", key=key)
    monkeypatch.setattr(stakes, "catch_up", real)
    assert len(calls) == 2 and reissues(stakes, cid) == 1  # the reissue was stored before the fault ...
    assert stakes.authenticate(old) is not None  # ... which left the old token in place

    again = stakes.reissue_token(cid, HOUSE, "ilse", key=key)  # the House's retry under the same key
    assert again.invite == stakes.tokens.reissue_code(cid, "ilse", key)
    assert stakes.authenticate(old) is None and stakes.session(session) is None  # the old holder is out
    claimed = stakes.claim(again.invite)  # the code answered was stored: it seats the player
    assert stakes.authenticate(claimed.token) == (cid, Seat("ilse"))
    assert reissues(stakes, cid) == 1


def test_a_replay_after_the_retry_window_is_refused_409_and_changes_nothing(stakes, seated, monkeypatch):
    cid, _ = seated
    key = uuid.uuid4().hex
    first = stakes.reissue_token(cid, HOUSE, "ilse", key=key)
    claimed = stakes.claim(first.invite)
    later = now() + RETRY_WINDOW + timedelta(minutes=1)
    monkeypatch.setattr(adapters.service, "now", lambda: later)
    with pytest.raises(ConcurrencyConflict, match="new key"):
        stakes.reissue_token(cid, HOUSE, "ilse", key=key)
    assert stakes.authenticate(claimed.token) == (cid, Seat("ilse"))
    assert reissues(stakes, cid) == 1
    # a new key is a new reissue, even then
    fresh = stakes.reissue_token(cid, HOUSE, "ilse", key=uuid.uuid4().hex)
    assert fresh.invite != first.invite and stakes.authenticate(claimed.token) is None


def test_two_identical_reissues_racing_apply_once_and_never_undo_a_claim_made_between_them(stakes, seated,
                                                                                              monkeypatch):
    cid, old = seated
    key = uuid.uuid4().hex
    arrived, go = threading.Event(), threading.Event()
    winner = threading.get_ident()  # this test's thread; the racing request runs in another
    real = stakes.app.before_save

    def pause() -> None:
        if threading.get_ident() != winner:  # the racing request, paused between its reads and its save
            arrived.set()
            assert go.wait(60)
        real()

    monkeypatch.setattr(stakes.app, "before_save", pause)
    answers: list[object] = []
    racing = threading.Thread(target=lambda: answers.append(_try(stakes, cid, key)))
    racing.start()
    assert arrived.wait(60)
    first = stakes.reissue_token(cid, HOUSE, "ilse", key=key)  # this request wins the race ...
    claimed = stakes.claim(first.invite)  # ... and the player claims its code before the racing one goes on
    go.set()
    racing.join(60)
    assert not racing.is_alive()
    second = answers[0]
    assert not isinstance(second, BaseException), second
    assert second.invite == first.invite  # type: ignore[union-attr]
    assert stakes.authenticate(old) is None
    assert stakes.authenticate(claimed.token) == (cid, Seat("ilse"))  # the claim stands
    with pytest.raises(NotPermitted, match="C-1|already claimed"):
        stakes.claim(first.invite)  # the code stays spent
    stored = stakes.views.query("SELECT code_hash FROM {p}seat_invites WHERE seat = ?", ("ilse",))
    assert [r["code_hash"] for r in stored] == ["spent:" + token_hash(first.invite)]
    assert reissues(stakes, cid) == 1


def _try(stakes: Stakes, cid: UUID, key: str) -> object:
    """The racing request's reissue, its answer or its error handed to the test's thread."""
    try:
        return stakes.reissue_token(cid, HOUSE, "ilse", key=key)
    except BaseException as exc:
        return exc


def test_a_reissue_whose_own_commit_acknowledgement_was_lost_is_no_replay_and_revokes_the_old_token(stakes, seated):
    cid, old = seated
    lose_the_acknowledgement(stakes)  # the store committed; the library's retry meets the reissue's own record
    try:
        answer = stakes.reissue_token(cid, HOUSE, "ilse", key=uuid.uuid4().hex)
    finally:
        stakes.app.recorder.insert_events = type(stakes.app.recorder).insert_events.__get__(stakes.app.recorder)
    assert stakes.authenticate(old) is None
    assert stakes.authenticate(stakes.claim(answer.invite).token) == (cid, Seat("ilse"))
    assert reissues(stakes, cid) == 1


def test_a_creation_whose_own_commit_acknowledgement_was_lost_still_answers_its_house_token(stakes):
    lose_the_acknowledgement(stakes)
    try:
        created = stakes.create_campaign("Lost answer", "pool", key=uuid.uuid4().hex * 2)
    finally:
        stakes.app.recorder.insert_events = type(stakes.app.recorder).insert_events.__get__(stakes.app.recorder)
    assert created.house_token is not None
    assert stakes.authenticate(created.house_token) == (created.campaign.id, HOUSE)
