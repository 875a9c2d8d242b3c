"""C-10, C-1 (issue 30) over real HTTP (``stakes serve`` under uvicorn), on both stores: the House abandons a
Penny Ante challenge (every penny back to whoever put it in, PA-19), a Pool contest (a seed known before any
die: every seat sees the dice it fixed; nothing gained) and a Beast conflict (no Willpower damage); it is
listed among the House's moves, refused to a player (403), and the adventure ends afterwards."""

from __future__ import annotations

import httpx
import pytest

from domain.fairness import derive_die
from tests.e2e.conftest import bearer
from tests.e2e.test_abandoned_draws_http import abandoned, move
from tests.e2e.test_cli_live_server import server  # noqa: F401 (the live server fixture)
from tests.e2e.test_draw_at_last_input_http import listed

#: Each test plays its own campaign: the module shares one store of each kind and its live server.
pytestmark = pytest.mark.shared_store

SHEETS = {"penny-ante": {"characteristic": "Sly"}, "pool": {"description": "A quick hand with a short temper."},
          "beast": {}}


def table(http: httpx.Client, system: str, *players: str) -> tuple[str, dict[str, dict[str, str]]]:
    created = http.post("/campaigns", json={"name": "Abandoned", "system": system})
    assert created.status_code == 201, created.text
    cid, house = created.json()["campaign"]["id"], bearer(created.json()["house_token"])
    seats = {"house": house}
    for seat in players:
        added = http.post(f"/campaigns/{cid}/players", headers=house,
                          json={"seat": seat, "character": seat.title(), **SHEETS[system]})
        assert added.status_code == 201, added.text
        seats[seat] = bearer(http.post("/invites", json={"code": added.json()["invite"]}).json()["token"])
    assert http.post(f"/campaigns/{cid}/adventures", headers=house).status_code == 201
    return f"/campaigns/{cid}", seats


def refused_to_a_player(http: httpx.Client, c: str, unit: str, who: dict[str, str]) -> None:
    r = http.post(f"{c}/challenges/{unit}/actions", headers=who, json={"action": "abandon", "reason": "mine"})
    assert r.status_code == 403 and "C-10" in r.text, r.text


def held_then_freed(http: httpx.Client, c: str, house: dict[str, str], end) -> None:
    held = http.post(f"{c}/adventures/current/end", headers=house)
    assert held.status_code == 422 and "C-1" in held.text, held.text  # an open unit holds the adventure
    end()
    assert http.post(f"{c}/adventures/current/end", headers=house).status_code == 200


def test_the_house_abandons_a_penny_ante_challenge_and_every_penny_goes_back_to_its_owner(server):  # noqa: F811
    with httpx.Client(base_url=server, timeout=30) as http:
        c, t = table(http, "penny-ante", "ilse", "tomas")
        piles = {s: http.get(f"{c}/characters/{s}", headers=t[s]).json()["pile"] for s in ("ilse", "tomas")}
        opened = http.post(f"{c}/challenges", headers=t["ilse"], json={
            "challenger": {"players": ["ilse"]}, "opponent": {"players": ["tomas"]}, "ante": 1})
        assert opened.status_code == 201, opened.text
        unit = opened.json()["id"]
        move(http, c, unit, t["ilse"], action="seed", seed="Ilse's words")
        move(http, c, unit, t["tomas"], action="pass")
        for seat in ("ilse", "tomas"):
            move(http, c, unit, t[seat], action="declare", characteristics=[])
        for seat in ("ilse", "tomas"):
            move(http, c, unit, t[seat], action="roll")  # each pays the ante into the pot
        sheet = http.get(f"{c}/characters/ilse", headers=t["ilse"]).json()
        assert sheet["in_play"] == 1 and sheet["pile"] == piles["ilse"] - 1
        assert "abandon" in listed(http, c, unit, t["house"]) and "abandon" not in listed(http, c, unit, t["ilse"])
        refused_to_a_player(http, c, unit, t["ilse"])

        def end() -> None:
            gone = move(http, c, unit, t["house"], action="abandon", reason="the palace burns")
            assert gone["phase"] == "settled" and gone["result"]["winner"] is None and gone["secret_seed"]
            assert all(d["value"] is not None for d in gone["sides"]["opponent"]["dice"])  # C-5: public
        held_then_freed(http, c, t["house"], end)
        for seat in ("ilse", "tomas"):
            sheet = http.get(f"{c}/characters/{seat}", headers=t[seat]).json()
            assert (sheet["pile"], sheet["in_play"]) == (piles[seat], 0)  # PA-19: back to whoever put it in


