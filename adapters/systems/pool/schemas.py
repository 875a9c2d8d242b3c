"""The Pool's read-model schemas: its sheet and the lines of its rolls."""

from __future__ import annotations

from datetime import datetime
from typing import Literal
from uuid import UUID

from pydantic import BaseModel, Field


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


class PoolHelpOffer(BaseModel):
    to: str = Field(description="The seat helped.")
    dice: int = Field(description="Dice offered for that seat's next roll (PL-7).")


class PoolSheet(BaseModel):
    system: Literal["pool"] = "pool"
    seat: str
    name: str
    description: str
    pool: int = Field(description="Dice in the pool; never below 2 (PL-1, PL-3).")
    traits: dict[str, int]
    moves: dict[str, int] = Field(description="Moves bought, with their cost in dice (PL-6).")
    rolls: list[PoolRollLine] = Field(description="The latest rolls, newest first.")
    help_offer: PoolHelpOffer | None = Field(None, description="This character's standing offer of help, until the "
                                             "helped roll spends it (PL-7).")
