"""The event store's recorders, extended so the hash chain is part of every write (C-2).

Each event appended to the store gets its link in ``<events>_chain`` in the SAME transaction: its campaign,
its position in that campaign's log, a fresh random salt, its salted digest and the running chain
(``adapters/audit.py``); the campaign's head in ``<events>_chain_head`` (its size, last link, Merkle compact
range and root) is brought up to date once per write. The store serialises appends (SQLite's write lock,
PostgreSQL's table lock taken by the library), so reading the campaign's head inside the transaction is
race-free. A row written into the events table any other way has no link, and the audit reports it.

Snapshots (``<snapshots>``) are caches: each is sealed with a MAC under the server's key when stored
(``<snapshots>_seal``), and one whose seal does not verify is never loaded: the aggregate is replayed
from its events instead. The audit also replays each snapshot's stream and compares.
"""

from __future__ import annotations

import secrets
import sys
import threading
from collections.abc import Sequence
from typing import Any, NamedTuple
from uuid import UUID

from eventsourcing.persistence import StoredEvent
from eventsourcing.sqlite import SQLiteAggregateRecorder, SQLiteFactory
from psycopg.rows import tuple_row
from psycopg.sql import SQL

from adapters import audit, codec, merkle, recorders


class Note(NamedTuple):
    """A stored event as the projection reads the log (``log_page``; ADR 0037): the library's ``Notification``
    without its frozen dataclass and its id conversion. ``originator_id`` is the store's text of the id (hex on
    SQLite, hyphenated on PostgreSQL): the projection keeps ids as hex, and the library's mapper converts it
    when it decodes."""

    id: int
    originator_id: str
    originator_version: int
    topic: str
    state: bytes


