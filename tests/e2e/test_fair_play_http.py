"""C-9 (a grinding House chooses no die) and C-8 (revealed stays revealed after a rewind), over HTTP on
both stores."""

from __future__ import annotations

import json
from uuid import UUID

from domain.fairness import derive_die
from tests.e2e.conftest import bearer, player_headers


def seated(client, *players: str, lend: bool = False):
    created = client.post("/campaigns", json={"name": "Fair play", "settings": {"starting_pile": 30}}).json()
    cid, house = created["campaign"]["id"], bearer(created["house_token"])
    t = {"house": house}
    for seat in players:
        r = client.post(f"/campaigns/{cid}/players", headers=house,
                        json={"seat": seat, "character": seat.title(), "characteristic": "Whip Smart"})
        t[seat] = player_headers(client, r.json())
    if lend:  # Ilse lends Tomas 10 pennies: Ilse 20, Tomas 40
        loan = client.post(f"/campaigns/{cid}/loans", headers=t["ilse"], json={"borrower": "tomas", "amount": 10})
        assert loan.status_code == 201, loan.text
        r = client.post(f"/campaigns/{cid}/loans/{loan.json()['loan_id']}/accept", headers=t["tomas"])
        assert r.status_code in (200, 201), r.text
    client.post(f"/campaigns/{cid}/adventures", headers=house)
    return f"/campaigns/{cid}", t


def act(client, c, ch, who, action, expect=200, **args):
    r = client.post(f"{c}/challenges/{ch}/actions", headers=who, json={"action": action, **args})
    assert r.status_code == expect, r.text
    return r.json()


def test_a_grinding_house_that_reads_the_secret_cannot_choose_its_antagonists_dice(client):
    c, t = seated(client, "ilse")
    house = t["house"]
    client.post(f"{c}/antagonists", headers=house, json={"name": "Lady Sen", "characteristics": ["Poison"]})
    client.post(f"{c}/antagonists/Lady%20Sen/funding", headers=house, json={"amount": 20})
    ch = client.post(f"{c}/challenges", headers=house, json={
        "challenger": {"antagonist": "Lady Sen"}, "opponent": {"players": ["ilse"]}, "ante": 1}).json()["id"]
    stakes = client.app.state.stakes
    secret = stakes.load_unit(UUID(c.rsplit("/", 1)[1]), UUID(ch)).secret_seed  # the House reads its own store
    act(client, c, ch, house, "declare", characteristics=["Poison"])  # C-9: before the player's seed
    before = len(client.get(f"{c}/log?limit=1000", headers=house).json()["entries"])
    # First: a seed chosen knowing the secret, before the player's, is refused too.
    r = client.post(f"{c}/challenges/{ch}/actions", headers=house, json={"action": "seed", "seed": "chosen"})
    assert r.status_code == 422 and r.json()["ruling"] == "C-9"
    act(client, c, ch, t["ilse"], "seed", seed="Ilse's lucky words")
    # Then the grind: try seeds offline until Lady Sen's first two dice are 6, 6; the service takes none.
    wanted = next(f"try {n}" for n in range(10_000)
                  if [derive_die(secret, [f"try {n}", "Ilse's lucky words"], ["roll", "challenger", i])
                      for i in (0, 1)] == [6, 6])
    r = client.post(f"{c}/challenges/{ch}/actions", headers=house, json={"action": "seed", "seed": wanted})
    assert r.status_code == 422 and r.json()["ruling"] == "C-9"
    assert len(client.get(f"{c}/log?limit=1000", headers=house).json()["entries"]) == before + 1  # only Ilse's
    act(client, c, ch, t["ilse"], "declare", characteristics=["Whip Smart"])
    dice = act(client, c, ch, house, "roll")["sides"]["challenger"]["dice"]
    # The dice are the secret's and Ilse's alone: the House's side seed is the empty text (C-9).
    assert [d["value"] for d in dice] == [derive_die(secret, ["", "Ilse's lucky words"], ["roll", "challenger", i])
                                         for i in range(len(dice))]


