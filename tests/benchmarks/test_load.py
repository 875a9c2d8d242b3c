"""``make bench``: Stakes side by side with a naive peer and raw eventsourcing saves (issue 15).

Under ``make bench`` each store gets one interleaved run: command throughput and latency through HTTP
at ``STAKES_BENCH_CLIENTS`` clients (default 8; also 16 with 1 and 4 workers on PostgreSQL, issue 10),
and rebuild, audit and export of a generated campaign (``STAKES_BENCH_CAMPAIGN_EVENTS``, default 10,000)
against the raw read-and-decode rate of its log. The table goes to ``docs/benchmarks.md`` and the
README's ``<!-- bench -->`` block. Under ``make test`` (benchmarks disabled) the same code runs for a
second with two clients, as a smoke test that writes nothing.
"""

from __future__ import annotations

import os
import re
import sqlite3
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

import psycopg
import psycopg.sql
import pytest

from adapters.service import Stakes
from adapters.settings import Settings
from tests.benchmarks import campaign, load, verdicts
from tests.benchmarks.campaign import HOUSE

ROOT = Path(__file__).resolve().parents[2]
REPORT = ROOT / "docs" / "benchmarks.md"


def _int(name: str, default: int) -> int:
    return int(os.environ.get(name, default))


def raw_decode_rate(stakes: Stakes) -> tuple[int, float]:
    """Events per second eventsourcing reads and decodes the whole log, in pages of 1,000."""
    recorder, mapper = stakes.app.recorder, stakes.app.mapper
    start, count, began = 1, 0, time.perf_counter()
    while True:
        notes = recorder.select_notifications(start=start, limit=1000)
        if not notes:
            break
        for note in notes:
            mapper.to_domain_event(note)
        count += len(notes)
        start = notes[-1].id + 1
    return count, count / (time.perf_counter() - began)


def disk_bytes(stakes: Stakes, settings: Settings) -> tuple[int, int]:
    """Bytes on disk now: the event store (events, chain, snapshots) and the read models."""
    if settings.store == "sqlite":
        def size(path: Path) -> int:
            # The write-ahead log is working space, folded into the file at each checkpoint: measure after one.
            with closing(sqlite3.connect(path)) as conn:
                conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            return sum(p.stat().st_size for p in path.parent.glob(path.name + "*"))
        return size(settings.sqlite_path), size(settings.views_path)
    rows = stakes.views.query(
        "SELECT c.relname AS name, pg_total_relation_size(c.oid) AS bytes FROM pg_class c"
        " JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = ? AND c.relkind = 'r'",
        (settings.postgres_schema,))
    store_tables = {"stakes_events", "stakes_events_chain", "stakes_events_chain_head", "stakes_snapshots",
                    "stakes_snapshots_seal"}
    return (sum(r["bytes"] for r in rows if r["name"] in store_tables),
            sum(r["bytes"] for r in rows if r["name"] not in store_tables))


def disk_per_event(stakes: Stakes, settings: Settings, events: int, empty: tuple[int, int]) -> dict[str, float]:
    """Bytes per event the campaign added: the store's size less what it held empty (every table and index
    takes a few pages before its first row: about 1 MB on PostgreSQL, 70 bytes an event at 10,000)."""
    store, views = disk_bytes(stakes, settings)
    return {"store bytes per event": (store - empty[0]) / max(events, 1),
            "read model bytes per event": (views - empty[1]) / max(events, 1), "empty store bytes": sum(empty)}


def timed(fn) -> float:
    began = time.perf_counter()
    fn()
    return time.perf_counter() - began


def best_of_three(fn) -> float:
    return min(timed(fn) for _ in range(3))


@contextmanager
def own_store(settings: Settings, tmp: Path, name: str = "ledger") -> Iterator[Settings]:
    """A store that holds the generated campaign alone, so its bytes per event are a campaign's and not the
    load runs' (8 characters buying a characteristic a request, snapshotted with every one they hold)."""
    if settings.store == "sqlite":
        yield settings.model_copy(update={"sqlite_path": tmp / name / "stakes.sqlite"})
        return
    schema = f"{settings.postgres_schema}_{name}"
    try:
        yield settings.model_copy(update={"postgres_schema": schema})
    finally:
        with psycopg.connect(host=settings.postgres_host, port=settings.postgres_port, user=settings.postgres_user,
                             password=settings.postgres_password, dbname=settings.postgres_dbname,
                             autocommit=True) as conn:
            conn.execute(psycopg.sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(psycopg.sql.Identifier(schema)))


