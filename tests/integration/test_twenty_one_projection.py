"""Twenty-one's read models on both stores: a rebuild from the log equals the incremental read models after a
conflict with a rewind and an overturn, and the sheet forgets rewound actions (C-6)."""

from __future__ import annotations

from domain.seats import Seat
from domain.systems.twenty_one.cards import DECK

HOUSE, ILSE, TOMAS = Seat.house(), Seat("ilse"), Seat("tomas")


def test_a_rebuild_equals_the_incremental_read_models_after_a_conflict(stakes):
    stakes = stakes.service  # the service itself: verbs with raw inputs
    cid = stakes.create_campaign("Cards", "twenty-one", {"table_cards": True}).campaign.id
    for seat in ("ilse", "tomas"):
        stakes.run(cid, HOUSE, "add-player", {"seat": seat, "character": seat.title(), "skills": ["Knives"]})
    stakes.run(cid, HOUSE, "grant-holds", {"seat": "ilse", "count": 2, "skill": "knives"})
    stakes.run(cid, HOUSE, "start-adventure", {})  # C-1: units of resolution happen during an adventure
    unit = stakes.run(cid, HOUSE, "open-conflict", {"characters": ["ilse", "tomas"]}).id
    top = ["10S", "2S", "7S", "9H", "8H", "4H", "5D"]
    stakes.act(cid, HOUSE, unit, {"action": "deal", "deck": [*top, *(x for x in DECK if x not in top)]})
    stakes.act(cid, ILSE, unit, {"action": "lay", "cards": ["10S", "2S"]})
    stakes.act(cid, ILSE, unit, {"action": "hold", "set_aside": True})
    stakes.act(cid, ILSE, unit, {"action": "stand"})
    before = stakes.sheet(cid, ILSE, "ilse")
    assert before.holds == 1 and before.actions[0].outcome == "full"
    stakes.act(cid, TOMAS, unit, {"action": "lay", "cards": ["9H", "8H"]})
    stakes.run(cid, HOUSE, "rewind", {"unit": str(unit), "to_step": 4, "reason": "the ledge gave way",
                                      "reveal": True})  # cards laid face up go back into hands (C-8)
    after = stakes.sheet(cid, ILSE, "ilse")
    assert after.holds == 2 and after.actions == []
    stakes.act(cid, ILSE, unit, {"action": "lay", "cards": ["10S", "7S"]})
    stakes.act(cid, ILSE, unit, {"action": "stand"})
    stakes.act(cid, HOUSE, unit, {"action": "end"})
    stakes.run(cid, HOUSE, "overturn", {"unit": str(unit), "void": True, "reason": "no ledge"})  # C-6: ended, voided
    assert stakes.sheet(cid, TOMAS, "ilse").actions[0].overturned == "no ledge"
    incremental = stakes.views.dump()
    stakes.rebuild()
    assert stakes.views.dump() == incremental