class ChainMixin:
    """Dialect-free: statements use ``?`` and ``{chain}``, ``{events}``, ``{nid}``; each class spells them."""

    mark = "?"
    chain_table = head_table = events_table = nid = ""
    #: Per thread: the campaigns' heads the thread's last write produced (``written``); one per recorder.
    _written: threading.local

    def q(self, statement: str) -> str:
        return (statement.replace("{chain}", self.chain_table).replace("{head}", self.head_table)
                .replace("{events}", self.events_table).replace("{nid}", self.nid).replace("?", self.mark))

    #: How the chain keeps a link's campaign: its hex on SQLite, a 16-byte uuid on PostgreSQL (ADR 0018).
    campaign_type = "TEXT"

    def chain_ddl(self, key_type: str, oid_type: str, bytes_type: str) -> list[str]:
        return [self.q(
            f"CREATE TABLE IF NOT EXISTS {{chain}} (notification_id {key_type} PRIMARY KEY,"
            f" campaign_id {self.campaign_type} NOT NULL,"
            f" position BIGINT NOT NULL, originator_id {oid_type} NOT NULL, originator_version BIGINT NOT NULL,"
            f" salt {bytes_type} NOT NULL, digest {bytes_type} NOT NULL, chain {bytes_type} NOT NULL,"
            " UNIQUE (campaign_id, position))"),
            self.q("CREATE TABLE IF NOT EXISTS {head} (campaign_id TEXT PRIMARY KEY, position BIGINT NOT NULL,"
                   " chain TEXT NOT NULL, frontier TEXT NOT NULL, root TEXT NOT NULL)")]

    #: Whether the link's salt, digest and chain are stored as bytes (half the size of their hex); a
    #: PostgreSQL store created before keeps them as text. Learnt from the table on first write.
    binary: bool | None = None

    def _hash_param(self, c: Any, value: str) -> Any:
        if self.binary is None:
            self.binary = self.chain_columns(c).get("salt", "").lower() not in ("text", "character varying")
        return bytes.fromhex(value) if self.binary else value

    def _link(self, c: Any, events: Sequence[StoredEvent], nids: Sequence[int], salts: Sequence[str] | None) -> None:
        """Append each new event to its campaign's chain, inside the transaction that stores it."""
        streams: dict[str, str] = {}
        last: dict[str, tuple[int, str, list[bytes]]] = {}
        links: list[tuple[Any, ...]] = []
        for i, (s, nid) in enumerate(zip(events, nids, strict=True)):
            oid = UUID(str(s.originator_id)).hex
            if oid in streams:
                campaign = streams[oid]
            elif s.originator_version == 1:  # the stream begins in this write: its own first event names it
                campaign = audit.campaign_in_state(s) or ""
            else:
                campaign = self._stream_campaign(c, oid)
            streams[oid] = campaign
            if campaign not in last:
                c.execute(self.q("SELECT position, chain, frontier FROM {head} WHERE campaign_id = ?"), (campaign,))
                row = c.fetchone()
                last[campaign] = (row["position"], row["chain"], audit.unpack(row["frontier"])) if row \
                    else (0, audit.GENESIS, [])
            position, previous, frontier = last[campaign]
            salt = salts[i] if salts else secrets.token_hex(16)
            d = audit.digest(oid, s.originator_version, s.topic, codec.plain(s.state), salt)  # of the JSON
            link = audit.link(previous, d)
            frontier = merkle.extend(frontier, position, audit.leaves([d])[0])
            links.append((nid, self.campaign_param(campaign), position + 1, self.oid_param(oid), s.originator_version,
                          self._hash_param(c, salt), self._hash_param(c, d), self._hash_param(c, link)))
            last[campaign] = (position + 1, link, frontier)
        if links:  # one statement for the write's links (PostgreSQL: one round trip, not one a link)
            c.executemany(self.q("INSERT INTO {chain} VALUES (?, ?, ?, ?, ?, ?, ?, ?)"), links)
        heads: dict[str, tuple[int, bytes]] = {}
        for campaign, (position, link, frontier) in last.items():  # the head: once per campaign and write
            head = heads[campaign] = position, merkle.frontier_root(frontier)
            c.execute(self.q(
                "INSERT INTO {head} VALUES (?, ?, ?, ?, ?) ON CONFLICT (campaign_id) DO UPDATE SET"
                " position = excluded.position, chain = excluded.chain, frontier = excluded.frontier,"
                " root = excluded.root"),
                (campaign, position, link, audit.pack(frontier), head[1].hex()))
        self._written.pending = heads  # published once the transaction commits (``insert_events``)

    def insert_events(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int] | None:
        """The library's insert (one transaction, committed when it returns); then the heads it computed are
        this thread's ``written``. A write that failed, at its read-set check or its commit, publishes none."""
        self._written.pending = None
        nids: Sequence[int] | None = super().insert_events(stored_events, **kwargs)  # type: ignore[misc]
        pending, self._written.pending = getattr(self._written, "pending", None), None
        if pending:
            self._written.heads = pending
        return nids

    def written(self) -> dict[str, tuple[int, bytes]]:
        """Taken once: each campaign's head (size, Merkle root) as this thread's last committed write left it,
        the head that write's transaction computed. Taken before a command's write(s), to drop what an earlier
        one left, and after."""
        heads: dict[str, tuple[int, bytes]] = getattr(self._written, "heads", None) or {}
        self._written.heads = None
        return heads

    #: Streams' campaigns this process has read from their first events (issue 15: a command on a stream
    #: begun earlier asked the store, and decoded the first event, on every write). Only a first event stored
    #: by an earlier write is read here, and a stored first event never changes, so neither does what is
    #: remembered; forgotten all at once past ``REMEMBERED`` (about 11 MiB when full).
    REMEMBERED = 100_000
    _campaigns: dict[str, str] | None = None

    def _stream_campaign(self, c: Any, oid: str) -> str:
        """The campaign of a stream begun in an earlier write: the one its stored first event names ("" for
        none)."""
        known = self._campaigns
        if known is None:
            known = self._campaigns = {}
        campaign = known.get(oid)
        if campaign is None:
            c.execute(self.q("SELECT topic, state FROM {events} WHERE originator_id = ? AND originator_version = 1"),
                      (self.oid_param(oid),))
            row = c.fetchone()
            if row is None:  # no first event (a row written around the store): nothing to remember
                return ""
            first = StoredEvent(originator_id=UUID(oid), originator_version=1, topic=row["topic"],
                                state=bytes(row["state"]))
            campaign = sys.intern(audit.campaign_in_state(first) or "")  # one string a campaign, not a stream
            if len(known) >= self.REMEMBERED:
                known.clear()
            known[oid] = campaign
        return campaign

    def oid_param(self, oid: str) -> Any:
        return oid

    def campaign_param(self, campaign: str) -> Any:
        """A link's campaign as the chain table keeps it ("" for an event that names none)."""
        return campaign

    # -- reads, each in one snapshot of the log ------------------------------------------------
    def read_chain(self, campaign_hex: str, snapshots: bool = True) -> dict[str, Any]:
        """The campaign's chain rows with the events stored at the positions they name, every event of the
        store that has no link and (``snapshots``) the campaign's sealed snapshots, all from one consistent
        snapshot of the store."""
        with self.datastore.transaction(commit=False) as c:  # type: ignore[attr-defined]
            self.begin_snapshot(c)
            c.execute(self.q(
                "SELECT c.*, e.originator_id AS e_oid, e.originator_version AS e_version, e.topic AS e_topic,"
                " e.state AS e_state FROM {chain} c LEFT JOIN {events} e ON e.{nid} = c.notification_id"
                " WHERE c.campaign_id = ? ORDER BY c.position"), (campaign_hex,))
            linked = c.fetchall()  # decoded after the read: PostgreSQL ends a transaction left idle for 5 s
            names = [d[0] for d in getattr(c, "sqlite_cursor", c).description]
            c.execute(self.q(
                "SELECT e.{nid} AS nid, e.originator_id, e.originator_version, e.topic, e.state FROM {events} e"
                " LEFT JOIN {chain} c ON c.notification_id = e.{nid} WHERE c.notification_id IS NULL"
                " ORDER BY e.{nid}"))
            unlinked = c.fetchall()
            kept, seals = self._snapshots(c, campaign_hex) if snapshots else (None, {})
            c.execute(self.q("SELECT * FROM {head} WHERE campaign_id = ?"), (campaign_hex,))
            head = c.fetchone()
        return {"linked": [_hexed(r, names) for r in linked], "unlinked": [_as_json(dict(r), "state") for r in unlinked],
                "snapshots": kept, "seals": seals, "head": dict(head) if head else None}

    def _snapshots(self, c: Any, campaign_hex: str) -> tuple[list[dict[str, Any]], dict[tuple[str, int], str]]:
        """The campaign's stored snapshots and their seals, in the caller's read."""
        c.execute(self.q("SELECT s.* FROM {snapshots} s WHERE s.originator_id IN"
                         " (SELECT originator_id FROM {chain} WHERE campaign_id = ?)"
                         ).replace("{snapshots}", self.snapshots_table), (campaign_hex,))
        snapshots = [_as_json(dict(r), "state") for r in c.fetchall()]
        c.execute(self.q("SELECT z.* FROM {seal} z WHERE z.originator_id IN"
                         " (SELECT originator_id FROM {chain} WHERE campaign_id = ?)"
                         ).replace("{seal}", self.seal_table), (campaign_hex,))
        return snapshots, {(UUID(str(r["originator_id"])).hex, r["originator_version"]): r["seal"]
                           for r in c.fetchall()}

    def leaves(self, campaign_hex: str) -> list[str]:
        with self.datastore.transaction(commit=False) as c:  # type: ignore[attr-defined]
            c.execute(self.q("SELECT digest FROM {chain} WHERE campaign_id = ? ORDER BY position"), (campaign_hex,))
            return [audit.hexed(r["digest"]) for r in c.fetchall()]

    def head(self, campaign_hex: str) -> tuple[int, bytes]:
        """The campaign's size and Merkle root as its head row keeps them: one indexed read."""
        with self.datastore.transaction(commit=False) as c:  # type: ignore[attr-defined]
            c.execute(self.q("SELECT position, root FROM {head} WHERE campaign_id = ?"), (campaign_hex,))
            row = c.fetchone()
        return (row["position"], bytes.fromhex(row["root"])) if row else (0, merkle.root([]))

    def begin_snapshot(self, c: Any) -> None:
        """SQLite: a read transaction in WAL mode already reads one snapshot."""

    def lock_for_linking(self, c: Any) -> None:
        """Hold the store's write lock from the start (SQLite: the first write statement takes it)."""
        c.execute(self.q("UPDATE {chain} SET salt = salt WHERE 1 = 0"))

    def link_legacy(self, batch: int = 5000) -> int:
        """Link every event of a store written before the chain was part of the write (an older release).

        Runs once, when the store holds events and no link at all, in one transaction under the store's write
        lock, in log order, with fresh salts: from then on the chain covers the whole log, and players' heads
        start from it. A store that has any link is never touched, so a link missing later is still reported
        as tampering (``unchained``). Returns how many events were linked.
        """
        linked, after = 0, 0
        with self.datastore.transaction(commit=True) as c:  # type: ignore[attr-defined]
            self.lock_for_linking(c)
            c.execute(self.q("SELECT 1 AS x FROM {chain} LIMIT 1"))
            if c.fetchone() is not None:
                return 0
            c.execute(self.q("DELETE FROM {head}"))  # no link, so no head to extend
            while True:
                c.execute(self.q("SELECT {nid} AS nid, originator_id, originator_version, topic, state FROM {events}"
                                 " WHERE {nid} > ? ORDER BY {nid} LIMIT ?"), (after, batch))
                rows = c.fetchall()
                if not rows:
                    return linked
                events = [StoredEvent(originator_id=r["originator_id"], originator_version=r["originator_version"],
                                      topic=r["topic"], state=bytes(r["state"])) for r in rows]
                self._link(c, events, [r["nid"] for r in rows], None)
                linked, after = linked + len(rows), rows[-1]["nid"]

    def upgrade_chain(self) -> bool:
        """A store written by an older release, made lean once (issue 15), in one transaction under the
        store's write lock; returns whether there was anything to do.

        - Its links each kept the campaign's tree head (the Merkle compact range and root), about two thirds
          of the chain's bytes: the last link's head becomes the campaign's head row, the columns go.
        - Its links were indexed by stream, to find a stream's campaign: the stream's first event names it.
        - Its links kept their campaign as text where PostgreSQL now keeps a uuid (ADR 0018).
        Salts, digests and links stored as text stay text (read either way, ``audit.hexed``)."""
        if not self._outdated():
            return False
        with self.datastore.transaction(commit=True) as c:  # type: ignore[attr-defined]
            self.lock_for_linking(c)
            if not self._outdated(c):  # another process did it meanwhile
                return False
            if "frontier" in self.chain_columns(c):
                c.execute(self.q(
                    "INSERT INTO {head} (campaign_id, position, chain, frontier, root)"
                    " SELECT c.campaign_id, c.position, c.chain, c.frontier, c.root FROM {chain} c"
                    " JOIN (SELECT campaign_id, MAX(position) AS position FROM {chain} GROUP BY campaign_id) m"
                    " ON m.campaign_id = c.campaign_id AND m.position = c.position"))
                c.execute(self.q("ALTER TABLE {chain} DROP COLUMN frontier"))
                c.execute(self.q("ALTER TABLE {chain} DROP COLUMN root"))
            c.execute(f"DROP INDEX IF EXISTS {self.stream_index}")
            self._lean_campaign_column(c)
        return True

    def _outdated(self, c: Any = None) -> bool:
        columns = self.chain_columns(c)
        return "frontier" in columns or self.has_stream_index(c) or \
            ("campaign_id" in columns and not self._lean_campaign(columns["campaign_id"]))

    def _lean_campaign(self, declared: str) -> bool:
        """Whether the chain's campaign column is declared as this store keeps it (``campaign_type``)."""
        return declared.lower() == self.campaign_type.lower()

    def _lean_campaign_column(self, c: Any) -> None:
        """A chain whose campaign column is not what this store keeps (text where PostgreSQL keeps a uuid):
        converted, once."""

    stream_index = ""
    #: The chain table's columns with their declared types (``name``, ``type``), and whether an index by
    #: the name given exists (``found``); each dialect spells them, with the table or index as parameter.
    columns_sql = index_sql = ""

    def chain_columns(self, c: Any = None) -> dict[str, str]:
        rows = self._read(c, self.columns_sql, self.chain_table)
        return {r["name"]: r["type"] for r in rows}

    def has_stream_index(self, c: Any = None) -> bool:
        return bool(self._read(c, self.index_sql, self.stream_index))

    def _read(self, c: Any, statement: str, name: str) -> list[Any]:
        if c is None:
            with self.datastore.transaction(commit=False) as fresh:  # type: ignore[attr-defined]
                return self._read(fresh, statement, name)
        c.execute(statement, (name,))
        return list(c.fetchall())

    snapshots_table = seal_table = ""


