"""Errors of the CLI's own making (a server that does not answer, does not know the token, or shows a log
that does not extend a head this CLI kept)."""

from __future__ import annotations

from domain.errors import StakesError


class Unauthenticated(StakesError):
    """No token, or one the server does not know."""


class Unreachable(StakesError):
    """The server did not answer."""


class Tampered(StakesError):
    """The server's log does not extend a signed head this CLI kept (C-2): exit code 10 (``cli/witness.py``)."""
