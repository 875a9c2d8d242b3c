"""What a conflict allows now (TO-2 … TO-15, C-3, C-4): the checks that refuse a move before anything changes.

They read the conflict and change nothing; the aggregate (``conflict.py``) calls them before recording a
move, and ``view.legal_actions`` lists exactly the moves they pass. A refusal never says where a card is:
a card a player names is either in his own hand or not ("you do not hold …"), whoever holds it.

Named as every aggregate's checks are (issue 30, ADR 0036): ``verify_x`` refuses move ``x`` (the aggregate's
method of that name) or returns what it records; ``passes(verify_x, …)`` is its yes/no.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.errors import NotPermitted, RuleViolation, passes
from domain.systems.twenty_one import cards as c
from domain.systems.twenty_one.draws import reshuffle_needed, verify_entered_reshuffle
from domain.text import clean_text

HAND = 3  # TO-2, TO-9


class ConflictChecks:
    """Mixed into :class:`~domain.systems.twenty_one.conflict.Conflict`."""

    seats: list[str]
    hands: dict[str, list[str]]
    deck: list[str]
    discard: list[str]
    phase: str
    acted: list[str]
    assisted: list[str]
    turn_order: list[str]
    action: dict[str, Any] | None
    ordering: dict[str, Any] | None
    table: bool

    # -- who -------------------------------------------------------------------------------------------
    def engaged(self, seat: str) -> None:
        if seat not in self.seats:
            raise NotPermitted("only the characters engaged in this conflict play it; the House answers",
                               ruling="TO-2")

    def _phase(self, *phases: str, doing: str) -> None:
        if self.phase not in phases:
            where = {"seeding": "before the deal", "play": "between actions", "ordering": "while the order is laid",
                     "action": "during an action", "settled": "after the conflict ended",
                     "reshuffle": "while the refill (or a tie for the order, TO-16) waits for the House to "
                                  "enter the reshuffle (C-3)"}
            raise RuleViolation(f"{doing} is not possible {where.get(self.phase, self.phase)}", ruling="TO-4")

    def turn(self) -> str | None:
        """Whose turn it is: the actor of the action under way, else the next in the order of play (TO-3)."""
        if self.action is not None:
            return self.action["actor"]
        return next((s for s in self.turn_order if s not in self.acted), None)

    def holding(self, seat: str, card: object, ruling: str) -> str:
        code = c.card(card, ruling)
        if code not in self.hands[seat]:
            raise RuleViolation(f"you do not hold {c.pretty(code)}", ruling=ruling)
        return code

    def can_draw(self, count: int = 1) -> bool:
        """Whether ``count`` cards can be drawn: from the deck, or the reshuffled discards (TO-1, TO-14)."""
        return len(self.deck) + len(self.discard) >= count

    # -- C-4, TO-2: the deal ------------------------------------------------------------------------------
    def verify_deal(self, entered: Sequence[str] | None = None) -> list[str] | None:
        self._phase("seeding", doing="dealing")
        if not self.table:
            if entered is not None:
                raise RuleViolation("cards are entered by hand only in table mode", ruling="C-3")
            return None
        if entered is None:
            raise RuleViolation("this conflict is played with table cards: enter the 52 cards as shuffled",
                                ruling="C-3")
        deck = c.cards(entered)
        if len(deck) != len(c.DECK):
            raise RuleViolation(f"a deck holds {len(c.DECK)} cards, not {len(deck)}", ruling="C-3")
        return deck

    # -- TO-3, TO-15: the order of play --------------------------------------------------------------------
    def verify_orderer(self, seat: str) -> None:
        """``seat`` may be named to lay a card for the order: in the conflict, yet to act, holding a card."""
        self.engaged(seat)
        if seat in self.acted:
            raise RuleViolation(f"{seat} has acted this round", ruling="TO-14")
        if not self.hands[seat]:
            raise RuleViolation(f"{seat} holds no card to lay for the order", ruling="TO-3")

    def orderers(self) -> list[str]:
        """Every seat that may be named for the order now, in seat order (TO-3)."""
        return [seat for seat in self.seats if passes(self.verify_orderer, seat)]

    def verify_call_order(self, actors: Sequence[str] | None) -> list[str]:
        """The actors who lay for the order (TO-3); ``None``: every seat that may."""
        self._phase("play", doing="calling for the order of play")
        chosen = self.orderers() if actors is None else list(actors)
        if len(set(chosen)) != len(chosen):
            raise RuleViolation("an actor is named twice", ruling="TO-3")
        for seat in chosen:
            self.verify_orderer(seat)
        if len(chosen) < 2:
            raise RuleViolation("the order of play is laid by two actors or more", ruling="TO-3")
        return [s for s in self.seats if s in chosen]

    def verify_lay_for_order(self, seat: str, card: object) -> str:
        self.engaged(seat)
        self._phase("ordering", doing="laying a card for the order")
        assert self.ordering is not None
        if seat not in self.ordering["actors"]:
            raise RuleViolation("you are not among the actors laying for the order", ruling="TO-3")
        if seat in self.ordering["laid"]:
            raise RuleViolation("you have laid your card for the order", ruling="TO-3")
        return self.holding(seat, card, "TO-3")

    # -- TO-4, TO-5, TO-11, TO-14: an action -------------------------------------------------------------
    def verify_lay(self, seat: str, laid: Sequence[object]) -> list[str]:
        self.engaged(seat)
        self._phase("play", doing="laying cards for an action")
        if seat in self.acted:
            raise RuleViolation("you have acted this round", ruling="TO-14")
        nxt = self.turn()
        if nxt is not None and nxt != seat:
            raise RuleViolation(f"it is {nxt}'s turn in the order of play", ruling="TO-3")
        if not isinstance(laid, (list, tuple)):
            raise RuleViolation("lay a list of cards", ruling="TO-4")
        wanted = min(2, len(self.hands[seat]))
        if len(laid) != wanted:
            raise RuleViolation(f"lay {wanted} card{'s' * (wanted != 1)} from your hand (2, or all you hold "
                                "when you hold fewer; the deck makes up the rest)", ruling="TO-4")
        codes = c.cards(laid, "TO-4")
        for code in codes:
            self.holding(seat, code, "TO-4")
        if not self.can_draw(2 - wanted):
            raise RuleViolation("the deck and the discards cannot make up two cards", ruling="TO-1")
        return codes

    def _acting(self, seat: str, doing: str) -> dict[str, Any]:
        self.engaged(seat)
        self._phase("action", doing=doing)
        assert self.action is not None
        if self.action["actor"] != seat:
            raise RuleViolation(f"it is {self.action['actor']}'s action", ruling="TO-4")
        if self.action["pending"] is not None:
            raise RuleViolation("first keep or discard the card drawn for your hold", ruling="TO-8")
        return self.action

    def verify_draw(self, seat: str) -> None:
        self._acting(seat, "drawing")
        if not self.can_draw():
            raise RuleViolation("the deck and the discard pile are empty: stand", ruling="TO-1")

    def verify_stand(self, seat: str) -> None:
        self._acting(seat, "standing")

    # -- TO-8, TO-13: holds -----------------------------------------------------------------------------------
    def verify_use_hold(self, seat: str, use: str, holds: int) -> None:
        action = self._acting(seat, "spending a hold")
        if action["hold_used"]:
            raise RuleViolation("a hold is spent once per action", ruling="TO-8")
        if holds < 1:
            raise RuleViolation("you have no hold to spend", ruling="TO-8")
        if use == "set-aside" and action["set_aside"] is None:
            raise RuleViolation("you have no set-aside card", ruling="TO-8")
        if use == "draw" and not self.can_draw():
            raise RuleViolation("the deck and the discard pile are empty", ruling="TO-1")
        if use not in ("set-aside", "draw"):
            raise RuleViolation("a hold takes the set-aside card or draws one", ruling="TO-8")

    def verify_keep(self, seat: str) -> str:
        self.engaged(seat)
        self._phase("action", doing="keeping a hold's card")
        assert self.action is not None
        if self.action["actor"] != seat or self.action["pending"] is None:
            raise RuleViolation("no card drawn for your hold waits for your choice", ruling="TO-8")
        return self.action["pending"]

    # -- TO-7, TO-13: assist or hinder -----------------------------------------------------------------------
    def verify_replace(self, seat: str, card: object) -> str:
        self.engaged(seat)
        self._phase("action", doing="assisting or hindering")
        assert self.action is not None
        if self.action["actor"] == seat:
            raise RuleViolation("the actor does not assist or hinder himself; a hold does that", ruling="TO-7")
        if self.action["replacement"] is not None:
            raise RuleViolation("this action has been assisted or hindered already", ruling="TO-13")
        if seat in self.assisted:
            raise RuleViolation("you have assisted or hindered once this round", ruling="TO-7")
        if self.action["pending"] is not None:
            raise RuleViolation("the actor is choosing whether to keep a hold's card", ruling="TO-8")
        return self.holding(seat, card, "TO-7")

    # -- TO-6, TO-12: modifiers -------------------------------------------------------------------------------
    def verify_add_modifier(self, value: object, source: object) -> tuple[int, str]:
        self._phase("action", doing="adding a modifier")
        if isinstance(value, bool) or value not in (-1, 1):
            raise RuleViolation(f"a modifier is exactly +1 or -1, not {value!r}", ruling="TO-12")
        return int(value), clean_text(source, "a modifier's source", max_length=120, ruling="TO-6")  # type: ignore[arg-type]

    # -- TO-9, TO-14, C-3: the refill's reshuffle, with table cards -------------------------------------------
    def verify_reshuffle(self, entered: Sequence[str] | None) -> list[str]:
        self._phase("reshuffle", doing="entering a reshuffle")
        if entered is None:
            raise reshuffle_needed(self.discard)
        codes = c.cards(entered, "C-3")
        verify_entered_reshuffle(codes, self.discard)
        return codes

    # -- the end (C-5) ------------------------------------------------------------------------------------------
    def verify_end(self) -> None:
        self._phase("seeding", "play", "reshuffle", doing="ending the conflict")