def _hexed(row: Any, names: list[str]) -> dict[str, Any]:
    """A chain row as a dict of its own (SQLite's rows are not: made from their values and the statement's
    column ``names``), its salt, digest and link as hex, and its event's state as JSON."""
    row = row if type(row) is dict else dict(zip(names, row, strict=True))
    for key in ("salt", "digest", "chain"):
        value = row[key]
        if type(value) is not str:  # bytes, or a memoryview: each has its hex (``audit.hexed``)
            row[key] = value.hex()
    state = row["e_state"]
    if state is not None:
        row["e_state"] = codec.plain(state)
    return row


def _as_json(row: dict[str, Any], key: str) -> dict[str, Any]:
    """``row`` with its stored state ``key`` as the event's JSON (ADR 0018): what the audit digests, an
    export carries and a seat is shown."""
    if row[key] is not None:
        row[key] = codec.plain(row[key])
    return row


class SealMixin:
    """A snapshot recorder that seals what it stores and loads only what it sealed."""

    signer: Any = None
    seal_table = ""
    mark = "?"

    def seal_of(self, s: Any) -> str:
        oid = UUID(str(s.originator_id)).hex
        state = codec.plain(s.state)  # of the JSON, as the seals stored before the codec (ADR 0018)
        return self.signer.seal(bytes.fromhex(audit.digest(oid, s.originator_version, s.topic, state, "")))

    def _seal(self, c: Any, events: Sequence[StoredEvent]) -> None:
        for s in events:
            c.execute(f"INSERT INTO {self.seal_table} VALUES ({self.mark}, {self.mark}, {self.mark})",
                      (self.oid_param(s.originator_id), s.originator_version, self.seal_of(s)))

    def oid_param(self, oid: Any) -> Any:
        return UUID(str(oid)).hex

    def _trusted(self, found: Sequence[StoredEvent]) -> list[StoredEvent]:
        if not found:
            return []
        with self.datastore.transaction(commit=False) as c:  # type: ignore[attr-defined]
            c.execute(f"SELECT originator_version, seal FROM {self.seal_table} WHERE originator_id = {self.mark}",
                      (self.oid_param(found[0].originator_id),))
            seals = {r["originator_version"]: r["seal"] for r in c.fetchall()}
        return [s for s in found if self.signer is not None and seals.get(s.originator_version) == self.seal_of(s)]


