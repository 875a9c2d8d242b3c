"""Seats: the House (the GM) and one seat per player (C-1)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from domain.errors import RuleViolation

HOUSE = "house"
_HANDLE = re.compile(r"^[a-z][a-z0-9_-]{0,31}$")


def player_handle(name: str) -> str:
    """Normalise and validate a player's seat name (lower case, 1-32 chars)."""
    handle = (name or "").strip().lower()
    if handle == HOUSE:
        raise RuleViolation("'house' is the House seat; a player needs another name", ruling="C-1")
    if not _HANDLE.match(handle):
        raise RuleViolation(
            "a player's seat name is 1 to 32 letters, digits, '-' or '_', starting with a letter",
            ruling="C-1",
        )
    return handle


@dataclass(frozen=True)
class Seat:
    """Who is acting: ``house`` or a player's handle."""

    name: str

    @classmethod
    def house(cls) -> Seat:
        return cls(HOUSE)

    @classmethod
    def parse(cls, name: str) -> Seat:
        name = (name or "").strip().lower()
        return cls(HOUSE) if name == HOUSE else cls(player_handle(name))

    @property
    def is_house(self) -> bool:
        return self.name == HOUSE

    def __str__(self) -> str:
        return self.name
