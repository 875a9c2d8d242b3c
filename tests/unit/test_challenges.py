"""One scripted Penny Ante challenge per branch (PA-5 … PA-18), on the in-memory store."""

from __future__ import annotations

import pytest

from domain.errors import RuleViolation
from domain.systems.penny_ante import economy
from tests.unit.challenge_game import START_TOTAL, Game
from tests.unit.conftest import new_app

SEN = {"antagonist": "Lady Sen"}
ROCK = {"antagonist": "Rockslide"}
ILSE = {"players": ["ilse"]}
TOMAS = {"players": ["tomas"]}


@pytest.fixture
def game() -> Game:
    return Game(new_app())


def open_round(game: Game, first: str, second: str, *, dice: tuple[list[int], list[int]] | None = None,
               first_traits=(), second_traits=()) -> None:
    """Declare, roll and keep everything, up to the first betting round."""
    game.act(first, "declare", characteristics=list(first_traits))
    game.act(second, "declare", characteristics=list(second_traits))
    game.inputs()  # the players pass: the House's side rolls only after (C-10)
    game.act(first, "roll", **({"dice": dice[0]} if dice else {}))
    game.act(second, "roll", **({"dice": dice[1]} if dice else {}))
    game.act(first, "keep", cup=[])
    game.act(second, "keep", cup=[])


def test_a_fold_in_the_first_round_gives_the_other_side_the_whole_pot_and_the_folder_narrates(game):
    game.announce("house", SEN, ILSE, 2, circumstance="A dark alley")
    open_round(game, "house", "ilse", first_traits=["Poison"])
    game.act("house", "raise", amount=4)
    state = game.act("ilse", "fold")
    assert state.settled and state.result["winner"] == "challenger" and state.result["reason"] == "fold"
    assert state.result["narrator"] == "opponent"  # PA-10
    assert game.pile("Lady Sen") == 40 - 6 + 8 and game.pile("ilse") == 25 - 2
    assert game.total() == START_TOTAL
    report = state.verify()
    assert report["verifiable"] and report["commitment_matches"] and not report["mismatches"]
    assert report["checked"] == 2 + 1 + 1  # Sen's two dice, Ilse's one, the alley's


def test_a_showdown_gives_the_pot_to_the_best_yahtzee_score(game):
    game.announce("house", SEN, ILSE, 1, table=True)
    game.act("house", "declare", characteristics=["Poison", "cunning"])
    game.act("ilse", "declare", characteristics=["Whip Smart"])
    game.act("house", "roll", dice=[6, 6, 2])
    game.act("ilse", "roll", dice=[1, 3])
    game.act("house", "keep", cup=[2])
    game.act("ilse", "keep", cup=[0, 1])
    game.act("house", "check")
    game.act("ilse", "check")
    game.act("house", "roll", dice=[6])
    game.act("ilse", "roll", dice=[5, 5])
    game.act("house", "raise", amount=2)
    state = game.act("ilse", "call")
    assert state.result["scores"]["challenger"]["score"] == 18
    assert state.result["scores"]["opponent"]["score"] == 10
    assert state.result["winner"] == "challenger" and state.result["narrator"] == "opponent"
    assert game.pile("Lady Sen") == 40 - 3 + 6 and game.pile("ilse") == 25 - 3
    assert game.total() == START_TOTAL


def test_a_draw_gives_each_side_back_its_own_wager(game):
    game.announce("ilse", ILSE, SEN, 1, table=True)
    open_round(game, "ilse", "house", dice=([4, 4], [4, 4]), first_traits=["Whip Smart"], second_traits=["Poison"])
    game.act("ilse", "raise", amount=3)
    game.act("house", "call")
    game.act("ilse", "roll", dice=[])
    game.act("house", "roll", dice=[])
    game.act("ilse", "check")
    state = game.act("house", "check")
    assert state.result["winner"] is None and state.result["narrator"] is None
    assert game.pile("ilse") == 25 and game.pile("Lady Sen") == 40


