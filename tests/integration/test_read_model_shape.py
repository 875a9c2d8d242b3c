"""Read models written by an older release are projected anew in the new shape, on both stores."""

from __future__ import annotations

import pytest

from adapters.service import Stakes
from domain.seats import Seat
from tests.conftest import postgres_settings

HOUSE, ILSE = Seat.house(), Seat("ilse")


def a_campaign_with_a_roll(stakes: Stakes):
    cid = stakes.create_campaign("Shapes", "pool", {}).campaign.id
    stakes.run(cid, HOUSE, "add-player", {"seat": "ilse", "character": "Ilse", "description": "A brave thief"})
    stakes.run(cid, HOUSE, "start-adventure", {})  # C-1: units of resolution happen during an adventure
    stakes.run(cid, ILSE, "roll", {"count": 2})
    return cid


def test_rows_projected_for_another_shape_are_projected_again_on_start(settings):
    stakes = Stakes(settings)
    cid = a_campaign_with_a_roll(stakes)
    before = stakes.views.dump()
    with stakes.views.datastore.transaction(commit=True) as c:
        c.execute(stakes.views._sql("UPDATE {p}read_model_shape SET shape = ?"), ("an-older-release",))
    stakes.close()
    again = Stakes(settings)
    try:
        assert again.views.query_one("SELECT shape FROM {p}read_model_shape")["shape"] != "an-older-release"
        again.catch_up()
        assert again.views.dump() == before
        assert [u.kind for u in again.challenges(cid, ILSE)] == ["PoolRoll"]
    finally:
        again.close()


def test_a_store_from_before_shapes_were_recorded_is_projected_again(settings):
    stakes = Stakes(settings)
    cid = a_campaign_with_a_roll(stakes)
    with stakes.views.datastore.transaction(commit=True) as c:  # the challenges table of the last release
        c.execute(stakes.views._sql("DROP TABLE {p}challenges"))
        c.execute(stakes.views._sql(
            "CREATE TABLE {p}challenges (challenge_id TEXT PRIMARY KEY, campaign_id TEXT NOT NULL,"
            " announced_at TEXT NOT NULL, updated_at TEXT NOT NULL, phase TEXT NOT NULL, revealed BIGINT NOT NULL,"
            " ante BIGINT NOT NULL, pot BIGINT NOT NULL, version BIGINT NOT NULL, topic TEXT NOT NULL,"
            " state TEXT NOT NULL)"))
        c.execute(stakes.views._sql("DELETE FROM {p}read_model_shape"))
    stakes.close()
    again = Stakes(settings)
    try:
        again.catch_up()
        listed = again.challenges(cid, ILSE)
        assert [u.kind for u in listed] == ["PoolRoll"] and listed[0].position > 0
    finally:
        again.close()


def test_a_units_table_with_the_old_ante_and_pot_columns_is_projected_again_with_the_systems_own_summary(settings):
    """Issue 30 (ADR 0033): the units table kept Penny Ante's ante and pot as shared columns; now each system's
    projection fills a ``summary`` of its own. A store of the older shape is projected anew on start (its shape
    digest differs), and the list shows the challenge's ante and pot from its summary, a Pool roll its total."""
    stakes = Stakes(settings)
    cid = stakes.create_campaign("Old units table", "penny-ante", {}).campaign.id
    for seat, name in (("ilse", "Ilse"), ("tomas", "Tomas")):
        stakes.run(cid, HOUSE, "add-player", {"seat": seat, "character": name, "characteristic": "Sly"})
    stakes.run(cid, HOUSE, "start-adventure", {})
    stakes.run(cid, ILSE, "announce-challenge", {"challenger": {"players": ["ilse"]}, "opponent": {"players": ["tomas"]},
                                                   "ante": 2})
    roll = a_campaign_with_a_roll(stakes)
    with stakes.views.datastore.transaction(commit=True) as c:  # the units table as the last release made it
        c.execute(stakes.views._sql("DROP TABLE {p}challenges"))
        c.execute(stakes.views._sql(
            "CREATE TABLE {p}challenges (challenge_id TEXT PRIMARY KEY, campaign_id TEXT NOT NULL,"
            " position BIGINT NOT NULL, kind TEXT NOT NULL, sides TEXT NOT NULL,"
            " announced_at TEXT NOT NULL, updated_at TEXT NOT NULL, phase TEXT NOT NULL, revealed BIGINT NOT NULL,"
            " ante BIGINT NOT NULL, pot BIGINT NOT NULL, version BIGINT NOT NULL, topic TEXT NOT NULL,"
            " state TEXT NOT NULL)"))
        c.execute(stakes.views._sql("UPDATE {p}read_model_shape SET shape = ?"), ("the shape with ante and pot",))
    stakes.close()
    again = Stakes(settings)
    try:
        again.catch_up()
        [challenge] = again.challenges(cid, ILSE)
        assert challenge.kind == "Challenge" and challenge.summary == {"ante": 2, "pot": 0}
        [rolled] = [u.summary for u in again.challenges(roll, ILSE)]  # the Pool's own: the roll's total (PL-2)
        assert set(rolled) == {"count", "total", "outcome"} and rolled["outcome"] in ("full", "mixed", "miss")
    finally:
        again.close()


