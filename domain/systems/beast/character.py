"""Characters of Humanity and Beast: a player's, and the House's antagonists (BE-1, BE-7 … BE-9).

Both keep the split (Humanity + Beast = 10) and Willpower (0 to the maximum). They change only through
``Adjusted`` (what a roll or conflict did, or its undo, per unit: C-6) and ``WillpowerRestored`` (BE-8).
An antagonist's values are the House's secret (C-5): its events are a class of their own, so the log
shows them to the House alone.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID, uuid5

from eventsourcing.domain import Aggregate, event

from domain.errors import RuleViolation
from domain.systems.beast import rules
from domain.text import clean_text


class _Sheet:
    """What both kinds of character share: their values and the checks on a change."""

    humanity: int
    willpower: int
    willpower_max: int
    name: str

    @property
    def beast(self) -> int:
        return rules.DICE - self.humanity

    @property
    def lost(self) -> bool:
        """BE-7, BE-9: at Humanity 0 the character is lost to the Beast."""
        return self.humanity == 0

    def values(self) -> dict[str, int]:
        return {"humanity": self.humanity, "beast": self.beast, "willpower": self.willpower,
                "willpower_max": self.willpower_max}

    def verify_adjust(self, willpower: int, humanity: int) -> None:
        """An adjustment keeps Willpower within 0 and the maximum and the split within 0 and 10 (BE-1)."""
        if not 0 <= self.willpower + willpower <= self.willpower_max:
            raise RuleViolation(f"{self.name}'s Willpower would be {self.willpower + willpower}, outside 0 to "
                                f"{self.willpower_max}", ruling="BE-1")
        if not 0 <= self.humanity + humanity <= rules.DICE:
            raise RuleViolation(f"{self.name}'s Humanity would be {self.humanity + humanity}", ruling="BE-1")

    def verify_restore(self, amount: object) -> int:
        """BE-8: the House restores Willpower, up to the maximum; what is restored (never above it)."""
        amount = rules.whole(amount, "Willpower restored", 1, 10, "BE-8")
        room = self.willpower_max - self.willpower
        if room == 0:
            raise RuleViolation(f"{self.name}'s Willpower is at its maximum of {self.willpower_max}", ruling="BE-8")
        return min(amount, room)

    def _apply(self, willpower: int, humanity: int) -> None:
        self.willpower += willpower
        self.humanity += humanity


class BeastCharacter(_Sheet, Aggregate):
    """A player's character (BE-1)."""

    @staticmethod
    def create_id(campaign_id: UUID, seat: str, **_: Any) -> UUID:  # type: ignore[override]
        return uuid5(campaign_id, f"character/{seat}")  # the same seat, the same stream, whatever the system

    @event("Created")
    def __init__(self, campaign_id: UUID, seat: str, name: str, humanity: int, willpower_max: int,
                 actor: str) -> None:
        self.campaign_id, self.seat, self.name = campaign_id, seat, name
        self.humanity, self.willpower_max, self.willpower = humanity, willpower_max, willpower_max

    @classmethod
    def create(cls, campaign_id: UUID, seat: str, name: str, humanity: object, willpower_max: object,
               actor: str) -> BeastCharacter:
        h, w = rules.creation(humanity, willpower_max)
        return cls(campaign_id=campaign_id, seat=seat, name=name, humanity=h, willpower_max=w, actor=actor)

    def adjust(self, unit: str, willpower: int, humanity: int, why: str, actor: str) -> None:
        self.verify_adjust(willpower, humanity)
        self._adjusted(unit=unit, willpower=willpower, humanity=humanity, why=why, actor=actor)

    @event("Adjusted")
    def _adjusted(self, unit: str, willpower: int, humanity: int, why: str, actor: str) -> None:
        self._apply(willpower, humanity)

    def restore(self, amount: object, actor: str) -> None:
        self._restored(amount=self.verify_restore(amount), actor=actor)

    @event("WillpowerRestored")
    def _restored(self, amount: int, actor: str) -> None:
        self.willpower += amount


class BeastAntagonist(_Sheet, Aggregate):
    """One of the House's characters (BE-1); its values are the House's secret (C-5). It keeps the open
    conflict it is a side of (``engaged``; one at a time, BE-6): what that did to it reaches its sheet only
    when it settles (``BeastRoll.values_now`` counts it meanwhile)."""

    seat = "house"
    engaged: tuple[str, ...] | list[str] = ()  # an antagonist stored before it kept them is in none

    @staticmethod
    def create_id(campaign_id: UUID, name: str, **_: Any) -> UUID:  # type: ignore[override]
        return uuid5(campaign_id, f"beast-antagonist/{name.casefold()}")

    @event("Created")
    def __init__(self, campaign_id: UUID, name: str, humanity: int, willpower_max: int, actor: str) -> None:
        self.campaign_id, self.name = campaign_id, name
        self.humanity, self.willpower_max, self.willpower = humanity, willpower_max, willpower_max

    @classmethod
    def create(cls, campaign_id: UUID, name: object, humanity: object, willpower_max: object,
               actor: str) -> BeastAntagonist:
        cleaned = clean_text(name, "an antagonist's name", max_length=80, ruling="BE-1", name=True)
        h, w = rules.creation(humanity, willpower_max)
        return cls(campaign_id=campaign_id, name=cleaned, humanity=h, willpower_max=w, actor=actor)

    def adjust(self, unit: str, willpower: int, humanity: int, why: str, actor: str) -> None:
        self.verify_adjust(willpower, humanity)
        self._adjusted(unit=unit, willpower=willpower, humanity=humanity, why=why, actor=actor)

    @event("Adjusted")
    def _adjusted(self, unit: str, willpower: int, humanity: int, why: str, actor: str) -> None:
        self._apply(willpower, humanity)

    def restore(self, amount: object, actor: str) -> None:
        self._restored(amount=self.verify_restore(amount), actor=actor)

    @event("WillpowerRestored")
    def _restored(self, amount: int, actor: str) -> None:
        self.willpower += amount

    @event("Engaged")
    def engage(self, unit: str, actor: str) -> None:
        """It became a side of the open roll or conflict ``unit``."""
        self.engaged = [*self.engaged, unit]

    @event("Released")
    def release(self, unit: str, actor: str) -> None:
        """The roll or conflict ``unit`` settled: what it did is on the sheet now."""
        self.engaged = [u for u in self.engaged if u != unit]
