"""Use cases of a Penny Ante challenge (PA-5 … PA-18): handlers of its commands and actions.

Each command loads the challenge and the purses of everyone it touches,
lets the challenge verify and record the move, then mirrors every penny the
move shifted onto the members' own aggregates, and saves them all at once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from uuid import UUID

from domain.errors import NotFound, NotPermitted, RuleViolation
from domain.fairness import commitment
from domain.kernel.commands import Context
from domain.seats import Seat, player_handle
from domain.systems.penny_ante import commands as cmd
from domain.systems.penny_ante import economy
from domain.systems.penny_ante.challenge import ALLIANCE, ANTAGONIST, CHARACTER, SIDES, Challenge
from domain.systems.penny_ante.character import Character
from domain.systems.penny_ante.currency import whole_pennies
from domain.systems.penny_ante.economy import handles
from domain.systems.penny_ante.house import Antagonist
from domain.systems.penny_ante.loan import Debt, Loan

if TYPE_CHECKING:
    from domain.application import StakesApplication
    from domain.campaign import Campaign

class Table:
    """The aggregates one challenge command touches, loaded once."""

    def __init__(self, app: StakesApplication, campaign: Campaign, challenge: Challenge) -> None:
        self.app, self.campaign, self.challenge = app, campaign, challenge
        self.purses: dict[str, Character | Antagonist] = {}
        house = economy.house(app, campaign)
        self.house = house
        for side in SIDES:
            data = challenge.sides[side]
            for member in data["members"]:
                if data["kind"] == ANTAGONIST:
                    self.purses[member] = economy.antagonist(app, campaign, house, member)
                else:
                    self.purses[member] = economy.character(app, campaign, member)
        self.before = challenge.staked()
        self.extra: list[Any] = []

    def loaded(self, app: StakesApplication, seat: str) -> Character:
        """A character outside the challenge, loaded once per command (so two loans share one copy)."""
        for aggregate in self.extra:
            if isinstance(aggregate, Character) and aggregate.seat == seat:
                return aggregate
        return economy.character(app, self.campaign, seat)

    def piles(self) -> dict[str, int]:
        return {m: (p.pennies if isinstance(p, Antagonist) else p.pile) for m, p in self.purses.items()}

    def mirror(self, actor: str) -> None:
        """Copy onto the purses what the last move put into the pot or gave back (PA-9, PA-12)."""
        ch = self.challenge
        after = ch.staked()
        for member, purse in self.purses.items():
            delta = after.get(member, 0) - self.before.get(member, 0)
            if delta > 0:
                purse.wager(ch.id.hex, delta, actor)
            elif delta < 0:
                purse.take_back(ch.id.hex, -delta, actor)
        self.before = after

    def characteristics(self) -> dict[str, list[str]]:
        """Each player member's own characteristics: a bankrupt without one is offered no buyout (PA-24)."""
        return {m: list(p.characteristics) for m, p in self.purses.items() if isinstance(p, Character)}

    def settle_if_due(self, actor: str) -> None:
        ch = self.challenge
        if ch.awaiting_settlement:
            ch.settle(self.piles(), self.house.pile, actor, characteristics=self.characteristics())
        self.pay_out(actor)

    def pay_out(self, actor: str) -> None:
        ch = self.challenge
        if ch.settled and ch.result and "payouts" in ch.result and ch.id.hex in self.campaign.open_challenges:
            staked = ch.staked()
            for member, purse in self.purses.items():
                purse.settle_stakes(ch.id.hex, staked.get(member, 0), ch.result["payouts"].get(member, 0), actor)
            self.campaign.close_challenge(ch.id.hex, actor)

    def touched(self) -> list[Any]:
        return [self.challenge, *self.purses.values(), self.house, *self.extra, self.campaign]


def challenge(app: StakesApplication, campaign: Campaign, challenge_id: UUID) -> Challenge:
    found = app.get(Challenge, challenge_id, "challenge")
    if found.campaign_id != campaign.id:
        raise NotFound(f"no challenge {challenge_id} in this campaign")
    return found


