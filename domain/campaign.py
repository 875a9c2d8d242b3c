"""The campaign: its system, settings, seats and adventures (C-1). Shared by every system."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from eventsourcing.domain import Aggregate, event

from domain.errors import NotFound, RuleViolation


class Campaign(Aggregate):
    """Small on purpose: the roster and whether an adventure runs, nothing per challenge."""

    @event("Created")
    def __init__(self, name: str, system: str, settings: dict[str, Any], actor: str) -> None:
        self.name = name
        self.system = system
        self.settings = settings
        self.players: dict[str, str] = {}  # seat handle -> character id (hex)
        self.adventure = 0
        self.adventure_running = False
        self.open_challenges: list[str] = []

    # -- seats ---------------------------------------------------------------
    def seat_player(self, seat: str, character_id: UUID, actor: str) -> None:
        if seat in self.players:
            raise RuleViolation(f"a player named {seat!r} already has a seat; each plays one character", ruling="C-1")
        self._player_seated(seat=seat, character_id=character_id.hex, actor=actor)

    @event("PlayerSeated")
    def _player_seated(self, seat: str, character_id: str, actor: str) -> None:
        self.players[seat] = character_id

    def reissue_seat(self, seat: str, actor: str) -> None:
        """The House hands a seat out again (a lost token): the old token stops working, and the player
        sees in the log that it happened (C-2)."""
        self.character_id(seat)
        self._seat_reissued(seat=seat, actor=actor)

    @event("SeatReissued")
    def _seat_reissued(self, seat: str, actor: str) -> None:
        pass

    def character_id(self, seat: str) -> UUID:
        if seat not in self.players:
            raise NotFound(f"no player named {seat!r} sits in this campaign")
        return UUID(self.players[seat])

    # -- adventures ----------------------------------------------------------
    def start_adventure(self, actor: str) -> int:
        if self.adventure_running:
            raise RuleViolation(f"adventure {self.adventure} is still running; adventures run one at a time", ruling="C-1")
        self._adventure_started(number=self.adventure + 1, actor=actor)
        return self.adventure

    @event("AdventureStarted")
    def _adventure_started(self, number: int, actor: str) -> None:
        self.adventure = number
        self.adventure_running = True

    def end_adventure(self, actor: str) -> int:
        if not self.adventure_running:
            raise RuleViolation("no adventure is running", ruling="C-1")
        if self.open_challenges:
            raise RuleViolation(f"{len(self.open_challenges)} challenge(s) are still open; settle them first",
                                ruling="C-1")
        self._adventure_ended(number=self.adventure, actor=actor)
        return self.adventure

    @event("AdventureEnded")
    def _adventure_ended(self, number: int, actor: str) -> None:
        self.adventure_running = False

    # -- challenges (C-1): one unit of resolution at a time per challenge, inside an adventure ------
    def open_challenge(self, challenge_id: UUID, actor: str) -> None:
        if not self.adventure_running:
            raise RuleViolation("challenges happen during an adventure; start one first", ruling="C-1")
        self._challenge_opened(challenge_id=challenge_id.hex, actor=actor)

    @event("ChallengeOpened")
    def _challenge_opened(self, challenge_id: str, actor: str) -> None:
        self.open_challenges.append(challenge_id)

    @event("ChallengeClosed")
    def close_challenge(self, challenge_id: str, actor: str) -> None:
        self.open_challenges.remove(challenge_id)
