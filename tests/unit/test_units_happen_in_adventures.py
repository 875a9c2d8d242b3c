"""C-1 in every system (issue 30): a unit of resolution opens only while an adventure runs, and the adventure
cannot end while one of its units is still open. The kernel checks it on what a command saves, whichever
system's command opened the unit (``StakesApplication._units_in_adventure``)."""

from __future__ import annotations

from typing import Any

import pytest

from domain.errors import RuleViolation
from domain.seats import Seat
from tests.unit.conftest import HOUSE, new_app

PLAYERS: dict[str, dict[str, Any]] = {
    "pool": {"description": "A brave and clever thief"},
    "twenty-one": {},
    "beast": {},
    "pulp-cards": {},
}

#: Per system, each command that opens a unit: (who, verb, inputs).
OPENERS: list[tuple[str, str, str, dict[str, Any]]] = [
    ("pool", "ilse", "roll", {"count": 2}),
    ("pool", "ilse", "open-contest", {"opponent": "tomas"}),
    ("twenty-one", "house", "open-conflict", {"characters": ["ilse"]}),
    ("beast", "ilse", "act", {"difficulty": 2, "humanity": 1, "beast": 0}),
    ("beast", "ilse", "open-conflict", {"against": "tomas"}),
    ("pulp-cards", "ilse", "deal", {}),
    ("pulp-cards", "house", "open-combat", {"combatants": ["ilse", "tomas"]}),
]


def _campaign(system: str):
    app = new_app()
    cid = app.create_campaign("Table", system)
    for seat in ("ilse", "tomas"):
        app.run_verb(cid, HOUSE, "add-player", seat=seat, character=seat.title(), **PLAYERS[system])
    return app, cid


def _open(app, cid, who: str, verb: str, inputs: dict[str, Any]) -> Any:
    return app.run(cid, Seat.parse(who), app.parse(cid, verb, inputs), secret="committed")


@pytest.mark.parametrize(("system", "who", "verb", "inputs"), OPENERS, ids=[f"{o[0]}-{o[2]}" for o in OPENERS])
def test_a_unit_opened_with_no_adventure_running_is_refused_naming_c1_and_nothing_is_stored(system, who, verb,
                                                                                             inputs):
    app, cid = _campaign(system)
    stored = app.recorder.max_notification_id()
    with pytest.raises(RuleViolation) as refused:
        _open(app, cid, who, verb, inputs)
    assert refused.value.ruling == "C-1" and "during an adventure" in str(refused.value)
    assert app.recorder.max_notification_id() == stored
    app.start_adventure(cid, HOUSE)
    assert _open(app, cid, who, verb, inputs) is not None  # the same command, inside an adventure


@pytest.mark.parametrize(("system", "who", "verb", "inputs"), OPENERS, ids=[f"{o[0]}-{o[2]}" for o in OPENERS])
def test_an_adventure_does_not_end_while_a_unit_of_it_is_open(system, who, verb, inputs):
    app, cid = _campaign(system)
    app.start_adventure(cid, HOUSE)
    unit = app.repository.get(_open(app, cid, who, verb, inputs))
    campaign = app.campaign(cid)
    assert (unit.id.hex in campaign.open_challenges) == (not unit.settled)
    if unit.settled:  # opened and settled in one request (a Beast action): nothing is left open
        assert app.end_adventure(cid, HOUSE) == 1
        return
    stored = app.recorder.max_notification_id()
    with pytest.raises(RuleViolation) as refused:
        app.end_adventure(cid, HOUSE)
    assert refused.value.ruling == "C-1" and "still open" in str(refused.value)
    assert app.recorder.max_notification_id() == stored


def test_an_ended_twenty_one_conflict_is_closed_and_the_adventure_may_end():  # C-1
    app, cid = _campaign("twenty-one")
    app.start_adventure(cid, HOUSE)
    unit = _open(app, cid, "house", "open-conflict", {"characters": ["ilse", "tomas"]})
    app.act(cid, Seat.parse("ilse"), unit, "pass")
    app.act(cid, Seat.parse("tomas"), unit, "pass")  # the last input deals (C-10)
    app.act(cid, HOUSE, unit, "end")
    assert unit.hex not in app.campaign(cid).open_challenges
    assert app.end_adventure(cid, HOUSE) == 1


def test_an_ended_pulp_combat_is_closed_and_the_adventure_may_end():  # C-1
    app, cid = _campaign("pulp-cards")
    app.start_adventure(cid, HOUSE)
    unit = _open(app, cid, "house", "open-combat", {"combatants": ["ilse", "tomas"]})
    app.act(cid, HOUSE, unit, "end", {"reason": "the bridge falls"})
    assert unit.hex not in app.campaign(cid).open_challenges
    assert app.end_adventure(cid, HOUSE) == 1
