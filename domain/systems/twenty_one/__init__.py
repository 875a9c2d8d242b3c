"""Twenty-one: conflicts resolved with one 52-card deck, targets 15/17, bust over 21 (RULES.md TO-1 … TO-15)."""
