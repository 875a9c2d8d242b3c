"""Strict booleans everywhere (issue 29 item 12): every boolean a client can send, in every command, unit
action and setting of every system and in the API's own request bodies, takes only a JSON ``true`` or
``false``; ``1``, ``0``, ``"yes"``, ``"true"`` and ``"1"`` are refused."""

from __future__ import annotations

import types
import typing
from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from adapters import schemas as out
from api.schemas import CampaignIn
from domain.kernel.common import SHARED, Overturn
from domain.kernel.registry import supported

NOT_BOOLEANS = (1, 0, "yes", "true", "false", "1", 1.0)


def takes_bool(annotation: Any) -> bool:
    if annotation is bool:
        return True
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return takes_bool(typing.get_args(annotation)[0])
    if origin in (typing.Union, types.UnionType):
        return any(takes_bool(a) for a in typing.get_args(annotation))
    return False


def models() -> list[type[BaseModel]]:
    found: list[type[BaseModel]] = [*SHARED, CampaignIn, out.InviteClaim]
    for system in supported():
        found += [*system.commands(), *system.actions()]
        if system.settings_model is not None:
            found.append(system.settings_model)
    return list(dict.fromkeys(found))


def boolean_fields() -> list[tuple[type[BaseModel], str]]:
    return [(model, name) for model in models() for name, info in model.model_fields.items()
            if takes_bool(info.annotation)]


def test_the_walk_finds_the_booleans_clients_send() -> None:
    fields = boolean_fields()
    assert (Overturn, "void") in fields and len(fields) >= 3, fields


@pytest.mark.parametrize(("model", "name"), boolean_fields(), ids=lambda v: getattr(v, "__name__", v))
def test_every_boolean_input_takes_only_true_or_false(model: type[BaseModel], name: str) -> None:
    for bad in NOT_BOOLEANS:
        with pytest.raises(ValidationError) as refused:
            model.model_validate({name: bad})
        assert any(e["loc"][:1] == (name,) for e in refused.value.errors()), (model, name, bad)
    for good in (True, False):
        try:
            model.model_validate({name: good})
        except ValidationError as exc:  # other fields are missing; this one is taken
            assert not any(e["loc"][:1] == (name,) for e in exc.errors()), (model, name, good)


def test_overturn_refuses_a_number_or_a_word_for_void_naming_c6() -> None:
    from domain.errors import RuleViolation

    for bad in (1, "yes", "true"):
        with pytest.raises(RuleViolation, match="^C-6: void"):
            Overturn.parse({"unit": "0" * 32, "void": bad, "reason": "misread"})
    assert Overturn.parse({"unit": "0" * 32, "void": True, "reason": "misread"}).void is True


def test_rewind_refuses_a_number_or_a_word_for_reveal_naming_c6() -> None:  # review finding 6
    from domain.errors import RuleViolation
    from domain.kernel.common import Rewind

    assert (Rewind, "reveal") in boolean_fields()
    for bad in (1, "yes", "true"):
        with pytest.raises(RuleViolation, match="^C-6: reveal"):
            Rewind.parse({"unit": "0" * 32, "to_step": 2, "reveal": bad, "reason": "misread"})
    assert Rewind.parse({"unit": "0" * 32, "to_step": 2, "reveal": True, "reason": "misread"}).reveal is True
