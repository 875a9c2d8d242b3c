"""Import is a command, not a side door (C-2), on both stores over HTTP: a credential, a size and a depth
limit, the commands' value checks, new ids that squat on nothing, and one campaign that cannot be
projected never stops the others."""

from __future__ import annotations

import json
from typing import Any
from uuid import UUID

import pytest
from eventsourcing.persistence import StoredEvent

from adapters import audit, codec
from domain.systems.penny_ante.house import Antagonist
from tests.e2e.conftest import bearer

OPERATOR = "the-operators-own-secret"


@pytest.fixture
def http(client):
    client.app.state.stakes.settings.operator_token = OPERATOR
    return client


def operator() -> dict[str, str]:
    return {**bearer(OPERATOR), "Content-Type": "application/x-ndjson"}


def campaign(http, name: str, antagonist: str | None = "Lady Sen") -> tuple[str, dict[str, str]]:
    created = http.post("/campaigns", json={"name": name, "settings": {"starting_pile": 30}}).json()
    cid, house = created["campaign"]["id"], bearer(created["house_token"])
    http.post(f"/campaigns/{cid}/players", headers=house, json={"seat": "ilse", "character": "Ilse",
                                                                "characteristic": "Sly"})
    if antagonist:
        assert http.post(f"/campaigns/{cid}/antagonists", headers=house, json={"name": antagonist}).status_code == 201
    return cid, house


def exported(http, cid: str, house: dict[str, str]) -> list[str]:
    r = http.get(f"/campaigns/{cid}/export", headers=house)
    assert r.status_code == 200, r.text
    return r.text.splitlines()


def rechained(lines: list[str], edit: Any) -> str:
    """The export with ``edit(event)`` applied to every event and its chain recomputed, as a forger would."""
    header, events = json.loads(lines[0]), [json.loads(line) for line in lines[1:]]
    previous, out = audit.GENESIS, []
    for e in events:
        e = edit(e)
        d = audit.digest(e["originator_id"], e["originator_version"], e["topic"], e["state"].encode(), e["salt"])
        previous = audit.link(previous, d)
        out.append(json.dumps({**e, "digest": d, "chain": previous}))
    return "\n".join([json.dumps({**header, "head": previous}), *out])


def log_size(http) -> int:
    return http.app.state.stakes.app.recorder.max_notification_id() or 0


def test_an_import_without_the_operator_token_is_refused_and_stores_nothing(http):
    cid, house = campaign(http, "Source")
    body = "\n".join(exported(http, cid, house))
    before = log_size(http)
    assert http.post("/imports", content=body).status_code == 401
    assert http.post("/imports", content=body, headers=house).status_code == 403  # a House token is not enough
    r = http.post("/imports", content=body, headers=bearer("a guess"))  # unknown here: 401, as everywhere
    assert r.status_code == 401 and r.headers["WWW-Authenticate"] == "Bearer"
    assert r.json()["type"] == "/problems/unauthenticated"
    assert log_size(http) == before
    r = http.post("/imports", content=body, headers=operator())
    assert r.status_code == 201 and r.json()["imported_from"].replace("-", "") == cid.replace("-", "")


def test_a_server_without_an_operator_token_takes_no_imports(client):
    cid, house = campaign(client, "Source")
    body = "\n".join(exported(client, cid, house))
    r = client.post("/imports", content=body, headers=house)
    assert r.status_code == 403 and "STAKES_OPERATOR_TOKEN" in r.json()["detail"]
    r = client.post("/imports", content=body, headers=bearer("None"))  # a token nobody holds: 401 (issue 29)
    assert r.status_code == 401 and "STAKES_OPERATOR_TOKEN" in r.json()["detail"]


def test_an_oversized_import_is_refused_before_it_is_read(http):
    http.app.state.stakes.settings.import_max_bytes = 1_000_000
    r = http.post("/imports", content=b"x" * 50_000_000, headers=operator())  # 50 MB, its length told
    assert r.status_code == 413 and r.json()["ruling"] == "C-2"

    def junk():  # no length told: the server stops reading past the limit
        for _ in range(40):
            yield b"y" * 100_000

    r = http.post("/imports", content=junk(), headers=operator())
    assert r.status_code == 413 and "at most 1,000,000 bytes" in r.json()["detail"]


