"""Penny Ante's ``legal_actions`` hook (ADR 0034): a seat's moves alone, read cheaply from the read models, equal
exactly what that seat's full view of the challenge lists, and what the verify functions of ``moves.py`` give on
the whole campaign's public reads (every pile and characteristic, the House's budget, the debt register's offers).

Played on both stores: random legal play from the listings, the loans offered into a challenge answered now and
then (accepted, declined, withdrawn, PA-14), big bets now and then so that sides go all-in and go bankrupt
(bids, debts and buyouts, PA-15, PA-24), with a challenge against an antagonist among the openings (PA-17).
"""

from __future__ import annotations

import hashlib
import itertools
import random
from collections.abc import Iterator
from typing import Any
from uuid import UUID

import pytest

from adapters import randomness
from adapters.service import Stakes
from adapters.settings import Settings
from adapters.systems import edge
from adapters.systems.penny_ante import reads, schemas
from domain.errors import StakesError
from domain.kernel.registry import system_of_unit
from domain.seats import Seat
from domain.systems.penny_ante.loan import offer_moves
from tests.integration.conformance import PROFILES, SEATS, Table, body_for

SYSTEM = edge("penny-ante")


@pytest.fixture
def stakes(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> Iterator[Stakes]:
    """The service's secrets follow from the test (not the store), so the games go the same way each run."""
    drawn = (hashlib.sha256(f"penny-ante/legal actions/{n}".encode()).hexdigest() for n in itertools.count())
    monkeypatch.setattr(randomness, "new_secret_seed", lambda: next(drawn))
    service = Stakes(settings)
    try:
        yield service
    finally:
        service.close()


def whole_campaign(stakes: Stakes, cid: UUID, unit: Any, seat: str) -> list[dict[str, Any]]:
    """The seat's moves from the whole campaign's public reads, through the challenge's verify functions
    (``ChallengeRules.legal_actions``) and the loan moves (``offer_moves``): the oracle the hook is held to."""
    house = Seat.house()
    sheets = [s for s in stakes.sheets(cid, house) if isinstance(s, schemas.Sheet)]
    piles = {s.seat: s.pile for s in sheets}
    lists = {s.seat: [c.name for c in s.characteristics] for s in sheets}
    members = {m for side in unit.sides.values() if side["kind"] == "antagonist" for m in side["members"]}
    for a in reads.antagonists(stakes, cid, house):
        if a.name in members:
            piles[a.name], lists[a.name] = a.pennies, list(a.characteristics or [])
    players = {s.seat: s.pile for s in sheets}
    mine = unit.side_of(seat)
    side_lists = {mine: [n for m in unit.sides[mine]["members"] for n in lists.get(m, [])]} if mine else {}
    own = {m: lists.get(m, []) for m in unit.bankrupts}
    seat_pile = reads.budget(stakes, cid, house).pile if seat == "house" else players.get(seat, 0)
    legal = unit.legal_actions(seat, piles, seat_pile, side_lists, characteristics=own)
    open_ = {line.loan_id: line.open for s in sheets for line in s.offers}
    for loan in reads.loans(stakes, cid):  # the debt register, in offer order
        if loan.challenge_id == unit.id.hex and loan.status == "offered":
            for move in offer_moves("offered", loan.lender, loan.borrower, seat, round_open=bool(open_[loan.loan_id]),
                                    affordable=loan.amount <= players.get(loan.lender, 0)):
                legal.append({"action": move, "loan": loan.loan_id, "lender": loan.lender, "amount": loan.amount})
    return legal


def typed(moves: list[Any]) -> list[dict[str, Any]]:
    return [schemas.ChallengeAction.model_validate(m).model_dump() for m in moves]


def assert_every_seat_agrees(table: Table, unit: UUID) -> list[tuple[str, dict[str, Any]]]:
    """Every seat's hook against its full view and the oracle; returns every listed move, the loan answers too."""
    table.stakes.catch_up()
    listed = []
    with table.stakes.views.reading():
        found = table.unit(unit)
        for seat in SEATS:
            hook = SYSTEM.legal_actions(table.stakes, table.cid, found, Seat.parse(seat))
            view = SYSTEM.unit_view(table.stakes, table.cid, found, Seat.parse(seat))
            assert typed(hook) == [a.model_dump() for a in view.legal_actions], (seat, found.phase)
            assert typed(hook) == typed(whole_campaign(table.stakes, table.cid, found, seat)), (seat, found.phase)
            served = table.view(seat, unit).legal_actions  # the service's, each with the field its choices fill
            assert [a.model_dump(exclude={"field"}) for a in served] == [a.model_dump(exclude={"field"})
                                                                         for a in view.legal_actions]
            listed += [(seat, a.model_dump(exclude_none=True)) for a in served]
    return listed


GAMES = 6


def test_a_seats_legal_actions_hook_equals_what_its_full_view_lists_through_loans_and_bankruptcies_pa14_pa15(
        stakes: Stakes) -> None:
    seen: set[str] = set()
    for game in range(GAMES):
        seen |= play_and_compare(Table(stakes, PROFILES["penny-ante"]), random.Random(f"penny-ante/legal actions/{game}"))
    assert {"lend", "accept-loan", "decline-loan", "withdraw-loan"} <= seen, seen  # loans into a challenge (PA-14)
    assert {"all-in", "bid", "debt", "buyout"} <= seen, seen  # bankruptcies, each way out (PA-15, PA-24)


def play_and_compare(table: Table, rng: random.Random) -> set[str]:
    """Random legal play from the listings, every seat compared at every step; returns the moves made."""
    seen: set[str] = set()
    unit = table.open(rng)
    for _ in range(60):
        found = table.unit(unit)
        if found.settled:
            assert_every_seat_agrees(table, unit)
            try:
                unit = table.open(rng)
            except StakesError:  # Lady Sen has no pennies left to stake (PA-17): the players challenge each other
                unit = table.send(table.profile.openings[0]).id
            continue
        listed = assert_every_seat_agrees(table, unit)
        loans = [(s, a) for s, a in listed if a.get("loan") is not None]
        lends = [(s, a) for s, a in listed if a["action"] == "lend"]
        moving = [(s, a) for s, a in listed if a["action"] != "abandon" and a.get("loan") is None]
        # big bets now and then, so that a side goes all-in and may lose everything: a bankruptcy (PA-15)
        big = [(s, {**a, "min": a["max"]} if a["action"] == "raise" else a) for s, a in moving
               if a["action"] in ("raise", "all-in", "call", "bid", "debt", "buyout")]
        pick = rng.random()
        seat, legal = rng.choice(loans if loans and pick < 0.5 else lends if lends and pick < 0.65
                                 else big if big and pick < 0.85 else moving)
        seen.add(legal["action"])
        cls = system_of_unit(found).move(found, legal["action"])
        try:
            table.act(seat, unit, body_for(cls, legal, rng))
        except StakesError as exc:  # a listed move is accepted: the conformance suite holds it; here too
            raise AssertionError(f"{seat} {legal}: {exc}") from exc
    assert_every_seat_agrees(table, unit)
    return seen
