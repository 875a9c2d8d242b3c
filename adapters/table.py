"""Who the table waits for (issue 14): for the web view and ``stakes watch``, the same for every system.

A unit's view lists the legal actions of the seat that reads it (C-5); asking it for every seat of the
campaign tells who may act now. Only the seats are kept, and the names of the reader's own moves: the limits
(a seat's pile, a bankrupt's characteristics) and another seat's moves stay in that seat's own view.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from domain.seats import Seat


def waiting_for(stakes: Any, campaign_id: UUID, unit_id: UUID, viewer: Seat) -> dict[str, list[str]]:
    """Each seat that may act in the unit now (empty once it is over), with the names of its moves for the
    viewer's own seat only: which moves another seat has can tell its hidden values (an antagonist that spent
    Willpower in secret can no longer reroll, C-5), so another seat's list is empty.

    One view, the viewer's (issue 30): its ``waiting_for`` already asked each seat whether it has a move of the
    unit to make (a seat whose only moves are optional, such as answering or withdrawing something offered into
    the unit, is not waited for, issue 31), so no other seat's full view is built."""
    campaign = stakes.campaign_row(campaign_id)
    view = stakes.unit_view(campaign_id, unit_id, viewer)
    waiting = set(view.waiting_for)
    names = list(dict.fromkeys(a.action for a in view.legal_actions))
    return {seat: (names if seat == viewer.name else []) for seat in ["house", *(p.seat for p in campaign.players)]
            if seat in waiting}
