"""A pooled PostgreSQL connection is pinged before use only when it sat idle (issue 15): a command takes a
dozen connections from the pool, and a ping on each was a round trip apiece."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from adapters import store


class Connection:
    pass


@pytest.fixture
def clock(monkeypatch) -> list[float]:
    now = [100.0]
    monkeypatch.setattr(store.time, "monotonic", lambda: now[0])
    return now


@pytest.fixture
def pings() -> list[Connection]:
    return []


@pytest.fixture
def pool(pings) -> SimpleNamespace:
    datastore = SimpleNamespace(pool=SimpleNamespace(_check=pings.append))
    store.ping_when_idle(datastore)
    return datastore.pool


def test_a_connection_used_a_moment_ago_is_not_pinged_again(clock, pings, pool) -> None:
    conn = Connection()
    pool._check(conn)
    clock[0] += store.PING_AFTER / 2
    pool._check(conn)
    assert pings == [conn]


def test_a_connection_idle_for_a_while_is_pinged_before_use(clock, pings, pool) -> None:
    store.ping_when_idle(SimpleNamespace(pool=pool))  # twice: still one ping per check, not two
    conn, other = Connection(), Connection()
    pool._check(conn)
    clock[0] += store.PING_AFTER
    pool._check(conn)
    pool._check(other)  # never used: pinged
    assert pings == [conn, conn, other]


def test_a_store_without_a_ping_is_left_alone() -> None:
    store.ping_when_idle(SimpleNamespace())  # no pool at all (SQLite)
    no_ping = SimpleNamespace(pool=SimpleNamespace(_check=None))
    store.ping_when_idle(no_ping)
    assert no_ping.pool._check is None
