"""Penny Ante's read-model schemas: sheets, loans, the House budget, the challenge view."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal
from uuid import UUID

from pydantic import BaseModel, Field

from adapters.schemas import WAITING_FOR, LegalAction


class LoanLine(BaseModel):
    loan_id: UUID
    lender: str
    borrower: str
    amount: int
    outstanding: int
    status: str
    challenge_id: str | None = Field(None, description="The challenge it was made in, if any (PA-14).")
    open: bool | None = Field(None, description="An offer into a challenge: whether its betting round is still "
                              "open, so it may be accepted; once it lapsed it is only declined or withdrawn "
                              "(PA-14). Null for any other loan.")


class Characteristic(BaseModel):
    name: str
    cost: int
    acquired_at: datetime


class Sheet(BaseModel):
    system: Literal["penny-ante"] = "penny-ante"
    seat: str
    name: str
    pile: int
    in_play: int = Field(description="Pennies in the pot of a running challenge.")
    spent: int = Field(description="Pennies that left play on purchases (PA-2).")
    characteristics: list[Characteristic]
    owes: list[LoanLine]
    owed: list[LoanLine]
    offers: list[LoanLine] = Field(description="Loan offers waiting for an answer, made or received.")


class LoanEvent(BaseModel):
    at: datetime
    actor: str
    what: str
    amount: int | None = None
    note: str | None = None


class Loan(LoanLine):
    kind: str = Field("loan", description="loan (PA-14), debt (a bankruptcy debt, PA-15, PA-16) or shortfall (what "
                                           "an overturn left a member owing, C-6)")
    challenge_id: str | None = Field(None, description="The challenge it was made in, if any.")
    adventure: int
    defaulted_in: int | None = None
    consequence: str | None = None
    offered_at: datetime
    updated_at: datetime
    history: list[LoanEvent]


class DebtRegister(BaseModel):
    campaign_id: UUID
    loans: list[Loan]
    next_after: str | None = Field(None, description="More loans follow: pass this as `after` for the next page.")


class Antagonist(BaseModel):
    name: str
    kind: str
    pennies: int
    in_play: int = Field(0, description="Pennies in the pot of a running challenge.")
    winnings: int = Field(0, description="Net pennies won in settled challenges (negative: lost).")
    characteristics: list[str] | None = Field(
        description="Only the House sees these (C-5); players get null.")


class Allocation(BaseModel):
    antagonist: str
    amount: int
    at: datetime


class AdventureBudget(BaseModel):
    number: int
    started_at: datetime
    ended_at: datetime | None
    player_piles: int = Field(description="Sum of the player piles when the adventure started (PA-3).")
    opening_pile: int
    note: str | None
    pile: int
    allocated: int
    retired: int = Field(description="Pennies of the House side that left play when it ended (PA-3).")
    allocations: list[Allocation]


class HouseBudget(BaseModel):
    campaign_id: UUID
    adventure: int
    adventure_running: bool
    pile: int
    antagonists: list[Antagonist]
    adventures: list[AdventureBudget]


class Die(BaseModel):
    value: int | None = Field(description="null while hidden from this seat (C-5)")
    in_cup: bool
    seen_before_rewind: bool = Field(False, description="Shown to every seat before a rewind, so it stays "
                                                        "public (C-8).")


class SeenDie(BaseModel):
    """A die of a side every seat saw before an undo took its roll back (C-8)."""

    die: int = Field(description="Which of the side's dice, from 1.")
    value: int
    rolled: Literal["roll", "reroll"] = Field(description="The first roll's die, or the reroll's (PA-8).")


class ChallengeSide(BaseModel):
    kind: str = Field(description="character, alliance or antagonist")
    members: list[str]
    seed: str | None
    characteristics: list[str] = Field(description="The characteristics this side named (public once named).")
    declared: bool
    dice: list[Die]
    wager: int
    betting_wager: int = Field(description="The wager without a double down, which needs no answer (PA-13).")
    all_in: bool
    contributions: dict[str, int]
    seen_before_rewind: list[SeenDie] = Field(
        default_factory=list, description="This side's dice every seat saw before an undo took their roll back: "
                                          "they stay shown, and the same slots bring them again (C-7, C-8).")
    piles: dict[str, int] = Field(default_factory=dict, description="Each member's pile now, outside the pot: a "
                                  "player's pile, an antagonist's purse (public, like the sheets and the "
                                  "antagonists' purses; empty in a replay's steps).")


class Circumstance(BaseModel):
    step: int
    side: str
    text: str | None = Field(description="None for a die every seat saw before an undo took its circumstance "
                                         "back: it stays shown (C-8).")
    die: int | None
    barred: str | None = Field(description="The side that may not use this die (PA-13).")
    seen_before_rewind: bool = Field(False, description="Every seat saw this die before an undo (C-8).")


class LoanOffer(BaseModel):
    """A loan offered into this challenge (PA-14), still unanswered: public, like the debt register."""

    loan_id: UUID
    lender: str
    borrower: str
    amount: int
    open: bool = Field(description="Offered in the betting round open now, so it may be accepted now.")


class LoanAnswered(BaseModel):
    """A loan offered into this challenge and answered (PA-14): public, like the debt register."""

    loan_id: UUID
    lender: str
    borrower: str
    amount: int
    answer: Literal["accepted", "declined", "withdrawn", "reversed"] = Field(
        description="What became of the offer: accepted (the register follows the loan since), declined, "
                    "withdrawn by its lender, or taken back by an undo of the challenge (C-6).")


class ChallengeAction(LegalAction):
    """A move in a challenge, with Penny Ante's own limits besides the shared ones (issue 30, ADR 0033)."""

    amount: int | None = Field(None, description="What a call or an all-in puts in (PA-7, PA-8); a loan's amount.")
    cost: int | None = Field(None, description="What a double down costs (PA-13).")
    dice: int | None = Field(None, description="How many dice to enter in table mode (C-3).")
    faces: int | None = Field(None, description="Table mode (C-3): the faces of each die to enter (d6, PA-9).")
    drawn_with_fresh_seed: bool | None = Field(
        None, description="A reroll that is only called now: its dice are drawn once the players' side adds its "
                          "fresh seed, after both sides called (C-9, C-10).")
    member: str | None = Field(None, description="The bankrupt member a bid, debt or buyout is about (PA-15).")
    borrowers: list[str] | None = Field(None, description="Whom the seat may lend to (PA-14).")
    best_bid: dict[str, Any] | None = Field(None, description="The best bid a buyout takes (PA-15).")
    loan: UUID | None = Field(None, description="The loan a loan move answers: send it as the move's `loan`, to "
                                                "this unit's action endpoint (the move runs as the campaign command "
                                                "of that name, exactly as on its own route: POST …/loans/{loan}/"
                                                "accept, decline or withdraw).")
    lender: str | None = Field(None, description="Who offered that loan (PA-14).")


class ChallengeView(BaseModel):
    id: UUID
    campaign_id: UUID
    phase: str
    adventure: int
    round: int
    turn: str | None
    ante: int
    stake: int | None
    table: bool
    pot: int
    seed_hash: str = Field(description="SHA-256 of the secret seed, published at announcement (C-4).")
    secret_seed: str | None = Field(description="Revealed at settlement; null before (C-4).")
    your_side: str | None
    sides: dict[str, ChallengeSide]
    circumstances: list[Circumstance]
    result: dict[str, Any] | None
    bankrupts: dict[str, Any]
    loan_offers: list[LoanOffer] = Field(default_factory=list, description="Unanswered loans offered into it.")
    loans_answered: list[LoanAnswered] = Field(default_factory=list, description="The loans offered into it "
                                               "that were answered, in the order offered (PA-14).")
    legal_actions: list[ChallengeAction] = Field(description="What the viewing seat may do now, with limits.")
    waiting_for: list[str] = Field(default_factory=list, description=WAITING_FOR)
