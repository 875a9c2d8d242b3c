"""Read-model schemas: what every view returns, over HTTP and in the CLI alike.

They are separate from the domain classes; the API uses them as response
models and the CLI's HTTP client parses server answers back into them.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal
from uuid import UUID

from pydantic import BaseModel, Field


class SeatRef(BaseModel):
    seat: str
    character: str


class CampaignView(BaseModel):
    id: UUID
    name: str
    system: str
    settings: dict[str, Any]
    created_at: datetime
    adventure: int = Field(description="Number of the current or last adventure (0: none yet).")
    adventure_running: bool
    players: list[SeatRef]


class CampaignCreated(BaseModel):
    campaign: CampaignView
    house_token: str = Field(description="The House seat's bearer token. Shown once; store it.")


class Session(BaseModel):
    campaign_id: UUID
    seat: str


class LoanLine(BaseModel):
    loan_id: UUID
    lender: str
    borrower: str
    amount: int
    outstanding: int
    status: str


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


class PlayerAdded(BaseModel):
    sheet: Sheet | PoolSheet = Field(discriminator="system")
    token: str = Field(description="The player's bearer token. Shown once; hand it to the player.")


class LoanEvent(BaseModel):
    at: datetime
    actor: str
    what: str
    amount: int | None = None
    note: str | None = None


class Loan(LoanLine):
    kind: str = Field("loan", description="loan (PA-14) or debt (a bankruptcy debt, PA-15, PA-16)")
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


class LogEntry(BaseModel):
    position: int
    at: datetime
    actor: str
    stream: str
    event: str
    detail: dict[str, Any]
    hidden: list[str] = Field(description="Fields withheld from this seat (C-5).")


class EventLog(BaseModel):
    campaign_id: UUID
    entries: list[LogEntry]
    next_after: int | None = Field(description="Pass as ?after= to read the next page; null at the end.")


class RebuildReport(BaseModel):
    events: int
    position: int


class Die(BaseModel):
    value: int | None = Field(description="null while hidden from this seat (C-5)")
    in_cup: bool


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


class Circumstance(BaseModel):
    step: int
    side: str
    text: str
    die: int | None
    barred: str | None = Field(description="The side that may not use this die (PA-13).")


class LegalAction(BaseModel):
    action: str
    min: int | None = None
    max: int | None = None
    step: int | None = None
    amount: int | None = None
    cost: int | None = None
    dice: int | None = Field(None, description="How many dice to enter in table mode.")
    member: str | None = None
    choices: list[Any] | None = None
    borrowers: list[str] | None = None
    best_bid: dict[str, Any] | None = None


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
    legal_actions: list[LegalAction] = Field(description="What the viewing seat may do now, with limits.")


class ChallengeSummary(BaseModel):
    id: UUID
    kind: str = Field("Challenge", description="Challenge (Penny Ante), PoolRoll or PoolContest")
    phase: str
    announced_at: datetime
    ante: int
    pot: int
    challenger: list[str]
    opponent: list[str]


class Verification(BaseModel):
    challenge_id: UUID
    verifiable: bool
    reason: str | None = None
    commitment_matches: bool | None = None
    checked: int
    entered: int
    mismatches: list[dict[str, Any]]
    secret_seed: str | None = None
    side_seeds: list[str] | None = None


class ReplayStep(BaseModel):
    step: int = Field(description="The challenge's version after this event (1: the announcement).")
    event: str
    actor: str
    at: datetime
    detail: dict[str, Any]
    hidden: list[str] = Field(description="Fields withheld from this seat (C-5); ['*'] for a hidden entry.")
    changes: list[str] = Field(description="Which parts of the state this step changed.")
    state: dict[str, Any] = Field(description="The whole challenge after this step, as this seat may see it.")


class Replay(BaseModel):
    challenge_id: UUID
    revealed: bool = Field(description="True once the challenge was revealed: every hidden value is shown.")
    total: int
    steps: list[ReplayStep]


class BrokenLink(BaseModel):
    position: int = Field(description="The event's place in the campaign's chain (1 is the first).")
    notification_id: int | None
    kind: str = Field(description="altered, deleted, reordered, or chain-altered")
    detail: str


class AuditReport(BaseModel):
    campaign_id: UUID
    events: int
    head: str = Field(description="The last link of the chain; keep it to check later exports against.")
    intact: bool
    first_broken: BrokenLink | None


class ImportReport(BaseModel):
    campaign_id: UUID
    events: int
    head: str
    tokens: dict[str, str] = Field(description="New seat tokens, shown once; the old ones are not imported.")


class PoolRollLine(BaseModel):
    resolution_id: UUID
    at: datetime
    kind: str = Field(description="roll or contest")
    round: int
    count: int
    trait: str | None
    rating: int
    dice: list[int]
    total: int
    outcome: str = Field(description="full, mixed or miss (PL-2)")
    lost: int = Field(description="Dice lost to 5s and 6s (PL-3).")


class PoolSheet(BaseModel):
    system: Literal["pool"] = "pool"
    seat: str
    name: str
    description: str
    pool: int = Field(description="Dice in the pool; never below 2 (PL-1, PL-3).")
    traits: dict[str, int]
    moves: dict[str, int] = Field(description="Moves bought, with their cost in dice (PL-6).")
    rolls: list[PoolRollLine] = Field(description="The latest rolls, newest first.")


class ResolutionView(BaseModel):
    """A Pool roll or contest as the viewing seat sees it."""

    id: UUID
    campaign_id: UUID
    kind: str
    phase: str
    state: dict[str, Any]
    legal_actions: list[LegalAction]
