"""The audit covers the read models (issue 29, ADR 0023): every row the projection keeps for a campaign, in
every shared and per-system table, must equal what the campaign's chain-verified events project to.

The check rebuilds the campaign's read models from its events into a scratch store of the same kind (a
temporary SQLite file, or a temporary PostgreSQL schema), with the very projection the service runs
(``ProjectionRunner`` and ``ViewsMixin.project``), and compares every row of the campaign, table by table,
with the live read models. The tables are ``views.projection_tables()``; a row belongs to the campaign when
its ``campaign_id`` is the campaign's, or (a table with no such column) when its first ``*_id`` column names
one of the campaign's streams. Nothing here names a rule system's concepts.

Order, so that commands arriving meanwhile never raise a false alarm: the live rows and the projection's
position are read first, in one snapshot of the read models; the events are read afterwards (the chain's
own snapshot, ``audit.verify``), so they hold every event up to that position, and only those are
projected into the scratch store.

A seat other than the House is told which table differs and how (a row altered, missing or foreign), never
a row's key or contents: a row may hold what only another seat may see (C-5).
"""

from __future__ import annotations

import bisect
import re
import shutil
import tempfile
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from adapters.chained import Note
from adapters.projection import ProjectionRunner, StoreUnavailable
from adapters.views import PostgresViews, ViewsMixin, ddl, projection_tables

#: Differences named in one report; the count of all of them is always given.
SHOWN = 50
#: Read-model checks one process runs at once (each holds a scratch store and a share of the interpreter);
#: a further audit waits up to ``WAIT`` seconds for its turn, then answers 503 (retry later).
AT_ONCE = 2
WAIT = 60.0
_turns = threading.BoundedSemaphore(AT_ONCE)


def _key_columns(table: str) -> tuple[str, ...]:
    """The table's primary key columns, as its DDL declares them (empty: the whole row is its key)."""
    for statement in ddl():
        head = f"CREATE TABLE IF NOT EXISTS {{p}}{table} ("
        if not statement.startswith(head):
            continue
        body = statement[len(head):]
        found = re.search(r"PRIMARY KEY \(([^)]*)\)", body)
        if found:
            return tuple(c.strip() for c in found.group(1).split(","))
        inline = re.search(r"(?:^|, ?)(\w+) [^,]*?PRIMARY KEY", body)
        if inline:
            return (inline.group(1),)
    return ()


#: PostgreSQL's type oid of ``uuid`` (the read models' ``{id}`` columns there).
UUID_OID = 2950


def _columns(views: ViewsMixin, c: Any, table: str) -> dict[str, bool]:
    """The table's columns, each with whether it is a PostgreSQL ``uuid`` (SQLite keeps ids as text)."""
    views._x(c, f"SELECT * FROM {{p}}{table} WHERE 1 = 0")
    return {d[0]: getattr(d, "type_code", None) == UUID_OID for d in getattr(c, "sqlite_cursor", c).description}


def _owner_column(columns: dict[str, bool]) -> tuple[str, bool] | None:
    """The column that ties a row to its campaign: (column, whether it holds the campaign itself)."""
    if "campaign_id" in columns:
        return "campaign_id", True
    ids = [c for c in columns if c.endswith("_id")]
    return (ids[0], False) if ids else None


def campaign_rows(views: ViewsMixin, c: Any, campaign_hex: str) -> dict[str, list[Any]]:
    """Every projected row of the campaign, by table, read with the cursor ``c`` (one snapshot), in the order
    of the table's key (of all its columns where it has none): the live store and the scratch one hand the
    same rows back in the same order however each wrote them, so they compare as lists, at C speed (ADR
    0039). Each statement can use the table's own index on its owner column. The rows are the store's own
    (SQLite's ``Row``, PostgreSQL's dict): ``differences`` makes dicts of a table's only where it differs."""
    out: dict[str, list[Any]] = {}
    for table in projection_tables():
        columns = _columns(views, c, table)
        owner = _owner_column(columns)
        order = " ORDER BY " + ", ".join(_key_columns(table) or columns)
        if owner is None:  # a table that names no campaign and no stream: all of it is compared
            views._x(c, f"SELECT * FROM {{p}}{table}{order}")
        elif owner[1]:  # an id as text casts to a uuid column on PostgreSQL, and matches a text one as it is
            views._x(c, f"SELECT * FROM {{p}}{table} WHERE campaign_id = ?{order}", (campaign_hex,))
        else:
            stream = "originator_id"  # the campaign's streams, spelt as the owner column keeps ids
            if isinstance(views, PostgresViews) and not columns[owner[0]]:
                stream = "replace(CAST(originator_id AS TEXT), '-', '')"
            views._x(c, f"SELECT * FROM {{p}}{table} WHERE {owner[0]} IN (SELECT {stream} FROM {{p}}streams"
                        f" WHERE campaign_id = ?){order}", (campaign_hex,))
        out[table] = c.fetchall()
    return out


