"""Twenty-one's adapter: its read models and projection, its sheet, the conflict view and ``hand``
(TO-1 … TO-15; C-5, C-6)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any, Literal
from uuid import UUID

from pydantic import BaseModel, Field

from adapters import schemas as shared
from adapters.luck import first_of_each_shuffle
from adapters.plugin import Answer, Line, Projection, ProjectionContext, Read, Tracked
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
    rows=2,  # 2: a rewind to a step of another timeline brings back its lines whole, targets and modifiers too
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


class ConflictAction(shared.LegalAction):
    """A move in a conflict, with Twenty-one's own limits besides the shared ones (issue 30, ADR 0033)."""

    dice: int | None = Field(None, description="How many cards to enter in table mode: the whole deck (C-3).")
    choices: list[Any] | None = Field(None, description="The values this move may take: of the body field named "
                                                      "by `field`; for `hold`, the flag to set true (`set-aside` → "
                                                      "`set_aside`, `draw`).")
    reshuffle: list[str] | None = Field(None, description="Table cards: the discards this move reshuffles into the "
                                                          "empty deck; enter them in the order the table shuffled "
                                                          "them (C-3, TO-1).")
    required: list[Any] | None = Field(None, description="What this move must include (`reshuffle`: table cards, "
                                                      "C-3) or repeat after a rewind (C-7).")


class ConflictView(shared.ResolutionView):
    """A conflict as the viewing seat sees it (C-5): its own hand only, the cards laid, the targets."""

    legal_actions: Sequence[ConflictAction]


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
def _created(p: ProjectionContext, e, oid, campaign, at, nid) -> None:
    p.execute("INSERT INTO {p}twentyone_characters VALUES (?, ?, ?, ?, ?, 0, ?)",
         (oid, campaign, e.seat, e.name, json.dumps(list(e.skills)), at))


def _holds(p: ProjectionContext, oid: str, delta: int) -> None:
    p.execute("UPDATE {p}twentyone_characters SET holds = holds + ? WHERE character_id = ?", (delta, oid))


@PROJECTION.on("TwentyOneCharacter.HoldsGranted")
def _granted(p: ProjectionContext, e, oid, *_: Any) -> None:
    _holds(p, oid, e.count)


@PROJECTION.on("TwentyOneCharacter.HoldSpent")
def _spent(p: ProjectionContext, e, oid, *_: Any) -> None:
    _holds(p, oid, -1)


@PROJECTION.on("TwentyOneCharacter.HoldsReturned")
def _returned(p: ProjectionContext, e, oid, *_: Any) -> None:
    _holds(p, oid, e.count)


@PROJECTION.on("TwentyOneCharacter.HoldsRetaken")
def _retaken(p: ProjectionContext, e, oid, *_: Any) -> None:
    _holds(p, oid, -e.count)


def _action_line(p: ProjectionContext, oid: str, idx: int, nid: int, campaign: str, at: str,
                 result: dict[str, Any]) -> None:
    p.execute("INSERT INTO {p}twentyone_actions VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
              (oid, idx, nid, campaign, result["seat"], at, result["round"], result["outcome"], result["how"],
               result["total"], json.dumps(result["targets"]), json.dumps(list(result["laid"])),
               json.dumps(result["modifiers"]), result.get("overturned")))


@PROJECTION.on("Conflict.ActionResolved")
def _resolved(p: ProjectionContext, e, oid, campaign, at, nid) -> None:
    state = p.unit(oid)
    _action_line(p, oid, len(state.results) - 1, nid, campaign, at, state.results[-1])


