"""Which store or server a command talks to, as which seat, in which campaign; and exit codes.

Embedded (no server configured): the local store from ``STAKES_*`` settings, the
seat picked with ``--as`` (default: the House). Against a server (``--server``,
``STAKES_SERVER`` or ``stakes login``): the token picks the seat and campaign.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any
from uuid import UUID

import typer

from cli import config
from cli.errors import Forked, Tampered, Unauthenticated, Unreachable
from cli.options import Format
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
    (Tampered, 10),
    (Forked, 11),
    (StakesError, 2),
)


class UsageError(StakesError):
    """The command line itself is incomplete or contradictory."""


def exit_code(error: StakesError) -> int:
    return next(code for cls, code in EXIT_CODES if isinstance(error, cls))


STORE_DOWN = 9
#: A command line click itself refuses (a missing option, an unknown command): click's own code.
USAGE = 2
#: The store's own errors, by module and class: only looked for once the store is loaded (a command
#: against a server never loads it, so it cannot raise them).
STORE_ERRORS = (("eventsourcing.persistence", "PersistenceError"), ("adapters.service", "StoreUnavailable"),
                ("sqlite3", "Error"), ("psycopg", "Error"))


def _store_errors() -> tuple[type[BaseException], ...]:
    loaded = (getattr(sys.modules[m], name, None) for m, name in STORE_ERRORS if m in sys.modules)
    return (OSError, *(cls for cls in loaded if isinstance(cls, type)))


def fail(message: str, code: int, fmt: Format = Format.table, ruling: str = "", kind: str = "error") -> typer.Exit:
    """Say what went wrong on stderr (as JSON under ``--format json``) and give the exit code to raise."""
    if fmt is Format.json:
        import json

        problem = {"error": kind, "message": message, "exit_code": code}
        if ruling:
            problem["ruling"] = ruling
        print(json.dumps(problem), file=sys.stderr)
    else:
        from rich.text import Text

        from cli.inert import neutralise
        from cli.output import err

        # The message may quote what a seat typed (a name the server refused): shown inert (cli/inert.py).
        err.print(Text.assemble(("error: ", "bold red"), neutralise(message, lines=True)), highlight=False)
    return typer.Exit(code)


@contextmanager
def reported(fmt: Format = Format.table) -> Iterator[None]:
    """Turn every refusal into a message on stderr and a non-zero exit, never a traceback: the one place
    errors become exit codes."""
    try:
        yield
    except typer.Exit:
        raise
    except StakesError as error:
        kind = type(error).__name__
        message = error.message if fmt is Format.json else str(error)
        raise fail(message, exit_code(error), fmt, error.ruling, kind) from None
    except BrokenPipeError:  # the reader went away (| head): nothing is wrong with the store
        raise typer.Exit(0) from None
    except Exception as error:
        if not isinstance(error, _store_errors()):
            raise
        first = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise fail(f"the store is unavailable: {first}", STORE_DOWN, fmt, kind="StoreUnavailable") from None


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

    def names(self) -> dict[str, str]:
        """Seat -> the name the table knows it by: its character's, or "the House" (names, not handles), as the
        web page names them; one read of the campaign, which every seat may read."""
        from cli.inert import inert

        names: dict[str, str] = inert(self.backend.campaign(self.campaign_id(), self.seat).names())  # as typed (cli/inert.py)
        return names


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


def _session(remote: Any, saved: Any, server: str, token: str) -> tuple[UUID, str]:
    """The campaign and seat a token holds: asked of the server once, then remembered (a token never moves)."""
    import hashlib

    slot = hashlib.sha256(f"{server.rstrip('/')}\n{token}".encode()).hexdigest()[:32]
    known = saved.sessions.get(slot, "").split(" ", 1)
    if len(known) == 2:
        try:
            return UUID(known[0]), known[1]
        except ValueError:
            pass
    session = remote.session()
    fresh = config.load()
    config.update(sessions={**fresh.sessions, slot: f"{session.campaign_id} {session.seat}"})
    if session.system:  # the system comes with the session: no command asks for it (issue 30)
        config.remember_system(session.campaign_id.hex, session.system)
    return session.campaign_id, session.seat


def open_target(seat: str | None, campaign: str | None) -> Target:
    saved = config.load()
    server = GLOBAL.server or saved.server
    if server:
        from cli.remote import RemoteStakes

        token = GLOBAL.token or saved.token
        remote = RemoteStakes(server, token)
        if seat:
            raise UsageError("--as is for embedded use; against a server the token picks the seat")
        if not token:
            return Target(remote, Seat.house(), _uuid(campaign) if campaign else None, remote=True)
        held, seat = _session(remote, saved, server, token)
        if campaign and _uuid(campaign) != held:
            raise UsageError("this token holds a seat in another campaign than --campaign")
        return Target(remote, Seat(seat), held, remote=True)
    from adapters.service import Stakes

    chosen = campaign or saved.campaign
    return Target(Stakes(), Seat.parse(seat or "house"), _uuid(chosen) if chosen else None, remote=False)


def _served(settings: Any) -> tuple[str, int] | None:
    """The address a running ``stakes serve`` noted for this store (``Settings.served_path``), if it still runs."""
    import json

    try:
        noted = json.loads(settings.served_path.read_text())
        host, port, pid = str(noted["host"]), int(noted["port"]), int(noted["pid"])
        os.kill(pid, 0)  # still running (a note left by a server that was killed is stale)
    except PermissionError:  # running, as another user
        pass
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return host, port


def served_at(target: Target) -> tuple[str, bool]:
    """The address players' browsers open, and whether it is only this machine's own (an embedded store's
    ``stakes serve`` listening on 127.0.0.1, which no phone reaches)."""
    if target.remote:
        http = getattr(target.backend, "http", None)
        return (str(http.base_url).rstrip("/"), False) if http is not None else ("", False)
    settings = getattr(target.backend, "settings", None)
    host, port = (settings.host, settings.port) if settings is not None else ("127.0.0.1", 8000)
    running = _served(settings) if settings is not None else None
    if running is not None:  # ``stakes serve`` serves this store now, perhaps on another port than the settings'
        host, port = running
    local = host in ("127.0.0.1", "localhost", "::1")
    return f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host}:{port}", local or host in ("0.0.0.0", "::")


def run(seat: str | None, campaign: str | None, action: Callable[[Target], Any], fmt: Format = Format.table,
        *, check_head: bool = True) -> Any:
    """Run ``action`` on the target; against a server, then check the log still extends the held head and keep
    the new one, unless ``check_head`` is off (the commands that show or compare the held head leave it be)."""
    with reported(fmt):
        target = open_target(seat, campaign)
        from cli import tables

        # who a table waits for is said by name: read once, the first time a drawing needs it (names, not handles)
        named = tables.NAMES_OF.set(target.names if target.campaign is not None else None)
        served = tables.SERVED_AT.set(served_at(target))
        acting = tables.ACTING_AS.set(None if target.remote or target.seat.is_house else target.seat.name)
        try:
            result = action(target)
            if check_head and target.remote and target.campaign is not None:
                from cli import witness

                witness.check(target.backend, target.campaign)  # C-2: the log still extends the head kept
            return result
        finally:
            tables.NAMES_OF.reset(named)
            tables.SERVED_AT.reset(served)
            tables.ACTING_AS.reset(acting)
            target.backend.close()
