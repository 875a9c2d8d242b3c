"""The campaign chart (issue 31, ADR 0035): each character's tracked quantity over the campaign, as points.

Each system says what its sheets track through its adapter module's ``TRACKED`` (:class:`adapters.plugin.Tracked`):
the quantity's label, the event that starts a character's line and the events that move it. This module keeps
two read-model tables from them, in the projection's own transaction (``ViewsMixin._apply``), so a rebuild
writes the very rows the commands wrote one by one:

- ``chart_lines``: one row per character: whose sheet it is, its name, who may see it (C-5), its value now and
  how many points it has;
- ``chart_points``: one row each time the value changed: the line, its ordinal ``n`` (1, 2, 3 ...), the
  entry's number in the campaign's log, the time and the new value.

A read never replays the log: it reads the lines, then at most ``limit`` points of each, chosen by ordinal
through the primary key (evenly spaced, first and last kept), so its cost does not grow with the campaign.
Nothing here names a rule system's concepts.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime
from typing import Any
from uuid import UUID

from pydantic import BaseModel, Field

TABLES = ("chart_lines", "chart_points")

DDL = (
    "CREATE TABLE IF NOT EXISTS {p}chart_lines (line_id TEXT PRIMARY KEY, campaign_id TEXT NOT NULL,"
    " position BIGINT NOT NULL, seat TEXT NOT NULL, name TEXT NOT NULL, seen_by TEXT NOT NULL,"
    " value BIGINT NOT NULL, points BIGINT NOT NULL)",
    "CREATE INDEX IF NOT EXISTS chart_lines_by_campaign ON {p}chart_lines (campaign_id, position)",
    "CREATE TABLE IF NOT EXISTS {p}chart_points (line_id TEXT NOT NULL, n BIGINT NOT NULL,"
    " campaign_id TEXT NOT NULL, position BIGINT NOT NULL, at TEXT NOT NULL, value BIGINT NOT NULL,"
    " PRIMARY KEY (line_id, n))",
)

#: Points a read gives per line by default, and at most.
DEFAULT_POINTS = 200
MAX_POINTS = 1000

POINT_INSERT = "INSERT INTO {p}chart_points VALUES (?, ?, ?, ?, ?, ?)"


# -- what the systems track ----------------------------------------------------------------------------------
def tracked(system_id: str) -> Any:
    """The system's :class:`adapters.plugin.Tracked`, or None when its sheets track no quantity."""
    from adapters.systems import edge

    return getattr(edge(system_id), "TRACKED", None)


def _by_event() -> dict[str, tuple[bool, Callable[[Any], Any]]]:
    """Every tracked event of every playable system: name -> (whether it starts a line, its reader)."""
    from adapters.systems import edges

    found: dict[str, tuple[bool, Callable[[Any], Any]]] = {}
    for module in edges():
        spec = getattr(module, "TRACKED", None)
        if spec is None:
            continue
        found.update({name: (True, read) for name, read in spec.starts.items()})
        found.update({name: (False, read) for name, read in spec.moves.items()})
    return found


def events() -> dict[str, tuple[bool, Callable[[Any], Any]]]:
    from adapters.views import _per_registry  # late: views imports this module

    found: dict[str, tuple[bool, Callable[[Any], Any]]] = _per_registry("chart", _by_event)
    return found


# -- the projection ----------------------------------------------------------------------------------------------
LINE_INSERT = "INSERT INTO {p}chart_lines VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
LINE_UPDATE = "UPDATE {p}chart_lines SET value = ?, points = ? WHERE line_id = ?"


def _lines(views: Any, c: Any) -> dict[str, Any] | None:
    """The lines this batch touched, in memory (line id -> [row values, is it new]; None: a stream with no
    line), written once at its end by ``flush``; None outside a batch."""
    found = views.__dict__.get("_batch_chart")
    return found[1] if found is not None and found[0] is c else None


def project(views: Any, c: Any, e: Any, name: str, oid: str, campaign: str, at: str, seq: int) -> None:
    """Record what event ``e`` (``name``, of stream ``oid``, entry ``seq`` of ``campaign``'s log) does to the
    tracked quantity: a new line with its first point, or a point when the value changed."""
    found = events().get(name)
    if found is None:
        return
    starts, read = found
    batch = _lines(views, c)
    lines: dict[str, Any] = {} if batch is None else batch  # outside a batch: written at once (``_written``)
    if starts:
        line = read(e)
        row = {"line_id": oid, "campaign_id": campaign, "position": seq, "seat": line.seat, "name": line.name,
               "seen_by": "" if line.seen_by is None else json.dumps(sorted(line.seen_by)), "value": line.value,
               "points": 1}
        lines[oid] = [row, True]
        views._insert_later(c, POINT_INSERT, (oid, 1, campaign, seq, at, line.value))
        _written(views, c, lines, oid)
        return
    delta = int(read(e))
    if not delta:
        return
    if oid not in lines:
        known = views._one(c, "SELECT * FROM {p}chart_lines WHERE line_id = ?", (oid,))
        lines[oid] = None if known is None else [dict(known), False]
    entry = lines[oid]
    if entry is None:  # a stream whose first event started no line: nothing to chart
        return
    row = entry[0]
    row["value"] += delta
    row["points"] += 1
    views._insert_later(c, POINT_INSERT, (oid, row["points"], campaign, seq, at, row["value"]))
    _written(views, c, lines, oid)


