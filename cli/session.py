"""Which store or server a command talks to, as which seat, in which campaign; and exit codes.

Embedded (no server configured): the local store from ``STAKES_*`` settings, the
seat picked with ``--as`` (default: the House). Against a server (``--server``,
``STAKES_SERVER`` or ``stakes login``): the token picks the seat and campaign.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any
from uuid import UUID

import psycopg
import typer
from eventsourcing.persistence import PersistenceError

from adapters.service import Stakes, StoreUnavailable
from cli import config
from cli.output import err
from cli.remote import RemoteStakes, Unauthenticated, Unreachable
from domain.errors import ConcurrencyConflict, NotFound, NotPermitted, RuleViolation, StakesError
from domain.seats import Seat

#: Exit codes, most specific first: one place maps every error to one.
EXIT_CODES: tuple[tuple[type[StakesError], int], ...] = (
    (RuleViolation, 3),
    (NotPermitted, 4),
    (NotFound, 5),
    (ConcurrencyConflict, 6),
    (Unauthenticated, 7),
    (Unreachable, 8),
    (StakesError, 2),
)


class UsageError(StakesError):
    """The command line itself is incomplete or contradictory."""


def exit_code(error: StakesError) -> int:
    return next(code for cls, code in EXIT_CODES if isinstance(error, cls))


STORE_DOWN = 9


@contextmanager
def reported() -> Iterator[None]:
    """Turn every refusal into a message on stderr and a non-zero exit, never a traceback."""
    try:
        yield
    except StakesError as error:
        err.print(f"[bold red]error:[/] {error}", highlight=False)
        raise typer.Exit(exit_code(error)) from None
    except BrokenPipeError:  # the reader went away (| head): nothing is wrong with the store
        raise typer.Exit(0) from None
    except (PersistenceError, StoreUnavailable, OSError, sqlite3.Error, psycopg.Error) as error:
        first = str(error).splitlines()[0] if str(error) else type(error).__name__
        err.print(f"[bold red]error:[/] the store is unavailable: {first}", highlight=False)
        raise typer.Exit(STORE_DOWN) from None


@dataclass
class Target:
    backend: Any  # Stakes or RemoteStakes: the same methods
    seat: Seat
    campaign: UUID | None
    remote: bool

    def campaign_id(self) -> UUID:
        if self.campaign is None:
            raise UsageError("no campaign chosen: create one, pass --campaign ID, or run 'stakes campaign use ID'")
        return self.campaign


@dataclass
class Options:
    """The options every command shares (set on the ``stakes`` callback or per command)."""

    server: str | None = None
    token: str | None = None


GLOBAL = Options()


def _uuid(text: str) -> UUID:
    try:
        return UUID(text)
    except ValueError:
        raise UsageError(f"{text!r} is not a campaign id") from None


def open_target(seat: str | None, campaign: str | None) -> Target:
    saved = config.load()
    server = GLOBAL.server or saved.server
    if server:
        token = GLOBAL.token or saved.token
        remote = RemoteStakes(server, token)
        if seat:
            raise UsageError("--as is for embedded use; against a server the token picks the seat")
        if not token:
            return Target(remote, Seat.house(), _uuid(campaign) if campaign else None, remote=True)
        session = remote.session()
        if campaign and _uuid(campaign) != session.campaign_id:
            raise UsageError("this token holds a seat in another campaign than --campaign")
        return Target(remote, Seat(session.seat), session.campaign_id, remote=True)
    chosen = campaign or saved.campaign
    return Target(Stakes(), Seat.parse(seat or "house"), _uuid(chosen) if chosen else None, remote=False)


def run(seat: str | None, campaign: str | None, action: Callable[[Target], Any]) -> Any:
    with reported():
        target = open_target(seat, campaign)
        try:
            return action(target)
        finally:
            target.backend.close()
