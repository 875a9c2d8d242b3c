"""Pulp's read-model schemas: its sheet, with notes and the deals shown (PU-6)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Literal
from uuid import UUID

from pydantic import BaseModel, Field

from adapters.schemas import LegalAction, ResolutionView


class PulpNote(BaseModel):
    at: datetime
    kind: str = Field(description="note, condition or promotion (PU-6)")
    text: str
    by: str


class PulpDealLine(BaseModel):
    resolution_id: UUID
    number: int = Field(description="0 for a deal; the attack's number in a combat.")
    at: datetime
    kind: str = Field(description="standard, resistance, or attack")
    difficulty: int
    cards: list[str]
    shown_as: str
    degree: int
    success: bool
    critical: bool
    fumble: bool
    void: bool = Field(description="Overturned by the House (C-6).")
    seen_before_the_rewind: bool = Field(description="A rewind took it back; it stays public (C-8).")


class PulpSheet(BaseModel):
    system: Literal["pulp-cards"] = "pulp-cards"
    seat: str
    name: str
    notes: list[PulpNote] = Field(description="Every note, condition and promotion, oldest first (PU-6).")
    conditions: list[str]
    promotions: list[str]
    deals: list[PulpDealLine] = Field(description="The latest deals shown, newest first.")


class PulpAction(LegalAction):
    """A move in a Pulp deal or combat, with its own limits besides the shared ones (issue 30, ADR 0033)."""

    member: str | None = Field(None, description="The combatant whose attack it is (PU-4).")


class PulpView(ResolutionView):
    """A Pulp deal or combat as the viewing seat sees it (C-5), with what that seat may do now."""

    legal_actions: Sequence[PulpAction]
