"""No write skew (ADR 0012): a rule that reads another aggregate is part of the same optimistic check.

Each test pauses one command between its reads and its save (``StakesApplication.before_save``), runs a
second command to the end in the meantime from a second service on the same store (another process: one
process decides its own commands one after another, in groups, ADR 0042), then lets the first save. Both
orders, both stores, real threads. PA-2: a characteristic is bought only while no adventure runs. PA-14: an
offer lapses when the next adventure starts, and a loan unpaid when it starts is marked defaulted.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any
from uuid import UUID

import pytest
from eventsourcing.persistence import IntegrityError

from adapters.service import Stakes
from domain.errors import RuleViolation
from domain.seats import Seat

HOUSE, ILSE, TOMAS = Seat.house(), Seat("ilse"), Seat("tomas")


@pytest.fixture
def stakes(settings) -> Stakes:
    service = Stakes(settings)
    yield service
    service.close()


@pytest.fixture
def other(settings) -> Stakes:
    """A second process on the same store."""
    service = Stakes(settings)
    yield service
    service.close()


@pytest.fixture
def table(stakes: Stakes) -> UUID:
    cid = stakes.create_campaign("Skew", "penny-ante", {"starting_pile": 30}).campaign.id
    for seat in ("ilse", "tomas"):
        stakes.run(cid, HOUSE, "add-player", {"seat": seat, "character": seat.title(), "characteristic": "Sly"})
    return cid


def interleave(stakes: Stakes, first: Callable[[], Any], second: Callable[[], Any]) -> tuple[dict[str, Any], int]:
    """Run ``first`` up to its save, all of ``second``, then the rest of ``first``; returns what ``first``
    answered (``value`` or ``error``) and how many times it reached its save."""
    reached, go, saves = threading.Event(), threading.Event(), []
    outcome: dict[str, Any] = {}

    def pause() -> None:
        if threading.current_thread() is worker:
            saves.append(1)
            if len(saves) == 1:
                reached.set()
                assert go.wait(20)

    def run_first() -> None:
        try:
            outcome["value"] = first()
        except Exception as exc:
            outcome["error"] = exc

    stakes.app.before_save = pause  # type: ignore[method-assign]
    worker = threading.Thread(target=run_first)
    worker.start()
    try:
        assert reached.wait(20), outcome
        second()
    finally:
        go.set()
        worker.join(20)
        del stakes.app.before_save
    return outcome, len(saves)


def sheet(stakes: Stakes, cid: UUID, seat: str) -> Any:
    return stakes.sheet(cid, HOUSE, seat)


def event_names(stakes: Stakes, cid: UUID) -> list[str]:
    return [e.event for e in stakes.log(cid, HOUSE, limit=1000).entries]


def test_a_purchase_read_before_an_adventure_started_is_refused_once_it_has(
        stakes: Stakes, other: Stakes, table: UUID) -> None:
    outcome, saves = interleave(
        stakes, lambda: stakes.run(table, ILSE, "buy-characteristic", {"name": "Lucky Necklace"}),
        lambda: other.run(table, HOUSE, "start-adventure", {}))
    assert isinstance(outcome.get("error"), RuleViolation) and outcome["error"].ruling == "PA-2", outcome
    assert saves == 1  # the retry read the running adventure and refused before saving
    ilse = sheet(stakes, table, "ilse")
    assert ilse.pile == 30 and [c.name for c in ilse.characteristics] == ["Sly"]


def test_an_adventure_that_waits_to_start_lets_an_earlier_purchase_stand(
        stakes: Stakes, other: Stakes, table: UUID) -> None:
    outcome, saves = interleave(
        stakes, lambda: stakes.run(table, HOUSE, "start-adventure", {}),
        lambda: other.run(table, ILSE, "buy-characteristic", {"name": "Lucky Necklace"}))
    assert "error" not in outcome and saves == 2  # the start lost the race and ran again on fresh state
    names = event_names(stakes, table)
    assert names.index("CharacteristicBought") < names.index("AdventureStarted")
    assert sheet(stakes, table, "ilse").pile == 25


def test_a_read_set_conflict_alone_sends_the_command_round_again(
        stakes: Stakes, other: Stakes, table: UUID) -> None:
    """Seating a player changes only the Campaign, which the purchase read but does not change."""
    outcome, saves = interleave(
        stakes, lambda: stakes.run(table, ILSE, "buy-characteristic", {"name": "Lucky Necklace"}),
        lambda: other.run(table, HOUSE, "add-player", {"seat": "vera", "character": "Vera", "characteristic": "Sly"}))
    assert "error" not in outcome and saves == 2
    assert sheet(stakes, table, "ilse").pile == 25


def offer(stakes: Stakes, cid: UUID) -> UUID:
    stakes.run(cid, HOUSE, "start-adventure", {})
    loan = stakes.run(cid, TOMAS, "offer-loan", {"borrower": "ilse", "amount": 4}).loan_id
    stakes.run(cid, HOUSE, "end-adventure", {})
    return UUID(str(loan))


def test_an_offer_read_before_the_next_adventure_started_has_lapsed_once_it_has(
        stakes: Stakes, other: Stakes, table: UUID) -> None:
    loan = offer(stakes, table)
    outcome, _ = interleave(stakes, lambda: stakes.run(table, ILSE, "accept-loan", {"loan": str(loan)}),
                            lambda: other.run(table, HOUSE, "start-adventure", {}))
    assert isinstance(outcome.get("error"), RuleViolation) and outcome["error"].ruling == "PA-14", outcome
    assert sheet(stakes, table, "ilse").pile == 30 and sheet(stakes, table, "tomas").pile == 30


def test_a_loan_accepted_while_the_next_adventure_waits_to_start_is_defaulted_when_it_starts(
        stakes: Stakes, other: Stakes, table: UUID) -> None:
    loan = offer(stakes, table)
    outcome, saves = interleave(stakes, lambda: stakes.run(table, HOUSE, "start-adventure", {}),
                                lambda: other.run(table, ILSE, "accept-loan", {"loan": str(loan)}))
    assert "error" not in outcome and saves == 2
    assert [x.status for x in stakes.read(table, HOUSE, "debts").loans] == ["defaulted"]
    assert sheet(stakes, table, "ilse").pile + sheet(stakes, table, "tomas").pile == 60  # PA-1: conserved


def test_a_save_whose_read_set_moved_on_stores_nothing(stakes: Stakes, table: UUID) -> None:
    """The recorder itself: a stale read version rolls the whole save back."""
    campaign = stakes.app.campaign(table)
    character = stakes.app.repository.get(campaign.character_id("ilse"))
    character.buy_characteristic("Lucky Necklace", adventure_running=False, actor="ilse")
    before = stakes.app.recorder.max_notification_id()
    with pytest.raises(IntegrityError):
        stakes.app.save(character, reads={campaign.id: campaign.version - 1})
    assert stakes.app.recorder.max_notification_id() == before
