"""A Twenty-one character: a name, skills the House accepts as modifier sources, and holds granted by
skills, kept on the sheet (TO-6, TO-8)."""

from __future__ import annotations

from typing import Any
from uuid import UUID, uuid5

from eventsourcing.domain import Aggregate, event

from domain.errors import RuleViolation
from domain.text import clean_text

MAX_SKILLS = 20


def skill_name(raw: object) -> str:
    return clean_text(raw, "a skill", max_length=80, ruling="TO-6", name=True)


class TwentyOneCharacter(Aggregate):
    @staticmethod
    def create_id(campaign_id: UUID, seat: str, **_: Any) -> UUID:  # type: ignore[override]
        return uuid5(campaign_id, f"character/{seat}")  # the same seat, the same stream, whatever the system

    @event("Created")
    def __init__(self, campaign_id: UUID, seat: str, name: str, skills: list[str], actor: str) -> None:
        self.campaign_id = campaign_id
        self.seat = seat
        self.name = name
        self.skills = list(skills)
        self.holds = 0

    @classmethod
    def create(cls, campaign_id: UUID, seat: str, name: str, skills: list[Any] | None,
               actor: str) -> TwentyOneCharacter:
        named: list[str] = []
        for raw in skills or []:
            skill = skill_name(raw)
            if skill.casefold() in {s.casefold() for s in named}:
                raise RuleViolation(f"the skill {skill!r} is named twice", ruling="TO-6")
            named.append(skill)
        if len(named) > MAX_SKILLS:
            raise RuleViolation(f"a character has at most {MAX_SKILLS} skills", ruling="TO-6")
        return cls(campaign_id=campaign_id, seat=seat, name=name, skills=named, actor=actor)

    def skill(self, raw: object) -> str:
        wanted = skill_name(raw).casefold()
        found = next((s for s in self.skills if s.casefold() == wanted), None)
        if found is None:
            raise RuleViolation(f"{self.name} has no skill {raw!r}", ruling="TO-8")
        return found

    # -- TO-8: holds -------------------------------------------------------------------------------------
    def grant(self, count: object, skill: object, actor: str) -> None:
        """The House grants holds from one of the character's skills."""
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= 10:
            raise RuleViolation(f"grant 1 to 10 holds at a time, not {count!r}", ruling="TO-8")
        self._holds_granted(count=count, skill=self.skill(skill), actor=actor)

    @event("HoldsGranted")
    def _holds_granted(self, count: int, skill: str, actor: str) -> None:
        self.holds += count

    def verify_spend_hold(self) -> None:
        if self.holds < 1:
            raise RuleViolation(f"{self.name} has no hold to spend", ruling="TO-8")

    @event("HoldSpent")
    def spend_hold(self, conflict: str, actor: str) -> None:
        self.holds -= 1

    @event("HoldsReturned")
    def return_holds(self, conflict: str, count: int, reason: str, actor: str) -> None:
        """Holds spent in steps a rewind undid come back (C-6)."""
        self.holds += count

    def verify_retake_holds(self, count: int) -> None:
        """A rewind to a step where more holds were spent than now needs them on the sheet (C-6, TO-8)."""
        if self.holds < count:
            raise RuleViolation(f"that step has {count} more hold(s) of {self.name} spent than now, and the sheet "
                                f"holds {self.holds}: a rewind gives exactly the state of that step, so grant the "
                                "holds first or rewind to another step", ruling="C-6")

    @event("HoldsRetaken")
    def retake_holds(self, conflict: str, count: int, reason: str, actor: str) -> None:
        """Holds spent in the steps a rewind goes back to, and returned since (by another rewind), are spent
        again: the sheet says what replaying the kept steps says (C-6, TO-8)."""
        self.holds -= count
