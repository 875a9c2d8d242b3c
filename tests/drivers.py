"""Test drivers: the call shapes the tests were written against, as thin wrappers over the public API.

The application runs typed commands (``StakesApplication.execute``) and unit actions
(``StakesApplication.act``); the service runs commands by verb (``Stakes.run``), moves
(``Stakes.act``) and a system's own reads (``Stakes.read``). The tests read better as one call
per use case (``buy_characteristic(campaign_id, actor, seat, name)``), so these drivers keep
that shape and only build the command: every rule, permission and refusal stays the product's.
Inputs left out (``None``) are not sent, as a client leaves out an option it was not given.

Anything a driver does not translate is the wrapped object's own (``repository``, ``recorder``,
``campaign``, ``sheet``, ``log`` …).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any
from uuid import UUID, uuid4

from domain.application import StakesApplication
from domain.kernel import common
from domain.kernel.commands import Command, Context
from domain.seats import Seat
from domain.systems.penny_ante import commands as pa
from domain.systems.pool import commands as pl

if TYPE_CHECKING:  # the unit tests drive the application alone, without the adapters
    from adapters.service import Stakes


def given(**inputs: Any) -> dict[str, Any]:
    """The inputs that were given: ``None`` stands for an input left out."""
    return {k: v for k, v in inputs.items() if v is not None}


class Driver:
    """The application, one method per use case; each builds the typed command and runs it."""

    def __init__(self, application: StakesApplication) -> None:
        self.application = application

    def __getattr__(self, name: str) -> Any:
        return getattr(self.application, name)

    # -- running commands ---------------------------------------------------------------------------
    def run(self, campaign_id: UUID, actor: Seat, command: Command, secret: str | None = None) -> Any:
        if secret is None and type(command).draws_secret:  # as the adapters do: a fresh one (C-4, C-10)
            secret = uuid4().hex
        return self.application.execute(Context(campaign_id, actor, secret), command)

    def run_verb(self, campaign_id: UUID, actor: Seat, verb: str, **inputs: Any) -> Any:
        """A shared verb the campaign's system gives its own inputs (``add-player``, ``start-adventure``)."""
        command = self.application.parse(campaign_id, verb, given(**inputs))
        return self.run(campaign_id, actor, command)

    def own(self, cls: type[Command], actor: Seat, **inputs: Any) -> Command:
        """A sheet command whose seat defaults to the acting seat's (``Command.actor_fields``)."""
        for name in cls.actor_fields:
            inputs[name] = inputs.get(name) or actor.name
        return cls.parse(given(**inputs))

    # -- C-1: seats and adventures -----------------------------------------------------------------
    def add_player(self, campaign_id: UUID, actor: Seat, seat: str, character: str,
                   characteristic: str | None = None, description: str | None = None,
                   traits: Mapping[str, Any] | None = None) -> UUID:
        return self.run_verb(campaign_id, actor, "add-player", seat=seat, character=character,
                             characteristic=characteristic, description=description,
                             traits=dict(traits) if traits is not None else None)

    def start_adventure(self, campaign_id: UUID, actor: Seat, amount: int | None = None,
                        note: str | None = None) -> int:
        return self.run_verb(campaign_id, actor, "start-adventure", amount=amount, note=note)

    def end_adventure(self, campaign_id: UUID, actor: Seat) -> int:
        return self.run(campaign_id, actor, common.EndAdventure())

    # -- Penny Ante: PA-2, PA-4, PA-14 ---------------------------------------------------------------
    def buy_characteristic(self, campaign_id: UUID, actor: Seat, seat: str, name: str) -> None:
        self.run(campaign_id, actor, pa.BuyCharacteristic.parse({"seat": seat, "name": name}))

    def create_antagonist(self, campaign_id: UUID, actor: Seat, name: str, kind: str | None = None,
                          characteristics: list[str] | None = None) -> str:
        command = pa.CreateAntagonist.parse(given(name=name, kind=kind, characteristics=characteristics))
        return self.run(campaign_id, actor, command)

    def add_antagonist_characteristic(self, campaign_id: UUID, actor: Seat, antagonist: str, name: str) -> None:
        self.run(campaign_id, actor, pa.AddAntagonistCharacteristic.parse({"antagonist": antagonist, "name": name}))

    def fund_antagonist(self, campaign_id: UUID, actor: Seat, antagonist: str, amount: int) -> None:
        self.run(campaign_id, actor, pa.FundAntagonist.parse({"antagonist": antagonist, "amount": amount}))

    def offer_loan(self, campaign_id: UUID, actor: Seat, borrower: str, amount: int) -> UUID:
        return self.run(campaign_id, actor, pa.OfferLoan.parse({"borrower": borrower, "amount": amount}))

    def accept_loan(self, campaign_id: UUID, actor: Seat, loan_id: UUID) -> None:
        self.run(campaign_id, actor, pa.AcceptLoan.parse({"loan": loan_id}))

    def decline_loan(self, campaign_id: UUID, actor: Seat, loan_id: UUID) -> None:
        self.run(campaign_id, actor, pa.DeclineLoan.parse({"loan": loan_id}))

    def withdraw_loan(self, campaign_id: UUID, actor: Seat, loan_id: UUID) -> None:
        self.run(campaign_id, actor, pa.WithdrawLoan.parse({"loan": loan_id}))

    def repay_loan(self, campaign_id: UUID, actor: Seat, loan_id: UUID, amount: int) -> None:
        self.run(campaign_id, actor, pa.RepayLoan.parse({"loan": loan_id, "amount": amount}))

    def forgive_loan(self, campaign_id: UUID, actor: Seat, loan_id: UUID) -> None:
        self.run(campaign_id, actor, pa.ForgiveLoan.parse({"loan": loan_id}))

    def record_consequence(self, campaign_id: UUID, actor: Seat, loan_id: UUID, note: str) -> None:
        self.run(campaign_id, actor, pa.RecordConsequence.parse({"loan": loan_id, "note": note}))

    # -- Penny Ante challenges (PA-5 … PA-18); the secret seed is the caller's (C-4) ------------------------
    def announce_challenge(self, campaign_id: UUID, actor: Seat, challenger: dict[str, Any],
                           opponent: dict[str, Any], ante: int, secret_seed: str, *, stake: int | None = None,
                           table: bool | None = None, circumstance: str | None = None) -> UUID:
        command = pa.AnnounceChallenge.parse(given(challenger=challenger, opponent=opponent, ante=ante, stake=stake,
                                                   table=table, circumstance=circumstance))
        return self.run(campaign_id, actor, command, secret_seed)

    def act(self, campaign_id: UUID, actor: Seat, unit_id: UUID, action: str,
            args: Mapping[str, Any] | None = None) -> None:
        """One move in a challenge, a roll or a contest."""
        self.application.act(Context(campaign_id, actor), unit_id, {"action": action, **dict(args or {})})

    challenge_action = act

    # -- C-6: undo -----------------------------------------------------------------------------------
    def rewind(self, campaign_id: UUID, actor: Seat, unit_id: UUID, to_step: int, reason: str) -> None:
        self.run(campaign_id, actor, common.Rewind.parse({"unit": unit_id, "to_step": to_step, "reason": reason}))

    def overturn(self, campaign_id: UUID, actor: Seat, unit_id: UUID, winner: str | None, void: bool,
                 reason: str) -> None:
        self.run_verb(campaign_id, actor, "overturn", unit=unit_id, winner=winner, void=void, reason=reason)

    rewind_challenge = rewind
    overturn_challenge = overturn

    # -- the Pool (PL-1 … PL-9) ---------------------------------------------------------------------------
    def raise_trait(self, campaign_id: UUID, actor: Seat, seat: str | None, name: str,
                    new: bool | None = None) -> None:
        self.run(campaign_id, actor, self.own(pl.RaiseTrait, actor, seat=seat, name=name, new=new))

    def cash_in_trait(self, campaign_id: UUID, actor: Seat, seat: str | None, name: str) -> None:
        self.run(campaign_id, actor, self.own(pl.CashInTrait, actor, seat=seat, name=name))

    def buy_move(self, campaign_id: UUID, actor: Seat, seat: str | None, name: str, cost: int) -> None:
        self.run(campaign_id, actor, self.own(pl.BuyMove, actor, seat=seat, name=name, cost=cost))

    def offer_help(self, campaign_id: UUID, actor: Seat, to: str, dice: int) -> None:
        self.run(campaign_id, actor, pl.OfferHelp.parse({"to": to, "dice": dice}))

    def pool_roll(self, campaign_id: UUID, actor: Seat, count: int, secret_seed: str, trait: str | None = None,
                  helper: str | None = None, seed: str | None = None, dice: list[int] | None = None) -> UUID:
        command = pl.RollDice.parse(given(count=count, trait=trait, helper=helper, seed=seed, dice=dice))
        return self.run(campaign_id, actor, command, secret_seed)

    def open_contest(self, campaign_id: UUID, actor: Seat, opponent: str, secret_seed: str) -> UUID:
        return self.run(campaign_id, actor, pl.OpenContest.parse({"opponent": opponent}), secret_seed)


