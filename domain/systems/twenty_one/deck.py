"""The deck of a conflict, worked on by the aggregate (TO-1, TO-3, TO-9, TO-14, TO-15; C-3, C-7, C-8).

A plain mixin of :class:`~domain.systems.twenty_one.conflict.Conflict` (it defines no events): the
verify-side planning of draws (``_draws``, ``_settle_tie``, ``_after``), the mutator helpers the events call
(``_take``, ``_show``), and where every card is (``places``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from domain.errors import RuleViolation
from domain.systems.twenty_one import cards as c
from domain.systems.twenty_one.checks import HAND
from domain.systems.twenty_one.draws import Draws, verify_entered_reshuffle


class ReshuffleFirst(Exception):
    """TO-16, table cards: a tie the deck alone cannot deal waits for the House to enter the discards as
    reshuffled; raised while planning, before anything is recorded."""


class ConflictDeck:
    """Mixed into the conflict aggregate; see the module docstring."""

    deck: list[str]
    discard: list[str]
    hands: dict[str, list[str]]
    epochs: dict[str, int | str]  # per card: the deal (0), or the reshuffle and the order it made
    seen: list[str]
    seats: list[str]
    shuffled: int
    table: bool
    action: dict[str, Any] | None
    ordering: dict[str, Any] | None
    acted: list[str]
    round: int
    # the aggregate's own event methods, which these helpers call (``conflict.py``)
    shuffle: Any
    record_shuffle: Any
    _action_resolved: Any
    _round_ended: Any
    _hand_dealt: Any
    _reshuffle_awaited: Any

    # -- drawing (TO-1, TO-14; C-3, C-7) ----------------------------------------------------------------
    def _shuffler(self, slot: list[Any], cards: list[str], entered: Sequence[str] | None) -> list[str]:
        if self.table:
            verify_entered_reshuffle(c.cards(entered or []), cards)
            entered = c.cards(entered or [])
        return self.shuffle(slot, cards, entered)

    def _draws(self, entered: Sequence[str] | None) -> Draws:
        if entered is not None and not self.table:
            raise RuleViolation("cards are entered by hand only in table mode", ruling="C-3")
        return Draws(self.deck, self.discard, self.shuffled, self._shuffler, self.table, entered)

    def _sync(self, sim: Draws) -> Draws:
        """The simulation follows the aggregate after events were applied (the entered reshuffle, if used, stays used)."""
        sim.deck, sim.discard, sim.shuffled = list(self.deck), list(self.discard), self.shuffled
        if sim.reshuffles:
            sim.entered = None
        sim.reshuffles = []
        return sim

    def _take(self, cards: Sequence[str], reshuffles: list[dict[str, Any]]) -> None:
        """Mutator: the recorded cards leave the deck's top; the recorded reshuffles refill it when empty."""
        for card in cards:
            if not self.deck:
                r = reshuffles.pop(0)
                self.record_shuffle(r["slot"], r["cards"], r["order"], r["entered"])
                self.deck, self.discard = list(r["order"]), []
                self.shuffled = r["slot"][1]
                # C-8 holds for this very order: a slot reshuffled from another pile after a rewind is another
                # epoch, and what was seen in the first says nothing of where the cards lie now (C-5)
                order = hashlib.sha256(",".join(r["order"]).encode()).hexdigest()[:12]
                self.epochs.update({x: f"{self.shuffled}:{order}" for x in self.deck})
            assert self.deck[0] == card, "recorded draw does not match the deck"
            self.deck.pop(0)

    def _show(self, cards: Sequence[str]) -> None:
        """Mutator: these cards were shown to every seat (C-8)."""
        for card in cards:
            key = f"{card}@{self.epochs.get(card, 0)}"
            if key not in self.seen:
                self.seen.append(key)

    def was_seen(self, card: str) -> bool:
        return f"{card}@{self.epochs.get(card, 0)}" in self.seen

    def _settle_tie(self, group: list[str], sim: Draws, rounds: list[dict[str, str]]) -> list[str]:
        """TO-15, TO-16: one card each, face up from the deck in seat order, ordered the same way, again and
        again. A tie the deck cannot deal reshuffles the discards into it first (TO-14); only when the deck and
        the discards together cannot deal the tied group is it ordered by seat. With table cards that
        reshuffle is the House's own step, entered once every card laid for the order is face up (TO-3), so it
        shows nothing hidden: the planning stops here (``ReshuffleFirst``) until the House enters it."""
        if sim.available() < len(group):
            return list(group)
        if self.table and len(sim.deck) < len(group) and sim.entered is None:
            raise ReshuffleFirst
        dealt = dict(zip(group, sim.draw(len(group)), strict=True))
        rounds.append(dealt)  # on the table with the order cards until the order is settled (TO-15)
        first, ties = c.play_order(dealt, self.seats)
        return first + [s for g in ties for s in self._settle_tie(g, sim, rounds)]


    def _after(self, sim: Draws, actor: str) -> None:
        """Resolve the action when it is decided: a natural, a bust (at once, TO-12), or a stand."""
        action = self.action
        if action is None or action["pending"] is not None:
            sim.done()
            return
        points, aims = c.total(action["laid"]), c.targets([m["value"] for m in action["modifiers"]])
        if action["natural"]:
            outcome, how = "full", "natural"
        elif points > 21:
            outcome, how = "fail", "bust"
        elif action["stood"]:
            outcome, how = c.outcome(points, aims), "stood"
        else:
            sim.done()
            return
        self._action_resolved(seat=action["actor"], outcome=outcome, how=how, total=points, targets=aims,
                              laid=list(action["laid"]), actor=actor)
        if all(s in self.acted for s in self.seats):
            self._round_ended(round=self.round, actor=actor)
            self._refill(self._sync(sim), actor, table_deck_only=self.table)
        sim.done()

    def _refill(self, sim: Draws, actor: str, table_deck_only: bool) -> None:
        """TO-9: every hand is dealt back up to 3, in seat order. With table cards the refill deals only what
        the deck holds; when the deck runs out first, the House enters the discards as reshuffled as a step
        of its own (``reshuffle``). Were that reshuffle asked of the move that ended the round, a draw that
        busts would be refused and one that does not accepted, telling the seat the card before he commits
        to it (C-3, C-5)."""
        for seat in self.seats:
            short = HAND - len(self.hands[seat])
            cards = sim.draw(min(short, len(sim.deck))) if table_deck_only else sim.draw_up_to(short)
            if cards:
                self._hand_dealt(seat=seat, cards=cards, reshuffles=sim.reshuffles, why="refill", actor=actor)
                self._sync(sim)
            if table_deck_only and len(cards) < short and sim.discard:
                self._reshuffle_awaited(actor=actor)
                return

    # -- the cards, wherever they are (TO-1) ----------------------------------------------------------------
    def places(self) -> dict[str, list[str]]:
        """Every card by place; the 52 are all here, each once (before the deal, the deck is unshuffled)."""
        undealt = not self.deck and not self.discard and not any(self.hands.values())
        out = {"deck": list(c.DECK) if undealt else list(self.deck), "discard": list(self.discard)}
        for seat, hand in self.hands.items():
            out[f"hand:{seat}"] = list(hand)
        if self.ordering is not None:
            out["order"] = list(self.ordering["laid"].values())
        if self.action is not None:
            out["laid"] = list(self.action["laid"])
            out["set_aside"] = [self.action["set_aside"]] if self.action["set_aside"] else []
            out["pending"] = [self.action["pending"]] if self.action["pending"] else []
        return out
