"""Plain Penny Ante rules shared by its aggregates."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from domain.errors import RuleViolation
from domain.systems.penny_ante.currency import whole_pennies
from domain.text import clean_text

MINIMUM_PILE = 25  # PA-1
CHARACTERISTIC_COST = 5  # PA-2
MAX_NAME = 60


def penny_ante_settings(raw: Mapping[str, Any]) -> dict[str, Any]:
    """Campaign settings: ``starting_pile`` (PA-1), ``antagonist_cap`` (PA-4), ``table_dice`` (C-3)."""
    unknown = set(raw) - {"starting_pile", "antagonist_cap", "table_dice"}
    if unknown:
        raise RuleViolation(f"unknown Penny Ante settings: {', '.join(sorted(unknown))}", ruling="C-1")
    pile = raw.get("starting_pile")
    pile = MINIMUM_PILE if pile is None else pile
    whole_pennies(pile, "the starting pile", minimum=MINIMUM_PILE, ruling="PA-1")
    cap = raw.get("antagonist_cap")
    if cap is not None:
        whole_pennies(cap, "the cap per antagonist", minimum=1, ruling="PA-4")
    table = raw.get("table_dice", False)
    if not isinstance(table, bool):
        raise RuleViolation("table_dice is true or false", ruling="C-3")
    return {"starting_pile": pile, "antagonist_cap": cap, "table_dice": table}


def characteristic_name(name: str, ruling: str = "PA-2") -> str:
    """A characteristic's (or antagonist's) name: printable, 1 to 60 characters."""
    return clean_text(name, "a name", max_length=MAX_NAME, ruling=ruling, name=True)


def require_new_name(name: str, existing: Iterable[str], owner: str, ruling: str = "PA-2") -> None:
    """Names are unique per owner, case-insensitively (PA-2)."""
    if name.casefold() in {e.casefold() for e in existing}:  # names are NFKC-normalised by clean_text
        raise RuleViolation(f"{owner} already has the characteristic {name!r}", ruling=ruling)