def test_the_house_abandons_a_seeded_pool_contest_and_every_seat_sees_the_dice_it_fixed(server):  # noqa: F811
    with httpx.Client(base_url=server, timeout=30) as http:
        c, t = table(http, "pool", "ilse", "tomas")
        pools = {s: http.get(f"{c}/characters/{s}", headers=t[s]).json()["pool"] for s in ("ilse", "tomas")}
        opened = http.post(f"{c}/contests", headers=t["ilse"], json={"opponent": "tomas"})
        assert opened.status_code == 201, opened.text
        unit = opened.json()["id"]
        move(http, c, unit, t["ilse"], action="seed", seed="Ilse's words")
        assert "abandon" in listed(http, c, unit, t["house"])
        refused_to_a_player(http, c, unit, t["tomas"])
        secret: list[str] = []

        def end() -> None:
            gone = move(http, c, unit, t["house"], action="abandon", reason="night fell")
            assert gone["state"]["phase"] == "settled" and gone["state"]["abandoned"] == "night fell"
            secret.append(gone["state"]["secret_seed"])
        held_then_freed(http, c, t["house"], end)
        for seat in ("ilse", "tomas", "house"):
            draws = abandoned(http, c, unit, t[seat])["draws"]
            assert len(draws) == pools["ilse"] + pools["tomas"]
            assert all(d["value"] == derive_die(secret[0], ["Ilse's words", ""], d["slot"], 6) for d in draws)
        for seat in ("ilse", "tomas"):  # nothing gained, nothing lost
            assert http.get(f"{c}/characters/{seat}", headers=t[seat]).json()["pool"] == pools[seat]


def test_the_house_abandons_a_beast_conflict_and_nobody_takes_willpower_damage(server):  # noqa: F811
    with httpx.Client(base_url=server, timeout=30) as http:
        c, t = table(http, "beast", "ilse")
        made = http.post(f"{c}/antagonists", headers=t["house"],
                         json={"name": "Sheriff Cole", "humanity": 4, "willpower": 3})
        assert made.status_code == 201, made.text
        before = http.get(f"{c}/characters/ilse", headers=t["ilse"]).json()["willpower"]
        opened = http.post(f"{c}/conflicts", headers=t["ilse"], json={"against": "Sheriff Cole"})
        assert opened.status_code == 201, opened.text
        unit = opened.json()["id"]
        move(http, c, unit, t["house"], action="prepare", humanity=0, beast=3)  # C-9: the House declares first
        move(http, c, unit, t["ilse"], action="pass")
        move(http, c, unit, t["ilse"], action="roll", humanity=3, beast=2, willpower="before")
        move(http, c, unit, t["house"], action="roll", humanity=0, beast=3)
        assert "abandon" in listed(http, c, unit, t["house"])
        refused_to_a_player(http, c, unit, t["ilse"])

        def end() -> None:
            gone = move(http, c, unit, t["house"], action="abandon", reason="dawn came")["state"]
            assert gone["phase"] == "settled" and gone["outcome"] is None and gone["abandoned"] == "dawn came"
            assert gone["sides"]["opponent"]["roll"]["dice"]  # C-5: the sheriff's roll is public now
        held_then_freed(http, c, t["house"], end)
        sheet = http.get(f"{c}/characters/ilse", headers=t["ilse"]).json()
        assert sheet["willpower"] == before - 1  # the point she spent stays spent; no damage
        assert any(line["what"] == "abandoned" for line in sheet["history"])
        cole = http.get(f"{c}/house-characters", headers=t["house"]).json()[0]
        assert cole["willpower"] == 3  # no damage, and it spent none
