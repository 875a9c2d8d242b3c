"""The Pool's adapter: its read models and projection, its sheet and the view of its rolls and contests
(PL-1 … PL-9)."""

from __future__ import annotations

import json
from typing import Any
from uuid import UUID

from adapters import schemas as shared
from adapters.plugin import Answer, Projection, Read
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
)

SHEET = schemas.PoolSheet
UNITS = (shared.ResolutionView,)
ANSWERS: dict[str, Answer] = {}
READS: tuple[Read, ...] = ()


# -- projection ------------------------------------------------------------------------------------------
@PROJECTION.on("PoolCharacter.Created")
def _pool_character_created(v: Any, c, e, oid, campaign, at, nid) -> None:
    from domain.systems.pool.rules import creation_cost  # here: the CLI parses these schemas without the domain

    cost = creation_cost(e.traits)
    v._x(c, "INSERT INTO {p}pool_characters VALUES (?, ?, ?, ?, ?, ?, ?)",
            (oid, campaign, e.seat, e.name, e.description, e.pool - cost, at))
    for name, rating in e.traits.items():
        v._x(c, "INSERT INTO {p}pool_traits VALUES (?, ?, ?)", (oid, name, rating))

def _dice(v: Any, c: Any, oid: str, delta: int) -> None:
    v._x(c, "UPDATE {p}pool_characters SET pool = pool + ? WHERE character_id = ?", (delta, oid))

@PROJECTION.on("PoolCharacter.TraitRaised")
def _pool_character_trait_raised(v: Any, c, e, oid, *_: Any) -> None:
    v._x(c, "DELETE FROM {p}pool_traits WHERE character_id = ? AND name = ?", (oid, e.name))
    v._x(c, "INSERT INTO {p}pool_traits VALUES (?, ?, ?)", (oid, e.name, e.rating))
    _dice(v, c, oid, -e.cost)

@PROJECTION.on("PoolCharacter.TraitCashedIn")
def _pool_character_trait_cashed_in(v: Any, c, e, oid, *_: Any) -> None:
    v._x(c, "DELETE FROM {p}pool_traits WHERE character_id = ? AND name = ?", (oid, e.name))
    _dice(v, c, oid, e.rating)

@PROJECTION.on("PoolCharacter.MoveBought")
def _pool_character_move_bought(v: Any, c, e, oid, *_: Any) -> None:
    v._x(c, "INSERT INTO {p}pool_moves VALUES (?, ?, ?)", (oid, e.name, e.cost))
    _dice(v, c, oid, -e.cost)

@PROJECTION.on("PoolCharacter.HelpOffered")
def _pool_character_help_offered(v: Any, c, e, oid, campaign, *_: Any) -> None:
    v._x(c, "DELETE FROM {p}pool_help WHERE character_id = ?", (oid,))
    v._x(c, "INSERT INTO {p}pool_help VALUES (?, ?, ?, ?)", (oid, campaign, e.to, e.dice))

@PROJECTION.on("PoolCharacter.HelpUsed")
def _pool_character_help_used(v: Any, c, e, oid, *_: Any) -> None:
    v._x(c, "DELETE FROM {p}pool_help WHERE character_id = ?", (oid,))
    _dice(v, c, oid, -e.lost)

@PROJECTION.on("PoolCharacter.DiceLost")
def _pool_character_dice_lost(v: Any, c, e, oid, *_: Any) -> None:
    _dice(v, c, oid, -e.count)

@PROJECTION.on("PoolCharacter.DiceGained")
def _pool_character_dice_gained(v: Any, c, e, oid, *_: Any) -> None:
    _dice(v, c, oid, e.count)

def _roll_line(v: Any, c: Any, nid: int, oid: str, campaign: str, seat: str, at: str, kind: str, rnd: int,
               e: Any) -> None:
    v._x(c, "INSERT INTO {p}pool_rolls VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (nid, oid, campaign, seat, at, kind, rnd, e.count, e.trait, e.rating, json.dumps(list(e.dice)),
             e.total, e.outcome, e.lost))

