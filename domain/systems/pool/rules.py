"""Plain Pool rules: costs, reading a roll, and what a roll costs the pools (PL-1 … PL-7)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from domain.errors import RuleViolation
from domain.text import clean_text

TRAIT_COST = {1: 2, 2: 5, 3: 10}  # PL-1, PL-5
MOVE_COSTS = (2, 5, 10)  # PL-6
FLOOR = 2  # PL-1, PL-3, PL-5, PL-7: a pool never goes below two dice
MAX_WORDS = 50  # PL-1
MODES = ("tiers", "highest")  # PL-8
_WORD = re.compile(r"[\w'-]+")


def pool_settings(raw: Mapping[str, Any]) -> dict[str, Any]:
    """Campaign settings: ``starting_pool`` (PL-1, default 12), ``opposed_mode`` (PL-8), ``table_dice`` (C-3)."""
    unknown = set(raw) - {"starting_pool", "opposed_mode", "table_dice"}
    if unknown:
        raise RuleViolation(f"unknown Pool settings: {', '.join(sorted(unknown))}", ruling="C-1")
    pool = raw.get("starting_pool", 12)
    if isinstance(pool, bool) or not isinstance(pool, int) or not FLOOR <= pool <= 1000:
        raise RuleViolation("the starting pool is a whole number of dice from 2 to 1000", ruling="PL-1")
    mode = raw.get("opposed_mode") or "tiers"
    if mode not in MODES:
        raise RuleViolation(f"opposed rolls use 'tiers' or 'highest', not {mode!r}", ruling="PL-8")
    table = raw.get("table_dice", False)
    if not isinstance(table, bool):
        raise RuleViolation("table_dice is true or false", ruling="C-3")
    return {"starting_pool": pool, "opposed_mode": mode, "table_dice": table}


def words(text: str) -> list[str]:
    return [w.casefold() for w in _WORD.findall(text)]


def description(text: str) -> str:
    """At most 50 words (PL-1)."""
    cleaned = clean_text(text, "a description", max_length=1000, ruling="PL-1")
    count = len(words(cleaned))
    if count > MAX_WORDS:
        raise RuleViolation(f"a description has at most {MAX_WORDS} words; this one has {count}", ruling="PL-1")
    return cleaned


def trait_name(name: str, described: str) -> str:
    """A trait is named after words of the description (PL-1)."""
    cleaned = clean_text(name, "a trait's name", max_length=60, ruling="PL-1", name=True)
    known = set(words(described))
    missing = [w for w in words(cleaned) if w not in known]
    if not words(cleaned) or missing:
        raise RuleViolation(f"a trait is named after words of the description; {', '.join(missing) or cleaned!r} "
                            "is not in it", ruling="PL-1")
    return cleaned


def rating(value: object, ruling: str = "PL-1") -> int:
    if isinstance(value, bool) or value not in TRAIT_COST:
        raise RuleViolation(f"a trait is rated +1, +2 or +3, not {value!r}", ruling=ruling)
    return value  # type: ignore[return-value]


def creation_cost(traits: Mapping[str, int]) -> int:
    return sum(TRAIT_COST[r] for r in traits.values())


def step_cost(new_rating: int, others: Iterable[int]) -> int:
    """PL-5: the creation cost of the new rating plus that rating for each other trait already at it."""
    return TRAIT_COST[new_rating] + new_rating * sum(1 for r in others if r == new_rating)


def read(dice: Sequence[int], trait: int) -> tuple[int, str]:
    """PL-2: the two highest dice plus the trait; 10+ full success, 7-9 mixed, 6 or less a miss."""
    total = sum(sorted(dice)[-2:]) + trait
    return total, "full" if total >= 10 else "mixed" if total >= 7 else "miss"


def losses(dice: Sequence[int]) -> int:
    """PL-3: every 5 or 6 is lost."""
    return sum(1 for d in dice if d >= 5)


def charge(lost: int, own_pool: int, helper_dice: int) -> tuple[int, int]:
    """PL-3, PL-7: lost dice come out of the helper's dice first, then the roller's, never below two.

    Returns (lost by the roller, lost by the helper).
    """
    by_helper = min(lost, helper_dice)
    by_roller = min(lost - by_helper, own_pool - FLOOR)
    return max(by_roller, 0), by_helper
