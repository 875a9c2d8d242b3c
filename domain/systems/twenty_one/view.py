"""A conflict as one seat may see it, and the moves that seat may make now (C-5, C-8; TO-2 … TO-15).

A hand is seen by its owner only (not by the House, not by other players), the set-aside card likewise, the
deck order by nobody, and the secret seed by nobody, until the conflict ends; then everything is public.
A card every seat saw before a rewind stays visible wherever it is now, marked ``seen_before_rewind`` (C-8).
The legal moves are those whose check passes (``checks.py``), so a listed move is never refused.
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Callable
from typing import Any

from domain.errors import StakesError
from domain.kernel.resolution import HOUSE
from domain.systems.twenty_one import cards as c
from domain.systems.twenty_one.checks import HAND
from domain.systems.twenty_one.draws import ReshuffleNeeded


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
        ordering = {"actors": list(conflict.ordering["actors"]),
                    "laid": {s: _card(conflict, x, public or s == seat) for s, x in laid.items()}}
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
        "action": action, "results": copy.deepcopy(conflict.results),
    }


def _passes(check: Any, *args: Any) -> bool:
    try:
        check(*args)
    except StakesError:
        return False
    return True


def legal_actions(conflict: Any, seat: str, holds: int = 0) -> list[dict[str, Any]]:
    """The moves ``seat`` may make now, each built from the check that would refuse it; ``holds``: the seat's."""
    out: list[dict[str, Any]] = []
    if seat == HOUSE:
        if conflict.phase == "seeding":  # the check of ``deal`` past its inputs
            out.append({"action": "deal", **({"dice": len(c.DECK)} if conflict.table else {})})
        if _passes(conflict.check_order, None):
            out.append({"action": "order", "choices": conflict.check_order(None), "min": 2})  # TO-3: two or more
        if _passes(conflict.check_modifier, 1, "x"):
            out.append({"action": "modifier", "choices": [-1, 1]})
        if _passes(conflict.check_end):
            out.append({"action": "end"})
        return out
    if seat not in conflict.seats:
        return out
    hand = list(conflict.hands[seat])
    if _passes(conflict.check_seed, seat):
        out.append({"action": "seed"})
    cards = [x for x in hand if _passes(conflict.check_order_card, seat, x)]
    if cards:
        out.append({"action": "order-card", "choices": cards})
    count = min(2, len(hand))
    if any(_passes(conflict.check_lay, seat, list(pair)) for pair in itertools.combinations(hand, count)):
        out.append({"action": "lay", "choices": hand, "min": count, "max": count})
    for name, check in (("draw", conflict.check_draw), ("stand", conflict.check_stand)):
        if _passes(check, seat):
            out.append({"action": name})
    uses = [u for u in ("set-aside", "draw") if _passes(conflict.check_hold, seat, u, holds)]
    if uses:
        out.append({"action": "hold", "choices": uses})
    if _passes(conflict.check_keep, seat):
        out.append({"action": "keep", "choices": [True, False]})
    helping = [x for x in hand if _passes(conflict.check_replace, seat, x)]
    if helping:
        out += [{"action": "assist", "choices": helping}, {"action": "hinder", "choices": helping}]
    if conflict.table and len(conflict.deck) < HAND * len(conflict.seats) + 2:
        out = [split for move in out for split in _with_reshuffles(conflict, seat, holds, move)]
    return out


#: How each move that may draw is tried without a reshuffle, per choice: (conflict, seat, holds, choice).
_TRIES: dict[str, Callable[..., None]] = {
    "lay": lambda k, seat, holds, pair: k.lay(seat, list(pair), None, seat),
    "stand": lambda k, seat, holds, _: k.stand(seat, None, seat),
    "hold": lambda k, seat, holds, use: k.use_hold(seat, use, holds, None, seat),
    "keep": lambda k, seat, holds, keep: k.keep(seat, keep, None, seat),
    "assist": lambda k, seat, holds, card: k.replace(seat, "assist", card, None, seat),
    "hinder": lambda k, seat, holds, card: k.replace(seat, "hinder", card, None, seat),
}


def _hidden_outcome(conflict: Any, seat: str, move: dict[str, Any]) -> bool:
    """Whether what this move leads to depends on cards the seat may not see (C-5): a card drawn from the
    deck, or the order cards the other actors laid face down. Trying such a move would tell the seat, before
    it commits, whether the next card ends the round; so it is not tried."""
    return move["action"] in ("draw", "order-card") or (move["action"] == "lay" and len(conflict.hands[seat]) < 2)


def _with_reshuffles(conflict: Any, seat: str, holds: int, move: dict[str, Any]) -> list[dict[str, Any]]:
    """C-3, table cards: whether this move needs the discards reshuffled at the table, found by trying it
    (on a copy) without them, choice by choice, since one pair laid may end the round and refill the hands
    while another does not. Choices that need the same reshuffle are listed together, with the cards to
    enter (``reshuffle``); a move listed without them needs none, and one listed with them needs them.

    A move whose outcome hangs on hidden cards is not tried: it is listed with the reshuffle only when the
    deck is empty now (its first card needs it, and the cards are the discards as they lie). Otherwise it
    may still be refused for a reshuffle once its card ends the round (see the issue's note)."""
    if _hidden_outcome(conflict, seat, move):
        if not conflict.deck and conflict.discard and move["action"] != "order-card":
            return [{**move, "required": ["reshuffle"], "reshuffle": list(conflict.discard)}]
        return [move]
    attempt = _TRIES.get(move["action"])
    if attempt is None:
        return [move]
    if move["action"] == "lay":
        choices: list[Any] = [list(p) for p in itertools.combinations(move["choices"], move["min"])
                              if _passes(conflict.check_lay, seat, list(p))]
    else:
        choices = list(move.get("choices") or [None])
    groups: dict[tuple[str, ...] | None, list[Any]] = {}
    for choice in choices:
        trial = copy.deepcopy(conflict)
        try:
            attempt(trial, seat, holds, choice)
            need = None
        except ReshuffleNeeded as needed:
            need = tuple(needed.cards)
        except StakesError:
            continue
        groups.setdefault(need, []).append(choice)
    if list(groups) in ([], [None]):
        return [move]
    out = []
    for need, chosen in groups.items():
        # a pair laid is two cards of the hand: split, each pair is listed on its own
        for part in ([[pair] for pair in chosen] if move["action"] == "lay" else [chosen]):
            split = dict(move)
            if move.get("choices") is not None:
                split["choices"] = part[0] if move["action"] == "lay" else part
            if need is not None:
                split["required"], split["reshuffle"] = ["reshuffle"], list(need)
            out.append(split)
    return out
