"""C-2 over HTTP: every command's response carries the campaign's new signed head; a player checks that
each head extends the last one he kept, with the server's public key and an RFC 9162 proof."""

from __future__ import annotations

import base64
from collections import Counter

from adapters import checkpoint, heads, schemas
from tests.e2e.conftest import bearer, player_headers
from tests.e2e.test_challenge_http import table  # noqa: F401  (fixture)


def signed_head(response, vkey: str, cid: str) -> checkpoint.Head:
    note = base64.b64decode(response.headers["Stakes-Checkpoint"]).decode()
    return checkpoint.verify(note, vkey, f"stakes/campaigns/{cid.replace('-', '')}")


def test_every_command_answers_with_a_signed_head_that_extends_the_last(client):
    vkey = client.get("/audit/public-key").json()["vkey"]
    created = client.post("/campaigns", json={"name": "Jade Court", "settings": {"starting_pile": 30}})
    cid, house = created.json()["campaign"]["id"], bearer(created.json()["house_token"])
    first = signed_head(created, vkey, cid)
    added = client.post(f"/campaigns/{cid}/players", headers=house,
                        json={"seat": "ilse", "character": "Ilse", "characteristic": "Whip Smart"})
    second = signed_head(added, vkey, cid)
    assert second.size > first.size >= 1
    ilse = player_headers(client, added.json())
    proof = client.get(f"/campaigns/{cid}/audit/consistency", params={"from": first.size}, headers=ilse)
    assert proof.status_code == 200
    assert heads.verify_extends(first, schemas.Consistency.model_validate(proof.json()), vkey, first.origin) == second
    assert client.get(f"/campaigns/{cid}/audit/checkpoint", headers=ilse).json()["note"] == second.note
    assert client.get(f"/campaigns/{cid}", headers=ilse).headers.get("Stakes-Checkpoint") is None  # reads: none


def test_a_head_the_log_never_reached_is_refused_naming_c2(client):
    created = client.post("/campaigns", json={"name": "Jade Court"}).json()
    cid, house = created["campaign"]["id"], bearer(created["house_token"])
    r = client.get(f"/campaigns/{cid}/audit/consistency", params={"from": 10_000}, headers=house)
    assert r.status_code == 422 and r.json()["ruling"] == "C-2"
    for bad in ("-1", "true", "1.5"):
        assert client.get(f"/campaigns/{cid}/audit/consistency", params={"from": bad}, headers=house).status_code == 422


def test_checkpoints_are_read_only_with_a_seat_in_the_campaign(client):
    one = client.post("/campaigns", json={"name": "One"}).json()
    other = client.post("/campaigns", json={"name": "Other"}).json()
    r = client.get(f"/campaigns/{one['campaign']['id']}/audit/checkpoint", headers=bearer(other["house_token"]))
    assert r.status_code == 403
    assert client.get(f"/campaigns/{one['campaign']['id']}/audit/checkpoint").status_code == 401


def test_every_seat_reads_the_same_head(client):
    created = client.post("/campaigns", json={"name": "Jade Court"}).json()
    cid, house = created["campaign"]["id"], bearer(created["house_token"])
    added = client.post(f"/campaigns/{cid}/players", headers=house,
                        json={"seat": "ilse", "character": "Ilse", "characteristic": "Whip Smart"}).json()
    as_house = client.get(f"/campaigns/{cid}/audit/checkpoint", headers=house).content
    assert client.get(f"/campaigns/{cid}/audit/checkpoint", headers=player_headers(client, added)).content == as_house


def test_a_seat_recomputes_the_signed_root_from_leaves_opened_only_where_it_may_read(client, table):  # noqa: F811
    from tests.e2e.test_challenge_http import act, play_to_betting

    c, t = table
    ch = play_to_betting(client, c, t)
    vkey = client.get("/audit/public-key").json()["vkey"]
    origin = "stakes/campaigns/" + c.rsplit("/", 1)[1].replace("-", "")
    tomas = schemas.Leaves.model_validate(client.get(f"{c}/audit/leaves", headers=t["tomas"]).json())
    assert heads.verify_leaves(tomas, vkey, origin).size == len(tomas.leaves)
    # A leaf is opened only where the seat reads the whole event in the log (C-5). Leaves count every event of
    # the campaign's chain (command records too), the log its entries (issue 29: both per campaign), so a leaf
    # is matched to its entry by stream and event.
    entries = client.get(f"{c}/log", params={"limit": 1000}, headers=t["tomas"]).json()["entries"]
    visible = Counter((e["stream"].split(":")[-1], f'{e["stream"].split(":")[0]}.{e["event"]}') for e in entries
                      if e["hidden"] == [])
    opened = Counter((leaf.originator_id, (leaf.topic or "").split(":")[-1]) for leaf in tomas.leaves
                     if leaf.state is not None and not (leaf.topic or "").endswith("CommandRecord.Executed"))
    assert opened and all(visible[key] >= n for key, n in opened.items()), opened - visible
    assert not any("secret_seed" in (leaf.state or "") for leaf in tomas.leaves)
    forged = tomas.model_copy(update={"leaves": [*tomas.leaves[:-1], tomas.leaves[-1].model_copy(
        update={"digest": "0" * 64})]})
    try:
        heads.verify_leaves(forged, vkey, origin)
        raise AssertionError("a forged leaf passed")
    except checkpoint.InvalidCheckpoint:
        pass
    act(client, c, ch, t["house"], "fold")  # settled: every value of the challenge is public now (C-4, C-5)
    after = schemas.Leaves.model_validate(client.get(f"{c}/audit/leaves", headers=t["tomas"]).json())
    was = {leaf.position for leaf in tomas.leaves if leaf.state is not None}
    assert heads.verify_leaves(after, vkey, origin) and {x.position for x in after.leaves if x.state} > was