def read_live(views: ViewsMixin, application_name: str, campaign_hex: str) -> tuple[int, dict[str, list[Any]]]:
    """The projection's position and the campaign's live rows, in one snapshot of the read models."""
    with views.datastore.transaction(commit=False) as c:  # type: ignore[attr-defined]
        if isinstance(views, PostgresViews):
            c.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        position = views._max_tracking_id(application_name, c) or 0  # type: ignore[attr-defined]
        rows = campaign_rows(views, c, campaign_hex)
    return position, rows


class _Log:
    """The campaign's events up to a position, served to ``ProjectionRunner`` as if they were the store's
    notification log (the runner asks for pages and the log's end)."""

    def __init__(self, notes: list[Note]) -> None:
        self.notes, self.ids = notes, [n.id for n in notes]

    def log_page(self, start: int, limit: int) -> list[Note]:
        first = bisect.bisect_left(self.ids, start)
        return self.notes[first:first + limit]

    def max_notification_id(self) -> int:
        return self.notes[-1].id if self.notes else 0


class _Replayed:
    def __init__(self, app: Any, notes: list[Note]) -> None:
        self.name, self.mapper, self.recorder = app.name, app.mapper, _Log(notes)


@contextmanager
def scratch_views(stakes: Any) -> Iterator[ViewsMixin]:
    """Empty read models of the live store's kind, for one check: a temporary SQLite file in a fresh temporary
    folder, or PostgreSQL temporary tables of one connection (``store.open_scratch_views``). Removed
    afterwards, also when the check fails: the folder deleted, the connection (and its tables) closed."""
    from adapters.store import open_scratch_views  # late: the store imports the views

    settings = stakes.settings
    folder = None
    if settings.store == "sqlite":
        folder = tempfile.mkdtemp(prefix="stakes-audit-")
        settings = settings.model_copy(update={"sqlite_path": Path(folder) / "scratch.sqlite"})
    views = None
    try:
        views = open_scratch_views(settings)
        views.transcoder = stakes.views.transcoder  # type: ignore[attr-defined]
        yield views
    finally:
        if views is not None:
            views.factory.close()  # type: ignore[attr-defined]
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)


def notifications(linked: list[dict[str, Any]], upto: int) -> list[Note]:
    """The campaign's chained events up to the position ``upto``, as the store's log hands them to the
    projection (``Note``: the stream's id as the store's text, ``log_page``)."""
    notes = [Note(r["notification_id"], str(r["e_oid"]), r["e_version"], r["e_topic"], bytes(r["e_state"]))
             for r in linked if r["e_oid"] is not None and r["notification_id"] <= upto]
    notes.sort(key=lambda n: n.id)
    return notes