class SQLiteChainedRecorder(ChainMixin, recorders.SQLiteEvents):
    binary = True  # SQLite keeps bytes in a column declared TEXT too: an older store's new links are bytes
    columns_sql = "SELECT name, type FROM pragma_table_info(?)"
    index_sql = "SELECT 1 AS found FROM sqlite_master WHERE type = 'index' AND name = ?"

    def __init__(self, datastore: Any, events_table_name: str = "stored_events") -> None:
        self.events_table, self.chain_table, self.nid = events_table_name, events_table_name + "_chain", "rowid"
        self.head_table = events_table_name + "_chain_head"
        self.stream_index = events_table_name + "_chain_by_stream"  # an older release's
        self.snapshots_table = events_table_name.replace("_events", "_snapshots")
        self.seal_table = self.snapshots_table + "_seal"
        self._written = threading.local()
        super().__init__(datastore, events_table_name)

    def construct_create_table_statements(self) -> list[str]:
        return [*super().construct_create_table_statements(), *self.chain_ddl("INTEGER", "TEXT", "BLOB")]

    def _insert_events(self, c: Any, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int] | None:
        nids = super()._insert_events(c, stored_events, **kwargs)
        self._link(c, stored_events, nids or [], kwargs.get("chain_salts"))
        return nids

    @recorders.bounded
    def log_page(self, start: int, limit: int) -> list[Note]:
        """At most ``limit`` events of the log from position ``start``, as the projection reads them (``Note``)."""
        with self.datastore.transaction(commit=False) as c:
            c.execute(f"SELECT rowid, originator_id, originator_version, topic, state FROM {self.events_table}"
                      " WHERE rowid >= ? ORDER BY rowid LIMIT ?", (start, limit))
            return [Note._make(row) for row in c.fetchall()]