def ledger_rates(settings: Settings, events: int) -> dict[str, float]:
    stakes = Stakes(settings)
    try:
        before = stakes.app.recorder.max_notification_id() or 0
        empty = disk_bytes(stakes, settings)
        cid = campaign.new_campaign(stakes)
        campaign.grow(stakes, cid, before + events)
        # the whole store, as the rebuild reads it; the best of three, so a slow first read does not flatter
        count, decode = max((raw_decode_rate(stakes) for _ in range(3)), key=lambda found: found[1])
        rates = {"events": count, "raw decode": decode}
        # each tool's best of three too, as the raw decode's: a first, cold run is neither's measure
        rates["rebuild"] = count / best_of_three(stakes.rebuild)
        audited = stakes.audit(cid, HOUSE).events
        rates["campaign events"] = audited
        rates["audit verify"] = audited / best_of_three(lambda: stakes.audit(cid, HOUSE))
        rates["export"] = audited / best_of_three(lambda: sum(1 for _ in stakes.export_campaign(cid, HOUSE)))
        rates.update(disk_per_event(stakes, settings, count, empty))
        return rates
    finally:
        stakes.close()


def throughput_rows(settings: Settings, env: dict[str, str], tmp: Path, clients: int, seconds: float,
                    worker_counts: list[int]) -> list[tuple[str, load.Run]]:
    rows: list[tuple[str, load.Run]] = []
    with load.naive_server(env, tmp / "naive.log") as url:
        rows.append((f"naive peer, {clients} clients", load.naive_load(url, clients, seconds)))
    for workers in worker_counts:
        with load.stakes_server(env, tmp / f"stakes-{workers}.log", workers) as url:
            rows.append((f"Stakes, {clients} clients, {workers} worker(s)", load.stakes_load(url, clients, seconds)))
    with load.naive_server(env, tmp / "floor.log") as url:
        rows.append((f"web floor (no store), {clients} clients", load.floor_load(url, clients, seconds)))
    rows.append((f"raw eventsourcing saves, {clients} writers", load.raw_saves(env, clients, seconds)))
    return rows


