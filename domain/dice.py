"""Dice entered by hand at the table (C-3); fair dice come from ``domain.fairness``."""

from __future__ import annotations

from collections.abc import Iterable

from domain.errors import RuleViolation


def verify_entered_dice(values: Iterable[object], *, count: int, faces: int = 6) -> list[int]:
    """Validate dice entered from physical dice: the right count, each 1..faces (C-3)."""
    dice = list(values)
    if len(dice) != count:
        raise RuleViolation(f"expected {count} dice, got {len(dice)}", ruling="C-3")
    for die in dice:
        if isinstance(die, bool) or not isinstance(die, int) or not 1 <= die <= faces:
            raise RuleViolation(f"a d{faces} shows 1 to {faces}, not {die!r}", ruling="C-3")
    return dice  # type: ignore[return-value]
