"""The Pool board's own arithmetic and names (issue 31): the costs a sheet offers are PL-5's, the dice a total
counts are PL-2's, and units are named by their characters, never by their classes."""

from __future__ import annotations

from api.web.systems import of
from api.web.systems import pool as board


def test_the_sheet_offers_pl5s_escalating_costs_and_only_what_the_pool_can_pay():
    sheet = {"pool": 7, "traits": {"patient": 1, "lucky": 1, "knives": 1}}
    assert board.new_trait_cost(sheet) == 2 + 3  # three traits at +1 already (PL-5)
    offers = {o["name"]: o for o in board.trait_offers(sheet)}
    assert offers["patient"]["raise"] == 5 and offers["patient"]["affordable"]  # no other trait at +2
    assert board.trait_offers({"pool": 6, "traits": {"brave": 1}})[0]["affordable"] is False  # 6 - 5 = 1 < 2
    top = board.trait_offers({"pool": 30, "traits": {"stubborn": 3}})[0]
    assert top["raise"] is None and not top["affordable"]  # +3 is the highest rating


def test_a_total_counts_the_two_highest_dice():
    assert board.counted([3, 6, 2, 6, 5]) == {1, 3}
    assert board.counted([4, 4, 4]) == {0, 1}
    assert board.counted([2]) == {0}


def test_units_are_named_by_their_characters_in_lists_and_at_their_tables():
    names = {"mara": "Mara Quill", "tom": "Tom Reyes", "house": "the House"}
    pool = of("pool")
    assert pool is board.BOARD
    assert pool.unit_title({"kind": "PoolRoll", "challenger": ["mara"], "opponent": []}, names) == "Mara Quill's roll"
    assert pool.unit_title({"kind": "PoolContest", "challenger": ["tom"], "opponent": ["mara"]}, names) == \
        "Tom Reyes against Mara Quill"
    assert pool.unit_title({"kind": "roll", "roller": "tom"}, names) == "Tom Reyes's roll"
    # a list's line says the roll's total and outcome (its summary row): two rolls waiting for a choice read apart
    assert pool.unit_title({"kind": "PoolRoll", "challenger": ["mara"], "opponent": [],
                            "summary": {"count": 3, "total": 11, "outcome": "full"}}, names) == \
        "Mara Quill's roll: 11, a full success"
    contest = {"kind": "contest", "sides": {"challenger": {"seat": "mara"}, "opponent": {"seat": "tom"}}}
    assert pool.unit_title(contest, names) == "Mara Quill against Tom Reyes"


def test_help_offered_to_a_seat_is_listed_only_within_the_helpers_floor():
    sheets = [{"seat": "mara", "name": "Mara Quill", "pool": 10, "help_offer": {"to": "tom", "dice": 3}},
              {"seat": "ben", "name": "Ben", "pool": 3, "help_offer": {"to": "tom", "dice": 2}},  # spent below 2 since
              {"seat": "tom", "name": "Tom Reyes", "pool": 4, "help_offer": None}]
    assert board.help_for("tom", sheets) == [{"seat": "mara", "name": "Mara Quill", "dice": 3}]  # PL-7, PL-9
    assert board.help_for("mara", sheets) == []


def test_the_undo_list_and_the_replay_say_each_step_with_its_dice_and_answers():
    """Found on a phone walk: "Answered, by Tom Reyes" for a push, "Rolled, by Mara Quill" with no round or
    outcome. The fields read are the events' own (the contest's and the roll's ``Rolled``, ``Answered``,
    ``Chosen``, ``TieBroken``)."""
    from domain.systems.pool.rolls import PoolContest, PoolRoll

    names = {"mara": "Mara Quill", "tom": "Tom Reyes", "house": "the House"}.__getitem__
    sides = {"challenger": "Mara Quill", "opponent": "Tom Reyes"}
    pool = of("pool")
    rolled = {"side": "opponent", "round": 2, "count": 4, "total": 8, "outcome": "mixed"}
    assert set(rolled) <= set(PoolContest.Rolled.__annotations__)
    assert pool.step_words("Rolled", rolled, "tom", names, sides) == \
        "Tom Reyes rolled 4 dice in round 2: 8, a success with a complication"
    single = {"count": 3, "total": 11, "outcome": "full"}
    assert set(single) <= set(PoolRoll.Rolled.__annotations__)
    assert pool.step_words("Rolled", single, "mara", names, sides) == "Mara Quill rolled 3 dice: 11, a full success"
    assert pool.step_words("Answered", {"side": "opponent", "answer": "push"}, "tom", names, sides) == \
        "Tom Reyes pushed on in the stalemate (PL-8)"
    assert pool.step_words("Answered", {"side": "challenger", "answer": "fold"}, "mara", names, sides) == \
        "Mara Quill folded in the stalemate (PL-8)"
    assert pool.step_words("Chosen", {"choice": "house"}, "mara", names, sides) == \
        "Mara Quill let the House narrate the hit, for 1 die (PL-4)"
    assert pool.step_words("TieBroken", {"decision": "reroll"}, "house", names, sides) == \
        "The House asked both sides to roll again (PL-8)"
    assert pool.step_words("Opened", {}, "mara", names, sides) == "Mara Quill opened the contest"
