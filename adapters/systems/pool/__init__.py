"""The Pool's adapter: its read models and projection, its sheet and the view of its rolls and contests
(PL-1 … PL-9)."""

from __future__ import annotations

import json
from typing import Any
from uuid import UUID

from adapters.luck import dice_luck
from adapters.plugin import Answer, Line, Projection, ProjectionContext, Read, Tracked
from adapters.systems.pool import schemas
from domain.errors import NotFound
from domain.seats import Seat

PROJECTION = Projection(
    tables=("pool_characters", "pool_traits", "pool_moves", "pool_rolls", "pool_rolls_rewound", "pool_help"),
    ddl=(
    "CREATE TABLE IF NOT EXISTS {p}pool_characters (character_id TEXT PRIMARY KEY, campaign_id TEXT NOT NULL,"
    " seat TEXT NOT NULL, name TEXT NOT NULL, description TEXT NOT NULL, pool BIGINT NOT NULL,"
    " joined_at TEXT NOT NULL, UNIQUE (campaign_id, seat))",
    "CREATE TABLE IF NOT EXISTS {p}pool_traits (character_id TEXT NOT NULL, name TEXT NOT NULL,"
    " rating BIGINT NOT NULL, PRIMARY KEY (character_id, name))",
    "CREATE TABLE IF NOT EXISTS {p}pool_moves (character_id TEXT NOT NULL, name TEXT NOT NULL,"
    " cost BIGINT NOT NULL, PRIMARY KEY (character_id, name))",
    "CREATE TABLE IF NOT EXISTS {p}pool_rolls (position BIGINT PRIMARY KEY, resolution_id TEXT NOT NULL,"
    " campaign_id TEXT NOT NULL, seat TEXT NOT NULL, at TEXT NOT NULL, kind TEXT NOT NULL, round BIGINT NOT NULL,"
    " count BIGINT NOT NULL, trait TEXT, rating BIGINT NOT NULL, dice TEXT NOT NULL, total BIGINT NOT NULL,"
    " outcome TEXT NOT NULL, lost BIGINT NOT NULL)",
    "CREATE INDEX IF NOT EXISTS pool_rolls_by_seat ON {p}pool_rolls (campaign_id, seat, position)",
    # C-6: contest rolls a rewind took back, kept aside with their positions: a rewind to a step of their timeline
    # puts them back on the sheets (issue 30)
    "CREATE TABLE IF NOT EXISTS {p}pool_rolls_rewound (position BIGINT PRIMARY KEY, resolution_id TEXT NOT NULL,"
    " campaign_id TEXT NOT NULL, seat TEXT NOT NULL, at TEXT NOT NULL, kind TEXT NOT NULL, round BIGINT NOT NULL,"
    " count BIGINT NOT NULL, trait TEXT, rating BIGINT NOT NULL, dice TEXT NOT NULL, total BIGINT NOT NULL,"
    " outcome TEXT NOT NULL, lost BIGINT NOT NULL)",
    # PL-7: each helper's standing offer (one at most: a later offer replaces it; the helped roll spends it)
    "CREATE TABLE IF NOT EXISTS {p}pool_help (character_id TEXT PRIMARY KEY, campaign_id TEXT NOT NULL,"
    " to_seat TEXT NOT NULL, dice BIGINT NOT NULL)",
    ),
    rows=2,  # 2: a roll's summary row holds its total and outcome (two rolls waiting for a choice read apart)
)



@PROJECTION.summarises
def _summary(unit: Any) -> dict[str, Any]:
    """A roll's dice count, total and outcome (PL-2), public like every Pool roll, so that two rolls waiting for
    their narrator's choice read apart in the lists ("Mara Quill's roll: 11, a full success"); a contest's round."""
    if type(unit).__name__ == "PoolRoll":
        return {"count": unit.count, "total": unit.total, "outcome": unit.outcome}
    return {"round": getattr(unit, "round", 1)}


SHEET = schemas.PoolSheet
UNITS = (schemas.PoolView,)
ANSWERS: dict[str, Answer] = {}
READS: tuple[Read, ...] = ()


# -- projection ------------------------------------------------------------------------------------------
@PROJECTION.on("PoolCharacter.Created")
def _pool_character_created(p: ProjectionContext, e, oid, campaign, at, nid) -> None:
    from domain.systems.pool.rules import creation_cost  # here: the CLI parses these schemas without the domain

    cost = creation_cost(e.traits)
    p.execute("INSERT INTO {p}pool_characters VALUES (?, ?, ?, ?, ?, ?, ?)",
            (oid, campaign, e.seat, e.name, e.description, e.pool - cost, at))
    for name, rating in e.traits.items():
        p.execute("INSERT INTO {p}pool_traits VALUES (?, ?, ?)", (oid, name, rating))

