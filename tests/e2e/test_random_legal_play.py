"""Random legal play over HTTP, every system, both stores: a client that knows no rule builds each move from
the seat's `legal_actions` alone (their `field`, `choices`, `min`/`max`, `member`, `required`) and the
OpenAPI schema of the move, and the House rewinds now and then (C-6). Whatever it plays, the server never
answers 5xx, and a unit that is not settled always has a seat that may act: no dead end (C-5's `waiting_for`
included). Moves a random value makes illegal (a raise past a pile's reach, a text the rules read) may be
refused 4xx; that is the rules' business, not a failure here."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.e2e.conftest import bearer, player_headers
from tests.legal_play import body_for

MOVES = 80  # per game
#: One seed a store, a different one on each: two of the client's random paths every run, as before, without
#: playing each path again on the other store (the rules decide what is legal, the same on both; every move is
#: stored on the store of its game, and the server's own dice differ from run to run anyway).
GAMES = [("sqlite", 1), pytest.param("postgres", 2, marks=pytest.mark.postgres)]
PLAYERS = {
    "penny-ante": {"characteristic": "Sly"},
    "pool": {"description": "A brave and stubborn old monk", "traits": {"Brave": 1}},
    "twenty-one": {"skills": ["Knife fighting"]},
    "beast": {"humanity": 5},
    "pulp-cards": {},
}


def table(client: Any, system: str) -> tuple[str, dict[str, dict[str, str]]]:
    created = client.post("/campaigns", json={"name": "Random", "system": system}).json()
    c, t = f"/campaigns/{created['campaign']['id']}", {"house": bearer(created["house_token"])}
    # Penny Ante seats a third player, who may lend into a challenge he is not in (PA-14)
    for seat in ("ilse", "tomas", *(("mara",) if system == "penny-ante" else ())):
        r = client.post(f"{c}/players", headers=t["house"], json={"seat": seat, "character": seat.title(),
                                                                  **PLAYERS[system]})
        assert r.status_code == 201, r.text
        t[seat] = player_headers(client, r.json())
    if system == "penny-ante":
        client.post(f"{c}/antagonists", headers=t["house"], json={"name": "Lady Sen", "characteristics": ["Poison"]})
        client.post(f"{c}/adventures", headers=t["house"], json={})
        client.post(f"{c}/antagonists/Lady%20Sen/funding", headers=t["house"], json={"amount": 20})
    if system == "twenty-one":
        for seat in ("ilse", "tomas"):
            client.post(f"{c}/characters/{seat}/holds", headers=t["house"], json={"count": 1, "skill": "knife fighting"})
    if system == "beast":
        client.post(f"{c}/antagonists", headers=t["house"], json={"name": "Sheriff Cole", "humanity": 4, "willpower": 3})
    if system != "penny-ante":  # every unit of resolution happens during an adventure (C-1)
        assert client.post(f"{c}/adventures", headers=t["house"], json={}).status_code == 201
    return c, t


def announce(client: Any, system: str, c: str, t: dict[str, dict[str, str]], rng: random.Random) -> str | None:
    seat, path, body = {
        "penny-ante": rng.choice([("ilse", "/challenges", {"challenger": {"players": ["ilse"]},
                                                           "opponent": {"players": ["tomas"]}, "ante": 1}),
                                  ("house", "/challenges", {"challenger": {"antagonist": "Lady Sen"},
                                                            "opponent": {"players": ["ilse", "tomas"]}, "ante": 1}),
                                  ("house", "/challenges", {"challenger": {"antagonist": "Lady Sen"},
                                                            "opponent": {"players": ["ilse"]}, "ante": 1})]),
        "pool": ("ilse", "/contests", {"opponent": "tomas"}),
        "twenty-one": ("house", "/conflicts", {"characters": ["ilse", "tomas"]}),
        "beast": rng.choice([("ilse", "/conflicts", {"against": "Sheriff Cole"}),
                             ("tomas", "/conflicts", {"against": "ilse"})]),
        "pulp-cards": ("house", "/combats", {"combatants": ["ilse", "tomas", "Sheriff Cole"]}),
    }[system]
    r = client.post(f"{c}{path}", headers=t[seat], json=body)
    assert r.status_code == 201 or (r.status_code == 422 and r.json()["ruling"]), r.text
    return r.json()["id"] if r.status_code == 201 else None  # e.g. an antagonist lost to the Beast (BE-9)


def schemas(client: Any) -> dict[str, dict[str, Any]]:
    """Each unit action's body schema, by its OpenAPI component."""
    return client.get("/openapi.json").json()["components"]["schemas"]


def action_schema(found: dict[str, dict[str, Any]], system: str, name: str) -> dict[str, Any]:
    prefix = "".join(part.title() for part in system.split("-"))
    for key, schema in found.items():
        action = schema.get("properties", {}).get("action", {})
        if key.startswith(prefix) and action.get("default") == name:
            return schema
    return {}


@pytest.mark.parametrize(("settings", "seed"), GAMES, indirect=["settings"])
@pytest.mark.parametrize("system", sorted(PLAYERS))
def test_random_legal_play_never_fails_and_never_leaves_a_unit_nobody_can_move(client, system, seed):
    rng = random.Random(f"{system}/{seed}")
    c, t = table(client, system)
    found = schemas(client)
    unit, moves, accepted = announce(client, system, c, t, rng), 0, 0
    assert unit is not None
    while moves < MOVES:
        views = {seat: client.get(f"{c}/challenges/{unit}", headers=headers).json() for seat, headers in t.items()}
        if next(iter(views.values()))["phase"] == "settled":
            unit = announce(client, system, c, t, rng)
            if unit is None:  # a unit the table can no longer open: the game is over
                break
            continue
        options = [(seat, a) for seat, view in views.items() for a in view["legal_actions"]]
        # answers to a loan offered into the unit are listed moves too (issue 31), but the table waits for none
        answers = [(seat, a) for seat, a in options if a.get("loan") is not None]
        # the House may always abandon an open unit (C-10): a unit where that is all anyone can do is a dead end
        moving = [(seat, a) for seat, a in options if a["action"] != "abandon" and a.get("loan") is None]
        assert moving, f"{system}: a unit nobody can move on: {views['house']}"
        if rng.random() < 0.08:  # C-6: the House rewinds to any earlier step; a step inside one move is refused
            steps = client.get(f"{c}/challenges/{unit}/replay", headers=t["house"]).json()["steps"]
            if len(steps) > 1:
                r = client.post(f"{c}/challenges/{unit}/rewind", headers=t["house"],
                                json={"to_step": rng.randint(1, len(steps) - 1), "reason": "the table disagreed"})
                assert r.status_code < 500, r.text
                continue
        draw = rng.random()  # now and then the House abandons; a loan offered is often answered
        seat, legal = rng.choice(answers if answers and draw < 0.3 else options if draw > 0.98 else moving)
        body = body_for(legal, action_schema(found, system, legal["action"]), rng)
        r = client.post(f"{c}/challenges/{unit}/actions", headers=t[seat], json=body)
        assert r.status_code < 500, r.text
        # a listed answer to a loan, sent as listed to the unit's action endpoint, is always accepted (issue 31)
        assert r.status_code == 200 or legal.get("loan") is None, (legal, r.text)
        assert r.status_code != 422 or r.json().get("ruling"), r.text  # a refusal names its ruling
        moves, accepted = moves + 1, accepted + (r.status_code == 200)
    assert accepted > moves // 4, f"{system}: {accepted} of {moves} moves built from legal actions accepted"
