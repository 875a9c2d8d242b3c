"""Each process keeps aggregates in memory (``Settings.aggregate_cache``, issue 15). A cached aggregate is
brought up to date from the store before each command, so what another process stored meanwhile counts."""

from __future__ import annotations

from uuid import UUID

from adapters.service import Stakes
from domain.errors import RuleViolation
from domain.seats import Seat

HOUSE, ILSE = Seat.house(), Seat("ilse")


def test_a_cached_aggregate_counts_what_another_process_stored_after_it(settings) -> None:
    first, second = Stakes(settings), Stakes(settings)  # two processes: two caches, one store
    try:
        assert first.app.repository.cache is not None  # on by default
        cid = first.create_campaign("Cached", "penny-ante", {"starting_pile": 100}).campaign.id
        first.run(cid, HOUSE, "add-player", {"seat": "ilse", "character": "Ilse", "characteristic": "Whip"})
        first.run(cid, ILSE, "buy-characteristic", {"name": "Nerve"})  # the first process caches Ilse
        second.run(cid, ILSE, "buy-characteristic", {"name": "Luck"})  # the second writes behind its back
        sheet = first.run(cid, ILSE, "buy-characteristic", {"name": "Grit"})  # no conflict: it caught up
        assert [c.name for c in sheet.characteristics] == ["Whip", "Nerve", "Luck", "Grit"]
        assert first.sheet(cid, ILSE).model_dump() == second.sheet(cid, ILSE).model_dump()
    finally:
        first.close()
        second.close()


def test_a_refused_command_leaves_the_cached_aggregate_as_it_was(settings) -> None:
    stakes = Stakes(settings)
    cid = stakes.create_campaign("Cached", "penny-ante", {"starting_pile": 25}).campaign.id
    stakes.run(cid, HOUSE, "add-player", {"seat": "ilse", "character": "Ilse", "characteristic": "Whip"})
    refused = None
    for n in range(30):  # until her pile cannot pay for one more (PA-2)
        try:
            stakes.run(cid, ILSE, "buy-characteristic", {"name": f"Trick {n}"})
        except RuleViolation as exc:
            refused = exc
            break
    assert refused is not None
    character = UUID(stakes.app.campaign(cid).players["ilse"])
    fresh = Stakes(stakes.settings.model_copy(update={"aggregate_cache": 0}))  # the store's truth, uncached
    try:
        assert fresh.app.repository.cache is None
        cached, stored = stakes.app.repository.get(character), fresh.app.repository.get(character)
        assert (cached.version, cached.pile, cached.characteristics) == \
            (stored.version, stored.pile, stored.characteristics)
    finally:
        fresh.close()
        stakes.close()
