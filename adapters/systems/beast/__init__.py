"""Humanity and Beast's adapter: its read models and projection, its sheet, the House's characters and the
view of its rolls and conflicts (BE-1 … BE-12, C-5)."""

from __future__ import annotations

import json
from typing import Any
from uuid import UUID

from adapters.luck import dice_luck
from adapters.plugin import Answer, Line, Projection, ProjectionContext, Read, Tracked
from adapters.systems.beast import schemas
from domain.errors import NotFound
from domain.seats import Seat

PROJECTION = Projection(
    tables=("beast_characters", "beast_history", "beast_history_aside", "beast_rewinds"),
    ddl=(
        "CREATE TABLE IF NOT EXISTS {p}beast_characters (character_id TEXT PRIMARY KEY, campaign_id TEXT NOT NULL,"
        " seat TEXT NOT NULL, name TEXT NOT NULL, antagonist BIGINT NOT NULL, humanity BIGINT NOT NULL,"
        " willpower BIGINT NOT NULL, willpower_max BIGINT NOT NULL, joined_at TEXT NOT NULL)",
        "CREATE INDEX IF NOT EXISTS beast_characters_by_campaign ON {p}beast_characters (campaign_id, seat)",
        "CREATE TABLE IF NOT EXISTS {p}beast_history (position BIGINT NOT NULL, campaign_id TEXT NOT NULL,"
        " character_id TEXT NOT NULL, unit_id TEXT, step BIGINT NOT NULL, at TEXT NOT NULL, what TEXT NOT NULL,"
        " detail TEXT NOT NULL, PRIMARY KEY (position, character_id))",
        "CREATE INDEX IF NOT EXISTS beast_history_by_character ON {p}beast_history (character_id, position)",
        "CREATE INDEX IF NOT EXISTS beast_history_by_unit ON {p}beast_history (unit_id)",
        # the lines a rewind took off the sheets, kept to come back when a later rewind returns to a step that
        # had them (C-6, issue 30: a step of another timeline), and every rewind of a unit (its version, the
        # step it went back to): which lines a step had follows from them
        "CREATE TABLE IF NOT EXISTS {p}beast_history_aside (position BIGINT NOT NULL, campaign_id TEXT NOT NULL,"
        " character_id TEXT NOT NULL, unit_id TEXT, step BIGINT NOT NULL, at TEXT NOT NULL, what TEXT NOT NULL,"
        " detail TEXT NOT NULL, PRIMARY KEY (position, character_id))",
        "CREATE INDEX IF NOT EXISTS beast_history_aside_by_unit ON {p}beast_history_aside (unit_id)",
        "CREATE TABLE IF NOT EXISTS {p}beast_rewinds (unit_id TEXT NOT NULL, version BIGINT NOT NULL,"
        " to_step BIGINT NOT NULL, PRIMARY KEY (unit_id, version))",
    ),
    rows=3,  # 2: a sheet's history notes an overturned result (C-6); 3: a conflict's outcome names whom it was against
)

SHEET = schemas.BeastSheet
UNITS = (schemas.BeastView,)


@PROJECTION.summarises
def _summary(unit: Any) -> dict[str, Any]:
    """Who takes part, by name (an antagonist's name too, which the table shows every seat), and the action's
    difficulty: a unit's line in the lists reads "Ilse Varn against Sheriff Cole" (issue 31)."""
    found: dict[str, Any] = {"kind": unit.kind, "names": [str(d["name"]) for d in unit.sides.values()]}
    if unit.kind == "action":
        found["difficulty"] = unit.difficulty
    return found


def _rules() -> Any:
    """The system's rules, imported late: a CLI against a server reads these schemas without the domain."""
    from domain.systems.beast import rules

    return rules


# -- projection ------------------------------------------------------------------------------------------
def _line(p: ProjectionContext, nid: int, campaign: str, character: str, unit: str | None, step: int, at: str,
          what: str, detail: dict[str, Any]) -> None:
    p.execute("INSERT INTO {p}beast_history VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
         (nid, campaign, character, unit, step, at, what, json.dumps(detail)))


def _created(seat: str | None):
    def handler(p: ProjectionContext, e, oid, campaign, at, nid) -> None:
        p.execute("INSERT INTO {p}beast_characters VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
             (oid, campaign, seat or e.seat, e.name, int(seat is not None), e.humanity, e.willpower_max,
              e.willpower_max, at))
    return handler


