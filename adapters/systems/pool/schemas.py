"""The Pool's read-model schemas: its sheet and the lines of its rolls."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Literal
from uuid import UUID

from pydantic import BaseModel, Field

from adapters.schemas import LegalAction, ResolutionView


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


class PoolAction(LegalAction):
    """A move in a Pool contest, with its own limits besides the shared ones (issue 30, ADR 0033)."""

    count_of: list[str] | None = Field(None, description="Table mode (C-3), a roll: the body fields whose value is "
                                                         "how many dice to enter as `dice` (its `count`, PL-2).")
    faces: int | None = Field(None, description="Table mode (C-3): the faces of each die to enter (d6, PL-2).")


class PoolView(ResolutionView):
    """A Pool roll or contest as the viewing seat sees it (C-5, C-8), with what that seat may do now."""

    legal_actions: Sequence[PoolAction]
