"""Pulp in the Cards over HTTP, on both stores (PU-1 … PU-9, C-3 … C-8)."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import bearer, player_headers


@pytest.fixture
def pulp(client):
    def make(table: bool = False):
        created = client.post("/campaigns", json={"name": "Pulp night", "system": "pulp-cards",
                                                  "settings": {"table_cards": table}}).json()
        cid, house = created["campaign"]["id"], bearer(created["house_token"])
        t = {"house": house}
        for seat, name in (("ilse", "Ilse Varn"), ("tomas", "Tomas")):
            r = client.post(f"/campaigns/{cid}/players", headers=house, json={"seat": seat, "character": name})
            assert r.status_code == 201, r.text
            t[seat] = player_headers(client, r.json())
        # C-1: units of resolution happen during an adventure
        assert client.post(f"/campaigns/{cid}/adventures", headers=house, json={}).status_code == 201
        return f"/campaigns/{cid}", t
    return make


def act(client, c, unit, token, **body):
    r = client.post(f"{c}/challenges/{unit}/actions", headers=token, json=body)
    assert r.status_code == 200, r.text
    return r.json()


def test_a_standard_deal_is_seen_by_its_dealer_until_shown_then_verified(client, pulp):
    c, t = pulp()
    r = client.post(f"{c}/deals", headers=t["ilse"], json={"difficulty": 2, "cut": 5})
    assert r.status_code == 201, r.text
    deal = r.json()
    assert deal["kind"] == "PulpDeal" and len(deal["state"]["cards"]) == 7 and deal["state"]["cut"] == 5
    assert [a["action"] for a in deal["legal_actions"]] == ["show"]
    other = client.get(f"{c}/challenges/{deal['id']}", headers=t["tomas"]).json()
    assert other["state"]["cards"] is None and other["state"]["result"] is None and other["legal_actions"] == []
    log = client.get(f"{c}/log", headers=t["tomas"]).json()["entries"]
    dealt = next(e for e in log if e["event"] == "Dealt")
    assert "hand" not in dealt["detail"] and "result" not in dealt["detail"] and "hand" in dealt["hidden"]
    assert client.get(f"{c}/challenges/{deal['id']}/verify", headers=t["ilse"]).json()["verifiable"] is False
    shown = act(client, c, deal["id"], t["ilse"], action="show")
    assert shown["phase"] == "settled"
    seen = client.get(f"{c}/challenges/{deal['id']}", headers=t["tomas"]).json()["state"]
    assert seen["cards"] == deal["state"]["cards"] and seen["secret_seed"]
    proof = client.get(f"{c}/challenges/{deal['id']}/verify", headers=t["tomas"]).json()
    assert proof["verifiable"] and proof["commitment_matches"] and not proof["mismatches"] and proof["checked"] == 2
    sheet = client.get(f"{c}/characters/ilse", headers=t["tomas"]).json()
    assert sheet["system"] == "pulp-cards" and sheet["deals"][0]["cards"] == seen["cards"]
    r = client.post(f"{c}/challenges/{deal['id']}/overturn", headers=t["house"], json={"void": True,
                                                                                        "reason": "wrong skill"})
    assert r.status_code == 200 and r.json()["state"]["overturned"]["void"] is True
    assert client.get(f"{c}/characters/ilse", headers=t["ilse"]).json()["deals"][0]["void"] is True


def test_a_resistance_deal_is_stated_from_the_characters_side_pu4_pu8(client, pulp):
    c, t = pulp(table=True)
    cards = ["RA1", "RA2", "R21", "R22", "P1", "P2", "P3"]  # no black: the action on him fails
    deal = client.post(f"{c}/deals", headers=t["tomas"], json={"kind": "resist", "difficulty": -1,
                                                              "cards": cards}).json()
    result = deal["state"]["result"]
    assert deal["state"]["kind"] == "resistance" and result["degree"] == -6 and result["fumble"]
    assert not result["success"] and "the character resists" in result["reads"]


def test_the_houses_deal_for_its_character_is_hidden_until_revealed_c5(client, pulp):
    c, t = pulp()
    deal = client.post(f"{c}/deals", headers=t["house"], json={"character": "Sheriff Cole"}).json()
    assert deal["state"]["cards"] is not None and deal["state"]["character"] == "Sheriff Cole"
    for seat in ("ilse", "tomas"):
        assert client.get(f"{c}/challenges/{deal['id']}", headers=t[seat]).json()["state"]["cards"] is None
    r = client.post(f"{c}/deals", headers=t["ilse"], json={"character": "Sheriff Cole"})
    assert r.status_code == 403 and r.json()["ruling"] == "C-5"
    act(client, c, deal["id"], t["house"], action="show")
    assert client.get(f"{c}/challenges/{deal['id']}", headers=t["ilse"]).json()["state"]["cards"]


@pytest.mark.parametrize("body,ruling", [
    ({"difficulty": 5}, "PU-2"), ({"difficulty": True}, "PU-2"), ({"cut": 14}, "PU-7"), ({"cut": 0}, "PU-7"),
    ({"cards": ["BA"]}, "C-3"), ({"kind": "sideways"}, "PU-2"),
])
def test_a_bad_deal_is_refused_naming_its_ruling(client, pulp, body, ruling):
    c, t = pulp()
    r = client.post(f"{c}/deals", headers=t["ilse"], json=body)
    assert r.status_code == 422 and r.json()["ruling"] == ruling, r.text
    assert client.get(f"{c}/challenges", headers=t["house"]).json() == []


def test_table_cards_are_validated_c3(client, pulp):
    c, t = pulp(table=True)
    for cards, ruling in ((["BA"] * 7, "C-3"), (["BA", "B2", "B4", "P1", "P2", "P3", "XX"], "C-3"),
                          (["BA", "B2", "B4", "P1", "P2", "P3"], "C-3")):
        r = client.post(f"{c}/deals", headers=t["ilse"], json={"cards": cards})
        assert r.status_code == 422 and r.json()["ruling"] == ruling, r.text
    r = client.post(f"{c}/deals", headers=t["ilse"], json={"cut": 3, "cards": ["BA", "B2", "B4", "P1", "P2",
                                                                                "P3", "P4"]})
    assert r.status_code == 422 and r.json()["ruling"] == "C-3"


def test_a_two_cycle_combat_is_played_rewound_and_verified_over_http(client, pulp):
    c, t = pulp()
    r = client.post(f"{c}/combats", headers=t["house"], json={"combatants": ["ilse", "Sheriff Cole"]})
    assert r.status_code == 201, r.text
    combat = r.json()
    cid = combat["id"]
    names = [x["name"] for x in combat["state"]["combatants"]]
    assert names == ["Ilse Varn", "Sheriff Cole"]
    act(client, c, cid, t["house"], action="initiative", advantage={"sheriff cole": 2})  # called (C-10)
    view = act(client, c, cid, t["ilse"], action="pass")  # dealt with the players' pass
    assert view["state"]["initiative"]["advantages"] == {"Sheriff Cole": 2} and len(view["state"]["order"]) == 2
    for cycle in (1, 2):
        for _ in range(2):
            up = client.get(f"{c}/challenges/{cid}", headers=t["house"]).json()["state"]["up"]
            token = t["ilse"] if up == "Ilse Varn" else t["house"]
            cut = {"cut": 4} if up == "Ilse Varn" else {}  # C-9: the House's cut is drawn, not chosen
            view = act(client, c, cid, token, action="attack", difficulty=1, **cut)
            if token == t["house"]:  # the House's choice: dealt with the players' fresh seed (C-9, C-10)
                assert view["state"]["fresh_owed"] == ["players"]
                act(client, c, cid, t["ilse"], action="seed", seed=f"fresh for cycle {cycle}")
                view = client.get(f"{c}/challenges/{cid}", headers=t["house"]).json()  # its hand is the House's (C-5)
            attack = view["state"]["attacks"][-1]
            assert attack["cards"] and attack["attacker"] == up
            act(client, c, cid, token, action="show")
            act(client, c, cid, t["house"], action="effect", effect=f"cycle {cycle}: a graze")
        assert view["phase"] == "cycle-end" or client.get(f"{c}/challenges/{cid}", headers=t["house"]).json()[
            "phase"] == "cycle-end"
        if cycle == 1:
            act(client, c, cid, t["house"], action="keep")
            r = client.post(f"{c}/challenges/{cid}/actions", headers=t["ilse"], json={"action": "pass"})
            assert r.status_code == 422 and r.json()["ruling"] == "C-9", r.text  # a fresh seed is given
            act(client, c, cid, t["ilse"], action="seed", seed="fresh for the kept order")
    before = client.get(f"{c}/challenges/{cid}", headers=t["tomas"]).json()["state"]
    for step in (1, 2, 3):  # before the first deal: its call is fixed now the players' input is known (C-9, C-10)
        r = client.post(f"{c}/challenges/{cid}/rewind", headers=t["house"], json={"to_step": step, "reason": "misread"})
        assert r.status_code == 422 and r.json()["ruling"] == "C-9", r.text
    assert client.get(f"{c}/challenges/{cid}", headers=t["tomas"]).json()["state"] == before  # nothing stored
    r = client.post(f"{c}/challenges/{cid}/rewind", headers=t["house"], json={"to_step": 4, "reason": "misread"})
    # step 4: the initiative dealt (1 opened, 2 the call, 3 the pass and 4 its deal in one write, C-10)
    assert r.status_code == 200, r.text
    after = client.get(f"{c}/challenges/{cid}", headers=t["tomas"]).json()["state"]
    assert len(after["attacks"]) == 0 and len(after["seen_before_the_rewind"]) == 4
    assert all(s["seen_before_the_rewind"] for s in after["seen_before_the_rewind"])
    up = after["up"]
    again = act(client, c, cid, t["ilse"] if up == "Ilse Varn" else t["house"], action="attack", difficulty=1)
    # the same slot, the same cut; a House attack bound to its first choice, its fresh seed kept: dealt at once (C-9)
    assert again["state"]["attacks"][0]["cards"] == before["attacks"][0]["cards"]
    assert act(client, c, cid, t["house"], action="end", reason="Cole ran")["phase"] == "settled"
    proof = client.get(f"{c}/challenges/{cid}/verify", headers=t["tomas"]).json()
    assert proof["verifiable"] and not proof["mismatches"] and proof["checked"] >= 6
    replay = client.get(f"{c}/challenges/{cid}/replay", headers=t["tomas"]).json()
    assert replay["steps"][0]["event"] == "Opened" and any(s["event"] == "Rewound" for s in replay["steps"])
    sheet = client.get(f"{c}/characters/ilse", headers=t["tomas"]).json()
    assert any(d["seen_before_the_rewind"] for d in sheet["deals"])
    assert client.get(f"{c}/audit", headers=t["tomas"]).json()["intact"]
    exported = client.get(f"{c}/export", headers=t["house"])
    assert exported.status_code == 200 and "PulpCombat.InitiativeDealt" in exported.text, exported.text[:300]
    r = client.post("/imports", content=exported.text)
    assert r.status_code == 401  # an import is the operator's command (C-2): nothing stored


def test_notes_conditions_and_promotions_go_on_the_sheet_pu6(client, pulp):
    c, t = pulp()
    r = client.post(f"{c}/notes", headers=t["ilse"], json={"note": "owes Cole a favour"})
    assert r.status_code == 201, r.text
    r = client.post(f"{c}/notes", headers=t["house"], json={"note": "lost an arm", "to": "ilse",
                                                                            "kind": "condition"})
    assert r.json()["conditions"] == ["lost an arm"]
    r = client.post(f"{c}/notes", headers=t["ilse"], json={"note": "captain", "kind": "promotion"})
    assert r.status_code == 403 and r.json()["ruling"] == "PU-6"  # not hers to do: not permitted, like any seat's
    r = client.post(f"{c}/notes", headers=t["tomas"], json={"note": "smells", "to": "ilse"})
    assert r.status_code == 403 and r.json()["ruling"] == "PU-6"
    assert [n["text"] for n in client.get(f"{c}/characters/ilse", headers=t["tomas"]).json()["notes"]] == [
        "owes Cole a favour", "lost an arm"]
