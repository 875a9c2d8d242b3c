"""Names and notes typed by people: trimmed, single-spaced, printable, bounded."""

from __future__ import annotations

import unicodedata

from domain.errors import RuleViolation


def scripts(word: str) -> set[str]:
    """The scripts the letters of a word are written in (LATIN, CYRILLIC, GREEK …)."""
    return {unicodedata.name(ch, "UNKNOWN").split()[0] for ch in word if ch.isalpha()}


def clean_text(value: object, what: str, *, max_length: int, ruling: str, required: bool = True,
               name: bool = False) -> str:
    """Collapse whitespace and refuse control characters, empty text (when required) and overlong text.

    A ``name`` (of a character, a characteristic, an antagonist …) is also refused when one of its words
    mixes scripts, such as a Cyrillic ``а`` inside a Latin word: it would sit beside a lookalike name."""
    text = " ".join(unicodedata.normalize("NFKC", value).split()) if isinstance(value, str) else ""
    if not isinstance(value, str) or any(not ch.isprintable() for ch in text):
        raise RuleViolation(f"{what} must be printable text", ruling=ruling)
    if required and not text:
        raise RuleViolation(f"{what} must not be empty", ruling=ruling)
    if len(text) > max_length:
        raise RuleViolation(f"{what} is at most {max_length} characters", ruling=ruling)
    if name:
        for word in text.split():
            found = scripts(word)
            if len(found) > 1:
                mixed = " and ".join(sorted(s.title() for s in found))
                raise RuleViolation(f"{what} mixes {mixed} letters in {word!r}: write it in one script, so it "
                                    "cannot pass for another name", ruling=ruling)
    return text
