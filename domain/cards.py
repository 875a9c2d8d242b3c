"""Hand-entry validation of table cards (C-3), the same for every deck. Each deck lives in its system's
package (issue 30): the system passes its own deck in."""

from __future__ import annotations

from collections.abc import Iterable

from domain.errors import RuleViolation


def verify_entered_cards(entered: Iterable[str], every: Iterable[str], out: Iterable[str] = ()) -> list[str]:
    """Validate cards entered by hand: each is one of ``every`` card the system plays with, and not already
    out (C-3)."""
    known, gone, cards = set(every), set(out), list(entered)
    for card in cards:
        if card not in known:
            raise RuleViolation(f"{card!r} is not one of the cards this table plays with", ruling="C-3")
        if card in gone:
            raise RuleViolation(f"{card!r} is already out: it was dealt or entered before", ruling="C-3")
        gone.add(card)
    return cards
