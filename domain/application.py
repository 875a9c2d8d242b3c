"""The use cases of Stakes: a thin application over the aggregates.

Every public method takes the acting :class:`Seat`, checks what that seat may
do, lets the aggregates verify the rules (refusing before anything changes),
and saves all touched aggregates in one atomic ``save``. A save that loses an
optimistic-concurrency race (``IntegrityError``) is retried from a fresh read;
a command that keeps losing raises :class:`ConcurrencyConflict` (HTTP 409).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError, Application

from domain.campaign import Campaign
from domain.currency import whole_pennies
from domain.errors import NotFound, NotPermitted, RuleViolation
from domain.penny_ante.character import Character
from domain.penny_ante.house import Antagonist, House
from domain.penny_ante.challenge import Challenge
from domain.penny_ante.loan import Debt, Loan
from domain.penny_ante.play import ChallengeCommands
from domain.pool.character import PoolCharacter
from domain.pool.play import PoolCommands
from domain.pool.rolls import PoolContest, PoolRoll
from domain.penny_ante.rules import characteristic_name
from domain.seats import HOUSE, Seat, player_handle
from domain.retry import retried, retry_conflicts
from domain.systems import rule_system
from domain.text import clean_text

T = TypeVar("T")


def _require_house(actor: Seat, doing: str) -> None:
    if not actor.is_house:
        raise NotPermitted(f"only the House may {doing}")


def _require_seat(actor: Seat, seat: str, doing: str) -> None:
    if actor.name != seat:
        raise NotPermitted(f"only {seat} may {doing}")


class StakesApplication(ChallengeCommands, PoolCommands, Application[UUID]):
    name = "Stakes"
    is_snapshotting_enabled = True
    snapshotting_intervals = {Campaign: 25, Character: 25, Loan: 25, Debt: 25, Antagonist: 25, House: 25,
                              Challenge: 25, PoolCharacter: 25, PoolRoll: 25, PoolContest: 25}

    # -- reading aggregates -------------------------------------------------
    def _get(self, cls: type[T], aggregate_id: UUID, what: str) -> T:
        try:
            aggregate = self.repository.get(aggregate_id)
        except AggregateNotFoundError:
            raise NotFound(f"no {what} {aggregate_id}") from None
        if not isinstance(aggregate, cls):
            raise NotFound(f"no {what} {aggregate_id}")
        return aggregate

    def campaign(self, campaign_id: UUID) -> Campaign:
        return self._get(Campaign, campaign_id, "campaign")

    def _system(self, campaign_id: UUID, system: str, name: str) -> Campaign:
        campaign = self.campaign(campaign_id)
        if campaign.system != system:
            raise RuleViolation(f"this is a {campaign.system} campaign; that is {name}'s", ruling="C-1")
        return campaign

    def _penny_ante(self, campaign_id: UUID) -> Campaign:
        return self._system(campaign_id, "penny-ante", "Penny Ante")

    def _character(self, campaign: Campaign, seat: str) -> Character:
        return self._get(Character, campaign.character_id(seat), "character")

    def _house(self, campaign: Campaign) -> House:
        return self._get(House, House.create_id(campaign.id), "House")

    def _loan(self, campaign: Campaign, loan_id: UUID) -> Loan:
        loan = self._get(Loan, loan_id, "loan")
        if loan.campaign_id != campaign.id:
            raise NotFound(f"no loan {loan_id} in this campaign")
        return loan

    def _antagonist(self, campaign: Campaign, house: House, name: str) -> Antagonist:
        known = house.antagonist_name(name)
        return self._get(Antagonist, Antagonist.create_id(campaign.id, known), "antagonist")

    # -- C-1: campaigns and seats -------------------------------------------
    @retried
    def create_campaign(self, name: str, system: str, settings: Mapping[str, Any] | None = None) -> UUID:
        """Create a campaign; whoever creates it holds the House seat."""
        cleaned = clean_text(name, "a campaign's name", max_length=120, ruling="C-1")
        rules = rule_system(system)
        assert rules.settings is not None
        campaign = Campaign(name=cleaned, system=system, settings=rules.settings(settings or {}), actor=HOUSE)
        extra = [House(campaign_id=campaign.id, actor=HOUSE)] if rules.economy else []
        self.save(campaign, *extra)
        return campaign.id

    @retried
    def add_player(
        self,
        campaign_id: UUID,
        actor: Seat,
        seat: str,
        character: str,
        characteristic: str | None = None,
        description: str | None = None,
        traits: Mapping[str, Any] | None = None,
    ) -> UUID:
        """Seat a player with one character (C-1), made by the campaign's system: for Penny Ante at the
        agreed pile (PA-1) with a first characteristic free (PA-2); for the Pool from a description, a
        pool and traits bought at creation (PL-1)."""
        _require_house(actor, "seat players")
        campaign = self.campaign(campaign_id)
        seat = player_handle(seat)
        name = clean_text(character, "a character's name", max_length=80, ruling="C-1")
        if campaign.system == "pool":
            if characteristic:
                raise RuleViolation("a Pool character has traits, not characteristics", ruling="PL-1")
            char: Character | PoolCharacter = PoolCharacter.create(
                campaign.id, seat, name, description or "", campaign.settings["starting_pool"], dict(traits or {}),
                actor.name)
        else:
            self._penny_ante(campaign_id)
            if description or traits:
                raise RuleViolation("a Penny Ante character has characteristics, not a description and traits",
                                    ruling="PA-2")
            first = characteristic_name(characteristic or "")
            char = Character(campaign_id=campaign.id, seat=seat, name=name, first_characteristic=first,
                             pile=campaign.settings["starting_pile"], actor=actor.name)
        campaign.seat_player(seat, char.id, actor.name)
        self.save(campaign, char)
        return char.id

    # -- PA-2 -----------------------------------------------------------------
    @retried
    def buy_characteristic(self, campaign_id: UUID, actor: Seat, seat: str, name: str) -> None:
        _require_seat(actor, seat, "buy characteristics for this character")
        campaign = self._penny_ante(campaign_id)
        character = self._character(campaign, seat)
        character.buy_characteristic(name, adventure_running=campaign.adventure_running, actor=actor.name)
        self.save(character)

    # -- PA-3 -----------------------------------------------------------------
    @retried
    def start_adventure(self, campaign_id: UUID, actor: Seat, amount: int | None = None, note: str | None = None) -> int:
        """Open the House budget and mark every unpaid loan defaulted (PA-3, PA-14)."""
        _require_house(actor, "start an adventure")
        campaign = self.campaign(campaign_id)
        if not rule_system(campaign.system).economy:  # C-1: adventures are common; the budget is Penny Ante's
            if amount is not None or note:
                raise RuleViolation(f"a {campaign.system} campaign has no House budget", ruling="C-1")
            number = campaign.start_adventure(actor.name)
            self.save(campaign)
            return number
        characters = [self._character(campaign, seat) for seat in campaign.players]
        house = self._house(campaign)
        number = campaign.start_adventure(actor.name)
        house.open_budget(number, sum(c.pile for c in characters), amount, note, actor.name)
        for character in characters:
            character.join_adventure(number, character.pile, actor.name)
        defaulted = []
        for loan_id in sorted({loan for c in characters for loan in c.owes}):
            loan = self._get(Loan, UUID(loan_id), "loan")
            if loan.status == "active" and not isinstance(loan, Debt):  # PA-16: debts have no due date
                loan.mark_defaulted(number, actor.name)
                defaulted.append(loan)
        self.save(campaign, house, *characters, *defaulted)
        return number

    @retried
    def end_adventure(self, campaign_id: UUID, actor: Seat) -> int:
        """Whatever the House side holds leaves play (PA-3)."""
        _require_house(actor, "end an adventure")
        campaign = self.campaign(campaign_id)
        if not rule_system(campaign.system).economy:
            number = campaign.end_adventure(actor.name)
            self.save(campaign)
            return number
        house = self._house(campaign)
        number = campaign.end_adventure(actor.name)
        antagonists = [self._antagonist(campaign, house, name) for name in house.antagonists]
        holding = [a for a in antagonists if a.pennies]
        for antagonist in holding:
            antagonist.retire_pennies(number, actor.name)
        house.close_budget(number, actor.name)
        self.save(campaign, house, *holding)
        return number

    # -- PA-4 -----------------------------------------------------------------
    @retried
    def create_antagonist(
        self, campaign_id: UUID, actor: Seat, name: str, kind: str = "antagonist", characteristics: list[str] | None = None
    ) -> str:
        _require_house(actor, "create antagonists and obstacles")
        campaign = self._penny_ante(campaign_id)
        house = self._house(campaign)
        antagonist = Antagonist.enlist(campaign.id, name, kind, characteristics or [], actor.name)
        house.enlist(antagonist.name, actor.name)
        self.save(house, antagonist)
        return antagonist.name

    @retried
    def add_antagonist_characteristic(self, campaign_id: UUID, actor: Seat, antagonist: str, name: str) -> None:
        _require_house(actor, "give antagonists characteristics")
        campaign = self._penny_ante(campaign_id)
        target = self._antagonist(campaign, self._house(campaign), antagonist)
        target.add_characteristic(name, actor.name)
        self.save(target)

    @retried
    def fund_antagonist(self, campaign_id: UUID, actor: Seat, antagonist: str, amount: int) -> None:
        _require_house(actor, "fund antagonists")
        campaign = self._penny_ante(campaign_id)
        house = self._house(campaign)
        target = self._antagonist(campaign, house, antagonist)
        house.allocate(target.name, amount, adventure_running=campaign.adventure_running, actor=actor.name)
        target.fund(amount, campaign.settings.get("antagonist_cap"), campaign.adventure, actor.name)
        self.save(house, target)

    # -- PA-14 ----------------------------------------------------------------
    @retried
    def offer_loan(self, campaign_id: UUID, actor: Seat, borrower: str, amount: int) -> UUID:
        if actor.is_house:
            raise NotPermitted("loans are between players; the House does not lend", ruling="PA-14")
        campaign = self._penny_ante(campaign_id)
        lender = self._character(campaign, actor.name)
        borrower_char = self._character(campaign, player_handle(borrower))
        if borrower_char.seat == lender.seat:
            raise RuleViolation("a player cannot lend to himself", ruling="PA-14")
        whole_pennies(amount, "a loan", minimum=1, ruling="PA-14")
        if amount > lender.pile:
            raise RuleViolation(f"a loan is at most the lender's pile ({lender.pile}), not {amount}", ruling="PA-14")
        loan = Loan(
            campaign_id=campaign.id, lender=lender.seat, borrower=borrower_char.seat,
            amount=amount, adventure=campaign.adventure, actor=actor.name,
        )
        self.save(loan)
        return loan.id

    @retried
    def accept_loan(self, campaign_id: UUID, actor: Seat, loan_id: UUID) -> None:
        campaign = self._penny_ante(campaign_id)
        loan = self._loan(campaign, loan_id)
        _require_seat(actor, loan.borrower, "accept this loan")
        if loan.adventure != campaign.adventure:
            raise RuleViolation("this offer lapsed when a new adventure started; ask for a new one", ruling="PA-14")
        if loan.challenge_id and not self._challenge(campaign, UUID(loan.challenge_id)).round_open(loan.round):
            raise RuleViolation("a loan offered during a betting round is accepted inside that round",
                                ruling="PA-14")
        lender, borrower = self._character(campaign, loan.lender), self._character(campaign, loan.borrower)
        loan.accept(actor.name)
        lender.pay_out_loan(loan.id, loan.amount, actor.name)
        borrower.receive_loan(loan.id.hex, loan.amount, actor.name)
        self.save(loan, lender, borrower)

    @retried
    def decline_loan(self, campaign_id: UUID, actor: Seat, loan_id: UUID) -> None:
        loan = self._loan(self._penny_ante(campaign_id), loan_id)
        _require_seat(actor, loan.borrower, "decline this loan")
        loan.decline(actor.name)
        self.save(loan)

    @retried
    def withdraw_loan(self, campaign_id: UUID, actor: Seat, loan_id: UUID) -> None:
        loan = self._loan(self._penny_ante(campaign_id), loan_id)
        _require_seat(actor, loan.lender, "withdraw this offer")
        loan.withdraw(actor.name)
        self.save(loan)

    def _creditor(self, campaign: Campaign, loan: Loan) -> Character | Antagonist:
        """Who is owed: a player, or for a bankruptcy debt lost to the House an antagonist (PA-15)."""
        if getattr(loan, "lender_is_antagonist", False):
            return self._antagonist(campaign, self._house(campaign), loan.lender)
        return self._character(campaign, loan.lender)

    def _debtor(self, campaign: Campaign, loan: Loan) -> Character | Antagonist:
        if getattr(loan, "borrower_is_antagonist", False):
            return self._antagonist(campaign, self._house(campaign), loan.borrower)
        return self._character(campaign, loan.borrower)

    @retried
    def repay_loan(self, campaign_id: UUID, actor: Seat, loan_id: UUID, amount: int) -> None:
        campaign = self._penny_ante(campaign_id)
        loan = self._loan(campaign, loan_id)
        debtor_seat = "house" if getattr(loan, "borrower_is_antagonist", False) else loan.borrower
        _require_seat(actor, debtor_seat, "repay this loan")
        lender, borrower = self._creditor(campaign, loan), self._debtor(campaign, loan)
        loan.repay(amount, actor.name)
        borrower.repay(loan.id, amount, actor.name)
        lender.receive_repayment(loan.id.hex, amount, actor.name)
        self.save(loan, borrower, lender)

    @retried
    def forgive_loan(self, campaign_id: UUID, actor: Seat, loan_id: UUID) -> None:
        campaign = self._penny_ante(campaign_id)
        loan = self._loan(campaign, loan_id)
        creditor_seat = "house" if getattr(loan, "lender_is_antagonist", False) else loan.lender
        _require_seat(actor, creditor_seat, "forgive this loan")
        borrower = self._debtor(campaign, loan)
        amount = loan.forgive(actor.name)
        if isinstance(borrower, Character):
            borrower.debt_forgiven(loan.id.hex, amount, actor.name)
        self.save(loan, borrower)

    @retried
    def record_consequence(self, campaign_id: UUID, actor: Seat, loan_id: UUID, note: str) -> None:
        _require_house(actor, "record what befalls a defaulting borrower")
        loan = self._loan(self._penny_ante(campaign_id), loan_id)
        loan.record_consequence(note, actor.name)
        self.save(loan)

    # -- every system's units of resolution (C-1, C-6) -------------------------------------------------
    def _resolution(self, campaign: Campaign, resolution_id: UUID) -> Challenge | PoolRoll | PoolContest:
        try:
            found = self.repository.get(resolution_id)
        except AggregateNotFoundError:
            found = None
        if not isinstance(found, (Challenge, PoolRoll, PoolContest)) or found.campaign_id != campaign.id:
            raise NotFound(f"no challenge, roll or contest {resolution_id} in this campaign")
        return found

    def act(self, campaign_id: UUID, actor: Seat, resolution_id: UUID, action: str,
            args: Mapping[str, Any] | None = None) -> None:
        """One move in a challenge, a roll or a contest, whichever system it belongs to."""
        found = self._resolution(self.campaign(campaign_id), resolution_id)
        if isinstance(found, Challenge):
            return self.challenge_action(campaign_id, actor, resolution_id, action, dict(args or {}))

        def run() -> None:
            campaign = self.campaign(campaign_id)
            resolution = self._resolution(campaign, resolution_id)
            if isinstance(resolution, PoolRoll):
                touched = self._roll_action(campaign, actor, resolution, action, dict(args or {}))
            else:
                touched = self._contest_action(campaign, actor, resolution, action, dict(args or {}))
            self.save(*touched)

        return retry_conflicts(run)

    def rewind(self, campaign_id: UUID, actor: Seat, resolution_id: UUID, to_step: int, reason: str) -> None:
        """C-6: the House takes an open challenge or contest back to an earlier step."""
        if not actor.is_house:
            raise NotPermitted("only the House rewinds", ruling="C-6")
        found = self._resolution(self.campaign(campaign_id), resolution_id)
        if isinstance(found, Challenge):
            return self.rewind_challenge(campaign_id, actor, resolution_id, to_step, reason)
        if isinstance(found, PoolRoll):
            raise RuleViolation("a roll has a single step; overturn it instead", ruling="C-6")

        def run() -> None:
            campaign = self.campaign(campaign_id)
            self.save(*self._rewind_contest(campaign, self._resolution(campaign, resolution_id), to_step, reason,
                                            actor))

        return retry_conflicts(run)

    def overturn(self, campaign_id: UUID, actor: Seat, resolution_id: UUID, winner: str | None, void: bool,
                 reason: str) -> None:
        """C-6: the House overturns a settled challenge, or voids a settled roll."""
        if not actor.is_house:
            raise NotPermitted("only the House overturns", ruling="C-6")
        found = self._resolution(self.campaign(campaign_id), resolution_id)
        if isinstance(found, Challenge):
            return self.overturn_challenge(campaign_id, actor, resolution_id, winner, void, reason)
        if isinstance(found, PoolContest):
            raise RuleViolation("a settled contest is not overturned here yet; overturn works on challenges "
                                "and rolls", ruling="C-6")
        if winner is not None:
            raise RuleViolation("a roll has no winner to name; overturning it voids it", ruling="C-6")

        def run() -> None:
            campaign = self.campaign(campaign_id)
            self.save(*self._overturn_roll(campaign, self._resolution(campaign, resolution_id), reason, actor))

        return retry_conflicts(run)