def test_an_all_in_in_round_one_returns_the_uncalled_excess_and_skips_betting(game):
    game.announce("ilse", ILSE, ROCK, 1, table=True)
    open_round(game, "ilse", "house", dice=([6], [1]))
    game.act("ilse", "raise", amount=10)
    state = game.act("house", "all-in")  # Rockslide: 5 pennies, 4 after the ante
    assert state.sides["opponent"]["all_in"] and state.phase == "new-circumstances"
    assert state.wager("challenger") == state.wager("opponent") == 5  # PA-12: 6 went back to Ilse
    assert game.pile("ilse") == 25 - 5
    game.act("ilse", "circumstance", text="Loose scree")
    game.act("ilse", "roll", dice=[3])  # no cup: only the circumstance die
    state = game.act("house", "roll", dice=[])
    assert state.settled and state.result["winner"] == "challenger"  # 6 + 3 beats 1 + 3
    assert game.pile("ilse") == 30 and game.pile("Rockslide") == 0
    assert game.total() == START_TOTAL


def test_an_all_in_in_round_two_returns_the_excess_and_goes_to_the_showdown(game):
    game.announce("ilse", ILSE, ROCK, 1, table=True)
    open_round(game, "ilse", "house", dice=([2], [5]))
    game.act("ilse", "check")
    game.act("house", "check")
    game.act("ilse", "roll", dice=[])
    game.act("house", "roll", dice=[])
    game.act("ilse", "raise", amount=8)
    state = game.act("house", "all-in")
    assert state.settled and state.result["winner"] == "opponent"
    assert game.pile("Rockslide") == 10 and game.pile("ilse") == 20
    assert game.total() == START_TOTAL


def test_a_double_down_bars_the_other_side_from_that_die_and_needs_no_answer(game):
    game.announce("house", SEN, ILSE, 2, table=True)
    open_round(game, "house", "ilse", dice=([1], [2]))
    game.act("house", "check")
    game.act("ilse", "check")
    state = game.act("house", "double-down", text="Rooftops")
    assert state.wager("challenger") == 4 and state.betting_wager("challenger") == 2  # PA-13
    game.act("house", "roll", dice=[6])  # the rooftops die
    state = game.act("ilse", "roll", dice=[])
    assert state.usable_dice("opponent") == [2] and state.usable_dice("challenger") == [1, 6]
    game.act("house", "check")  # not a raise: Ilse need not answer it
    state = game.act("ilse", "check")
    assert state.result["winner"] == "challenger" and game.pile("Lady Sen") == 40 - 4 + 6


def test_a_player_outside_the_challenge_lends_during_a_round_and_it_is_accepted_inside_it(game):
    game.announce("house", SEN, ILSE, 2)
    open_round(game, "house", "ilse")
    game.act("tomas", "lend", borrower="ilse", amount=10)
    (loan_id,) = [lid for lid in _loans(game) if game.app.repository.get(lid).challenge_id]
    game.app.accept_loan(game.cid, game_seat("ilse"), loan_id)
    assert game.pile("ilse") == 23 + 10 and game.pile("tomas") == 20
    with pytest.raises(RuleViolation, match="PA-14: each player offers one loan per betting round"):
        game.act("tomas", "lend", borrower="ilse", amount=1)
    game.act("mara", "lend", borrower="ilse", amount=5)
    game.act("house", "check")
    game.act("ilse", "check")  # round one is over
    late = [lid for lid in _loans(game) if game.app.repository.get(lid).status == "offered"]
    with pytest.raises(RuleViolation, match="PA-14.*inside that round"):
        game.app.accept_loan(game.cid, game_seat("ilse"), late[0])
    assert game.total() == START_TOTAL


def _created(game: Game, name: str):
    events = (game.app.mapper.to_domain_event(n) for n in game.app.recorder.select_notifications(1, 10_000))
    return [e.originator_id for e in events if type(e).__qualname__ == name]


