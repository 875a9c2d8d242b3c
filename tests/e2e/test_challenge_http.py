"""A Penny Ante challenge over HTTP on both stores, and hidden information for every seat (C-5)."""

from __future__ import annotations

import json

import pytest

from tests.e2e.conftest import bearer, player_headers


@pytest.fixture
def table(client):
    created = client.post("/campaigns", json={"name": "Jade Court", "settings": {"starting_pile": 30}}).json()
    cid, house = created["campaign"]["id"], bearer(created["house_token"])
    tokens = {"house": house}
    for seat, trait in (("ilse", "Whip Smart"), ("tomas", "Love Conquers All"), ("mara", "Sly")):
        r = client.post(f"/campaigns/{cid}/players", headers=house,
                        json={"seat": seat, "character": seat.title(), "characteristic": trait})
        tokens[seat] = player_headers(client, r.json())
    c = f"/campaigns/{cid}"
    client.post(f"{c}/antagonists", headers=house,
                json={"name": "Lady Sen", "characteristics": ["Commands a Bunch of Ninjas", "Poison", "Cunning"]})
    client.post(f"{c}/adventures", headers=house)
    client.post(f"{c}/antagonists/Lady%20Sen/funding", headers=house, json={"amount": 40})
    return c, tokens


def act(client, c, ch, token, action, expect=200, **args):
    r = client.post(f"{c}/challenges/{ch}/actions", headers=token, json={"action": action, **args})
    assert r.status_code == expect, r.text
    return r.json()


def play_to_betting(client, c, t):
    view = client.post(f"{c}/challenges", headers=t["house"], json={
        "challenger": {"antagonist": "Lady Sen"}, "opponent": {"players": ["ilse"]}, "ante": 2,
        "circumstance": "A dark alley"}).json()
    ch = view["id"]
    # C-9: the House declares its characteristics before the player's seed
    act(client, c, ch, t["house"], "declare", characteristics=["Commands a Bunch of Ninjas", "Poison"])
    act(client, c, ch, t["ilse"], "seed", seed="Ilse's lucky words")
    act(client, c, ch, t["ilse"], "declare", characteristics=["Whip Smart"])
    act(client, c, ch, t["house"], "roll")
    act(client, c, ch, t["ilse"], "roll")
    act(client, c, ch, t["house"], "keep", cup=[0])
    act(client, c, ch, t["ilse"], "keep", cup=[1])
    return ch


def test_two_seats_play_a_challenge_over_http_and_anyone_can_verify_the_dice(client, table):
    c, t = table
    ch = play_to_betting(client, c, t)
    view = client.get(f"{c}/challenges/{ch}", headers=t["house"]).json()
    assert view["phase"] == "betting-1" and view["turn"] == "challenger" and view["pot"] == 4
    assert {a["action"] for a in view["legal_actions"]} == {"check", "raise", "fold", "abandon"}  # abandon: C-10
    raise_limits = next(a for a in view["legal_actions"] if a["action"] == "raise")
    assert (raise_limits["min"], raise_limits["step"], raise_limits["max"]) == (2, 2, 38)
    act(client, c, ch, t["house"], "raise", amount=4)
    sheet = client.get(f"{c}/characters/ilse", headers=t["ilse"]).json()
    assert sheet["in_play"] == 2 and sheet["pile"] == 28
    act(client, c, ch, t["ilse"], "call")
    act(client, c, ch, t["house"], "roll")
    act(client, c, ch, t["ilse"], "roll")
    listed = client.get(f"{c}/challenges/{ch}", headers=t["ilse"]).json()["legal_actions"]
    fresh = next(a for a in listed if a["action"] == "seed")
    assert fresh["required"] == ["seed"] and not any(a["action"] == "pass" for a in listed)  # C-9
    act(client, c, ch, t["ilse"], "seed", seed="fresh words for the reroll")  # rolls both cups (C-10)
    act(client, c, ch, t["house"], "check")
    done = act(client, c, ch, t["ilse"], "check")
    assert done["phase"] == "settled" and done["secret_seed"]
    winner = done["result"]["winner"]
    sheet = client.get(f"{c}/characters/ilse", headers=t["ilse"]).json()
    assert sheet["in_play"] == 0 and sheet["pile"] == (28 - 4 + 12 if winner == "opponent" else 24 if winner else 30)
    budget = client.get(f"{c}/budget", headers=t["house"]).json()
    sen = budget["antagonists"][0]
    assert sen["in_play"] == 0 and sen["winnings"] == {"challenger": 6, "opponent": -6, None: 0}[winner]
    for seat in ("house", "ilse", "tomas"):
        report = client.get(f"{c}/challenges/{ch}/verify", headers=t[seat]).json()
        assert report["verifiable"] and report["commitment_matches"] and report["mismatches"] == []
        assert report["checked"] == 3 + 2 + 1 + 2  # first rolls, the alley, the two rerolled cup dice
    assert act(client, c, ch, t["ilse"], "check", expect=422)["ruling"] == "C-1"


