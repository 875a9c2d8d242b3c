"""Twenty-one's card arithmetic, ruling by ruling (TO-3 … TO-6, TO-10, TO-15)."""

from __future__ import annotations

import pytest

from domain.errors import RuleViolation
from domain.systems.twenty_one import cards as c


def test_an_ace_counts_eleven_while_that_keeps_the_total_at_21_or_less():  # TO-4, TO-10
    assert c.total(["AS", "7H"]) == 18
    assert c.total(["AS", "7H", "5D"]) == 13


def test_several_aces_count_eleven_only_once():  # TO-10
    assert c.total(["AS", "AH"]) == 12
    assert c.total(["AS", "AH", "AD", "AC"]) == 14
    assert c.total(["AS", "AH", "9D"]) == 21
    assert c.total(["AS", "AH", "KD", "9C"]) == 21


def test_pictures_count_ten_and_numbers_their_number():  # TO-4
    assert c.total(["KS", "QH", "JD"]) == 30
    assert c.total(["10S", "2H"]) == 12


def test_two_minus_one_modifiers_make_the_targets_13_and_15():  # TO-6
    assert c.targets([-1, -1]) == {"mixed": 13, "full": 15}
    assert c.targets([]) == {"mixed": 15, "full": 17}
    assert c.targets([1, 1, -1]) == {"mixed": 16, "full": 18}


def test_standing_reads_the_total_against_the_targets():  # TO-4
    aims = c.targets([])
    assert [c.outcome(t, aims) for t in (14, 15, 16, 17, 21, 22)] == ["fail", "mixed", "mixed", "full", "full",
                                                                        "fail"]


def test_a_natural_is_21_from_the_two_cards_laid_first():  # TO-5, TO-11
    assert c.natural(["AS", "KH"]) and c.natural(["10D", "AC"])
    assert not c.natural(["AS", "9H"]) and not c.natural(["7S", "7H", "7D"])


def test_a_king_two_nines_and_a_five_play_king_five_then_the_nines():  # TO-3, TO-15
    first, ties = c.play_order({"p1": "KS", "p2": "9H", "p3": "9D", "p4": "5C"}, ["p1", "p2", "p3", "p4"])
    assert first == ["p1", "p4"] and ties == [["p2", "p3"]]


def test_aces_are_high_and_suits_do_not_count_for_the_order():  # TO-3
    first, ties = c.play_order({"a": "AS", "b": "KS", "c": "2H", "d": "AD"}, ["a", "b", "c", "d"])
    assert first == ["b", "c"] and ties == [["a", "d"]]


@pytest.mark.parametrize("typed, code", [("KH", "KH"), ("k♥", "KH"), ("10h", "10H"), ("Th", "10H"), (" a♠ ", "AS")])
def test_cards_are_read_as_typed_at_the_table(typed, code):
    assert c.card(typed) == code
    assert c.pretty(code) in {"K♥", "10♥", "A♠"} and c.pretty(code, plain=True) == code


@pytest.mark.parametrize("typed", ["1H", "KX", "", "11S", 5, None, True])
def test_a_card_not_of_the_deck_is_refused(typed):  # C-3
    with pytest.raises(RuleViolation) as refused:
        c.card(typed)
    assert refused.value.ruling == "C-3"