def side_spec(app: StakesApplication, campaign: Campaign, spec: cmd.Side) -> dict[str, Any]:
    if spec.antagonist and spec.players:
        raise RuleViolation("a side is a character, an alliance of characters, or an antagonist: not players and "
                            "an antagonist together", ruling="PA-5")
    if spec.antagonist:
        name = economy.house(app, campaign).antagonist_name(str(spec.antagonist))
        return {"kind": ANTAGONIST, "members": [name]}
    players = [player_handle(p) for p in spec.players or []]
    if not players:
        raise RuleViolation("a side is a character, an alliance of characters, or an antagonist", ruling="PA-5")
    if len(set(players)) != len(players):
        raise RuleViolation("an alliance names each member once", ruling="PA-18")
    for player in players:
        campaign.character_id(player)  # NotFound for a stranger
    return {"kind": CHARACTER if len(players) == 1 else ALLIANCE, "members": players}


@handles(cmd.AnnounceChallenge)
def announce(app: StakesApplication, ctx: Context, command: cmd.AnnounceChallenge) -> UUID:
    """Announce a challenge (PA-5, PA-6, PA-7, PA-17); the secret seed was drawn outside (C-4)."""
    actor, secret_seed = ctx.actor, ctx.secret or ""
    campaign = app.campaign(ctx.campaign_id)
    first, second = side_spec(app, campaign, command.challenger), side_spec(app, campaign, command.opponent)
    if first["kind"] == ANTAGONIST:
        if not actor.is_house:
            raise NotPermitted("only the House challenges through an antagonist")
    elif actor.name != first["members"][0]:
        raise NotPermitted("a player announces for himself; an alliance is announced by its declarer",
                           ruling="PA-18")
    house = economy.house(app, campaign)
    antagonists = [economy.antagonist(app, campaign, house, s["members"][0]) for s in (first, second)
                   if s["kind"] == ANTAGONIST]
    for antagonist in antagonists:
        if antagonist.engaged:
            raise RuleViolation(f"{antagonist.name} is already in a challenge", ruling="PA-5")
    whole_pennies(command.ante, "the ante", minimum=1, ruling="PA-6")
    stake = command.stake
    if stake is None and first["kind"] == ANTAGONIST:  # PA-17: the House devotes a stake; unnamed, the whole purse
        stake = antagonists[0].pennies
    announced = Challenge.announce(
        campaign_id=campaign.id, adventure=campaign.adventure, challenger=first, opponent=second,
        ante=command.ante, stake=stake, table=command.table or bool(campaign.settings.get("table_dice")),
        seed_hash=commitment(secret_seed), secret_seed=secret_seed, circumstance=command.circumstance,
        antagonist_pennies=antagonists[0].pennies if antagonists else None, actor=actor.name,
    )
    campaign.open_challenge(announced.id, actor.name)
    for antagonist in antagonists:
        antagonist.enter_challenge(announced.id.hex, stake, actor.name)
    app.save(campaign, announced, *antagonists)
    return announced.id


# -- challenge actions: one handler per action, registered in the order the actions are listed ------------------
# Each loads the challenge's ``Table`` once and returns every aggregate the move touched, to be saved at once.
def _side(table: Table, actor: Seat) -> str:
    """The acting seat's side: only the seats of a side play its moves (PA-5)."""
    side = table.challenge.side_of(actor.name)
    if side is None:
        raise NotPermitted("only the seats of a side play its moves", ruling="PA-5")
    return side


def _played(table: Table, actor: Seat) -> list[Any]:
    """After a side's move: what it put into the pot or gave back goes onto the purses (PA-9, PA-12), and a
    challenge the move decided is settled and paid out."""
    table.mirror(actor.name)
    table.settle_if_due(actor.name)
    return table.touched()


@handles(cmd.Seed)
def seed(app: StakesApplication, ctx: Context, campaign: Campaign, unit: Challenge, command: cmd.Seed) -> list[Any]:
    """C-4, C-10: a first seed, or the fresh seed after the House's choices (C-9), through the kernel's
    ``give_input``: the last fresh seed draws the reroll, and a showdown it leads to is settled, in one write."""
    table = Table(app, campaign, unit)
    unit.give_input(_side(table, ctx.actor), command.seed, ctx.actor.name)
    return _played(table, ctx.actor)


