"""Issue 30 (ADR 0033): the shared ``LegalAction`` carries only the limits every system shares; each system types
its own extras in its adapter module, and the OpenAPI describes them per system."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from adapters.schemas import LegalAction


@pytest.fixture(scope="module")
def components() -> dict:
    from api.app import create_app

    return create_app().openapi()["components"]["schemas"]


def test_the_shared_legal_action_refuses_a_limit_no_schema_declares():
    with pytest.raises(ValidationError, match="loan"):
        LegalAction.model_validate({"action": "accept-loan", "loan": "0" * 32})


@pytest.mark.parametrize(("schema", "own"), [
    ("ChallengeAction", {"amount", "cost", "dice", "member", "borrowers", "best_bid", "loan", "lender"}),
    ("ConflictAction", {"dice", "reshuffle"}),
    ("BeastAction", {"member", "dice"}),
    ("PulpAction", {"member"}),
    ("PoolAction", {"count_of", "faces"}),  # C-3: a table-dice roll says what to enter
])
def test_the_openapi_describes_each_systems_own_limits(components, schema, own):
    shared = set(LegalAction.model_fields)  # every system has its own class now: the shared one is no component
    assert own <= set(components[schema]["properties"]) and not own & shared
    assert shared <= set(components[schema]["properties"])


def test_a_system_view_lists_its_own_legal_actions(components):
    def items(view: str) -> str:
        found = components[view]["properties"]["legal_actions"]["items"]
        return found["$ref"].rsplit("/", 1)[-1]

    assert items("ChallengeView") == "ChallengeAction"
    assert items("ConflictView") == "ConflictAction"
    assert items("BeastView") == "BeastAction"
    assert items("PulpView") == "PulpAction"
    assert items("PoolView") == "PoolAction"
