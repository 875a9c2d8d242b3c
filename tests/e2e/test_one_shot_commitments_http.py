"""C-10, issue 30: a one-shot draw uses a secret whose hash was published before the player's input, over
real HTTP (``stakes serve`` under uvicorn) on both stores.

The player reads his seat's commitment in the log, rolls with his own seed, and verifies the roll from the
answer with nothing but ``hashlib``, ``hmac`` and ``docs/fairness.md``'s recipe (no Stakes code).
"""

from __future__ import annotations

import hashlib
import hmac
import json
from uuid import UUID

import httpx
import pytest

from tests.e2e.conftest import bearer
from tests.e2e.test_cli_live_server import server  # noqa: F401 (the live server fixture)

#: Each test plays its own campaign: the module shares one store of each kind and its live server.
pytestmark = pytest.mark.shared_store


# -- the recipe of docs/fairness.md, written from the page alone ------------------------------------------
def words(secret: str, side_seeds: list[str], slot: list[object]):
    base = json.dumps([side_seeds, [str(p) for p in slot]], separators=(",", ":"))
    n = 0
    while True:
        digest = hmac.new(secret.encode(), f"{base}#{n}".encode(), hashlib.sha256).digest()
        for i in range(0, 32, 4):
            yield int.from_bytes(digest[i:i + 4], "big")
        n += 1


def die(secret: str, side_seeds: list[str], slot: list[object], faces: int = 6) -> int:
    limit = 2**32 - (2**32 % faces)
    return next(w for w in words(secret, side_seeds, slot) if w < limit) % faces + 1


# -- a table over HTTP --------------------------------------------------------------------------------------
def pool_table(http: httpx.Client) -> tuple[str, dict[str, str], dict[str, str]]:
    created = http.post("/campaigns", json={"name": "Committed", "system": "pool"})
    assert created.status_code == 201, created.text
    cid, house = created.json()["campaign"]["id"], bearer(created.json()["house_token"])
    added = http.post(f"/campaigns/{cid}/players", headers=house, json={
        "seat": "ilse", "character": "Ilse", "description": "A brave and clever thief"})
    assert added.status_code == 201, added.text
    claimed = http.post("/invites", json={"code": added.json()["invite"]})
    assert claimed.status_code == 201, claimed.text
    assert http.post(f"/campaigns/{cid}/adventures", headers=house).status_code == 201
    return f"/campaigns/{cid}", house, bearer(claimed.json()["token"])


def log(http: httpx.Client, c: str, who: dict[str, str]) -> list[dict]:
    r = http.get(f"{c}/log?limit=1000", headers=who)
    assert r.status_code == 200, r.text
    return r.json()["entries"]


def commitment_of(entries: list[dict], seat: str) -> dict:
    """The seat's latest commitment in the log: its position, nonce and hash (the secret is hidden)."""
    seats = {e["stream"]: e["detail"]["seat"] for e in entries
             if e["stream"].startswith("SeatSecret:") and e["event"] == "Committed"}
    mine = [e for e in entries if seats.get(e["stream"]) == seat]
    assert mine, f"no commitment of {seat} in the log"
    last = mine[-1]
    return {"position": last["position"], "nonce": last["detail"]["nonce"], "hash": last["detail"]["seed_hash"],
            "hidden": last["hidden"], "stream": last["stream"]}


def settle(http: httpx.Client, c: str, ilse: dict[str, str], roll: dict) -> dict:
    if roll["phase"] == "choice":
        r = http.post(f"{c}/challenges/{roll['id']}/actions", headers=ilse, json={"action": "choose",
                                                                                    "choice": "narrate"})
        assert r.status_code == 200, r.text
        return r.json()
    return roll