@handles(cmd.Pass)
def pass_seed(app: StakesApplication, ctx: Context, campaign: Campaign, unit: Challenge,
              command: cmd.Pass) -> list[Any]:
    table = Table(app, campaign, unit)
    unit.pass_seed(_side(table, ctx.actor), ctx.actor.name)
    return _played(table, ctx.actor)


@handles(cmd.Circumstance)
def circumstance(app: StakesApplication, ctx: Context, campaign: Campaign, unit: Challenge,
                 command: cmd.Circumstance) -> list[Any]:
    table = Table(app, campaign, unit)
    side = _side(table, ctx.actor)
    unit.declare_circumstance(side, command.text, False, table.piles(), ctx.actor.name)
    return _played(table, ctx.actor)


@handles(cmd.DoubleDown)
def double_down(app: StakesApplication, ctx: Context, campaign: Campaign, unit: Challenge,
                command: cmd.DoubleDown) -> list[Any]:
    table = Table(app, campaign, unit)
    side = _side(table, ctx.actor)
    unit.declare_circumstance(side, command.text, True, table.piles(), ctx.actor.name)
    return _played(table, ctx.actor)


@handles(cmd.Declare)
def declare(app: StakesApplication, ctx: Context, campaign: Campaign, unit: Challenge,
            command: cmd.Declare) -> list[Any]:
    table = Table(app, campaign, unit)
    side = _side(table, ctx.actor)
    unit.declare_characteristics(side, list(command.characteristics), side_list(table, side), ctx.actor.name)
    return _played(table, ctx.actor)


@handles(cmd.Roll)
def roll(app: StakesApplication, ctx: Context, campaign: Campaign, unit: Challenge, command: cmd.Roll) -> list[Any]:
    table = Table(app, campaign, unit)
    side = _side(table, ctx.actor)
    unit.roll(side, table.piles(), command.dice, ctx.actor.name)
    return _played(table, ctx.actor)


@handles(cmd.Keep)
def keep(app: StakesApplication, ctx: Context, campaign: Campaign, unit: Challenge, command: cmd.Keep) -> list[Any]:
    table = Table(app, campaign, unit)
    unit.keep(_side(table, ctx.actor), list(command.cup), ctx.actor.name)
    return _played(table, ctx.actor)


def _bet(app: StakesApplication, ctx: Context, campaign: Campaign, unit: Challenge, action: str,
         amount: int | None) -> list[Any]:
    """One bet of the betting round (PA-9 … PA-12)."""
    table = Table(app, campaign, unit)
    side = _side(table, ctx.actor)
    unit.bet(side, action, amount, table.piles(), ctx.actor.name)
    return _played(table, ctx.actor)


@handles(cmd.Check)
def check(app: StakesApplication, ctx: Context, campaign: Campaign, unit: Challenge, command: cmd.Check) -> list[Any]:
    return _bet(app, ctx, campaign, unit, command.action, None)


@handles(cmd.Call)
def call(app: StakesApplication, ctx: Context, campaign: Campaign, unit: Challenge, command: cmd.Call) -> list[Any]:
    return _bet(app, ctx, campaign, unit, command.action, None)


@handles(cmd.Raise)
def raise_bet(app: StakesApplication, ctx: Context, campaign: Campaign, unit: Challenge,
              command: cmd.Raise) -> list[Any]:
    return _bet(app, ctx, campaign, unit, command.action, command.amount)


@handles(cmd.Fold)
def fold(app: StakesApplication, ctx: Context, campaign: Campaign, unit: Challenge, command: cmd.Fold) -> list[Any]:
    return _bet(app, ctx, campaign, unit, command.action, None)


@handles(cmd.AllIn)
def all_in(app: StakesApplication, ctx: Context, campaign: Campaign, unit: Challenge,
           command: cmd.AllIn) -> list[Any]:
    return _bet(app, ctx, campaign, unit, command.action, None)


