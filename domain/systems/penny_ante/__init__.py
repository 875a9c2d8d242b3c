"""Penny Ante: poker betting over Yahtzee dice (RULES.md PA-1 … PA-24)."""

import sys

from eventsourcing.utils import register_topic

# Stored events and snapshots name their classes by topic; campaigns stored before the systems moved
# into domain/systems/ name this package by its old path (ADR 0009).
register_topic("domain.penny_ante", sys.modules[__name__])
