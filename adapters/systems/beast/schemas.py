"""Humanity and Beast read-model schemas: the sheet, its history, and the House's characters."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal
from uuid import UUID

from pydantic import BaseModel, Field

from adapters.schemas import ResolutionView


class BeastLine(BaseModel):
    at: datetime
    unit: UUID | None = Field(description="The roll or conflict, if any.")
    what: str = Field(description="roll, reroll, outcome, check, adjusted or restored")
    detail: dict[str, Any]


class BeastSheet(BaseModel):
    system: Literal["beast"] = "beast"
    seat: str
    name: str
    humanity: int = Field(description="Humanity dice (BE-1).")
    beast: int = Field(description="Beast dice; Humanity plus Beast is always 10 (BE-1).")
    willpower: int = Field(description="Current Willpower, 0 to the maximum (BE-1).")
    willpower_max: int
    lost: bool = Field(description="Lost to the Beast at Humanity 0: no more rolls (BE-7, BE-9).")
    status: str
    history: list[BeastLine] = Field(description="Rolls, outcomes and changes to the sheet, newest first.")
    checks: list[BeastLine] = Field(description="Humanity checks, newest first (BE-7).")


class HouseCharacter(BaseModel):
    """An antagonist: players see its name only (C-5)."""

    name: str
    humanity: int | None = None
    beast: int | None = None
    willpower: int | None = None
    willpower_max: int | None = None
    lost: bool | None = None
    history: list[BeastLine] | None = None


class BeastView(ResolutionView):
    """A Beast roll or conflict as the viewing seat sees it (C-5, C-8), with what that seat may do now."""

    system: Literal["beast"] = "beast"