@PROJECTION.on("Conflict.Rewound")
def _rewound(p: ProjectionContext, e, oid, campaign, at, nid) -> None:
    """The sheets' history holds the actions of the step rewound to (C-6): those resolved after it go, and those
    it had that an earlier rewind took away (a step of another timeline, issue 30) come back."""
    state = p.unit(oid)
    p.execute("DELETE FROM {p}twentyone_actions WHERE resolution_id = ? AND idx >= ?", (oid, len(state.results)))
    # the whole line, not its cards and outcome alone: the same cards against other targets (a modifier one
    # timeline had and the other not, TO-6) read otherwise (found by an independent check of the rulings)
    there = {r["idx"]: (r["seat"], r["round"], r["outcome"], r["how"], r["total"], json.loads(r["targets"]),
                        json.loads(r["laid"]), json.loads(r["modifiers"]))
             for r in p.rows("SELECT idx, seat, round, outcome, how, total, targets, laid, modifiers"
                             " FROM {p}twentyone_actions WHERE resolution_id = ?", (oid,))}
    for i, result in enumerate(state.results):
        line = (result["seat"], result["round"], result["outcome"], result["how"], result["total"],
                json.loads(json.dumps(result["targets"])), list(result["laid"]),
                json.loads(json.dumps(result["modifiers"])))
        if there.get(i) != line:
            p.execute("DELETE FROM {p}twentyone_actions WHERE resolution_id = ? AND idx = ?", (oid, i))
            _action_line(p, oid, i, nid, campaign, at, result)
        p.execute("UPDATE {p}twentyone_actions SET overturned = ? WHERE resolution_id = ? AND idx = ?",
                  (result["overturned"], oid, i))


@PROJECTION.on("Conflict.Voided")
def _voided(p: ProjectionContext, e, oid, *_: Any) -> None:
    """C-6: the ended conflict is voided; every action that stood is overturned with the reason."""
    p.execute("UPDATE {p}twentyone_actions SET overturned = ? WHERE resolution_id = ? AND overturned IS NULL",
              (e.reason, oid))


@PROJECTION.on("Conflict.ActionOverturned")
def _overturned(p: ProjectionContext, e, oid, *_: Any) -> None:
    p.execute("UPDATE {p}twentyone_actions SET overturned = ? WHERE resolution_id = ? AND idx = ?",
              (e.reason, oid, e.index))


# -- reads ------------------------------------------------------------------------------------------------
def players(views: Any, campaign_id: UUID) -> list[dict[str, Any]]:
    return views.query("SELECT seat, name, joined_at, character_id FROM {p}twentyone_characters WHERE campaign_id = ?"
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


def legal_actions(stakes: Any, campaign_id: UUID, unit: Any, viewer: Seat) -> list[Any]:
    """The viewer's moves in the unit, without the rest of its view (who the table waits for, issue 30)."""
    row = _row(stakes.views, campaign_id, viewer.name)
    return unit.legal_actions(viewer.name, row["holds"] if row else 0)


def unit_view(stakes: Any, campaign_id: UUID, unit: Any, viewer: Seat) -> ConflictView:
    return ConflictView(id=unit.id, campaign_id=campaign_id, kind=type(unit).__name__, phase=unit.phase,
                        state=unit.view_for(viewer.name),
                        legal_actions=legal_actions(stakes, campaign_id, unit, viewer))


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


# -- the chart (issue 31): the holds on a character's sheet over the campaign (TO-8) ------------------------------
TRACKED = Tracked(
    label="holds", ruling="TO-8",
    starts={"TwentyOneCharacter.Created": lambda e: Line(seat=e.seat, name=e.name, value=0)},
    moves={
        "TwentyOneCharacter.HoldsGranted": lambda e: e.count, "TwentyOneCharacter.HoldSpent": lambda e: -1,
        "TwentyOneCharacter.HoldsReturned": lambda e: e.count, "TwentyOneCharacter.HoldsRetaken": lambda e: -e.count,
    },
)


# -- the luck report (issue 31, ADR 0035): the top card of every shuffle, any card alike (TO-1) --------------
def _deck() -> Any:
    from domain.systems.twenty_one.cards import DECK  # late: a CLI reads this module's schemas without the domain

    return DECK


LUCK = first_of_each_shuffle(_deck, "cards")
