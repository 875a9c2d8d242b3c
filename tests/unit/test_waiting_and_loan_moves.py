"""Whom the table waits for (the kernel, for every system) and the moves on a loan offered into a challenge
(PA-14): both come from the same checks that refuse moves."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from domain.systems.penny_ante.loan import OFFER_MOVES, OFFERED, offer_moves
from tests.unit.test_resolution_kernel import tiny


def test_the_table_waits_for_the_seats_of_its_sides_with_a_move_in_side_order_and_each_seat_once():
    unit, _ = tiny()
    unit.sides["opponent"]["seats"] = ["house", "ann"]
    assert unit.waiting_for(lambda seat: True) == ["ann", "house"]
    assert unit.waiting_for(lambda seat: seat == "house") == ["house"]
    assert unit.waiting_for(lambda seat: False) == []


def test_a_settled_unit_waits_for_nobody():
    unit, _ = tiny()
    unit.phase = "settled"
    assert unit.waiting_for(lambda seat: True) == []


def test_only_the_borrower_answers_an_offer_and_only_the_lender_withdraws_it():
    assert offer_moves(OFFERED, "tomas", "ilse", "ilse") == ["accept-loan", "decline-loan"]
    assert offer_moves(OFFERED, "tomas", "ilse", "tomas") == ["withdraw-loan"]
    assert offer_moves(OFFERED, "tomas", "ilse", "house") == []


def test_an_offer_from_a_closed_betting_round_is_declined_but_no_longer_accepted():
    assert offer_moves(OFFERED, "tomas", "ilse", "ilse", round_open=False) == ["decline-loan"]


@given(status=st.sampled_from(["active", "declined", "withdrawn", "repaid", "forgiven", "defaulted"]),
       seat=st.sampled_from(["ilse", "tomas", "house"]))
def test_an_answered_loan_offers_no_move(status, seat):
    assert offer_moves(status, "tomas", "ilse", seat) == []


def test_every_move_on_an_offer_is_one_of_the_loan_commands():
    from domain.systems.penny_ante import commands

    verbs = {c.verb for c in (commands.AcceptLoan, commands.DeclineLoan, commands.WithdrawLoan)}
    assert set(OFFER_MOVES) == verbs