def _loans(game: Game):
    return _created(game, "Loan.Offered")


def game_seat(name: str):
    from tests.unit.challenge_game import SEATS

    return SEATS[name]


def bankrupt_ilse(game: Game) -> None:
    """Ilse (25) goes all in against Tomas's raise and loses the showdown: bankrupt."""
    game.announce("ilse", ILSE, TOMAS, 1, table=True)
    open_round(game, "ilse", "tomas", dice=([1, 1], [6]), first_traits=["Whip Smart"])
    game.act("ilse", "check")
    game.act("tomas", "raise", amount=29)
    state = game.act("ilse", "all-in")
    assert state.wager("challenger") == state.wager("opponent") == 25
    game.act("ilse", "roll", dice=[])
    state = game.act("tomas", "roll", dice=[])
    assert state.phase == "bankruptcy" and game.pile("ilse") == 0
    assert state.bankrupts["ilse"]["bids"] == [{"bidder": "house", "amount": 1}]  # PA-15: the House must bid


def test_bankruptcy_into_debt_returns_the_lost_pennies_and_the_winner_narrates(game):
    bankrupt_ilse(game)
    state = game.act("ilse", "debt")
    assert state.settled and state.result["narrator"] == "opponent"  # Tomas won and narrates
    assert game.pile("ilse") == 25 and game.pile("tomas") == 30
    debts = [game.app.repository.get(lid) for lid in _debts(game)]
    assert [(d.lender, d.borrower, d.outstanding, d.status) for d in debts] == [("tomas", "ilse", 25, "active")]
    game.app.repay_loan(game.cid, game_seat("ilse"), debts[0].id, 5)  # PA-16: repayable any time
    assert game.pile("tomas") == 35
    game.app.end_adventure(game.cid, game_seat("house"))
    game.app.start_adventure(game.cid, game_seat("house"))
    assert game.app.repository.get(debts[0].id).status == "active"  # never defaulted (PA-16)


def _debts(game: Game):
    return _created(game, "Debt.Recorded")


def test_a_buyout_takes_the_highest_bid_and_a_characteristic_used_in_the_challenge(game):
    bankrupt_ilse(game)
    with pytest.raises(RuleViolation, match="PA-15: only players outside"):
        game.act("tomas", "bid", member="ilse", amount=3)
    game.act("mara", "bid", member="ilse", amount=3)
    with pytest.raises(RuleViolation, match="PA-15: give up one of: Whip Smart"):
        game.act("ilse", "buyout", give_up="Lucky Necklace")
    state = game.act("ilse", "buyout", give_up="whip smart")
    assert state.settled and state.bankrupts["ilse"]["bidder"] == "mara"
    assert game.pile("ilse") == 3 and game.pile("mara") == 27 and game.pile("tomas") == 30 + 25
    campaign = game.app.campaign(game.cid)
    assert economy.character(game.app.application, campaign, "ilse").characteristics == ["Lucky Necklace"]
    assert game.total() == START_TOTAL


def test_the_houses_one_penny_bid_wins_a_tie_by_being_earliest(game):
    bankrupt_ilse(game)
    game.act("mara", "bid", member="ilse", amount=1)
    game.act("ilse", "buyout", give_up="Whip Smart")
    assert game.pile("house") == 40 - 1 and game.pile("mara") == 30 and game.pile("ilse") == 1
    assert game.total() == START_TOTAL


