"""C-6, C-7 guards found in review: undo never lets anyone fish for luck or lose pennies."""

from __future__ import annotations

from uuid import UUID

import pytest

from domain.errors import RuleViolation
from domain.systems.penny_ante import economy
from tests.unit.challenge_game import HOUSE, ILSE, START_TOTAL, TOMAS, Game
from tests.unit.conftest import new_app
from tests.unit.test_challenges import ROCK, SEN, bankrupt_ilse, open_round
from tests.unit.test_undo import settle_with_ilse_winning


def test_table_dice_entered_again_after_a_rewind_must_be_the_same():
    game = Game(new_app())
    game.announce("house", SEN, {"players": ["ilse"]}, 1, table=True)
    game.act("house", "declare", characteristics=[])
    game.act("ilse", "declare", characteristics=[])
    game.act("house", "roll", dice=[1])
    game.app.rewind_challenge(game.cid, HOUSE, game.challenge_id, 3, "roll again")
    with pytest.raises(RuleViolation, match="C-7: slot .* showed 1 before the rewind"):
        game.act("house", "roll", dice=[6])
    game.act("house", "roll", dice=[1])


def test_a_side_keeps_the_same_dice_after_a_rewind():
    game = Game(new_app())
    game.announce("house", SEN, {"players": ["ilse"]}, 1)
    open_round(game, "house", "ilse", first_traits=["Poison"])  # both cups empty
    step = game.state.version - 2  # before either side kept
    game.app.rewind_challenge(game.cid, HOUSE, game.challenge_id, step, "redo the cups")
    with pytest.raises(RuleViolation, match="C-7: this side cupped no die before the rewind"):
        game.act("house", "keep", cup=[0])
    game.act("house", "keep", cup=[])


def test_a_cup_locked_before_a_rewind_keeps_only_the_dice_the_new_roll_still_has():
    """C-7 with fewer dice after the rewind (a player's side names fewer characteristics; a side the House plays
    names the same ones again, C-9): die i is the same die again, and a die the roll no longer has leaves the
    locked cup, so the side can always keep again."""
    game = Game(new_app())
    game.announce("house", SEN, {"players": ["ilse"]}, 1)
    step = game.state.version
    game.act("house", "declare", characteristics=["Poison"])
    game.act("ilse", "declare", characteristics=["Lucky Necklace"])
    game.act("ilse", "pass")  # C-10: the House's side rolls once no player's input is owed
    game.act("house", "roll")
    game.act("ilse", "roll")
    game.act("house", "keep", cup=[])
    game.act("ilse", "keep", cup=[0, 1])
    game.app.rewind_challenge(game.cid, HOUSE, game.challenge_id, step, "declare again")
    with pytest.raises(RuleViolation, match="C-9: after a rewind a side the House plays declares the "
                                            "characteristics it first declared: Poison"):
        game.act("house", "declare", characteristics=[])
    game.act("house", "declare", characteristics=["Poison"])
    game.act("ilse", "declare", characteristics=[])
    game.act("house", "roll")
    game.act("ilse", "roll")
    game.act("house", "keep", cup=[])
    piles = {"Lady Sen": game.pile("Lady Sen"), "ilse": game.pile("ilse")}
    keep = next(a for a in game.state.legal_actions("ilse", piles, 0, {}) if a["action"] == "keep")
    assert keep["required"] == [0]
    with pytest.raises(RuleViolation, match=r"C-7: this side cupped the die at position 1 \(\d\) before the rewind"):
        game.act("ilse", "keep", cup=[])
    assert game.act("ilse", "keep", cup=[0]).sides["opponent"]["cup"] == [0]


def test_a_call_ends_the_round_only_after_both_sides_acted():
    game = Game(new_app())
    game.announce("ilse", {"players": ["ilse"]}, {"players": ["tomas", "mara"]}, 2)
    open_round(game, "ilse", "tomas")
    state = game.act("ilse", "call")  # the alliance paid two antes: Ilse calls first
    assert state.phase == "betting-1" and state.turn == "opponent"
    state = game.act("tomas", "check")
    assert state.phase == "new-circumstances"


