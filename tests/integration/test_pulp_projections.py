"""Pulp's read models on both stores: a rebuild equals the incremental projection, and the sheets follow a
rewind (marked, C-8) and an overturn (void, C-6)."""

from __future__ import annotations

import pytest

from domain.errors import RuleViolation
from domain.seats import Seat

HOUSE, ILSE = Seat.house(), Seat("ilse")


def play(stakes):
    cid = stakes.create_campaign("Pulp night", "pulp-cards").campaign.id
    stakes.run(cid, HOUSE, "add-player", seat="ilse", character="Ilse")
    stakes.start_adventure(cid, HOUSE)  # C-1: units of resolution happen during an adventure
    deal = stakes.run(cid, ILSE, "deal", difficulty=1, cut=3).id
    stakes.act(cid, ILSE, deal, {"action": "show"})
    stakes.run(cid, HOUSE, "add-note", note="lost an arm", to="ilse", kind="condition")
    combat = stakes.run(cid, HOUSE, "open-combat", combatants=["ilse", "Sheriff Cole"]).id
    stakes.act(cid, HOUSE, combat, {"action": "initiative"})  # called (C-10) ...
    stakes.act(cid, ILSE, combat, {"action": "pass"})  # ... and dealt with the players' pass
    for _ in range(2):
        up = stakes.challenge(cid, HOUSE, combat).state["up"]
        seat = ILSE if up == "Ilse" else HOUSE
        stakes.act(cid, seat, combat, {"action": "attack", **({"cut": 2} if seat == ILSE else {})})  # C-9
        if seat == HOUSE:  # the House's attack is its choice: dealt with the players' fresh seed (C-9, C-10)
            stakes.act(cid, ILSE, combat, {"action": "seed", "seed": "fresh words"})
        stakes.act(cid, seat, combat, {"action": "show"})
    return cid, deal, combat


def test_a_pulp_rebuild_equals_the_incremental_read_models(stakes):
    cid, deal, combat = play(stakes)
    stakes.run(cid, HOUSE, "rewind", unit=str(combat), to_step=4, reason="misread")  # C-10: call, pass+deal
    stakes.run(cid, HOUSE, "overturn", unit=str(deal), void=True, reason="wrong skill")
    incremental = stakes.views.dump()
    stakes.rebuild()
    assert stakes.views.dump() == incremental


def test_the_sheet_follows_a_rewind_and_an_overturn_c6_c8(stakes):
    cid, deal, combat = play(stakes)
    sheet = stakes.sheet(cid, ILSE)
    assert sheet.conditions == ["lost an arm"] and len(sheet.deals) == 2  # the deal and Ilse's attack
    stakes.run(cid, HOUSE, "rewind", unit=str(combat), to_step=4, reason="misread")  # the initiative dealt
    stakes.run(cid, HOUSE, "overturn", unit=str(deal), void=True, reason="wrong skill")
    lines = {(d.kind, d.void, d.seen_before_the_rewind) for d in stakes.sheet(cid, ILSE).deals}
    assert lines == {("attack", False, True), ("standard", True, False)}


def test_an_ended_combat_is_overturned_its_attacks_stay_on_the_sheet_marked_void_c6(stakes):
    cid, _deal, combat = play(stakes)
    with pytest.raises(RuleViolation, match="C-6: only an ended combat is overturned; rewind an open one"):
        stakes.run(cid, HOUSE, "overturn", unit=str(combat), void=True, reason="too soon")
    stakes.act(cid, HOUSE, combat, {"action": "end", "reason": "Cole ran"})
    with pytest.raises(RuleViolation, match="C-6: a pulp-cards campaign has no winner to name in an overturn"):
        stakes.run(cid, HOUSE, "overturn", unit=str(combat), winner="challenger", reason="x")
    stakes.run(cid, HOUSE, "overturn", unit=str(combat), void=True, reason="the sheriff was never there")
    assert stakes.challenge(cid, ILSE, combat).state["overturned"] == {"reason": "the sheriff was never there",
                                                                      "void": True}
    attacks = [d for d in stakes.sheet(cid, ILSE).deals if d.kind == "attack"]
    assert attacks and all(d.void for d in attacks)
    with pytest.raises(RuleViolation, match="C-6: this combat was overturned already"):
        stakes.run(cid, HOUSE, "overturn", unit=str(combat), void=True, reason="again")
    incremental = stakes.views.dump()
    stakes.rebuild()
    assert stakes.views.dump() == incremental