def test_an_alliance_pays_penny_by_penny_in_joining_order_and_splits_a_win_with_the_remainder_to_its_declarer(game):
    game.announce("tomas", {"players": ["tomas", "ilse", "mara"]}, SEN, 1, table=True)
    open_round(game, "tomas", "house", dice=([6, 6], [1]), first_traits=["Whip Smart"])
    assert game.state.sides["challenger"]["contributions"] == {"tomas": 1, "ilse": 1, "mara": 1}  # PA-6
    game.act("tomas", "check")  # the alliance is ahead on antes: nothing to call
    game.act("house", "raise", amount=1)
    state = game.act("tomas", "call")
    assert state.sides["challenger"]["contributions"] == {"tomas": 2, "ilse": 1, "mara": 1}  # PA-18
    game.act("tomas", "roll", dice=[])
    game.act("house", "roll", dice=[])
    game.act("tomas", "raise", amount=3)
    state = game.act("house", "call")
    assert state.settled and state.pot == 14
    assert state.result["payouts"] == {"tomas": 6, "ilse": 4, "mara": 4}  # 14 / 3, the remainder to Tomas
    assert game.pile("tomas") == 30 - 3 + 6 and game.pile("ilse") == 25 - 2 + 4 and game.pile("mara") == 30 - 2 + 4
    assert game.total() == START_TOTAL


def test_in_an_indirect_challenge_the_house_must_fold_when_a_call_exceeds_its_stake(game):
    game.announce("house", SEN, ILSE, 1, stake=5)
    open_round(game, "house", "ilse")
    game.act("house", "check")
    game.act("ilse", "raise", amount=10)
    state = game.state
    legal = state.legal_actions("house", {"Lady Sen": game.pile("Lady Sen"), "ilse": game.pile("ilse")}, 0, {})
    assert [a["action"] for a in legal] == ["fold", "abandon"]  # and, as ever while open, abandon (C-10)
    with pytest.raises(RuleViolation, match="PA-17.*may only fold"):
        game.act("house", "call")
    with pytest.raises(RuleViolation, match="PA-17: the House cannot go all-in"):
        game.act("house", "all-in")
    state = game.act("house", "fold")
    assert state.result["winner"] == "opponent" and game.pile("ilse") == 25 + 1


def test_players_may_challenge_each_other(game):
    game.announce("ilse", ILSE, TOMAS, 2)
    open_round(game, "ilse", "tomas")
    game.act("ilse", "raise", amount=2)
    state = game.act("tomas", "fold")
    assert state.result["winner"] == "challenger" and game.pile("ilse") == 25 + 2 and game.pile("tomas") == 28


def test_table_dice_are_validated_and_marked_as_entered(game):
    game.announce("house", SEN, ILSE, 1, table=True)
    game.act("house", "declare", characteristics=["Poison"])
    game.act("ilse", "declare", characteristics=[])
    with pytest.raises(RuleViolation, match="C-3: expected 2 dice"):
        game.act("house", "roll", dice=[3])
    with pytest.raises(RuleViolation, match="C-3: a d6 shows 1 to 6"):
        game.act("house", "roll", dice=[3, 7])
    with pytest.raises(RuleViolation, match="C-3: this challenge is played with table dice"):
        game.act("house", "roll")
    state = game.act("house", "roll", dice=[3, 4])
    assert state.rolls and all(r["entered"] for r in state.rolls)
    assert state.verify()["verifiable"] is False  # the seed is revealed at settlement


def test_server_dice_cannot_be_entered_by_hand(game):
    game.announce("house", SEN, ILSE, 1)
    game.act("house", "declare", characteristics=[])
    game.act("ilse", "declare", characteristics=[])
    game.inputs()
    with pytest.raises(RuleViolation, match="C-3: dice are entered by hand only in table mode"):
        game.act("house", "roll", dice=[6])


def test_the_same_seeds_and_slots_give_the_same_dice(game):
    """C-7: dice come from the seeds and their slot, never from a counter."""
    first = Game(new_app())
    for g in (game, first):
        g.announce("house", SEN, ILSE, 1)
        g.act("house", "declare", characteristics=["Poison", "Cunning"])  # C-9: before the player's seed
        g.act("ilse", "seed", seed="my lucky words")
        g.act("ilse", "declare", characteristics=[])
        g.act("house", "roll")
        g.act("ilse", "roll")
    assert [r["value"] for r in game.state.rolls] == [r["value"] for r in first.state.rolls]


