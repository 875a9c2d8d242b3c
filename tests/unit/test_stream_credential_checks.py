"""Issue 29: a revocation makes every open stream check its own credential again. Two credentials of one seat
(its token and a web session) are checked apart: one's refusal never ends the other's stream, whichever of
the two is checked first."""
from __future__ import annotations

import asyncio
import time
from types import SimpleNamespace
from uuid import uuid4

import pytest
from fastapi import HTTPException

from api import deps, stream
from domain.seats import Seat


def _hub(generation: int) -> SimpleNamespace:
    return SimpleNamespace(fanout=SimpleNamespace(generation=generation), settings=SimpleNamespace(stream_recheck=30.0),
                           checks=asyncio.Semaphore(4), checked={}, per_credential={"seat": 2}, stakes=None)


def _stream(campaign, seat, token: str) -> stream.Subscriber:
    return stream.Subscriber(campaign, seat, token, "seat", None, 0, 8, checked_at=time.monotonic())


@pytest.mark.parametrize("revoked_first", [True, False], ids=["revoked-checked-first", "valid-checked-first"])
def test_a_revoked_web_session_ends_its_own_stream_and_not_the_same_seats_token_stream(monkeypatch, revoked_first):
    campaign, seat = uuid4(), Seat.parse("ilse")

    def caller(_stakes, token):
        if token == "ses_signed_out":
            raise HTTPException(401, "Unknown token")
        return deps.Caller(campaign, seat)

    monkeypatch.setattr(deps, "_caller", caller)
    session, bearer = _stream(campaign, seat, "ses_signed_out"), _stream(campaign, seat, "tok_still_good")

    async def check() -> dict[str, bool]:
        hub = _hub(generation=1)  # a revocation moved the generation past the streams' own
        order = [session, bearer] if revoked_first else [bearer, session]
        return {sub.token: await stream._still_valid(hub, sub) for sub in order}  # type: ignore[arg-type]

    outcome = asyncio.run(check())
    assert outcome == {"ses_signed_out": False, "tok_still_good": True}


def test_on_postgresql_with_listen_down_every_batch_makes_the_streams_check_their_credentials_again():
    # another process's revocation is told by NOTIFY; while LISTEN is down nothing would tell it, so the hub's
    # sync before handing rows out moves the generation: every stream checks its credential first (issue 29)
    import threading

    from adapters.fanout import Fanout

    fanout = Fanout(SimpleNamespace(store="postgres"))
    fanout._listener = threading.Thread(target=lambda: None)  # started, not listening
    before = fanout.generation
    fanout.sync()
    assert fanout.generation == before + 1
    fanout.listening.set()  # LISTEN is back: a revocation anywhere is heard, nothing more to do per batch
    fanout.sync()
    assert fanout.generation == before + 1
