"""Pulp in the Cards' adapter: its read models and projection, its sheet and the view of its deals and
combats (PU-1 … PU-9)."""

from __future__ import annotations

import json
from typing import Any
from uuid import UUID

from adapters.luck import first_of_each_shuffle
from adapters.plugin import Answer, Line, Projection, ProjectionContext, Read, Tracked
from adapters.systems.pulp_cards import schemas
from domain.errors import NotFound
from domain.seats import Seat

PROJECTION = Projection(
    tables=("pulp_characters", "pulp_notes", "pulp_deals"),
    ddl=(
    "CREATE TABLE IF NOT EXISTS {p}pulp_characters (character_id TEXT PRIMARY KEY, campaign_id TEXT NOT NULL,"
    " seat TEXT NOT NULL, name TEXT NOT NULL, joined_at TEXT NOT NULL, UNIQUE (campaign_id, seat))",
    "CREATE TABLE IF NOT EXISTS {p}pulp_notes (position BIGINT PRIMARY KEY, character_id TEXT NOT NULL,"
    " at TEXT NOT NULL, kind TEXT NOT NULL, text TEXT NOT NULL, by_seat TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS {p}pulp_deals (position BIGINT NOT NULL, resolution_id TEXT NOT NULL,"
    " number BIGINT NOT NULL, campaign_id TEXT NOT NULL, seat TEXT NOT NULL, at TEXT NOT NULL, kind TEXT NOT NULL,"
    " difficulty BIGINT NOT NULL, cards TEXT NOT NULL, degree BIGINT NOT NULL, success BIGINT NOT NULL,"
    " critical BIGINT NOT NULL, fumble BIGINT NOT NULL, void BIGINT NOT NULL, rewound BIGINT NOT NULL,"
    " PRIMARY KEY (position, number))",
    "CREATE INDEX IF NOT EXISTS pulp_deals_by_seat ON {p}pulp_deals (campaign_id, seat, position)",
    ),
)

SHEET = schemas.PulpSheet
UNITS = (schemas.PulpView,)
READS: tuple[Read, ...] = ()


@PROJECTION.summarises
def _summary(unit: Any) -> dict[str, Any]:
    """Who takes part, by name (House characters are names typed into the command, PU-5): a deal's character,
    or a combat's combatants in the order they were named (issue 31)."""
    combatants = getattr(unit, "combatants", None)
    if combatants is not None:
        return {"names": [str(c["name"]) for c in combatants]}
    return {"names": [str(unit.character)], "deal": str(unit.kind)}


def _faces(cards: Any) -> Any:
    """Imported late: a CLI against a server reads these schemas without the domain."""
    from domain.systems.pulp_cards.rules import faces

    return faces(cards)


# -- projection ------------------------------------------------------------------------------------------
@PROJECTION.on("PulpCharacter.Created")
def _created(p: ProjectionContext, e, oid, campaign, at, nid) -> None:
    p.execute("INSERT INTO {p}pulp_characters VALUES (?, ?, ?, ?, ?)", (oid, campaign, e.seat, e.name, at))


@PROJECTION.on("PulpCharacter.NoteAdded")
def _note_added(p: ProjectionContext, e, oid, campaign, at, nid) -> None:
    p.execute("INSERT INTO {p}pulp_notes VALUES (?, ?, ?, ?, ?, ?)", (nid, oid, at, e.kind, e.text, e.actor))


def _line(p: ProjectionContext, nid: int, oid: str, number: int, campaign: str, seat: str, at: str, kind: str,
          difficulty: int, cards: list[str], result: dict[str, Any]) -> None:
    p.execute("INSERT INTO {p}pulp_deals VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0)",
         (nid, oid, number, campaign, seat, at, kind, difficulty, json.dumps(cards), result["degree"],
          int(result["success"]), int(result["critical"]), int(result["fumble"])))


@PROJECTION.on("PulpDeal.Shown")
def _deal_shown(p: ProjectionContext, e, oid, campaign, at, nid) -> None:
    """A deal joins its dealer's sheet once every seat has seen it (C-5)."""
    deal = p.unit(oid)
    _line(p, nid, oid, 0, campaign, deal.seat, at, deal.kind, deal.difficulty, deal.cards, deal.result)


@PROJECTION.on("PulpDeal.Overturned")
@PROJECTION.on("PulpCombat.Overturned")
def _overturned(p: ProjectionContext, e, oid, *_: Any) -> None:
    """A deal, or every attack of a combat, voided (C-6): still on the sheet, marked void."""
    p.execute("UPDATE {p}pulp_deals SET void = 1 WHERE resolution_id = ?", (oid,))


def _attack_line(p: ProjectionContext, nid: int, oid: str, campaign: str, at: str, attack: dict[str, Any]) -> None:
    _line(p, nid, oid, attack["number"], campaign, attack["dealer"], at, "attack", attack["difficulty"],
          attack["cards"], attack["result"])


