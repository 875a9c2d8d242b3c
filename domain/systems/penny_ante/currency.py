"""Whole pennies (PA-1)."""

from __future__ import annotations

from domain.bounds import MAXIMUM
from domain.errors import RuleViolation

__all__ = ["MAXIMUM", "whole_pennies"]


def whole_pennies(value: object, what: str, *, minimum: int = 0, ruling: str = "PA-1") -> int:
    """Return ``value`` as an int of ``minimum`` to ``MAXIMUM`` pennies, or refuse."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleViolation(f"{what} must be a whole number of pennies", ruling=ruling)
    if value < minimum:
        raise RuleViolation(f"{what} must be at least {minimum} pennies, not {value}", ruling=ruling)
    if value > MAXIMUM:
        raise RuleViolation(f"{what} must be at most {MAXIMUM:,} pennies", ruling=ruling)
    return value
