"""The Pool over HTTP and from the CLI, on both stores (PL-1 … PL-8)."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import bearer, player_headers

ILSE_TEXT = "A brave and clever thief with quick hands"


@pytest.fixture
def pool_table(client):
    created = client.post("/campaigns", json={"name": "Pool night", "system": "pool",
                                              "settings": {"table_dice": True}}).json()
    cid, house = created["campaign"]["id"], bearer(created["house_token"])
    t = {"house": house}
    r = client.post(f"/campaigns/{cid}/players", headers=house, json={
        "seat": "ilse", "character": "Ilse", "description": ILSE_TEXT, "traits": {"Brave": 1}})
    assert r.status_code == 201 and r.json()["sheet"]["pool"] == 10, r.text
    t["ilse"] = player_headers(client, r.json())
    r = client.post(f"/campaigns/{cid}/players", headers=house, json={
        "seat": "tomas", "character": "Tomas", "description": "A stubborn old monk"})
    t["tomas"] = player_headers(client, r.json())
    # C-1: units of resolution happen during an adventure
    assert client.post(f"/campaigns/{cid}/adventures", headers=house, json={}).status_code == 201
    return f"/campaigns/{cid}", t


def test_a_pool_campaign_is_played_over_http(client, pool_table):
    c, t = pool_table
    assert client.post(f"{c}/help", headers=t["tomas"], json={"to": "ilse", "dice": 2}).status_code == 200
    r = client.post(f"{c}/rolls", headers=t["ilse"], json={"count": 2, "trait": "brave", "helper": "tomas",
                                                           "dice": [6, 3, 5, 1]})
    assert r.status_code == 201, r.text
    roll = r.json()
    assert roll["kind"] == "PoolRoll" and roll["state"]["total"] == 12 and roll["phase"] == "choice"
    assert [a["action"] for a in roll["legal_actions"]] == ["choose"]
    r = client.post(f"{c}/challenges/{roll['id']}/actions", headers=t["ilse"], json={"action": "choose",
                                                                                      "choice": "house"})
    assert r.json()["state"]["gained"] == 1
    sheet = client.get(f"{c}/characters/ilse", headers=t["tomas"]).json()
    assert sheet["system"] == "pool" and sheet["pool"] == 11 and sheet["rolls"][0]["dice"] == [6, 3, 5, 1]
    assert client.get(f"{c}/characters/tomas", headers=t["tomas"]).json()["pool"] == 10  # two 5s/6s on his dice
    r = client.post(f"{c}/characters/ilse/traits", headers=t["ilse"], json={"name": "Clever"})
    assert r.json()["traits"] == {"Brave": 1, "Clever": 1} and r.json()["pool"] == 8
    r = client.post(f"{c}/characters/ilse/traits/Clever/cash-in", headers=t["ilse"])
    assert r.json()["pool"] == 9
    r = client.post(f"{c}/characters/ilse/moves", headers=t["ilse"], json={"name": "Read a Sitch", "cost": 2})
    assert r.status_code == 201 and r.json()["moves"] == {"Read a Sitch": 2}
    contest = client.post(f"{c}/contests", headers=t["ilse"], json={"opponent": "tomas"}).json()
    for token, dice in ((t["ilse"], [6, 4]), (t["tomas"], [1, 2])):
        r = client.post(f"{c}/challenges/{contest['id']}/actions", headers=token,
                        json={"action": "roll", "count": 2, "dice": dice})
    assert r.json()["state"]["result"]["winner"] == "challenger"
    replay = client.get(f"{c}/challenges/{contest['id']}/replay", headers=t["house"]).json()
    assert [s["event"] for s in replay["steps"]] == ["Opened", "Rolled", "Rolled"]
    assert client.get(f"{c}/challenges/{contest['id']}/verify", headers=t["ilse"]).json()["entered"] == 4
    r = client.post(f"{c}/challenges/{roll['id']}/overturn", headers=t["house"], json={"void": True,
                                                                                        "reason": "no roll needed"})
    assert r.status_code == 200 and r.json()["state"]["overturned"]
    assert client.get(f"{c}/audit", headers=t["tomas"]).json()["intact"]


def test_pool_refusals_name_their_rulings_and_penny_ante_reads_say_so(client, pool_table):
    c, t = pool_table
    for method, path, token, body, status, ruling in (
        ("post", "/rolls", "ilse", {"count": 1, "dice": [3]}, 422, "PL-2"),
        ("post", "/rolls", "ilse", {"count": 2}, 422, "C-3"),
        ("post", "/help", "tomas", {"to": "ilse", "dice": 11}, 422, "PL-7"),
        ("post", "/characters/ilse/traits", "tomas", {"name": "Clever"}, 403, "C-1"),
        ("post", "/characters/ilse/moves", "ilse", {"name": "Big", "cost": 4}, 422, "PL-6"),
        ("post", "/players", "house", {"seat": "mara", "character": "Mara", "description": "word " * 51}, 422, "PL-1"),
        ("get", "/budget", "ilse", None, 422, "C-1"),
        ("get", "/debts", "ilse", None, 422, "C-1"),
        ("post", "/adventures", "house", {"amount": 5, "note": "x"}, 422, "C-1"),
    ):
        r = getattr(client, method)(f"{c}{path}", headers=t[token], **({"json": body} if body else {}))
        assert r.status_code == status and r.json()["ruling"] == ruling, (path, r.text)
    assert "no House budget" in client.get(f"{c}/budget", headers=t["ilse"]).json()["detail"]


def test_a_pool_campaign_is_played_from_the_cli(cli):
    cli("campaign", "create", "Pool night", "--system", "pool", "--opposed-mode", "highest")
    cli("player", "add", "ilse", "--character", "Ilse", "--description", ILSE_TEXT, "--trait", "Brave=1")
    cli("player", "add", "tomas", "--character", "Tomas", "--description", "A stubborn old monk")
    assert "PL-1" in cli("player", "add", "mara", "--character", "M", "--description", "x", "--trait", "y=1",
                         expect=3).stderr
    # the campaign's adventure, not a budget; rolls and contests happen during one (C-1)
    assert cli.json("adventure", "start")["adventure_running"] is True
    cli("help-roll", "ilse", "2", "--as", "tomas")
    roll = cli.json("roll", "3", "--trait", "brave", "--helper", "tomas", "--as", "ilse")
    if roll["phase"] == "choice":
        cli("choose", "narrate", "--as", "ilse")
    cli("trait", "buy", "Clever", "--as", "ilse")
    cli("trait", "raise", "Brave", "--as", "ilse") if cli.json("sheet", "ilse")["pool"] >= 7 else None
    cli("move", "buy", "Read a Sitch", "2", "--as", "tomas")
    sheet = cli.json("sheet", "tomas")
    assert sheet["moves"] == {"Read a Sitch": 2} and sheet["pool"] >= 2
    cli("oppose", "tomas", "--as", "ilse")
    cli("contest", "pass", "--as", "tomas")  # C-10: Tomas's input before Ilse's first roll
    cli("contest", "roll", "2", "--as", "ilse")
    view = cli.json("contest", "roll", "2", "--as", "tomas")
    assert view["state"]["phase"] in ("settled", "tie")
    if view["state"]["phase"] == "tie":
        cli("contest", "interrupt")
    assert "Contest" in cli("challenge", "show").stdout
    assert cli.json("challenge", "verify")["mismatches"] == []
    assert "C-1" in cli("budget", expect=3).stderr
    assert cli.json("adventure", "end")["adventure_running"] is False
    assert cli.json("audit", "verify")["intact"]
    assert "traits" in cli("player", "list").stdout
