"""A Pulp character: no experience, the sheet is the player's notes (PU-6). The House may append notes,
conditions and promotions; each is an event."""

from __future__ import annotations

from typing import Any
from uuid import UUID, uuid5

from eventsourcing.domain import Aggregate, event

from domain.errors import NotPermitted, RuleViolation
from domain.kernel.resolution import HOUSE
from domain.text import clean_text

KINDS = ("note", "condition", "promotion")


class PulpCharacter(Aggregate):
    @staticmethod
    def create_id(campaign_id: UUID, seat: str, **_: Any) -> UUID:  # type: ignore[override]
        return uuid5(campaign_id, f"character/{seat}")  # the same seat, the same stream, whatever the system

    @event("Created")
    def __init__(self, campaign_id: UUID, seat: str, name: str, actor: str) -> None:
        self.campaign_id, self.seat, self.name = campaign_id, seat, name
        self.notes: list[dict[str, Any]] = []

    @staticmethod
    def verify_note(kind: object, text: object, by: str, seat: str) -> str:
        """PU-6: a player writes notes on his own sheet; the House appends notes, conditions and promotions."""
        if kind not in KINDS:
            raise RuleViolation(f"a sheet takes a note, a condition or a promotion, not {kind!r}", ruling="PU-6")
        if by != HOUSE and kind != "note":
            raise NotPermitted(f"only the House appends a {kind}", ruling="PU-6")
        if by not in (HOUSE, seat):
            raise NotPermitted(f"only {seat} and the House write on {seat}'s sheet", ruling="PU-6")
        return clean_text(text, f"a {kind}", max_length=500, ruling="PU-6")

    def add_note(self, kind: str, text: object, actor: str) -> None:
        self._note_added(kind=kind, text=self.verify_note(kind, text, actor, self.seat), actor=actor)

    @event("NoteAdded")
    def _note_added(self, kind: str, text: str, actor: str) -> None:
        self.notes.append({"kind": kind, "text": text, "by": actor})
