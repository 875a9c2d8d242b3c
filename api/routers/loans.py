from __future__ import annotations

from uuid import UUID

from fastapi import APIRouter, status

from adapters import schemas as out
from api.deps import SeatDep, StakesDep
from api.schemas import ConsequenceIn, LoanIn, RepaymentIn

router = APIRouter(prefix="/campaigns/{campaign_id}", tags=["loans and debts"])


@router.get("/debts", response_model=out.DebtRegister)
def debts(campaign_id: UUID, seat: SeatDep, stakes: StakesDep) -> out.DebtRegister:
    """The debt register: every loan and debt with its status and history (PA-14, PA-16)."""
    return stakes.debts(campaign_id, seat)


@router.post("/loans", status_code=status.HTTP_201_CREATED, response_model=out.Loan)
def offer_loan(campaign_id: UUID, body: LoanIn, seat: SeatDep, stakes: StakesDep) -> out.Loan:
    """The caller offers a loan, up to his pile, to another player (PA-14)."""
    return stakes.offer_loan(campaign_id, seat, body.borrower, body.amount)


@router.post("/loans/{loan_id}/accept", response_model=out.Loan)
def accept_loan(campaign_id: UUID, loan_id: UUID, seat: SeatDep, stakes: StakesDep) -> out.Loan:
    """The borrower accepts; the pennies move at once (PA-14)."""
    return stakes.accept_loan(campaign_id, seat, loan_id)


@router.post("/loans/{loan_id}/decline", response_model=out.Loan)
def decline_loan(campaign_id: UUID, loan_id: UUID, seat: SeatDep, stakes: StakesDep) -> out.Loan:
    return stakes.decline_loan(campaign_id, seat, loan_id)


@router.post("/loans/{loan_id}/withdraw", response_model=out.Loan)
def withdraw_loan(campaign_id: UUID, loan_id: UUID, seat: SeatDep, stakes: StakesDep) -> out.Loan:
    """The lender takes back an offer nobody answered yet."""
    return stakes.withdraw_loan(campaign_id, seat, loan_id)


@router.post("/loans/{loan_id}/repayments", response_model=out.Loan)
def repay_loan(campaign_id: UUID, loan_id: UUID, body: RepaymentIn, seat: SeatDep, stakes: StakesDep) -> out.Loan:
    """The borrower repays some or all of what he owes (PA-14)."""
    return stakes.repay_loan(campaign_id, seat, loan_id, body.amount)


@router.post("/loans/{loan_id}/forgive", response_model=out.Loan)
def forgive_loan(campaign_id: UUID, loan_id: UUID, seat: SeatDep, stakes: StakesDep) -> out.Loan:
    """The lender forgives what is still owed (PA-14)."""
    return stakes.forgive_loan(campaign_id, seat, loan_id)


@router.post("/loans/{loan_id}/consequences", response_model=out.Loan)
def record_consequence(
    campaign_id: UUID, loan_id: UUID, body: ConsequenceIn, seat: SeatDep, stakes: StakesDep
) -> out.Loan:
    """The House records what befalls a borrower whose loan defaulted (PA-14)."""
    return stakes.record_consequence(campaign_id, seat, loan_id, body.note)
