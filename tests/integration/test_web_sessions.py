"""Web sessions in the store (issue 29, ADR 0021), on both stores: stored only hashed, resolved to a Caller with
their expiry by ``api.deps`` alone, kept across a rebuild of the read models, and ended (with the open streams
told) by sign-out, a reissue of the seat and a claim."""

from __future__ import annotations

import time

import pytest
from fastapi import HTTPException

from adapters.service import Stakes
from adapters.views import token_hash
from api.deps import _caller
from domain.seats import Seat


@pytest.fixture
def stakes(settings):
    """The service itself (not the integration tests' driver): sessions are the web's, no command's."""
    service = Stakes(settings)
    yield service
    service.close()


@pytest.fixture
def seated(stakes):
    created = stakes.create_campaign("Web night", "pool")
    cid = created.campaign.id
    added = stakes.run(cid, Seat.house(), "add-player", {"seat": "ilse", "character": "Ilse",
                                                         "description": "ilse the bold"})
    return cid, created.house_token, added.invite


@pytest.fixture
def revocations(stakes, monkeypatch):
    told: list[int] = []
    original = stakes.fanout.revoked
    monkeypatch.setattr(stakes.fanout, "revoked", lambda: (told.append(1), original())[1])
    return told


def test_a_session_is_stored_only_as_its_hash_and_resolves_to_its_seat_with_its_expiry(stakes, seated):
    cid, house_token, _ = seated
    before = time.time()
    session, expires = stakes.open_session(cid, Seat.house())
    assert session.startswith("ses_") and session != house_token
    assert before + stakes.settings.web_session_seconds <= expires <= time.time() + stakes.settings.web_session_seconds
    rows = stakes.views.query("SELECT * FROM {p}web_sessions")
    assert [r["session_hash"] for r in rows] == [token_hash(session)]
    assert session not in repr(rows) and house_token not in repr(rows)
    caller = _caller(stakes, session)
    assert (caller.campaign_id, caller.seat, caller.expires_at) == (cid, Seat.house(), expires)
    assert _caller(stakes, house_token).expires_at is None  # a seat token does not end by itself


def test_a_rebuild_of_the_read_models_keeps_the_sessions(stakes, seated):
    cid, _, _ = seated
    session, _ = stakes.open_session(cid, Seat.house())
    stakes.rebuild()
    assert _caller(stakes, session).seat == Seat.house()


def test_sign_out_ends_the_session_at_once_and_tells_the_streams(stakes, seated, revocations):
    cid, _, _ = seated
    session, _ = stakes.open_session(cid, Seat.house())
    other, _ = stakes.open_session(cid, Seat.house())
    stakes.sign_out(session)
    assert revocations == [1]
    with pytest.raises(HTTPException) as refused:
        _caller(stakes, session)
    assert refused.value.status_code == 401 and "sign in again" in refused.value.detail
    assert _caller(stakes, other).seat == Seat.house()  # another browser's session goes on


def test_a_reissue_ends_every_session_of_that_seat_only(stakes, seated, revocations):
    cid, _, code = seated
    claimed = stakes.claim(code)
    ilse, _ = stakes.open_session(cid, Seat("ilse"))
    house, _ = stakes.open_session(cid, Seat.house())
    revocations.clear()
    again = stakes.reissue_token(cid, Seat.house(), "ilse")
    assert revocations  # the streams were told
    for credential in (ilse, claimed.token):
        with pytest.raises(HTTPException):
            _caller(stakes, credential)
    assert _caller(stakes, house).seat == Seat.house()
    # a session opened by the new holder works; the claim itself ends any session of the seat before it
    stakes.claim(again.invite)
    assert not stakes.views.query("SELECT 1 FROM {p}web_sessions WHERE seat = ?", ("ilse",))


def test_an_expired_session_is_refused_and_swept(stakes, seated):
    cid, _, _ = seated
    stakes.settings.web_session_seconds = 1
    session, expires = stakes.open_session(cid, Seat.house())
    time.sleep(max(0.0, expires - time.time()) + 0.1)
    with pytest.raises(HTTPException):
        _caller(stakes, session)
    stakes.open_session(cid, Seat.house())  # the next sign-in sweeps the expired rows
    assert token_hash(session) not in {r["session_hash"] for r in stakes.views.query("SELECT * FROM {p}web_sessions")}


def test_a_seat_keeps_at_most_its_cap_of_sessions_the_oldest_ending_with_the_streams_told(stakes, seated, revocations):
    cid, _, _ = seated
    stakes.settings.web_sessions_per_seat = 2
    first, _ = stakes.open_session(cid, Seat.house())
    second, _ = stakes.open_session(cid, Seat.house())
    assert revocations == []  # within the cap nothing ends
    third, _ = stakes.open_session(cid, Seat.house())
    assert revocations == [1]  # the oldest ended, as a sign-out ends it
    with pytest.raises(HTTPException):
        _caller(stakes, first)
    assert [_caller(stakes, s).seat for s in (second, third)] == [Seat.house(), Seat.house()]
    assert len(stakes.views.query("SELECT 1 FROM {p}web_sessions")) == 2


def test_an_expired_session_presented_is_swept_at_once_without_waiting_for_a_sign_in(stakes, seated):
    cid, _, _ = seated
    stakes.settings.web_session_seconds = 1
    session, expires = stakes.open_session(cid, Seat.house())
    time.sleep(max(0.0, expires - time.time()) + 0.1)
    assert stakes.session(session) is None
    assert not stakes.views.query("SELECT 1 FROM {p}web_sessions")