def side_list(table: Table, side: str) -> list[str]:
    """The characteristics a side may name: its member's, an alliance's together (PA-8)."""
    names: list[str] = []
    for member in table.challenge.sides[side]["members"]:
        names += [n for n in table.purses[member].characteristics if n not in names]
    return names


@handles(cmd.Lend)
def lend(app: StakesApplication, ctx: Context, campaign: Campaign, unit: Challenge, command: cmd.Lend) -> list[Any]:
    """PA-14: a player outside the challenge offers one loan per betting round to a member of a side."""
    table = Table(app, campaign, unit)
    actor = ctx.actor
    if actor.is_house:
        raise NotPermitted("loans are between players; the House does not lend", ruling="PA-14")
    lender = economy.character(app, campaign, actor.name)
    borrower = player_handle(command.borrower)
    amount = whole_pennies(command.amount, "a loan", minimum=1, ruling="PA-14")
    if amount > lender.pile:
        raise RuleViolation(f"a loan is at most the lender's pile ({lender.pile}), not {amount}", ruling="PA-14")
    offered = Loan(campaign_id=campaign.id, lender=actor.name, borrower=borrower, amount=amount,
                   adventure=campaign.adventure, actor=actor.name, challenge_id=unit.id.hex, round=unit.round)
    unit.record_loan_offer(offered.id, actor.name, borrower, actor.name, amount=amount, lender_pile=lender.pile)
    table.extra.append(offered)
    return table.touched()


@handles(cmd.Bid)
def bid(app: StakesApplication, ctx: Context, campaign: Campaign, unit: Challenge, command: cmd.Bid) -> list[Any]:
    """PA-15: a player outside the challenge bids once to buy a bankrupt out."""
    table = Table(app, campaign, unit)
    actor = ctx.actor
    if actor.is_house:
        raise NotPermitted("the House's one-penny bid is placed for it", ruling="PA-15")
    bidder = economy.character(app, campaign, actor.name)
    member = player_handle(command.member)
    unit.bid(actor.name, member, command.amount, bidder.pile, actor.name,
             characteristics=table.characteristics().get(member, []))  # the bankrupt's own (PA-24)
    return table.touched()


def _bankrupt(table: Table, actor: Seat, named: str | None) -> tuple[str, Character]:
    """PA-15: the bankrupt member who chooses between debt and buyout (the acting seat), and his purse."""
    member = player_handle(named or actor.name)
    if actor.name != member:
        raise NotPermitted(f"only {member} chooses between debt and buyout", ruling="PA-15")
    purse = table.purses.get(member)
    if not isinstance(purse, Character):
        raise RuleViolation(f"{member} has no bankruptcy to resolve", ruling="PA-15")
    table.challenge.verify_bankruptcy(member)
    return member, purse


@handles(cmd.TakeDebt)
def take_debt(app: StakesApplication, ctx: Context, campaign: Campaign, unit: Challenge,
              command: cmd.TakeDebt) -> list[Any]:
    """PA-15: the bankrupt takes back what he lost as a debt to whoever won it."""
    table = Table(app, campaign, unit)
    actor = ctx.actor
    member, purse = _bankrupt(table, actor, command.member)
    creditors, is_antagonist = unit.creditors(member)
    debts = {creditor: Debt(campaign_id=campaign.id, lender=creditor, borrower=member, amount=amount,
                            adventure=campaign.adventure, challenge_id=unit.id.hex,
                            lender_is_antagonist=is_antagonist, actor=actor.name)
             for creditor, amount in creditors.items()}
    unit.take_debt(member, {c: d.id for c, d in debts.items()}, actor.name)
    for debt in debts.values():
        purse.incur_debt(debt.id.hex, debt.amount, actor.name)
    table.extra += list(debts.values())
    table.pay_out(actor.name)
    return table.touched()


