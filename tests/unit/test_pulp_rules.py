"""Pulp in the Cards, ruling by ruling, on the plain rules and the units (PU-1 … PU-9)."""

from __future__ import annotations

from uuid import uuid4

import pytest

from domain.errors import RuleViolation
from domain.systems.pulp_cards import rules
from domain.systems.pulp_cards.deal import PulpDeal

SECRET = "a1" * 32
PICTURES = [f"P{i}" for i in range(1, 8)]


def hand(black: list[str], red: list[str]) -> list[str]:
    return [*black, *red, *PICTURES][:7]


def test_the_deck_is_three_black_four_red_and_seven_pictures_pu1():
    assert len(rules.DECK) == 14 == len(set(rules.DECK))
    assert sorted(rules.points(c) for c in rules.DECK if rules.is_black(c)) == [1, 2, 4]
    assert sorted(rules.points(c) for c in rules.DECK if rules.is_red(c)) == [1, 1, 2, 2]
    pictures = [c for c in rules.DECK if not rules.is_black(c) and not rules.is_red(c)]
    assert len(pictures) == 7 and {rules.points(c) for c in pictures} == {0}


def test_cards_print_as_suits_and_blank_pictures():
    assert rules.faces(["BA", "R21", "P1"]) == "A♠ 2♥ ▢"


def test_the_raw_degree_is_black_points_minus_red_points_pu2():
    assert rules.judge(hand(["B4", "B2"], ["RA1"]), 0)["degree"] == 5
    assert rules.judge(hand([], ["R21", "RA1"]), 0)["degree"] == -3
    assert rules.judge(PICTURES, 0)["degree"] == 0


@pytest.mark.parametrize("difficulty", range(-4, 5))
def test_success_is_a_raw_degree_minus_difficulty_above_zero_and_exactly_zero_fails_pu2(difficulty):
    for raw in range(-4, 5):
        black = {1: ["BA"], 2: ["B2"], 3: ["BA", "B2"], 4: ["B4"]}.get(raw, [])
        red = {-1: ["RA1"], -2: ["R21"], -3: ["R21", "RA1"], -4: ["R21", "R22"]}.get(raw, [])
        result = rules.judge(hand(black, red), difficulty)
        assert result["degree"] == raw and result["net"] == raw - difficulty
        assert result["success"] is (raw - difficulty > 0), (raw, difficulty)


def test_plus_four_is_the_hardest_difficulty_and_minus_four_the_easiest_pu2():
    cards = hand(["B4"], [])  # raw +4
    assert rules.judge(cards, -4)["success"] and not rules.judge(cards, 4)["success"]


@pytest.mark.parametrize("value", [-5, 5, True, "1", 1.5])
def test_a_difficulty_outside_minus_four_to_four_is_refused_pu2(value):
    with pytest.raises(RuleViolation, match="PU-2"):
        rules.difficulty(value)


def test_criticals_and_fumbles_are_judged_on_the_raw_degree_pu3():
    crit = rules.judge(hand(["B4", "BA"], []), 4)  # raw +5, net +1
    assert crit["critical"] and crit["success"] and not crit["fumble"]
    four = rules.judge(hand(["B4"], []), -4)  # raw +4 with the easiest difficulty: net 8, no critical
    assert four["success"] and not four["critical"]
    fumble = rules.judge(hand([], ["R21", "R22", "RA1"]), -4)  # raw -5
    assert fumble["fumble"] and not fumble["success"]
    assert not rules.judge(hand([], ["R21", "R22"]), 4)["fumble"]  # raw -4, net -8: a failure, no fumble


def test_a_resistance_deal_reads_from_both_sides_pu4_pu8():
    overcome = rules.judge(hand(["B4"], []), 1)  # the poison works
    resisted = rules.judge(hand(["BA"], ["R21"]), 0)  # the poison fails
    assert rules.outcome_words("resistance", overcome).startswith("the action on the character succeeds")
    assert "does not resist" in rules.outcome_words("resistance", overcome)
    assert "the character resists" in rules.outcome_words("resistance", resisted)
    assert rules.outcome_words("standard", overcome) == "success"


def test_a_cut_moves_the_top_k_cards_under_the_rest_pu7():
    assert rules.cut(list("abcdef"), 2) == list("cdefab")
    for bad in (0, 14, True):
        with pytest.raises(RuleViolation, match="PU-7"):
            rules.cut_value(bad)


def deck(*top: str) -> list[str]:
    return [*top, *[c for c in rules.DECK if c not in top]]


