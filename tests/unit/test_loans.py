"""PA-14 (and PA-19 for the moves): loans between players."""

import pytest

from domain.errors import NotPermitted, RuleViolation
from tests.unit.conftest import HOUSE, ILSE, TOMAS


@pytest.fixture
def loan(table):
    loan_id = table.app.offer_loan(table.campaign_id, TOMAS, "ilse", 10)
    return loan_id


def piles(table):
    return table.character("ilse").pile, table.character("tomas").pile


def test_an_offer_moves_nothing_until_it_is_accepted(table, loan):
    assert piles(table) == (30, 30)
    table.app.accept_loan(table.campaign_id, ILSE, loan)
    assert piles(table) == (40, 20)
    assert table.character("ilse").owes == {loan.hex: 10}


def test_a_loan_is_at_most_the_lenders_pile(table):
    with pytest.raises(RuleViolation, match="PA-14: a loan is at most the lender's pile"):
        table.app.offer_loan(table.campaign_id, TOMAS, "ilse", 31)


def test_the_lenders_pile_is_checked_again_at_acceptance(table, loan):
    for i in range(5):
        table.app.buy_characteristic(table.campaign_id, TOMAS, "tomas", f"Trick {i}")
    with pytest.raises(RuleViolation, match="PA-14.*more than Brother Tomas's pile of 5"):
        table.app.accept_loan(table.campaign_id, ILSE, loan)


def test_a_loan_is_a_whole_positive_number_of_pennies(table):
    with pytest.raises(RuleViolation, match="PA-14"):
        table.app.offer_loan(table.campaign_id, TOMAS, "ilse", 0)


def test_nobody_lends_to_himself_and_the_house_does_not_lend(table):
    with pytest.raises(RuleViolation, match="PA-14"):
        table.app.offer_loan(table.campaign_id, TOMAS, "tomas", 5)
    with pytest.raises(NotPermitted, match="PA-14"):
        table.app.offer_loan(table.campaign_id, HOUSE, "ilse", 5)


def test_only_the_borrower_accepts_or_declines(table, loan):
    with pytest.raises(NotPermitted, match="C-1: only ilse"):
        table.app.accept_loan(table.campaign_id, TOMAS, loan)
    with pytest.raises(NotPermitted):
        table.app.decline_loan(table.campaign_id, HOUSE, loan)
    table.app.decline_loan(table.campaign_id, ILSE, loan)
    with pytest.raises(RuleViolation, match="PA-14: this loan is declined"):
        table.app.accept_loan(table.campaign_id, ILSE, loan)


def test_the_lender_may_withdraw_an_unanswered_offer(table, loan):
    table.app.withdraw_loan(table.campaign_id, TOMAS, loan)
    assert table.app.repository.get(loan).status == "withdrawn"


def test_repayment_may_be_partial(table, loan):
    table.app.accept_loan(table.campaign_id, ILSE, loan)
    table.app.repay_loan(table.campaign_id, ILSE, loan, 4)
    assert piles(table) == (36, 24) and table.app.repository.get(loan).outstanding == 6
    table.app.repay_loan(table.campaign_id, ILSE, loan, 6)
    assert piles(table) == (30, 30) and table.app.repository.get(loan).status == "repaid"
    assert table.character("ilse").owes == {}


def test_repaying_more_than_is_owed_is_refused(table, loan):
    table.app.accept_loan(table.campaign_id, ILSE, loan)
    with pytest.raises(RuleViolation, match="PA-14: only 10 pennies are still owed"):
        table.app.repay_loan(table.campaign_id, ILSE, loan, 11)


def test_repaying_more_than_the_borrowers_pile_is_refused(table, loan):
    table.app.accept_loan(table.campaign_id, ILSE, loan)
    table.app.offer_loan(table.campaign_id, ILSE, "tomas", 40)  # offer only; pile stays
    for i in range(8):
        table.app.buy_characteristic(table.campaign_id, ILSE, "ilse", f"Trick {i}")
    with pytest.raises(RuleViolation, match="PA-14: a repayment of 10 is more than Ilse Varn's pile of 0"):
        table.app.repay_loan(table.campaign_id, ILSE, loan, 10)


def test_only_the_borrower_repays_and_only_the_lender_forgives(table, loan):
    table.app.accept_loan(table.campaign_id, ILSE, loan)
    with pytest.raises(NotPermitted):
        table.app.repay_loan(table.campaign_id, TOMAS, loan, 1)
    with pytest.raises(NotPermitted):
        table.app.forgive_loan(table.campaign_id, ILSE, loan)


def test_the_lender_may_forgive_what_is_still_owed(table, loan):
    table.app.accept_loan(table.campaign_id, ILSE, loan)
    table.app.repay_loan(table.campaign_id, ILSE, loan, 3)
    table.app.forgive_loan(table.campaign_id, TOMAS, loan)
    assert piles(table) == (37, 23)
    assert table.app.repository.get(loan).status == "forgiven"
    assert table.character("ilse").owes == {}


def test_an_unpaid_loan_is_marked_defaulted_when_the_next_adventure_starts(table, loan):
    table.app.accept_loan(table.campaign_id, ILSE, loan)
    table.app.start_adventure(table.campaign_id, HOUSE)
    state = table.app.repository.get(loan)
    assert state.status == "defaulted"
    table.app.record_consequence(table.campaign_id, HOUSE, loan, "Tomas's cousins come calling")
    assert table.app.repository.get(loan).consequence == "Tomas's cousins come calling"


def test_a_defaulted_loan_can_still_be_repaid(table, loan):
    table.app.accept_loan(table.campaign_id, ILSE, loan)
    table.app.start_adventure(table.campaign_id, HOUSE)
    table.app.repay_loan(table.campaign_id, ILSE, loan, 10)
    assert table.app.repository.get(loan).status == "repaid"


def test_a_consequence_is_for_a_defaulted_loan_and_only_the_house_records_it(table, loan):
    table.app.accept_loan(table.campaign_id, ILSE, loan)
    with pytest.raises(RuleViolation, match="PA-14.*only a defaulted loan"):
        table.app.record_consequence(table.campaign_id, HOUSE, loan, "too early")
    table.app.start_adventure(table.campaign_id, HOUSE)
    with pytest.raises(NotPermitted):
        table.app.record_consequence(table.campaign_id, TOMAS, loan, "revenge")
    with pytest.raises(RuleViolation, match="PA-14.*must not be empty"):
        table.app.record_consequence(table.campaign_id, HOUSE, loan, "  ")
