"""The luck report's hooks (issue 31, ADR 0035) on units played at random from their legal actions: every die
of a settled unit is counted once, as the seat (or side) whose it is, of a kind whose fair distribution the
system declares; the draws a ``DrawAbandoned`` recorded (C-10) are counted through the same hook."""

from __future__ import annotations

import json
import random
from types import SimpleNamespace
from typing import Any

import pytest

from adapters.luck import goodness_of_fit
from adapters.systems import edge
from tests.integration.conformance import HOUSE, PROFILES, Table, play

DICE_SYSTEMS = ("penny-ante", "pool", "beast")


@pytest.fixture
def service(stakes: Any) -> Any:
    return stakes.service


@pytest.mark.parametrize("system", DICE_SYSTEMS)
def test_every_die_of_a_settled_unit_is_counted_once_as_its_sides_seats(service: Any, system: str) -> None:
    luck = edge(system).LUCK
    table = Table(service, PROFILES[system])
    played = play(table, random.Random(f"{system}/luck"), 40, rewind=0.1, abandon=0.05)
    counted = 0
    for unit_id in played.settled:
        unit = table.unit(unit_id)
        draws = luck.draws(unit)
        assert len(draws) == len([r for r in unit.rolls if "deck" not in r])
        seats = {s for side in unit.sides for s in unit.seats_of(side)}
        for draw in draws:
            assert set(draw.seat.split("+")) <= seats | {HOUSE}, draw
            assert draw.seat == "+".join(unit.seats_of(next(s for s in unit.sides if "+".join(unit.seats_of(s)) == draw.seat)))
            assert draw.value in luck.fair(draw.kind), draw
        counted += len(draws)
    assert counted, f"{system}: no die settled in 40 moves"
    by_kind: dict[str, dict[str, int]] = {}
    for unit_id in played.settled:
        for draw in luck.draws(table.unit(unit_id)):
            found = by_kind.setdefault(draw.kind, {})
            found[draw.value] = found.get(draw.value, 0) + 1
    for kind, counts in by_kind.items():
        fit = goodness_of_fit(counts, luck.fair(kind))
        assert fit.draws == sum(counts.values()) and fit.dof == len(luck.fair(kind)) - 1


@pytest.mark.parametrize("system", DICE_SYSTEMS)
def test_the_draws_an_abandon_recorded_are_counted_as_their_sides(service: Any, system: str) -> None:
    luck = edge(system).LUCK
    table = Table(service, PROFILES[system])
    unit_id = table.open(random.Random(1))
    unit = table.unit(unit_id)
    seeders = [(s, a["action"]) for s, a in table.legal(unit_id) if a["action"] in ("seed", "pass")]
    if not seeders:
        pytest.skip(f"{system}: this unit takes no seed before its draw")
    seat, action = seeders[0]
    table.act(seat, unit_id, {"action": action, **({"seed": "at the table"} if action == "seed" else {})})
    if not table.unit(unit_id).abandons_a_draw():
        pytest.skip(f"{system}: a pass alone fixes no draw here")
    table.abandon(unit_id)
    rows = service.views.query("SELECT detail FROM {p}event_log WHERE challenge_id = ? AND event = ?",
                               (unit_id.hex, "DrawAbandoned"))
    assert len(rows) == 1
    recorded = SimpleNamespace(**json.loads(rows[0]["detail"]))
    draws = luck.abandoned(recorded, table.unit(unit_id))
    assert draws and all(d.value in luck.fair(d.kind) for d in draws)
    assert {d.seat for d in draws} <= {"+".join(unit.seats_of(s)) for s in unit.sides}