def render(store: str, rows: list[tuple[str, load.Run]], rates: dict[str, float]) -> str:
    naive = next(r for name, r in rows if name.startswith("naive")).throughput or 1.0
    floor = next(r for name, r in rows if name.startswith("web floor")).throughput or 1.0
    raw = next(r for name, r in rows if name.startswith("raw")).throughput or 1.0
    lines = [f"### {store}", "",
             ("| measure | per second | p50 ms | p99 ms | 5xx | drift | × naive peer | × web floor | × raw saves | "
              "server CPU ms | client CPU ms |"),
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for name, run in rows:
        server, client = run.cpu_ms(run.server_cpu), run.cpu_ms(run.client_cpu)
        lines.append(f"| {name} | {run.throughput:.0f} | {run.percentile(50):.1f} | {run.percentile(99):.1f} "
                     f"| {run.server_errors} | {run.drift:.2f} | {run.throughput / naive:.2f} "
                     f"| {run.throughput / floor:.2f} | {run.throughput / raw:.2f} "
                     f"| {'–' if server is None else f'{server:.2f}'} | {client:.2f} |")
    lines += ["", ("CPU milliseconds are per answered request: the server's processes (every worker), and the "
                   "load's own process (the clients; for raw saves, the saves themselves, in process). Drift is "
                   "the answers of a run's second half over its first: about 1.00 when the rate held (issue 32).")]
    decode = rates["raw decode"] or 1.0
    lines += ["", f"Ledger tools on a generated campaign of {rates['campaign events']:,.0f} events, alone in its store "
                  "(raw decode, rebuild, audit, export, disk):", "",
              "| measure | events per second | × raw decode |", "|---|---:|---:|"]
    for key in ("raw decode", "rebuild", "audit verify", "export"):
        lines.append(f"| {key} | {rates[key]:.0f} | {rates[key] / decode:.2f} |")
    store, views = rates["store bytes per event"], rates["read model bytes per event"]
    lines += ["", f"Disk per event: {store + views:,.0f} bytes ({store:,.0f} in the event store with its chain and "
                  f"snapshots, {views:,.0f} in the read models), beyond the {rates['empty store bytes'] / 1e6:.1f} MB "
                  "an empty store takes."]
    return "\n".join(lines) + "\n"


def summary(store: str, rows: list[tuple[str, load.Run]], rates: dict[str, float]) -> str:
    """The README's one line for a store (issue 32): commands against both baselines, and the ledger tools."""
    clients, naive = next((name.split(", ", 1)[1], r) for name, r in rows if name.startswith("naive"))
    floor = next(r for name, r in rows if name.startswith("web floor"))
    stakes = max((r for name, r in rows if name.startswith(f"Stakes, {clients}")), key=lambda r: r.throughput)
    decode = rates["raw decode"] or 1.0
    return (f"- **{store}**: {stakes.throughput:.0f} commands a second at {clients} "
            f"({stakes.throughput / (naive.throughput or 1):.2f}× the steady naive peer, "
            f"{stakes.throughput / (floor.throughput or 1):.2f}× the web floor, p99 {stakes.percentile(99):.0f} ms); "
            f"rebuild {rates['rebuild'] / decode:.2f}×, audit {rates['audit verify'] / decode:.2f}×, export "
            f"{rates['export'] / decode:.2f}× the raw decode; {rates['store bytes per event'] + rates['read model bytes per event']:,.0f}"
            " bytes an event.")


def figures(rows: list[tuple[str, load.Run]], rates: dict[str, float]) -> dict[str, float]:
    """The figures issue 32's targets are judged on (``verdicts``): the best Stakes row at the naive peer's
    clients against that peer and the web floor, the 5xx of every Stakes row, and the ledger tools."""
    clients, naive = next((name.split(", ", 1)[1], r) for name, r in rows if name.startswith("naive"))
    floor = next(r for name, r in rows if name.startswith("web floor"))
    ours = [r for name, r in rows if name.startswith(f"Stakes, {clients}")]
    best = max(ours, key=lambda r: r.throughput)
    decode = rates["raw decode"] or 1.0
    return {"commands x naive": best.throughput / (naive.throughput or 1),
            "commands x floor": best.throughput / (floor.throughput or 1),
            "commands 5xx": sum(r.server_errors for name, r in rows if name.startswith("Stakes")),
            "commands p99 ms": best.percentile(99),
            "rebuild x decode": rates["rebuild"] / decode, "audit x decode": rates["audit verify"] / decode,
            "export x decode": rates["export"] / decode}


def publish(section: str, store: str, line: str | None = None) -> None:
    """Replace this store's section in docs/benchmarks.md, and its one line (``line``) in the README's bench
    block; the README keeps no tables (issue 32)."""
    text = REPORT.read_text() if REPORT.exists() else (
        "# Benchmarks\n\nWritten by `make bench` (tests/benchmarks/test_load.py) on the machine that ran it.\n"
        "Ratios compare figures taken in the same run on the same store.\n\n")
    pattern = re.compile(rf"### {re.escape(store)}\n.*?(?=\n### |\Z)", re.S)
    text = (pattern.sub(lambda _: section.rstrip("\n") + "\n", text) if pattern.search(text)
            else text.rstrip("\n") + "\n\n" + section)
    REPORT.write_text(text.rstrip("\n") + "\n")
    if line is None:
        return
    readme = ROOT / "README.md"
    body = readme.read_text()
    block = re.compile(r"<!-- bench -->\n(.*?)<!-- /bench -->", re.S)
    found = block.search(body)
    if found:
        kept = [x for x in found.group(1).splitlines() if x.strip() and not x.startswith(f"- **{store}**")]
        lines = sorted([*kept, line], key=lambda x: (not x.startswith("- **"), x))
        readme.write_text(body[:found.start(1)] + "\n".join(lines) + "\n" + body[found.end(1):])


@pytest.mark.benchmark(group="load")
def test_load_against_the_naive_peer_and_raw_saves(benchmark, settings, env_for, tmp_path):
    measuring = not benchmark.disabled
    clients = _int("STAKES_BENCH_CLIENTS", 8) if measuring else 2
    seconds = float(os.environ.get("STAKES_BENCH_SECONDS", 10)) if measuring else 1.0
    events = _int("STAKES_BENCH_CAMPAIGN_EVENTS", 10_000) if measuring else 200
    env = env_for(settings)
    workers = ([1, 4] if settings.store == "postgres" else [1, 2]) if measuring else [1]

    def measure():
        rows = throughput_rows(settings, env, tmp_path, clients, seconds, workers)
        if measuring and settings.store == "postgres":
            rows += [(name.replace(f"{clients} clients", "16 clients"), run) for name, run in
                     throughput_rows(settings, env, tmp_path, 16, seconds, [1, 4]) if name.startswith("Stakes")]
        with own_store(settings, tmp_path) as alone:
            return rows, ledger_rates(alone, events)

    rows, rates = benchmark.pedantic(measure, rounds=1, iterations=1)
    section = render(settings.store, rows, rates)
    print("\n" + section)
    if measuring:  # before the asserts: a target missed by a 5xx is still judged
        verdicts.record(settings.store, **figures(rows, rates))
    for name, run in rows:
        assert run.done > 0, f"{name}: nothing answered {run.statuses}"
        assert run.server_errors == 0, f"{name}: {run.statuses}"
    if measuring:
        publish(section, settings.store, summary(settings.store, rows, rates))
