"""The campaign chart (issue 31) through its faces: ``GET /campaigns/{id}/chart`` (documented, 4xx naming the
reason) and ``stakes chart`` (a row and a sparkline per character, user text inert), embedded and remote."""

from __future__ import annotations

from tests.e2e.conftest import bearer, player_headers
from tests.e2e.test_cli_embedded import play_the_economy, seat_the_table
from tests.e2e.test_cli_live_server import seat_cli, server  # noqa: F401 (the live server fixture)

MARKUP = "[bold red]Ilse[/]"


def test_the_chart_is_a_documented_route_that_answers_each_seat_its_lines(client):
    created = client.post("/campaigns", json={"name": "Jade Court", "system": "penny-ante",
                                              "settings": {"starting_pile": 30}}).json()
    cid, house = created["campaign"]["id"], bearer(created["house_token"])
    added = client.post(f"/campaigns/{cid}/players", headers=house,
                        json={"seat": "ilse", "character": "Ilse Varn", "characteristic": "Whip Smart"}).json()
    ilse = player_headers(client, added)
    bought = client.post(f"/campaigns/{cid}/characters/ilse/characteristics", headers=ilse, json={"name": "Lucky Necklace"})
    assert bought.status_code < 300, bought.text
    found = client.get(f"/campaigns/{cid}/chart", headers=ilse)
    assert found.status_code == 200, found.text
    body = found.json()
    assert (body["label"], body["ruling"]) == ("pennies", "PA-1")
    [line] = body["lines"]
    assert (line["seat"], line["name"], line["value"], line["recorded"]) == ("ilse", "Ilse Varn", 25, 2)
    assert [p["value"] for p in line["points"]] == [30, 25]
    assert line["points"][1]["position"] > line["points"][0]["position"]
    short = client.get(f"/campaigns/{cid}/chart", headers=ilse, params={"points": 1})
    assert short.status_code == 422 and "points" in short.text
    assert client.get(f"/campaigns/{cid}/chart").status_code == 401
    spec = client.get("/openapi.json").json()["paths"]["/campaigns/{campaign_id}/chart"]["get"]
    assert "C-5" in spec["description"] and spec["parameters"][-1]["name"] == "points"


def test_stakes_chart_draws_a_row_and_sparkline_per_character_with_names_inert(cli):
    seat_the_table(cli)
    cli("player", "add", "mara", "--character", MARKUP, "--characteristic", "Sly")
    play_the_economy(cli)
    table = cli("chart", "--as", "tomas", env={"COLUMNS": "80"}).stdout
    assert "Pennies over the campaign (PA-1)" in table
    assert MARKUP in table  # shown as typed, never drawn as markup
    assert any(ch in table for ch in "▁▂▃▄▅▆▇█")
    assert max(len(row) for row in table.splitlines()) <= 80
    data = cli.json("chart", "--as", "tomas")
    by_seat = {line["seat"]: line for line in data["lines"]}
    assert by_seat["ilse"]["value"] == 31 and by_seat["tomas"]["value"] == 24
    cli("chart", "--points", "1", expect=2)


def test_stakes_chart_against_a_server_answers_the_same_lines(cli, server, tmp_path):  # noqa: F811
    house = seat_cli(cli, tmp_path, "house")
    house("--server", server, "campaign", "create", "Jade Court", "--starting-pile", "30")
    invite = house.json("player", "add", "ilse", "--character", "Ilse Varn", "--characteristic", "Whip")["invite"]
    ilse = seat_cli(cli, tmp_path, "ilse")
    ilse("claim", invite, "--server", server)
    ilse("characteristic", "buy", "Lucky Necklace")
    [line] = ilse.json("chart")["lines"]
    assert [p["value"] for p in line["points"]] == [30, 25]
    assert "Ilse Varn" in ilse("chart").stdout


def test_the_luck_report_is_a_documented_route_and_a_cli_table(client, cli, capsys):
    created = client.post("/campaigns", json={"name": "Monks", "system": "pool"}).json()
    cid, house = created["campaign"]["id"], bearer(created["house_token"])
    added = client.post(f"/campaigns/{cid}/players", headers=house, json={
        "seat": "ilse", "character": "Ilse Varn", "description": "A brave and stubborn old monk"}).json()
    ilse = player_headers(client, added)
    assert client.post(f"/campaigns/{cid}/adventures", headers=house, json={}).status_code == 201
    for _ in range(3):
        roll = client.post(f"/campaigns/{cid}/rolls", headers=ilse, json={"count": 4, "seed": "for the monastery"})
        assert roll.status_code == 201, roll.text
        client.post(f"/campaigns/{cid}/challenges/{roll.json()['id']}/actions", headers=ilse,
                    json={"action": "choose", "choice": "narrate"})
    found = client.get(f"/campaigns/{cid}/luck", headers=ilse)
    assert found.status_code == 200, found.text
    [line] = found.json()["settled"]
    assert (line["seat"], line["kind"], line["draws"], line["dof"]) == ("ilse", "d6", 12, 5)
    assert sum(line["counts"].values()) == 12 and line["p_value"] is None  # 2 expected per face: too few
    assert found.json() == client.get(f"/campaigns/{cid}/luck", headers=house).json()  # the same for every seat
    assert client.get(f"/campaigns/{cid}/luck").status_code == 401
    assert "C-10" in client.get("/openapi.json").json()["paths"]["/campaigns/{campaign_id}/luck"]["get"]["description"]

    from adapters.luck import LuckReport
    from cli import tables

    tables.show(LuckReport(**found.json()), tables.luck)
    drawn = capsys.readouterr().out
    assert "ilse" in drawn and "d6" in drawn and "too few draws to test" in drawn

    seat_the_table(cli)
    cli("adventure", "start")
    out = cli("luck", env={"COLUMNS": "80"}).stdout
    assert "No draw counted yet" in out
    assert cli.json("luck")["settled"] == []
