"""Penny Ante's commands and challenge actions, each defined once (PA-1 … PA-19).

The API routes, the CLI commands and the remote client are generated from these
classes; the handlers are in ``economy.py`` (campaign commands) and ``play.py``
(challenges).
"""

from __future__ import annotations

from typing import ClassVar, Literal
from uuid import UUID

from pydantic import BaseModel, ConfigDict, Field

from domain.kernel import common
from domain.kernel.commands import Bool, Command, Int, text
from domain.systems.penny_ante.challenge import Challenge


class AddPlayer(common.AddPlayer):
    """Seat a player with one character at the agreed pile (PA-1); the first characteristic is free (PA-2)."""

    ruling = "PA-2"
    elsewhere = "characteristics: its characters have traits"
    characteristic: str | None = text(200, "The first characteristic, free (PA-2).", examples=["Whip Smart"])


class StartAdventure(common.StartAdventure):
    """Start an adventure: the House pile is the sum of the player piles, or an agreed amount (PA-3);
    unpaid loans become defaulted (PA-14)."""

    ruling = "PA-3"
    elsewhere = "House budget"
    amount: Int | None = Field(None, description="An agreed House pile instead of the sum of the player piles.")
    note: str | None = text(500, "The table's agreement; required with an amount.", default=None)


class Overturn(common.Overturn):
    """Overturn a settled challenge (C-6): give it to the side the House rules won, or void it; the pot moves
    again as ruled, and what a member can no longer pay back becomes a debt (PA-15)."""

    elsewhere = "winner to name in an overturn: overturning a result voids it (void=true)"

    winner: Literal["challenger", "opponent"] | None = Field(
        None, description="The side that wins, as ruled (C-6): 'challenger' or 'opponent'. Without it, void=true "
                          "voids the challenge; an abandoned one is only voided (C-10).")

    void: Bool = Field(False, description="Void it instead of naming a winner: the result no longer stands, and "
                                          "what it moved is put back (a JSON boolean: 1, \"yes\" or \"true\" are "
                                          "refused).")

    def ruled_winner(self) -> str | None:
        return self.winner


class BuyCharacteristic(Command):
    """Buy a characteristic for 5 pennies, between adventures only (PA-2)."""

    verb: ClassVar[str] = "buy-characteristic"
    who = "player"
    ruling = "PA-2"
    route = "POST /characters/{seat}/characteristics"
    status = 201
    answer = "sheet"
    cli = "characteristic buy"
    cli_arguments = ("name",)
    actor_fields = ("seat",)

    seat: str = text(64, "Whose character: your own.")
    name: str = text(200, "The characteristic.", examples=["Lucky Necklace"])


class CreateAntagonist(Command):
    """Create an antagonist or obstacle with its own characteristics, hidden from players (PA-4)."""

    verb: ClassVar[str] = "create-antagonist"
    who = "house"
    ruling = "PA-4"
    route = "POST /antagonists"
    status = 201
    answer = "antagonist"
    cli = "antagonist create"
    cli_arguments = ("name",)

    name: str = text(200, "The antagonist's name.", examples=["Lady Sen"])
    kind: Literal["antagonist", "obstacle"] = Field("antagonist", description="antagonist or obstacle (PA-4).")
    characteristics: list[str] = Field(default_factory=list, max_length=50, description="Hidden from players.")


class AddAntagonistCharacteristic(Command):
    """Give an antagonist another characteristic (PA-4)."""

    verb: ClassVar[str] = "add-antagonist-characteristic"
    who = "house"
    ruling = "PA-4"
    route = "POST /antagonists/{antagonist}/characteristics"
    status = 201
    answer = "antagonist"
    cli = "antagonist characteristic"
    cli_arguments = ("antagonist", "name")

    antagonist: str = text(200, "The antagonist.")
    name: str = text(200, "The characteristic.")


class FundAntagonist(Command):
    """Move pennies from the House pile to an antagonist, within the campaign's cap (PA-4)."""

    verb: ClassVar[str] = "fund-antagonist"
    who = "house"
    ruling = "PA-4"
    route = "POST /antagonists/{antagonist}/funding"
    answer = "antagonist"
    cli = "antagonist fund"
    cli_arguments = ("antagonist", "amount")

    antagonist: str = text(200, "The antagonist.")
    amount: Int = Field(description="Pennies from the House pile.")


class OfferLoan(Command):
    """Offer another player a loan, up to your pile (PA-14)."""

    verb: ClassVar[str] = "offer-loan"
    who = "player"
    who_ruling = "PA-14"  # loans are between players; the House does not lend
    ruling = "PA-14"
    route = "POST /loans"
    status = 201
    answer = "loan"
    cli = "loan offer"
    cli_arguments = ("borrower", "amount")

    borrower: str = text(64, "The player you lend to.")
    amount: Int = Field(description="Pennies, at most your pile.")


