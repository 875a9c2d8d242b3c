"""A legal action's ``choices`` name the body field they fill (``field``), from the same command class that
validates the move, so a client can play any system from its legal actions alone."""

from __future__ import annotations

from typing import get_args

import pytest

from adapters.schemas import LegalAction, limits, with_choice_fields
from adapters.systems import edge
from domain.kernel.registry import rule_system

CASES = [
    ("penny-ante", "declare", ["Whip"], "characteristics"),
    ("penny-ante", "keep", [0, 1, 2], "cup"),
    ("penny-ante", "buyout", ["Whip"], "give_up"),
    ("pool", "choose", ["narrate", "house"], "choice"),
    ("twenty-one", "order", ["ilse", "tomas"], "actors"),
    ("twenty-one", "order-card", ["A♠"], "card"),
    ("twenty-one", "lay", ["A♠", "2♥"], "cards"),
    ("twenty-one", "keep", [True, False], "keep"),
    ("twenty-one", "assist", ["A♠"], "replace_with"),
    ("twenty-one", "modifier", [-1, 1], "value"),
    ("beast", "reroll", [1, 2, 3], "die"),
    ("beast", "check", ["held", "slipped"], "outcome"),
    ("pulp-cards", "surprise", ["Ilse", "Lady Sen"], "by"),
    ("pulp-cards", "show", [1, 2], "number"),
    ("pulp-cards", "effect", [1, 2], "number"),  # the attacks whose effect may be recorded
]


def limits_of(system: str) -> frozenset[str]:
    """The limits of the system's own legal actions (its ``LegalAction`` subclass, issue 30)."""
    return limits(get_args(edge(system).UNITS[0].model_fields["legal_actions"].annotation)[0])


def action(system: str, name: str):
    return next(a for a in rule_system(system).actions() if a.action_name() == name)


@pytest.mark.parametrize(("system", "name", "choices", "field"), CASES)
def test_a_legal_actions_choices_name_the_body_field_they_fill(system, name, choices, field) -> None:
    assert action(system, name).choice_field(choices, limits_of(system)) == field


def test_no_choices_at_all_still_name_the_list_field_to_send_empty() -> None:
    # TO-4: a hand emptied by the order of play lays no card from hand and draws two
    assert action("twenty-one", "lay").choice_field([], limits_of("twenty-one")) == "cards"


def test_choices_that_are_not_one_fields_values_name_no_field() -> None:
    # Twenty-one's hold names the flag to set; Beast's roll gives several fields' ranges as objects
    assert action("twenty-one", "hold").choice_field(["set-aside", "draw"], limits_of("twenty-one")) is None
    assert action("beast", "roll").choice_field([{"humanity": [0, 3]}], limits_of("beast")) is None


def test_the_field_is_added_to_legal_actions_with_choices_only() -> None:
    legal = [LegalAction(action="choose", choices=["narrate"]), LegalAction(action="roll", min=2)]
    named = with_choice_fields(legal, lambda name: action("pool", name))
    assert [a.field for a in named] == ["choice", None]


def test_a_web_form_sets_the_side_whose_move_it_is_when_the_legal_action_names_it():
    from api.web import forms
    from domain.systems.beast import commands as beast

    fields = {f.name: f for f in forms.fields(beast.Check, limits={"action": "check", "member": "challenger",
                                                                   "choices": ["held", "slipped"], "field": "outcome"})}
    assert fields["side"].value == "challenger" and fields["outcome"].options == ["held", "slipped"]
    from api.web.pages import templates

    html = str(templates.env.get_template("_form.html").module.fields_of(list(fields.values()), "check"))
    assert '<option value="challenger" selected>' in html and '<option value="opponent">' in html