def _adjusted(p: ProjectionContext, e, oid, campaign, at, nid) -> None:
    p.execute("UPDATE {p}beast_characters SET willpower = willpower + ?, humanity = humanity + ?"
            " WHERE character_id = ?", (e.willpower, e.humanity, oid))
    _line(p, nid, campaign, oid, e.unit, 0, at, "adjusted",
          {"willpower": e.willpower, "humanity": e.humanity, "why": e.why})


def _restored(p: ProjectionContext, e, oid, campaign, at, nid) -> None:
    p.execute("UPDATE {p}beast_characters SET willpower = willpower + ? WHERE character_id = ?", (e.amount, oid))
    _line(p, nid, campaign, oid, None, 0, at, "restored", {"willpower": e.amount})


for _kind, _seat in (("BeastCharacter", None), ("BeastAntagonist", "house")):
    PROJECTION.on(f"{_kind}.Created")(_created(_seat))
    PROJECTION.on(f"{_kind}.Adjusted")(_adjusted)
    PROJECTION.on(f"{_kind}.WillpowerRestored")(_restored)


def _unit_line(what: str, detail) -> Any:
    def handler(p: ProjectionContext, e, oid, campaign, at, nid) -> None:
        unit = p.unit(oid)
        for side, found in detail(e, unit).items():
            _line(p, nid, campaign, unit.sides[side]["character"], oid, e.originator_version, at, what, found)
    return handler


def _roll_detail(e: Any, unit: Any) -> dict[str, Any]:
    roll = e.roll
    return {e.side: {"kind": unit.kind, "difficulty": unit.difficulty,
                     "difficulty_name": _rules().DIFFICULTIES.get(unit.difficulty or 0),  # BE-13
                     "humanity": roll["humanity"],
                     "beast": roll["beast"], "willpower_before": roll["willpower_before"],
                     "dice": [_rules().die_text(d) for d in roll["dice"]], "score": roll["score"]}}


def _reroll_detail(e: Any, unit: Any) -> dict[str, Any]:
    """A reroll's line, once drawn: an antagonist's chosen reroll is drawn with the players' fresh seeds and has
    its line then (``RerollDrawnInSecret``, C-9)."""
    if not e.reroll or e.reroll.get("pending"):
        return {}
    return {e.side: {"die": e.reroll["die"], "was": e.reroll["was"], "chain": e.reroll["chain"]}}


def _outcome_detail(e: Any, unit: Any) -> dict[str, Any]:
    """Each character's own part of the outcome (an antagonist's damage and check are the House's, C-5)."""
    out = e.outcome
    return {side: {"kind": unit.kind, "success": out["success"], "winner": out["winner"],
                   "won": None if out["winner"] is None else out["winner"] == side,
                   "willpower_lost": out["damage"].get(side, 0), "check": out["checks"].get(side),
                   "score": e.rolls[side]["score"],
                   # whom a conflict was against, by the name every seat knows (BE-6)
                   **({"against": unit.sides[unit.other(side)]["name"]} if unit.kind == "conflict" else {})}
            for side in unit.sides}


def _check_detail(e: Any, unit: Any) -> dict[str, Any]:
    return {e.side: dict(e.check)}


def _overturned_detail(e: Any, unit: Any) -> dict[str, Any]:
    """C-6: every side's sheet notes the House's overturn, with its reason: the result that stands now (a new
    winner, or none: void), so the history does not go on saying the old one."""
    return {side: {"kind": unit.kind, "void": bool(e.void), "reason": e.reason,
                   "won": None if e.void or e.winner is None else e.winner == side} for side in unit.sides}


def _abandoned_detail(e: Any, unit: Any) -> dict[str, Any]:
    """C-10: every side's sheet notes the unit abandoned, with the House's reason (no damage)."""
    return {side: {"kind": unit.kind, "reason": e.reason} for side in unit.sides}


for _event, _what, _detail in (("Rolled", "roll", _roll_detail), ("RolledInSecret", "roll", _roll_detail),
                               ("Decided", "reroll", _reroll_detail), ("DecidedInSecret", "reroll", _reroll_detail),
                               ("RerollDrawnInSecret", "reroll", _reroll_detail),
                               ("Resolved", "outcome", _outcome_detail), ("Checked", "check", _check_detail),
                               ("CheckedInSecret", "check", _check_detail),
                               ("Abandoned", "abandoned", _abandoned_detail),
                               ("Overturned", "overturned", _overturned_detail)):
    PROJECTION.on(f"BeastRoll.{_event}")(_unit_line(_what, _detail))


