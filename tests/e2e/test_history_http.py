"""Replay, undo and audit over HTTP on both stores (C-2, C-5, C-6, C-7)."""

from __future__ import annotations

from tests.e2e.test_challenge_http import act, play_to_betting, table  # noqa: F401  (fixture)


def test_replay_shows_each_step_as_the_seat_may_see_it_and_everything_after_settlement(client, table):
    c, t = table
    ch = play_to_betting(client, c, t)
    replay = client.get(f"{c}/challenges/{ch}/replay", headers=t["tomas"]).json()
    assert not replay["revealed"] and replay["total"] == len(replay["steps"]) == 8
    assert [s["event"] for s in replay["steps"]][:3] == ["Announced", "CharacteristicsDeclared", "SeedAdded"]  # C-9
    rolled = next(s for s in replay["steps"] if s["event"] == "DiceRolled")
    assert rolled["hidden"] == ["dice"] and "dice" not in rolled["detail"]
    assert all(d["value"] is None for d in rolled["state"]["sides"]["challenger"]["dice"])
    assert "secret_seed" in replay["steps"][0]["hidden"]
    one = client.get(f"{c}/challenges/{ch}/replay?step=3", headers=t["ilse"]).json()
    assert [s["step"] for s in one["steps"]] == [3] and one["steps"][0]["actor"] == "ilse"
    assert "sides" in one["steps"][0]["changes"]
    act(client, c, ch, t["house"], "fold")
    replay = client.get(f"{c}/challenges/{ch}/replay", headers=t["tomas"]).json()
    assert replay["revealed"] and replay["steps"][0]["detail"]["secret_seed"]
    assert all(d["value"] is not None for d in replay["steps"][4]["state"]["sides"]["challenger"]["dice"])


def test_the_house_rewinds_over_http_and_players_are_refused(client, table):
    c, t = table
    ch = play_to_betting(client, c, t)
    before = client.get(f"{c}/challenges/{ch}", headers=t["ilse"]).json()
    act(client, c, ch, t["house"], "raise", amount=4)
    r = client.post(f"{c}/challenges/{ch}/rewind", headers=t["ilse"], json={"to_step": 3, "reason": "mine"})
    assert r.status_code == 403 and r.json()["ruling"] == "C-6"
    r = client.post(f"{c}/challenges/{ch}/rewind", headers=t["house"],
                    json={"to_step": 8, "reason": "the raise was out of order"})
    assert r.status_code == 200 and r.json()["pot"] == before["pot"] and r.json()["turn"] == "challenger"
    assert client.get(f"{c}/characters/ilse", headers=t["ilse"]).json()["in_play"] == 2
    replay = client.get(f"{c}/challenges/{ch}/replay", headers=t["ilse"]).json()
    assert replay["steps"][-1]["event"] == "Rewound" and replay["steps"][-1]["detail"]["reason"]
    assert "state" in replay["steps"][-1]["hidden"]


def test_the_house_overturns_a_settled_challenge_over_http(client, table):
    c, t = table
    ch = play_to_betting(client, c, t)
    act(client, c, ch, t["house"], "raise", amount=4)
    act(client, c, ch, t["ilse"], "fold")
    r = client.post(f"{c}/challenges/{ch}/overturn", headers=t["house"],
                    json={"winner": "opponent", "reason": "Ilse never folded; a misheard word"})
    assert r.status_code == 200 and r.json()["result"]["winner"] == "opponent"
    assert client.get(f"{c}/characters/ilse", headers=t["ilse"]).json()["pile"] == 30 + 6
    r = client.post(f"{c}/challenges/{ch}/overturn", headers=t["house"], json={"reason": "no ruling"})
    assert r.status_code == 422 and r.json()["ruling"] == "C-6"
    r = client.post(f"{c}/challenges/{ch}/overturn", headers=t["ilse"], json={"void": True, "reason": "please"})
    assert r.status_code == 403


def test_audit_export_and_import_over_http(client, table):
    c, t = table
    ch = play_to_betting(client, c, t)
    act(client, c, ch, t["house"], "fold")
    report = client.get(f"{c}/audit", headers=t["mara"]).json()
    assert report["intact"] and report["events"] > 20
    assert client.get(f"{c}/export", headers=t["ilse"]).status_code == 403
    exported = client.get(f"{c}/export", headers=t["house"])
    assert exported.status_code == 200 and exported.headers["content-type"].startswith("application/x-ndjson")
    assert "stk_" not in exported.text
    assert client.post("/imports", content=exported.text).status_code == 401  # the operator's command (C-2)
    client.app.state.stakes.settings.operator_token = "op"
    r = client.post("/imports", content=exported.text, headers={"Authorization": "Bearer op"})
    assert r.status_code == 201 and r.json()["campaign_id"] != r.json()["imported_from"]  # new ids, same store
    r = client.post("/imports", content="not an export", headers={"Authorization": "Bearer op"})
    assert r.status_code == 422 and r.json()["ruling"] == "C-2"