@handles(cmd.Buyout)
def buyout(app: StakesApplication, ctx: Context, campaign: Campaign, unit: Challenge,
           command: cmd.Buyout) -> list[Any]:
    """PA-15: the bankrupt accepts the best buyout and gives up a characteristic."""
    table = Table(app, campaign, unit)
    actor = ctx.actor
    member, purse = _bankrupt(table, actor, command.member)
    best = unit.best_bid(member)
    bidder = (table.house if best and best["bidder"] == "house"
              else economy.character(app, campaign, best["bidder"]) if best else None)
    bidder_pile = bidder.pile if bidder is not None else 0
    best = unit.accept_buyout(member, command.give_up, purse.characteristics, bidder_pile, actor.name)
    bidder.pay_buyout(unit.id.hex, best["amount"], actor.name)  # type: ignore[union-attr]
    purse.receive_buyout(unit.id.hex, best["amount"], actor.name)
    purse.surrender(unit.id.hex, unit.bankrupts[member]["surrendered"], actor.name)
    if bidder is not table.house:
        table.extra.append(bidder)
    table.pay_out(actor.name)
    return table.touched()


# -- C-6, C-7: undo ------------------------------------------------------------------------------------------
def verify_pot_restorable(app: StakesApplication, campaign: Campaign, unit: Challenge, then: dict[str, Any],
                          now: dict[str, Any]) -> None:
    """C-6: every member holds the pennies the step rewound to had in the pot, beyond what he has in it now."""
    piles = Table(app, campaign, unit).piles()
    for member, amount in then["staked"].items():
        if amount - now["staked"].get(member, 0) > piles[member]:
            raise RuleViolation(f"{member} no longer holds the pennies that step had in the pot", ruling="C-6")
    # a loan the step had that a rewind reversed since (a step of another timeline) cannot be made again: the
    # step's state would name a loan that no longer stands (PA-14)
    for loan_id in (lid for lid in then["loans"] if lid not in now["loans"]):
        if app.get(Loan, UUID(loan_id), "loan").status not in ("offered", "active"):
            raise RuleViolation("a loan offered at that step was undone since; rewind to a step of this timeline",
                                ruling="C-6")


def rewound(app: StakesApplication, ctx: Context, campaign: Campaign, unit: Challenge, now: dict[str, Any],
            reason: str) -> list[Any]:
    """After the kernel's rewind (C-6): pennies bet since go back to the purses (or, for a step of another
    timeline, are bet again), and loans offered since are reversed (PA-14)."""
    table = Table(app, campaign, unit)
    table.before = dict(now["staked"])
    table.mirror(ctx.actor.name)
    for loan_id in (lid for lid in now["loans"] if lid not in unit.loans):
        _reverse_loan(app, table, UUID(loan_id), reason, ctx.actor)
    return table.touched()


def _reverse_loan(app: StakesApplication, table: Table, loan_id: UUID, reason: str, actor: Seat) -> None:
    loan = app.get(Loan, loan_id, "loan")
    if loan.status not in ("offered", "active"):
        return
    returned = 0
    if loan.status == "active":
        borrower: Any = table.purses.get(loan.borrower) or table.loaded(app, loan.borrower)
        lender = table.loaded(app, loan.lender)
        returned = min(loan.outstanding, borrower.pile)
        if returned:
            borrower.repay(loan.id, returned, actor.name)
            lender.receive_repayment(loan.id.hex, returned, actor.name)
        table.extra += [p for p in (borrower, lender) if p not in table.purses.values() and p not in table.extra]
    loan.reverse(returned, reason, actor.name)
    table.extra.append(loan)