def test_initiative_totals_two_cards_plus_advantage_highest_first_pu5():
    # round-robin: a gets B4, b gets BA, a gets P1, b gets B2
    dealt = rules.deal_initiative(["a", "b"], {"a": 0, "b": 2}, deck("B4", "BA", "P1", "B2"))
    assert dealt["totals"] == {"a": 4, "b": 5} and dealt["order"] == ["b", "a"] and dealt["used"] == 4


def test_tied_combatants_get_one_more_card_compared_with_the_same_advantage_pu9():
    # a: BA+P1 = 1, b: P2+RA1 = 1 -> tied; then a gets P3 (0), b gets R21 (2)
    dealt = rules.deal_initiative(["a", "b"], {}, deck("BA", "P2", "P1", "RA1", "P3", "R21"))
    assert dealt["order"] == ["b", "a"] and dealt["used"] == 6
    with_adv = rules.deal_initiative(["a", "b"], {"a": 3, "b": 3}, deck("BA", "P2", "P1", "RA1", "P3", "R21"))
    assert with_adv["order"] == ["b", "a"]  # the same advantage on both sides changes nothing


def test_ties_are_dealt_again_and_again_pu9():
    # a, b tie at 0; then both draw pictures (tie again); then a draws B2 and b a picture
    dealt = rules.deal_initiative(["a", "b"], {}, deck("P1", "P2", "P3", "P4", "P5", "P6", "B2", "P7"))
    assert dealt["order"] == ["a", "b"] and dealt["used"] == 8 and dealt["by_name"] == []


def test_a_tied_group_keeps_its_place_and_higher_groups_settle_first_pu9():
    # c leads with 6; a and b tie at 0 below him; a's tie card RA1 beats b's picture
    dealt = rules.deal_initiative(["a", "b", "c"], {}, deck("P1", "P2", "B4", "P3", "P4", "B2", "RA1", "P5"))
    assert dealt["order"] == ["c", "a", "b"]
    # a, b tie at 2 above c, d tied at 0: the higher group takes the next cards first
    dealt = rules.deal_initiative(["a", "b", "c", "d"], {}, deck("B2", "R21", "P1", "P2", "P3", "P4", "P5", "P6",
                                                                 "BA", "P7", "RA1", "B4"))
    assert dealt["order"] == ["a", "b", "d", "c"]
    assert dealt["dealt"][8] == ["a", "BA", 2] and dealt["dealt"][11] == ["d", "B4", 2]


def test_when_the_deck_runs_out_ties_go_by_name_case_insensitively_pu9():
    names = ["zed", "Amy", "bob", "Cy", "dan", "eve", "fay"]  # seven combatants take all 14 cards
    only_pictures_and_pairs = deck("P1", "P2", "P3", "P4", "P5", "P6", "P7", "BA", "RA1", "RA2", "B2", "R21",
                                   "R22", "B4")
    dealt = rules.deal_initiative(names, {}, only_pictures_and_pairs)
    assert dealt["used"] == 14
    assert dealt["by_name"] and all(group == sorted(group, key=str.casefold) for group in dealt["by_name"])


def test_an_advantage_is_zero_or_one_to_four_pu9():
    for bad in (5, -1, True):
        with pytest.raises(RuleViolation, match="PU-9"):
            rules.advantage(bad)


def deal(**kw):
    base = dict(campaign_id=uuid4(), adventure=1, seat="ilse", character="Ilse", kind="standard", difficulty=0,
                cut=None, seed=None, secret_seed=SECRET, table=False, entered=None, actor="ilse")
    return PulpDeal.deal(**{**base, **kw})


def test_a_dealers_cut_is_recorded_and_a_missing_one_is_drawn_for_the_slot_pu7_c4():
    given = deal(cut=5)
    assert given.cut == 5 and given.cut_by == "dealer"
    drawn = deal()
    assert drawn.cut_by == "drawn" and 1 <= drawn.cut <= 13 and drawn.rolls[0]["slot"] == ["deal", "cut"]
    for one in (given, drawn):
        one.show_deal("ilse", "ilse")
        report = one.verify()
        assert report["verifiable"] and report["mismatches"] == []


def test_verify_finds_a_hand_that_does_not_follow_from_the_seeds_c4():
    one = deal(cut=3)
    one.show_deal("ilse", "ilse")
    one.hands = [{**one.hands[0], "cards": list(reversed(one.hands[0]["cards"]))}]
    assert one.verify()["mismatches"]


def test_only_the_dealer_shows_and_only_once_c5():
    one = deal()
    with pytest.raises(RuleViolation, match="C-5"):
        one.show_deal("tomas", "tomas")
    one.show_deal("ilse", "ilse")
    with pytest.raises(RuleViolation, match="C-5"):
        one.show_deal("ilse", "ilse")
