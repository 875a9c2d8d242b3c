"""One pass per command (issue 30 item 7, ADR 0034): a move builds each aggregate once and copies none, its
answer decodes no row and builds no other seat's full view, and the cache takes back only what was stored."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any
from uuid import UUID

import pytest
from eventsourcing import application as library
from eventsourcing.domain import CanInitAggregate, CanMutateAggregate

from adapters.systems import edge
from adapters.views import ViewsMixin
from domain.application import TakingRepository
from domain.errors import StakesError
from domain.seats import Seat
from tests.integration.conformance import Table, body_for

#: Every system, Penny Ante included since its ``legal_actions`` (ADR 0034): a command builds one full view.
SYSTEMS = ("penny-ante", "pool", "twenty-one", "beast", "pulp-cards")


@pytest.fixture
def table(conformance_table: Callable[[str], Table]) -> Table:
    return conformance_table("twenty-one")


@pytest.fixture(params=SYSTEMS)
def any_table(request: pytest.FixtureRequest, conformance_table: Callable[[str], Table]) -> Table:
    return conformance_table(request.param)


class Counts:
    def __init__(self, monkeypatch: pytest.MonkeyPatch, system: str = "twenty-one") -> None:
        self.gets: Counter[UUID] = Counter()
        self.copies = self.rows = self.views = 0
        get, copy, from_row, view = (TakingRepository.get, library.deepcopy, ViewsMixin._from_row,
                                     edge(system).unit_view)

        def counted_get(repository: Any, aggregate_id: UUID, **kwargs: Any) -> Any:
            self.gets[aggregate_id] += 1
            return get(repository, aggregate_id, **kwargs)

        def counted_copy(value: Any, *args: Any) -> Any:
            self.copies += 1
            return copy(value, *args)

        def counted_row(views: Any, *args: Any) -> Any:
            self.rows += 1
            return from_row(views, *args)

        def counted_view(*args: Any) -> Any:
            self.views += 1
            return view(*args)

        monkeypatch.setattr(TakingRepository, "get", counted_get)
        monkeypatch.setattr(library, "deepcopy", counted_copy)
        monkeypatch.setattr(ViewsMixin, "_from_row", counted_row)
        monkeypatch.setattr(edge(system), "unit_view", counted_view)


def a_move(table: Table, unit: UUID, rng: random.Random) -> tuple[str, dict[str, Any]]:
    seat, legal = rng.choice([(s, a) for s, a in table.legal(unit) if a["action"] != "abandon"])
    return seat, body_for(table.action_class(unit, legal["action"]), legal, rng)


def test_a_move_builds_each_aggregate_once_copies_none_and_its_answer_decodes_no_row(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(7)
    unit = table.open(rng)
    for _ in range(6):
        seat, body = a_move(table, unit, rng)
        counts = Counts(monkeypatch)
        answer = table.stakes.act(table.cid, Seat.parse(seat), unit, body, key=f"one pass {_}")
        assert answer.id == unit
        assert set(counts.gets.values()) == {1}, counts.gets  # the campaign and the unit, each built once
        assert counts.copies == 0
        assert counts.rows <= 1  # the projection's own read of the unit's row; the answer decodes none
        assert counts.views == 1  # the mover's view; every other seat is asked for its moves alone
        monkeypatch.undo()


def test_every_system_builds_one_view_per_command_and_one_for_who_the_table_waits_for(
        any_table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """ADR 0034: the mover's view is the only full view a command builds, and ``/waiting`` builds the reader's
    alone; every other seat is asked for its moves through the system's ``legal_actions`` (Penny Ante's too)."""
    table, system = any_table, any_table.profile.system
    assert callable(getattr(edge(system), "legal_actions", None)), f"{system} falls back to a view per seat"
    rng = random.Random(f"{system}/one view")
    unit = table.open(rng)
    for _ in range(8):
        if table.unit(unit).settled:
            unit = table.open(rng)
        seat, body = a_move(table, unit, rng)
        counts = Counts(monkeypatch, system)
        try:
            table.stakes.act(table.cid, Seat.parse(seat), unit, body, key=f"{system} one view {_}")
        except StakesError:  # a listed move refused is the conformance suite's business: it answers no view
            assert counts.views == 0, f"{system}: {counts.views} views for a refused command"
        else:
            assert counts.views == 1, f"{system}: {counts.views} views for one command"
        monkeypatch.undo()
        counts = Counts(monkeypatch, system)
        table.stakes.waiting_for(table.cid, Seat("ilse"), unit)
        assert counts.views == 1, f"{system}: {counts.views} views for /waiting"
        monkeypatch.undo()


def test_the_table_waits_for_whom_the_one_view_of_the_reader_says(table: Table,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    unit = table.open(random.Random(3))
    whole = table.stakes.challenge(table.cid, Seat("ilse"), unit)
    counts = Counts(monkeypatch)
    waiting = table.stakes.waiting_for(table.cid, Seat("ilse"), unit)
    assert counts.views == 1
    assert list(waiting.seats) == [s for s in ("house", "ilse", "tomas", "mara") if s in whole.waiting_for]
    assert all(moves == [] for seat, moves in waiting.seats.items() if seat != "ilse")  # C-5


def test_a_stored_move_gives_its_aggregates_back_and_a_refused_one_gives_back_nothing(table: Table) -> None:
    rng = random.Random(11)
    unit = table.open(rng)
    seat, body = a_move(table, unit, rng)
    table.stakes.act(table.cid, Seat.parse(seat), unit, body)
    cache = table.stakes.app.repository.cache
    stored = table.stakes.app.repository.event_store.get(unit)
    assert cache.get(unit).version == list(stored)[-1].originator_version  # back, at the version it saved
    with pytest.raises(StakesError):
        table.stakes.act(table.cid, Seat("mara"), unit, body)  # mara plays no side of this conflict
    with pytest.raises(KeyError):
        cache.get(unit)  # taken by the refused move and not given back: the next command rebuilds it
    seat, body = a_move(table, unit, rng)
    assert table.stakes.act(table.cid, Seat.parse(seat), unit, body).id == unit


def test_the_projection_takes_a_unit_from_the_command_that_stored_its_one_event_and_builds_no_second_copy(
        any_table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 30, item 7: a command that adds one event to its unit hands the unit, as its writer left it, to its
    own catch-up, which neither decodes the unit's row nor runs the event's mutator on a copy; a command that adds
    several (the projection's handlers read the unit after each of them) builds it from its row once. Meanwhile
    the unit is nobody else's: it is out of the cache until the answer is built. What the read models hold is what
    a rebuild gives."""
    table, system = any_table, any_table.profile.system
    stakes, rng = table.stakes, random.Random(f"{system}/hand in")
    counted = {"mutates": 0, "rows": 0}
    projecting = [False]
    catch_up, from_row, view = stakes.projection.catch_up, ViewsMixin._from_row, edge(system).unit_view
    def counting(original: Any) -> Any:
        def counted_mutate(event: Any, aggregate: Any) -> Any:
            if projecting[0]:
                counted["mutates"] += 1
            return original(event, aggregate)
        return counted_mutate

    def counted_catch_up(*args: Any, **kwargs: Any) -> int:
        projecting[0] = True
        try:
            return catch_up(*args, **kwargs)
        finally:
            projecting[0] = False

    def counted_row(views: Any, *args: Any) -> Any:
        counted["rows"] += projecting[0]
        return from_row(views, *args)

    acting = [False]

    def out_of_the_cache(*args: Any) -> Any:  # the command's answer: the unit is still this command's alone
        if acting[0]:
            with pytest.raises(KeyError):
                stakes.app.repository.cache.get(args[2].id)
        return view(*args)

    for kind in (CanMutateAggregate, CanInitAggregate):  # an event's mutator, a created event's
        monkeypatch.setattr(kind, "mutate", counting(kind.mutate))
    monkeypatch.setattr(stakes.projection, "catch_up", counted_catch_up)
    monkeypatch.setattr(ViewsMixin, "_from_row", counted_row)
    unit, handed, built = table.open(rng), 0, 0
    monkeypatch.setattr(edge(system), "unit_view", out_of_the_cache)
    for step in range(12):
        if table.unit(unit).settled:
            unit = table.open(rng)
        before = table.unit(unit).version
        seat, body = a_move(table, unit, rng)
        counted.update(mutates=0, rows=0)
        acting[0] = True
        try:
            table.stakes.act(table.cid, Seat.parse(seat), unit, body, key=f"{system} hand in {step}")
        except StakesError:
            continue
        finally:
            acting[0] = False
        added = table.unit(unit).version - before
        assert stakes.app.repository.cache.get(unit).version == before + added  # given back once answered
        if added == 1:
            assert counted == {"mutates": 0, "rows": 0}, f"{system}: {counted} for a command of one event"
            handed += 1
        else:
            assert counted["rows"] <= 1 and counted["mutates"] <= added, f"{system}: {counted} for {added} events"
            built += 1
    assert handed, f"{system}: no command of one event was played"
    monkeypatch.undo()
    incremental = stakes.views.dump()
    stakes.rebuild()
    assert stakes.views.dump() == incremental
