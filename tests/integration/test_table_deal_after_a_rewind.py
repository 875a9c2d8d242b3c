"""C-7 with table cards (found by fuzzing the API): after a rewind to before the deal, the House's listed `deal`
says the one order it takes again (`required`), so a client playing from the listing alone deals it; before,
the listing offered any order of the 52 and refused all but the earlier one."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from adapters.service import Stakes
from adapters.settings import Settings
from tests.integration.conformance import HOUSE, PROFILES, Table, body_for


@pytest.fixture
def service(settings: Settings) -> Iterator[Stakes]:
    stakes = Stakes(settings)
    try:
        yield stakes
    finally:
        stakes.close()


def deal(table: Table, unit, rng: random.Random) -> dict:
    (listed,) = [legal for seat, legal in table.legal(unit) if seat == HOUSE and legal["action"] == "deal"]
    body = body_for(table.action_class(unit, "deal"), listed, rng)
    table.act(HOUSE, unit, body)
    return listed


def test_a_table_deal_rewound_lists_the_order_it_takes_again_and_is_played_from_it_c7(service: Stakes):
    table = Table(service, PROFILES["twenty-one"], table=True)
    unit = table.open(random.Random(0))
    first = deal(table, unit, random.Random(1))
    assert "required" not in first and len(first["choices"]) == 52  # the first deal: any order of the deck
    hands = {seat: list(table.unit(unit).hands[seat]) for seat in ("ilse", "tomas")}
    table.rewind(unit, 1, reveal=True)
    again = deal(table, unit, random.Random(2))  # another rng: from the listing alone, the same order
    assert len(again["required"]) == 52 and sorted(again["required"]) == sorted(again["choices"])
    assert {seat: list(table.unit(unit).hands[seat]) for seat in ("ilse", "tomas")} == hands
