"""Hidden information in Pulp (C-5): the House's deal for its own character and its unshown attack. Only the
House's cards change between two runs of one story; every other seat's reads, and its refusals, stay
byte-identical, in the unit view, the list, the log, the replay, verify and the sheets."""

from __future__ import annotations

import json

from adapters import randomness
from tests.e2e.conftest import bearer, normalized, player_headers

VARIANTS = (["BA", "B2", "B4", "P1", "P2", "P3", "P4"], ["RA1", "RA2", "R21", "R22", "P5", "P6", "P7"])
MORE_VOLATILE = {"resolution_id", "challenge_id", "announced_at", "timestamp", "character_id", "unit", "instance"}


def _strip(value):
    if isinstance(value, dict):
        return {k: _strip(v) for k, v in value.items() if k not in MORE_VOLATILE}
    if isinstance(value, list):
        return [_strip(v) for v in value]
    return value


def story(client, houses_cards: list[str]) -> dict[str, str]:
    created = client.post("/campaigns", json={"name": "Pulp night", "system": "pulp-cards",
                                              "settings": {"table_cards": True}}).json()
    c, house = f"/campaigns/{created['campaign']['id']}", bearer(created["house_token"])
    t = {"house": house}
    for seat in ("ilse", "tomas"):
        r = client.post(f"{c}/players", headers=house, json={"seat": seat, "character": seat.title()})
        t[seat] = player_headers(client, r.json())
    assert client.post(f"{c}/adventures", headers=house, json={}).status_code == 201  # C-1: units of resolution happen during an adventure
    deal = client.post(f"{c}/deals", headers=house, json={"character": "Sheriff Cole", "cards": houses_cards})
    assert deal.status_code == 201, deal.text
    combat = client.post(f"{c}/combats", headers=house, json={"combatants": ["ilse", "Sheriff Cole"]}).json()
    act = f"{c}/challenges/{combat['id']}/actions"
    r = client.post(act, headers=house, json={"action": "initiative", "cards": ["P1", "P2", "P3", "B4"]})
    assert r.json()["state"]["order"] == ["Sheriff Cole", "Ilse"], r.text
    r = client.post(act, headers=house, json={"action": "attack", "target": "Ilse", "cards": houses_cards})
    assert r.status_code == 200, r.text
    seen: dict[str, str] = {}
    for seat in ("ilse", "tomas"):
        h = t[seat]
        reads = {
            "deal": client.get(f"{c}/challenges/{deal.json()['id']}", headers=h),
            "combat": client.get(f"{c}/challenges/{combat['id']}", headers=h),
            "list": client.get(f"{c}/challenges", headers=h),
            "log": client.get(f"{c}/log?limit=1000", headers=h),
            "deal replay": client.get(f"{c}/challenges/{deal.json()['id']}/replay", headers=h),
            "combat replay": client.get(f"{c}/challenges/{combat['id']}/replay", headers=h),
            "deal verify": client.get(f"{c}/challenges/{deal.json()['id']}/verify", headers=h),
            "combat verify": client.get(f"{c}/challenges/{combat['id']}/verify", headers=h),
            "sheets": client.get(f"{c}/characters", headers=h),
            "show refused": client.post(f"{c}/challenges/{deal.json()['id']}/actions", headers=h,
                                        json={"action": "show"}),
            "attack show refused": client.post(act, headers=h, json={"action": "show", "number": 1}),
            "effect refused": client.post(act, headers=h, json={"action": "effect", "effect": "x", "number": 1}),
        }
        for name, r in reads.items():
            assert r.status_code < 500, (name, r.text)
            seen[f"{seat} {name}"] = json.dumps(_strip(normalized(r.json())), sort_keys=True)
    house_view = client.get(f"{c}/challenges/{deal.json()['id']}", headers=house).json()
    assert house_view["state"]["cards"] == houses_cards  # the House sees its own deal
    return seen


def test_the_houses_hidden_deals_leak_to_no_other_seat_c5(client, monkeypatch):
    monkeypatch.setattr(randomness, "new_secret_seed", lambda: "5e" * 32)
    first, second = (story(client, cards) for cards in VARIANTS)
    assert first.keys() == second.keys()
    for key in first:
        assert first[key] == second[key], key
    assert "BA" not in first["ilse log"] and "RA1" not in second["tomas log"]
