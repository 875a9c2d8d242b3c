"""C-6, C-8 with PA-14: a House rewind to a step whose loan a later rewind undid is refused, through the service on
both stores (``play.verify_pot_restorable``, reached by the kernel's ``verify_spend_again``). The step's state names a loan
into the challenge that no longer stands, so the step cannot be given back: the House rewinds to a step of this
timeline instead."""

from __future__ import annotations

import random
from collections.abc import Callable
from uuid import UUID

import pytest

from adapters.systems.penny_ante import reads
from domain.errors import RuleViolation
from tests.integration.conformance import Step, Table, body_for

ONE_ON_ONE = Step("ilse", "announce-challenge", {"challenger": {"players": ["ilse"]}, "opponent": {"players": ["tomas"]},
                                                 "ante": 1})


@pytest.fixture
def table(conformance_table: Callable[[str], Table]) -> Table:
    return conformance_table("penny-ante")


def to_the_first_betting_round(table: Table, unit: UUID) -> None:
    """Listed moves of the two sides (no fold, no loan, no abandon) until the first betting round opens (PA-9)."""
    rng = random.Random(5)
    for _ in range(40):
        if table.unit(unit).phase == "betting-1":
            return
        seat, legal = next((s, a) for s, a in table.legal(unit)
                           if s in ("ilse", "tomas") and a["action"] not in ("fold", "lend", "abandon"))
        table.act(seat, unit, body_for(table.action_class(unit, legal["action"]), legal, rng))
    raise AssertionError(f"no betting round: {table.unit(unit).phase}")


def loan_status(table: Table, loan: str) -> str:
    table.stakes.catch_up()
    return reads.loans(table.stakes, table.cid, UUID(loan))[0].status


@pytest.mark.parametrize("accepted", [False, True], ids=["offered", "accepted"])
def test_a_rewind_to_a_step_whose_loan_was_undone_is_refused_c6_pa14(table: Table, accepted: bool) -> None:
    unit = table.send(ONE_ON_ONE).id
    to_the_first_betting_round(table, unit)
    before_the_loan = table.unit(unit).version
    table.act("mara", unit, {"action": "lend", "borrower": "ilse", "amount": 2})  # PA-14: from outside the challenge
    loan = table.unit(unit).loans[-1]
    if accepted:  # the borrower's answer, from the challenge's action endpoint (issue 31)
        table.act("ilse", unit, {"action": "accept-loan", "loan": loan})
    with_the_loan = table.unit(unit).version
    seat, legal = next((s, a) for s, a in table.legal(unit) if a["action"] in ("check", "call"))
    table.act(seat, unit, body_for(table.action_class(unit, legal["action"]), legal, random.Random(1)))

    table.rewind(unit, before_the_loan)  # C-6: the loan is undone with the steps after it (PA-14)
    assert loan_status(table, loan) == "reversed"
    assert loan not in table.unit(unit).loans

    events, version = table.events(), table.unit(unit).version
    for reveal in (False, True):  # revealed or not (C-8), the step cannot be given back
        with pytest.raises(RuleViolation, match="C-6: a loan offered at that step was undone since") as refused:
            table.rewind(unit, with_the_loan, reveal=reveal)  # a step of the abandoned timeline, still with the loan
        assert refused.value.ruling == "C-6"
    assert table.events() == events and table.unit(unit).version == version  # refused before anything changed
    assert loan_status(table, loan) == "reversed"  # the undone loan does not come back

    table.rewind(unit, before_the_loan, reveal=True)  # a step of this timeline is still taken (C-8: revealed)
    assert table.unit(unit).phase == "betting-1"
