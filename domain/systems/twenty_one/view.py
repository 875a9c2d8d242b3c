"""A conflict as one seat may see it, and the moves that seat may make now (C-5, C-8; TO-2 … TO-15).

A hand is seen by its owner only (not by the House, not by other players), the set-aside card likewise, the
deck order by nobody, and the secret seed by nobody, until the conflict ends; then everything is public.
A card every seat saw before a rewind stays visible wherever it is now, marked ``seen_before_rewind`` (C-8).
The legal moves are those whose check passes (``checks.py``), so a listed move is never refused.
"""

from __future__ import annotations

import copy
import itertools
from typing import Any

from domain.errors import passes
from domain.kernel.resolution import HOUSE
from domain.systems.twenty_one import cards as c


def _card(conflict: Any, code: str | None, visible: bool) -> dict[str, Any]:
    if code is None:
        return {"card": None}
    if conflict.was_seen(code):  # a hidden place holds a card every seat saw only after a rewind (C-8)
        return {"card": code, "seen_before_rewind": True}
    return {"card": code if visible else None}


def view_for(conflict: Any, seat: str, reveal: bool = False, settled: bool = False) -> dict[str, Any]:
    """The conflict as ``seat`` may see it; ``reveal``/``settled``: a replay of a conflict that has ended."""
    public = conflict.settled or reveal or settled
    hands = {s: [_card(conflict, x, public or s == seat) for x in hand] for s, hand in conflict.hands.items()}
    action = None
    if conflict.action is not None:
        a = conflict.action
        aims = c.targets([m["value"] for m in a["modifiers"]])
        aside = a["set_aside"]
        action = {"actor": a["actor"], "laid": list(a["laid"]), "total": c.total(a["laid"]), "targets": aims,
                  "natural": a["natural"], "modifiers": copy.deepcopy(a["modifiers"]),
                  "replacement": copy.deepcopy(a["replacement"]), "hold_used": a["hold_used"],
                  "pending": a["pending"], "set_aside": None if aside is None else
                  {"present": True, **_card(conflict, aside, public or a["actor"] == seat)}}
    ordering = None
    if conflict.ordering is not None:
        laid = conflict.ordering["laid"]
        waits = conflict.phase == "reshuffle"  # TO-16: a tie waits for the reshuffle, every card laid face up
        ordering = {"actors": list(conflict.ordering["actors"]),
                    "laid": {s: {"card": x} if waits else _card(conflict, x, public or s == seat)
                             for s, x in laid.items()}}
    known = [{"position": i, "card": x, "seen_before_rewind": True}
             for i, x in enumerate(conflict.deck) if conflict.was_seen(x)]
    return {
        "kind": "conflict", "adventure": conflict.adventure, "phase": conflict.phase, "round": conflict.round,
        "table": conflict.table, "seed_hash": conflict.seed_hash,
        "secret_seed": conflict.secret_seed if conflict.settled or settled else None,
        "seats": list(conflict.seats), "you": seat if seat in conflict.seats else None,
        "seeds": {s: conflict.seed_of(s) for s in conflict.seats},
        "deck_count": len(conflict.deck), "deck_known": [] if public else known,
        "deck": list(conflict.deck) if public else None, "discard": list(conflict.discard),
        "reshuffles": conflict.shuffled, "hands": hands, "ordering": ordering,
        "last_order": copy.deepcopy(conflict.last_order), "turn_order": list(conflict.turn_order),
        "turn": conflict.turn(), "acted": list(conflict.acted), "assisted": list(conflict.assisted),
        "action": action, "results": copy.deepcopy(conflict.results), "voided": conflict.voided,
        "abandoned": getattr(conflict, "abandoned", None),  # C-10: the House's reason
    }


