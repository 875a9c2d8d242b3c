"""Schemathesis drives every documented operation with generated input: bad input never gets a 5xx, and every
status an operation answers is one its OpenAPI documents (issue 29)."""

from __future__ import annotations

import atexit
import tempfile
from pathlib import Path

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error, status_code_conformance

from adapters.service import Stakes
from adapters.settings import Settings
from api.app import create_app
from domain.seats import Seat

_store = Stakes(Settings(store="sqlite", sqlite_path=Path(tempfile.mkdtemp()) / "fuzz.sqlite"))
# Closed when the worker ends, not at the module's teardown: under ``--dist worksteal`` a worker may run this
# module's tests on both sides of another module's, and a closed store would fail them all.
atexit.register(_store.close)
_created = _store.create_campaign("Fuzzed", "penny-ante")
_store.run(_created.campaign.id, Seat.house(), "add-player", {"seat": "ilse", "character": "Ilse", "characteristic": "Whip"})
_app = create_app(stakes=_store)
_app.state.stakes = _store
# The live stream never ends by itself (its refusals are tested in tests/e2e/test_stream.py).
schema = schemathesis.openapi.from_asgi("/openapi.json", _app).exclude(path_regex=r"/stream$")


@schemathesis.serializer("application/x-ndjson")
def _ndjson(ctx, value) -> bytes:
    """Imports take JSON Lines; any generated text is a (most likely broken) export."""
    return value.encode() if isinstance(value, str) else str(value).encode()


@schema.parametrize()
@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_generated_request_gets_a_server_error(case):
    if "campaign_id" in (case.path_parameters or {}):
        case.path_parameters["campaign_id"] = str(_created.campaign.id)
    response = case.call(headers={"Authorization": f"Bearer {_created.house_token}"})
    case.validate_response(response, checks=[not_a_server_error, status_code_conformance])
    assert response.status_code < 500
