"""Twenty-one's steps in words (the undo list and the replay, WebBoard.step_words): a deal set off by a player's
seed or pass is not said as if that player dealt (C-10), a replacement says whether it was an assist, a hinder
or a hold (TO-7, TO-13), and a kernel step reads as the kernel says it."""

from __future__ import annotations

from api.web.systems import WebBoard
from api.web.systems.beast import BOARD as BEAST
from api.web.systems.twenty_one import BOARD

NAMES = {"house": "the House", "ilse": "Ilse Varn", "tomas": "Brother Tomas"}.__getitem__


def test_a_deal_set_off_by_a_players_pass_says_whose_cards_and_who_set_it_off_c10():
    assert BOARD.step_words("HandDealt", {"seat": "ilse", "cards": None}, "tomas", NAMES) == (
        "Ilse Varn's cards were dealt (set off by Brother Tomas)")
    # the opening deal and the round's refill say which they were (found on a phone walk: both read as one seat's)
    assert BOARD.step_words("HandDealt", {"seat": "ilse", "why": "deal"}, "tomas", NAMES) == (
        "The opening deal: Ilse Varn's three cards (set off by Brother Tomas, TO-2)")
    assert BOARD.step_words("HandDealt", {"seat": "tomas", "why": "refill"}, "ilse", NAMES) == (
        "The refill at the round's end: Brother Tomas's hand dealt back up to three (TO-9)")
    assert BOARD.step_words("Shuffled", {"slot": ["shuffle", 0]}, "tomas", NAMES) == (
        "The deck was shuffled (set off by Brother Tomas)")


def test_a_replacement_says_what_kind_it_was_to7():
    assert BOARD.step_words("Replaced", {"seat": "tomas", "kind": "hinder", "card": "9H"}, "tomas", NAMES) == (
        "Brother Tomas replaced the last card laid (hinder)")


def test_kernel_steps_read_as_the_kernel_says_them_and_an_unknown_step_by_its_name():
    assert BOARD.step_words("Rewound", {"to_step": 4, "reason": "x"}, "house", NAMES) == (
        "The House undid the table back to step 4")
    assert WebBoard().step_words("SomethingNew", {}, "ilse", NAMES) == "Something new, by Ilse Varn"
    # a field this seat may not read (hidden, C-5) leaves the plain words
    assert BOARD.step_words("HandDealt", {}, "tomas", NAMES) == "Hand dealt, by Brother Tomas"


def test_a_beast_side_that_keeps_its_dice_says_so_and_one_that_rolls_again_says_what_it_spent_be4():
    assert BEAST.step_words("Decided", {"side": "opponent", "reroll": None}, "tomas", NAMES) == (
        "Brother Tomas kept the dice")
    assert BEAST.step_words("Decided", {"side": "opponent", "reroll": {"die": 2}}, "tomas", NAMES) == (
        "Brother Tomas spent Willpower to roll a die again")


def test_a_penny_ante_draw_set_off_by_a_seat_is_said_as_the_dice_of_the_side_it_rolled_not_that_seats_own_c10():
    from api.web.systems.penny_ante import BOARD as PENNY_ANTE

    sides = {"challenger": "Lady Sen", "opponent": "Ilse Varn"}
    assert PENNY_ANTE.step_words("CupRerolled", {"side": "challenger"}, "ilse", NAMES, sides) == (
        "Lady Sen's cup was rerolled (set off by Ilse Varn)")
    assert PENNY_ANTE.step_words("DiceRolled", {"side": "opponent"}, "ilse", NAMES, sides) == (
        "Ilse Varn's dice were rolled (set off by Ilse Varn)")
    assert PENNY_ANTE.step_words("Raised", {"amount": 4}, "tomas", NAMES) == "Brother Tomas raised 4"


def test_a_penny_ante_draw_in_the_verify_panel_says_whose_die_it_is_counting_from_one_pa8():
    """Found on a phone walk: the verify panel's "slot roll · Ilse Varn · 2" was her third die."""
    from api.web.systems.penny_ante import BOARD as PENNY_ANTE

    sides = {"challenger": "Lady Sen", "opponent": "Ilse Varn"}
    assert PENNY_ANTE.slot_words(["roll", "opponent", 2], sides) == "Ilse Varn's die 3, the first roll"
    assert PENNY_ANTE.slot_words(["reroll", "challenger", 0, "fresh", "f"], sides) == (
        "Lady Sen's die 1, the reroll (with the fresh seed)")
    assert PENNY_ANTE.slot_words(["circumstance", 2, "opponent"], sides) == (
        "Ilse Varn's circumstance die, before the reroll")
    assert PENNY_ANTE.slot_words(["something", "else"], sides) is None  # the slot's parts, as they are


def test_a_resolved_action_and_a_lay_made_up_by_the_deck_are_said_in_words():
    """Found on a phone walk: "Mara Quill's action: full", and "laid two cards" when the deck made up the second."""
    from api.web.systems import of

    board, names = of("twenty-one"), {"mara": "Mara Quill"}.__getitem__
    resolved = {"seat": "mara", "outcome": "full", "how": "stood", "total": 18, "targets": {"mixed": 15, "full": 17}}
    said = board.step_words("ActionResolved", resolved, "mara", names)
    assert said == "Mara Quill stood at 18 against 15 / 17: full success", said
    assert board.step_words("CardsLaid", {"seat": "mara", "cards": ["9H"], "drawn": ["4S"]}, "mara", names) == \
        "Mara Quill laid a card, and drew a card to make two (TO-4)"
    assert board.step_words("CardsLaid", {"seat": "mara", "cards": ["9H", "KS"], "drawn": []}, "mara", names) == \
        "Mara Quill laid 2 cards"
