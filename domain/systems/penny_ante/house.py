"""The House side of a Penny Ante campaign: its pile per adventure and its antagonists (PA-3, PA-4)."""

from __future__ import annotations

from typing import Any
from uuid import UUID, uuid5

from eventsourcing.domain import Aggregate, event

from domain.errors import NotFound, RuleViolation
from domain.systems.penny_ante.currency import whole_pennies
from domain.systems.penny_ante.rules import characteristic_name, require_new_name
from domain.text import clean_text

KINDS = ("antagonist", "obstacle")


class House(Aggregate):
    """The House pile; the antagonists' own pennies live in their own aggregates."""

    @staticmethod
    def create_id(campaign_id: UUID, **_: Any) -> UUID:  # type: ignore[override]
        return uuid5(campaign_id, "house")

    @event("Created")
    def __init__(self, campaign_id: UUID, actor: str) -> None:
        self.campaign_id = campaign_id
        self.pile = 0
        self.adventure = 0
        self.antagonists: list[str] = []  # names, in the order they were enlisted

    def open_budget(self, adventure: int, player_piles: int, amount: int | None, note: str | None, actor: str) -> None:
        note = clean_text(note or "", "the note", max_length=500, ruling="PA-3", required=False) or None
        if amount is None:
            if note:
                raise RuleViolation("a note goes with an agreed amount; give the amount too", ruling="PA-3")
            amount = player_piles
        else:
            whole_pennies(amount, "the House pile", ruling="PA-3")
            if amount != player_piles and not note:
                raise RuleViolation(
                    f"the House pile is the sum of the player piles ({player_piles}) "
                    "unless a note records the table's agreement",
                    ruling="PA-3",
                )
        self._budget_opened(adventure=adventure, amount=amount, player_piles=player_piles, note=note, actor=actor)

    @event("BudgetOpened")
    def _budget_opened(self, adventure: int, amount: int, player_piles: int, note: str | None, actor: str) -> None:
        self.adventure = adventure
        self.pile = amount

    def enlist(self, name: str, actor: str) -> None:
        if name.casefold() in {n.casefold() for n in self.antagonists}:
            raise RuleViolation(f"the House already has an antagonist or obstacle named {name!r}", ruling="PA-4")
        self._enlisted(name=name, actor=actor)

    @event("AntagonistEnlisted")
    def _enlisted(self, name: str, actor: str) -> None:
        self.antagonists.append(name)

    def antagonist_name(self, name: str) -> str:
        for known in self.antagonists:
            if known.casefold() == " ".join(name.split()).casefold():
                return known
        raise NotFound(f"the House has no antagonist or obstacle named {name!r}")

    def allocate(self, antagonist: str, amount: int, *, adventure_running: bool, actor: str) -> None:
        if not adventure_running:
            raise RuleViolation("the House funds antagonists from its pile during an adventure", ruling="PA-4")
        whole_pennies(amount, "an allocation", minimum=1, ruling="PA-4")
        if amount > self.pile:
            raise RuleViolation(f"the House pile holds {self.pile} pennies, not {amount}", ruling="PA-4")
        self._allocated(antagonist=antagonist, amount=amount, adventure=self.adventure, actor=actor)

    @event("PenniesAllocated")
    def _allocated(self, antagonist: str, amount: int, adventure: int, actor: str) -> None:
        self.pile -= amount

    def close_budget(self, adventure: int, actor: str) -> None:
        self._budget_closed(adventure=adventure, retired=self.pile, actor=actor)

    @event("BuyoutPaid")
    def pay_buyout(self, challenge_id: str, amount: int, actor: str) -> None:
        """PA-15: the House's mandatory one-penny bid, when accepted."""
        self.pile -= amount

    @event("BudgetClosed")
    def _budget_closed(self, adventure: int, retired: int, actor: str) -> None:
        self.pile = 0


