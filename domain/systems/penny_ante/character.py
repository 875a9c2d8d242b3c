"""A player's Penny Ante character: pile and characteristics (PA-1, PA-2, PA-14)."""

from __future__ import annotations

from typing import Any
from uuid import UUID, uuid5

from eventsourcing.domain import Aggregate, event

from domain.errors import RuleViolation, StaleState
from domain.systems.penny_ante.rules import CHARACTERISTIC_COST, characteristic_name, require_new_name


class Character(Aggregate):
    @staticmethod
    def create_id(campaign_id: UUID, seat: str, **_: Any) -> UUID:  # type: ignore[override]
        return uuid5(campaign_id, f"character/{seat}")

    @event("Created")
    def __init__(
        self, campaign_id: UUID, seat: str, name: str, first_characteristic: str, pile: int, actor: str
    ) -> None:
        self.campaign_id = campaign_id
        self.seat = seat
        self.name = name
        self.characteristics = [first_characteristic]  # the first one is free (PA-2)
        self.pile = pile
        self.owes: dict[str, int] = {}  # loan id (hex) -> outstanding pennies

    # -- PA-2 ------------------------------------------------------------------
    def buy_characteristic(self, name: str, *, adventure_running: bool, actor: str) -> None:
        name = characteristic_name(name)
        if adventure_running:
            raise RuleViolation("characteristics can be bought only between adventures", ruling="PA-2")
        require_new_name(name, self.characteristics, self.name)
        if self.pile < CHARACTERISTIC_COST:
            raise RuleViolation(
                f"a characteristic costs {CHARACTERISTIC_COST} pennies and {self.name} has {self.pile}",
                ruling="PA-2",
            )
        self._characteristic_bought(name=name, cost=CHARACTERISTIC_COST, actor=actor)

    @event("CharacteristicBought")
    def _characteristic_bought(self, name: str, cost: int, actor: str) -> None:
        self.characteristics.append(name)
        self.pile -= cost

    @event("AdventureJoined")
    def join_adventure(self, adventure: int, pile: int, actor: str) -> None:
        """Recorded on every character when an adventure starts (PA-3), with the pile counted for the House.

        Saving it with the adventure's start makes a purchase racing the start conflict (PA-2).
        """

    # -- PA-14: loans move pennies between piles -------------------------------
    def _require_pile(self, amount: int, what: str) -> None:
        if amount > self.pile:
            raise RuleViolation(f"{what} of {amount} is more than {self.name}'s pile of {self.pile}", ruling="PA-14")

    def pay_out_loan(self, loan_id: UUID, amount: int, actor: str) -> None:
        self._require_pile(amount, "a loan")
        self._loan_paid_out(loan_id=loan_id.hex, amount=amount, actor=actor)

    @event("LoanPaidOut")
    def _loan_paid_out(self, loan_id: str, amount: int, actor: str) -> None:
        self.pile -= amount

    @event("LoanReceived")
    def receive_loan(self, loan_id: str, amount: int, actor: str) -> None:
        self.pile += amount
        self.owes[loan_id] = amount

    def repay(self, loan_id: UUID, amount: int, actor: str) -> None:
        if self.owes.get(loan_id.hex, 0) < amount:
            raise StaleState(f"{self.name}'s books and loan {loan_id} disagree; read both again")
        self._require_pile(amount, "a repayment")
        self._repayment_paid(loan_id=loan_id.hex, amount=amount, actor=actor)

    @event("RepaymentPaid")
    def _repayment_paid(self, loan_id: str, amount: int, actor: str) -> None:
        self.pile -= amount
        self.owes[loan_id] -= amount
        if not self.owes[loan_id]:
            del self.owes[loan_id]

    @event("RepaymentReceived")
    def receive_repayment(self, loan_id: str, amount: int, actor: str) -> None:
        self.pile += amount

    @event("DebtForgiven")
    def debt_forgiven(self, loan_id: str, amount: int, actor: str) -> None:
        self.owes.pop(loan_id, None)

    @event("DebtIncurred")
    def incur_debt(self, loan_id: str, amount: int, actor: str) -> None:
        """PA-15, PA-16: a bankruptcy debt; the pennies came back with the settlement."""
        self.owes[loan_id] = amount

    # -- challenges: pennies leave the pile the moment they are bet (PA-9) ---------------
    @event("PenniesWagered")
    def wager(self, challenge_id: str, amount: int, actor: str) -> None:
        self.pile -= amount

    @event("SettlementCorrected")
    def correct_settlement(self, challenge_id: str, amount: int, actor: str) -> None:
        """An overturned challenge (C-6) moved ``amount`` pennies in (or, negative, out of) this purse."""
        self.pile += amount

    @event("PenniesReturned")
    def take_back(self, challenge_id: str, amount: int, actor: str) -> None:
        """PA-12: an uncalled excess comes back."""
        self.pile += amount

    @event("StakesSettled")
    def settle_stakes(self, challenge_id: str, staked: int, received: int, actor: str) -> None:
        """The challenge is over: ``staked`` leaves the pot's books, ``received`` joins the pile."""
        self.pile += received

    @event("BuyoutPaid")
    def pay_buyout(self, challenge_id: str, amount: int, actor: str) -> None:
        self.pile -= amount

    @event("BuyoutReceived")
    def receive_buyout(self, challenge_id: str, amount: int, actor: str) -> None:
        self.pile += amount

    @event("CharacteristicSurrendered")
    def surrender(self, challenge_id: str, name: str, actor: str) -> None:
        """PA-15: given up for good in a buyout."""
        self.characteristics.remove(name)
