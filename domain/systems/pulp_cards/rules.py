"""Plain Pulp rules: the deck, the cut, reading a deal and dealing initiative (PU-1 … PU-9).

Anyone can recompute a deal: the 14 cards in the order of ``DECK`` are shuffled for the deal's slot
(``domain.fairness.derive_shuffle``), the top ``cut`` cards go under the rest (PU-7) and the hand is the
new top seven. An initiative deal is the shuffled deck without a cut, dealt round-robin (PU-7, PU-9).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from domain.errors import RuleViolation

#: Pulp in the Cards plays with 14 cards (PU-1): black A/2/4, two red aces, two red twos and seven picture
#: cards; each card's points.
POINTS: dict[str, int] = {
    "BA": 1, "B2": 2, "B4": 4,
    "RA1": 1, "RA2": 1, "R21": 2, "R22": 2,
    **{f"P{i}": 0 for i in range(1, 8)},
}
DECK: tuple[str, ...] = tuple(POINTS)  # PU-1, in a fixed order: the input of every shuffle
HAND = 7  # PU-2
DIFFICULTY = (-4, 4)  # PU-2: -4 nearly foolproof, +4 nearly impossible
ADVANTAGE = (0, 4)  # PU-9: 0 or 1 to 4
CRITICAL, FUMBLE = 5, -5  # PU-3
MAX_COMBATANTS = len(DECK) // 2  # PU-5: two initiative cards each
FACES = {"BA": "A♠", "B2": "2♠", "B4": "4♠", "RA1": "A♥", "RA2": "A♦", "R21": "2♥", "R22": "2♦"}


def points(card: str) -> int:
    return POINTS[card]


def is_black(card: str) -> bool:
    return card.startswith("B")


def is_red(card: str) -> bool:
    return card.startswith("R")


def face(card: str) -> str:
    """How a card prints: ``A♠ 2♥ ▢`` (picture cards are blank)."""
    return FACES.get(card, "▢")


def faces(cards: Sequence[str]) -> str:
    return " ".join(face(c) for c in cards)


def difficulty(value: object) -> int:
    """PU-2: from -4 to +4; 0 when the House sets none."""
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, int) or not DIFFICULTY[0] <= value <= DIFFICULTY[1]:
        raise RuleViolation(f"a difficulty is a whole number from -4 to +4, not {value!r}", ruling="PU-2")
    return value


def cut_value(value: object) -> int:
    """PU-7: a cut at k moves the top k cards (1 to 13) under the rest."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= len(DECK) - 1:
        raise RuleViolation(f"a cut is a whole number from 1 to 13, not {value!r}", ruling="PU-7")
    return value


def advantage(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not ADVANTAGE[0] <= value <= ADVANTAGE[1]:
        raise RuleViolation(f"an initiative advantage is 0 or 1 to 4, not {value!r}", ruling="PU-9")
    return value


def cut(deck: Sequence[str], k: int) -> list[str]:
    """PU-7: the top ``k`` cards go under the rest."""
    return [*deck[k:], *deck[:k]]


def judge(cards: Sequence[str], diff: int) -> dict[str, Any]:
    """PU-2, PU-3, PU-8: the raw degree is black minus red; success when raw minus difficulty is above 0;
    +5 or more is a critical (always a success), -5 or less a fumble (always a failure)."""
    black = sum(points(c) for c in cards if is_black(c))
    red = sum(points(c) for c in cards if is_red(c))
    raw = black - red
    critical, fumble = raw >= CRITICAL, raw <= FUMBLE
    success = critical or (not fumble and raw - diff > 0)
    return {"black": black, "red": red, "degree": raw, "net": raw - diff, "success": success,
            "critical": critical, "fumble": fumble}


def outcome_words(kind: str, result: Mapping[str, Any]) -> str:
    """The result from the character's side (PU-4, PU-8)."""
    grade = " (critical)" if result["critical"] else " (fumble)" if result["fumble"] else ""
    if kind == "resistance":
        return ("the action on the character succeeds: the character does not resist" if result["success"]
                else "the action on the character fails: the character resists") + grade
    return ("success" if result["success"] else "failure") + grade


def verify_hand(cards: Sequence[str]) -> None:
    """C-3: a hand entered at the table is 7 distinct cards of this deck."""
    if len(cards) != HAND:
        raise RuleViolation(f"a deal is {HAND} cards, not {len(cards)}", ruling="C-3")


def deal_initiative(names: Sequence[str], advantages: Mapping[str, int], deck: Sequence[str]) -> dict[str, Any]:
    """PU-5, PU-9: two cards each, round-robin, from the top; totals plus advantage, highest first; each tied
    group (highest first, keeping its place) is dealt one card more each, compared with the same advantage
    among the tied alone, until settled; a group with fewer cards left than members goes by name.

    Returns ``order`` (names), ``dealt`` ([name, card, round]), ``totals`` and ``used`` (cards taken)."""
    if len(deck) < 2 * len(names):
        raise RuleViolation(f"initiative deals {2 * len(names)} cards: enter every card as dealt", ruling="C-3")
    top = 0
    dealt: list[list[Any]] = []
    totals = {n: advantages.get(n, 0) for n in names}
    for rnd in range(2):
        for name in names:
            dealt.append([name, deck[top], rnd])
            totals[name] += points(deck[top])
            top += 1
    by_name: list[list[str]] = []

    def settle(group: list[str], scores: Mapping[str, int], rnd: int) -> list[str]:
        nonlocal top
        out: list[str] = []
        for value in sorted({scores[n] for n in group}, reverse=True):
            tied = [n for n in group if scores[n] == value]
            if len(tied) == 1:
                out += tied
                continue
            if len(DECK) - top < len(tied):
                ordered = sorted(tied, key=lambda n: (n.casefold(), n))
                by_name.append(ordered)
                out += ordered
                continue
            if top + len(tied) > len(deck):
                raise RuleViolation(f"the tie needs {top + len(tied)} cards: enter every card as dealt", ruling="C-3")
            again: dict[str, int] = {}
            for name in tied:
                dealt.append([name, deck[top], rnd])
                again[name] = points(deck[top]) + advantages.get(name, 0)
                top += 1
            out += settle(tied, again, rnd + 1)
        return out

    order = settle(list(names), totals, 2)
    return {"order": order, "dealt": dealt, "totals": totals, "used": top, "by_name": by_name}
