"""The luck report's read models (issue 31, ADR 0035) on both stores: a unit's draws count once it has ended and
been shown to every seat (C-5), the draws the House abandoned count apart (C-10), a rebuild writes the same
counts, the audit covers them, and every seat reads the same report."""

from __future__ import annotations

import random
from typing import Any

import pytest

from adapters.luck import LuckReport
from domain.errors import RuleViolation
from domain.kernel.registry import supported
from domain.seats import Seat
from tests.integration.conformance import HOUSE, PLAYERS, PROFILES, Table, play, play_to_settlement


@pytest.fixture
def service(stakes: Any) -> Any:
    return stakes.service


def reports(service: Any, table: Table) -> dict[str, str]:
    return {seat: service.luck(table.cid, Seat.parse(seat)).model_dump_json() for seat in (HOUSE, *PLAYERS)}


@pytest.mark.parametrize("system", [s.id for s in supported()])
def test_ended_units_draws_are_counted_once_and_a_rebuild_counts_the_same(service: Any, system: str) -> None:
    table = Table(service, PROFILES[system])
    played = play(table, random.Random(f"{system}/luck-report"), 40, rewind=0.1, abandon=0.1)
    found = service.luck(table.cid, Seat.house())
    assert isinstance(found, LuckReport)
    if played.settled:
        assert found.settled or found.abandoned, f"{system}: {len(played.settled)} units ended, no draw counted"
    for line in [*found.settled, *found.abandoned]:
        assert line.draws == sum(line.counts.values()) > 0
        assert line.p_value is None or 0 <= line.p_value <= 1
    seen = reports(service, table)
    assert len(set(seen.values())) == 1  # public draws only: every seat reads the same report
    incremental = service.views.dump()
    service.rebuild()
    assert service.views.dump() == incremental
    assert service.audit(table.cid, Seat.house()).read_models == "intact"


def test_an_open_units_draws_are_not_counted_until_it_ends(service: Any) -> None:
    table = Table(service, PROFILES["penny-ante"])
    rng = random.Random(3)
    unit = table.open(rng)
    before = reports(service, table)
    for _ in range(8):  # seeds, declarations and the rolls under the cups (C-5)
        if table.unit(unit).rolls:
            break
        moving = [(s, a) for s, a in table.legal(unit) if a["action"] not in ("abandon", "fold")]
        seat, legal = rng.choice(moving)
        from tests.integration.conformance import body_for

        table.act(seat, unit, body_for(table.action_class(unit, legal["action"]), legal, rng))
    assert table.unit(unit).rolls and not table.unit(unit).settled
    assert reports(service, table) == before
    play_to_settlement(table, rng, unit)
    after = service.luck(table.cid, Seat("mara"))
    assert sum(line.draws for line in after.settled) == len(table.unit(unit).rolls)


def test_the_draws_an_abandon_recorded_are_counted_apart(service: Any) -> None:
    table = Table(service, PROFILES["pool"])
    unit = table.open(random.Random(1))
    table.act("ilse", unit, {"action": "seed", "seed": "at the table"})
    table.abandon(unit)
    found = service.luck(table.cid, Seat("tomas"))
    assert found.abandoned and not found.settled
    assert {line.kind for line in found.abandoned} == {"d6"}


def test_a_system_that_declares_no_draws_is_refused_naming_the_ruling(service: Any, monkeypatch) -> None:
    from adapters.systems import edge

    table = Table(service, PROFILES["pool"], adventure=False)
    monkeypatch.delattr(edge("pool"), "LUCK")
    with pytest.raises(RuleViolation, match="C-1"):
        service.luck(table.cid, Seat.house())