def _dice(p: ProjectionContext, oid: str, delta: int) -> None:
    p.execute("UPDATE {p}pool_characters SET pool = pool + ? WHERE character_id = ?", (delta, oid))

@PROJECTION.on("PoolCharacter.TraitRaised")
def _pool_character_trait_raised(p: ProjectionContext, e, oid, *_: Any) -> None:
    p.execute("DELETE FROM {p}pool_traits WHERE character_id = ? AND name = ?", (oid, e.name))
    p.execute("INSERT INTO {p}pool_traits VALUES (?, ?, ?)", (oid, e.name, e.rating))
    _dice(p, oid, -e.cost)

@PROJECTION.on("PoolCharacter.TraitCashedIn")
def _pool_character_trait_cashed_in(p: ProjectionContext, e, oid, *_: Any) -> None:
    p.execute("DELETE FROM {p}pool_traits WHERE character_id = ? AND name = ?", (oid, e.name))
    _dice(p, oid, e.rating)

@PROJECTION.on("PoolCharacter.MoveBought")
def _pool_character_move_bought(p: ProjectionContext, e, oid, *_: Any) -> None:
    p.execute("INSERT INTO {p}pool_moves VALUES (?, ?, ?)", (oid, e.name, e.cost))
    _dice(p, oid, -e.cost)

@PROJECTION.on("PoolCharacter.HelpOffered")
def _pool_character_help_offered(p: ProjectionContext, e, oid, campaign, *_: Any) -> None:
    p.execute("DELETE FROM {p}pool_help WHERE character_id = ?", (oid,))
    p.execute("INSERT INTO {p}pool_help VALUES (?, ?, ?, ?)", (oid, campaign, e.to, e.dice))

@PROJECTION.on("PoolCharacter.HelpUsed")
def _pool_character_help_used(p: ProjectionContext, e, oid, *_: Any) -> None:
    p.execute("DELETE FROM {p}pool_help WHERE character_id = ?", (oid,))
    _dice(p, oid, -e.lost)

@PROJECTION.on("PoolCharacter.DiceLost")
def _pool_character_dice_lost(p: ProjectionContext, e, oid, *_: Any) -> None:
    _dice(p, oid, -e.count)

@PROJECTION.on("PoolCharacter.DiceGained")
def _pool_character_dice_gained(p: ProjectionContext, e, oid, *_: Any) -> None:
    _dice(p, oid, e.count)

def _roll_line(p: ProjectionContext, nid: int, oid: str, campaign: str, seat: str, at: str, kind: str, rnd: int,
               e: Any) -> None:
    p.execute("INSERT INTO {p}pool_rolls VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (nid, oid, campaign, seat, at, kind, rnd, e.count, e.trait, e.rating, json.dumps(list(e.dice)),
             e.total, e.outcome, e.lost))

@PROJECTION.on("PoolRoll.Rolled")
def _pool_roll_rolled(p: ProjectionContext, e, oid, campaign, at, nid) -> None:
    _roll_line(p, nid, oid, campaign, e.roller, at, "roll", 1, e)

@PROJECTION.on("PoolContest.Rewound")
def _pool_contest_rewound(p: ProjectionContext, e, oid, campaign, at, nid) -> None:
    """The sheets' history holds the contest rolls of the step rewound to (C-6): those played after it are put
    aside, and those it had that an earlier rewind put aside (a step of another timeline, issue 30) come back,
    with their positions. A state stored before contests kept their rolls: the later rolls go, as before."""
    state = p.unit(oid)
    if any("rolls" not in side for side in state.sides.values()):  # a contest opened before they were kept
        p.execute("DELETE FROM {p}pool_rolls WHERE resolution_id = ? AND round > ?", (oid, state.round))
        for side in state.sides.values():
            if not side["rolled"]:
                p.execute("DELETE FROM {p}pool_rolls WHERE resolution_id = ? AND round = ? AND seat = ?",
                          (oid, state.round, side["seat"]))
        return
    want = {(r["round"], side["seat"], json.dumps(r["dice"])) for side in state.sides.values()
            for r in side.get("rolls", [])}
    for row in p.rows("SELECT position, round, seat, dice FROM {p}pool_rolls WHERE resolution_id = ?", (oid,)):
        key = (row["round"], row["seat"], json.dumps(json.loads(row["dice"])))
        if key in want:
            want.discard(key)
            continue
        p.execute("INSERT INTO {p}pool_rolls_rewound SELECT * FROM {p}pool_rolls WHERE position = ?",
                  (row["position"],))
        p.execute("DELETE FROM {p}pool_rolls WHERE position = ?", (row["position"],))
    if not want:
        return
    for row in p.rows("SELECT position, round, seat, dice FROM {p}pool_rolls_rewound WHERE resolution_id = ?"
                      " ORDER BY position DESC", (oid,)):
        key = (row["round"], row["seat"], json.dumps(json.loads(row["dice"])))
        if key in want:
            want.discard(key)
            p.execute("INSERT INTO {p}pool_rolls SELECT * FROM {p}pool_rolls_rewound WHERE position = ?",
                      (row["position"],))
            p.execute("DELETE FROM {p}pool_rolls_rewound WHERE position = ?", (row["position"],))