def test_a_deeply_nested_import_line_is_refused_not_a_crash(http):
    deep = "[" * 100_000 + "]" * 100_000
    r = http.post("/imports", content=deep, headers=operator())
    assert r.status_code == 422 and r.json()["ruling"] == "C-2" and "nests deeper" in r.json()["detail"]
    cid, house = campaign(http, "Source")
    lines = exported(http, cid, house)
    nested = rechained(lines, lambda e: {**e, "state": e["state"][:-1] + ',"x":' + "[" * 200 + "]" * 200 + "}"}
                       if e["position"] == 2 else e)
    r = http.post("/imports", content=nested, headers=operator())
    assert r.status_code == 422 and "nests deeper" in r.json()["detail"]


def test_a_poisoned_import_with_a_huge_pile_is_refused_naming_the_ruling(http):
    cid, house = campaign(http, "Source")
    lines = exported(http, cid, house)
    assert '"starting_pile":30' in json.loads(lines[1])["state"]
    poisoned = rechained(lines, lambda e: {**e, "state": e["state"].replace('"starting_pile":30',
                                                                           '"starting_pile":' + "1" + "0" * 30)})
    before = log_size(http)
    r = http.post("/imports", content=poisoned, headers=operator())
    assert r.status_code == 422 and r.json()["ruling"] == "C-2", r.text
    assert "PA-1" in r.json()["detail"] and "starting_pile" in r.json()["detail"]
    assert log_size(http) == before
    assert http.get(f"/campaigns/{cid}", headers=house).status_code == 200  # the server goes on


def test_a_squatting_import_reserves_no_id_of_another_campaign(http):
    victim, victim_house = campaign(http, "Victim", antagonist=None)
    source, source_house = campaign(http, "Attacker", antagonist="Lady Sen")
    lines = exported(http, source, source_house)
    theirs = Antagonist.create_id(UUID(source), "Lady Sen").hex
    squat = Antagonist.create_id(UUID(victim), "Lady Sen").hex  # the id the victim's Lady Sen will need
    forged = rechained(lines, lambda e: {**e, "originator_id": squat} if e["originator_id"] == theirs else e)
    r = http.post("/imports", content=forged, headers=operator())
    assert r.status_code == 201, r.text
    report = r.json()
    assert report["campaign_id"] not in (source, victim)
    # The victim's House still has the name; the imported campaign keeps its own Lady Sen.
    assert http.post(f"/campaigns/{victim}/antagonists", headers=victim_house,
                     json={"name": "Lady Sen"}).status_code == 201
    imported = bearer(report["house_token"])
    names = [a["name"] for a in http.get(f"/campaigns/{report['campaign_id']}/antagonists", headers=imported).json()]
    assert names == ["Lady Sen"]
    # The same export twice: two campaigns, never a collision.
    again = http.post("/imports", content="\n".join(lines), headers=operator()).json()
    assert again["campaign_id"] != report["campaign_id"]


def test_one_event_that_cannot_be_projected_marks_its_campaign_for_repair_and_the_rest_goes_on(http):
    stakes = http.app.state.stakes
    broken, broken_house = campaign(http, "Broken")
    healthy, healthy_house = campaign(http, "Healthy")
    # An event written straight into the store (no command, no import) that the read models cannot hold.
    antagonist = Antagonist.create_id(UUID(broken), "Lady Sen")
    (last,) = stakes.app.recorder.select_events(antagonist, desc=True, limit=1)
    state = stakes.app.mapper.transcoder.decode(codec.plain(last.state))
    poison = {"timestamp": state["timestamp"], "actor": "house", "amount": 10**30, "adventure": 1}
    stakes.app.recorder.insert_events([StoredEvent(
        originator_id=antagonist, originator_version=last.originator_version + 1,
        topic="domain.systems.penny_ante.house:Antagonist.Funded", state=stakes.app.mapper.transcoder.encode(poison))])
    r = http.get(f"/campaigns/{broken}", headers=broken_house)
    assert r.status_code == 409 and r.json()["type"] == "/problems/needs-repair" and "repair" in r.json()["detail"]
    assert http.post(f"/campaigns/{broken}/adventures", headers=broken_house).status_code == 409
    assert http.get(f"/campaigns/{healthy}", headers=healthy_house).status_code == 200
    assert http.post(f"/campaigns/{healthy}/adventures", headers=healthy_house).status_code == 201
    assert http.post("/campaigns", json={"name": "Newcomer"}).status_code == 201
    assert stakes.projection.position() == stakes.app.recorder.max_notification_id()
