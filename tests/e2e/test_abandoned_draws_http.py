"""C-10, issue 30: once a player's seed is known, a unit the House ends before its draw records the draw it
would have made, shown to every seat in the log, so abandoning cannot be used to fish. Over real HTTP
(``stakes serve`` under uvicorn) on both stores: a Twenty-one conflict ended while seeding (a Pulp combat's
first deal comes with the players' input, so nothing is left to abandon). Each player recomputes the abandoned
draw from the revealed secret and the recipe."""

from __future__ import annotations

import hashlib
from uuid import UUID

import httpx
import pytest

from domain.systems.twenty_one import cards as twenty_one_cards
from tests.e2e.conftest import bearer
from tests.e2e.test_cli_live_server import server  # noqa: F401 (the live server fixture)
from tests.e2e.test_one_shot_commitments_http import words

#: Each test plays its own campaign: the module shares one store of each kind and its live server.
pytestmark = pytest.mark.shared_store


def shuffle(secret: str, seeds: list[str], slot: list[object], cards: list[str]) -> list[str]:
    """docs/fairness.md's shuffle, from the page alone."""
    deck = list(cards)
    for i in range(len(deck) - 1, 0, -1):
        limit = 2**32 - (2**32 % (i + 1))
        j = next(w for w in words(secret, seeds, [*slot, "swap", i]) if w < limit) % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def table(http: httpx.Client, system: str, *players: str) -> tuple[str, dict[str, dict[str, str]]]:
    created = http.post("/campaigns", json={"name": "Abandoned", "system": system})
    assert created.status_code == 201, created.text
    cid, house = created.json()["campaign"]["id"], bearer(created.json()["house_token"])
    seats = {"house": house}
    for seat in players:
        added = http.post(f"/campaigns/{cid}/players", headers=house, json={"seat": seat, "character": seat.title()})
        assert added.status_code == 201, added.text
        claimed = http.post("/invites", json={"code": added.json()["invite"]})
        seats[seat] = bearer(claimed.json()["token"])
    assert http.post(f"/campaigns/{cid}/adventures", headers=house).status_code == 201
    return f"/campaigns/{cid}", seats


def move(http: httpx.Client, c: str, unit: str, who: dict[str, str], **body) -> dict:
    r = http.post(f"{c}/challenges/{unit}/actions", headers=who, json=body)
    assert r.status_code == 200, r.text
    return r.json()


def abandoned(http: httpx.Client, c: str, unit: str, who: dict[str, str]) -> dict:
    entries = http.get(f"{c}/log?limit=1000", headers=who).json()["entries"]
    found = [e for e in entries if e["stream"].endswith(UUID(unit).hex) and e["event"] == "DrawAbandoned"]
    assert len(found) == 1 and found[0]["hidden"] == []  # shown whole, to this seat
    return found[0]["detail"]


def test_a_twenty_one_conflict_the_house_ends_after_a_seed_shows_every_seat_the_deal_it_abandoned(server):  # noqa: F811
    with httpx.Client(base_url=server, timeout=30) as http:
        c, t = table(http, "twenty-one", "ilse", "tomas")
        opened = http.post(f"{c}/conflicts", headers=t["house"], json={"characters": ["ilse", "tomas"]})
        assert opened.status_code == 201, opened.text
        unit, published = opened.json()["id"], opened.json()["state"]["seed_hash"]  # C-4: in the opening answer
        move(http, c, unit, t["ilse"], action="seed", seed="Ilse's words")
        ended = move(http, c, unit, t["house"], action="end")  # the House ends it before the deal
        secret = ended["state"]["secret_seed"]
        assert hashlib.sha256(secret.encode()).hexdigest() == published
        for seat in ("ilse", "tomas", "house"):
            detail = abandoned(http, c, unit, t[seat])
            [draw] = detail["draws"]
            order = shuffle(secret, ["Ilse's words", ""], ["shuffle", 0], list(twenty_one_cards.DECK))
            assert draw["slot"] == ["shuffle", 0] and draw["order"] == order
            assert detail["hands"] == {"ilse": order[0:3], "tomas": order[3:6]}


def test_a_twenty_one_conflict_ended_before_any_seed_records_no_abandoned_draw(server):  # noqa: F811
    with httpx.Client(base_url=server, timeout=30) as http:
        c, t = table(http, "twenty-one", "ilse")
        unit = http.post(f"{c}/conflicts", headers=t["house"], json={"characters": ["ilse"]}).json()["id"]
        move(http, c, unit, t["house"], action="end")
        entries = http.get(f"{c}/log?limit=1000", headers=t["ilse"]).json()["entries"]
        assert not [e for e in entries if e["event"] == "DrawAbandoned"]  # nobody's input was known (C-10)


def test_a_pulp_combat_ended_after_its_called_deal_and_before_the_players_input_records_no_draw(server):  # noqa: F811
    # C-10 (issue 30): the players seed or pass only once the House called the first deal, which their input
    # deals at once; so a combat ended in between has no input known, and nothing to show
    with httpx.Client(base_url=server, timeout=30) as http:
        c, t = table(http, "pulp-cards", "ilse")
        opened = http.post(f"{c}/combats", headers=t["house"], json={"combatants": ["ilse", "Bandit"]})
        assert opened.status_code == 201, opened.text
        unit = opened.json()["id"]
        move(http, c, unit, t["house"], action="surprise", by="Bandit")
        ended = move(http, c, unit, t["house"], action="end", reason="they ran")
        assert ended["state"]["surprise"] is None and ended["state"]["phase"] == "settled"
        entries = http.get(f"{c}/log?limit=1000", headers=t["ilse"]).json()["entries"]
        assert not [e for e in entries if e["event"] == "DrawAbandoned"]