@PROJECTION.on("PoolContest.Rolled")
def _pool_contest_rolled(p: ProjectionContext, e, oid, campaign, at, nid) -> None:
    state = p.unit(oid)
    _roll_line(p, nid, oid, campaign, state.sides[e.side]["seat"], at, "contest", e.round, e)



# -- reads ------------------------------------------------------------------------------------------------
def players(views: Any, campaign_id: UUID) -> list[dict[str, Any]]:
    return views.query("SELECT seat, name, joined_at, character_id FROM {p}pool_characters WHERE campaign_id = ?"
                       " ORDER BY joined_at, seat", (campaign_id.hex,))


def sheet(stakes: Any, campaign_id: UUID, seat: str) -> schemas.PoolSheet:
    views = stakes.views
    row = views.query_one("SELECT * FROM {p}pool_characters WHERE campaign_id = ? AND seat = ?",
                          (campaign_id.hex, seat))
    if row is None:
        raise NotFound(f"no player named {seat!r} sits in this campaign")
    oid = row["character_id"]
    traits = {t["name"]: t["rating"] for t in views.query(
        "SELECT name, rating FROM {p}pool_traits WHERE character_id = ? ORDER BY name", (oid,))}
    moves = {m["name"]: m["cost"] for m in views.query(
        "SELECT name, cost FROM {p}pool_moves WHERE character_id = ? ORDER BY name", (oid,))}
    rolls = [schemas.PoolRollLine(**{**r, "dice": json.loads(r["dice"])}) for r in views.query(
        "SELECT * FROM {p}pool_rolls WHERE campaign_id = ? AND seat = ? ORDER BY position DESC LIMIT 50",
        (campaign_id.hex, seat))]
    offer = views.query_one("SELECT to_seat, dice FROM {p}pool_help WHERE character_id = ?", (oid,))
    return schemas.PoolSheet(seat=seat, name=row["name"], description=row["description"], pool=row["pool"],
                             traits=traits, moves=moves, rolls=rolls,
                             help_offer=schemas.PoolHelpOffer(to=offer["to_seat"], dice=offer["dice"]) if offer else None)


def legal_actions(stakes: Any, campaign_id: UUID, unit: Any, viewer: Seat) -> list[Any]:
    """The viewer's moves in the unit, without the rest of its view (who the table waits for, issue 30)."""
    row = stakes.views.query_one("SELECT pool FROM {p}pool_characters WHERE campaign_id = ? AND seat = ?",
                                 (campaign_id.hex, viewer.name))
    return unit.legal_actions(viewer.name, row["pool"] if row else 0)


def unit_view(stakes: Any, campaign_id: UUID, unit: Any, viewer: Seat) -> schemas.PoolView:
    return schemas.PoolView(id=unit.id, campaign_id=campaign_id, kind=type(unit).__name__, phase=unit.phase,
                                  state=unit.view_for(viewer.name),
                                  legal_actions=legal_actions(stakes, campaign_id, unit, viewer))


# -- the chart (issue 31): the dice in a character's pool over the campaign (PL-1) -------------------------------
def _pool_start(e: Any) -> Line:
    from domain.systems.pool.rules import creation_cost  # late, as the projection

    return Line(seat=e.seat, name=e.name, value=e.pool - creation_cost(e.traits))


TRACKED = Tracked(
    label="dice in the pool", ruling="PL-1",
    starts={"PoolCharacter.Created": _pool_start},
    moves={
        "PoolCharacter.TraitRaised": lambda e: -e.cost, "PoolCharacter.TraitCashedIn": lambda e: e.rating,
        "PoolCharacter.MoveBought": lambda e: -e.cost, "PoolCharacter.HelpUsed": lambda e: -e.lost,
        "PoolCharacter.DiceLost": lambda e: -e.count, "PoolCharacter.DiceGained": lambda e: e.count,
    },
)


# -- the luck report (issue 31, ADR 0035): every die is a fair d6 (PL-2) -------------------------------------
LUCK = dice_luck(6)
