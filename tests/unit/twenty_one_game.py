"""A Twenty-one table on the in-memory store, driven one move at a time (TO-1 … TO-15)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.application import StakesApplication
from domain.kernel.commands import Context
from domain.seats import Seat
from domain.systems.twenty_one import commands as cmd
from domain.systems.twenty_one.cards import DECK
from domain.systems.twenty_one.conflict import Conflict


def stacked(*top: str) -> list[str]:
    """A deck for table mode: these cards on top, in this order, then the rest of the deck."""
    return [*top, *(x for x in DECK if x not in top)]


class Game:
    #: The conflict as last replayed, and the log's head then (``conflict``).
    _read: tuple[int, Conflict] | None = None

    def __init__(self, seats: Sequence[str] = ("ilse", "tomas"), table: bool = True, holds: int = 0,
                 secret: str = "s3cret") -> None:
        self.app = StakesApplication(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})
        self.cid = self.app.create_campaign("Cards", "twenty-one", {"table_cards": table})
        self.seats = list(seats)
        for s in seats:
            self.app.execute(Context(self.cid, Seat.house()), cmd.AddPlayer(seat=s, character=s.title(),
                                                                             skills=["Knives"]))
            if holds:
                self.app.execute(Context(self.cid, Seat.house()), cmd.GrantHolds(seat=s, count=holds, skill="Knives"))
        # units of resolution happen during an adventure (C-1)
        self.app.execute(Context(self.cid, Seat.house()), self.app.parse(self.cid, "start-adventure", {}))
        self.unit = self.app.execute(Context(self.cid, Seat.house(), secret=secret),
                                     cmd.OpenConflict(characters=list(seats)))

    def act(self, seat: str, action: str, **inputs: Any) -> Conflict:
        self.app.act(Context(self.cid, Seat.parse(seat)), self.unit, {"action": action, **inputs})
        return self.conflict

    def inputs(self) -> Conflict:
        """Every engaged player who owes an input passes: the last pass deals (C-10)."""
        for seat in self.conflict.owed_inputs():
            self.act(seat, "pass")
        return self.conflict

    @property
    def conflict(self) -> Conflict:
        """The conflict as stored now. Replayed from its events once per change of the log, not on every look:
        a random game of hundreds of moves looked several times a move, each look replaying every event."""
        head = self.app.recorder.max_notification_id() or 0
        if self._read is None or self._read[0] != head:
            self._read = (head, self.app.repository.get(self.unit))
        return self._read[1]

    def holds(self, seat: str) -> int:
        from domain.systems.twenty_one.play import character

        return character(self.app, self.app.campaign(self.cid), seat).holds

    def rewind(self, to_step: int, reason: str = "the House ruled otherwise", reveal: bool = True) -> Conflict:
        """The House rewinds; ``reveal``: knowing it may put cards every seat saw back into hidden places (C-8)."""
        from domain.kernel.common import Rewind

        self.app.execute(Context(self.cid, Seat.house()),
                         Rewind(unit=self.unit, to_step=to_step, reason=reason, reveal=reveal))
        return self.conflict

    def conserved(self) -> list[str]:
        """Every card wherever it is: 52 of them, each once (TO-1)."""
        every = [x for cards in self.conflict.places().values() for x in cards]
        assert sorted(every) == sorted(DECK), sorted(every)
        return every