def showdown_then_rewind(client):
    """Ilse and Tomas play with table dice to a showdown that leaves Ilse bankrupt, then the House rewinds to
    the betting: every die was shown to every seat at the showdown (C-5)."""
    c, t = seated(client, "ilse", "tomas", "mara", lend=True)
    ch = client.post(f"{c}/challenges", headers=t["ilse"], json={
        "challenger": {"players": ["ilse"]}, "opponent": {"players": ["tomas"]}, "ante": 1, "table": True}).json()
    ch = ch["id"]
    act(client, c, ch, t["ilse"], "declare", characteristics=["Whip Smart"])
    act(client, c, ch, t["tomas"], "declare", characteristics=[])
    act(client, c, ch, t["ilse"], "roll", dice=[1, 1])
    act(client, c, ch, t["tomas"], "roll", dice=[6])
    act(client, c, ch, t["ilse"], "keep", cup=[1])
    betting = act(client, c, ch, t["tomas"], "keep", cup=[])
    step = len(client.get(f"{c}/challenges/{ch}/replay", headers=t["house"]).json()["steps"])
    assert betting["sides"]["challenger"]["dice"][1]["value"] is None  # Ilse's cup, as Tomas sees it
    act(client, c, ch, t["ilse"], "check")
    legal = client.get(f"{c}/challenges/{ch}", headers=t["tomas"]).json()["legal_actions"]
    most = next(a["max"] for a in legal if a["action"] == "raise")
    act(client, c, ch, t["tomas"], "raise", amount=most)  # more than Ilse can cover
    act(client, c, ch, t["ilse"], "all-in")
    act(client, c, ch, t["ilse"], "roll", dice=[1])
    shown = act(client, c, ch, t["tomas"], "roll", dice=[])
    assert shown["phase"] == "bankruptcy" and shown["sides"]["challenger"]["dice"][1]["value"] == 1
    r = client.post(f"{c}/challenges/{ch}/rewind", headers=t["house"],
                    json={"to_step": step, "reason": "the raise was misheard"})
    assert r.status_code == 200, r.text
    return c, ch, t


def test_a_rewind_after_the_showdown_keeps_the_cups_public_in_every_view(client):
    c, ch, t = showdown_then_rewind(client)
    for seat in ("tomas", "mara"):  # not Ilse's cup, yet every seat saw it at the showdown
        view = client.get(f"{c}/challenges/{ch}", headers=t[seat]).json()
        assert view["phase"].startswith("betting")
        assert view["sides"]["challenger"]["dice"][1] == {"value": 1, "in_cup": True, "seen_before_rewind": True}
        log = client.get(f"{c}/log?limit=1000", headers=t[seat]).json()["entries"]
        rolled = [e for e in log if e["event"] == "DiceRolled" and e["detail"].get("side") == "challenger"]
        assert rolled and all(not e["hidden"] for e in rolled[:2]), rolled  # the log shows what was seen
        replay = client.get(f"{c}/challenges/{ch}/replay", headers=t[seat]).json()
        first_roll = next(s for s in replay["steps"] if s["event"] == "DiceRolled")
        assert first_roll["state"]["sides"]["challenger"]["dice"][1]["value"] == 1
        assert replay["steps"][-1]["state"]["sides"]["challenger"]["dice"][1]["seen_before_rewind"]


def test_after_the_rewind_every_seat_sees_the_same_cups_whatever_it_holds(client):
    """What the showdown showed is the same for every seat but the owner's own marks (C-5, C-8)."""
    c, ch, t = showdown_then_rewind(client)
    tomas = client.get(f"{c}/challenges/{ch}", headers=t["tomas"]).json()["sides"]["challenger"]
    mara = client.get(f"{c}/challenges/{ch}", headers=t["mara"]).json()["sides"]["challenger"]
    assert json.dumps(tomas["dice"]) == json.dumps(mara["dice"])
