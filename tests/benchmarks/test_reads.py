"""Benchmarks (pytest-benchmark): reads stay flat as history grows, since they select projected rows.

``make test`` runs each once as a smoke test, on 200 events; ``make bench`` measures (set
``STAKES_BENCH_EVENTS`` for a longer history, default 2000 economy events).
"""

from __future__ import annotations

import os

import pytest

from adapters.service import Stakes
from domain.kernel.commands import Context
from domain.seats import Seat
from domain.systems.penny_ante.commands import AcceptLoan, OfferLoan, RepayLoan

HOUSE, ILSE, TOMAS = Seat.house(), Seat("ilse"), Seat("tomas")
EVENTS = int(os.environ.get("STAKES_BENCH_EVENTS", "2000"))
#: Under ``make test`` (benchmarks disabled) nothing is timed: a history past several snapshots is enough.
SMOKE_EVENTS = 200


@pytest.fixture
def busy_campaign(stakes: Stakes, benchmark):
    cid = stakes.create_campaign("Long Campaign", "penny-ante", {"starting_pile": 1_000_000}).campaign.id
    stakes.run(cid, HOUSE, "add-player", {"seat": "ilse", "character": "Ilse", "characteristic": "Whip"})
    stakes.run(cid, HOUSE, "add-player", {"seat": "tomas", "character": "Tomas", "characteristic": "Love"})
    # Each round trip of a loan is 10 events (offer, accept x3, repay x3, and each command's record),
    # written straight to the application.
    app = stakes.app
    for _ in range(max(1, (SMOKE_EVENTS if benchmark.disabled else EVENTS) // 10)):
        loan = app.execute(Context(cid, TOMAS), OfferLoan(borrower="ilse", amount=2))
        app.execute(Context(cid, ILSE), AcceptLoan(loan=loan))
        app.execute(Context(cid, ILSE), RepayLoan(loan=loan, amount=2))
    stakes.catch_up()
    return cid


@pytest.mark.benchmark(group="reads")
def test_benchmark_reading_a_sheet_in_a_long_campaign(benchmark, stakes, busy_campaign):
    sheet = benchmark(stakes.sheet, busy_campaign, ILSE)
    assert sheet.pile == 1_000_000


@pytest.mark.benchmark(group="reads")
def test_benchmark_reading_the_house_budget_in_a_long_campaign(benchmark, stakes, busy_campaign):
    budget = benchmark(stakes.read, busy_campaign, HOUSE, "budget")
    assert budget.adventure == 0


@pytest.mark.benchmark(group="commands")
def test_benchmark_buying_a_characteristic_with_snapshots(benchmark, stakes, busy_campaign):
    names = iter(range(10**6))
    benchmark(lambda: stakes.run(busy_campaign, ILSE, "buy-characteristic", {"name": f"Trick {next(names)}"}))