class Antagonist(Aggregate):
    """An antagonist or obstacle with its own pennies and (hidden) characteristics (PA-4, C-5)."""

    @staticmethod
    def create_id(campaign_id: UUID, name: str, **_: Any) -> UUID:  # type: ignore[override]
        return uuid5(campaign_id, f"antagonist/{name.casefold()}")

    @event("Created")
    def __init__(self, campaign_id: UUID, name: str, kind: str, characteristics: list[str], actor: str) -> None:
        self.campaign_id = campaign_id
        self.name = name
        self.kind = kind
        self.characteristics = list(characteristics)
        self.pennies = 0
        self.engaged: str | None = None  # the challenge it is in, if any (PA-17)

    @classmethod
    def enlist(cls, campaign_id: UUID, name: str, kind: str, characteristics: list[str], actor: str) -> Antagonist:
        name = characteristic_name(name, ruling="PA-4")
        if set(name) & set("/?#%\\") or not name.strip("."):
            raise RuleViolation("an antagonist's name has no '/', '?', '#', '%' or '\\' and is not only dots",
                                ruling="PA-4")
        if kind not in KINDS:
            raise RuleViolation(f"the House funds antagonists or obstacles, not {kind!r}", ruling="PA-4")
        cleaned: list[str] = []
        for raw in characteristics:
            c = characteristic_name(raw, ruling="PA-4")
            require_new_name(c, cleaned, name, ruling="PA-4")
            cleaned.append(c)
        return cls(campaign_id=campaign_id, name=name, kind=kind, characteristics=cleaned, actor=actor)

    def add_characteristic(self, name: str, actor: str) -> None:
        name = characteristic_name(name, ruling="PA-4")
        require_new_name(name, self.characteristics, self.name, ruling="PA-4")
        self._characteristic_added(name=name, actor=actor)

    @event("CharacteristicAdded")
    def _characteristic_added(self, name: str, actor: str) -> None:
        self.characteristics.append(name)

    def fund(self, amount: int, cap: int | None, adventure: int, actor: str) -> None:
        if self.engaged:
            raise RuleViolation(f"{self.name} is in a challenge; top it up between challenges", ruling="PA-17")
        if cap is not None and self.pennies + amount > cap:
            raise RuleViolation(
                f"{self.name} may hold at most {cap} pennies in this campaign; it holds {self.pennies}",
                ruling="PA-4",
            )
        self._funded(amount=amount, adventure=adventure, actor=actor)

    @event("Funded")
    def _funded(self, amount: int, adventure: int, actor: str) -> None:
        self.pennies += amount

    def retire_pennies(self, adventure: int, actor: str) -> None:
        self._pennies_retired(amount=self.pennies, adventure=adventure, actor=actor)

    @event("PenniesRetired")
    def _pennies_retired(self, amount: int, adventure: int, actor: str) -> None:
        self.pennies = 0

    # -- challenges (PA-9, PA-12, PA-17) -----------------------------------------------
    @event("EnteredChallenge")
    def enter_challenge(self, challenge_id: str, stake: int | None, actor: str) -> None:
        """While engaged the House cannot top the antagonist up (PA-17)."""
        self.engaged = challenge_id

    @event("PenniesWagered")
    def wager(self, challenge_id: str, amount: int, actor: str) -> None:
        self.pennies -= amount

    @event("SettlementCorrected")
    def correct_settlement(self, challenge_id: str, amount: int, actor: str) -> None:
        """An overturned challenge (C-6) moved ``amount`` pennies in (or, negative, out of) this purse."""
        self.pennies += amount

    @event("PenniesReturned")
    def take_back(self, challenge_id: str, amount: int, actor: str) -> None:
        self.pennies += amount

    @event("StakesSettled")
    def settle_stakes(self, challenge_id: str, staked: int, received: int, actor: str) -> None:
        self.pennies += received
        self.engaged = None

    def repay(self, loan_id: UUID, amount: int, actor: str) -> None:
        """The House pays back, from this antagonist, a debt an overturn left it (C-6)."""
        if amount > self.pennies:
            raise RuleViolation(f"a repayment of {amount} is more than {self.name}'s {self.pennies} pennies",
                                ruling="PA-14")
        self._repayment_paid(loan_id=loan_id.hex, amount=amount, actor=actor)

    @event("RepaymentPaid")
    def _repayment_paid(self, loan_id: str, amount: int, actor: str) -> None:
        self.pennies -= amount

    @event("RepaymentReceived")
    def receive_repayment(self, loan_id: str, amount: int, actor: str) -> None:
        """A bankruptcy debt owed to this antagonist is repaid (PA-15)."""
        self.pennies += amount
