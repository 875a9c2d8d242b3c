"""What the HTTP edge answers besides commands: a 405 keeps its Allow header, /health reports the store (no log position),
lookalike names are refused with the ruling, and booleans are not numbers (on both stores)."""

from __future__ import annotations

import uuid

from tests.e2e.conftest import bearer, player_headers


def test_a_wrong_method_is_answered_405_with_allow(client) -> None:
    r = client.put("/campaigns")
    assert r.status_code == 405 and "POST" in r.headers["allow"]
    assert r.headers["content-type"] == "application/problem+json"


def test_health_reports_the_store_and_whether_the_read_models_are_ready_but_no_log_position(client, settings) -> None:
    client.post("/campaigns", json={"name": "Healthy"})
    r = client.get("/health")
    # issue 29 (ADR 0028): no position of the shared log, which would show every campaign's activity to anyone
    assert r.status_code == 200 and r.json() == {"status": "ok", "store": "up", "kind": settings.store,
                                                 "read_models": "ready"}


def test_a_lookalike_antagonist_name_is_refused_and_nothing_is_stored(client) -> None:
    created = client.post("/campaigns", json={"name": "Lookalikes"}).json()
    cid, house = created["campaign"]["id"], bearer(created["house_token"])
    assert client.post(f"/campaigns/{cid}/antagonists", headers=house, json={"name": "Lady Sen"}).status_code == 201
    r = client.post(f"/campaigns/{cid}/antagonists", headers=house, json={"name": "L\u0430dy Sen"})
    assert r.status_code == 422 and r.json()["ruling"] == "PA-4" and "Cyrillic" in r.json()["detail"]
    names = [a["name"] for a in client.get(f"/campaigns/{cid}/antagonists", headers=house).json()]
    assert names == ["Lady Sen"]


def test_true_is_not_a_number_of_pennies(client) -> None:
    created = client.post("/campaigns", json={"name": "Strict"}).json()
    cid, house = created["campaign"]["id"], bearer(created["house_token"])
    tokens = {}
    for seat in ("ilse", "tomas"):
        r = client.post(f"/campaigns/{cid}/players", headers=house,
                        json={"seat": seat, "character": seat.title(), "characteristic": "Sly"})
        tokens[seat] = player_headers(client, r.json())
    for amount in (True, "12"):
        r = client.post(f"/campaigns/{cid}/loans", headers=tokens["tomas"], json={"borrower": "ilse", "amount": amount})
        assert r.status_code == 422 and r.json()["ruling"] == "PA-14", r.text
    assert client.get(f"/campaigns/{cid}/debts", headers=house).json()["loans"] == []


def test_a_command_sent_again_with_its_idempotency_key_is_applied_once(client) -> None:
    created = client.post("/campaigns", json={"name": "Keys"}).json()
    cid, house = created["campaign"]["id"], bearer(created["house_token"])
    tokens = {}
    for seat in ("ilse", "tomas"):
        r = client.post(f"/campaigns/{cid}/players", headers=house,
                        json={"seat": seat, "character": seat.title(), "characteristic": "Sly"})
        tokens[seat] = player_headers(client, r.json())
    keyed = {**tokens["tomas"], "Idempotency-Key": "offer-1"}
    first = client.post(f"/campaigns/{cid}/loans", headers=keyed, json={"borrower": "ilse", "amount": 5})
    again = client.post(f"/campaigns/{cid}/loans", headers=keyed, json={"borrower": "ilse", "amount": 5})
    assert first.status_code == again.status_code == 201 and first.json()["loan_id"] == again.json()["loan_id"]
    other = client.post(f"/campaigns/{cid}/loans", headers=keyed, json={"borrower": "ilse", "amount": 6})
    assert other.status_code == 409
    # a key sent again with another command says so: trying again can never work (found by fuzzing the API)
    assert other.json()["type"] == "/problems/key-reused" and "another command" in other.json()["title"]
    assert len(client.get(f"/campaigns/{cid}/debts", headers=house).json()["loans"]) == 1


def test_a_campaign_created_again_with_its_idempotency_key_answers_the_same_body(client) -> None:
    keyed = {"Idempotency-Key": uuid.uuid4().hex}  # a creation key is a secret: 32 random characters at least
    first = client.post("/campaigns", headers=keyed, json={"name": "Twice"})
    again = client.post("/campaigns", headers=keyed, json={"name": "Twice"})
    assert first.status_code == again.status_code == 201 and first.json()["campaign"] == again.json()["campaign"]
    # issue 29 (ADR 0028): the House token goes to the first answer only; the replay says so in words
    assert again.json()["house_token"] is None and "House token" in again.json()["note"]
    house = bearer(first.json()["house_token"])
    assert client.get(f"/campaigns/{first.json()['campaign']['id']}", headers=house).status_code == 200


def test_a_seating_sent_again_after_the_claim_takes_no_seat(client) -> None:
    """C-1: a player's seat changes hands only by a reissue, which the log shows."""
    created = client.post("/campaigns", json={"name": "Seats"}).json()
    cid, house = created["campaign"]["id"], bearer(created["house_token"])
    body = {"seat": "ilse", "character": "Ilse", "characteristic": "Sly"}
    keyed = {**house, "Idempotency-Key": "seat-ilse"}
    ilse = player_headers(client, client.post(f"/campaigns/{cid}/players", headers=keyed, json=body).json())
    replayed = client.post(f"/campaigns/{cid}/players", headers=keyed, json=body).json()
    assert client.post("/invites", json={"code": replayed["invite"]}).status_code == 403
    assert client.get(f"/campaigns/{cid}/characters/ilse", headers=ilse).status_code == 200
