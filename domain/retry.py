"""Optimistic concurrency: run a command again from fresh state when a concurrent save wins."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

from eventsourcing.persistence import IntegrityError

from domain.errors import ConcurrencyConflict, StaleState

T = TypeVar("T")
RETRIES = 5


def retry_conflicts(run: Callable[[], T]) -> T:
    for _ in range(RETRIES):
        try:
            return run()
        except (IntegrityError, StaleState):
            continue
    raise ConcurrencyConflict("another command changed the same records; try again")


def retried(method: Callable[..., T]) -> Callable[..., T]:
    @functools.wraps(method)
    def wrapper(*args: Any, **kwargs: Any) -> T:
        return retry_conflicts(lambda: method(*args, **kwargs))

    return wrapper