@PROJECTION.on("BeastRoll.Rewound")
def _rewound(p: ProjectionContext, e, oid, campaign, at, nid) -> None:
    """The sheets' history holds the lines the step rewound to had (C-6, issue 30 item 3), whichever timeline
    the step belongs to; the sheets' own changes (a line with no step) stay. A line's ``step`` is the unit's
    version that wrote it. What step k had: the lines written since the last rewind at or before k, and what
    the step that rewind went back to had, and so on back to the first version. The lines a rewind takes off
    wait in ``beast_history_aside`` and come back when a later rewind returns to a step that had them (a store
    whose lines an older projection deleted gets them back by a rebuild)."""
    k = e.to_step
    p.execute("INSERT INTO {p}beast_rewinds VALUES (?, ?, ?)", (oid, e.originator_version, k))
    rewinds = {r["version"]: r["to_step"] for r in p.rows(
        "SELECT version, to_step FROM {p}beast_rewinds WHERE unit_id = ? AND version <= ?", (oid, k))}
    spans, at_step = [], k  # the versions (lo, hi] whose lines step k had
    while True:
        last = max((r for r in rewinds if r <= at_step), default=0)
        spans.append((last, at_step))
        if not last:
            break
        at_step = rewinds[last]

    def had(step: int) -> bool:
        return any(lo < step <= hi for lo, hi in spans)

    columns = "position, campaign_id, character_id, unit_id, step, at, what, detail"
    for here, there in (("beast_history", "beast_history_aside"), ("beast_history_aside", "beast_history")):
        keep = here == "beast_history"
        for row in p.rows(f"SELECT position, character_id, step FROM {{p}}{here} WHERE unit_id = ? AND step > 0",
                          (oid,)):
            if had(row["step"]) != keep:
                p.execute(f"INSERT INTO {{p}}{there} SELECT {columns} FROM {{p}}{here} WHERE position = ?"
                          " AND character_id = ?", (row["position"], row["character_id"]))
                p.execute(f"DELETE FROM {{p}}{here} WHERE position = ? AND character_id = ?",
                          (row["position"], row["character_id"]))


# -- reads ------------------------------------------------------------------------------------------------
def players(views: Any, campaign_id: UUID) -> list[dict[str, Any]]:
    return views.query("SELECT seat, name, joined_at, character_id FROM {p}beast_characters WHERE campaign_id = ?"
                       " AND antagonist = 0 ORDER BY joined_at, seat", (campaign_id.hex,))


def _history(views: Any, character_id: str, what: str | None = None) -> list[schemas.BeastLine]:
    extra, params = (" AND what = ?", (character_id, what)) if what else ("", (character_id,))
    rows = views.query("SELECT * FROM {p}beast_history WHERE character_id = ?" + extra +
                       " ORDER BY position DESC LIMIT 50", params)
    return [schemas.BeastLine(at=r["at"], unit=UUID(r["unit_id"]) if r["unit_id"] else None, what=r["what"],
                              detail=json.loads(r["detail"])) for r in rows]


def sheet(stakes: Any, campaign_id: UUID, seat: str) -> schemas.BeastSheet:
    row = stakes.views.query_one("SELECT * FROM {p}beast_characters WHERE campaign_id = ? AND seat = ?"
                                 " AND antagonist = 0", (campaign_id.hex, seat))
    if row is None:
        raise NotFound(f"no player named {seat!r} sits in this campaign")
    lost = row["humanity"] == 0
    return schemas.BeastSheet(
        seat=seat, name=row["name"], humanity=row["humanity"], beast=_rules().DICE - row["humanity"],
        willpower=row["willpower"], willpower_max=row["willpower_max"], lost=lost,
        status="lost to the Beast (BE-7): no more rolls" if lost else "playing",
        history=_history(stakes.views, row["character_id"]),
        checks=_history(stakes.views, row["character_id"], "check"))