class SQLiteSealedSnapshots(SealMixin, SQLiteAggregateRecorder):
    def __init__(self, datastore: Any, events_table_name: str = "stored_snapshots") -> None:
        self.seal_table = events_table_name + "_seal"
        super().__init__(datastore, events_table_name)

    def construct_create_table_statements(self) -> list[str]:
        return [*super().construct_create_table_statements(),
                f"CREATE TABLE IF NOT EXISTS {self.seal_table} (originator_id TEXT NOT NULL, originator_version"
                " BIGINT NOT NULL, seal TEXT NOT NULL, PRIMARY KEY (originator_id, originator_version))"]

    def _insert_events(self, c: Any, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int] | None:
        result = super()._insert_events(c, stored_events, **kwargs)
        self._seal(c, stored_events)
        return result

    def select_events(self, originator_id: Any, **kwargs: Any) -> Sequence[StoredEvent]:
        return self._trusted(super().select_events(originator_id, **kwargs))


#: The chain's campaign of an event whose stream names none, on PostgreSQL (the nil uuid's hex).
NO_CAMPAIGN = "0" * 32


def _pg_name(recorder: Any, table: str) -> str:
    return '"' + recorder.datastore.schema.replace('"', '""') + '"."' + table + '"'


class PostgresChainedRecorder(ChainMixin, recorders.PostgresEvents):
    mark = "%s"
    columns_sql = ("SELECT attname AS name, format_type(atttypid, atttypmod) AS type FROM pg_attribute"
                   " WHERE attrelid = to_regclass(%s) AND attnum > 0 AND NOT attisdropped")
    index_sql = "SELECT 1 AS found WHERE to_regclass(%s) IS NOT NULL"

    def __init__(self, datastore: Any, *, events_table_name: str = "stored_events") -> None:
        super().__init__(datastore, events_table_name=events_table_name)
        self.events_table, self.nid = _pg_name(self, events_table_name), "notification_id"
        self.chain_table = _pg_name(self, events_table_name + "_chain")
        self.head_table = _pg_name(self, events_table_name + "_chain_head")
        self.stream_index = _pg_name(self, events_table_name + "_chain_by_stream")  # an older release's
        self.snapshots_table = _pg_name(self, events_table_name.replace("_events", "_snapshots"))
        self.seal_table = _pg_name(self, events_table_name.replace("_events", "_snapshots") + "_seal")
        self._written = threading.local()
        self.sql_create_statements.extend(SQL(s) for s in self.chain_ddl("BIGINT", "uuid", "BYTEA"))  # type: ignore[arg-type,misc]

    campaign_type = "uuid"

    def oid_param(self, oid: str) -> Any:
        return UUID(oid)

    def campaign_param(self, campaign: str) -> Any:
        return campaign or NO_CAMPAIGN  # a uuid cannot be empty: the nil uuid stands for "none"

    def _lean_campaign_column(self, c: Any) -> None:
        declared = self.chain_columns(c).get("campaign_id")
        if declared is not None and not self._lean_campaign(declared):
            c.execute(self.q(f"ALTER TABLE {{chain}} ALTER COLUMN campaign_id TYPE uuid USING (CASE WHEN"
                             f" campaign_id::text = '' THEN '{NO_CAMPAIGN}' ELSE campaign_id::text END)::uuid"))

    def begin_snapshot(self, c: Any) -> None:
        c.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")

    def _notify_channel(self, curs: Any) -> None:
        """The library's own NOTIFY on every write is for its subscriptions, which nothing here uses: the read
        models' transaction tells every process (``adapters/fanout.py``). Not sent, a statement less a write."""

    def lock_for_linking(self, c: Any) -> None:
        c.execute(self.q("LOCK TABLE {events} IN EXCLUSIVE MODE"))

    def _fetch_ids_after_insert_events(self, curs: Any, stored_events: Sequence[StoredEvent],
                                       **kwargs: Any) -> Sequence[int] | None:
        nids = super()._fetch_ids_after_insert_events(curs, stored_events, **kwargs)
        self._link(curs, stored_events, nids or [], kwargs.get("chain_salts"))
        return nids

    @recorders.bounded
    def log_page(self, start: int, limit: int) -> list[Note]:
        """At most ``limit`` events of the log from position ``start``, as the projection reads them (``Note``):
        the id as text, rows as plain tuples (no dictionary, no uuid built per row), in the binary format."""
        with self.datastore.get_connection() as conn, conn.cursor(row_factory=tuple_row) as curs:
            curs.execute(f"SELECT notification_id, originator_id::text, originator_version, topic, state"
                         f" FROM {self.events_table} WHERE notification_id >= %s ORDER BY notification_id LIMIT %s",
                         (start, limit), prepare=True, binary=True)  # a state's bytes as they are, not hex
            return [Note(i, o, v, t, bytes(s)) for i, o, v, t, s in curs.fetchall()]


