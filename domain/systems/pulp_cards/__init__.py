"""Pulp in the Cards: a 14-card deck, black against red (RULES.md PU-1 … PU-9)."""