def test_a_rewind_to_a_fold_settles_it_again():
    game = Game(new_app())
    game.announce("ilse", {"players": ["ilse"]}, {"players": ["tomas"]}, 1)
    open_round(game, "ilse", "tomas")
    game.act("ilse", "fold")
    assert game.state.settled
    game2 = Game(new_app())
    game2.announce("ilse", {"players": ["ilse"]}, {"players": ["tomas"]}, 1)
    open_round(game2, "ilse", "tomas")
    step = game2.act("ilse", "raise", amount=1).version
    game2.act("tomas", "call")
    game2.app.rewind_challenge(game2.cid, HOUSE, game2.challenge_id, step, "back to the raise")
    assert game2.state.turn == "opponent" and game2.total() == START_TOTAL


def test_rewinding_past_two_loans_from_one_lender_reverses_both():
    game = Game(new_app())
    game.announce("house", SEN, {"players": ["ilse"]}, 1)
    open_round(game, "house", "ilse")
    step = game.state.version
    game.act("mara", "lend", borrower="ilse", amount=2)
    game.app.accept_loan(game.cid, ILSE, UUID(game.state.loans[-1]))
    game.act("house", "check")
    game.act("ilse", "check")
    game.act("house", "roll")
    game.act("ilse", "roll")
    game.act("ilse", "seed", seed="fresh words")  # C-9: the reroll comes with Ilse's fresh seed
    game.act("mara", "lend", borrower="ilse", amount=3)
    game.app.accept_loan(game.cid, ILSE, UUID(game.state.loans[-1]))
    game.app.rewind_challenge(game.cid, HOUSE, game.challenge_id, step, "no loans")
    assert game.pile("mara") == 30 and game.total() == START_TOTAL


def test_an_overturn_after_a_buyout_is_refused():
    game = Game(new_app())
    bankrupt_ilse(game)
    game.act("mara", "bid", member="ilse", amount=5)
    game.act("ilse", "buyout", give_up="Whip Smart")
    with pytest.raises(RuleViolation, match="C-6: a buyout was accepted"):
        game.app.overturn_challenge(game.cid, HOUSE, game.challenge_id, None, True, "void it")


def test_an_overturn_gives_back_what_was_repaid_on_the_debt_it_voids():
    game = Game(new_app())
    bankrupt_ilse(game)
    game.act("ilse", "debt")  # Ilse 25 back, owes Tomas 25
    (debt_id,) = economy.character(game.app.application, game.app.campaign(game.cid), "ilse").owes
    game.app.repay_loan(game.cid, ILSE, UUID(debt_id), 10)
    assert (game.pile("ilse"), game.pile("tomas")) == (15, 40)
    game.app.overturn_challenge(game.cid, HOUSE, game.challenge_id, "challenger", False, "Ilse won after all")
    assert (game.pile("ilse"), game.pile("tomas")) == (50, 5)
    assert game.app.repository.get(UUID(debt_id)).status == "voided"
    assert game.total() == START_TOTAL


def test_a_second_overturn_voids_the_shortfall_debts_of_the_first():
    game = Game(new_app())
    settle_with_ilse_winning(game)  # Ilse 35, Tomas 20
    game.app.end_adventure(game.cid, HOUSE)
    for name in ("Quick", "Strong", "Sly Grin", "Iron Will", "Luck"):
        game.app.buy_characteristic(game.cid, ILSE, "ilse", name)
    game.app.overturn_challenge(game.cid, HOUSE, game.challenge_id, "opponent", False, "a bad call")
    assert (game.pile("ilse"), game.pile("tomas")) == (0, 30)  # Ilse owes Tomas 10
    game.app.overturn_challenge(game.cid, HOUSE, game.challenge_id, "challenger", False, "no, it stood")
    ilse = economy.character(game.app.application, game.app.campaign(game.cid), "ilse")
    assert ilse.owes == {} and (game.pile("ilse"), game.pile("tomas")) == (10, 20)


