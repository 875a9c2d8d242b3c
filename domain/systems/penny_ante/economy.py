"""Penny Ante's economy outside challenges: characters, the House budget, antagonists and loans
(PA-1 … PA-4, PA-14, PA-16). Handlers of the commands in ``commands.py``, and the loaders the
challenge handlers share.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from uuid import UUID

from domain.errors import NotFound, NotPermitted, RuleViolation
from domain.kernel.commands import Context, Handlers
from domain.seats import player_handle
from domain.systems.penny_ante import commands as cmd
from domain.systems.penny_ante.character import Character
from domain.systems.penny_ante.currency import whole_pennies
from domain.systems.penny_ante.house import Antagonist, House
from domain.systems.penny_ante.loan import Debt, Loan

if TYPE_CHECKING:
    from domain.application import StakesApplication
    from domain.campaign import Campaign

handles = Handlers()
handles.declare(cmd.AddPlayer, cmd.StartAdventure, cmd.Overturn)


def require_seat(ctx: Context, seat: str, doing: str) -> None:
    if ctx.actor.name != seat:
        raise NotPermitted(f"only {seat} may {doing}")


# -- loaders ----------------------------------------------------------------------------------------
def character(app: StakesApplication, campaign: Campaign, seat: str) -> Character:
    return app.get(Character, campaign.character_id(seat), "character")


def house(app: StakesApplication, campaign: Campaign) -> House:
    return app.get(House, House.create_id(campaign.id), "House")


def loan(app: StakesApplication, campaign: Campaign, loan_id: UUID) -> Loan:
    found = app.get(Loan, loan_id, "loan")
    if found.campaign_id != campaign.id:
        raise NotFound(f"no loan {loan_id} in this campaign")
    return found


def antagonist(app: StakesApplication, campaign: Campaign, the_house: House, name: str) -> Antagonist:
    known = the_house.antagonist_name(name)
    return app.get(Antagonist, Antagonist.create_id(campaign.id, known), "antagonist")


def creditor(app: StakesApplication, campaign: Campaign, debt: Loan) -> Character | Antagonist:
    """Who is owed: a player, or for a bankruptcy debt lost to the House an antagonist (PA-15)."""
    if getattr(debt, "lender_is_antagonist", False):
        return antagonist(app, campaign, house(app, campaign), debt.lender)
    return character(app, campaign, debt.lender)


def debtor(app: StakesApplication, campaign: Campaign, debt: Loan) -> Character | Antagonist:
    if getattr(debt, "borrower_is_antagonist", False):
        return antagonist(app, campaign, house(app, campaign), debt.borrower)
    return character(app, campaign, debt.borrower)


# -- PA-3: adventures (hooks of the shared commands) --------------------------------------------------
def adventure_started(app: StakesApplication, campaign: Campaign, number: int, command: cmd.StartAdventure,
                      actor: str) -> list[Any]:
    """Open the House budget and mark every unpaid loan defaulted (PA-3, PA-14)."""
    characters = [character(app, campaign, seat) for seat in campaign.players]
    the_house = house(app, campaign)
    the_house.open_budget(number, sum(c.pile for c in characters), command.amount, command.note, actor)
    for one in characters:
        one.join_adventure(number, one.pile, actor)
    defaulted = []
    for loan_id in sorted({owed for c in characters for owed in c.owes}):
        found = app.get(Loan, UUID(loan_id), "loan")
        if found.status == "active" and not isinstance(found, Debt):  # PA-16: debts have no due date
            found.mark_defaulted(number, actor)
            defaulted.append(found)
    return [the_house, *characters, *defaulted]


def adventure_ended(app: StakesApplication, campaign: Campaign, number: int, actor: str) -> list[Any]:
    """Whatever the House side holds leaves play (PA-3)."""
    the_house = house(app, campaign)
    holding = [a for a in (antagonist(app, campaign, the_house, n) for n in the_house.antagonists) if a.pennies]
    for one in holding:
        one.retire_pennies(number, actor)
    the_house.close_budget(number, actor)
    return [the_house, *holding]


# -- PA-2 -----------------------------------------------------------------------------------------------
@handles(cmd.BuyCharacteristic)
def buy_characteristic(app: StakesApplication, ctx: Context, command: cmd.BuyCharacteristic) -> None:
    seat = player_handle(command.seat)
    require_seat(ctx, seat, "buy characteristics for this character")
    campaign = app.campaign(ctx.campaign_id)
    one = character(app, campaign, seat)
    one.buy_characteristic(command.name, adventure_running=campaign.adventure_running, actor=ctx.actor.name)
    app.save(one)


# -- PA-4 -----------------------------------------------------------------------------------------------
@handles(cmd.CreateAntagonist)
def create_antagonist(app: StakesApplication, ctx: Context, command: cmd.CreateAntagonist) -> str:
    campaign = app.campaign(ctx.campaign_id)
    the_house = house(app, campaign)
    created = Antagonist.enlist(campaign.id, command.name, command.kind, list(command.characteristics),
                                ctx.actor.name)
    the_house.enlist(created.name, ctx.actor.name)
    app.save(the_house, created)
    return created.name


@handles(cmd.AddAntagonistCharacteristic)
def add_antagonist_characteristic(app: StakesApplication, ctx: Context,
                                  command: cmd.AddAntagonistCharacteristic) -> str:
    campaign = app.campaign(ctx.campaign_id)
    target = antagonist(app, campaign, house(app, campaign), command.antagonist)
    target.add_characteristic(command.name, ctx.actor.name)
    app.save(target)
    return target.name


@handles(cmd.FundAntagonist)
def fund_antagonist(app: StakesApplication, ctx: Context, command: cmd.FundAntagonist) -> str:
    campaign = app.campaign(ctx.campaign_id)
    the_house = house(app, campaign)
    target = antagonist(app, campaign, the_house, command.antagonist)
    the_house.allocate(target.name, command.amount, adventure_running=campaign.adventure_running,
                       actor=ctx.actor.name)
    target.fund(command.amount, campaign.settings.get("antagonist_cap"), campaign.adventure, ctx.actor.name)
    app.save(the_house, target)
    return target.name


# -- PA-14, PA-16 ---------------------------------------------------------------------------------------
@handles(cmd.OfferLoan)
def offer_loan(app: StakesApplication, ctx: Context, command: cmd.OfferLoan) -> UUID:
    campaign = app.campaign(ctx.campaign_id)
    lender = character(app, campaign, ctx.actor.name)
    borrower = character(app, campaign, player_handle(command.borrower))
    if borrower.seat == lender.seat:
        raise RuleViolation("a player cannot lend to himself", ruling="PA-14")
    amount = whole_pennies(command.amount, "a loan", minimum=1, ruling="PA-14")
    if amount > lender.pile:
        raise RuleViolation(f"a loan is at most the lender's pile ({lender.pile}), not {amount}", ruling="PA-14")
    offered = Loan(campaign_id=campaign.id, lender=lender.seat, borrower=borrower.seat, amount=amount,
                   adventure=campaign.adventure, actor=ctx.actor.name)
    app.save(offered)
    return offered.id


@handles(cmd.AcceptLoan)
def accept_loan(app: StakesApplication, ctx: Context, command: cmd.AcceptLoan) -> UUID:
    from domain.systems.penny_ante.play import challenge

    campaign = app.campaign(ctx.campaign_id)
    offer = loan(app, campaign, command.loan)
    require_seat(ctx, offer.borrower, "accept this loan")
    if offer.adventure != campaign.adventure:
        raise RuleViolation("this offer lapsed when a new adventure started; ask for a new one", ruling="PA-14")
    if offer.challenge_id and not challenge(app, campaign, UUID(offer.challenge_id)).round_open(offer.round):
        raise RuleViolation("a loan offered during a betting round is accepted inside that round", ruling="PA-14")
    lender, borrower = character(app, campaign, offer.lender), character(app, campaign, offer.borrower)
    offer.accept(ctx.actor.name)
    lender.pay_out_loan(offer.id, offer.amount, ctx.actor.name)
    borrower.receive_loan(offer.id.hex, offer.amount, ctx.actor.name)
    app.save(offer, lender, borrower)
    return offer.id


@handles(cmd.DeclineLoan)
def decline_loan(app: StakesApplication, ctx: Context, command: cmd.DeclineLoan) -> UUID:
    offer = loan(app, app.campaign(ctx.campaign_id), command.loan)
    require_seat(ctx, offer.borrower, "decline this loan")
    offer.decline(ctx.actor.name)
    app.save(offer)
    return offer.id


@handles(cmd.WithdrawLoan)
def withdraw_loan(app: StakesApplication, ctx: Context, command: cmd.WithdrawLoan) -> UUID:
    offer = loan(app, app.campaign(ctx.campaign_id), command.loan)
    require_seat(ctx, offer.lender, "withdraw this offer")
    offer.withdraw(ctx.actor.name)
    app.save(offer)
    return offer.id


@handles(cmd.RepayLoan)
def repay_loan(app: StakesApplication, ctx: Context, command: cmd.RepayLoan) -> UUID:
    campaign = app.campaign(ctx.campaign_id)
    owed = loan(app, campaign, command.loan)
    require_seat(ctx, "house" if getattr(owed, "borrower_is_antagonist", False) else owed.borrower,
                 "repay this loan")
    lender, borrower = creditor(app, campaign, owed), debtor(app, campaign, owed)
    owed.repay(command.amount, ctx.actor.name)
    borrower.repay(owed.id, command.amount, ctx.actor.name)
    lender.receive_repayment(owed.id.hex, command.amount, ctx.actor.name)
    app.save(owed, borrower, lender)
    return owed.id


@handles(cmd.ForgiveLoan)
def forgive_loan(app: StakesApplication, ctx: Context, command: cmd.ForgiveLoan) -> UUID:
    campaign = app.campaign(ctx.campaign_id)
    owed = loan(app, campaign, command.loan)
    require_seat(ctx, "house" if getattr(owed, "lender_is_antagonist", False) else owed.lender, "forgive this loan")
    borrower = debtor(app, campaign, owed)
    amount = owed.forgive(ctx.actor.name)
    if isinstance(borrower, Character):
        borrower.debt_forgiven(owed.id.hex, amount, ctx.actor.name)
    app.save(owed, borrower)
    return owed.id


@handles(cmd.RecordConsequence)
def record_consequence(app: StakesApplication, ctx: Context, command: cmd.RecordConsequence) -> UUID:
    owed = loan(app, app.campaign(ctx.campaign_id), command.loan)
    owed.record_consequence(command.note, ctx.actor.name)
    app.save(owed)
    return owed.id
