"""The campaign chart's read models (issue 31, ADR 0035) on both stores, for every system: each line ends at the
value its sheet shows, a rebuild writes the very points the commands wrote one by one, the audit's read-model
check covers them, the answer stays bounded, and a sheet hidden from a seat is not on its chart (C-5)."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from adapters import chart
from adapters.service import Stakes
from domain.errors import RuleViolation
from domain.kernel.registry import supported
from domain.seats import Seat
from tests.integration.conformance import HOUSE, PLAYERS, PROFILES, Step, Table, play

#: What each system's sheet shows of the charted quantity.
ON_THE_SHEET: dict[str, Any] = {
    "penny-ante": lambda s: s.pile, "pool": lambda s: s.pool, "twenty-one": lambda s: s.holds,
    "beast": lambda s: s.willpower, "pulp-cards": lambda s: len(s.conditions),
}
SYSTEMS = [s.id for s in supported()]


@pytest.fixture
def service(stakes: Any) -> Stakes:
    return stakes.service


@pytest.mark.parametrize("system", SYSTEMS)
def test_each_line_ends_at_its_sheet_and_a_rebuild_writes_the_same_points(service: Stakes, system: str) -> None:
    table = Table(service, PROFILES[system])
    if system == "pulp-cards":
        table.run(HOUSE, "add-note", {"to": "ilse", "kind": "condition", "note": "a broken arm"})
    played = play(table, random.Random(f"{system}/chart"), 30, rewind=0.15, abandon=0.05)
    assert played.units
    found = service.chart(table.cid, Seat.house())
    assert {(line.seat, line.name) for line in found.lines} >= {(p, p.title()) for p in PLAYERS}
    for line in found.lines:
        assert line.points[-1].value == line.value and line.recorded == len(line.points)
        assert [p.position for p in line.points] == sorted({p.position for p in line.points})
        if line.seat != HOUSE:
            assert ON_THE_SHEET[system](service.sheet(table.cid, Seat.house(), line.seat)) == line.value, line
    if system == "pulp-cards":
        assert next(line for line in found.lines if line.seat == "ilse").value == 1
    incremental = service.views.dump()
    assert incremental["chart_points"] and incremental["chart_lines"]
    service.rebuild()
    assert service.views.dump() == incremental
    assert service.audit(table.cid, Seat.house()).read_models == "intact"


def test_the_audit_finds_an_altered_chart_point(service: Stakes) -> None:
    table = Table(service, PROFILES["pool"])
    with service.views.datastore.transaction(commit=True) as c:  # type: ignore[attr-defined]
        service.views._x(c, "UPDATE {p}chart_points SET value = value + 5 WHERE campaign_id = ?", (table.cid.hex,))
    report = service.audit(table.cid, Seat.house())
    assert report.read_models == "altered"
    assert "chart_points" in json.dumps(report.model_dump(mode="json"))


def test_a_long_line_is_sampled_to_the_limit_keeping_its_first_and_last_points(service: Stakes) -> None:
    table = Table(service, PROFILES["twenty-one"], adventure=False)
    for _ in range(30):
        table.run(HOUSE, "grant-holds", {"seat": "ilse", "count": 1, "skill": "knife fighting"})
    full = service.chart(table.cid, Seat("tomas"), limit=1000)
    ilse = next(line for line in full.lines if line.seat == "ilse")
    assert ilse.recorded == 32 and len(ilse.points) == 32 and not full.sampled  # start, the profile's grant, 30
    sampled = service.chart(table.cid, Seat("tomas"), limit=5)
    short = next(line for line in sampled.lines if line.seat == "ilse")
    assert sampled.sampled and len(short.points) == 5
    assert short.points[0] == ilse.points[0] and short.points[-1] == ilse.points[-1]
    assert short.value == ilse.value == 31
    with pytest.raises(RuleViolation, match="2 to 1000 points"):
        service.chart(table.cid, Seat("tomas"), limit=1)


def test_the_ordinals_are_evenly_spread_and_bounded() -> None:
    assert chart.ordinals(3, 10) == [1, 2, 3]
    assert chart.ordinals(100, 2) == [1, 100]
    picked = chart.ordinals(10_000, 200)
    assert len(picked) == 200 and picked[0] == 1 and picked[-1] == 10_000


IDS = re.compile(r"[0-9a-f]{32}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
TIMES = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?([+-]\d\d:\d\d|Z)?")


def _beast_evening(service: Stakes, willpower: int) -> tuple[Table, dict[str, str]]:
    """The same evening, but for the House's secret: its antagonist's Willpower (C-5: its sheet is the House's)."""
    profile = PROFILES["beast"]
    table = Table(service, profile.__class__(
        "beast", profile.player, prepare=(Step(HOUSE, "create-antagonist",
                                               {"name": "Sheriff Cole", "humanity": 4, "willpower": willpower}),),
        openings=profile.openings))
    seen = {seat: TIMES.sub("T", IDS.sub("ID", chart.CampaignChart.model_dump_json(
        service.chart(table.cid, Seat.parse(seat))))) for seat in (HOUSE, *PLAYERS)}
    return table, seen


def test_a_sheet_hidden_from_a_seat_is_not_on_its_chart(service: Stakes) -> None:
    _, three = _beast_evening(service, 3)
    _, five = _beast_evening(service, 5)
    for seat in PLAYERS:  # byte for byte, whatever the House's secret
        assert three[seat] == five[seat]
        assert "Sheriff Cole" not in three[seat]
    assert three[HOUSE] != five[HOUSE] and "Sheriff Cole" in three[HOUSE]


def test_a_system_whose_sheets_track_nothing_answers_a_refusal_naming_the_ruling(service: Stakes,
                                                                                   monkeypatch) -> None:
    from adapters.systems import edge

    table = Table(service, PROFILES["pool"], adventure=False)
    monkeypatch.delattr(edge("pool"), "TRACKED")
    with pytest.raises(RuleViolation, match="C-1: a pool campaign tracks no quantity"):
        service.chart(table.cid, Seat.house())
