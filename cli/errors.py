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


class Forked(StakesError):
    """Two signed heads of one campaign that no consistency proof joins: the server showed two histories (C-2):
    exit code 11 (``stakes audit compare``, ``cli/witness.py``)."""

    ruling = "C-2"


class BadHead(StakesError):
    """A head given to compare that is not a checkpoint of this campaign signed by the server's pinned key."""

    ruling = "C-2"
