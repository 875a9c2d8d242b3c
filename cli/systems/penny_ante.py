"""Penny Ante on the command line: a side is written ``ilse``, ``ilse+tomas`` (an alliance, its declarer
first) or ``house:Lady Sen`` (an antagonist) (PA-5, PA-18)."""

from __future__ import annotations

from typing import Any


def side(text: str) -> dict[str, Any]:
    if text.lower().startswith("house:"):
        return {"antagonist": text.split(":", 1)[1].strip()}
    return {"players": [p.strip() for p in text.split("+") if p.strip()]}


PARSERS = {"side": (str, side)}
