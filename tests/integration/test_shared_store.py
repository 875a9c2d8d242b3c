"""Any number of processes on one store (ADR 0012): each service below has its own connections, as a
separate process would. Projectors racing over one log write each position once, and the views equal a
rebuild; services starting at once on an empty PostgreSQL schema create it once, without errors."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest

from adapters import projection
from adapters.service import Stakes
from domain.seats import Seat

HOUSE = Seat.house()


def together(jobs: list[Callable[[], Any]]) -> list[Any]:
    """Run every job in its own thread, released at the same moment; returns results or raised errors."""
    barrier = threading.Barrier(len(jobs))
    out: list[Any] = [None] * len(jobs)

    def run(i: int) -> None:
        barrier.wait()
        try:
            out[i] = jobs[i]()
        except Exception as exc:
            out[i] = exc

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return out


def busy_campaign(stakes: Stakes) -> None:
    cid = stakes.create_campaign("Shared", "penny-ante", {"starting_pile": 30}).campaign.id
    for seat in ("ilse", "tomas", "vera"):
        stakes.run(cid, HOUSE, "add-player", {"seat": seat, "character": seat.title(), "characteristic": "Sly"})
    stakes.run(cid, HOUSE, "start-adventure", {})
    for _ in range(3):
        view = stakes.run(cid, Seat("ilse"), "announce-challenge",
                          {"challenger": {"players": ["ilse"]}, "opponent": {"players": ["tomas"]}, "ante": 1})
        stakes.act(cid, Seat("ilse"), view.id, {"action": "seed", "seed": "a"})
        stakes.run(cid, Seat("vera"), "offer-loan", {"borrower": "tomas", "amount": 1})


def test_projectors_racing_in_several_processes_write_each_position_once(settings, monkeypatch) -> None:
    monkeypatch.setattr(projection, "BATCH", 3)  # many small batches: many chances to collide
    writer = Stakes(settings)
    services = [Stakes(settings) for _ in range(4)]
    try:
        busy_campaign(writer)
        expected = writer.views.dump()
        for _ in range(3):
            writer.views.reset(writer.app.name)
            results = together([s.catch_up for s in services])
            assert not [r for r in results if isinstance(r, Exception)], results
            assert sum(results) == writer.app.recorder.max_notification_id()  # each event applied once
            assert writer.views.dump() == expected
        writer.rebuild()
        assert writer.views.dump() == expected
    finally:
        for s in (writer, *services):
            s.close()


@pytest.mark.postgres
def test_four_workers_starting_at_once_create_one_schema(pg_server, pg_schema, tmp_path) -> None:
    from tests.conftest import postgres_settings

    settings = postgres_settings(pg_server, pg_schema, tmp_path)
    started = together([lambda: Stakes(settings) for _ in range(4)])
    try:
        assert all(isinstance(s, Stakes) for s in started), started
        cid = started[0].create_campaign("Started together", "pool").campaign.id
        assert [c.id for c in started[3].campaigns()] == [cid]
    finally:
        for s in started:
            if isinstance(s, Stakes):
                s.close()
