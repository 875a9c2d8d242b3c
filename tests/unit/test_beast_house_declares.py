"""C-9 (review finding 2): an antagonist's split and Willpower-before are declared by the House before a
player's seed, pass or roll, and its roll uses them (ADR 0029)."""

from __future__ import annotations

from typing import Any

import pytest

from domain.errors import RuleViolation
from domain.kernel.common import Rewind
from tests.unit.beast_table import HOUSE, ILSE, BeastTable


def sheets(t: BeastTable) -> dict[str, dict[str, int]]:
    return {"challenger": t.sheet("ilse"), "opponent": t.cole()}


def actions(t: BeastTable, unit: Any, seat: str) -> list[str]:
    return [a["action"] for a in t.unit(unit).legal_actions(seat, sheets(t))]


def test_a_players_seed_pass_or_roll_is_refused_and_not_offered_until_the_house_declares_its_split():
    t = BeastTable()
    unit = t.conflict()
    version = t.unit(unit).version
    assert not {"seed", "pass", "roll"} & set(actions(t, unit, "ilse"))
    assert actions(t, unit, "house")[0] == "prepare"
    for payload in ({"action": "seed", "seed": "lucky"}, {"action": "pass"},
                    {"action": "roll", "humanity": 3, "beast": 0}):
        with pytest.raises(RuleViolation, match=r"C-9: the House declares its split and Willpower \(the opponent\)"):
            t.act(ILSE, unit, **payload)
    assert t.unit(unit).version == version  # nothing stored
    t.act(HOUSE, unit, action="prepare", humanity=2, beast=1, willpower="before")
    assert {"seed", "pass", "roll"} <= set(actions(t, unit, "ilse"))
    assert "prepare" not in actions(t, unit, "house")


def test_the_house_rolls_only_the_split_it_declared_and_only_that_split_is_listed():
    t = BeastTable()
    unit = t.conflict()
    t.act(HOUSE, unit, action="prepare", humanity=2, beast=1)
    t.act(ILSE, unit, action="seed", seed="lucky")
    roll = next(a for a in t.unit(unit).legal_actions("house", sheets(t)) if a["action"] == "roll")
    assert roll["choices"] == [{"humanity": [2, 2], "beast": [1, 1], "willpower": [None]}]
    for other in ({"humanity": 0, "beast": 3}, {"humanity": 2, "beast": 1, "willpower": "before"}):
        with pytest.raises(RuleViolation, match="C-9: this antagonist declared 2 Humanity and 1 Beast dice"):
            t.act(HOUSE, unit, action="roll", **other)
    rolled = t.act(HOUSE, unit, action="roll", humanity=2, beast=1)
    assert [d["kind"] for d in rolled.sides["opponent"]["roll"]["dice"]] == ["H", "H", "B"]


def test_an_antagonists_declaration_is_made_once_and_kept_through_a_rewind():
    t = BeastTable()
    unit = t.conflict()
    t.act(HOUSE, unit, action="prepare", humanity=0, beast=3)
    with pytest.raises(RuleViolation, match="C-9: this antagonist has declared its split"):
        t.act(HOUSE, unit, action="prepare", humanity=3, beast=0)
    t.act(ILSE, unit, action="pass")
    t.act(HOUSE, unit, action="roll", humanity=0, beast=3)
    t.run(HOUSE, Rewind(unit=unit, to_step=1, reason="a misread"))
    assert t.unit(unit).prepared == {"opponent": {"humanity": 0, "beast": 3, "willpower_before": False}}
    with pytest.raises(RuleViolation, match="C-9"):
        t.act(HOUSE, unit, action="roll", humanity=3, beast=0)


def test_an_antagonists_declaration_is_hidden_from_players_until_revealed():
    t = BeastTable()
    unit = t.conflict()
    t.act(HOUSE, unit, action="prepare", humanity=2, beast=1)
    assert t.unit(unit).view_for("ilse")["prepared"] == {"opponent": True}
    assert t.unit(unit).view_for("house")["prepared"] == {"opponent": {"humanity": 2, "beast": 1,
                                                                       "willpower_before": False}}


def test_a_declaration_after_a_players_input_in_a_conflict_stored_before_this_rule_is_refused():
    t = BeastTable()
    unit = t.conflict()
    stored = t.unit(unit)
    stored._seed_added(side="challenger", seed="lucky", actor="ilse")  # as stored before C-9 was enforced here
    with pytest.raises(RuleViolation, match="C-9: the House's split and Willpower comes before a player's seed"):
        stored.prepare("opponent", t.cole(), 0, 3, None, "house")
    assert "prepare" not in [a["action"] for a in stored.legal_actions("house", sheets(t))]
    stored.roll("opponent", t.cole(), 0, 3, None, None, "house")  # the old unit goes on as it was
    assert stored.sides["opponent"]["roll"] is not None
