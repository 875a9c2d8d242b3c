"""The CLI's phrases name the table (cli/systems/__init__.py ``Said``): what no random game reaches."""

from __future__ import annotations

from cli.systems import Said
from cli.systems.beast import unit_phrase as beast_phrase
from cli.systems.penny_ante import challenge_phrase

NAMES = {"house": "the House", "ilse": "Ilse Varn"}


def test_an_antagonist_named_like_a_seat_is_shown_by_its_own_name_never_as_that_seats_character():
    said = Said(names=NAMES)
    announced = {"challenger": {"kind": "antagonist", "members": ["ilse"]},
                 "opponent": {"kind": "character", "members": ["ilse"]}, "ante": 1}
    assert challenge_phrase("Announced", announced, said) == "ilse challenges Ilse Varn, ante 1"
    assert challenge_phrase("Checked", {"side": "opponent"}, said) == "Ilse Varn checks"


def test_a_side_whose_unit_opened_before_the_page_is_said_by_its_role():
    assert challenge_phrase("Raised", {"side": "challenger", "amount": 2}, Said(names=NAMES)) == \
        "The challenger raises 2"


def test_a_beast_outcome_hidden_from_the_seat_is_not_said_to_be_a_tie():
    said = Said(names=NAMES)
    assert beast_phrase("Resolved", {}, said) == "Resolved (the outcome is hidden until it is settled)"
    assert beast_phrase("Resolved", {"outcome": {"winner": None}}, said) == "A tie"


def test_a_seed_given_is_shown_as_typed_under_its_phrase():
    said = Said(names=NAMES)
    said.sides({"challenger": "Ilse Varn", "opponent": "Lady Sen"})
    assert challenge_phrase("SeedAdded", {"side": "challenger", "seed": "for the necklace"}, said) == \
        "Ilse Varn gives a seed\nseed for the necklace"
