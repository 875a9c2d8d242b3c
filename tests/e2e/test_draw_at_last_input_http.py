"""C-10, C-9, C-1 (issue 30) over real HTTP (``stakes serve`` under uvicorn), on both stores: a unit whose
randomness takes several parties' inputs draws in the write of the last seed or pass, never when the House
says; the House's abandon (with a reason) shows every seat the draw a known input fixed, and frees the
adventure."""

from __future__ import annotations

import hashlib

import httpx
import pytest

from domain.systems.pulp_cards import rules as pulp_rules
from domain.systems.twenty_one import cards as twenty_one_cards
from tests.e2e.test_abandoned_draws_http import abandoned, move, shuffle, table
from tests.e2e.test_cli_live_server import server  # noqa: F401 (the live server fixture)

#: Each test plays its own campaign: the module shares one store of each kind and its live server.
pytestmark = pytest.mark.shared_store


def listed(http: httpx.Client, c: str, unit: str, who: dict[str, str]) -> list[str]:
    view = http.get(f"{c}/challenges/{unit}", headers=who)
    assert view.status_code == 200, view.text
    return [a["action"] for a in view.json()["legal_actions"]]


def stored(http: httpx.Client, c: str, who: dict[str, str]) -> int:
    return len(http.get(f"{c}/log?limit=1000", headers=who).json()["entries"])


def test_a_twenty_one_deal_comes_with_the_last_seed_or_pass_and_a_house_deal_before_is_refused(server):  # noqa: F811
    with httpx.Client(base_url=server, timeout=30) as http:
        c, t = table(http, "twenty-one", "ilse", "tomas")
        opened = http.post(f"{c}/conflicts", headers=t["house"], json={"characters": ["ilse", "tomas"]})
        assert opened.status_code == 201, opened.text
        unit, published = opened.json()["id"], opened.json()["state"]["seed_hash"]
        assert "deal" not in listed(http, c, unit, t["house"])  # the House never deals a service deck by hand
        assert {"seed", "pass"} <= set(listed(http, c, unit, t["ilse"]))
        move(http, c, unit, t["ilse"], action="seed", seed="Ilse's words")
        before = stored(http, c, t["house"])
        refused = http.post(f"{c}/challenges/{unit}/actions", headers=t["house"], json={"action": "deal"})
        assert refused.status_code in (409, 422) and "C-10" in refused.text, refused.text
        assert stored(http, c, t["house"]) == before  # nothing stored
        dealt = move(http, c, unit, t["tomas"], action="pass")["state"]  # the last input: the deal, same write
        assert dealt["phase"] == "play"
        assert [x["card"] is not None for x in dealt["hands"]["tomas"]] == [True] * 3  # his own hand only
        assert all(x["card"] is None for x in dealt["hands"]["ilse"])  # C-5
        ended = move(http, c, unit, t["house"], action="end")["state"]
        assert hashlib.sha256(ended["secret_seed"].encode()).hexdigest() == published
        order = shuffle(ended["secret_seed"], ["Ilse's words", ""], ["shuffle", 0], list(twenty_one_cards.DECK))
        assert [x["card"] for x in ended["hands"]["ilse"]] == order[0:3]  # anyone recomputes the deal


def test_the_house_abandons_a_seeded_conflict_with_a_reason_every_seat_sees_the_deal_and_the_adventure_ends(
        server):  # noqa: F811
    with httpx.Client(base_url=server, timeout=30) as http:
        c, t = table(http, "twenty-one", "ilse", "tomas")
        unit = http.post(f"{c}/conflicts", headers=t["house"], json={"characters": ["ilse", "tomas"]}).json()["id"]
        move(http, c, unit, t["ilse"], action="seed", seed="Ilse's words")
        held = http.post(f"{c}/adventures/current/end", headers=t["house"])
        assert held.status_code == 422 and "C-1" in held.text  # an open unit holds the adventure (C-1)
        assert "abandon" in listed(http, c, unit, t["house"])
        player = http.post(f"{c}/challenges/{unit}/actions", headers=t["ilse"],
                           json={"action": "abandon", "reason": "mine"})
        assert player.status_code == 403, player.text
        gone = move(http, c, unit, t["house"], action="abandon", reason="the tavern burns")["state"]
        assert gone["phase"] == "settled"
        order = shuffle(gone["secret_seed"], ["Ilse's words", ""], ["shuffle", 0], list(twenty_one_cards.DECK))
        for seat in ("ilse", "tomas", "house"):
            detail = abandoned(http, c, unit, t[seat])
            assert detail["draws"][0]["order"] == order and detail["hands"]["tomas"] == order[3:6]
        assert http.post(f"{c}/adventures/current/end", headers=t["house"]).status_code == 200


def test_a_pulp_combats_first_deal_is_called_before_the_players_input_and_dealt_with_it(server):  # noqa: F811
    with httpx.Client(base_url=server, timeout=30) as http:
        c, t = table(http, "pulp-cards", "ilse")
        opened = http.post(f"{c}/combats", headers=t["house"], json={"combatants": ["ilse", "Bandit"]})
        unit = opened.json()["id"]
        early = http.post(f"{c}/challenges/{unit}/actions", headers=t["ilse"], json={"action": "seed", "seed": "x"})
        assert early.status_code == 422 and "C-10" in early.text  # the House calls its deal first
        called = move(http, c, unit, t["house"], action="initiative", advantage={"Bandit": 2})["state"]
        assert called["called"]["kind"] == "initiative" and called["initiative"] is None  # called, not dealt
        assert "initiative" not in listed(http, c, unit, t["house"])
        again = http.post(f"{c}/challenges/{unit}/actions", headers=t["house"], json={"action": "surprise",
                                                                                       "by": "Bandit"})
        assert again.status_code == 422 and "C-10" in again.text  # no second choice
        assert {"seed", "pass"} <= set(listed(http, c, unit, t["ilse"]))
        dealt = move(http, c, unit, t["ilse"], action="seed", seed="lucky")["state"]
        assert dealt["initiative"]["advantages"] == {"Bandit": 2} and dealt["called"] is None
        ended = move(http, c, unit, t["house"], action="abandon", reason="the posse rode off")["state"]
        assert ended["phase"] == "settled" and ended["secret_seed"]
        deck = shuffle(ended["secret_seed"], ["lucky", ""], ["initiative", 1], list(pulp_rules.DECK))
        assert [d[1] for d in dealt["initiative"]["dealt"]][:2] == deck[:2]  # dealt round-robin from the top
        entries = http.get(f"{c}/log?limit=1000", headers=t["ilse"]).json()["entries"]
        # the first deal was made: it is not abandoned; only a player's attack up next, which the seeds fixed, is
        # recorded (C-10)
        abandoned = [d for e in entries if e["event"] == "DrawAbandoned" for d in e["detail"]["draws"]]
        assert all(d["slot"][0] == "attack" for d in abandoned), abandoned
