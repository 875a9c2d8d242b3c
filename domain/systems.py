"""The five rule systems a campaign may use (RULES.md), and their settings.

The boundary between the shared service and a rule system: the shared part
(campaign, seats, adventures, the log) knows a system only through its entry
here. A system's own package (``domain/penny_ante`` …) holds its aggregates,
and the application asks the entry whether the system is playable yet.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from domain.errors import NotSupportedYet, RuleViolation
from domain.penny_ante.rules import penny_ante_settings
from domain.pool.rules import pool_settings


@dataclass(frozen=True)
class RuleSystem:
    id: str
    name: str
    #: Validates and completes a campaign's settings; ``None`` until the system lands.
    settings: Callable[[Mapping[str, Any]], dict[str, Any]] | None = None
    #: Whether the system keeps a House budget and a debt register (Penny Ante's economy).
    economy: bool = False

    @property
    def supported(self) -> bool:
        return self.settings is not None


SYSTEMS: dict[str, RuleSystem] = {
    s.id: s
    for s in (
        RuleSystem("penny-ante", "Penny Ante", penny_ante_settings, economy=True),
        RuleSystem("pool", "The Pool, Powered by the Apocalypse", pool_settings),
        RuleSystem("twenty-one", "Twenty-one"),
        RuleSystem("beast", "Humanity and Beast"),
        RuleSystem("pulp-cards", "Pulp in the Cards"),
    )
}


def rule_system(system_id: str) -> RuleSystem:
    """The playable system named ``system_id``, or a refusal naming why (C-1)."""
    system = SYSTEMS.get(system_id)
    if system is None:
        known = ", ".join(SYSTEMS)
        raise RuleViolation(f"unknown rule system {system_id!r}; known systems: {known}", ruling="C-1")
    if not system.supported:
        raise NotSupportedYet(f"the rule system {system_id!r} ({system.name}) is not supported yet")
    return system
