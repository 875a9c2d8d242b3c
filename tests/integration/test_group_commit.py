"""Group commit (issue 32, ADR 0042): commands that arrive together at one process are decided one after
another by one thread, stored in one write and answered together, and each is still exactly what it would be
alone: its own answer, its own refusal, applied once under its key, its read set checked.

Each test holds the group's leader in its first command (``StakesApplication.before_save``) while the other
commands arrive from other threads, so they wait and form the next group together; both stores, real threads.
"""
# ruff: noqa: F811

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any
from uuid import UUID

import pytest

from adapters.service import Stakes
from domain.errors import RuleViolation
from domain.kernel.commands import Context
from domain.seats import Seat

# the services on each store, and another process's (fixtures: every ``stakes`` parameter below is one)
from tests.integration.test_write_skew import other, stakes  # noqa: F401

HOUSE = Seat.house()
PLAYERS = ("ilse", "tomas", "vera", "nils", "olga")


@pytest.fixture
def table(stakes: Stakes) -> UUID:
    cid = stakes.create_campaign("Group", "penny-ante", {"starting_pile": 30}).campaign.id
    for seat in PLAYERS:
        stakes.run(cid, HOUSE, "add-player", {"seat": seat, "character": seat.title(), "characteristic": "Sly"})
    return cid


