"""The stream notifier's pace (issue 32): a move at a quiet table goes out at once, moves arriving faster than a
pass over every stream allows go out together in the next pass, a wake-up that comes while the notifier is
busy is never lost (it used to wait for the next move, or the two-second poll), and a pass reads only the
campaigns whose log grew (a busy table does not make the notifier read every other followed campaign)."""
from __future__ import annotations

import asyncio
import time
from types import SimpleNamespace
from uuid import uuid4

from adapters.fanout import Fanout
from api import stream


def test_a_wake_up_while_nobody_waits_is_not_lost() -> None:
    fanout = Fanout(SimpleNamespace(store="sqlite"))
    seen = fanout.wakes
    fanout.wake()  # a move stored while the notifier was busy with the last one
    began = time.monotonic()
    assert asyncio.run(fanout.wait(5.0, seen)) is True
    assert time.monotonic() - began < 0.5
    assert asyncio.run(fanout.wait(0.05, fanout.wakes)) is False  # nothing new since: it waits


class PacedHub(stream.Hub):
    """A hub whose pass over a campaign takes ``PASS`` seconds and records when it ran."""

    PASS = 0.02

    def __init__(self, campaigns: int = 1) -> None:
        super().__init__(SimpleNamespace(settings=SimpleNamespace(), fanout=Fanout(SimpleNamespace(store="sqlite"))))
        self.passes: list[float] = []
        self.read: list[object] = []
        self.subscribers = {uuid4(): {object()} for _ in range(campaigns)}  # type: ignore[misc]

    async def _campaign(self, campaign_id: object) -> None:
        self.passes.append(time.monotonic())
        self.read.append(campaign_id)
        await asyncio.sleep(self.PASS)  # a thousand streams written to

    async def _read(self, fn: object, *args: object) -> None:
        return None


def test_moves_arriving_during_a_pass_go_out_together_in_one_later_pass_and_a_quiet_table_at_once() -> None:
    async def story() -> PacedHub:
        hub = PacedHub()
        task = asyncio.get_running_loop().create_task(hub._run())
        await asyncio.sleep(0.2)  # its first pass, then quiet
        hub.passes.clear()
        woken = time.monotonic()
        hub.fanout.wake()  # a move at a quiet table
        await asyncio.sleep(0.005)
        assert hub.passes and hub.passes[0] - woken < 0.01  # out at once
        for _ in range(3):  # three more moves while that pass runs
            hub.fanout.wake()
            await asyncio.sleep(0.002)
        await asyncio.sleep(0.3)
        hub.subscribers = {}
        hub.fanout.wake()
        await asyncio.wait_for(task, 5)
        return hub

    hub = asyncio.run(story())
    first, second = hub.passes[0], hub.passes[1]
    # the three moves: one pass, not three, and not before the notifier's share of the time allows
    assert len([p for p in hub.passes if p - first < 0.3]) == 2
    assert second - first >= min(PacedHub.PASS / stream.Hub.SHARE, stream.Hub.SPACING) * 0.9


def test_a_pass_reads_only_the_campaigns_whose_log_grew_and_every_one_when_it_cannot_tell() -> None:
    async def story() -> tuple[object, list[list[object]]]:
        hub = PacedHub(campaigns=2)
        hub.PASS, hub.SHARE = 0.0, 1.0  # no pacing here
        busy, quiet = list(hub.subscribers)
        task = asyncio.get_running_loop().create_task(hub._run())
        await asyncio.sleep(0.05)  # its first pass reads every campaign (what came while it started)
        assert sorted(hub.read, key=str) == sorted([busy, quiet], key=str)
        seen: list[list[object]] = []
        for campaigns in ({busy.hex}, {busy.hex}, None):  # two moves at one table, then a wake naming none
            hub.read.clear()
            hub.fanout.published(campaigns)
            await asyncio.sleep(0.05)
            seen.append(sorted(hub.read, key=str))
        hub.subscribers = {}
        hub.fanout.wake()
        await asyncio.wait_for(task, 5)
        return busy, seen

    busy, seen = asyncio.run(story())
    assert seen[0] == seen[1] == [busy]  # the quiet campaign's log is not read
    assert len(seen[2]) == 2  # another process's write, a revocation: every followed campaign


def test_a_wake_up_names_the_campaigns_it_is_for_until_the_notifier_takes_them() -> None:
    fanout = Fanout(SimpleNamespace(store="sqlite"))
    fanout.published({"a"})
    fanout.published({"b"})
    assert fanout.changed() == {"a", "b"} and fanout.changed() == set()
    fanout.published({"a"})
    fanout.wake()  # names none: any campaign may have grown
    fanout.published({"b"})
    assert fanout.changed() is None and fanout.changed() == set()


def test_after_a_pass_that_failed_the_next_reads_every_campaign_so_none_waits_for_the_poll() -> None:
    """A store outage in the middle of a pass: the campaigns it had taken to read are named by no later
    wake-up, so the next pass reads every followed campaign (on a busy server the poll may never come)."""
    class Failing(PacedHub):
        failed = False

        async def _campaign(self, campaign_id: object) -> None:
            if not self.failed:
                self.failed = True
                raise OSError("the store went away")
            await super()._campaign(campaign_id)

    async def story() -> tuple[object, object, list[object]]:
        hub = Failing(campaigns=2)
        hub.PASS, hub.SHARE = 0.0, 1.0
        busy, quiet = list(hub.subscribers)
        task = asyncio.get_running_loop().create_task(hub._run())  # its first pass fails
        await asyncio.sleep(0.05)
        hub.read.clear()
        hub.fanout.published({quiet.hex})  # a move at the other table
        await asyncio.sleep(0.05)
        read = list(hub.read)
        hub.subscribers = {}
        hub.fanout.wake()
        await asyncio.wait_for(task, 5)
        return busy, quiet, read

    busy, quiet, read = asyncio.run(story())
    assert sorted(read, key=str) == sorted([busy, quiet], key=str)
