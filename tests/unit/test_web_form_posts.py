"""Form posts become command inputs strictly (issue 31 review): a ticked name keeps its comma, JSON nested too deep
to be anyone's input is a refusal naming the ruling (never a 500), and a listed campaign command is refused by a
system that did not say which units it concerns."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest

from api.web import forms
from domain.errors import RuleViolation
from domain.kernel.commands import Command
from domain.kernel.registry import RuleSystem


class Declare(Command):
    verb: ClassVar[str] = "declare-things"
    ruling = "T-1"

    names: list[str]
    extra: dict[str, Any] | list[Any] | None = None


def test_a_ticked_name_with_a_comma_stays_one_name():
    got = forms.payload(Declare, {"names": ["Quick, clever", "Brave"], "names__multi": ["1"]})
    assert got["names"] == ["Quick, clever", "Brave"]


def test_json_nested_beyond_reason_is_refused_naming_the_ruling():
    with pytest.raises(RuleViolation) as refused:
        forms.payload(Declare, {"names": ["a"], "extra": ["[" * 100_000]})
    assert refused.value.ruling == "T-1"


def test_a_system_that_lists_a_campaign_command_must_say_which_units_it_concerns():
    class Quiet(RuleSystem):
        pass

    with pytest.raises(RuleViolation) as refused:
        Quiet().verify_listed(None, object(), Declare(names=["x"]))  # type: ignore[arg-type]
    assert refused.value.ruling == "C-1"
