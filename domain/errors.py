"""Domain errors. Every refusal names the ruling of RULES.md it enforces."""

from __future__ import annotations

from typing import Any


class StakesError(Exception):
    """Base class of every error the domain raises on purpose."""

    ruling: str = ""

    def __init__(self, message: str, *, ruling: str = "") -> None:
        self.ruling = ruling or type(self).ruling
        self.message = message
        super().__init__(f"{self.ruling}: {message}" if self.ruling else message)


class RuleViolation(StakesError):
    """The command breaks a numbered ruling; nothing is stored."""


class NotPermitted(StakesError):
    """The acting seat may not do this (a player acts only for himself, C-1)."""

    ruling = "C-1"


class NotFound(StakesError):
    """The campaign, seat, loan or antagonist does not exist."""


class NotSupportedYet(RuleViolation):
    """The rule system is known but its issue has not landed yet."""

    ruling = "C-1"


class StaleState(Exception):
    """Two aggregates read for one command disagree because another command ran in between; retry."""


class ConcurrencyConflict(StakesError):
    """Another command changed the same aggregate first, and retrying did not help."""


class KeyReused(ConcurrencyConflict):
    """An idempotency key sent again with another command: a retry can never succeed; a new key is needed."""


def passes(check: Any, *args: Any, **kwargs: Any) -> bool:
    """Whether ``check`` refuses nothing: every system lists its legal actions from the very checks that
    refuse moves (a listed move is accepted; a refused one is not listed)."""
    try:
        check(*args, **kwargs)
    except StakesError:
        return False
    return True