def test_the_house_side_takes_no_pennies_from_an_overturn_after_its_adventure_ended():
    game = Game(new_app())
    game.announce("ilse", {"players": ["ilse"]}, ROCK, 1)
    open_round(game, "ilse", "house")
    game.act("ilse", "check")
    game.act("house", "fold")
    game.app.end_adventure(game.cid, HOUSE)
    with pytest.raises(RuleViolation, match="PA-3: the House side's adventure is over"):
        game.app.overturn_challenge(game.cid, HOUSE, game.challenge_id, "opponent", False, "Rockslide held")
    assert TOMAS  # the other seats are untouched


def test_overturns_after_a_bankruptcy_debt_each_undo_only_the_result_before_them_c6():
    """C-6, PA-15, PA-19 (found by an independent check of the rulings): the first overturn voids the
    bankruptcy debt; a second one undoes the first overturn's result alone, not that debt again (it moved 25
    pennies too few and left them in no pile and no debt), and a void then gives back the piles before the
    challenge, every penny accounted for."""
    game = Game(new_app())
    start = (game.pile("ilse"), game.pile("tomas"))
    bankrupt_ilse(game)
    game.act("ilse", "debt")  # Ilse's 25 back, owed to Tomas
    (debt_id,) = economy.character(game.app.application, game.app.campaign(game.cid), "ilse").owes
    game.app.overturn_challenge(game.cid, HOUSE, game.challenge_id, "challenger", False, "Ilse won after all")
    assert game.app.repository.get(UUID(debt_id)).status == "voided"
    assert (game.pile("ilse"), game.pile("tomas")) == (start[0] + 25, start[1] - 25)
    game.app.overturn_challenge(game.cid, HOUSE, game.challenge_id, "opponent", False, "no, Tomas won")
    ilse = economy.character(game.app.application, game.app.campaign(game.cid), "ilse")
    assert ilse.owes == {} and (game.pile("ilse"), game.pile("tomas")) == (0, start[0] + start[1])
    game.app.overturn_challenge(game.cid, HOUSE, game.challenge_id, None, True, "nobody won")
    ilse = economy.character(game.app.application, game.app.campaign(game.cid), "ilse")
    tomas = economy.character(game.app.application, game.app.campaign(game.cid), "tomas")
    assert ilse.owes == {} and tomas.owes == {} and (game.pile("ilse"), game.pile("tomas")) == start
    assert game.total() == START_TOTAL


def test_an_overturn_gives_back_nothing_of_a_bankruptcy_debt_forgiven_unpaid_c6():
    """C-6, PA-15 (found by an independent check's reading): forgiven pennies were never paid, so voiding a
    forgiven bankruptcy debt moves nothing back; only what was repaid on it goes back."""
    outcomes = []
    for forgive in (False, True):
        game = Game(new_app())
        bankrupt_ilse(game)
        game.act("ilse", "debt")
        (debt_id,) = economy.character(game.app.application, game.app.campaign(game.cid), "ilse").owes
        game.app.repay_loan(game.cid, ILSE, UUID(debt_id), 5)
        if forgive:
            game.app.forgive_loan(game.cid, TOMAS, UUID(debt_id))
        game.app.overturn_challenge(game.cid, HOUSE, game.challenge_id, "challenger", False, "Ilse won after all")
        outcomes.append((game.pile("ilse"), game.pile("tomas")))
        assert game.total() == START_TOTAL
    assert outcomes[0] == outcomes[1]  # the 5 repaid come back either way; the 20 forgiven were never paid


def test_a_debt_loaded_from_a_state_kept_before_repayments_were_counted_still_knows_what_was_repaid():
    """C-6: ``Loan.paid`` is kept by ``Repaid`` since it was added; a debt's snapshot from before holds no count,
    and what is no longer outstanding is what was repaid (an overturn gives back exactly that)."""
    game = Game(new_app())
    bankrupt_ilse(game)
    game.act("ilse", "debt")
    (debt_id,) = economy.character(game.app.application, game.app.campaign(game.cid), "ilse").owes
    game.app.repay_loan(game.cid, ILSE, UUID(debt_id), 10)
    debt = game.app.repository.get(UUID(debt_id))
    assert debt.paid == 10
    del debt.__dict__["_paid"]  # as a snapshot taken before the count was kept restores it
    assert debt.paid == 10
    game.app.repay_loan(game.cid, ILSE, UUID(debt_id), 5)
    assert game.app.repository.get(UUID(debt_id)).paid == 15