@PROJECTION.on("PoolRoll.Rolled")
def _pool_roll_rolled(v: Any, c, e, oid, campaign, at, nid) -> None:
    _roll_line(v, c, nid, oid, campaign, e.roller, at, "roll", 1, e)

@PROJECTION.on("PoolContest.Rewound")
def _pool_contest_rewound(v: Any, c, e, oid, campaign, at, nid) -> None:
    """The sheets' history holds the contest rolls of the step rewound to (C-6): those played after it are put
    aside, and those it had that an earlier rewind put aside (a step of another timeline, issue 30) come back,
    with their positions. A state stored before contests kept their rolls: the later rolls go, as before."""
    state = v._load_state(c, "challenges", "challenge_id", oid)
    if any("rolls" not in side for side in state.sides.values()):  # a contest opened before they were kept
        v._x(c, "DELETE FROM {p}pool_rolls WHERE resolution_id = ? AND round > ?", (oid, state.round))
        for side in state.sides.values():
            if not side["rolled"]:
                v._x(c, "DELETE FROM {p}pool_rolls WHERE resolution_id = ? AND round = ? AND seat = ?",
                     (oid, state.round, side["seat"]))
        return
    want = {(r["round"], side["seat"], json.dumps(r["dice"])) for side in state.sides.values()
            for r in side.get("rolls", [])}
    v._x(c, "SELECT position, round, seat, dice FROM {p}pool_rolls WHERE resolution_id = ?", (oid,))
    for row in [dict(r) for r in c.fetchall()]:
        key = (row["round"], row["seat"], json.dumps(json.loads(row["dice"])))
        if key in want:
            want.discard(key)
            continue
        v._x(c, "INSERT INTO {p}pool_rolls_rewound SELECT * FROM {p}pool_rolls WHERE position = ?", (row["position"],))
        v._x(c, "DELETE FROM {p}pool_rolls WHERE position = ?", (row["position"],))
    if not want:
        return
    v._x(c, "SELECT position, round, seat, dice FROM {p}pool_rolls_rewound WHERE resolution_id = ?"
            " ORDER BY position DESC", (oid,))
    for row in [dict(r) for r in c.fetchall()]:
        key = (row["round"], row["seat"], json.dumps(json.loads(row["dice"])))
        if key in want:
            want.discard(key)
            v._x(c, "INSERT INTO {p}pool_rolls SELECT * FROM {p}pool_rolls_rewound WHERE position = ?",
                 (row["position"],))
            v._x(c, "DELETE FROM {p}pool_rolls_rewound WHERE position = ?", (row["position"],))

@PROJECTION.on("PoolContest.Rolled")
def _pool_contest_rolled(v: Any, c, e, oid, campaign, at, nid) -> None:
    state = v._load_state(c, "challenges", "challenge_id", oid)
    _roll_line(v, c, nid, oid, campaign, state.sides[e.side]["seat"], at, "contest", e.round, e)



# -- reads ------------------------------------------------------------------------------------------------
def players(views: Any, campaign_id: UUID) -> list[dict[str, Any]]:
    return views.query("SELECT seat, name, joined_at FROM {p}pool_characters WHERE campaign_id = ?"
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


def unit_view(stakes: Any, campaign_id: UUID, unit: Any, viewer: Seat) -> shared.ResolutionView:
    row = stakes.views.query_one("SELECT pool FROM {p}pool_characters WHERE campaign_id = ? AND seat = ?",
                                 (campaign_id.hex, viewer.name))
    return shared.ResolutionView(id=unit.id, campaign_id=campaign_id, kind=type(unit).__name__, phase=unit.phase,
                                  state=unit.view_for(viewer.name),
                                  legal_actions=unit.legal_actions(viewer.name, row["pool"] if row else 0))
