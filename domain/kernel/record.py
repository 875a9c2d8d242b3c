"""Exactly once: every command leaves a record, saved atomically with the events it caused.

The record's id is derived from the campaign, the acting seat and the command's key (an
``Idempotency-Key`` the client sends, or one drawn for the attempt). Saving a second record with the
same id breaks the store's unique key, so a command can be stored only once: a retry after a lost
answer, a client that sends the same key again, or the library retrying an insert whose commit
acknowledgement was lost, all find the record and answer with its result instead of running again.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any
from uuid import UUID, uuid5

from eventsourcing.domain import Aggregate, event

from domain.errors import KeyReused

#: Campaign ids are uuid4s; a command that creates a campaign is keyed in this namespace instead.
NO_CAMPAIGN = UUID("5ad0c0a0-1b1e-4c1e-9a55-57a4e5c0ffee")


def digest(verb: str, inputs: Any) -> str:
    """What the command asked, so a key reused for another command is refused."""
    text = json.dumps([verb, inputs], sort_keys=True, default=str, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


class CommandRecord(Aggregate):
    """A command that ran: its key, what it asked (as a digest) and its result."""

    @staticmethod
    def create_id(scope: UUID, actor: str, key: str, **_: Any) -> UUID:  # type: ignore[override]
        """``scope``: the campaign, or ``NO_CAMPAIGN`` for the command that creates one."""
        return uuid5(scope, f"command/{actor}/{key}")

    @event("Executed")
    def __init__(self, scope: UUID, campaign_id: UUID, actor: str, key: str, verb: str, asked: str,
                 result: Any) -> None:
        self.campaign_id = campaign_id
        self.key = key
        self.verb = verb
        self.asked = asked
        self.result = result

    def answer(self, verb: str, asked: str) -> Any:
        """The stored result, when the same command is asked again under its key."""
        if (verb, asked) != (self.verb, self.asked):
            raise KeyReused(f"the key {self.key!r} was used for another command ({self.verb}); "
                                      "send a new key for a new command")
        return self.result