def test_a_new_store_is_not_projected_twice(settings):
    stakes = Stakes(settings)
    try:
        assert stakes.views.upgrade(stakes.app.name) is False
    finally:
        stakes.close()


@pytest.mark.postgres
def test_rebuilding_again_and_again_leaves_no_dead_rows_on_postgres(pg_server, pg_schema, tmp_path):
    """Issue 15: a rebuild empties the read models with TRUNCATE, not DELETE (no bloat). SQLite has no dead
    tuples: DELETE frees its pages for reuse."""
    settings = postgres_settings(pg_server, pg_schema, tmp_path)
    stakes = Stakes(settings)
    try:
        a_campaign_with_a_roll(stakes)
        for _ in range(3):
            stakes.rebuild()
        dead = stakes.views.query(
            "SELECT COALESCE(SUM(n_dead_tup), 0) AS dead FROM pg_stat_user_tables WHERE schemaname = ?"
            " AND relname IN ('event_log', 'challenges', 'campaigns', 'streams')", (settings.postgres_schema,))
        rows = stakes.views.query(
            "SELECT (SELECT COUNT(*) FROM {p}event_log) + (SELECT COUNT(*) FROM {p}challenges)"
            " + (SELECT COUNT(*) FROM {p}campaigns) + (SELECT COUNT(*) FROM {p}streams) AS n", ())
        # Three rebuilds emptied by DELETE would leave every row dead three times over; TRUNCATE leaves only what
        # the last projection itself updated in place (a unit opened and settled updates its campaign, C-1).
        assert dead[0]["dead"] < rows[0]["n"], (dead, rows)
    finally:
        stakes.close()


@pytest.mark.postgres
def test_a_large_catch_up_leaves_fresh_planner_statistics_on_postgres(pg_server, pg_schema, tmp_path, monkeypatch):
    """Issue 15: after a rebuild (or a server started on an empty read store) PostgreSQL would plan the refilled
    tables as empty until autovacuum came by, and read a page of the debt register by sorting every loan. A
    catch-up that applied many events analyzes the read models."""
    monkeypatch.setattr("adapters.projection.ANALYZE_AFTER", 5)
    settings = postgres_settings(pg_server, pg_schema, tmp_path)
    stakes = Stakes(settings)
    try:
        a_campaign_with_a_roll(stakes)
        stakes.rebuild()
        analyzed = stakes.views.query(
            "SELECT relname FROM pg_stat_user_tables WHERE schemaname = ? AND last_analyze IS NOT NULL",
            (settings.postgres_schema,))
        assert {"event_log", "challenges", "loans", "campaigns"} <= {r["relname"] for r in analyzed}
        # the columns reads filter, join or sort on have statistics; a row's payload none (PAYLOADS, issue 32)
        stats = {(r["tablename"], r["attname"]) for r in stakes.views.query(
            "SELECT tablename, attname FROM pg_stats WHERE schemaname = ?", (settings.postgres_schema,))}
        assert {("event_log", "campaign_id"), ("event_log", "challenge_id"), ("challenges", "campaign_id")} <= stats
        assert not {("event_log", "detail"), ("event_log", "visibility"), ("challenges", "state")} & stats
    finally:
        stakes.close()


def test_a_system_that_raises_its_rows_version_changes_the_shape(monkeypatch):
    """A system whose handlers write other rows for the same events raises ``Projection.rows``, so stores project
    anew on upgrade; its first version (1) is left out of the digest, so raising nothing moves nothing."""
    from adapters import views

    edges = [e for e in views.edges() if e.PROJECTION.tables]
    for e in edges:
        monkeypatch.setattr(e.PROJECTION, "rows", 1)
    first = views.shape()
    assert views.shape() == first
    monkeypatch.setattr(edges[0].PROJECTION, "rows", 2)
    assert views.shape() != first