@PROJECTION.on("PulpCombat.AttackShown")
def _attack_shown(p: ProjectionContext, e, oid, campaign, at, nid) -> None:
    combat = p.unit(oid)
    _attack_line(p, nid, oid, campaign, at, combat.attacks[e.number - 1])


@PROJECTION.on("PulpCombat.Ended")
def _combat_ended(p: ProjectionContext, e, oid, campaign, at, nid) -> None:
    """Ending reveals every attack (C-4): the unshown ones join the sheets."""
    combat = p.unit(oid)
    for attack in combat.attacks:
        if not attack["shown"]:
            _attack_line(p, nid, oid, campaign, at, attack)


@PROJECTION.on("PulpCombat.Rewound")
def _combat_rewound(p: ProjectionContext, e, oid, campaign, at, nid) -> None:
    """Attacks a rewind took back, or put back unshown, stay on the sheets, marked (C-6, C-8); those shown at
    the step rewound to (perhaps in another timeline, issue 30) are unmarked."""
    combat = p.unit(oid)
    p.execute("UPDATE {p}pulp_deals SET rewound = 1 WHERE resolution_id = ? AND number > ?",
              (oid, len(combat.attacks)))
    for number, attack in enumerate(combat.attacks, start=1):  # shown at the step: not marked (another timeline)
        p.execute("UPDATE {p}pulp_deals SET rewound = ? WHERE resolution_id = ? AND number = ?",
                  (0 if attack["shown"] else 1, oid, number))


# -- reads ------------------------------------------------------------------------------------------------
def players(views: Any, campaign_id: UUID) -> list[dict[str, Any]]:
    return views.query("SELECT seat, name, joined_at, character_id FROM {p}pulp_characters WHERE campaign_id = ?"
                       " ORDER BY joined_at, seat", (campaign_id.hex,))


def sheet(stakes: Any, campaign_id: UUID, seat: str) -> schemas.PulpSheet:
    views = stakes.views
    row = views.query_one("SELECT * FROM {p}pulp_characters WHERE campaign_id = ? AND seat = ?",
                          (campaign_id.hex, seat))
    if row is None:
        raise NotFound(f"no player named {seat!r} sits in this campaign")
    notes = [schemas.PulpNote(at=n["at"], kind=n["kind"], text=n["text"], by=n["by_seat"]) for n in views.query(
        "SELECT * FROM {p}pulp_notes WHERE character_id = ? ORDER BY position", (row["character_id"],))]
    deals = []
    for d in views.query("SELECT * FROM {p}pulp_deals WHERE campaign_id = ? AND seat = ?"
                         " ORDER BY position DESC LIMIT 50", (campaign_id.hex, seat)):
        cards = json.loads(d["cards"])
        deals.append(schemas.PulpDealLine(
            resolution_id=d["resolution_id"], number=d["number"], at=d["at"], kind=d["kind"],
            difficulty=d["difficulty"], cards=cards, shown_as=_faces(cards), degree=d["degree"],
            success=bool(d["success"]), critical=bool(d["critical"]), fumble=bool(d["fumble"]),
            void=bool(d["void"]), seen_before_the_rewind=bool(d["rewound"])))
    return schemas.PulpSheet(seat=seat, name=row["name"], notes=notes,
                             conditions=[n.text for n in notes if n.kind == "condition"],
                             promotions=[n.text for n in notes if n.kind == "promotion"], deals=deals)


def _noted_sheet(stakes: Any, ctx: Any, command: Any, result: Any) -> schemas.PulpSheet:
    return sheet(stakes, ctx.campaign_id, Seat.parse(command.to or ctx.actor.name).name)


ANSWERS: dict[str, Answer] = {"noted-sheet": Answer(schemas.PulpSheet, _noted_sheet)}


def legal_actions(stakes: Any, campaign_id: UUID, unit: Any, viewer: Seat) -> list[Any]:
    """The viewer's moves in the unit, without the rest of its view (who the table waits for, issue 30)."""
    return unit.legal_actions(viewer.name)


def unit_view(stakes: Any, campaign_id: UUID, unit: Any, viewer: Seat) -> schemas.PulpView:
    return schemas.PulpView(id=unit.id, campaign_id=campaign_id, kind=type(unit).__name__, phase=unit.phase,
                            state=unit.view_for(viewer.name),
                            legal_actions=legal_actions(stakes, campaign_id, unit, viewer))


# -- the chart (issue 31): no experience, the sheet is notes (PU-6); the conditions the House noted, counted ------
TRACKED = Tracked(
    label="conditions", ruling="PU-6",
    starts={"PulpCharacter.Created": lambda e: Line(seat=e.seat, name=e.name, value=0)},
    moves={"PulpCharacter.NoteAdded": lambda e: int(e.kind == "condition")},
)


# -- the luck report (issue 31, ADR 0035): the top card of every shuffle, any card alike (PU-1) --------------
def _deck() -> Any:
    from domain.systems.pulp_cards.rules import DECK  # late: a CLI reads this module's schemas without the domain

    return DECK


LUCK = first_of_each_shuffle(_deck, "cards")
