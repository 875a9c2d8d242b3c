"""Read-model schemas: what every view returns, over HTTP and in the CLI alike.

They are separate from the domain classes; the API uses them as response
models and the CLI's HTTP client parses server answers back into them. A
system's own schemas are in its adapter module (``adapters/systems/<package>``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
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


class PlayerAdded(BaseModel):
    """A seated player's sheet (its schema is the campaign's system's, told by ``sheet.system``) and token."""

    sheet: Any
    token: str = Field(description="The player's bearer token. Shown once; hand it to the player.")


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
    required: list[Any] | None = Field(None, description="What this move must repeat after a rewind (C-7).")
    fixed: list[Any] | None = Field(None, description="Table dice a rewind fixed for these slots (C-7).")


class ChallengeSummary(BaseModel):
    id: UUID
    kind: str = Field("Challenge", description="The unit's kind, as its system names it.")
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


class ResolutionView(BaseModel):
    """A unit of resolution as the viewing seat sees it: its state, shaped by its system, and what the seat may do."""

    id: UUID
    campaign_id: UUID
    kind: str
    phase: str
    state: dict[str, Any]
    legal_actions: list[LegalAction]