def test_a_campaign_can_play_every_challenge_with_table_dice():
    from domain.seats import Seat

    app = new_app()
    cid = app.create_campaign("At the table", "penny-ante", {"table_dice": True})
    app.add_player(cid, Seat.house(), "ilse", "Ilse", "Whip")
    app.add_player(cid, Seat.house(), "tomas", "Tomas", "Love")
    app.start_adventure(cid, Seat.house())
    challenge_id = app.announce_challenge(cid, Seat("ilse"), ILSE, TOMAS, 1, "secret")
    assert app.repository.get(challenge_id).table


def test_a_bid_for_a_bankrupt_with_no_characteristic_left_is_refused_pa24():
    from domain.seats import Seat

    app = new_app()
    seats = {s: Seat(s) for s in ("ilse", "tomas", "mara")} | {"house": Seat.house()}
    cid = app.create_campaign("C", "penny-ante", {"table_dice": True})
    for seat, characteristic in (("ilse", "Quick"), ("tomas", "Big"), ("mara", "Sly")):
        app.add_player(cid, seats["house"], seat, seat.title(), characteristic)
    app.start_adventure(cid, seats["house"])

    def lose(ante: int):
        unit = app.announce_challenge(cid, seats["ilse"], ILSE, TOMAS, ante, "ab" * 32)
        for seat, action, args in (("ilse", "declare", {"characteristics": []}),
                                   ("tomas", "declare", {"characteristics": []}), ("ilse", "roll", {"dice": [1]}),
                                   ("tomas", "roll", {"dice": [6]}), ("ilse", "keep", {"cup": []}),
                                   ("tomas", "keep", {"cup": []}), ("ilse", "check", {}), ("tomas", "check", {}),
                                   ("ilse", "roll", {"dice": []}), ("tomas", "roll", {"dice": []}),
                                   ("ilse", "check", {}), ("tomas", "check", {})):
            app.act(cid, seats[seat], unit, action, args)
        return unit

    first = lose(25)  # bankrupt: she takes the House's one-penny bid and gives up her only characteristic
    app.act(cid, seats["ilse"], first, "buyout", {"give_up": "Quick"})
    second = lose(1)  # bankrupt again, with nothing left to give up
    assert app.repository.get(second).phase == "bankruptcy"
    with pytest.raises(RuleViolation, match="PA-24: ilse has no characteristic to give up"):
        app.act(cid, seats["mara"], second, "bid", {"member": "ilse", "amount": 3})


def test_an_alliance_that_wins_a_bankrupts_debt_shares_the_whole_pot_evenly_once_pa18_pa15(game):
    """Found by an independent check: the pennies left in the pot and the debt were each split with the
    remainder to the declarer, so he took it twice; the won pot is split evenly once (PA-18), each winner's
    share being what the debt owes him and the pennies that make up the rest."""
    game.announce("ilse", ILSE, {"players": ["tomas", "mara"]}, 1, table=True)
    open_round(game, "ilse", "tomas", dice=([1, 1], [6]), first_traits=["Whip Smart"])
    game.act("ilse", "raise", amount=23)  # the alliance's two antes called (PA-20, PA-21), then her whole pile
    game.act("tomas", "call")  # drawn from Tomas and Mara penny by penny (PA-18); the round ends
    for seat in ("ilse", "tomas"):  # new circumstances: none; each side rerolls its (empty) cup
        game.act(seat, "roll", dice=[])
    for seat in ("ilse", "tomas"):
        if game.state.phase != "bankruptcy":
            game.act(seat, "check")
    state = game.state
    assert state.phase == "bankruptcy" and state.pot == 50
    state = game.act("ilse", "debt")
    payouts, owed = state.result["payouts"], state.bankrupts["ilse"]["creditors"]
    assert {m: payouts.get(m, 0) + owed.get(m, 0) for m in ("tomas", "mara")} == {"tomas": 25, "mara": 25}
    assert payouts["ilse"] == 25 and sum(payouts.values()) == 50 and game.total() == START_TOTAL
