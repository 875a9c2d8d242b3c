"""Provably fair results (C-4) addressed by logical slot (C-7).

The service commits to a secret seed by publishing ``commitment(seed)``. Each
side may add seed text of its own. Every result is derived from the secret, the
side seeds and the *slot* it fills (for example ``("roll", "challenger", 3)``),
never from a running counter, so replaying a slot after a rewind yields the same
result. Integers are drawn by rejection sampling, so there is no modulo bias.

The secret itself is drawn by ``adapters.randomness``; this module only derives.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Sequence


def commitment(secret: str) -> str:
    """The SHA-256 of the secret seed, published when a challenge opens (C-4)."""
    return hashlib.sha256(secret.encode()).hexdigest()


def _stream(secret: str, side_seeds: Sequence[str], slot: Sequence[object]):
    key = secret.encode()
    base = json.dumps([list(side_seeds), [str(part) for part in slot]], separators=(",", ":"))
    counter = 0
    while True:
        digest = hmac.new(key, f"{base}#{counter}".encode(), hashlib.sha256).digest()
        for i in range(0, len(digest), 4):
            yield int.from_bytes(digest[i : i + 4], "big")
        counter += 1


def derive_int(secret: str, side_seeds: Sequence[str], slot: Sequence[object], upper: int) -> int:
    """A uniform integer in ``[0, upper)`` for this slot, without modulo bias."""
    if upper < 1:
        raise ValueError("upper must be at least 1")
    span = 2**32
    limit = span - (span % upper)
    for word in _stream(secret, side_seeds, slot):
        if word < limit:
            return word % upper
    raise AssertionError("unreachable")  # pragma: no cover


def derive_die(secret: str, side_seeds: Sequence[str], slot: Sequence[object], faces: int = 6) -> int:
    """One die showing 1..faces for this slot."""
    return derive_int(secret, side_seeds, slot, faces) + 1


def derive_shuffle(
    secret: str, side_seeds: Sequence[str], slot: Sequence[object], cards: Sequence[str]
) -> list[str]:
    """A Fisher-Yates shuffle of ``cards`` in which each swap has its own sub-slot."""
    order = list(cards)
    for i in range(len(order) - 1, 0, -1):
        j = derive_int(secret, side_seeds, [*slot, "swap", i], i + 1)
        order[i], order[j] = order[j], order[i]
    return order
