"""Cards of Twenty-one: reading a card typed at the table, its value (TO-4, TO-10), its rank for the order
of play (TO-3) and what a stand is worth against the targets (TO-4 … TO-6)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from domain.errors import RuleViolation

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = ("S", "H", "D", "C")
#: Twenty-one plays with one ordinary 52-card deck (TO-1), in this fixed order: the input of every shuffle.
DECK: tuple[str, ...] = tuple(f"{rank}{suit}" for suit in SUITS for rank in RANKS)
SYMBOLS = {"♠": "S", "♤": "S", "♥": "H", "♡": "H", "♦": "D", "♢": "D", "♣": "C", "♧": "C"}
PRETTY = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
MIXED, FULL = 15, 17  # TO-4: the targets before modifiers


def card(text: object, ruling: str = "C-3") -> str:
    """A card as typed (``KH``, ``k♥``, ``10h``, ``Th``), as its code (``KH``); a refusal for anything else."""
    if not isinstance(text, str):
        raise RuleViolation(f"a card is written like KH or 10♥, not {text!r}", ruling=ruling)
    raw = "".join(SYMBOLS.get(ch, ch) for ch in text.strip()).upper()
    rank, suit = raw[:-1], raw[-1:]
    rank = "10" if rank == "T" else rank
    code = f"{rank}{suit}"
    if code not in DECK:
        raise RuleViolation(f"{text[:12]!r} is not a card of a 52-card deck (write KH, 10♥, 2S …)", ruling=ruling)
    return code


def cards(texts: Iterable[object], ruling: str = "C-3") -> list[str]:
    found = [card(t, ruling) for t in texts]
    if len(set(found)) != len(found):
        raise RuleViolation("a card is named twice", ruling=ruling)
    return found


def pretty(code: str, plain: bool = False) -> str:
    """``AS`` -> ``A♠`` (or ``AS`` as plain text)."""
    return code if plain else f"{code[:-1]}{PRETTY[code[-1]]}"


def rank_of(code: str) -> str:
    return code[:-1]


def order_rank(code: str) -> int:
    """TO-3: A high, then K, Q, J, 10 down to 2; suits do not count."""
    return RANKS.index(rank_of(code))


def value(code: str) -> int:
    """TO-4: number cards their number, J/Q/K ten, an ace one (its eleven is decided by ``total``)."""
    rank = rank_of(code)
    return 1 if rank == "A" else 10 if rank in ("J", "Q", "K") else int(rank)


def total(laid: Sequence[str]) -> int:
    """TO-4, TO-10: one ace counts 11 while that keeps the total at 21 or less; every other ace counts 1."""
    hard = sum(value(c) for c in laid)
    return hard + 10 if any(rank_of(c) == "A" for c in laid) and hard + 10 <= 21 else hard


def targets(modifiers: Sequence[int]) -> dict[str, int]:
    """TO-6: each -1 lowers both targets, each +1 raises both (two -1: mixed 13, full 15); no bounds (TO-12)."""
    shift = sum(modifiers)
    return {"mixed": MIXED + shift, "full": FULL + shift}


def outcome(points: int, aims: dict[str, int]) -> str:
    """TO-4: standing at the full target succeeds fully, at the mixed target mixed, below it fails."""
    if points > 21:
        return "fail"
    return "full" if points >= aims["full"] else "mixed" if points >= aims["mixed"] else "fail"


def natural(laid: Sequence[str]) -> bool:
    """TO-5, TO-11: the two cards laid first make 21."""
    return len(laid) == 2 and total(laid) == 21


def play_order(laid: dict[str, str], seats: Sequence[str]) -> tuple[list[str], list[list[str]]]:
    """TO-3, TO-15: the actors who did not tie, highest card first, and the tied groups, highest first
    (each group in seat order)."""
    groups: dict[int, list[str]] = {}
    for seat in seats:
        if seat in laid:
            groups.setdefault(order_rank(laid[seat]), []).append(seat)
    ranked = sorted(groups.items(), key=lambda item: -item[0])
    return [g[0] for _, g in ranked if len(g) == 1], [g for _, g in ranked if len(g) > 1]