class _OnLoan(Command):
    ruling = "PA-14"
    answer = "loan"
    lookups = {"loan": "loan"}
    cli_arguments: ClassVar[tuple[str, ...]] = ("loan",)

    loan: UUID = Field(description="The loan's id (the CLI takes its first characters).")


class _OnOffer(_OnLoan):
    """An answer to an offer: a challenge's legal actions list it for a loan offered into that challenge, and
    its action endpoint plays it (``{"action": "accept-loan", "loan": …}``) as this command (PA-14, issue 31)."""

    listed_in = (Challenge,)


class AcceptLoan(_OnOffer):
    """Accept a loan offered to you; the pennies move at once (PA-14)."""

    verb: ClassVar[str] = "accept-loan"
    route = "POST /loans/{loan}/accept"
    cli = "loan accept"


class DeclineLoan(_OnOffer):
    """Decline a loan offered to you (PA-14)."""

    verb: ClassVar[str] = "decline-loan"
    route = "POST /loans/{loan}/decline"
    cli = "loan decline"


class WithdrawLoan(_OnOffer):
    """Withdraw your offer before it is answered (PA-14)."""

    verb: ClassVar[str] = "withdraw-loan"
    route = "POST /loans/{loan}/withdraw"
    cli = "loan withdraw"


class RepayLoan(_OnLoan):
    """Repay some or all of what you owe (PA-14, PA-16)."""

    verb: ClassVar[str] = "repay-loan"
    route = "POST /loans/{loan}/repayments"
    cli = "loan repay"
    cli_arguments = ("loan", "amount")

    amount: Int = Field(description="Pennies to repay.")


class ForgiveLoan(_OnLoan):
    """Forgive what the borrower still owes you (PA-14)."""

    verb: ClassVar[str] = "forgive-loan"
    route = "POST /loans/{loan}/forgive"
    cli = "loan forgive"


class RecordConsequence(_OnLoan):
    """Record what befalls the borrower of a defaulted loan (PA-14)."""

    verb: ClassVar[str] = "record-consequence"
    who = "house"
    route = "POST /loans/{loan}/consequences"
    cli = "loan consequence"
    cli_arguments = ("loan", "note")

    note: str = text(1000, "What befalls the borrower.")


class Side(BaseModel):
    """A side (PA-5): one player, an alliance of players (the first declared it), or an antagonist.
    On the command line: ``ilse``, ``ilse+tomas`` or ``house:Lady Sen``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    players: list[str] | None = Field(None, max_length=10, examples=[["ilse"]])
    antagonist: str | None = text(200, examples=["Lady Sen"], default=None)


class AnnounceChallenge(Command):
    """Announce a challenge (PA-5, PA-6, PA-7, PA-17); its seed's SHA-256 is published at once (C-4)."""

    verb: ClassVar[str] = "announce-challenge"
    ruling = "PA-5"
    route = "POST /challenges"
    status = 201
    answer = "unit"
    cli = "challenge announce"
    cli_parsers = {"challenger": "side", "opponent": "side"}
    draws_secret = True

    challenger: Side = Field(description="ilse, ilse+tomas (an alliance) or house:Lady Sen.")
    opponent: Side = Field(description="The other side, written the same way.")
    ante: Int = Field(description="PA-6: a whole number of at least 1; raises are multiples of it.")
    stake: Int | None = Field(None, description="PA-17: the House's devoted stake for an indirect challenge "
                                                "(the antagonist's whole purse when not given).")
    table: Bool = Field(False, description="C-3: dice are rolled at the table and entered by hand.")
    circumstance: str | None = text(200, "PA-7: the challenger's first circumstance.", default=None)


# -- challenge actions (PA-7 … PA-15, C-3, C-4) -------------------------------------------------------------
class _Move(Command):
    units = (Challenge,)
    ruling = "PA-9"
    answer = "unit"


class Seed(_Move):
    """Add your side's seed text before the first roll (C-4), or the fresh seed the reroll waits for once both
    sides called it, when the House plays a side (C-9)."""

    ruling = "C-4"
    cli = "challenge seed"
    cli_arguments = ("seed",)
    cli_random = ("seed",)  # C-9: ``stakes challenge seed`` alone sends 128 random bits drawn on the client
    action: Literal["seed"] = "seed"
    seed: str = text(200, "Your seed text.")


class Pass(_Move):
    """Pass for your side: add no seed text, so the other side's first roll need not wait for yours (C-10)."""

    ruling = "C-10"
    cli = "challenge pass"
    action: Literal["pass"] = "pass"