def _frozen(row: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    return tuple(sorted((k, repr(v)) for k, v in row.items()))


def differences(live: dict[str, list[Any]], expected: dict[str, list[Any]]) -> list[dict[str, Any]]:
    """Every row that differs, table by table: ``altered`` (same key, other values), ``missing`` (projected
    from the events, absent from the live table) or ``foreign`` (in the live table, not from the events).
    The rows are mappings (dicts, or SQLite's rows)."""
    found: list[dict[str, Any]] = []
    for table in projection_tables():
        have, want = live.get(table, []), expected.get(table, [])
        # the same rows in the same order (the usual case: both were read in the key's order) compare at C
        # speed; else as dicts, as multisets, whatever the order
        if have == want:
            continue
        have, want = [dict(r) for r in have], [dict(r) for r in want]
        if have == want or Counter(map(_frozen, have)) == Counter(map(_frozen, want)):
            continue
        key_columns = _key_columns(table)

        def key(row: dict[str, Any], key_columns: tuple[str, ...] = key_columns) -> tuple[Any, ...]:
            return tuple(repr(row.get(k)) for k in key_columns) if key_columns else _frozen(row)

        have_by = {key(r): r for r in have}
        want_by = {key(r): r for r in want}
        before = len(found)
        for k, n in sorted(Counter(map(key, have)).items()):  # a key twice: a copy planted where no key is enforced
            if n > 1:
                row = have_by[k]
                found.append({"table": table, "kind": "foreign", "key": {c: row.get(c) for c in key_columns},
                              "columns": [], "found": row, "expected": None})
        for k in sorted(set(have_by) | set(want_by)):
            h, w = have_by.get(k), want_by.get(k)
            if h == w:
                continue
            row_key = {c: (w or h or {}).get(c) for c in key_columns}
            if h is None:
                found.append({"table": table, "kind": "missing", "key": row_key, "columns": [], "found": None,
                              "expected": w})
            elif w is None:
                found.append({"table": table, "kind": "foreign", "key": row_key, "columns": [], "found": h,
                              "expected": None})
            else:
                columns = sorted(c for c in set(h) | set(w) if h.get(c) != w.get(c))
                found.append({"table": table, "kind": "altered", "key": row_key, "columns": columns,
                              "found": {c: h.get(c) for c in columns}, "expected": {c: w.get(c) for c in columns}})
        if len(found) == before:  # the rows differ, though no key shows how: say so for the table
            found.append({"table": table, "kind": "altered", "key": None, "columns": [], "found": None,
                          "expected": None})
    return found


@contextmanager
def scratch_soon(stakes: Any) -> Iterator[Callable[[], ViewsMixin]]:
    """One check's turn (``AT_ONCE``) and its scratch store, made in a thread meanwhile (ADR 0043): the caller
    reads the live rows and the chain while the store makes the scratch tables (on PostgreSQL, about 50 to 100
    ms of the server's, waited for in round trips). Yields the function that waits for the scratch store (and
    raises what making it raised); the store is removed afterwards, as ``scratch_views`` says."""
    if not _turns.acquire(timeout=WAIT):
        raise StoreUnavailable(f"{AT_ONCE} audits of the read models are running in this process; retry later")
    made: dict[str, Any] = {}

    def make() -> None:
        try:
            opened = scratch_views(stakes)
            made["views"] = opened.__enter__()
            made["opened"] = opened
        except BaseException as error:  # raised in the caller's thread, when it asks for the store
            made["error"] = error

    maker = threading.Thread(target=make, name="stakes-audit-scratch", daemon=True)
    maker.start()

    def scratch() -> ViewsMixin:
        maker.join()
        if "error" in made:
            raise made["error"]
        views: ViewsMixin = made["views"]
        return views

    try:
        yield scratch
    finally:
        maker.join()
        try:
            if "opened" in made:
                made["opened"].__exit__(None, None, None)
        finally:
            _turns.release()


def check(stakes: Any, campaign_hex: str, position: int, live: dict[str, list[Any]],
          linked: list[dict[str, Any]], progress: Callable[[int, int], None] | None = None,
          scratch: Callable[[], ViewsMixin] | None = None) -> list[dict[str, Any]]:
    """Project the campaign's events up to ``position`` into a scratch store (``scratch``, from ``scratch_soon``;
    made here unless given) and compare its rows with ``live``; returns the differences (empty: the read
    models are what the events say)."""
    notes = notifications(linked, position)
    if scratch is None:
        with scratch_soon(stakes) as made:
            return _check(made(), campaign_hex, stakes, live, notes, progress)
    return _check(scratch(), campaign_hex, stakes, live, notes, progress)


def _check(scratch: ViewsMixin, campaign_hex: str, stakes: Any, live: dict[str, list[Any]], notes: list[Note],
           progress: Callable[[int, int], None] | None) -> list[dict[str, Any]]:
    runner = ProjectionRunner(_Replayed(stakes.app, notes), scratch, analyze=False)
    # the runner counts against the log's last position; the campaign's events are what is checked
    runner.catch_up(None if progress is None else lambda done, _: progress(done, len(notes)))
    with scratch.datastore.transaction(commit=False) as c:  # type: ignore[attr-defined]
        expected = campaign_rows(scratch, c, campaign_hex)
    return differences(live, expected)



def _describe(d: dict[str, Any], house: bool) -> str:
    if not house:
        return (f"table {d['table']}: {d['rows']} row(s) of the campaign {d['kind']} "
                "(not what the campaign's events project to)")
    key = ", ".join(f"{k}={v}" for k, v in (d["key"] or {}).items()) or "a row"
    if d["kind"] == "altered":
        change = "; ".join(f"{c} is {d['found'][c]!r}, the events say {d['expected'][c]!r}" for c in d["columns"])
        return f"table {d['table']}, row {key}: altered ({change})"
    if d["kind"] == "missing":
        return f"table {d['table']}, row {key}: missing (the events make it; the table lacks it)"
    return f"table {d['table']}, row {key}: foreign (no event of the campaign makes it)"


def report(base: Any, found: list[dict[str, Any]], house: bool) -> Any:
    """``base`` (an intact chain's report) with the read models' verdict; a seat other than the House learns
    only tables, kinds and counts (C-5)."""
    from adapters.schemas import BrokenLink, ReadModelDifference

    if not found:
        return base.model_copy(update={"read_models": "intact"})
    if house:
        shown = [ReadModelDifference(rows=1, **d) for d in found[:SHOWN]]
    else:
        counted = Counter((d["table"], d["kind"]) for d in found)
        shown = [ReadModelDifference(table=t, kind=k, rows=n) for (t, k), n in counted.items()]
    first = shown[0].model_dump()
    detail = _describe(first, house) + (f"; {len(found)} row(s) differ in all" if len(found) > 1 else "")
    return base.model_copy(update={
        "intact": False, "read_models": "altered", "read_model_rows": len(found), "read_model_differences": shown,
        "first_broken": BrokenLink(position=0, notification_id=None, kind="read-model-altered", detail=detail)})
