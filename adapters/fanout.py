"""Fan-out of "the log grew" to every open stream (issue 14, ADR 0014).

A stream waits on :class:`Fanout`; the service wakes it after each catch-up that applied events. The
embedded SQLite store lives in one process, so waking the waiters in this process is enough. On
PostgreSQL a second process (another server, the CLI embedded next to it) writes too: the transaction
that projects new events sends ``pg_notify`` on the schema's channel as it commits, and a listener
thread in every process (``LISTEN``, psycopg) wakes that process's waiters. A stream also re-reads the store
after ``POLL`` seconds without a wake-up, so a lost notification, a listener that cannot connect,
or a SQLite file written by another process only delays a frame, never loses it.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import threading
from typing import Any

import psycopg
from psycopg import sql

from adapters.settings import Settings

#: Seconds a stream waits for a wake-up before it reads the store anyway (the polling fallback).
POLL = 2.0
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

    # -- waking ---------------------------------------------------------------------------------
    def wake(self) -> None:
        """Wake every stream waiting in this process (thread-safe)."""
        with self._lock:
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
        self.wake()

    def published(self) -> None:
        """The read models moved on here: wake this process. The other processes on PostgreSQL were told
        by the projection's own transaction (``pg_notify`` at its commit, ``adapters/views.py``)."""
        self.wake()

    async def wait(self, timeout: float = POLL) -> bool:
        """Wait until woken or ``timeout`` passes; True when woken."""
        event = asyncio.Event()
        entry = (asyncio.get_running_loop(), event)
        with self._lock:
            self._waiters.add(entry)
        try:
            await asyncio.wait_for(event.wait(), timeout)
            return True
        except TimeoutError:
            return False
        finally:
            with self._lock:
                self._waiters.discard(entry)

    # -- PostgreSQL LISTEN ------------------------------------------------------------------------
    def start(self) -> None:
        """Listen for the other processes' notifications (PostgreSQL only)."""
        if self.settings.store != "postgres" or self._listener is not None:
            return
        self._listener = threading.Thread(target=self._listen, name="stakes-listen", daemon=True)
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
                    self.wake()  # anything written while we were not listening
                    while not self._stop.is_set():
                        for _ in conn.notifies(timeout=1.0, stop_after=1):
                            self.wake()
            except psycopg.Error as exc:
                self.listening.clear()
                log.warning("LISTEN failed, streams poll until it is back: %s", exc)
                self._stop.wait(POLL)