class Writes:
    """Counts the store's writes (one per group, or per lone command)."""

    def __init__(self, stakes: Stakes, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        record = stakes.app._record

        def counted(*args: Any, **kwargs: Any) -> Any:
            self.count += 1
            return record(*args, **kwargs)

        monkeypatch.setattr(stakes.app, "_record", counted)


def together(stakes: Stakes, first: Callable[[], Any], rest: list[Callable[[], Any]],
             meanwhile: Callable[[], Any] | None = None) -> list[dict[str, Any]]:
    """Run ``first``, hold it at its save until every one of ``rest`` waits for its group (and ``meanwhile``
    has run), then let it go; returns each one's outcome (``value`` or ``error``), ``first``'s first."""
    reached, go = threading.Event(), threading.Event()
    outcomes: list[dict[str, Any]] = [{} for _ in range(1 + len(rest))]
    held: list[threading.Thread] = []

    def pause() -> None:
        if threading.current_thread() is held[0] and not reached.is_set():
            reached.set()
            assert go.wait(20)

    def runner(i: int, fn: Callable[[], Any]) -> Callable[[], None]:
        def run() -> None:
            try:
                outcomes[i]["value"] = fn()
            except Exception as exc:
                outcomes[i]["error"] = exc
        return run

    stakes.app.before_save = pause  # type: ignore[method-assign]
    threads = [threading.Thread(target=runner(i, fn)) for i, fn in enumerate([first, *rest])]
    held.append(threads[0])
    threads[0].start()
    try:
        assert reached.wait(20)
        for t in threads[1:]:
            t.start()
        deadline = time.monotonic() + 20
        while len(stakes.leader._waiting) < len(rest) and time.monotonic() < deadline:  # type: ignore[union-attr]
            time.sleep(0.01)
        if meanwhile is not None:
            meanwhile()
    finally:
        go.set()
        for t in threads:
            t.join(30)
        del stakes.app.before_save
    return outcomes


def buy(stakes: Stakes, cid: UUID, seat: str, name: str, key: str | None = None) -> Callable[[], Any]:
    return lambda: stakes.run(cid, Seat(seat), "buy-characteristic", {"name": name}, key=key)


def names(stakes: Stakes, cid: UUID, seat: str) -> list[str]:
    return [c.name for c in stakes.sheet(cid, HOUSE, seat).characteristics]


def test_commands_that_arrive_together_are_stored_in_one_write_and_each_answers_its_own_sheet(
        stakes: Stakes, table: UUID, monkeypatch: pytest.MonkeyPatch) -> None:
    writes = Writes(stakes, monkeypatch)
    outcomes = together(stakes, buy(stakes, table, "ilse", "Nerve"),
                        [buy(stakes, table, seat, f"Luck of {seat}") for seat in PLAYERS[1:]])
    assert all("value" in o for o in outcomes), outcomes
    assert writes.count == 2  # the held command alone, then the four that arrived meanwhile, in one write
    for seat, outcome in zip(PLAYERS[1:], outcomes[1:], strict=True):
        answered = outcome["value"]
        assert answered.seat == seat and [c.name for c in answered.characteristics] == ["Sly", f"Luck of {seat}"]
        assert answered == stakes.sheet(table, HOUSE, seat)  # the answer is what a read says afterwards
    assert stakes.audit(table, HOUSE).intact


def test_a_refused_command_in_a_group_stores_nothing_and_leaves_the_others_stored(
        stakes: Stakes, table: UUID, monkeypatch: pytest.MonkeyPatch) -> None:
    writes = Writes(stakes, monkeypatch)
    outcomes = together(stakes, buy(stakes, table, "ilse", "Nerve"),
                        [buy(stakes, table, "tomas", "Grit"), buy(stakes, table, "vera", "Sly"),  # PA-3: twice
                         buy(stakes, table, "nils", "Grit")])
    assert "value" in outcomes[1] and "value" in outcomes[3]
    assert isinstance(outcomes[2].get("error"), RuleViolation), outcomes[2]
    assert writes.count == 2
    assert names(stakes, table, "tomas") == ["Sly", "Grit"] and names(stakes, table, "nils") == ["Sly", "Grit"]
    assert names(stakes, table, "vera") == ["Sly"] and stakes.sheet(table, HOUSE, "vera").pile == 30


def test_two_commands_of_a_group_on_one_character_are_stored_one_after_the_other(
        stakes: Stakes, table: UUID, monkeypatch: pytest.MonkeyPatch) -> None:
    writes = Writes(stakes, monkeypatch)
    outcomes = together(stakes, buy(stakes, table, "ilse", "Nerve"),
                        [buy(stakes, table, "tomas", "Grit"), buy(stakes, table, "tomas", "Luck"),
                         buy(stakes, table, "vera", "Grit")])
    assert all("value" in o for o in outcomes), outcomes
    assert writes.count == 3  # the second purchase for Tomas waits for the first one's write
    assert sorted(names(stakes, table, "tomas")) == ["Grit", "Luck", "Sly"]
    assert stakes.sheet(table, HOUSE, "tomas").pile == 20
    # each answer is the sheet right after its own write: one purchase, then both (whichever arrived first)
    assert sorted(o["value"].pile for o in outcomes[1:3]) == [20, 25]
    assert stakes.sheet(table, HOUSE, "tomas") in (outcomes[1]["value"], outcomes[2]["value"])


def test_a_key_sent_twice_in_one_group_is_applied_once(stakes: Stakes, table: UUID) -> None:
    outcomes = together(stakes, buy(stakes, table, "ilse", "Nerve"),
                        [buy(stakes, table, "tomas", "Grit", key="k-1"), buy(stakes, table, "tomas", "Grit", key="k-1")])
    assert all("value" in o for o in outcomes), outcomes
    assert names(stakes, table, "tomas") == ["Sly", "Grit"] and stakes.sheet(table, HOUSE, "tomas").pile == 25
    assert outcomes[1]["value"] == outcomes[2]["value"]


def test_a_group_that_loses_a_race_to_another_process_decides_its_commands_again_alone(
        stakes: Stakes, other: Stakes, table: UUID, monkeypatch: pytest.MonkeyPatch) -> None:
    writes = Writes(stakes, monkeypatch)
    outcomes = together(stakes, buy(stakes, table, "ilse", "Nerve"),
                        [buy(stakes, table, "tomas", "Grit"), buy(stakes, table, "vera", "Grit")],
                        meanwhile=lambda: other.run(table, HOUSE, "add-player", {
                            "seat": "ruth", "character": "Ruth", "characteristic": "Sly"}))
    # the held purchase read the campaign before Ruth was seated: its write lost the race and stored
    # nothing; decided again alone it read the campaign afresh and was stored
    assert all("value" in o for o in outcomes), outcomes
    assert writes.count == 3  # the held one lost, then alone again; the two that waited, together
    for seat in ("ilse", "tomas", "vera"):
        assert len(names(stakes, table, seat)) == 2 and stakes.sheet(table, HOUSE, seat).pile == 25
    assert stakes.audit(table, HOUSE).intact


def test_a_group_whose_commands_read_what_another_process_changed_is_refused_as_each_would_be_alone(
        stakes: Stakes, other: Stakes, table: UUID) -> None:
    outcomes = together(stakes, buy(stakes, table, "ilse", "Nerve"), [buy(stakes, table, "tomas", "Grit")],
                        meanwhile=lambda: other.run(table, HOUSE, "start-adventure", {}))
    refused = [o.get("error") for o in outcomes]  # PA-2: no purchase once an adventure runs
    assert all(isinstance(e, RuleViolation) and e.ruling == "PA-2" for e in refused), outcomes
    assert names(stakes, table, "ilse") == ["Sly"] and names(stakes, table, "tomas") == ["Sly"]
    assert stakes.audit(table, HOUSE).intact


def test_a_command_run_from_inside_another_is_stored_alone_not_waited_for(stakes: Stakes, table: UUID) -> None:
    """The leader's own thread never waits for itself: a command it runs while deciding another (no such path
    today) is decided, stored and answered alone, and the outer one still goes into its group."""
    nested: list[Any] = []

    def decide() -> Any:
        nested.append(stakes.run(table, Seat("tomas"), "buy-characteristic", {"name": "Grit"}))
        command = stakes.app.parse(table, "buy-characteristic", {"seat": "ilse", "name": "Nerve"})
        return stakes.app.execute(Context(table, Seat("ilse")), command)

    stakes._command(decide, lambda _: stakes.sheet(table, HOUSE, "ilse"))
    assert names(stakes, table, "tomas") == ["Sly", "Grit"]
    assert [c.name for c in nested[0].characteristics] == ["Sly", "Grit"]  # answered after its own write
    assert names(stakes, table, "ilse") == ["Sly", "Nerve"]


def test_each_command_answers_with_the_head_its_own_write_computed_and_a_retry_with_the_head_now(
        stakes: Stakes, table: UUID) -> None:
    """C-2: the signed head a command answers with is the one the transaction that stored it computed (no
    read after it); the commands of one group share their write's head, which covers every one of them."""
    def buying(seat: str, name: str, key: str | None = None) -> Callable[[], Any]:
        return lambda: (buy(stakes, table, seat, name, key)(), stakes.written_head(table))

    outcomes = together(stakes, buying("ilse", "Nerve"), [buying(seat, f"Luck of {seat}", key=f"k-{seat}")
                                                          for seat in PLAYERS[1:]])
    first, *rest = [o["value"][1] for o in outcomes]
    assert first is not None and all(head == rest[0] for head in rest)  # one write: one head
    assert first[0] < rest[0][0] == stakes.app.recorder.head(table.hex)[0]  # type: ignore[attr-defined]
    assert rest[0] == stakes.app.recorder.head(table.hex)  # type: ignore[attr-defined]  # size and root as stored
    assert stakes.audit(table, HOUSE).intact  # the chain those heads summarise
    stakes.run(table, HOUSE, "add-player", {"seat": "ruth", "character": "Ruth", "characteristic": "Sly"})
    buy(stakes, table, "tomas", "Luck of tomas", key="k-tomas")()  # a retry stores nothing …
    assert stakes.written_head(table) is None  # … so its answer carries the head read now (``after_command``)


def test_a_write_that_fails_after_computing_its_heads_publishes_none_and_the_answer_signs_no_such_head(
        stakes: Stakes, table: UUID, monkeypatch: pytest.MonkeyPatch) -> None:
    """C-2: a signed head is only ever of a log that was stored. A transaction that computed its links and heads
    and then failed (a read set that moved, a commit the store refused) stores nothing and hands out no head."""
    recorder: Any = stakes.app.recorder
    link = recorder._link

    def failing(*args: Any, **kwargs: Any) -> None:
        link(*args, **kwargs)
        raise RuntimeError("the store refused the commit")

    monkeypatch.setattr(recorder, "_link", failing)
    with pytest.raises(RuntimeError):
        buy(stakes, table, "ilse", "Nerve")()
    assert recorder.written() == {} and stakes.written_head(table) is None
    assert names(stakes, table, "ilse") == ["Sly"]
    monkeypatch.setattr(recorder, "_link", link)
    buy(stakes, table, "ilse", "Nerve")()
    assert stakes.written_head(table) == recorder.head(table.hex)  # the stored write's head, as the store keeps it