class PostgresSealedSnapshots(SealMixin, recorders.PostgresAggregates):
    mark = "%s"

    def __init__(self, datastore: Any, *, events_table_name: str = "stored_snapshots") -> None:
        super().__init__(datastore, events_table_name=events_table_name)
        self.seal_table = _pg_name(self, events_table_name + "_seal")
        self.sql_create_statements.append(SQL(  # type: ignore[arg-type]
            f"CREATE TABLE IF NOT EXISTS {self.seal_table} (originator_id uuid NOT NULL, originator_version"
            " BIGINT NOT NULL, seal TEXT NOT NULL, PRIMARY KEY (originator_id, originator_version))"))

    def oid_param(self, oid: Any) -> Any:
        return UUID(str(oid))

    def insert_events(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int] | None:
        if stored_events:
            with self.datastore.transaction(commit=True) as curs:
                self._insert_stored_events(curs, stored_events, **kwargs)
                self._seal(curs, stored_events)
        return None

    def select_events(self, originator_id: Any, **kwargs: Any) -> Sequence[StoredEvent]:
        return self._trusted(super().select_events(originator_id, **kwargs))


class SQLiteChainedFactory(SQLiteFactory):
    application_recorder_class = SQLiteChainedRecorder
    aggregate_recorder_class = SQLiteSealedSnapshots


class PostgresChainedFactory(recorders.PostgresStore):  # its sessions at READ COMMITTED
    application_recorder_class = PostgresChainedRecorder
    aggregate_recorder_class = PostgresSealedSnapshots