def overturn(app: StakesApplication, ctx: Context, campaign: Campaign, unit: Challenge, winner: str | None,
             reason: str) -> list[Any]:
    """The House reverses a settled result and applies it again as ruled (C-6): ``winner`` wins, or (None) the
    challenge is voided. What a member can no longer pay back becomes a debt to whoever is owed it; no pile
    goes below zero."""
    actor = ctx.actor
    table = Table(app, campaign, unit)
    ch = table.challenge
    old = dict((ch.result or {}).get("payouts") or {})
    new = ch.verify_overturn(winner, reason)
    nets = {m: new.get(m, 0) - old.get(m, 0) for m in table.purses}
    ended = not campaign.adventure_running or campaign.adventure != ch.adventure
    if ended and any(nets[m] > 0 for m, p in table.purses.items() if isinstance(p, Antagonist)):
        raise RuleViolation("the House side's adventure is over: it cannot take pennies back now", ruling="PA-3")
    # The debts the old result created go (C-6). A bankruptcy debt's pennies came back in the payouts,
    # so what was repaid on it goes back; a shortfall debt stood for pennies never paid, so what was never
    # paid on it (still owed, or forgiven) is no longer to be returned. Forgiven pennies were never paid.
    bankruptcy, shortfalls = ch.debts_to_void()
    for debt_id in bankruptcy + shortfalls:
        debt = app.get(Debt, UUID(debt_id), "debt")
        repaid = debt.paid if debt_id in bankruptcy else -(debt.amount - debt.paid)
        if debt.status in ("active", "defaulted"):
            debt.void(reason, actor.name)
            borrower = table.purses.get(debt.borrower)
            if isinstance(borrower, Character):
                borrower.debt_forgiven(debt.id.hex, 0, actor.name)
            table.extra.append(debt)
        if repaid and debt.borrower in nets and debt.lender in nets:
            nets[debt.borrower] += repaid
            nets[debt.lender] -= repaid
    debts = _settle_nets(table, nets, actor)
    ch.overturn(winner, reason, [d.id.hex for d in debts], actor.name)
    # The shortfall debts are written before the challenge's Overturned, which names them: the register reads
    # them as what the overturn left owing (C-6), not as a bankruptcy's (PA-15).
    return [*debts, *(a for a in table.touched() if all(a is not d for d in debts))]


def _settle_nets(table: Table, nets: dict[str, int], actor: Seat) -> list[Debt]:
    """Move what each member owes the others; what a member cannot pay becomes a debt (no pile below 0)."""
    payers: list[list[Any]] = [[m, -n] for m, n in nets.items() if n < 0]
    payees: list[list[Any]] = [[m, n] for m, n in nets.items() if n > 0]
    piles, debts = table.piles(), []
    challenge_id = table.challenge.id.hex
    for payer in payers:
        for payee in payees:
            amount = min(payer[1], payee[1])
            if not amount:
                continue
            paid = min(amount, piles[payer[0]])
            piles[payer[0]] -= paid
            if paid:
                table.purses[payer[0]].correct_settlement(challenge_id, -paid, actor.name)
                table.purses[payee[0]].correct_settlement(challenge_id, paid, actor.name)
            if amount > paid:
                debts.append(_shortfall_debt(table, payer[0], payee[0], amount - paid, actor))
            payer[1] -= amount
            payee[1] -= amount
    return debts


def _shortfall_debt(table: Table, payer: str, payee: str, amount: int, actor: Seat) -> Debt:
    purses = table.purses
    debt = Debt(campaign_id=table.campaign.id, lender=payee, borrower=payer, amount=amount,
                adventure=table.campaign.adventure, challenge_id=table.challenge.id.hex,
                lender_is_antagonist=isinstance(purses[payee], Antagonist),
                borrower_is_antagonist=isinstance(purses[payer], Antagonist), actor=actor.name)
    owing = purses[payer]
    if isinstance(owing, Character):
        owing.incur_debt(debt.id.hex, amount, actor.name)
    table.extra.append(debt)
    return debt


@handles(cmd.Abandon)  # registered last: an unknown action still names the unit's first ruling
def abandon(app: StakesApplication, ctx: Context, campaign: Campaign, unit: Challenge,
            command: cmd.Abandon) -> list[Any]:
    """C-10, C-1, PA-19: the kernel's abandon; the pot goes back member by member (an antagonist's pennies to
    its purse, which leaves the challenge). Loans accepted stay (they are between players); an offer still
    open lapses with its betting round, which is over (PA-14)."""
    table = Table(app, campaign, unit)
    unit.abandon(command.reason, ctx.actor.name)
    table.pay_out(ctx.actor.name)
    return table.touched()