class ServiceDriver:
    """The service, one method per use case; each runs its verb (``Stakes.run``), move or read."""

    def __init__(self, service: Stakes) -> None:
        self.service = service
        self.app = Driver(service.app)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.service, name)

    def run(self, campaign_id: UUID, actor: Seat, verb: str, **inputs: Any) -> Any:
        return self.service.run(campaign_id, actor, verb, given(**inputs))

    # -- C-1 -------------------------------------------------------------------------------------
    def add_player(self, campaign_id: UUID, actor: Seat, seat: str, character: str,
                   characteristic: str | None = None, description: str | None = None,
                   traits: dict[str, int] | None = None) -> Any:
        return self.run(campaign_id, actor, "add-player", seat=seat, character=character,
                        characteristic=characteristic, description=description, traits=traits)

    def start_adventure(self, campaign_id: UUID, actor: Seat, amount: int | None = None,
                        note: str | None = None) -> Any:
        return self.run(campaign_id, actor, "start-adventure", amount=amount, note=note)

    def end_adventure(self, campaign_id: UUID, actor: Seat) -> Any:
        return self.run(campaign_id, actor, "end-adventure")

    # -- Penny Ante --------------------------------------------------------------------------------
    def buy_characteristic(self, campaign_id: UUID, actor: Seat, seat: str | None, name: str) -> Any:
        return self.run(campaign_id, actor, "buy-characteristic", seat=seat, name=name)

    def create_antagonist(self, campaign_id: UUID, actor: Seat, name: str, kind: str | None = None,
                          characteristics: list[str] | None = None) -> Any:
        return self.run(campaign_id, actor, "create-antagonist", name=name, kind=kind,
                        characteristics=characteristics)

    def add_antagonist_characteristic(self, campaign_id: UUID, actor: Seat, antagonist: str, name: str) -> Any:
        return self.run(campaign_id, actor, "add-antagonist-characteristic", antagonist=antagonist, name=name)

    def fund_antagonist(self, campaign_id: UUID, actor: Seat, antagonist: str, amount: int) -> Any:
        return self.run(campaign_id, actor, "fund-antagonist", antagonist=antagonist, amount=amount)

    def offer_loan(self, campaign_id: UUID, actor: Seat, borrower: str, amount: int) -> Any:
        return self.run(campaign_id, actor, "offer-loan", borrower=borrower, amount=amount)

    def accept_loan(self, campaign_id: UUID, actor: Seat, loan_id: UUID) -> Any:
        return self.run(campaign_id, actor, "accept-loan", loan=loan_id)

    def decline_loan(self, campaign_id: UUID, actor: Seat, loan_id: UUID) -> Any:
        return self.run(campaign_id, actor, "decline-loan", loan=loan_id)

    def withdraw_loan(self, campaign_id: UUID, actor: Seat, loan_id: UUID) -> Any:
        return self.run(campaign_id, actor, "withdraw-loan", loan=loan_id)

    def repay_loan(self, campaign_id: UUID, actor: Seat, loan_id: UUID, amount: int) -> Any:
        return self.run(campaign_id, actor, "repay-loan", loan=loan_id, amount=amount)

    def forgive_loan(self, campaign_id: UUID, actor: Seat, loan_id: UUID) -> Any:
        return self.run(campaign_id, actor, "forgive-loan", loan=loan_id)

    def record_consequence(self, campaign_id: UUID, actor: Seat, loan_id: UUID, note: str) -> Any:
        return self.run(campaign_id, actor, "record-consequence", loan=loan_id, note=note)

    def budget(self, campaign_id: UUID, viewer: Seat) -> Any:
        return self.service.read(campaign_id, viewer, "budget")

    def debts(self, campaign_id: UUID, viewer: Seat) -> Any:
        return self.service.read(campaign_id, viewer, "debts")

    def antagonists(self, campaign_id: UUID, viewer: Seat) -> Any:
        return self.service.read(campaign_id, viewer, "antagonists")

    # -- units of resolution ----------------------------------------------------------------------------
    def announce_challenge(self, campaign_id: UUID, actor: Seat, challenger: dict[str, Any],
                           opponent: dict[str, Any], ante: int, stake: int | None = None, table: bool | None = None,
                           circumstance: str | None = None) -> Any:
        return self.run(campaign_id, actor, "announce-challenge", challenger=challenger, opponent=opponent,
                        ante=ante, stake=stake, table=table, circumstance=circumstance)

    def challenge_action(self, campaign_id: UUID, actor: Seat, unit_id: UUID, action: str,
                         args: dict[str, Any] | None = None) -> Any:
        return self.service.act(campaign_id, actor, unit_id, {"action": action, **dict(args or {})})

    def rewind_challenge(self, campaign_id: UUID, actor: Seat, unit_id: UUID, to_step: int, reason: str) -> Any:
        return self.run(campaign_id, actor, "rewind", unit=unit_id, to_step=to_step, reason=reason)

    def overturn_challenge(self, campaign_id: UUID, actor: Seat, unit_id: UUID, winner: str | None, void: bool,
                           reason: str) -> Any:
        return self.run(campaign_id, actor, "overturn", unit=unit_id, winner=winner, void=void, reason=reason)

    # -- the Pool --------------------------------------------------------------------------------------
    def raise_trait(self, campaign_id: UUID, actor: Seat, seat: str | None, name: str,
                    new: bool | None = None) -> Any:
        return self.run(campaign_id, actor, "raise-trait", seat=seat, name=name, new=new)

    def cash_in_trait(self, campaign_id: UUID, actor: Seat, seat: str | None, name: str) -> Any:
        return self.run(campaign_id, actor, "cash-in-trait", seat=seat, name=name)

    def buy_move(self, campaign_id: UUID, actor: Seat, seat: str | None, name: str, cost: int) -> Any:
        return self.run(campaign_id, actor, "buy-move", seat=seat, name=name, cost=cost)

    def offer_help(self, campaign_id: UUID, actor: Seat, to: str, dice: int) -> Any:
        return self.run(campaign_id, actor, "offer-help", to=to, dice=dice)

    def pool_roll(self, campaign_id: UUID, actor: Seat, count: int, trait: str | None = None,
                  helper: str | None = None, seed: str | None = None, dice: list[int] | None = None) -> Any:
        return self.run(campaign_id, actor, "roll", count=count, trait=trait, helper=helper, seed=seed, dice=dice)

    def open_contest(self, campaign_id: UUID, actor: Seat, opponent: str) -> Any:
        return self.run(campaign_id, actor, "open-contest", opponent=opponent)
