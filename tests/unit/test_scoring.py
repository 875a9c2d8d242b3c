"""PA-11: the best Yahtzee score of exactly five dice from a side's usable dice."""

from collections import Counter
from itertools import combinations, combinations_with_replacement

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.systems.penny_ante.scoring import best_score, categories


def reference(hand: tuple[int, ...]) -> int:
    """An independent reading of PA-11, written differently on purpose."""
    counts = sorted(Counter(hand).values(), reverse=True)
    faces = set(hand)
    values = [sum(d for d in hand if d == face) for face in range(1, 7)]
    values.append(sum(hand))  # chance
    if counts and counts[0] >= 3:
        values.append(sum(hand))
    if len(hand) == 5 and counts == [3, 2]:
        values.append(25)
    if any({s, s + 1, s + 2, s + 3} <= faces for s in (1, 2, 3)):
        values.append(30)
    if faces in ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6}):
        values.append(40)
    if len(hand) == 5 and counts == [5]:
        values.append(50)
    return max(values)


#: Hand-checked expectations (PA-11).
TABLE = {
    (1, 1, 1, 1, 1): 50, (6, 6, 6, 6, 6): 50, (2, 2, 3, 3, 3): 25, (6, 6, 6, 5, 5): 28,
    (1, 2, 3, 4, 5): 40, (2, 3, 4, 5, 6): 40, (1, 2, 3, 4, 6): 30, (3, 4, 5, 6, 6): 30,
    (1, 1, 2, 2, 3): 9, (6, 6, 6, 6, 1): 25, (1, 1, 1, 2, 2): 25, (5, 5, 5, 5, 6): 26,
    (1, 3, 4, 5, 6): 30, (1, 2, 4, 5, 6): 18, (2, 2, 2, 2, 2): 50, (1, 1, 1, 1, 2): 6,
}


def test_every_multiset_of_five_dice_scores_as_the_reference_reading():
    hands = list(combinations_with_replacement(range(1, 7), 5))
    assert len(hands) == 252
    for hand in hands:
        assert best_score(hand)[0] == reference(hand), hand


@pytest.mark.parametrize(("hand", "expected"), sorted(TABLE.items()))
def test_hand_checked_scores(hand, expected):
    assert best_score(hand)[0] == expected


def test_a_full_house_needs_three_and_two_and_a_yahtzee_is_not_one():
    assert "full house" in categories((2, 2, 3, 3, 3))
    assert "full house" not in categories((4, 4, 4, 4, 4))


@given(st.lists(st.integers(1, 6), min_size=6, max_size=10))
def test_the_best_five_are_chosen_from_six_to_ten_dice(dice):
    score, hand, _ = best_score(dice)
    assert len(hand) == 5
    assert score == max(reference(h) for h in combinations(sorted(dice), 5))


@pytest.mark.parametrize(("dice", "expected", "category"), [
    ([], 0, "nothing"),
    ([6, 6], 12, "6s"),
    ([1, 2, 3, 4], 30, "small straight"),
    ([5, 5, 5], 15, "three of a kind"),
    ([4, 4, 4, 4], 16, "four of a kind"),
    ([3], 3, "3s"),
])
def test_with_fewer_than_five_dice_only_categories_they_can_make_count(dice, expected, category):
    score, hand, name = best_score(dice)
    assert (score, name) == (expected, category) and list(hand) == sorted(dice)


def test_fewer_than_five_dice_never_make_a_full_house_large_straight_or_yahtzee():
    for hand in combinations_with_replacement(range(1, 7), 4):
        assert not {"full house", "large straight", "yahtzee"} & set(categories(hand))