def legal_actions(conflict: Any, seat: str, holds: int = 0) -> list[dict[str, Any]]:
    """The moves ``seat`` may make now, each built from the check that would refuse it; ``holds``: the seat's."""
    out: list[dict[str, Any]] = []
    if seat == HOUSE:
        if conflict.phase == "seeding" and (conflict.table or not conflict.owed_inputs()):  # ``deal``'s check
            # table cards (C-3): every card of the deck, to be entered once each in the order shuffled; a
            # service deal is made by the last seed or pass, never by hand (C-10), but after a rewind to
            # before it, when the seeds are locked and the same cards come again (C-7), and in a conflict
            # stored before issue 30 with every seed in and no deal: nothing is owed, the cards are fixed
            entry: dict[str, Any] = {"action": "deal"}
            if conflict.table:
                entry.update(dice=len(c.DECK), choices=list(c.DECK), min=len(c.DECK), max=len(c.DECK))
                dealt = conflict.fixed_before([["shuffle", 0]])  # C-7: the order entered before a rewind
                if dealt is not None:
                    entry["required"] = list(dealt[0])  # … is the one order the deal takes again
            out.append(entry)
        if passes(conflict.verify_call_order, None):
            out.append({"action": "order", "choices": conflict.verify_call_order(None), "min": 2})  # TO-3: two or more
        if passes(conflict.verify_add_modifier, 1, "x"):
            out.append({"action": "modifier", "choices": [-1, 1]})
        if passes(conflict.verify_reshuffle, list(conflict.discard)):  # C-3, TO-9: the refill waits
            out.append({"action": "reshuffle", "required": ["reshuffle"], "reshuffle": _reshuffle_cards(conflict)})
        if passes(conflict.verify_end):
            out.append({"action": "end"})
        if not conflict.settled:  # C-10: the kernel's abandon, with a reason
            out.append({"action": "abandon", "required": ["reason"]})
        return out
    if seat not in conflict.seats:
        return out
    hand = list(conflict.hands[seat])
    if passes(conflict.verify_may_seed, seat):
        out += [{"action": "seed"}, {"action": "pass"}]  # C-10: either input lets the deal come
    cards = [x for x in hand if passes(conflict.verify_lay_for_order, seat, x)]
    if cards:
        out.append({"action": "order-card", "choices": cards})
    count = min(2, len(hand))
    if any(passes(conflict.verify_lay, seat, list(pair)) for pair in itertools.combinations(hand, count)):
        out.append({"action": "lay", "choices": hand, "min": count, "max": count})
    for name, check in (("draw", conflict.verify_draw), ("stand", conflict.verify_stand)):
        if passes(check, seat):
            out.append({"action": name})
    uses = [u for u in ("set-aside", "draw") if passes(conflict.verify_use_hold, seat, u, holds)]
    if uses:
        out.append({"action": "hold", "choices": uses})
    if passes(conflict.verify_keep, seat):
        out.append({"action": "keep", "choices": [True, False]})
    helping = [x for x in hand if passes(conflict.verify_replace, seat, x)]
    if helping:
        out += [{"action": "assist", "choices": helping}, {"action": "hinder", "choices": helping}]
    if conflict.table and len(conflict.deck) < 2 and conflict.discard:
        out = [split for move in out for split in _with_reshuffles(conflict, seat, move)]
    return out


def _draws_needed(conflict: Any, seat: str, move: dict[str, Any], choice: Any) -> int:
    """How many cards this move (with this choice) draws from the deck itself: a draw, a hold's draw, or
    the cards the deck adds to a short hand laid (TO-4, TO-8). The round's refill is not the move's: with
    table cards it waits for the House's reshuffle (C-3), so what a move needs never hangs on a hidden card."""
    if move["action"] == "draw" or (move["action"] == "hold" and choice == "draw"):
        return 1
    if move["action"] == "lay":
        return 2 - min(2, len(conflict.hands[seat]))
    return 0


def _with_reshuffles(conflict: Any, seat: str, move: dict[str, Any]) -> list[dict[str, Any]]:
    """C-3, table cards: a move whose own draws outrun the deck needs the discards entered as reshuffled
    (``reshuffle``, the cards to enter); choices that need it and choices that do not are listed apart. It
    is counted from what every seat sees (the deck's size, the discards), never tried, so the listing tells
    nobody anything about a hidden card (C-5)."""
    if move["action"] == "hold":
        groups: dict[bool, list[Any]] = {}
        for use in move["choices"]:
            groups.setdefault(_draws_needed(conflict, seat, move, use) > len(conflict.deck), []).append(use)
        parts = [(need, {**move, "choices": uses}) for need, uses in groups.items()]
    else:
        parts = [(_draws_needed(conflict, seat, move, None) > len(conflict.deck), move)]
    return [{**part, "required": ["reshuffle"], "reshuffle": _reshuffle_cards(conflict)} if need else part
            for need, part in parts]


def _reshuffle_cards(conflict: Any) -> list[str]:
    """C-3, table cards: the cards a reshuffle is entered as, the discards; after a rewind, in the one order its
    slot was dealt in before from the same pile (C-7), which alone is accepted: the seat that must enter it is
    told it (the table restacks the pile as it lay before the rewind), so the move plays as listed."""
    pile = list(conflict.discard)
    before = conflict.orders_before(["shuffle", conflict.shuffled + 1], pile)
    return before[0] if before else pile
