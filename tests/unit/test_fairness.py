"""C-3, C-4, C-7: provably fair results addressed by slot, and hand-entered results."""

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.cards import verify_entered_cards
from domain.dice import verify_entered_dice
from domain.errors import RuleViolation
from domain.fairness import commitment, derive_die, derive_int, derive_shuffle
from domain.systems.pulp_cards.rules import POINTS as PULP_14
from domain.systems.twenty_one.cards import DECK as STANDARD_52

SECRET = "a" * 64


def test_the_commitment_is_the_sha256_of_the_secret():
    assert commitment("seed") == "19b25856e1c150ca834cffc8b59b23adbd0ec0389e58eb22b3b64768098d002b"


def test_the_same_slot_always_yields_the_same_die_c7():
    slot = ("roll", "challenger", 3)
    assert derive_die(SECRET, ["ilse"], slot) == derive_die(SECRET, ["ilse"], list(slot))


def test_a_side_seed_changes_the_results_c4():
    slots = [("roll", "challenger", i) for i in range(20)]
    assert [derive_die(SECRET, ["x"], s) for s in slots] != [derive_die(SECRET, ["y"], s) for s in slots]


@given(st.integers(min_value=1, max_value=1000), st.lists(st.integers(), max_size=3))
def test_a_derived_integer_is_always_in_range(upper, slot):
    assert 0 <= derive_int(SECRET, [], slot, upper) < upper


def test_dice_are_roughly_uniform():
    counts = Counter(derive_die(SECRET, [], ("roll", i)) for i in range(6000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(850 < n < 1150 for n in counts.values())


def test_a_shuffle_is_a_permutation_of_the_deck():
    for deck in (STANDARD_52, tuple(PULP_14)):
        shuffled = derive_shuffle(SECRET, ["a", "b"], ("shuffle", 1), deck)
        assert sorted(shuffled) == sorted(deck) and shuffled != list(deck)


def test_entered_dice_show_one_to_six_in_the_right_count_c3():
    assert verify_entered_dice([1, 6, 3], count=3) == [1, 6, 3]
    with pytest.raises(RuleViolation, match="C-3: expected 3 dice"):
        verify_entered_dice([1, 2], count=3)
    with pytest.raises(RuleViolation, match="C-3: a d6 shows 1 to 6"):
        verify_entered_dice([0, 2, 7], count=3)


def test_an_entered_card_exists_and_is_not_already_out_c3():
    assert verify_entered_cards(["AS"], STANDARD_52) == ["AS"]
    with pytest.raises(RuleViolation, match="C-3.*not one of the cards"):
        verify_entered_cards(["1X"], STANDARD_52)
    with pytest.raises(RuleViolation, match="C-3.*already out"):
        verify_entered_cards(["AS"], STANDARD_52, out=["AS"])


def test_the_pulp_deck_has_fourteen_cards_pu1():
    assert len(PULP_14) == 14 and sum(PULP_14.values()) == 1 + 2 + 4 + 1 + 1 + 2 + 2