def _written(views: Any, c: Any, lines: dict[str, Any], oid: str) -> None:
    """Outside a batch (no cache kept), the line is written at once."""
    if _lines(views, c) is None:
        flush(views, c, {oid: lines[oid]})


def flush(views: Any, c: Any, lines: dict[str, Any] | None = None) -> None:
    """Write the lines the batch touched: the new ones inserted, the others updated, once each."""
    lines = _lines(views, c) if lines is None else lines
    if not lines:
        return
    fresh = [tuple(e[0].values()) for e in lines.values() if e is not None and e[1]]
    changed = [(e[0]["value"], e[0]["points"], e[0]["line_id"]) for e in lines.values() if e is not None and not e[1]]
    if fresh:
        views._insert_many(c, LINE_INSERT, fresh)
    if changed:
        c.executemany(views._sql(LINE_UPDATE), changed)
    lines.clear()


# -- the read ------------------------------------------------------------------------------------------------
class ChartPoint(BaseModel):
    position: int = Field(description="The entry's number in the campaign's log (``GET …/log``) that changed it.")
    at: datetime
    value: int


class ChartLine(BaseModel):
    seat: str = Field(description="Whose sheet: the player's seat, or ``house`` for a House character.")
    name: str = Field(description="The character's name.")
    value: int = Field(description="The value now.")
    recorded: int = Field(description="How many points the campaign recorded for this line.")
    points: list[ChartPoint] = Field(description="Oldest first; evenly chosen when ``recorded`` > the limit, "
                                                 "the first and the last always kept.")


class CampaignChart(BaseModel):
    campaign_id: UUID
    system: str
    label: str = Field(description="What the lines track, as the system names it.")
    ruling: str = Field(description="The ruling that says the sheets track it.")
    limit: int = Field(description="Points given per line at most.")
    sampled: bool = Field(description="Whether some line had more points than the limit.")
    lines: list[ChartLine] = Field(description="The characters whose sheets the viewing seat may see (C-5).")


def ordinals(recorded: int, limit: int) -> list[int]:
    """At most ``limit`` (>= 2) ordinals out of 1 … ``recorded``, evenly spaced, the first and the last kept."""
    if recorded <= limit:
        return list(range(1, recorded + 1))
    step = (recorded - 1) / (limit - 1)
    return sorted({1 + round(i * step) for i in range(limit)})


def chart(stakes: Any, campaign_id: UUID, viewer: Any, limit: int = DEFAULT_POINTS) -> CampaignChart:
    """The campaign's chart as ``viewer``'s seat may see it: a line is left out when its sheet is hidden from
    the seat (C-5). Bounded: at most ``limit`` points per line whatever the campaign's length."""
    from domain.errors import RuleViolation

    if not 2 <= limit <= MAX_POINTS:
        raise RuleViolation(f"a chart gives 2 to {MAX_POINTS} points per line, not {limit}")
    campaign = stakes.viewer(campaign_id, viewer)
    spec = tracked(campaign.system)
    if spec is None:  # C-1: each system keeps its own books
        raise RuleViolation(f"a {campaign.system} campaign tracks no quantity on its sheets", ruling="C-1")
    views = stakes.views
    lines: list[ChartLine] = []
    sampled = False
    with views.reading():
        rows = views.query("SELECT * FROM {p}chart_lines WHERE campaign_id = ? ORDER BY position, line_id",
                           (campaign_id.hex,))
        for row in rows:
            if row["seen_by"] and viewer.name not in json.loads(row["seen_by"]):
                continue  # C-5: a sheet this seat does not see is not on its chart
            wanted = ordinals(row["points"], limit)
            sampled = sampled or len(wanted) < row["points"]
            points = views.query(
                "SELECT position, at, value FROM {p}chart_points WHERE line_id = ? AND n IN ("
                + ", ".join("?" * len(wanted)) + ") ORDER BY n", (row["line_id"], *wanted))
            lines.append(ChartLine(seat=row["seat"], name=row["name"], value=row["value"], recorded=row["points"],
                                   points=[ChartPoint(**p) for p in points]))
    return CampaignChart(campaign_id=campaign_id, system=campaign.system, label=spec.label, ruling=spec.ruling,
                         limit=limit, sampled=sampled, lines=lines)
