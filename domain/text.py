"""Names and notes typed by people: trimmed, single-spaced, printable, bounded."""

from __future__ import annotations

import unicodedata

from domain.errors import RuleViolation


def clean_text(value: object, what: str, *, max_length: int, ruling: str, required: bool = True) -> str:
    """Collapse whitespace and refuse control characters, empty text (when required) and overlong text."""
    text = " ".join(unicodedata.normalize("NFKC", value).split()) if isinstance(value, str) else ""
    if not isinstance(value, str) or any(not ch.isprintable() for ch in text):
        raise RuleViolation(f"{what} must be printable text", ruling=ruling)
    if required and not text:
        raise RuleViolation(f"{what} must not be empty", ruling=ruling)
    if len(text) > max_length:
        raise RuleViolation(f"{what} is at most {max_length} characters", ruling=ruling)
    return text
