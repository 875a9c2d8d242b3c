"""Penny Ante: poker betting over Yahtzee dice (RULES.md PA-1 … PA-19)."""
