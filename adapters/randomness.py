"""The one source of randomness: bearer tokens and secret seeds (C-4).

Randomness is drawn here, before a command, and whatever a rule needs is
recorded in the event; aggregates never draw.
"""

from __future__ import annotations

import secrets


def new_token() -> str:
    """A bearer token for a seat: 256 bits, URL-safe."""
    return "stk_" + secrets.token_urlsafe(32)


def new_session() -> str:
    """A web session id (the sign-in cookie, issue 29): 256 bits, URL-safe."""
    return "ses_" + secrets.token_urlsafe(32)


def new_invite() -> str:
    """A one-time invite code for a seat: 128 bits, URL-safe."""
    return "inv_" + secrets.token_urlsafe(16)


def new_secret_seed() -> str:
    """A secret seed for a challenge's provably fair results (C-4)."""
    return secrets.token_hex(32)
