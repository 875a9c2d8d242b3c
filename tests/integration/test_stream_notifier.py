"""The live table's notifier (issue 29, item 5; ADR 0024): one process reads what is new in a campaign once,
whatever number of streams follow it. Before, every stream polled the store on its own every 2 s: a player
with 300 streams open slowed every other seat's commands tenfold. Both stores."""

from __future__ import annotations

import asyncio

import pytest

from adapters import heads, ledger
from adapters.service import Stakes
from api import stream
from domain.seats import Seat

HOUSE = Seat.house()


@pytest.fixture
def stakes(settings):
    service = Stakes(settings)
    yield service
    service.close()


@pytest.mark.parametrize("streams", [1, 200])
def test_a_batch_is_read_and_signed_once_per_campaign_however_many_streams_follow_it(stakes, monkeypatch, streams):
    cid = stakes.create_campaign("Notifier night", "pool").campaign.id
    for seat in ("ilse", "tomas"):
        stakes.run(cid, HOUSE, "add-player", {"seat": seat, "character": seat.title(), "description": "a player"})
    reads = {"rows": 0, "heads": 0}
    rows, current = ledger._rows, heads.current

    def counted_rows(*args):
        reads["rows"] += 1
        return rows(*args)

    def counted_heads(*args):
        reads["heads"] += 1
        return current(*args)

    monkeypatch.setattr(ledger, "_rows", counted_rows)
    monkeypatch.setattr(heads, "current", counted_heads)

    async def follow() -> list[stream.Subscriber]:
        hub = stream.Hub(stakes)
        subs = [stream.Subscriber(cid, Seat(("ilse", "tomas", "house")[k % 3]), "tok", f"c{k}", None,
                                  hub.fanout.generation, 8) for k in range(streams)]
        for sub in subs:
            hub.subscribers.setdefault(cid, set()).add(sub)
        hub.read_to[cid] = ledger.last_position(stakes, cid)
        stakes.run(cid, HOUSE, "add-player", {"seat": "ada", "character": "Ada", "description": "new at the table"})
        await hub._campaign(cid)
        return subs

    subs = asyncio.run(follow())
    assert reads == {"rows": 1, "heads": 1}  # the new entries once, one signed head for every stream
    assert all(sub.pending for sub in subs)  # every stream got the batch its seat may see