def test_a_player_sees_his_commitment_before_rolling_and_verifies_the_roll_from_the_answer(server):  # noqa: F811
    with httpx.Client(base_url=server, timeout=30) as http:
        c, house, ilse = pool_table(http)
        before = commitment_of(log(http, c, ilse), "ilse")
        assert before["hidden"] == ["secret_seed"] and len(before["hash"]) == 64  # the hash, never the secret
        assert commitment_of(log(http, c, house), "ilse")["hidden"] == ["secret_seed"]  # the House reads no more
        read = http.get(f"{c}/commitments", headers=ilse)  # the same, as a small read
        assert read.status_code == 200, read.text
        mine = {s["seat"]: s for s in read.json()["seats"]}
        assert mine["ilse"] == {"seat": "ilse", "nonce": before["nonce"], "seed_hash": before["hash"],
                                "position": before["position"]} and "house" in mine
        assert "secret_seed" not in json.dumps(read.json())

        r = http.post(f"{c}/rolls", headers=ilse, json={"count": 3, "seed": "Ilse's own words"})
        assert r.status_code == 201, r.text
        roll = r.json()
        assert roll["state"]["seed_hash"] == before["hash"]  # the hash published before my seed arrived
        settled = settle(http, c, ilse, roll)
        secret = settled["state"]["secret_seed"]
        assert hashlib.sha256(secret.encode()).hexdigest() == before["hash"]
        dice = [die(secret, ["Ilse's own words"], ["roll", "ilse", i]) for i in range(3)]
        assert settled["state"]["dice"] == dice

        # The next commitment was made in the same write, after the one used, and it is not the same secret.
        entries = log(http, c, ilse)
        renewed = next(e for e in entries if e["event"] == "Renewed" and e["detail"]["unit"] == UUID(roll["id"]).hex)
        assert renewed["detail"]["used_nonce"] == before["nonce"] and renewed["detail"]["used_hash"] == before["hash"]
        rolled = next(e for e in entries if e["stream"].endswith(UUID(roll["id"]).hex) and e["event"] == "Rolled")
        assert before["position"] < rolled["position"] < renewed["position"]
        # Between the draw and the renewal only that roll's own effects on Ilse's sheet (a miss may lose and gain
        # dice): no other command's event, so the renewal is of the same write.
        between = [e for e in entries if rolled["position"] < e["position"] < renewed["position"]]
        assert all(e["actor"] == "ilse" and e["stream"].startswith("PoolCharacter:")
                   and e["detail"].get("roll_id") == UUID(roll["id"]).hex for e in between), between
        after = commitment_of(entries, "ilse")
        assert after["nonce"] == before["nonce"] + 1 and after["hash"] not in (before["hash"], settled["state"]
                                                                               ["seed_hash"])

        now = {s["seat"]: s for s in http.get(f"{c}/commitments", headers=house).json()["seats"]}
        assert (now["ilse"]["nonce"], now["ilse"]["seed_hash"]) == (after["nonce"], after["hash"])
        assert http.get(f"{c}/commitments").status_code == 401  # seated readers only

        # The next roll uses that next commitment.
        again = http.post(f"{c}/rolls", headers=ilse, json={"count": 2, "seed": "again"})
        assert again.status_code == 201, again.text
        assert again.json()["state"]["seed_hash"] == after["hash"]


@pytest.mark.parametrize("body", [{"count": 2, "seed": 7}, {"count": 1, "seed": "x"}])
def test_a_refused_one_shot_draw_spends_no_commitment(server, body):  # noqa: F811
    with httpx.Client(base_url=server, timeout=30) as http:
        c, _, ilse = pool_table(http)
        before = log(http, c, ilse)
        r = http.post(f"{c}/rolls", headers=ilse, json=body)
        assert 400 <= r.status_code < 500 and r.headers["content-type"].startswith("application/problem+json")
        assert log(http, c, ilse) == before  # nothing stored: the commitment stands for the next draw


def opened(http: httpx.Client, system: str, player: dict, route: str, body: dict, by: str) -> None:
    """A multi-step unit commits at opening (C-4): its ``seed_hash`` is in the opening answer and in the log's
    opening entry, before any seat may add a seed."""
    created = http.post("/campaigns", json={"name": "Opening", "system": system}).json()
    cid, house = created["campaign"]["id"], bearer(created["house_token"])
    seats = {"house": house}
    for seat in ("ilse", "tomas"):
        added = http.post(f"/campaigns/{cid}/players", headers=house, json={"seat": seat, "character": seat.title(),
                                                                             **player})
        assert added.status_code == 201, added.text
        seats[seat] = bearer(http.post("/invites", json={"code": added.json()["invite"]}).json()["token"])
    assert http.post(f"/campaigns/{cid}/adventures", headers=house).status_code == 201
    r = http.post(f"/campaigns/{cid}{route}", headers=seats[by], json=body)
    assert r.status_code == 201, r.text
    unit = r.json()
    state = unit.get("state") or unit  # a Penny Ante challenge answers its view flat
    assert len(state["seed_hash"]) == 64 and state.get("secret_seed") is None
    entries = log(http, f"/campaigns/{cid}", seats["tomas"])
    first = next(e for e in entries if e["stream"].endswith(UUID(unit["id"]).hex))
    assert first["detail"]["seed_hash"] == state["seed_hash"] and "secret_seed" in first["hidden"]


def test_a_multi_step_unit_s_opening_answer_carries_its_commitment(server):  # noqa: F811
    with httpx.Client(base_url=server, timeout=30) as http:
        opened(http, "pool", {"description": "A brave monk"}, "/contests", {"opponent": "tomas"}, "ilse")
        opened(http, "beast", {}, "/conflicts", {"against": "tomas"}, "ilse")
        opened(http, "penny-ante", {"characteristic": "Whip Smart"}, "/challenges",
               {"challenger": {"players": ["ilse"]}, "opponent": {"players": ["tomas"]}, "ante": 1}, "ilse")
