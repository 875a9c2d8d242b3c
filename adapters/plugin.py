"""What a rule system's adapter module declares: its projection, the answers to its commands, its reads."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel


class ProjectionContext:
    """What a system's projection handler may do to the read models: the one public face of them, inside the
    transaction of the batch being projected (issue 30, ADR 0033). Statements are written with ``?``
    placeholders and ``{p}`` before each table name, the same for SQLite and PostgreSQL."""

    __slots__ = ("_cursor", "_views")

    def __init__(self, views: Any, cursor: Any) -> None:
        self._views, self._cursor = views, cursor

    def execute(self, statement: str, params: Sequence[Any] = ()) -> None:
        """Run one statement now."""
        self._views._x(self._cursor, statement, params)

    def one(self, statement: str, params: Sequence[Any] = ()) -> dict[str, Any] | None:
        """The first row a query answers, or None."""
        found: dict[str, Any] | None = self._views._one(self._cursor, statement, params)
        return found

    def rows(self, statement: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        """Every row a query answers."""
        self._views._x(self._cursor, statement, params)
        return [dict(row) for row in self._cursor.fetchall()]

    def add_later(self, statement: str, key: Any, *deltas: int) -> None:
        """``statement`` adds ``deltas`` to the columns of the row ``key`` names (its last parameter); the batch
        sums them and writes each row once at its end. Only for columns no handler reads back in a batch."""
        self._views._add_later(self._cursor, statement, key, *deltas)

    def insert_later(self, statement: str, params: tuple[Any, ...]) -> None:
        """An INSERT of a row no handler reads back while a batch runs: written with the others at its end."""
        self._views._insert_later(self._cursor, statement, params)

    def insert_row_later(self, table: str, key: str, row: dict[str, Any]) -> None:
        """A new row (every column, in the table's order) that later events of the batch may change
        (``row_later``): inserted with the others at the batch's end."""
        self._views._insert_row_later(self._cursor, table, key, row)

    def row_later(self, table: str, key: str) -> dict[str, Any] | None:
        """The row ``key`` of ``table`` this batch inserts, to change in place; None: change it in SQL."""
        found: dict[str, Any] | None = self._views._row_later(self._cursor, table, key)
        return found

    def unit(self, unit_id: str) -> Any:
        """The unit of resolution ``unit_id`` (hex) as the events so far made it (its aggregate, read once per
        batch), or None before its first event."""
        return self._views._load_state(self._cursor, "challenges", "challenge_id", unit_id)


#: A projection handler: (context, event, stream id, campaign id, time, notification id). The event holds its
#: stored JSON: a uuid or a time at its top level is its stored text (hex digits, ISO 8601), except a unit's
#: own events, which are the library's typed objects (ADR 0037).
Handler = Callable[..., None]


#: A unit's own figures for its summary row (``ChallengeSummary.summary``): plain JSON values, named as the
#: system names them.
Summary = Callable[[Any], dict[str, Any]]


def no_summary(unit: Any) -> dict[str, Any]:
    return {}


class Projection:
    """A system's read-model tables and the handlers that keep them, by event (``"Character.Created"``), and
    what its units' summary rows show of them (``summarises``; nothing by default). ``rows``: the version of
    what its handlers write; raise it when they write other rows for the same events while the tables' definitions
    stay, so a store projects its events anew when it is upgraded (``views.shape``)."""

    def __init__(self, tables: tuple[str, ...], ddl: tuple[str, ...], rows: int = 1) -> None:
        self.tables, self.ddl, self.rows = tables, ddl, rows
        self.handlers: dict[str, Handler] = {}
        self.summary: Summary = no_summary

    def summarises(self, summary: Summary) -> Summary:
        """Declare what a unit's summary row holds of it, besides the shared columns (issue 30, ADR 0033): the
        unit list of the API, the CLI and the board read it; the system's own CLI and board modules draw it."""
        self.summary = summary
        return summary

    def on(self, event: str) -> Callable[[Handler], Handler]:
        def register(handler: Handler) -> Handler:
            self.handlers[event] = handler
            return handler

        return register


@dataclass(frozen=True)
class Answer:
    """The read that answers a command: ``read(stakes, ctx, command, result)``, and its schema."""

    model: Any
    read: Callable[..., BaseModel | list[Any]]


@dataclass(frozen=True)
class Page:
    """Which page of a list a read returns: the items after the cursor ``after`` (the last item's id the
    previous page gave as ``next_after``), at most ``limit`` of them."""

    after: str | None = None
    limit: int = 100


@dataclass(frozen=True)
class Read:
    """A read a system offers: a GET route under ``/campaigns/{campaign_id}``, a CLI command, one schema."""

    name: str
    path: str
    model: Any
    read: Callable[..., Any]  # (stakes, campaign_id, viewer[, page]) -> model
    cli: str
    doc: str
    #: What it is, for the refusal a campaign of another system gets ("a pool campaign keeps no House budget").
    label: str = ""
    tags: tuple[str, ...] = field(default_factory=tuple)
    #: A list that grows with the campaign: its read takes a ``Page`` and its model says ``next_after``.
    paged: bool = False


@dataclass(frozen=True)
class Line:
    """A character's line on the campaign chart, from its stream's first event (issue 31): whose sheet it is
    (the seat, or ``house`` for a House character), its name, the starting value, and who may see it (None:
    every seat; else only these seats, as its sheet is shown, C-5)."""

    seat: str
    name: str
    value: int
    seen_by: tuple[str, ...] | None = None


@dataclass(frozen=True)
class Tracked:
    """The quantity a system's sheets track over a campaign, charted one line per character (issue 31).

    ``starts``: a character's first event (``"Character.Created"``) -> its :class:`Line`; ``moves``: an event
    of that character's stream -> how much it changes the quantity (0: not at all). The shared projection
    (``adapters/chart.py``) records a point each time the quantity changes; nothing shared names it."""

    label: str
    ruling: str
    starts: Mapping[str, Callable[[Any], Line]]
    moves: Mapping[str, Callable[[Any], int]]


@dataclass(frozen=True)
class Draw:
    """One draw of a unit for the luck report (issue 31): whose it is (a seat, several joined by ``+`` for a
    side of several players, ``house`` for the House's), its kind (``"d6"``) and what it showed."""

    seat: str
    kind: str
    value: str


@dataclass(frozen=True)
class Luck:
    """What a system says of its draws for the luck report (issue 31, ADR 0035): ``fair(kind)``, that kind's
    fair distribution (outcome -> probability; None: a kind it does not know); ``draws(unit)``, a settled
    unit's draws from the kernel's ``rolls`` and ``shuffles`` records; ``abandoned(event, unit)``, the draws a
    ``DrawAbandoned`` event recorded (C-10)."""

    fair: Callable[[str], Mapping[str, float] | None]
    draws: Callable[[Any], Sequence[Draw]]
    abandoned: Callable[[Any, Any], Sequence[Draw]]