def house_characters(stakes: Any, campaign_id: UUID, viewer: Seat) -> list[schemas.HouseCharacter]:
    """The House's antagonists: their sheets for the House, their names for the players (C-5)."""
    stakes.viewer(campaign_id, viewer)
    rows = stakes.views.query("SELECT * FROM {p}beast_characters WHERE campaign_id = ? AND antagonist = 1"
                              " ORDER BY joined_at, name", (campaign_id.hex,))
    if not viewer.is_house:
        return [schemas.HouseCharacter(name=r["name"]) for r in rows]
    return [schemas.HouseCharacter(name=r["name"], humanity=r["humanity"], beast=_rules().DICE - r["humanity"],
                                   willpower=r["willpower"], willpower_max=r["willpower_max"],
                                   lost=r["humanity"] == 0, history=_history(stakes.views, r["character_id"]))
            for r in rows]


def legal_actions(stakes: Any, campaign_id: UUID, unit: Any, viewer: Seat) -> list[Any]:
    """The viewer's moves in the unit, without the rest of its view (who the table waits for, issue 30)."""
    return unit.legal_actions(viewer.name, _sheets(stakes, unit))


def unit_view(stakes: Any, campaign_id: UUID, unit: Any, viewer: Seat) -> schemas.BeastView:
    return schemas.BeastView(id=unit.id, campaign_id=campaign_id, kind=type(unit).__name__, phase=unit.phase,
                             state=unit.view_for(viewer.name), legal_actions=legal_actions(stakes, campaign_id, unit,
                                                                                           viewer))


def _sheets(stakes: Any, unit: Any) -> dict[str, Any]:
    sheets = {}
    for side, data in unit.sides.items():
        row = stakes.views.query_one("SELECT humanity, willpower, willpower_max FROM {p}beast_characters"
                                     " WHERE character_id = ?", (data["character"],))
        sheets[side] = {"humanity": row["humanity"], "beast": _rules().DICE - row["humanity"], "willpower": row["willpower"],
                        "willpower_max": row["willpower_max"]}
    return unit.values_now(sheets)  # what this unit did to an antagonist, before its sheet shows it (C-5)


def restored_sheet(stakes: Any, ctx: Any, command: Any, result: Any) -> schemas.BeastSheet | schemas.HouseCharacter:
    """What ``willpower restore`` answers (BE-8, issue 31): the player's sheet, or the antagonist's as the House
    sees it (only the House restores)."""
    row = stakes.views.query_one("SELECT seat, name, antagonist FROM {p}beast_characters WHERE character_id = ?",
                                 (str(result),))
    if not row["antagonist"]:
        return sheet(stakes, ctx.campaign_id, row["seat"])
    return next(a for a in house_characters(stakes, ctx.campaign_id, ctx.actor) if a.name == row["name"])


ANSWERS: dict[str, Answer] = {
    "restored-sheet": Answer(schemas.BeastSheet | schemas.HouseCharacter, restored_sheet),
    "house-characters": Answer(list[schemas.HouseCharacter],
                               lambda stakes, ctx, command, result: house_characters(stakes, ctx.campaign_id,
                                                                                     ctx.actor)),
}
READS: tuple[Read, ...] = (
    Read("house-characters", "/house-characters", list[schemas.HouseCharacter], house_characters,
         "antagonist sheets", "The House's antagonists: their sheets for the House, their names for the players "
         "(BE-1, C-5).", "House characters' sheet", ("adventures and the House",)),
)


# -- the chart (issue 31): current Willpower over the campaign (BE-1); an antagonist's line is the House's (C-5)
TRACKED = Tracked(
    label="Willpower", ruling="BE-1",
    starts={
        "BeastCharacter.Created": lambda e: Line(seat=e.seat, name=e.name, value=e.willpower_max),
        "BeastAntagonist.Created": lambda e: Line(seat=Seat.house().name, name=e.name, value=e.willpower_max,
                                                  seen_by=(Seat.house().name,)),
    },
    moves={
        **{f"{kind}.Adjusted": (lambda e: e.willpower) for kind in ("BeastCharacter", "BeastAntagonist")},
        **{f"{kind}.WillpowerRestored": (lambda e: e.amount) for kind in ("BeastCharacter", "BeastAntagonist")},
    },
)


# -- the luck report (issue 31, ADR 0035): every die is a fair d10 (BE-2) -------------------------------------
LUCK = dice_luck(10)
