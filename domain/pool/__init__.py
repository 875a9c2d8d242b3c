"""The Pool, Powered by the Apocalypse: dice pools and traits (RULES.md PL-1 … PL-8)."""
