"""C-9 with C-6, PA-8: a side the House plays declares, after a rewind, the characteristics it first declared.

Its characteristics are how many dice it rolls. After a rewind the players' seeds stay given (C-4, C-7), so the
House, which knows the service's secret, knows every die of every slot: naming other characteristics would
choose how many of them it rolls. Through the service, on both stores (ADR 0029's known limit, closed)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from uuid import UUID

import pytest

from domain.errors import RuleViolation
from tests.integration.conformance import HOUSE, Step, Table

HOUSE_CHALLENGES = Step(HOUSE, "announce-challenge", {"challenger": {"antagonist": "Lady Sen"},
                                                      "opponent": {"players": ["ilse"]}, "ante": 1})


@pytest.fixture
def table(conformance_table: Callable[[str], Table]) -> Table:
    return conformance_table("penny-ante")


def declare_listed(table: Table, unit: UUID) -> dict[str, Any] | None:
    return next((a for s, a in table.legal(unit) if s == HOUSE and a["action"] == "declare"), None)


def house_declared_then_rewound(table: Table) -> UUID:
    """Lady Sen names Poison, Ilse names nothing and seeds; the House rewinds to the announcement."""
    unit = table.send(HOUSE_CHALLENGES).id
    first = declare_listed(table, unit)
    assert first is not None and first["choices"] == ["Poison"] and first.get("required") is None
    table.act(HOUSE, unit, {"action": "declare", "characteristics": ["Poison"]})
    table.act("ilse", unit, {"action": "declare", "characteristics": []})
    table.act("ilse", unit, {"action": "seed", "seed": "ilse's words"})
    table.rewind(unit, 1)
    return unit


def test_after_a_rewind_the_house_may_not_name_other_characteristics_than_it_first_named_c9(table: Table) -> None:
    unit = house_declared_then_rewound(table)
    before = table.events()
    with pytest.raises(RuleViolation, match="C-9: after a rewind a side the House plays declares the characteristics "
                                            "it first declared: Poison"):
        table.act(HOUSE, unit, {"action": "declare", "characteristics": []})
    assert table.events() == before  # nothing stored


def test_after_a_rewind_the_houses_declaration_is_listed_as_the_one_it_made_and_is_accepted_c9(table: Table) -> None:
    unit = house_declared_then_rewound(table)
    listed = declare_listed(table, unit)
    assert listed is not None
    assert (listed["choices"], listed["required"], listed["min"], listed["max"]) == (["Poison"], ["Poison"], 1, 1)
    table.act(HOUSE, unit, {"action": "declare", "characteristics": listed["required"]})
    assert table.unit(unit).sides["challenger"]["characteristics"] == ["Poison"]


def test_a_players_side_may_name_other_characteristics_after_a_rewind(table: Table) -> None:
    """Only the party that knows the secret is held (C-9); a player replays his step as he likes (PA-8)."""
    unit = house_declared_then_rewound(table)
    table.act(HOUSE, unit, {"action": "declare", "characteristics": ["Poison"]})
    table.act("ilse", unit, {"action": "declare", "characteristics": ["Sly"]})
    assert table.unit(unit).sides["opponent"]["characteristics"] == ["Sly"]