class Circumstance(_Move):
    """Declare your side's circumstance for this step (PA-7)."""

    ruling = "PA-7"
    awaited = False  # optional: the challenge goes on without it, so nobody is waited for over it
    cli = "challenge circumstance"
    cli_arguments = ("text",)
    action: Literal["circumstance"] = "circumstance"
    text: str = Field(max_length=200)


class DoubleDown(_Move):
    """Declare your second circumstance and bar the other side from its die by doubling your wager (PA-13)."""

    ruling = "PA-13"
    awaited = False  # optional: the challenge goes on without it, so nobody is waited for over it
    cli = "challenge double-down"
    cli_arguments = ("text",)
    action: Literal["double-down"] = "double-down"
    text: str = Field(max_length=200)


class Declare(_Move):
    """Name the characteristics your side uses, challenger first (PA-8)."""

    ruling = "PA-8"
    cli = "challenge declare"
    cli_arguments = ("characteristics",)
    action: Literal["declare"] = "declare"
    characteristics: list[str] = Field(default_factory=list, max_length=10, description="0 to 5 names.")


class Roll(_Move):
    """Roll your dice (paying the ante, PA-6), or reroll your cup before the second round (PA-8)."""

    ruling = "PA-8"
    cli = "challenge roll"
    cli_parsers = {"dice": "numbers"}
    action: Literal["roll"] = "roll"
    dice: list[Int] | None = Field(None, max_length=1000, description="Table mode: the dice shown (C-3).")


class Keep(_Move):
    """Reveal the dice you keep and put the others back in the cup (PA-8)."""

    ruling = "PA-8"
    cli = "challenge keep"
    cli_parsers = {"cup": "positions"}
    action: Literal["keep"] = "keep"
    cup: list[Int] = Field(default_factory=list, max_length=12,
                           description="The dice to cup: indices from 0 in a request; positions from 1 on the "
                                       "command line (--cup 1,3), as the table shows them.")


class Check(_Move):
    """Stand at equal wagers (PA-9)."""

    cli = "challenge check"
    action: Literal["check"] = "check"


class Call(_Move):
    """Match the other side's wager (PA-9)."""

    cli = "challenge call"
    action: Literal["call"] = "call"


class Raise(_Move):
    """Call and raise by an amount, a whole multiple of the ante (PA-9)."""

    cli = "challenge raise"
    cli_arguments = ("amount",)
    action: Literal["raise"] = "raise"
    amount: Int = Field(description="Pennies above the call, a multiple of the ante.")


class Fold(_Move):
    """Give up; the other side takes the pot (PA-10)."""

    ruling = "PA-10"
    cli = "challenge fold"
    action: Literal["fold"] = "fold"


class AllIn(_Move):
    """Put in your whole pile when you cannot cover the call (PA-12)."""

    ruling = "PA-12"
    cli = "challenge all-in"
    action: Literal["all-in"] = "all-in"


class Lend(_Move):
    """From outside the challenge, offer one loan this round to a member of a side (PA-14)."""

    ruling = "PA-14"
    cli = "challenge lend"
    cli_arguments = ("borrower", "amount")
    action: Literal["lend"] = "lend"
    borrower: str = text(64, "A member of a side.")
    amount: Int = Field(description="Pennies, at most your pile.")


class Bid(_Move):
    """Bid once to buy out a bankrupt player (PA-15)."""

    ruling = "PA-15"
    cli = "challenge bid"
    cli_arguments = ("member", "amount")
    action: Literal["bid"] = "bid"
    member: str = text(64, "The bankrupt member.")
    amount: Int = Field(description="Pennies, at most your pile.")


class TakeDebt(_Move):
    """Bankrupt: take back what you lost as a debt to the winner, who narrates (PA-15, PA-16)."""

    ruling = "PA-15"
    cli = "challenge debt"
    action: Literal["debt"] = "debt"
    member: str | None = text(64, "The bankrupt member: yourself.", default=None)


class Buyout(_Move):
    """Bankrupt: accept the highest bid (earliest on a tie) and give up a characteristic (PA-15)."""

    ruling = "PA-15"
    cli = "challenge buyout"
    cli_arguments = ("give_up",)
    action: Literal["buyout"] = "buyout"
    member: str | None = text(64, "The bankrupt member: yourself.", default=None)
    give_up: str = text(200, "The characteristic you give up for good.")


class Abandon(common.Abandon):
    """House: abandon the open challenge, with a reason: no winner, no bankruptcy; every penny in the pot goes
    back to whoever put it in (PA-19); dice a seed already fixed are shown to every seat (C-10)."""

    units = (Challenge,)
    cli = "challenge abandon"