def every_read(client, c, ch, token) -> dict[str, str]:
    paths = ["", "/characters", "/characters/ilse", "/budget", "/antagonists", "/debts", "/log?limit=1000",
             "/challenges", f"/challenges/{ch}", f"/challenges/{ch}/verify"]
    out = {}
    for path in paths:
        r = client.get(f"{c}{path}", headers=token)
        assert r.status_code == 200, (path, r.text)
        out[path] = r.text
    return out


def test_every_seat_sees_only_what_the_rules_let_it_see_on_every_read(client, table, stakes):
    c, t = table
    ch = play_to_betting(client, c, t)
    secret = stakes.app.repository.get(__import__("uuid").UUID(ch)).secret_seed
    for seat, token in t.items():
        reads = every_read(client, c, ch, token)
        everything = "".join(reads.values())
        assert secret not in everything, seat  # C-4: revealed only at settlement
        if seat != "house":
            assert "Cunning" not in everything, seat  # an unused antagonist characteristic (C-5)
        view = json.loads(reads[f"/challenges/{ch}"])
        for side in ("challenger", "opponent"):
            own = view["your_side"] == side
            for die in view["sides"][side]["dice"]:
                assert (die["value"] is None) == (die["in_cup"] and not own), (seat, side)
        log = json.loads(reads["/log?limit=1000"])["entries"]
        for entry in log:
            if entry["event"] in ("DiceRolled", "CupRerolled"):
                own = view["your_side"] == entry["detail"]["side"]
                assert ("dice" in entry["detail"]) == own, (seat, entry)
            if entry["event"] == "Announced" and entry["stream"].startswith("Challenge"):
                assert "secret_seed" not in entry["detail"]
    # An error message leaks nothing either: a player acting for the House side is refused first.
    r = client.post(f"{c}/challenges/{ch}/actions", headers=t["ilse"], json={"action": "raise", "amount": 2})
    assert r.status_code == 422 and "Cunning" not in r.text and secret not in r.text
    r = client.post(f"{c}/challenges/{ch}/actions", headers=t["tomas"], json={"action": "check"})
    assert r.status_code == 403
    # After settlement the whole challenge is public.
    act(client, c, ch, t["house"], "fold")
    for token in t.values():
        view = client.get(f"{c}/challenges/{ch}", headers=token).json()
        assert view["secret_seed"] == secret
        assert all(d["value"] is not None for s in view["sides"].values() for d in s["dice"])
        log = client.get(f"{c}/log?limit=1000", headers=token).json()["entries"]
        assert all("dice" in e["detail"] for e in log if e["event"] == "DiceRolled")


def test_a_challenge_refusal_over_http_names_its_ruling_and_stores_nothing(client, table):
    c, t = table
    ch = play_to_betting(client, c, t)
    before = len(client.get(f"{c}/log?limit=1000", headers=t["house"]).json()["entries"])
    for token, body, ruling in (
        (t["ilse"], {"action": "check"}, "PA-9"),
        (t["house"], {"action": "raise", "amount": 3}, "PA-9"),
        (t["house"], {"action": "raise", "amount": 400}, "PA-17"),  # beyond the stake (its whole purse)
        (t["house"], {"action": "circumstance", "text": "x"}, "PA-7"),
        (t["tomas"], {"action": "lend", "borrower": "ilse", "amount": 31}, "PA-14"),
        (t["tomas"], {"action": "bid", "member": "ilse", "amount": 1}, "PA-15"),
    ):
        r = client.post(f"{c}/challenges/{ch}/actions", headers=token, json=body)
        assert r.status_code == 422 and r.json()["ruling"] == ruling, (body, r.text)
    r = client.post(f"{c}/challenges/{ch}/actions", headers=t["house"], json={"action": "teleport"})
    assert r.status_code == 422 and r.headers["content-type"] == "application/problem+json"
    assert len(client.get(f"{c}/log?limit=1000", headers=t["house"]).json()["entries"]) == before


def test_a_challenge_is_announced_only_during_an_adventure_and_for_known_sides(client, table):
    c, t = table
    client.post(f"{c}/adventures/current/end", headers=t["house"])
    r = client.post(f"{c}/challenges", headers=t["ilse"], json={
        "challenger": {"players": ["ilse"]}, "opponent": {"players": ["tomas"]}, "ante": 1})
    assert r.status_code == 422 and r.json()["ruling"] == "C-1"
    client.post(f"{c}/adventures", headers=t["house"])
    r = client.post(f"{c}/challenges", headers=t["ilse"], json={
        "challenger": {"players": ["ilse"]}, "opponent": {"players": ["nobody"]}, "ante": 1})
    assert r.status_code == 404


