"""Twenty-one's adapter: its read models and projection, its sheet, the conflict view and ``hand``
(TO-1 … TO-15; C-5, C-6)."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any, Literal
from uuid import UUID

from pydantic import BaseModel, Field

from adapters import schemas as shared
from adapters.plugin import Answer, Projection, Read
from domain.errors import NotFound
from domain.seats import Seat

PROJECTION = Projection(
    tables=("twentyone_characters", "twentyone_actions"),
    ddl=(
        "CREATE TABLE IF NOT EXISTS {p}twentyone_characters (character_id TEXT PRIMARY KEY,"
        " campaign_id TEXT NOT NULL, seat TEXT NOT NULL, name TEXT NOT NULL, skills TEXT NOT NULL,"
        " holds BIGINT NOT NULL, joined_at TEXT NOT NULL, UNIQUE (campaign_id, seat))",
        "CREATE TABLE IF NOT EXISTS {p}twentyone_actions (resolution_id TEXT NOT NULL, idx BIGINT NOT NULL,"
        " position BIGINT NOT NULL, campaign_id TEXT NOT NULL, seat TEXT NOT NULL, at TEXT NOT NULL,"
        " round BIGINT NOT NULL, outcome TEXT NOT NULL, how TEXT NOT NULL, total BIGINT NOT NULL,"
        " targets TEXT NOT NULL, laid TEXT NOT NULL, modifiers TEXT NOT NULL, overturned TEXT,"
        " PRIMARY KEY (resolution_id, idx))",
        "CREATE INDEX IF NOT EXISTS twentyone_actions_by_seat ON {p}twentyone_actions (campaign_id, seat, position)",
    ),
)


# -- schemas ----------------------------------------------------------------------------------------------
class ActionLine(BaseModel):
    resolution_id: UUID
    at: datetime
    round: int
    outcome: str = Field(description="full, mixed or fail (TO-4, TO-5)")
    how: str = Field(description="stood, bust or natural")
    total: int
    targets: dict[str, int] = Field(description="The mixed and full targets after modifiers (TO-6).")
    laid: list[str]
    modifiers: list[dict[str, Any]]
    overturned: str | None = Field(description="Why the House overturned it (C-6), if it did.")


class TwentyOneSheet(BaseModel):
    system: Literal["twenty-one"] = "twenty-one"
    seat: str
    name: str
    skills: list[str] = Field(description="The sources the House accepts for modifiers (TO-6).")
    holds: int = Field(description="Holds to spend, once per action (TO-8).")
    actions: list[ActionLine] = Field(description="The latest actions, newest first.")


class ConflictView(shared.ResolutionView):
    """A conflict as the viewing seat sees it (C-5): its own hand only, the cards laid, the targets."""


class HandLine(BaseModel):
    conflict: UUID
    phase: str
    cards: list[str] = Field(description="Your own cards (TO-2).")
    set_aside: str | None = Field(description="Your set-aside card during your action (TO-4).")


class Hand(BaseModel):
    seat: str
    hands: list[HandLine] = Field(description="Your hand in each open conflict.")


SHEET = TwentyOneSheet
UNITS = (ConflictView,)
ANSWERS: dict[str, Answer] = {}


# -- projection ------------------------------------------------------------------------------------------
@PROJECTION.on("TwentyOneCharacter.Created")
def _created(v: Any, c, e, oid, campaign, at, nid) -> None:
    v._x(c, "INSERT INTO {p}twentyone_characters VALUES (?, ?, ?, ?, ?, 0, ?)",
         (oid, campaign, e.seat, e.name, json.dumps(list(e.skills)), at))


def _holds(v: Any, c: Any, oid: str, delta: int) -> None:
    v._x(c, "UPDATE {p}twentyone_characters SET holds = holds + ? WHERE character_id = ?", (delta, oid))


@PROJECTION.on("TwentyOneCharacter.HoldsGranted")
def _granted(v: Any, c, e, oid, *_: Any) -> None:
    _holds(v, c, oid, e.count)


@PROJECTION.on("TwentyOneCharacter.HoldSpent")
def _spent(v: Any, c, e, oid, *_: Any) -> None:
    _holds(v, c, oid, -1)


@PROJECTION.on("TwentyOneCharacter.HoldsReturned")
def _returned(v: Any, c, e, oid, *_: Any) -> None:
    _holds(v, c, oid, e.count)


@PROJECTION.on("TwentyOneCharacter.HoldsRetaken")
def _retaken(v: Any, c, e, oid, *_: Any) -> None:
    _holds(v, c, oid, -e.count)


def _action_line(v: Any, c: Any, oid: str, idx: int, nid: int, campaign: str, at: str, result: dict[str, Any]) -> None:
    v._x(c, "INSERT INTO {p}twentyone_actions VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
         (oid, idx, nid, campaign, result["seat"], at, result["round"], result["outcome"], result["how"],
          result["total"], json.dumps(result["targets"]), json.dumps(list(result["laid"])),
          json.dumps(result["modifiers"]), result.get("overturned")))


@PROJECTION.on("Conflict.ActionResolved")
def _resolved(v: Any, c, e, oid, campaign, at, nid) -> None:
    state = v._load_state(c, "challenges", "challenge_id", oid)
    _action_line(v, c, oid, len(state.results) - 1, nid, campaign, at, state.results[-1])


@PROJECTION.on("Conflict.Rewound")
def _rewound(v: Any, c, e, oid, campaign, at, nid) -> None:
    """The sheets' history holds the actions of the step rewound to (C-6): those resolved after it go, and those
    it had that an earlier rewind took away (a step of another timeline, issue 30) come back."""
    state = v._load_state(c, "challenges", "challenge_id", oid)
    v._x(c, "DELETE FROM {p}twentyone_actions WHERE resolution_id = ? AND idx >= ?", (oid, len(state.results)))
    v._x(c, "SELECT idx, seat, outcome, total, laid FROM {p}twentyone_actions WHERE resolution_id = ?", (oid,))
    there = {r["idx"]: (r["seat"], r["outcome"], r["total"], json.loads(r["laid"])) for r in map(dict, c.fetchall())}
    for i, result in enumerate(state.results):
        if there.get(i) != (result["seat"], result["outcome"], result["total"], list(result["laid"])):
            v._x(c, "DELETE FROM {p}twentyone_actions WHERE resolution_id = ? AND idx = ?", (oid, i))
            _action_line(v, c, oid, i, nid, campaign, at, result)
        v._x(c, "UPDATE {p}twentyone_actions SET overturned = ? WHERE resolution_id = ? AND idx = ?",
             (result["overturned"], oid, i))


@PROJECTION.on("Conflict.Voided")
def _voided(v: Any, c, e, oid, *_: Any) -> None:
    """C-6: the ended conflict is voided; every action that stood is overturned with the reason."""
    v._x(c, "UPDATE {p}twentyone_actions SET overturned = ? WHERE resolution_id = ? AND overturned IS NULL",
         (e.reason, oid))


@PROJECTION.on("Conflict.ActionOverturned")
def _overturned(v: Any, c, e, oid, *_: Any) -> None:
    v._x(c, "UPDATE {p}twentyone_actions SET overturned = ? WHERE resolution_id = ? AND idx = ?",
         (e.reason, oid, e.index))


# -- reads ------------------------------------------------------------------------------------------------
def players(views: Any, campaign_id: UUID) -> list[dict[str, Any]]:
    return views.query("SELECT seat, name, joined_at FROM {p}twentyone_characters WHERE campaign_id = ?"
                       " ORDER BY joined_at, seat", (campaign_id.hex,))


def _row(views: Any, campaign_id: UUID, seat: str) -> dict[str, Any] | None:
    return views.query_one("SELECT * FROM {p}twentyone_characters WHERE campaign_id = ? AND seat = ?",
                           (campaign_id.hex, seat))


def sheet(stakes: Any, campaign_id: UUID, seat: str) -> TwentyOneSheet:
    row = _row(stakes.views, campaign_id, seat)
    if row is None:
        raise NotFound(f"no player named {seat!r} sits in this campaign")
    actions = [ActionLine(**{**r, "targets": json.loads(r["targets"]), "laid": json.loads(r["laid"]),
                             "modifiers": json.loads(r["modifiers"])}) for r in stakes.views.query(
        "SELECT * FROM {p}twentyone_actions WHERE campaign_id = ? AND seat = ? ORDER BY position DESC, idx DESC LIMIT 50",
        (campaign_id.hex, seat))]
    return TwentyOneSheet(seat=seat, name=row["name"], skills=json.loads(row["skills"]), holds=row["holds"],
                          actions=actions)


def unit_view(stakes: Any, campaign_id: UUID, unit: Any, viewer: Seat) -> ConflictView:
    row = _row(stakes.views, campaign_id, viewer.name)
    return ConflictView(id=unit.id, campaign_id=campaign_id, kind=type(unit).__name__, phase=unit.phase,
                        state=unit.view_for(viewer.name),
                        legal_actions=unit.legal_actions(viewer.name, row["holds"] if row else 0))


def hand(stakes: Any, campaign_id: UUID, viewer: Seat) -> Hand:
    """The viewer's own cards in every open conflict (TO-2, C-5): nobody else's, whoever asks."""
    rows = stakes.views.query("SELECT challenge_id FROM {p}challenges WHERE campaign_id = ? AND phase != ?"
                              " ORDER BY announced_at, challenge_id", (campaign_id.hex, "settled"))
    lines = []
    for r in rows:
        unit = stakes.load_unit(campaign_id, UUID(r["challenge_id"]))
        if viewer.name in getattr(unit, "hands", {}):
            action = unit.action if unit.action and unit.action["actor"] == viewer.name else None
            lines.append(HandLine(conflict=unit.id, phase=unit.phase, cards=list(unit.hands[viewer.name]),
                                  set_aside=action["set_aside"] if action else None))
    return Hand(seat=viewer.name, hands=lines)


READS: tuple[Read, ...] = (
    Read("hand", "/hand", Hand, hand, "hand", "Your own cards in each open conflict (TO-2, C-5).",
         label="hands of cards"),
)
