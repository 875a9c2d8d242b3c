"""Red team: a process starting on a SQLite store while another writes its views must not fail with
"database is locked" at once (red team of 2026-11-28, ADR 0028 addendum): ``ViewsMixin.upgrade`` read, then wrote,
in a DEFERRED transaction, and another connection's commit in between made the write fail at once (WAL)."""

from __future__ import annotations

import sqlite3
import threading

import pytest

from adapters.service import Stakes
from adapters.views import SQLiteViews


@pytest.mark.parametrize("settings", ["sqlite"], indirect=True)
def test_a_start_up_while_another_process_writes_the_views_waits_instead_of_failing(settings, monkeypatch) -> None:
    Stakes(settings).close()  # the store exists, as when a server restarts beside others
    real = SQLiteViews._one
    fired: list[threading.Thread] = []

    def other_process_writes() -> None:
        with sqlite3.connect(settings.views_path, timeout=10, isolation_level=None) as other:
            other.execute("CREATE TABLE IF NOT EXISTS probe (x)")  # any commit of another process
            other.execute("INSERT INTO probe VALUES (1)")

    def one(self, c, statement, params=()):
        row = real(self, c, statement, params)
        if "read_model_shape" in statement and not fired:  # upgrade has read: another process commits now
            fired.append(threading.Thread(target=other_process_writes))
            fired[0].start()
            fired[0].join(1.0)  # it waits for us when we hold the write lock: go on after a second
        return row

    monkeypatch.setattr(SQLiteViews, "_one", one)
    Stakes(settings).close()  # fails "database is locked" when upgrade took no write lock before reading
    fired[0].join(10)
