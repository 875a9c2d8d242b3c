"""The decks the card systems use (TO-1, PU-1), and hand-entry validation (C-3)."""

from __future__ import annotations

from collections.abc import Iterable

from domain.errors import RuleViolation

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = ("S", "H", "D", "C")

#: Twenty-one plays with one ordinary 52-card deck (TO-1).
STANDARD_52: tuple[str, ...] = tuple(f"{rank}{suit}" for suit in SUITS for rank in RANKS)

#: Pulp in the Cards plays with 14 cards (PU-1): black A/2/4, two red aces,
#: two red twos and seven picture cards. Values are the card's points.
PULP_14: dict[str, int] = {
    "BA": 1, "B2": 2, "B4": 4,
    "RA1": 1, "RA2": 1, "R21": 2, "R22": 2,
    **{f"P{i}": 0 for i in range(1, 8)},
}


def check_entered_cards(entered: Iterable[str], deck: Iterable[str], out: Iterable[str] = ()) -> list[str]:
    """Validate cards entered by hand: each exists in the deck and is not already out (C-3)."""
    known, gone, cards = set(deck), set(out), list(entered)
    for card in cards:
        if card not in known:
            raise RuleViolation(f"{card!r} is not a card of this deck", ruling="C-3")
        if card in gone:
            raise RuleViolation(f"{card!r} is already out of the deck", ruling="C-3")
        gone.add(card)
    return cards