def test_an_offer_of_an_earlier_betting_round_is_never_advertised_once_its_round_is_over(client, table):
    """PA-14: a loan offered in a betting round is accepted inside that round. When its lender offers again
    in the next round and that offer is declined, the first one is still closed: never listed as accept-loan,
    and refused if sent."""
    c, t = table
    ch = play_to_betting(client, c, t)
    act(client, c, ch, t["tomas"], "lend", borrower="ilse", amount=4)  # round 1, left unanswered
    act(client, c, ch, t["house"], "check")
    act(client, c, ch, t["ilse"], "check")
    act(client, c, ch, t["house"], "roll")
    act(client, c, ch, t["ilse"], "roll")
    act(client, c, ch, t["ilse"], "seed", seed="fresh words")  # C-9: the reroll comes with it
    view = act(client, c, ch, t["tomas"], "lend", borrower="ilse", amount=5)  # round 2
    offers = client.get(f"{c}/challenges/{ch}", headers=t["ilse"]).json()["loan_offers"]
    assert [(o["amount"], o["open"]) for o in offers] == [(4, False), (5, True)]
    second = next(o["loan_id"] for o in offers if o["amount"] == 5)
    assert client.post(f"{c}/loans/{second}/decline", headers=t["ilse"]).status_code == 200
    view = client.get(f"{c}/challenges/{ch}", headers=t["ilse"]).json()
    assert [(o["amount"], o["open"]) for o in view["loan_offers"]] == [(4, False)]
    assert "accept-loan" not in {a["action"] for a in view["legal_actions"]}
    first = view["loan_offers"][0]["loan_id"]
    r = client.post(f"{c}/loans/{first}/accept", headers=t["ilse"])
    assert r.status_code == 422 and r.json()["ruling"] == "PA-14"


def test_an_antagonist_named_like_a_players_seat_lends_that_player_neither_its_purse_nor_its_secrets(client, table):
    c, t = table
    r = client.post(f"{c}/antagonists", headers=t["house"], json={"name": "tomas", "characteristics": ["Hidden Blade"]})
    assert r.status_code == 201, r.text
    r = client.post(f"{c}/challenges", headers=t["tomas"], json={
        "challenger": {"players": ["tomas"]}, "opponent": {"players": ["ilse"]}, "ante": 1})
    assert r.status_code == 201, r.text
    view = client.get(f"{c}/challenges/{r.json()['id']}", headers=t["tomas"]).json()
    declare = next(a for a in view["legal_actions"] if a["action"] == "declare")
    assert declare["choices"] == ["Love Conquers All"]  # his own list only: the antagonist's stays hidden (C-5)
    assert "Hidden Blade" not in json.dumps(view)


def test_dice_a_rewind_abandoned_unseen_stay_hidden_in_the_log_and_replay_when_the_challenge_is_shown(client):
    created = client.post("/campaigns", json={"name": "Jade", "settings": {"table_dice": True}}).json()
    c, house = f"/campaigns/{created['campaign']['id']}", bearer(created["house_token"])
    t = {"house": house}
    for seat, trait in (("ilse", "Quick"), ("tomas", "Big")):
        t[seat] = player_headers(client, client.post(f"{c}/players", headers=house, json={
            "seat": seat, "character": seat.title(), "characteristic": trait}).json())
    client.post(f"{c}/adventures", headers=house, json={})
    ch = client.post(f"{c}/challenges", headers=t["ilse"], json={
        "challenger": {"players": ["ilse"]}, "opponent": {"players": ["tomas"]}, "ante": 25}).json()["id"]
    act(client, c, ch, t["ilse"], "declare", characteristics=["Quick"])
    act(client, c, ch, t["tomas"], "declare", characteristics=[])
    act(client, c, ch, t["ilse"], "roll", dice=[1, 5])  # under her cup: the 5 is hers alone (C-5)
    act(client, c, ch, t["tomas"], "roll", dice=[6])
    assert client.post(f"{c}/challenges/{ch}/rewind", headers=house, json={"to_step": 1, "reason": "redo"}
                       ).status_code == 200
    for seat, action, args in (("ilse", "declare", {"characteristics": []}), ("tomas", "declare", {"characteristics": []}),
                               ("ilse", "roll", {"dice": [1]}), ("tomas", "roll", {"dice": [6]}),
                               ("ilse", "keep", {"cup": []}), ("tomas", "keep", {"cup": []}), ("ilse", "check", {}),
                               ("tomas", "check", {}), ("ilse", "roll", {}), ("tomas", "roll", {}),
                               ("ilse", "check", {}), ("tomas", "check", {})):
        view = act(client, c, ch, t[seat], action, **args)
    assert view["phase"] == "bankruptcy"  # shown to every seat (the showdown), not settled: it may be rewound
    log = client.get(f"{c}/log?limit=500", headers=t["tomas"]).json()["entries"]
    rolled = [e["detail"].get("dice") for e in log if e["event"] == "DiceRolled" and e["detail"].get("side") == "challenger"]
    assert rolled == [None, [1]]  # the abandoned roll [1, 5] stays hers; the shown one is public (C-8)
    replay = client.get(f"{c}/challenges/{ch}/replay", headers=t["tomas"]).json()["steps"]
    first = next(s for s in replay if s["event"] == "DiceRolled")["state"]["sides"]["challenger"]["dice"]
    assert len(first) == 2 and all(d["value"] is None for d in first), first


