"""The Pool, Powered by the Apocalypse: dice pools and traits (RULES.md PL-1 … PL-9)."""

import sys

from eventsourcing.utils import register_topic

# Topics stored before the systems moved into domain/systems/ (ADR 0009).
register_topic("domain.pool", sys.modules[__name__])
