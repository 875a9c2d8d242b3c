"""C-6 (issue 30): a settled Pool contest is overturned (voided) by the House like every other unit: each pool
gets back the dice the contest took and gives back those it gained (PL-3, PL-9), never below two dice."""

from __future__ import annotations

import pytest

from domain.errors import NotPermitted, RuleViolation
from tests.unit.conftest import HOUSE, ILSE, TOMAS
from tests.unit.test_pool import Table


def _hit_beats_miss(table: Table):
    """Ilse 6 6 (12, a hit; both dice lost, PL-3) against Tomas 1 2 (3, a miss: he gains 2, PL-9)."""
    unit = table.app.open_contest(table.cid, ILSE, "tomas", "secret")
    table.app.act(table.cid, ILSE, unit, "roll", {"count": 2, "dice": [6, 6]})
    table.app.act(table.cid, TOMAS, unit, "roll", {"count": 2, "dice": [1, 2]})
    return unit


def test_a_settled_contest_is_voided_and_both_pools_are_as_before_it():  # C-6, PL-3, PL-9
    table = Table(table_dice=True)
    before = {s: table.pool(s) for s in ("ilse", "tomas")}
    unit = _hit_beats_miss(table)
    assert (table.pool("ilse"), table.pool("tomas")) == (before["ilse"] - 2, before["tomas"] + 2)
    table.app.overturn(table.cid, HOUSE, unit, None, True, "the monk was not there")
    assert {s: table.pool(s) for s in ("ilse", "tomas")} == before
    contest = table.app.repository.get(unit)
    assert contest.overturned == {"reason": "the monk was not there", "back": {"ilse": 2, "tomas": -2}}
    assert contest.view_for("tomas")["overturned"]["reason"] == "the monk was not there"


def test_a_contest_is_overturned_once_only_when_settled_by_the_house_and_names_no_winner():  # C-6
    table = Table(table_dice=True)
    unit = table.app.open_contest(table.cid, ILSE, "tomas", "secret")
    stored = table.app.recorder.max_notification_id()
    with pytest.raises(RuleViolation) as open_one:
        table.app.overturn(table.cid, HOUSE, unit, None, True, "too soon")
    assert open_one.value.ruling == "C-6" and "rewound" in str(open_one.value)
    table.app.act(table.cid, ILSE, unit, "roll", {"count": 2, "dice": [6, 6]})
    table.app.act(table.cid, TOMAS, unit, "roll", {"count": 2, "dice": [1, 2]})
    with pytest.raises(RuleViolation, match="C-6: a pool campaign has no winner to name in an overturn"):
        table.app.overturn(table.cid, HOUSE, unit, "opponent", False, "the other one")
    with pytest.raises(NotPermitted):
        table.app.overturn(table.cid, ILSE, unit, None, True, "I lost nothing")
    table.app.overturn(table.cid, HOUSE, unit, None, True, "void")
    stored = table.app.recorder.max_notification_id()
    with pytest.raises(RuleViolation, match="C-6: this contest was overturned already"):
        table.app.overturn(table.cid, HOUSE, unit, None, True, "again")
    assert table.app.recorder.max_notification_id() == stored
