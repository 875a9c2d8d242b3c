"""Fan-out of "the log grew" and "a credential was revoked" to every open stream (issues 14, 29; ADR 0014).

On SQLite a watcher thread (:meth:`Fanout._watch`) looks at the credential tables whenever another
connection committed to the file, so a revocation by another process sharing the file reaches this
process's streams within a quarter of a second.

One notifier per process (``api/stream.py``'s hub) waits on :class:`Fanout`; the service wakes it after each
catch-up that applied events. The embedded SQLite store lives in one process, so waking this process is
enough. On PostgreSQL a second process (another server, the CLI embedded next to it) writes too: the
transaction that projects new events sends ``pg_notify`` on the schema's channel as it commits, and a
listener thread in every process (``LISTEN``, psycopg) wakes that process's notifier. The notifier also
reads the store after ``POLL`` seconds without a wake-up, so a lost notification, a listener that cannot
connect, or a SQLite file written by another process only delays a frame, never loses it.

A revocation (:meth:`Fanout.revoked`) bumps :attr:`Fanout.generation`: every stream compares it with the
generation its credential was last checked at before it sends anything, and checks the credential again
when it moved. On PostgreSQL the revocation is also a notification on the same channel (payload
``revoked``): PostgreSQL delivers one channel's notifications in commit order, so another process sees the
revocation before any event written after it.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import sqlite3
import threading
from contextlib import closing
from typing import Any

import psycopg
from psycopg import sql

from adapters.settings import Settings

#: Seconds the notifier waits for a wake-up before it reads the store anyway (the polling fallback).
POLL = 2.0
#: Seconds between two looks at a SQLite file's credentials (another process's revocations).
WATCH = 0.25
#: The payload of a revocation's notification (a log notification's is empty).
REVOKED = "revoked"
log = logging.getLogger("stakes.fanout")


def channel(settings: Settings) -> str:
    """The NOTIFY channel of one PostgreSQL schema (an identifier of at most 63 bytes)."""
    return "stakes_" + hashlib.sha256(settings.postgres_schema.encode()).hexdigest()[:24]


class Fanout:
    """Wakes the streams of this process; on PostgreSQL, of every process on the same schema."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._waiters: set[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = set()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._listener: threading.Thread | None = None
        self.listening = threading.Event()  # set while LISTEN is active (tests wait on it)
        #: SQLite: the credential tables in brief at the last look (``_look``).
        self._seen: tuple[Any, ...] | None = None
        #: Bumped by every revocation seen by this process (its own, or another's on PostgreSQL).
        self.generation = 0
        #: Wake-ups so far: a notifier that read the store after seeing this count and waits with it
        #: (``wait(…, seen)``) returns at once for a wake-up it was not waiting for (none is lost).
        self.wakes = 0
        #: The campaigns (hex) whose log grew in this process since the notifier last took them (``changed``);
        #: None: any may have (another process's write, a revocation, a wake-up that named none).
        self._changed: set[str] | None = set()

    # -- waking ---------------------------------------------------------------------------------
    def wake(self, campaigns: set[str] | None = None) -> None:
        """Wake every stream waiting in this process (thread-safe); ``campaigns``: the only ones whose log grew
        (None: any may have)."""
        with self._lock:
            self.wakes += 1
            if campaigns is None:
                self._changed = None
            elif self._changed is not None:
                self._changed |= campaigns
            waiters = list(self._waiters)
        for loop, event in waiters:
            try:
                loop.call_soon_threadsafe(event.set)
            except RuntimeError:  # that loop has closed; its stream is gone
                pass

    def revoked(self) -> None:
        """A credential (a seat token or a web session) stopped working here (issue 29).

        Every open stream of this process must check its credential again before it sends anything more;
        on PostgreSQL every other process on the schema is told too. Called by whoever revokes, right
        after the revocation committed. (Contract shared by the stream and the web session work.)"""
        self._bump()
        if self.settings.store == "postgres":
            try:  # before the caller goes on, so any later write's notification is delivered after this one
                with self._connect() as conn:
                    conn.execute("SELECT pg_notify(%s, %s)", (channel(self.settings), REVOKED))
            except psycopg.Error as exc:  # the other processes' streams re-check on their own (RECHECK)
                log.warning("could not tell the other processes of a revocation: %s", exc)

    def _bump(self) -> None:
        with self._lock:
            self.generation += 1
        self.wake()

    def published(self, campaigns: set[str] | None = None) -> None:
        """The read models moved on here (for ``campaigns``, when known): wake this process. The other processes
        on PostgreSQL were told by the projection's own transaction (``pg_notify`` at its commit,
        ``adapters/views.py``)."""
        self.wake(campaigns)

    def changed(self) -> set[str] | None:
        """Taken: the campaigns whose log grew since the last take (None: any may have). The notifier takes it
        after it took ``wakes``, so what a later wake-up names is read by the pass that wake-up causes."""
        with self._lock:
            found, self._changed = self._changed, set()
        return found

    async def wait(self, timeout: float = POLL, seen: int | None = None) -> bool:
        """Wait until woken or ``timeout`` passes; True when woken. ``seen``: the count of wake-ups (``wakes``)
        the caller has acted on: one since then (while it was not waiting) returns at once."""
        event = asyncio.Event()
        entry = (asyncio.get_running_loop(), event)
        with self._lock:
            if seen is not None and self.wakes != seen:
                return True
            self._waiters.add(entry)
        try:
            await asyncio.wait_for(event.wait(), timeout)
            return True
        except TimeoutError:
            return False
        finally:
            with self._lock:
                self._waiters.discard(entry)

    # -- SQLite: another process's revocations ---------------------------------------------------
    def _credentials(self, conn: sqlite3.Connection) -> tuple[Any, ...]:
        """What the credential tables hold, in brief: any deletion (a reissue, a sign-out, a claim that ends
        the old holder's sessions) changes it. Read only when the file changed (``data_version``)."""
        # count and rowid total catch a deletion; the newest row's hash catches a deletion of the newest row
        # followed by an insert that takes its rowid again (SQLite reuses the top rowid) within one look
        return tuple(conn.execute(
            "SELECT (SELECT count(*) FROM seat_tokens), (SELECT total(rowid) FROM seat_tokens),"
            " (SELECT token_hash FROM seat_tokens ORDER BY rowid DESC LIMIT 1),"
            " (SELECT count(*) FROM web_sessions), (SELECT total(rowid) FROM web_sessions),"
            " (SELECT session_hash FROM web_sessions ORDER BY rowid DESC LIMIT 1)").fetchone())

    def _look(self, conn: sqlite3.Connection) -> None:
        """Bump the generation when the credential tables changed since the last look (either caller)."""
        found = self._credentials(conn)
        with self._lock:  # the new look and its generation together: a sync() in between sees both or neither
            changed = self._seen is not None and found != self._seen
            self._seen = found
            if changed:
                self.generation += 1
        if changed:
            self.wake()

    def sync(self) -> None:
        """SQLite: look at the credentials now. The stream hub calls it after reading log rows and before
        handing them out, so rows written after another process's revocation (the revocation committed
        first, in the same file) never reach a stream whose credential it ended. PostgreSQL while LISTEN is
        down (another process's revocation would not be heard): every stream checks its credential again
        before these rows, as after a revocation (issue 29 audit, stop 36)."""
        if self.settings.store != "sqlite":
            if self._listener is not None and not self.listening.is_set():
                self._bump()
            return
        try:
            with closing(sqlite3.connect(f"file:{self.settings.views_path}?mode=ro", uri=True, timeout=1)) as conn:
                self._look(conn)
        except sqlite3.Error as exc:
            log.warning("could not look at the credentials: %s", exc)

    def _watch(self) -> None:
        """SQLite has no NOTIFY: a server sharing its file with another process (a second ``stakes serve``,
        the embedded CLI) learns of that process's revocations here, within ``WATCH`` seconds (issue 29).
        ``PRAGMA data_version`` changes only when another connection committed, so an idle file costs one
        pragma a tick; when the file changed, the credentials are looked at, then the streams woken (another
        process's log rows reach them without waiting for the notifier's poll)."""
        path = self.settings.views_path
        version = None
        while not self._stop.is_set():
            try:
                with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=1)) as conn:
                    while not self._stop.is_set():
                        now = conn.execute("PRAGMA data_version").fetchone()[0]
                        if now != version:
                            first = version is None
                            version = now
                            self._look(conn)
                            if not first:
                                self.wake()
                        self._stop.wait(WATCH)
            except sqlite3.Error:  # no file or tables yet, or busy: look again later
                self._stop.wait(WATCH)

    # -- PostgreSQL LISTEN ------------------------------------------------------------------------
    def start(self) -> None:
        """Listen for the other processes' notifications (PostgreSQL), or watch the SQLite file's credentials
        for another process's revocations (SQLite)."""
        if self._listener is not None:
            return
        target = self._listen if self.settings.store == "postgres" else self._watch
        self._listener = threading.Thread(target=target, name="stakes-listen", daemon=True)
        self._listener.start()

    def close(self) -> None:
        self._stop.set()
        if self._listener is not None:
            self._listener.join(timeout=5)

    def _connect(self) -> Any:
        s = self.settings
        return psycopg.connect(host=s.postgres_host, port=s.postgres_port, user=s.postgres_user,
                               password=s.postgres_password, dbname=s.postgres_dbname, autocommit=True,
                               connect_timeout=max(1, s.store_timeout))

    def _listen(self) -> None:
        while not self._stop.is_set():
            try:
                with self._connect() as conn:
                    conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(channel(self.settings))))
                    self.listening.set()
                    self._bump()  # a revocation or a write may have come while we were not listening
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=1.0, stop_after=1):
                            if note.payload == REVOKED:
                                self._bump()  # before the wake of any event written after it
                            else:  # the campaigns whose log grew; none named: any may have
                                self.wake(set(note.payload.split(",")) if note.payload else None)
            except psycopg.Error as exc:
                self.listening.clear()
                log.warning("LISTEN failed, streams poll until it is back: %s", exc)
                self._stop.wait(POLL)
