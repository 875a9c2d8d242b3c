"""The Penny Ante economy over HTTP on both stores: steps 1-7, seats, and every refusal."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import bearer, player_headers


@pytest.fixture
def table(client):
    created = client.post("/campaigns", json={"name": "Ninjas of the Jade Court",
                                              "settings": {"starting_pile": 30, "antagonist_cap": 50}})
    assert created.status_code == 201, created.text
    cid = created.json()["campaign"]["id"]
    house = bearer(created.json()["house_token"])
    tokens = {"house": house}
    for seat, name, trait in (("ilse", "Ilse Varn", "Whip Smart"), ("tomas", "Brother Tomas", "Love Conquers All")):
        r = client.post(f"/campaigns/{cid}/players", headers=house,
                        json={"seat": seat, "character": name, "characteristic": trait})
        assert r.status_code == 201, r.text
        tokens[seat] = player_headers(client, r.json())
    return cid, tokens


def events(client, cid, tokens) -> int:
    return len(client.get(f"/campaigns/{cid}/log?limit=1000", headers=tokens["house"]).json()["entries"])


def test_a_campaign_goes_through_the_whole_economy_over_http(client, table):
    cid, t = table
    c = f"/campaigns/{cid}"
    # 3. characteristics
    r = client.post(f"{c}/characters/ilse/characteristics", headers=t["ilse"], json={"name": "Lucky Necklace"})
    assert r.status_code == 201 and r.json()["pile"] == 25
    # 6. a loan between adventures
    loan = client.post(f"{c}/loans", headers=t["tomas"], json={"borrower": "ilse", "amount": 10}).json()
    assert loan["status"] == "offered"
    assert client.post(f"{c}/loans/{loan['loan_id']}/accept", headers=t["ilse"]).json()["status"] == "active"
    r = client.post(f"{c}/loans/{loan['loan_id']}/repayments", headers=t["ilse"], json={"amount": 4})
    assert r.json()["outstanding"] == 6
    # 5. antagonists; 4. adventures
    r = client.post(f"{c}/antagonists", headers=t["house"],
                    json={"name": "Lady Sen", "characteristics": ["Commands a Bunch of Ninjas", "Poison"]})
    assert r.status_code == 201
    budget = client.post(f"{c}/adventures", headers=t["house"], json={}).json()
    assert budget["pile"] == 31 + 24 and budget["adventure_running"]
    r = client.post(f"{c}/antagonists/lady%20sen/funding", headers=t["house"], json={"amount": 40})
    assert r.json()["pennies"] == 40
    r = client.post(f"{c}/loans/{loan['loan_id']}/consequences", headers=t["house"], json={"note": "The Tongs call"})
    assert r.json()["status"] == "defaulted" and r.json()["consequence"] == "The Tongs call"
    # 7. reads
    sheet = client.get(f"{c}/characters/ilse", headers=t["tomas"]).json()
    assert sheet["pile"] == 31 and [o["outstanding"] for o in sheet["owes"]] == [6]
    assert [x["name"] for x in sheet["characteristics"]] == ["Whip Smart", "Lucky Necklace"]
    debts = client.get(f"{c}/debts", headers=t["ilse"]).json()
    assert [h["what"] for h in debts["loans"][0]["history"]] == ["offered", "accepted", "repaid", "defaulted",
                                                                  "consequence"]
    players_budget = client.get(f"{c}/budget", headers=t["ilse"]).json()
    assert players_budget["pile"] == 15 and players_budget["antagonists"][0]["characteristics"] is None
    ended = client.post(f"{c}/adventures/current/end", headers=t["house"]).json()
    assert ended["adventures"][0]["retired"] == 55 and ended["pile"] == 0
    log = client.get(f"{c}/log", headers=t["ilse"]).json()
    assert {"CharacteristicBought", "Accepted", "BudgetOpened", "Funded", "AdventureEnded"} <= {
        e["event"] for e in log["entries"]}
    assert "Poison" not in str(log) and "Poison" in str(client.get(f"{c}/log", headers=t["house"]).json())


def test_a_missing_or_unknown_token_gets_401(client, table):
    cid, _ = table
    r = client.get(f"/campaigns/{cid}/budget")
    assert r.status_code == 401 and r.headers["content-type"] == "application/problem+json"
    assert client.get(f"/campaigns/{cid}/budget", headers=bearer("stk_nope")).status_code == 401


def test_a_token_of_another_campaign_gets_403(client, table):
    cid, _ = table
    other = client.post("/campaigns", json={"name": "Elsewhere"}).json()
    r = client.get(f"/campaigns/{cid}/budget", headers=bearer(other["house_token"]))
    assert r.status_code == 403 and r.json()["ruling"] == "C-1"


def test_the_session_names_the_tokens_campaign_seat_and_system(client, table):
    cid, t = table
    assert client.get("/session", headers=t["tomas"]).json() == {"campaign_id": cid, "seat": "tomas",
                                                                 "system": "penny-ante"}


def test_a_reissued_seat_replaces_the_old_token_with_an_invite_and_the_player_sees_it(client, table):
    cid, t = table
    answer = client.post(f"/campaigns/{cid}/players/ilse/token", headers=t["house"]).json()
    assert "token" not in answer and answer["invite"].startswith("inv_")  # the House never holds it
    assert client.get("/session", headers=t["ilse"]).status_code == 401
    fresh = player_headers(client, answer)
    assert client.get("/session", headers=fresh).json()["seat"] == "ilse"
    log = client.get(f"/campaigns/{cid}/log?limit=1000", headers=fresh).json()["entries"]
    assert [e["detail"].get("seat") for e in log if e["event"] == "SeatReissued"] == ["ilse"]
    assert client.post(f"/campaigns/{cid}/players/ilse/token", headers=t["tomas"]).status_code == 403


def test_an_invite_code_is_claimed_once_only(client, table):
    cid, t = table
    answer = client.post(f"/campaigns/{cid}/players", headers=t["house"],
                         json={"seat": "mara", "character": "Mara", "characteristic": "Sly"}).json()
    assert "token" not in answer
    first = client.post("/invites", json={"code": answer["invite"]})
    assert first.status_code == 201 and first.json()["seat"] == "mara" and first.json()["campaign_id"] == cid
    again = client.post("/invites", json={"code": answer["invite"]})
    assert again.status_code == 403 and again.json()["ruling"] == "C-1"
    assert client.post("/invites", json={"code": "inv_guessed"}).status_code == 403
    assert client.get("/session", headers=bearer(first.json()["token"])).json()["seat"] == "mara"


REFUSALS = [
    # (seat, path after /campaigns/{cid}, body, status, ruling)
    ("ilse", "/players", {"seat": "mara", "character": "Mara", "characteristic": "Sly"}, 403, "C-1"),
    ("house", "/players", {"seat": "ilse", "character": "Again", "characteristic": "Copy"}, 422, "C-1"),
    ("house", "/players", {"seat": "house", "character": "Me", "characteristic": "All"}, 422, "C-1"),
    ("house", "/players", {"seat": "mara", "character": "Mara", "characteristic": "Sly", "pile": 99}, 422, None),
    ("tomas", "/characters/ilse/characteristics", {"name": "Gift"}, 403, "C-1"),
    ("ilse", "/characters/ilse/characteristics", {"name": "whip SMART"}, 422, "PA-2"),
    ("ilse", "/characters/ilse/characteristics", {"name": ""}, 422, "PA-2"),
    ("ilse", "/adventures", {}, 403, "C-1"),
    ("house", "/adventures", {"amount": 99}, 422, "PA-3"),
    ("house", "/adventures/current/end", None, 422, "C-1"),
    ("ilse", "/antagonists", {"name": "Fake"}, 403, "C-1"),
    ("house", "/antagonists", {"name": "Wall", "kind": "weather"}, 422, "PA-4"),
    ("house", "/antagonists/nobody/funding", {"amount": 1}, 404, None),
    ("tomas", "/loans", {"borrower": "ilse", "amount": 31}, 422, "PA-14"),
    ("tomas", "/loans", {"borrower": "tomas", "amount": 1}, 422, "PA-14"),
    ("tomas", "/loans", {"borrower": "ilse", "amount": 0}, 422, "PA-14"),
    ("house", "/loans", {"borrower": "ilse", "amount": 1}, 403, "PA-14"),
    ("tomas", "/loans", {"borrower": "nobody", "amount": 1}, 404, None),
    ("tomas", "/loans", {"borrower": "ilse", "amount": "lots"}, 422, None),
    ("tomas", "/loans", {"borrower": "ilse", "amount": 1, "extra": True}, 422, None),
]


@pytest.mark.parametrize(("seat", "path", "body", "status", "ruling"), REFUSALS,
                         ids=[f"{r[0]}{r[1]}-{r[3]}" for r in REFUSALS])
def test_a_refused_command_names_its_ruling_and_stores_nothing(client, table, seat, path, body, status, ruling):
    cid, t = table
    before = events(client, cid, t)
    r = client.post(f"/campaigns/{cid}{path}", headers=t[seat], json=body)
    assert r.status_code == status, r.text
    problem = r.json()
    assert r.headers["content-type"] == "application/problem+json"
    assert problem["status"] == status and problem["detail"]
    if ruling:
        assert problem["ruling"] == ruling and problem["detail"].startswith(f"{ruling}: ")
    assert events(client, cid, t) == before


def test_loan_refusals_name_pa14_and_store_nothing(client, table):
    cid, t = table
    c = f"/campaigns/{cid}"
    loan = client.post(f"{c}/loans", headers=t["tomas"], json={"borrower": "ilse", "amount": 10}).json()["loan_id"]
    before = events(client, cid, t)
    for seat, action, body, status in (
        ("tomas", "accept", None, 403), ("ilse", "repayments", {"amount": 1}, 422),
        ("ilse", "forgive", None, 403), ("house", "consequences", {"note": "x"}, 422),
    ):
        r = client.post(f"{c}/loans/{loan}/{action}", headers=t[seat], json=body)
        assert r.status_code == status, (action, r.text)
    assert client.post(f"{c}/loans/{loan}/decline", headers=t["ilse"]).status_code == 200
    r = client.post(f"{c}/loans/{loan}/accept", headers=t["ilse"])
    assert r.status_code == 422 and r.json()["ruling"] == "PA-14"
    assert events(client, cid, t) == before + 1


def test_an_unknown_system_is_refused_naming_the_known_ones(client):
    r = client.post("/campaigns", json={"name": "Later", "system": "chess"})
    assert r.status_code == 422 and r.json()["ruling"] == "C-1"
    for known in ("penny-ante", "pool", "twenty-one", "beast", "pulp-cards"):
        assert known in r.json()["detail"]


def test_every_operation_in_the_openapi_has_request_and_response_schemas(client):
    spec = client.get("/openapi.json").json()
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            ok = [code for code in operation["responses"] if code.startswith("2")]
            assert ok, (method, path)
            content = operation["responses"][ok[0]].get("content", {})
            assert content and all("schema" in c for c in content.values()), (method, path)
            if method == "post" and "requestBody" in operation:
                assert all("schema" in c for c in operation["requestBody"]["content"].values()), (method, path)


@pytest.mark.parametrize(("seat", "path", "body", "ruling"), [
    ("ilse", "/characters/ilse/characteristics", {"name": "Nul\u0000Byte"}, "PA-2"),
    ("house", "/antagonists", {"name": "Lady\u0007Sen"}, "PA-4"),
    ("house", "/adventures", {"amount": 10**40, "note": "absurd"}, "PA-3"),
    ("house", "/players", {"seat": "mara", "character": "Mara\u200b\u0000", "characteristic": "Sly"}, "C-1"),
])
def test_hostile_text_and_huge_numbers_are_refused_without_a_server_error(client, table, seat, path, body, ruling):
    cid, t = table
    before = events(client, cid, t)
    r = client.post(f"/campaigns/{cid}{path}", headers=t[seat], json=body)
    assert r.status_code == 422 and r.json()["ruling"] == ruling, r.text
    assert events(client, cid, t) == before
    assert client.get(f"/campaigns/{cid}/log?after={2**62}", headers=t["house"]).json()["entries"] == []
