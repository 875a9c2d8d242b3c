"""What a rule system's adapter module declares: its projection, the answers to its commands, its reads."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

#: A projection handler: (views, cursor, event, stream id, campaign id, time, notification id).
Handler = Callable[..., None]


class Projection:
    """A system's read-model tables and the handlers that keep them, by event (``"Loan.Accepted"``)."""

    def __init__(self, tables: tuple[str, ...], ddl: tuple[str, ...]) -> None:
        self.tables, self.ddl = tables, ddl
        self.handlers: dict[str, Handler] = {}

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