def test_a_loan_offered_into_a_round_is_not_listed_for_acceptance_once_the_lender_cannot_cover_it(client):
    created = client.post("/campaigns", json={"name": "Jade", "settings": {"table_dice": True}}).json()
    c, house = f"/campaigns/{created['campaign']['id']}", bearer(created["house_token"])
    t = {"house": house}
    for seat in ("ilse", "tomas", "mara", "bo"):
        t[seat] = player_headers(client, client.post(f"{c}/players", headers=house, json={
            "seat": seat, "character": seat.title(), "characteristic": "Sly"}).json())
    client.post(f"{c}/adventures", headers=house, json={})
    ch = client.post(f"{c}/challenges", headers=t["ilse"], json={
        "challenger": {"players": ["ilse"]}, "opponent": {"players": ["tomas"]}, "ante": 1}).json()["id"]
    for seat, action, args in (("ilse", "declare", {"characteristics": []}), ("tomas", "declare", {"characteristics": []}),
                               ("ilse", "roll", {"dice": [1]}), ("tomas", "roll", {"dice": [6]}),
                               ("ilse", "keep", {"cup": []}), ("tomas", "keep", {"cup": []})):
        act(client, c, ch, t[seat], action, **args)
    act(client, c, ch, t["mara"], "lend", borrower="ilse", amount=25)  # all she holds
    listed = [a for a in client.get(f"{c}/challenges/{ch}", headers=t["ilse"]).json()["legal_actions"]
              if a["action"] == "accept-loan"]
    assert [a["amount"] for a in listed] == [25]
    loan = client.post(f"{c}/loans", headers=t["mara"], json={"borrower": "bo", "amount": 10}).json()["loan_id"]
    assert client.post(f"{c}/loans/{loan}/accept", headers=t["bo"]).status_code < 300
    view = client.get(f"{c}/challenges/{ch}", headers=t["ilse"]).json()
    assert all(a["action"] != "accept-loan" for a in view["legal_actions"])  # PA-14: 15 left, not 25
    r = client.post(f"{c}/loans/{listed[0]['loan']}/accept", headers=t["ilse"])
    assert r.status_code == 422 and r.json()["ruling"] == "PA-14"


def test_the_table_waits_for_nobody_over_an_optional_circumstance_pa7(client, table):
    """A circumstance (PA-7) or a double-down (PA-13) may always be added, and the challenge goes on without
    one: a seat whose only moves are such is not waited for, nor told "your move"."""
    c, t = table
    ch = client.post(f"{c}/challenges", headers=t["house"], json={
        "challenger": {"antagonist": "Lady Sen"}, "opponent": {"players": ["ilse"]}, "ante": 2}).json()["id"]

    def waiting(seat: str) -> dict[str, list[str]]:
        return client.get(f"{c}/challenges/{ch}/waiting", headers=t[seat]).json()["seats"]

    ilse_moves = {a["action"] for a in client.get(f"{c}/challenges/{ch}", headers=t["ilse"]).json()["legal_actions"]}
    assert ilse_moves == {"circumstance"}  # she may add one now; her seed comes after the House's naming (C-9)
    assert list(waiting("ilse")) == ["house"] and "declare" in waiting("house")["house"]
    act(client, c, ch, t["house"], "declare", characteristics=["Poison"])
    house_moves = {a["action"] for a in client.get(f"{c}/challenges/{ch}", headers=t["house"]).json()["legal_actions"]}
    assert "circumstance" in house_moves and "declare" not in house_moves
    assert list(waiting("house")) == ["ilse"]  # the House may still add a circumstance; nobody waits for it
