"""Pulp's read-model schemas: its sheet, with notes and the deals shown (PU-6)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, Literal
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
    deck: list[str] | None = Field(
        None, description="Table mode (C-3): the cards the table may enter as `cards`, each at most once: the 14-card deck (PU-1)."
    )
    dice: int | None = Field(
        None,
        description="Table mode: how many cards to enter: a hand's 7, cut at the table "
        "(PU-2, PU-7); initiative's first round-robin, 2 to each combatant "
        "in the order `dealt_to`, then one more to each tied combatant "
        "(PU-5, PU-9).",
    )
    dealt_to: list[str] | None = Field(
        None,
        description="Table mode, initiative: the combatants in the order the "
        "cards go round, one at a time, from the top. Each tied "
        "group, highest first, is then dealt one card more each, "
        "in this order, and compared by that card's `points` "
        "plus the same advantage among the tied alone, until "
        "settled; a group with fewer cards left than members "
        "goes by name (PU-9). Enter every card dealt, no more.",
    )
    points: dict[str, int] | None = Field(None, description="Table mode, initiative: each card's points (PU-1), which decide the ties.")
    required: list[Any] | None = Field(
        None,
        description="What this move must repeat after a rewind (C-7): in "
        "table mode the cards that slot had, entered again in the "
        "same order as far as the deal now needs (initiative: a "
        "longer or shorter run where new advantages need it); else "
        "the same cut (or the kernel's `abandon`: its `reason`; a fresh `seed`, C-9).",
    )
    bound: dict[str, Any] | None = Field(
        None,
        description="C-9: after a rewind that kept the players' fresh seed of this choice's stage, the House "
        "knows what it draws, so the choice is made again as it was made: the body fields it must send "
        "(`advantage` for initiative, `target` and `difficulty` for an attack; none for keep).",
    )


class PulpView(ResolutionView):
    """A Pulp deal or combat as the viewing seat sees it (C-5), with what that seat may do now."""

    legal_actions: Sequence[PulpAction]
