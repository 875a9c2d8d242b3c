"""What one command costs, counted (issue 30 item 7, issue 32): SQL statements, aggregate builds, unit views
and CPU time per command, for every system, through the service as the API calls it, on SQLite and PostgreSQL.

Each system's table (the conformance suite's: the House and three players, an adventure running) plays a fixed
sequence: random legal play from the units' listed moves (``tests/integration/conformance.py``) with a fixed
random generator and the service's secrets drawn from a fixed sequence, so two runs (two releases) play the
same commands and can be compared command by command. Only the commands are counted (``Stakes.act``,
``Stakes.run``): the reads the driver makes to choose its next move are not. ``answers`` is a digest of every
answer with its ids and times masked: equal digests mean the two releases answered the same.

    PYTHONPATH=. /work/main/.venv/bin/python tests/benchmarks/command_cost.py [--stores sqlite,postgres]
        [--moves 40] [--systems pool,...] [--profile FILE.prof] [--json FILE]

Counted:

- ``sql``: statements sent (``execute``/``executemany``/``COPY``, on the store's cursors; transaction control
  the drivers send by themselves is not counted);
- ``gets``: aggregates the application asks its repository for (from the cache, brought forward, or rebuilt
  from the store);
- ``copies``: aggregates deep-copied out of the cache for a command;
- ``rows``: units decoded from their snapshot rows (the projection's and the answer's);
- ``mutates``: unit events the projection applies to a unit with the unit's mutators (a second build), not
  counting those whose unit it takes from the command that stored them (``ViewsMixin.handing_in``);
- ``views``: a system's full unit view computed (``unit_view``), for any seat;
- ``cpu``: this process's CPU time (ms; PostgreSQL's server time is not in it); ``wall`` its wall time.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import hashlib
import itertools
import json
import random
import re
import statistics
import sys
import tempfile
import time
import uuid
from collections import defaultdict
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import psycopg  # noqa: E402
from eventsourcing import application  # noqa: E402
from eventsourcing.application import Repository  # noqa: E402
from eventsourcing.sqlite import SQLiteCursor  # noqa: E402

from adapters import randomness, views  # noqa: E402
from adapters.service import Stakes  # noqa: E402
from adapters.settings import Settings  # noqa: E402
from adapters.systems import edge  # noqa: E402
from adapters.views import ViewsMixin  # noqa: E402
from domain.errors import StakesError  # noqa: E402
from domain.kernel.registry import supported  # noqa: E402
from domain.seats import Seat  # noqa: E402
from tests.integration.conformance import PROFILES, Table, body_for  # noqa: E402

COUNTS = ("sql", "gets", "copies", "rows", "mutates", "views")


class Meter:
    """Counts what the patched methods do while ``on``."""

    def __init__(self) -> None:
        self.on = False
        self.now: dict[str, int] = defaultdict(int)
        #: Profiles the counted commands only, when set.
        self.profiler: cProfile.Profile | None = None

    def tick(self, what: str, n: int = 1) -> None:
        if self.on:
            self.now[what] += n

    @contextlib.contextmanager
    def measuring(self) -> Iterator[dict[str, float]]:
        self.now = defaultdict(int)
        out: dict[str, float] = {}
        cpu, wall = time.process_time(), time.perf_counter()
        self.on = True
        if self.profiler is not None:
            self.profiler.enable()
        try:
            yield out
        finally:
            if self.profiler is not None:
                self.profiler.disable()
            self.on = False
            out.update({k: self.now[k] for k in COUNTS})
            out["cpu"] = (time.process_time() - cpu) * 1000
            out["wall"] = (time.perf_counter() - wall) * 1000


METER = Meter()


def _counting(cls: Any, name: str, what: str) -> None:
    original = getattr(cls, name)

    def counted(self: Any, *args: Any, **kwargs: Any) -> Any:
        METER.tick(what)
        return original(self, *args, **kwargs)

    setattr(cls, name, counted)


def _outermost(cls: Any, name: str, what: str) -> None:
    """Counted once however many overrides it passes through (a subclass's ``get`` calling its base's)."""
    original = getattr(cls, name)

    def counted(self: Any, *args: Any, **kwargs: Any) -> Any:
        if getattr(self, "_counting", False):
            return original(self, *args, **kwargs)
        METER.tick(what)
        self._counting = True
        try:
            return original(self, *args, **kwargs)
        finally:
            self._counting = False

    setattr(cls, name, counted)


def instrument() -> None:
    """Count what the store, the repository, the projection and the views do (once per process)."""
    for cls in (SQLiteCursor, psycopg.Cursor):
        _counting(cls, "execute", "sql")
        _counting(cls, "executemany", "sql")
    _counting(psycopg.Cursor, "copy", "sql")
    import domain.application  # noqa: F401  # its repository, if it has its own, is counted too

    for cls in (Repository, *Repository.__subclasses__()):
        if "get" in cls.__dict__:
            _outermost(cls, "get", "gets")
    original_copy = application.deepcopy

    def copied(value: Any, *args: Any) -> Any:
        METER.tick("copies")
        return original_copy(value, *args)

    application.deepcopy = copied  # type: ignore[attr-defined]
    _counting(ViewsMixin, "_from_row", "rows")
    on_challenge = ViewsMixin._on_challenge

    def mutating(self: Any, c: Any, e: Any, oid: str, *args: Any) -> Any:  # not when it takes the writer's unit
        handed = (views._HANDED_IN.get() or {}).get(oid)
        if handed is None or handed.version != e.originator_version:
            METER.tick("mutates")
        return on_challenge(self, c, e, oid, *args)

    ViewsMixin._on_challenge = mutating  # type: ignore[method-assign]
    for system in supported():
        module = edge(system.id)
        original = module.unit_view

        def counted(*args: Any, _original: Callable[..., Any] = original, **kwargs: Any) -> Any:
            METER.tick("views")
            return _original(*args, **kwargs)

        module.unit_view = counted


_MASK = re.compile(r"[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}|"
                   r"\d{4}-\d\d-\d\dT[0-9:.]+(\+00:00|Z)?")


def masked(answer: Any) -> str:
    dumped = answer.model_dump(mode="json") if hasattr(answer, "model_dump") else answer
    return _MASK.sub("·", json.dumps(dumped, sort_keys=True, default=str))


# -- stores --------------------------------------------------------------------------------------------------
@contextlib.contextmanager
def store(kind: str, folder: Path) -> Iterator[Settings]:
    if kind == "sqlite":
        yield Settings(store="sqlite", sqlite_path=folder / "stakes.sqlite", config=folder / "config.json")
        return
    schema = f"cost_{uuid.uuid4().hex[:10]}"
    try:
        yield Settings(store="postgres", postgres_host="127.0.0.1", postgres_port=5432, postgres_user="postgres",
                       postgres_dbname="test", postgres_schema=schema, config=folder / "config.json",
                       signing_key=folder / f"{schema}.pem")
    finally:
        with psycopg.connect(host="127.0.0.1", port=5432, user="postgres", dbname="test", autocommit=True) as c:
            c.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


# -- the fixed sequence --------------------------------------------------------------------------------------
def play(stakes: Stakes, system: str, moves: int, rows: list[dict[str, Any]], digest: Any) -> None:
    profile = PROFILES[system]
    drawn = (hashlib.sha256(f"cost/{system}/{n}".encode()).hexdigest() for n in itertools.count())
    randomness.new_secret_seed = lambda: next(drawn)  # type: ignore[assignment]  # fixed secrets: same games
    rng = random.Random(f"cost/{system}")
    table = Table(stakes, profile)

    def command(label: str, call: Callable[[], Any]) -> Any:
        with METER.measuring() as cost:
            try:
                answer = call()
            except StakesError as exc:
                answer = {"refused": str(exc)}
        rows.append({"system": system, "command": label, **cost})
        digest.update(masked(answer).encode())
        return answer

    def open_unit() -> Any:
        step = rng.choice(profile.openings)
        return command(f"run {step.verb}", lambda: stakes.run(table.cid, Seat.parse(step.actor), step.verb, step.inputs,
                                                                 key=uuid.uuid4().hex)).id

    for step in profile.one_shots:
        command(f"run {step.verb} (one-shot)", lambda step=step: stakes.run(
            table.cid, Seat.parse(step.actor), step.verb, step.inputs, key=uuid.uuid4().hex))
    unit = open_unit()
    for _ in range(moves):
        found = table.unit(unit)
        if found.settled:
            unit = open_unit()
            continue
        moving = [(s, a) for s, a in table.legal(unit) if a["action"] != "abandon"]
        seat, legal = rng.choice(moving)
        body = body_for(table.action_class(found, legal["action"]), legal, rng)
        command(f"act {legal['action']}", lambda seat=seat, unit=unit, body=body: stakes.act(
            table.cid, Seat.parse(seat), unit, body, key=uuid.uuid4().hex))
    # the reads a table makes after each move: the unit and who it waits for
    last = unit
    command("read unit", lambda: stakes.challenge(table.cid, Seat("ilse"), last))
    command("read waiting", lambda: stakes.waiting_for(table.cid, Seat("ilse"), last))


def summary(rows: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        if not row["command"].startswith("read"):
            groups[row["system"]].append(row)
            groups["all"].append(row)
    for name, found in groups.items():
        out[name] = {"n": len(found), **{k: statistics.mean(r[k] for r in found) for k in (*COUNTS, "cpu")},
                     "cpu_median": statistics.median(r["cpu"] for r in found)}
    for row in rows:
        if row["command"].startswith("read"):
            out[f"{row['system']} {row['command']}"] = {"n": 1, **{k: row[k] for k in (*COUNTS, "cpu")}}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--stores", default="sqlite,postgres")
    parser.add_argument("--systems", default=",".join(s.id for s in supported()))
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--profile", help="write a cProfile of the counted commands (first store) to this file")
    parser.add_argument("--json", help="write every command's counts to this file")
    args = parser.parse_args()
    instrument()
    report: dict[str, Any] = {}
    profiler = cProfile.Profile() if args.profile else None
    for kind in args.stores.split(","):
        rows: list[dict[str, Any]] = []
        digest = hashlib.sha256()
        with tempfile.TemporaryDirectory() as folder:
            for system in args.systems.split(","):
                with store(kind, Path(folder) / system) as settings:
                    (Path(folder) / system).mkdir(exist_ok=True)
                    stakes = Stakes(settings)
                    METER.profiler = profiler if kind == args.stores.split(",")[0] else None
                    try:
                        play(stakes, system, args.moves, rows, digest)
                    finally:
                        stakes.close()
        report[kind] = {"answers": digest.hexdigest()[:16], "summary": summary(rows), "rows": rows}
        print(f"\n{kind}: {len(rows)} commands, answers {report[kind]['answers']}")
        print(f"{'':34}{'n':>4}" + "".join(f"{k:>9}" for k in (*COUNTS, "cpu ms", "median")))
        for name, s in report[kind]["summary"].items():
            print(f"{name:34}{s['n']:>4}" + "".join(f"{s[k]:>9.1f}" for k in (*COUNTS, "cpu")) +
                  (f"{s['cpu_median']:>9.1f}" if "cpu_median" in s else ""))
    if profiler is not None:
        profiler.dump_stats(args.profile)
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
