"""Schemathesis drives Pulp's own operations (deals, combats, notes, unit actions) in a Pulp campaign, as the
House and as a player: generated input never gets a 5xx."""

from __future__ import annotations

import atexit
import tempfile
from pathlib import Path

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error

from adapters.service import Stakes
from adapters.settings import Settings
from api.app import create_app
from domain.seats import Seat

_store = Stakes(Settings(store="sqlite", sqlite_path=Path(tempfile.mkdtemp()) / "pulp-fuzz.sqlite"))
_created = _store.create_campaign("Fuzzed pulp", "pulp-cards")
_added = _store.run(_created.campaign.id, Seat.house(), "add-player", {"seat": "ilse", "character": "Ilse"})
_store.run(_created.campaign.id, Seat.house(), "start-adventure", {})  # C-1: units of resolution happen during an adventure
_combat = _store.run(_created.campaign.id, Seat.house(), "open-combat", {"combatants": ["ilse", "Cole"]})
_app = create_app(stakes=_store)
_app.state.stakes = _store
schema = schemathesis.openapi.from_asgi("/openapi.json", _app).include(
    path_regex=r"/(deals|combats|notes|challenges/\{[a-z_]+\}/actions)$")
atexit.register(_store.close)  # at the worker's end: --dist worksteal may split this module around another
_TOKENS = (_created.house_token, _store.claim(_added.invite).token)


@schema.parametrize()
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_generated_pulp_request_gets_a_server_error(case):
    params = case.path_parameters or {}
    if "campaign_id" in params:
        params["campaign_id"] = str(_created.campaign.id)
    for name in ("challenge_id", "unit"):
        if name in params:
            params[name] = str(_combat.id)
    for token in _TOKENS:
        response = case.call(headers={"Authorization": f"Bearer {token}"})
        case.validate_response(response, checks=[not_a_server_error])
        assert response.status_code < 500
