"""A pooled PostgreSQL connection is pinged before use only when it sat idle (issue 15): a command takes a
dozen connections from the pool, and a ping on each was a round trip apiece."""

from __future__ import annotations

from types import SimpleNamespace

from adapters import store


class Connection:
    pass


def pool_that_pings(pings: list[Connection]) -> SimpleNamespace:
    return SimpleNamespace(pool=SimpleNamespace(_check=pings.append))


def test_a_connection_used_a_moment_ago_is_not_pinged_again(monkeypatch) -> None:
    now = [100.0]
    monkeypatch.setattr(store.time, "monotonic", lambda: now[0])
    pings: list[Connection] = []
    datastore = pool_that_pings(pings)
    store.ping_when_idle(datastore)
    conn = Connection()
    datastore.pool._check(conn)
    now[0] += store.PING_AFTER / 2
    datastore.pool._check(conn)
    assert pings == [conn]


def test_a_connection_idle_for_a_while_is_pinged_before_use(monkeypatch) -> None:
    now = [100.0]
    monkeypatch.setattr(store.time, "monotonic", lambda: now[0])
    pings: list[Connection] = []
    datastore = pool_that_pings(pings)
    store.ping_when_idle(datastore)
    store.ping_when_idle(datastore)  # twice: still one ping per check, not two
    conn, other = Connection(), Connection()
    datastore.pool._check(conn)
    now[0] += store.PING_AFTER
    datastore.pool._check(conn)
    datastore.pool._check(other)  # never used: pinged
    assert pings == [conn, conn, other]


def test_a_store_without_a_ping_is_left_alone() -> None:
    sqlite_like = SimpleNamespace()
    store.ping_when_idle(sqlite_like)  # no pool at all
    no_ping = SimpleNamespace(pool=SimpleNamespace(_check=None))
    store.ping_when_idle(no_ping)
    assert no_ping.pool._check is None
