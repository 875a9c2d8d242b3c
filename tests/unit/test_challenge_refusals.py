"""Every illegal challenge move is refused, names its ruling, and stores nothing."""

from __future__ import annotations

import pytest

from domain.errors import NotFound, NotPermitted, RuleViolation
from tests.unit.challenge_game import Game
from tests.unit.conftest import new_app
from tests.unit.test_challenges import ILSE, SEN, TOMAS, open_round


@pytest.fixture
def game() -> Game:
    g = Game(new_app())
    g.announce("house", SEN, ILSE, 2)
    return g


@pytest.fixture
def betting(game: Game) -> Game:
    open_round(game, "house", "ilse", first_traits=["Poison"])
    return game


def refused(game: Game, seat: str, action: str, match: str, error=RuleViolation, **args) -> None:
    before = game.events()
    with pytest.raises(error, match=match):
        game.act(seat, action, **args)
    assert game.events() == before


def test_acting_out_of_turn_is_refused(betting):
    refused(betting, "ilse", "check", "PA-9: it is the challenger's turn")


def test_a_raise_must_be_a_multiple_of_the_ante(betting):
    refused(betting, "house", "raise", "PA-9: a raise is a whole multiple of the ante", amount=3)


def test_a_check_facing_a_raise_is_refused(betting):
    betting.act("house", "raise", amount=2)
    refused(betting, "ilse", "check", "PA-9: a check needs equal wagers")


def test_a_bet_above_the_pile_is_refused(betting):
    betting.act("house", "check")
    refused(betting, "ilse", "raise", "PA-9: a bet of 40 is above", amount=40)


def test_a_challenge_the_house_issues_without_naming_a_stake_devotes_the_antagonists_whole_purse_pa17():
    game = Game(new_app())
    game.announce("house", SEN, ILSE, 1)
    assert game.state.stake == game.pile("Lady Sen") == 40  # all it holds (the ante is paid at the roll)
    open_round(game, "house", "ilse")
    game.act("house", "check")
    game.act("ilse", "raise", amount=20)
    refused(game, "house", "all-in", "PA-17: the House cannot go all-in")


def test_the_house_cannot_go_all_in_in_an_indirect_challenge():
    game = Game(new_app())
    game.announce("house", SEN, ILSE, 1, stake=3)
    open_round(game, "house", "ilse")
    game.act("house", "check")
    game.act("ilse", "raise", amount=10)
    refused(game, "house", "all-in", "PA-17: the House cannot go all-in")


def test_a_second_circumstance_in_one_step_is_refused(game):
    game.act("house", "circumstance", text="A dark alley")
    refused(game, "house", "circumstance", "PA-7: a side declares at most one circumstance", text="Later")


def test_more_than_five_characteristics_are_refused(game):
    refused(game, "house", "declare", "PA-8: a side names at most 5", characteristics=list("abcdef"))


def test_a_characteristic_not_on_the_sides_list_is_refused(game):
    refused(game, "house", "declare", "PA-8: 'Flight' is not on this side's list", characteristics=["Flight"])


def test_the_challenger_declares_characteristics_first(game):
    refused(game, "ilse", "declare", "PA-8: the challenger declares characteristics first", characteristics=[])


def test_a_double_down_without_the_pennies_is_refused():
    game = Game(new_app())
    game.announce("ilse", ILSE, TOMAS, 1)
    open_round(game, "ilse", "tomas")
    game.act("ilse", "raise", amount=20)
    game.act("tomas", "call")  # both have 21 in; Ilse holds 4
    refused(game, "ilse", "double-down", "PA-13: doubling down costs 21 pennies", text="Rooftops")


def test_a_double_down_comes_only_with_the_second_circumstance(game):
    refused(game, "ilse", "double-down", "PA-13: a side doubles down only when declaring its second", text="Early")


def test_a_loan_above_the_lenders_pile_is_refused(betting):
    refused(betting, "tomas", "lend", "PA-14: a loan is at most the lender's pile", borrower="ilse", amount=31)


def test_a_second_loan_by_one_lender_in_one_round_is_refused(betting):
    betting.act("tomas", "lend", borrower="ilse", amount=1)
    refused(betting, "tomas", "lend", "PA-14: each player offers one loan per betting round", borrower="ilse",
            amount=1)


def test_a_party_to_the_challenge_cannot_lend_into_it(betting):
    refused(betting, "ilse", "lend", "PA-14: only players outside", borrower="ilse", amount=1)


def test_loans_are_offered_only_during_a_betting_round(game):
    refused(game, "tomas", "lend", "PA-14", borrower="ilse", amount=1)


def test_a_bid_by_a_party_to_the_challenge_is_refused():
    from tests.unit.test_challenges import bankrupt_ilse

    game = Game(new_app())
    bankrupt_ilse(game)
    refused(game, "tomas", "bid", "PA-15: only players outside the challenge bid", member="ilse", amount=1)
    refused(game, "mara", "bid", "PA-15: a bid of 31 is more than the bidder's pile", member="ilse", amount=31)


def test_nothing_is_played_after_settlement(betting):
    betting.act("house", "fold")
    for action, args in (("check", {}), ("raise", {"amount": 2}), ("roll", {}), ("circumstance", {"text": "x"})):
        refused(betting, "ilse", action, "C-1: the challenge is settled", **args)
    refused(betting, "tomas", "lend", "C-1: the challenge is settled", borrower="ilse", amount=1)


def test_a_seat_plays_only_for_its_own_side(betting):
    refused(betting, "tomas", "check", "PA-5: only the seats of a side", error=NotPermitted)
    refused(betting, "ilse", "raise", "PA-9: it is the challenger's turn", amount=2)


def test_an_ante_below_one_penny_is_refused():
    game = Game(new_app())
    with pytest.raises(RuleViolation, match="PA-6"):
        game.announce("house", SEN, ILSE, 0)


def test_only_the_house_challenges_through_an_antagonist_and_players_for_themselves():
    game = Game(new_app())
    with pytest.raises(NotPermitted):
        game.announce("ilse", SEN, ILSE, 1)
    with pytest.raises(NotPermitted):
        game.announce("tomas", ILSE, SEN, 1)
    with pytest.raises(RuleViolation, match="PA-5: nobody can be on both sides"):
        game.announce("ilse", ILSE, {"players": ["tomas", "ilse"]}, 1)
    with pytest.raises(NotFound):
        game.announce("ilse", ILSE, {"antagonist": "Nobody"}, 1)


def test_an_antagonist_in_a_challenge_is_not_topped_up_until_it_ends(game):
    with pytest.raises(RuleViolation, match="PA-17: Lady Sen is in a challenge"):
        game.app.fund_antagonist(game.cid, __import__("domain.seats").seats.Seat.house(), "Lady Sen", 1)


def test_the_adventure_does_not_end_while_a_challenge_is_open(game):
    from domain.seats import Seat

    with pytest.raises(RuleViolation, match="C-1: 1 challenge"):
        game.app.end_adventure(game.cid, Seat.house())


def test_a_seed_comes_before_the_first_roll(betting):
    refused(betting, "ilse", "seed", "C-4: a side adds its seed before the first roll", seed="late")
