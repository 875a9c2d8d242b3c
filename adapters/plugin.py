"""What a rule system's adapter module declares: its projection, the answers to its commands, its reads."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

#: A projection handler: (views, cursor, event, stream id, campaign id, time, notification id).
Handler = Callable[..., None]


#: A unit's own figures for its summary row (``ChallengeSummary.summary``): plain JSON values, named as the
#: system names them.
Summary = Callable[[Any], dict[str, Any]]


def no_summary(unit: Any) -> dict[str, Any]:
    return {}


class Projection:
    """A system's read-model tables and the handlers that keep them, by event (``"Character.Created"``), and
    what its units' summary rows show of them (``summarises``; nothing by default)."""

    def __init__(self, tables: tuple[str, ...], ddl: tuple[str, ...]) -> None:
        self.tables, self.ddl = tables, ddl
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
