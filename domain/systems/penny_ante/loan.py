"""A loan between two players (PA-14): offered, then accepted or declined, then repaid or forgiven."""

from __future__ import annotations

from uuid import UUID

from eventsourcing.domain import Aggregate, event

from domain.errors import RuleViolation
from domain.systems.penny_ante.currency import whole_pennies
from domain.text import clean_text

OFFERED, ACTIVE, DECLINED, WITHDRAWN, REPAID, FORGIVEN, DEFAULTED, REVERSED, VOIDED = (
    "offered", "active", "declined", "withdrawn", "repaid", "forgiven", "defaulted", "reversed", "voided",
)
OUTSTANDING = (ACTIVE, DEFAULTED)
#: The moves on an offered loan (PA-14) and the party that makes each: the checks ``Loan`` and the handlers
#: refuse the others with, and what a challenge view lists as legal.
OFFER_MOVES = {"accept-loan": "borrower", "decline-loan": "borrower", "withdraw-loan": "lender"}


def offer_moves(status: str, lender: str, borrower: str, seat: str, *, round_open: bool = True,
                affordable: bool = True) -> list[str]:
    """The moves ``seat`` may make on a loan now (PA-14): only an offer is answered, the borrower accepts or
    declines it, the lender withdraws it; one offered during a betting round is accepted inside that round,
    and only while the lender's pile still holds the amount (``affordable``)."""
    if status != OFFERED:
        return []
    parties = {"borrower": borrower, "lender": lender}
    moves = [move for move, party in OFFER_MOVES.items() if parties[party] == seat]
    return [m for m in moves if m != "accept-loan" or (round_open and affordable)]


class Loan(Aggregate):
    @event("Offered")
    def __init__(
        self, campaign_id: UUID, lender: str, borrower: str, amount: int, adventure: int, actor: str,
        challenge_id: str | None = None, round: int = 0,
    ) -> None:
        self._terms(campaign_id, lender, borrower, amount, adventure, challenge_id, round)
        self.status = OFFERED
        self.outstanding = 0

    def _terms(self, campaign_id: UUID, lender: str, borrower: str, amount: int, adventure: int,
               challenge_id: str | None, round: int) -> None:
        self.campaign_id = campaign_id
        self.lender = lender
        self.borrower = borrower
        self.amount = amount
        self.adventure = adventure
        self.challenge_id = challenge_id  # PA-14: offered during this challenge's betting round
        self.round = round

    def _require(self, *statuses: str, doing: str) -> None:
        if self.status not in statuses:
            raise RuleViolation(f"this loan is {self.status}; it cannot be {doing}", ruling="PA-14")

    def accept(self, actor: str) -> None:
        self._require(OFFERED, doing="accepted")
        self._accepted(actor=actor)

    @event("Accepted")
    def _accepted(self, actor: str) -> None:
        self.status = ACTIVE
        self.outstanding = self.amount

    def decline(self, actor: str) -> None:
        self._require(OFFERED, doing="declined")
        self._declined(actor=actor)

    @event("Declined")
    def _declined(self, actor: str) -> None:
        self.status = DECLINED

    def withdraw(self, actor: str) -> None:
        self._require(OFFERED, doing="withdrawn")
        self._withdrawn(actor=actor)

    @event("Withdrawn")
    def _withdrawn(self, actor: str) -> None:
        self.status = WITHDRAWN

    def repay(self, amount: int, actor: str) -> None:
        self._require(*OUTSTANDING, doing="repaid")
        whole_pennies(amount, "a repayment", minimum=1, ruling="PA-14")
        if amount > self.outstanding:
            raise RuleViolation(f"only {self.outstanding} pennies are still owed, not {amount}", ruling="PA-14")
        self._repaid(amount=amount, actor=actor)

    @property
    def paid(self) -> int:
        """Pennies repaid on it so far (C-6: an overturn gives back what was repaid, never what was forgiven or
        voided). Kept by ``Repaid`` from this release on; a state from before (its snapshot) says it by what is
        no longer outstanding, exactly so unless it was forgiven or voided, which it cannot tell apart (0)."""
        kept = self.__dict__.get("_paid")
        if kept is not None:
            return int(kept)
        return self.amount - self.outstanding if self.status in (ACTIVE, DEFAULTED, REPAID) else 0

    @event("Repaid")
    def _repaid(self, amount: int, actor: str) -> None:
        before = self.paid
        self.outstanding -= amount
        self._paid = before + amount
        if not self.outstanding:
            self.status = REPAID

    def forgive(self, actor: str) -> int:
        self._require(*OUTSTANDING, doing="forgiven")
        amount = self.outstanding
        self._forgiven(amount=amount, actor=actor)
        return amount

    @event("Forgiven")
    def _forgiven(self, amount: int, actor: str) -> None:
        self.outstanding = 0
        self.status = FORGIVEN

    # -- C-6: undone with the step of the challenge it was made in ----------------------------
    def reverse(self, returned: int, reason: str, actor: str) -> None:
        """A rewind took the challenge back before this loan: an offer lapses, an accepted loan is paid back
        (``returned``: what the borrower could give back; the rest stays owed)."""
        self._require(OFFERED, ACTIVE, doing="reversed")
        self._reversed(returned=returned, reason=reason, actor=actor)

    @event("Reversed")
    def _reversed(self, returned: int, reason: str, actor: str) -> None:
        if self.status == OFFERED:
            self.status = REVERSED
            return
        self.outstanding -= returned
        if not self.outstanding:
            self.status = REVERSED

    def mark_defaulted(self, adventure: int, actor: str) -> None:
        self._require(ACTIVE, doing="marked defaulted")
        self._defaulted(adventure=adventure, actor=actor)

    @event("Defaulted")
    def _defaulted(self, adventure: int, actor: str) -> None:
        self.status = DEFAULTED

    def record_consequence(self, note: str, actor: str) -> None:
        self._require(DEFAULTED, doing="given a consequence (only a defaulted loan has one)")
        note = clean_text(note, "a consequence's note of what befalls the borrower", max_length=1000, ruling="PA-14")
        self._consequence_recorded(note=note, actor=actor)

    @event("ConsequenceRecorded")
    def _consequence_recorded(self, note: str, actor: str) -> None:
        self.consequence = note


class Debt(Loan):
    """A bankruptcy debt (PA-15, PA-16): recorded active, with no due date, so never defaulted."""

    @event("Recorded")
    def __init__(
        self, campaign_id: UUID, lender: str, borrower: str, amount: int, adventure: int, actor: str,
        challenge_id: str | None = None, round: int = 0, lender_is_antagonist: bool = False,
        borrower_is_antagonist: bool = False,
    ) -> None:
        self._terms(campaign_id, lender, borrower, amount, adventure, challenge_id, round)
        self.lender_is_antagonist = lender_is_antagonist
        self.borrower_is_antagonist = borrower_is_antagonist  # the House side owes it (an overturn, C-6)
        self.status = ACTIVE
        self.outstanding = amount

    def mark_defaulted(self, adventure: int, actor: str) -> None:
        raise RuleViolation("a bankruptcy debt has no due date and never defaults", ruling="PA-16")

    def void(self, reason: str, actor: str) -> int:
        """An overturn (C-6) cancelled the bankruptcy this debt came from."""
        self._require(*OUTSTANDING, doing="voided")
        amount = self.outstanding
        self._voided(amount=amount, reason=reason, actor=actor)
        return amount

    @event("Voided")
    def _voided(self, amount: int, reason: str, actor: str) -> None:
        self.outstanding = 0
        self.status = VOIDED
