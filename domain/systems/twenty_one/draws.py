"""Drawing from a conflict's deck (TO-1, TO-14; C-3, C-4, C-7), worked out before an event and applied by it.

``Draws`` works on copies of the deck and the discard pile: when a card must be drawn and the deck is
empty, the discards are reshuffled into it, each reshuffle in its own slot (``["shuffle", n]``), so a
rewind reshuffles identically (C-7). It returns what the event records: the cards drawn and the
reshuffles made (the new deck order, hidden until the conflict ends). The event's mutator then replays
exactly those records on the aggregate (``apply_draw``): a replay never shuffles again (C-3).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from domain.errors import RuleViolation

#: (slot, cards to shuffle, entered order or None) -> the new deck order; the kernel's ``shuffle``.
Shuffler = Callable[[list[Any], list[str], Sequence[str] | None], list[str]]


def reshuffle_needed(discard: Sequence[str]) -> RuleViolation:
    """C-3, table cards: the refusal of a move (or of the House's reshuffle) that needs the discards entered."""
    return RuleViolation(f"the deck is empty: enter the {len(discard)} discards as reshuffled at the table "
                         "(reshuffle)", ruling="C-3")


class Draws:
    """A simulation of drawing: copies of the deck and discards, and the reshuffles it needed."""

    def __init__(self, deck: Sequence[str], discard: Sequence[str], shuffled: int, shuffler: Shuffler,
                 table: bool, entered: Sequence[str] | None) -> None:
        self.deck, self.discard, self.shuffled = list(deck), list(discard), shuffled
        self.shuffler, self.table, self.entered = shuffler, table, entered
        self.reshuffles: list[dict[str, Any]] = []

    def available(self) -> int:
        return len(self.deck) + len(self.discard)

    def draw(self, count: int) -> list[str]:
        """``count`` cards from the top; a refusal when even the discards cannot make them up."""
        out: list[str] = []
        for _ in range(count):
            if not self.deck:
                self._reshuffle()
            out.append(self.deck.pop(0))
        return out

    def draw_up_to(self, count: int) -> list[str]:
        """As many as ``count`` cards as the deck and the discards hold (a refill when cards run short)."""
        return self.draw(min(count, self.available()))

    def _reshuffle(self) -> None:
        if not self.discard:
            raise RuleViolation("the deck and the discard pile are empty: no card can be drawn", ruling="TO-1")
        if self.table:
            if self.entered is None:
                raise reshuffle_needed(self.discard)
            if self.reshuffles:
                raise RuleViolation("only one reshuffle is entered per move", ruling="C-3")
        slot = ["shuffle", self.shuffled + len(self.reshuffles) + 1]
        cards = list(self.discard)
        order = self.shuffler(slot, cards, self.entered if self.table else None)
        self.reshuffles.append({"slot": slot, "cards": cards, "order": list(order), "entered": self.table})
        self.deck, self.discard = list(order), []

    def done(self) -> None:
        """Refuse an entered reshuffle that was not needed (C-3)."""
        if self.table and self.entered is not None and not self.reshuffles:
            raise RuleViolation("no reshuffle is needed for this move; enter none", ruling="C-3")


def verify_entered_reshuffle(entered: Sequence[str], discard: Sequence[str]) -> None:
    """C-3: a reshuffle entered at the table holds exactly the discarded cards, once each."""
    if sorted(entered) != sorted(discard):
        raise RuleViolation(f"a reshuffle holds exactly the {len(discard)} discarded cards, once each",
                            ruling="C-3")
