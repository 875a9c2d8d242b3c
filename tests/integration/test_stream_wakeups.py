"""Which campaigns a wake-up of the stream notifier names (issue 32): a process's own catch-up names the
campaigns whose log it extended; on PostgreSQL the projection's NOTIFY names them to every other process; on
SQLite another process's write is seen by the file watcher, which cannot tell whose: every campaign is read."""
# ruff: noqa: F811

from __future__ import annotations

import time
from uuid import UUID

from adapters.service import Stakes
from domain.seats import Seat
from tests.integration.test_write_skew import other, stakes  # noqa: F401

HOUSE = Seat.house()


def _campaign(stakes: Stakes, name: str) -> UUID:
    return stakes.create_campaign(name, "penny-ante", {"starting_pile": 30}).campaign.id


def _next_wake(stakes: Stakes, before: int) -> None:
    deadline = time.monotonic() + 10
    while stakes.fanout.wakes == before and time.monotonic() < deadline:
        time.sleep(0.01)
    assert stakes.fanout.wakes != before, "no wake-up came"


def test_a_command_wakes_its_own_process_naming_only_its_campaign(stakes: Stakes) -> None:
    _campaign(stakes, "Elsewhere")
    cid = _campaign(stakes, "Here")
    stakes.fanout.changed()
    stakes.run(cid, HOUSE, "add-player", {"seat": "ilse", "character": "Ilse", "characteristic": "Sly"})
    assert stakes.fanout.changed() == {cid.hex}


def test_another_process_s_write_wakes_this_one_naming_its_campaign_on_postgresql(stakes: Stakes,
                                                                                    other: Stakes) -> None:
    cid = _campaign(stakes, "Shared")
    stakes.fanout.start()
    if stakes.settings.store == "postgres":
        assert stakes.fanout.listening.wait(10)
    time.sleep(0.6)  # the listener's (or watcher's) own first wake-up, which names none
    before, _ = stakes.fanout.wakes, stakes.fanout.changed()
    other.run(cid, HOUSE, "add-player", {"seat": "ilse", "character": "Ilse", "characteristic": "Sly"})
    _next_wake(stakes, before)
    time.sleep(0.3)
    named = stakes.fanout.changed()
    if stakes.settings.store == "postgres":
        assert named == {cid.hex}  # the NOTIFY's payload
    else:
        assert named is None  # the file changed: whose campaign, the watcher cannot tell
