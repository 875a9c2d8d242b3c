"""Read models, the projection that keeps them, and the seat-token table.

The projection writes its rows and its tracking position in one transaction,
so every event applies exactly once and a restart resumes where it stopped.
The same SQL serves SQLite and PostgreSQL: statements are written with ``?``
placeholders and ``{p}`` before each table name, and each dialect class below
says how to spell those.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime, timezone
from typing import Any
from uuid import UUID

from eventsourcing.domain import Snapshot
from eventsourcing.persistence import Tracking
from eventsourcing.postgres import PostgresTrackingRecorder
from eventsourcing.sqlite import SQLiteTrackingRecorder
from psycopg.sql import SQL

from adapters import audit
from domain.pool.rules import creation_cost

PROJECTION_TABLES = (
    "campaigns", "streams", "characters", "characteristics", "loans", "loan_history",
    "antagonists", "adventures", "allocations", "event_log", "challenges",
    "pool_characters", "pool_traits", "pool_moves", "pool_rolls",
)
#: The aggregates that are units of resolution (C-1): kept as snapshots in ``challenges``.
RESOLUTIONS = ("Challenge", "PoolRoll", "PoolContest")

DDL = (
    "CREATE TABLE IF NOT EXISTS {p}campaigns (campaign_id TEXT PRIMARY KEY, name TEXT NOT NULL,"
    " system TEXT NOT NULL, settings TEXT NOT NULL, created_at TEXT NOT NULL,"
    " adventure BIGINT NOT NULL, adventure_running BIGINT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS {p}streams (originator_id TEXT PRIMARY KEY, campaign_id TEXT NOT NULL,"
    " kind TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS {p}characters (character_id TEXT PRIMARY KEY, campaign_id TEXT NOT NULL,"
    " seat TEXT NOT NULL, name TEXT NOT NULL, pile BIGINT NOT NULL, in_play BIGINT NOT NULL,"
    " spent BIGINT NOT NULL, joined_at TEXT NOT NULL, UNIQUE (campaign_id, seat))",
    "CREATE TABLE IF NOT EXISTS {p}characteristics (character_id TEXT NOT NULL, position BIGINT NOT NULL,"
    " name TEXT NOT NULL, cost BIGINT NOT NULL, acquired_at TEXT NOT NULL, PRIMARY KEY (character_id, position))",
    "CREATE TABLE IF NOT EXISTS {p}loans (loan_id TEXT PRIMARY KEY, campaign_id TEXT NOT NULL,"
    " lender TEXT NOT NULL, borrower TEXT NOT NULL, amount BIGINT NOT NULL, outstanding BIGINT NOT NULL,"
    " status TEXT NOT NULL, adventure BIGINT NOT NULL, defaulted_in BIGINT, consequence TEXT,"
    " offered_at TEXT NOT NULL, updated_at TEXT NOT NULL, kind TEXT NOT NULL, challenge_id TEXT)",
    "CREATE INDEX IF NOT EXISTS loans_by_campaign ON {p}loans (campaign_id, offered_at)",
    "CREATE TABLE IF NOT EXISTS {p}loan_history (loan_id TEXT NOT NULL, version BIGINT NOT NULL,"
    " at TEXT NOT NULL, actor TEXT NOT NULL, what TEXT NOT NULL, amount BIGINT, note TEXT,"
    " PRIMARY KEY (loan_id, version))",
    "CREATE TABLE IF NOT EXISTS {p}antagonists (antagonist_id TEXT PRIMARY KEY, campaign_id TEXT NOT NULL,"
    " name TEXT NOT NULL, kind TEXT NOT NULL, pennies BIGINT NOT NULL, characteristics TEXT NOT NULL,"
    " created_at TEXT NOT NULL, in_play BIGINT NOT NULL, winnings BIGINT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS {p}adventures (campaign_id TEXT NOT NULL, number BIGINT NOT NULL,"
    " started_at TEXT NOT NULL, ended_at TEXT, player_piles BIGINT NOT NULL, opening_pile BIGINT NOT NULL,"
    " note TEXT, pile BIGINT NOT NULL, allocated BIGINT NOT NULL, retired BIGINT NOT NULL,"
    " PRIMARY KEY (campaign_id, number))",
    "CREATE TABLE IF NOT EXISTS {p}allocations (campaign_id TEXT NOT NULL, adventure BIGINT NOT NULL,"
    " position BIGINT NOT NULL, antagonist TEXT NOT NULL, amount BIGINT NOT NULL, at TEXT NOT NULL,"
    " PRIMARY KEY (campaign_id, position))",
    "CREATE TABLE IF NOT EXISTS {p}event_log (notification_id BIGINT PRIMARY KEY, campaign_id TEXT NOT NULL,"
    " at TEXT NOT NULL, actor TEXT NOT NULL, stream TEXT NOT NULL, event TEXT NOT NULL,"
    " detail TEXT NOT NULL, visibility TEXT NOT NULL, challenge_id TEXT)",
    "CREATE INDEX IF NOT EXISTS event_log_by_campaign ON {p}event_log (campaign_id, notification_id)",
    "CREATE INDEX IF NOT EXISTS event_log_by_challenge ON {p}event_log (challenge_id, notification_id)",
    # A challenge's current state, kept as a snapshot of its aggregate, and censored per seat when read.
    "CREATE TABLE IF NOT EXISTS {p}challenges (challenge_id TEXT PRIMARY KEY, campaign_id TEXT NOT NULL,"
    " announced_at TEXT NOT NULL, updated_at TEXT NOT NULL, phase TEXT NOT NULL, revealed BIGINT NOT NULL,"
    " ante BIGINT NOT NULL, pot BIGINT NOT NULL, version BIGINT NOT NULL, topic TEXT NOT NULL, state TEXT NOT NULL)",
    "CREATE INDEX IF NOT EXISTS challenges_by_campaign ON {p}challenges (campaign_id, announced_at)",
    # The Pool (PL-1 … PL-8).
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
    # Not projections either: the audit chain (C-2) survives a rebuild, so tampering stays visible.
    "CREATE TABLE IF NOT EXISTS {p}audit_chain (campaign_id TEXT NOT NULL, position BIGINT NOT NULL,"
    " notification_id BIGINT NOT NULL, originator_id TEXT NOT NULL, originator_version BIGINT NOT NULL,"
    " digest TEXT NOT NULL, chain TEXT NOT NULL, PRIMARY KEY (campaign_id, position))",
    "CREATE UNIQUE INDEX IF NOT EXISTS audit_chain_by_event ON {p}audit_chain (originator_id, originator_version)",
    # Not a projection: tokens are issued here, hashed, and survive a rebuild.
    "CREATE TABLE IF NOT EXISTS {p}seat_tokens (token_hash TEXT PRIMARY KEY, campaign_id TEXT NOT NULL,"
    " seat TEXT NOT NULL, issued_at TEXT NOT NULL, UNIQUE (campaign_id, seat))",
)

#: Who may read what in the log (C-5), until the challenge an entry belongs to is revealed (at the
#: showdown or settlement; with ``until: settled``, only at settlement).
#: ``entry``: the seats that see the entry at all (None: everyone); ``fields``: field -> seats.
#: "side" stands for the seats of the side the event is about; an empty list for nobody.
VISIBILITY: dict[str, dict[str, Any]] = {
    # An antagonist's list of characteristics stays the House's (PA-4); players learn the ones it
    # uses when a challenge declares them (PA-17), from that challenge's own events.
    "Antagonist.Created": {"fields": {"characteristics": ["house"]}},
    "Antagonist.CharacteristicAdded": {"entry": ["house"]},
    # The secret seed is revealed at settlement (C-4); dice under a cup only to their side (PA-8).
    "Challenge.Announced": {"fields": {"secret_seed": []}, "until": "settled"},
    "Challenge.DiceRolled": {"fields": {"dice": "side"}},
    "Challenge.CupRerolled": {"fields": {"dice": "side"}},
    # A rewind records the whole earlier state, dice under cups included (C-6).
    "Challenge.Rewound": {"fields": {"state": []}},
    "PoolRoll.Rolled": {"fields": {"secret_seed": []}, "until": "settled"},
    "PoolContest.Opened": {"fields": {"secret_seed": []}, "until": "settled"},
}

Row = dict[str, Any]


def censor(detail: dict[str, Any], visibility: dict[str, Any], seat: str, revealed: bool,
           settled: bool) -> tuple[dict, list[str]] | None:
    """An event's detail as ``seat`` may read it (C-5): None when the whole entry is hidden."""
    if settled or (revealed and visibility.get("until") != "settled"):
        return detail, []
    entry = visibility.get("entry")
    if entry is not None and seat not in entry:
        return None
    hidden = [field for field, seats in visibility.get("fields", {}).items() if seat not in seats]
    return {k: v for k, v in detail.items() if k not in hidden}, hidden


def event_detail(e: Any) -> dict[str, Any]:
    """An event's own fields, plain, without the envelope the library adds."""
    return {k: _plain(v) for k, v in vars(e).items()
            if k not in ("originator_id", "originator_version", "originator_topic", "timestamp", "actor")}


def event_visibility(e: Any, challenge: Any | None) -> dict[str, Any]:
    """Who may read an event's fields (see VISIBILITY); "side" resolves to the seats of the event's side."""
    visibility = dict(VISIBILITY.get(type(e).__qualname__, {}))
    if challenge is not None:
        seats = challenge.sides[e.side]["seats"] if hasattr(e, "side") else []
        visibility["fields"] = {k: (seats if v == "side" else v) for k, v in visibility.get("fields", {}).items()}
    return visibility


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _now_dt() -> datetime:
    return datetime.now(timezone.utc)


def _now() -> str:
    return _now_dt().isoformat()


def _plain(value: Any) -> Any:
    if isinstance(value, UUID):
        return value.hex
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


class ViewsMixin:
    """Dialect-free projection logic and queries."""

    placeholder = "?"
    prefix = ""

    # -- plumbing ---------------------------------------------------------------
    def _sql(self, statement: str) -> str:
        return statement.replace("{p}", self.prefix).replace("?", self.placeholder)

    def _x(self, c: Any, statement: str, params: Sequence[Any] = ()) -> None:
        c.execute(self._sql(statement), tuple(params))

    def _one(self, c: Any, statement: str, params: Sequence[Any] = ()) -> Row | None:
        self._x(c, statement, params)
        row = c.fetchone()
        return dict(row) if row is not None else None

    def query(self, statement: str, params: Sequence[Any] = ()) -> list[Row]:
        with self.datastore.transaction(commit=False) as c:  # type: ignore[attr-defined]
            self._x(c, statement, params)
            return [dict(r) for r in c.fetchall()]

    def query_one(self, statement: str, params: Sequence[Any] = ()) -> Row | None:
        rows = self.query(statement, params)
        return rows[0] if rows else None

    # -- the projection ---------------------------------------------------------
    def project(self, application_name: str, batch: Iterable[tuple[Any, Any]]) -> int:
        """Apply a batch of (event, notification) and record the last notification id, atomically."""
        last = 0
        with self.datastore.transaction(commit=True) as c:  # type: ignore[attr-defined]
            for domain_event, notification in batch:
                campaign = self._apply(c, domain_event, notification.id)
                self._chain(c, campaign, notification)
                last = notification.id
            if last:
                self._insert_tracking(c, Tracking(application_name, last))  # type: ignore[attr-defined]
        return last

    def reset(self, application_name: str) -> None:
        """Empty every read model and forget the tracking position (tokens are kept)."""
        with self.datastore.transaction(commit=True) as c:  # type: ignore[attr-defined]
            for table in PROJECTION_TABLES:
                self._x(c, f"DELETE FROM {{p}}{table}")
            c.execute(self._delete_tracking_statement(), (application_name,))

    def _delete_tracking_statement(self) -> Any:
        raise NotImplementedError

    # -- aggregates kept as snapshots (challenges) -----------------------------------------
    def _load_state(self, c: Any, table: str, key: str, oid: str) -> Any:
        row = self._one(c, f"SELECT version, topic, state FROM {{p}}{table} WHERE {key} = ?", (oid,))
        if row is None:
            return None
        snapshot = Snapshot(originator_id=UUID(oid), originator_version=row["version"], timestamp=_now_dt(),
                            topic=row["topic"], state=self.transcoder.decode(row["state"].encode()))  # type: ignore[attr-defined]
        return snapshot.mutate(None)

    def _dump_state(self, aggregate: Any) -> tuple[int, str, str]:
        snapshot = Snapshot.take(aggregate)
        return snapshot.originator_version, snapshot.topic, self.transcoder.encode(snapshot.state).decode()  # type: ignore[attr-defined]

    def _chain(self, c: Any, campaign: str, n: Any) -> None:
        """Append the event to its campaign's hash chain, unless a rebuild finds it chained already."""
        if self._one(c, "SELECT 1 AS x FROM {p}audit_chain WHERE originator_id = ? AND originator_version = ?",
                     (n.originator_id.hex, n.originator_version)):
            return
        last = self._one(c, "SELECT position, chain FROM {p}audit_chain WHERE campaign_id = ?"
                            " ORDER BY position DESC LIMIT 1", (campaign,))
        position, previous = (last["position"] + 1, last["chain"]) if last else (1, audit.GENESIS)
        d = audit.digest(n.originator_id, n.originator_version, n.topic, n.state)
        self._x(c, "INSERT INTO {p}audit_chain VALUES (?, ?, ?, ?, ?, ?, ?)",
                (campaign, position, n.id, n.originator_id.hex, n.originator_version, d, audit.link(previous, d)))

    def chain_rows(self, campaign_id: UUID) -> list[Row]:
        return self.query("SELECT * FROM {p}audit_chain WHERE campaign_id = ? ORDER BY position", (campaign_id.hex,))

    def _apply(self, c: Any, e: Any, nid: int) -> str:
        name = type(e).__qualname__
        at = e.timestamp.isoformat()
        oid = e.originator_id.hex
        if e.originator_version == 1:  # the event that creates a stream names its campaign
            campaign = oid if name.startswith("Campaign.") else e.campaign_id.hex
            kind = name.split(".")[0]
            self._x(c, "INSERT INTO {p}streams VALUES (?, ?, ?)", (oid, campaign, kind))
        else:
            row = self._one(c, "SELECT campaign_id, kind FROM {p}streams WHERE originator_id = ?", (oid,))
            assert row is not None, f"event {name} of unknown stream {oid}"
            campaign, kind = row["campaign_id"], row["kind"]
        challenge = None
        if kind in RESOLUTIONS:
            challenge = self._on_challenge(c, e, oid, campaign, at)
        handler: Callable[..., None] | None = getattr(self, "_on_" + name.replace(".", "_"), None)
        if handler is not None:
            handler(c, e, oid, campaign, at, nid)
        detail, visibility = event_detail(e), event_visibility(e, challenge)
        self._x(
            c,
            "INSERT INTO {p}event_log VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (nid, campaign, at, getattr(e, "actor", "house"), f"{kind}:{oid}",
             name.split(".", 1)[1], json.dumps(detail), json.dumps(visibility), oid if challenge is not None else None),
        )
        return campaign

    def _on_challenge(self, c: Any, e: Any, oid: str, campaign: str, at: str) -> Any:
        """Apply a challenge event to its snapshot row (the same mutators the aggregate uses)."""
        previous = self._load_state(c, "challenges", "challenge_id", oid) if e.originator_version > 1 else None
        challenge = e.mutate(previous)
        version, topic, state = self._dump_state(challenge)
        if previous is None:
            self._x(c, "INSERT INTO {p}challenges VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (oid, campaign, at, at, challenge.phase, int(challenge.revealed), getattr(challenge, "ante", 0),
                     getattr(challenge, "pot", 0), version, topic, state))
        else:
            self._x(c, "UPDATE {p}challenges SET updated_at = ?, phase = ?, revealed = ?, pot = ?, version = ?,"
                       " state = ? WHERE challenge_id = ?",
                    (at, challenge.phase, int(challenge.revealed), getattr(challenge, "pot", 0), version, state, oid))
        return challenge

    def load_challenge(self, challenge_id: UUID) -> Any:
        with self.datastore.transaction(commit=False) as c:  # type: ignore[attr-defined]
            return self._load_state(c, "challenges", "challenge_id", challenge_id.hex)

    # campaigns (C-1)
    def _on_Campaign_Created(self, c, e, oid, campaign, at, nid) -> None:
        self._x(c, "INSERT INTO {p}campaigns VALUES (?, ?, ?, ?, ?, 0, 0)",
                (oid, e.name, e.system, json.dumps(e.settings), at))

    def _on_Campaign_AdventureStarted(self, c, e, oid, campaign, at, nid) -> None:
        self._x(c, "UPDATE {p}campaigns SET adventure = ?, adventure_running = 1 WHERE campaign_id = ?",
                (e.number, oid))

    def _on_Campaign_AdventureEnded(self, c, e, oid, campaign, at, nid) -> None:
        self._x(c, "UPDATE {p}campaigns SET adventure_running = 0 WHERE campaign_id = ?", (oid,))
        self._x(c, "UPDATE {p}adventures SET ended_at = ? WHERE campaign_id = ? AND number = ?",
                (at, oid, e.number))

    # characters (PA-1, PA-2, PA-14)
    def _on_Character_Created(self, c, e, oid, campaign, at, nid) -> None:
        self._x(c, "INSERT INTO {p}characters VALUES (?, ?, ?, ?, ?, 0, 0, ?)",
                (oid, campaign, e.seat, e.name, e.pile, at))
        self._x(c, "INSERT INTO {p}characteristics VALUES (?, 0, ?, 0, ?)", (oid, e.first_characteristic, at))

    def _on_Character_CharacteristicBought(self, c, e, oid, campaign, at, nid) -> None:
        self._pile(c, oid, -e.cost, spent=e.cost)
        self._x(c, "INSERT INTO {p}characteristics VALUES (?, (SELECT COALESCE(MAX(position), -1) + 1"
                   " FROM {p}characteristics WHERE character_id = ?), ?, ?, ?)", (oid, oid, e.name, e.cost, at))

    def _pile(self, c: Any, oid: str, delta: int, spent: int = 0) -> None:
        self._x(c, "UPDATE {p}characters SET pile = pile + ?, spent = spent + ? WHERE character_id = ?",
                (delta, spent, oid))

    def _on_Character_LoanPaidOut(self, c, e, oid, *_: Any) -> None:
        self._pile(c, oid, -e.amount)

    def _on_Character_LoanReceived(self, c, e, oid, *_: Any) -> None:
        self._pile(c, oid, e.amount)

    def _on_Character_RepaymentPaid(self, c, e, oid, *_: Any) -> None:
        self._pile(c, oid, -e.amount)

    def _on_Character_RepaymentReceived(self, c, e, oid, *_: Any) -> None:
        self._pile(c, oid, e.amount)

    # loans (PA-14)
    def _history(self, c: Any, e: Any, oid: str, at: str, what: str, amount: int | None = None,
                 note: str | None = None) -> None:
        self._x(c, "INSERT INTO {p}loan_history VALUES (?, ?, ?, ?, ?, ?, ?)",
                (oid, e.originator_version, at, e.actor, what, amount, note))

    def _loan(self, c: Any, oid: str, at: str, **changes: Any) -> None:
        sets = ", ".join(f"{column} = ?" for column in changes)
        self._x(c, f"UPDATE {{p}}loans SET {sets}, updated_at = ? WHERE loan_id = ?",
                (*changes.values(), at, oid))

    def _on_Loan_Offered(self, c, e, oid, campaign, at, nid) -> None:
        self._x(c, "INSERT INTO {p}loans VALUES (?, ?, ?, ?, ?, 0, 'offered', ?, NULL, NULL, ?, ?, 'loan', ?)",
                (oid, campaign, e.lender, e.borrower, e.amount, e.adventure, at, at, getattr(e, "challenge_id", None)))
        self._history(c, e, oid, at, "offered", e.amount)

    def _on_Debt_Recorded(self, c, e, oid, campaign, at, nid) -> None:
        """PA-15, PA-16: a bankruptcy debt, owed from the start."""
        self._x(c, "INSERT INTO {p}loans VALUES (?, ?, ?, ?, ?, ?, 'active', ?, NULL, NULL, ?, ?, 'debt', ?)",
                (oid, campaign, e.lender, e.borrower, e.amount, e.amount, e.adventure, at, at, e.challenge_id))
        self._history(c, e, oid, at, "debt recorded", e.amount)

    def _on_Loan_Accepted(self, c, e, oid, campaign, at, nid) -> None:
        self._x(c, "UPDATE {p}loans SET status = 'active', outstanding = amount, updated_at = ? WHERE loan_id = ?",
                (at, oid))
        self._history(c, e, oid, at, "accepted")

    def _on_Loan_Declined(self, c, e, oid, campaign, at, nid) -> None:
        self._loan(c, oid, at, status="declined")
        self._history(c, e, oid, at, "declined")

    def _on_Loan_Withdrawn(self, c, e, oid, campaign, at, nid) -> None:
        self._loan(c, oid, at, status="withdrawn")
        self._history(c, e, oid, at, "withdrawn")

    def _on_Loan_Repaid(self, c, e, oid, campaign, at, nid) -> None:
        self._x(c, "UPDATE {p}loans SET outstanding = outstanding - ?, updated_at = ? WHERE loan_id = ?",
                (e.amount, at, oid))
        self._x(c, "UPDATE {p}loans SET status = 'repaid' WHERE loan_id = ? AND outstanding = 0", (oid,))
        self._history(c, e, oid, at, "repaid", e.amount)

    def _on_Loan_Forgiven(self, c, e, oid, campaign, at, nid) -> None:
        self._loan(c, oid, at, status="forgiven", outstanding=0)
        self._history(c, e, oid, at, "forgiven", e.amount)

    def _on_Loan_Defaulted(self, c, e, oid, campaign, at, nid) -> None:
        self._loan(c, oid, at, status="defaulted", defaulted_in=e.adventure)
        self._history(c, e, oid, at, "defaulted")

    def _on_Loan_Reversed(self, c, e, oid, campaign, at, nid) -> None:
        self._x(c, "UPDATE {p}loans SET outstanding = CASE WHEN status = 'offered' THEN 0 ELSE outstanding - ? END,"
                   " updated_at = ? WHERE loan_id = ?", (e.returned, at, oid))
        self._x(c, "UPDATE {p}loans SET status = 'reversed' WHERE loan_id = ? AND outstanding = 0", (oid,))
        self._history(c, e, oid, at, "reversed", e.returned, e.reason)

    def _on_Debt_Voided(self, c, e, oid, campaign, at, nid) -> None:
        self._loan(c, oid, at, status="voided", outstanding=0)
        self._history(c, e, oid, at, "voided", e.amount, e.reason)

    def _on_Loan_ConsequenceRecorded(self, c, e, oid, campaign, at, nid) -> None:
        self._loan(c, oid, at, consequence=e.note)
        self._history(c, e, oid, at, "consequence", note=e.note)

    # the House side (PA-3, PA-4)
    def _on_House_BudgetOpened(self, c, e, oid, campaign, at, nid) -> None:
        self._x(c, "INSERT INTO {p}adventures VALUES (?, ?, ?, NULL, ?, ?, ?, ?, 0, 0)",
                (campaign, e.adventure, at, e.player_piles, e.amount, e.note, e.amount))

    def _on_House_PenniesAllocated(self, c, e, oid, campaign, at, nid) -> None:
        self._x(c, "UPDATE {p}adventures SET pile = pile - ?, allocated = allocated + ?"
                   " WHERE campaign_id = ? AND number = ?", (e.amount, e.amount, campaign, e.adventure))
        self._x(c, "INSERT INTO {p}allocations VALUES (?, ?, ?, ?, ?, ?)",
                (campaign, e.adventure, nid, e.antagonist, e.amount, at))

    def _on_House_BudgetClosed(self, c, e, oid, campaign, at, nid) -> None:
        self._x(c, "UPDATE {p}adventures SET pile = 0, retired = retired + ? WHERE campaign_id = ? AND number = ?",
                (e.retired, campaign, e.adventure))

    def _on_Antagonist_Created(self, c, e, oid, campaign, at, nid) -> None:
        self._x(c, "INSERT INTO {p}antagonists VALUES (?, ?, ?, ?, 0, ?, ?, 0, 0)",
                (oid, campaign, e.name, e.kind, json.dumps(list(e.characteristics)), at))

    def _on_Antagonist_CharacteristicAdded(self, c, e, oid, campaign, at, nid) -> None:
        row = self._one(c, "SELECT characteristics FROM {p}antagonists WHERE antagonist_id = ?", (oid,))
        assert row is not None
        names = [*json.loads(row["characteristics"]), e.name]
        self._x(c, "UPDATE {p}antagonists SET characteristics = ? WHERE antagonist_id = ?", (json.dumps(names), oid))

    def _on_Antagonist_Funded(self, c, e, oid, *_: Any) -> None:
        self._x(c, "UPDATE {p}antagonists SET pennies = pennies + ? WHERE antagonist_id = ?", (e.amount, oid))

    def _on_Antagonist_PenniesRetired(self, c, e, oid, campaign, at, nid) -> None:
        self._x(c, "UPDATE {p}antagonists SET pennies = 0 WHERE antagonist_id = ?", (oid,))
        self._x(c, "UPDATE {p}adventures SET retired = retired + ? WHERE campaign_id = ? AND number = ?",
                (e.amount, campaign, e.adventure))

    # challenges: pennies in play (PA-9, PA-12, PA-15, PA-19)
    def _purse(self, c: Any, oid: str, pile: int, in_play: int, won: int = 0) -> None:
        row = self._one(c, "SELECT kind FROM {p}streams WHERE originator_id = ?", (oid,))
        if row and row["kind"] == "Antagonist":
            self._x(c, "UPDATE {p}antagonists SET pennies = pennies + ?, in_play = in_play + ?,"
                       " winnings = winnings + ? WHERE antagonist_id = ?", (pile, in_play, won, oid))
        else:
            self._x(c, "UPDATE {p}characters SET pile = pile + ?, in_play = in_play + ? WHERE character_id = ?",
                    (pile, in_play, oid))

    def _on_Character_PenniesWagered(self, c, e, oid, *_: Any) -> None:
        self._purse(c, oid, -e.amount, e.amount)

    def _on_Character_PenniesReturned(self, c, e, oid, *_: Any) -> None:
        self._purse(c, oid, e.amount, -e.amount)

    def _on_Character_StakesSettled(self, c, e, oid, *_: Any) -> None:
        self._purse(c, oid, e.received, -e.staked)

    def _on_Character_BuyoutPaid(self, c, e, oid, *_: Any) -> None:
        self._pile(c, oid, -e.amount)

    def _on_Character_BuyoutReceived(self, c, e, oid, *_: Any) -> None:
        self._pile(c, oid, e.amount)

    def _on_Character_CharacteristicSurrendered(self, c, e, oid, *_: Any) -> None:
        self._x(c, "DELETE FROM {p}characteristics WHERE character_id = ? AND name = ?", (oid, e.name))

    def _on_Antagonist_PenniesWagered(self, c, e, oid, *_: Any) -> None:
        self._purse(c, oid, -e.amount, e.amount)

    def _on_Antagonist_PenniesReturned(self, c, e, oid, *_: Any) -> None:
        self._purse(c, oid, e.amount, -e.amount)

    def _on_Antagonist_StakesSettled(self, c, e, oid, *_: Any) -> None:
        self._purse(c, oid, e.received, -e.staked, won=e.received - e.staked)

    def _on_Antagonist_RepaymentReceived(self, c, e, oid, *_: Any) -> None:
        self._purse(c, oid, e.amount, 0)

    def _on_Antagonist_RepaymentPaid(self, c, e, oid, *_: Any) -> None:
        self._purse(c, oid, -e.amount, 0)

    def _on_Character_SettlementCorrected(self, c, e, oid, *_: Any) -> None:
        self._purse(c, oid, e.amount, 0)

    def _on_Antagonist_SettlementCorrected(self, c, e, oid, *_: Any) -> None:
        self._purse(c, oid, e.amount, 0, won=e.amount)

    def _on_House_BuyoutPaid(self, c, e, oid, campaign, at, nid) -> None:
        self._x(c, "UPDATE {p}adventures SET pile = pile - ? WHERE campaign_id = ? AND number ="
                   " (SELECT adventure FROM {p}campaigns WHERE campaign_id = ?)", (e.amount, campaign, campaign))

    # the Pool (PL-1 … PL-8)
    def _on_PoolCharacter_Created(self, c, e, oid, campaign, at, nid) -> None:
        cost = creation_cost(e.traits)
        self._x(c, "INSERT INTO {p}pool_characters VALUES (?, ?, ?, ?, ?, ?, ?)",
                (oid, campaign, e.seat, e.name, e.description, e.pool - cost, at))
        for name, rating in e.traits.items():
            self._x(c, "INSERT INTO {p}pool_traits VALUES (?, ?, ?)", (oid, name, rating))

    def _dice(self, c: Any, oid: str, delta: int) -> None:
        self._x(c, "UPDATE {p}pool_characters SET pool = pool + ? WHERE character_id = ?", (delta, oid))

    def _on_PoolCharacter_TraitRaised(self, c, e, oid, *_: Any) -> None:
        self._x(c, "DELETE FROM {p}pool_traits WHERE character_id = ? AND name = ?", (oid, e.name))
        self._x(c, "INSERT INTO {p}pool_traits VALUES (?, ?, ?)", (oid, e.name, e.rating))
        self._dice(c, oid, -e.cost)

    def _on_PoolCharacter_TraitCashedIn(self, c, e, oid, *_: Any) -> None:
        self._x(c, "DELETE FROM {p}pool_traits WHERE character_id = ? AND name = ?", (oid, e.name))
        self._dice(c, oid, e.rating)

    def _on_PoolCharacter_MoveBought(self, c, e, oid, *_: Any) -> None:
        self._x(c, "INSERT INTO {p}pool_moves VALUES (?, ?, ?)", (oid, e.name, e.cost))
        self._dice(c, oid, -e.cost)

    def _on_PoolCharacter_HelpUsed(self, c, e, oid, *_: Any) -> None:
        self._dice(c, oid, -e.lost)

    def _on_PoolCharacter_DiceLost(self, c, e, oid, *_: Any) -> None:
        self._dice(c, oid, -e.count)

    def _on_PoolCharacter_DiceGained(self, c, e, oid, *_: Any) -> None:
        self._dice(c, oid, e.count)

    def _roll_line(self, c: Any, nid: int, oid: str, campaign: str, seat: str, at: str, kind: str, rnd: int,
                   e: Any) -> None:
        self._x(c, "INSERT INTO {p}pool_rolls VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (nid, oid, campaign, seat, at, kind, rnd, e.count, e.trait, e.rating, json.dumps(list(e.dice)),
                 e.total, e.outcome, e.lost))

    def _on_PoolRoll_Rolled(self, c, e, oid, campaign, at, nid) -> None:
        self._roll_line(c, nid, oid, campaign, e.roller, at, "roll", 1, e)

    def _on_PoolContest_Rewound(self, c, e, oid, campaign, at, nid) -> None:
        """The rolls played after the step go from the sheets' history (C-6)."""
        state = self._load_state(c, "challenges", "challenge_id", oid)
        self._x(c, "DELETE FROM {p}pool_rolls WHERE resolution_id = ? AND round > ?", (oid, state.round))
        for side in state.sides.values():
            if not side["rolled"]:
                self._x(c, "DELETE FROM {p}pool_rolls WHERE resolution_id = ? AND round = ? AND seat = ?",
                        (oid, state.round, side["seat"]))

    def _on_PoolContest_Rolled(self, c, e, oid, campaign, at, nid) -> None:
        state = self._load_state(c, "challenges", "challenge_id", oid)
        self._roll_line(c, nid, oid, campaign, state.sides[e.side]["seat"], at, "contest", e.round, e)

    # -- seat tokens (hashed; never in events, exports or logs) ----------------
    def store_token(self, token: str, campaign_id: UUID, seat: str) -> None:
        with self.datastore.transaction(commit=True) as c:  # type: ignore[attr-defined]
            self._x(c, "INSERT INTO {p}seat_tokens VALUES (?, ?, ?, ?) ON CONFLICT (campaign_id, seat) DO UPDATE"
                       " SET token_hash = excluded.token_hash, issued_at = excluded.issued_at",
                    (token_hash(token), campaign_id.hex, seat, _now()))

    def seat_for_token(self, token: str) -> tuple[UUID, str] | None:
        row = self.query_one("SELECT campaign_id, seat FROM {p}seat_tokens WHERE token_hash = ?", (token_hash(token),))
        return (UUID(row["campaign_id"]), row["seat"]) if row else None

    def dump(self) -> dict[str, list[Row]]:
        """Every projection row, in a stable order (used to compare rebuilds)."""
        return {t: sorted((r for r in self.query(f"SELECT * FROM {{p}}{t}")), key=repr) for t in PROJECTION_TABLES}


class SQLiteViews(ViewsMixin, SQLiteTrackingRecorder):
    def construct_create_table_statements(self) -> list[str]:
        return [*super().construct_create_table_statements(), *(self._sql(s) for s in DDL)]

    def _delete_tracking_statement(self) -> str:
        return "DELETE FROM tracking WHERE application_name = ?"


class PostgresViews(ViewsMixin, PostgresTrackingRecorder):
    placeholder = "%s"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.prefix = '"' + self.datastore.schema.replace('"', '""') + '".'
        self.sql_create_statements.extend(SQL(self._sql(s)) for s in DDL)  # type: ignore[arg-type]

    def _delete_tracking_statement(self) -> Any:
        return SQL(f'DELETE FROM {self.prefix}"{self.tracking_table_name}" WHERE application_name = %s')  # type: ignore[arg-type]
