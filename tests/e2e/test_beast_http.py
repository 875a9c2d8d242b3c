"""Humanity and Beast over HTTP on both stores (BE-1 … BE-12), its hidden information (C-5) and C-8."""

from __future__ import annotations

import re

import pytest

from tests.e2e.conftest import bearer, player_headers

IDS = re.compile(r"[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}")
POSITIONS = re.compile(r'"(position|next_after)":\d+')  # the store's own numbering, shared by both campaigns
TIMES = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(\+00:00|Z)?")


def new_table(client, cole: dict | None = None, **settings):
    created = client.post("/campaigns", json={"name": "Night", "system": "beast", "settings": settings}).json()
    cid, house = created["campaign"]["id"], bearer(created["house_token"])
    c, t = f"/campaigns/{cid}", {"house": house}
    r = client.post(f"{c}/players", headers=house, json={"seat": "ilse", "character": "Ilse", "humanity": 6})
    assert r.status_code == 201 and r.json()["sheet"]["beast"] == 4, r.text
    t["ilse"] = player_headers(client, r.json())
    t["tomas"] = player_headers(client, client.post(f"{c}/players", headers=house,
                                                    json={"seat": "tomas", "character": "Tomas"}).json())
    r = client.post(f"{c}/antagonists", headers=house, json={"name": "Sheriff Cole", **(cole or {"humanity": 4,
                                                                                             "willpower": 3})})
    assert r.status_code == 201, r.text
    assert client.post(f"{c}/adventures", headers=house, json={}).status_code == 201  # C-1: units of resolution happen during an adventure
    return c, t


def act(client, c, unit, token, action, expect=200, **args):
    r = client.post(f"{c}/challenges/{unit}/actions", headers=token, json={"action": action, **args})
    assert r.status_code == expect, r.text
    return r.json()


def test_a_conflict_with_a_willpower_reroll_and_humanity_checks_is_played_over_http(client):
    c, t = new_table(client, table_dice=True)
    unit = client.post(f"{c}/conflicts", headers=t["ilse"], json={"against": "Sheriff Cole"}).json()["id"]
    act(client, c, unit, t["ilse"], "seed", seed="Ilse's words")
    view = act(client, c, unit, t["ilse"], "roll", humanity=2, beast=3, dice=[7, 3, 6, 6, 10, 2])
    dice = view["state"]["sides"]["challenger"]["roll"]["dice"]
    assert [d["text"] for d in dice] == ["H 7 ✓", "H 3 ✗", "B 6 ✓", "B 6 ✓", "B 10→2 ✓"]
    assert {a["action"] for a in view["legal_actions"]} == {"reroll", "keep"}
    view = act(client, c, unit, t["ilse"], "reroll", die=2, dice=[8])
    assert view["state"]["sides"]["challenger"]["roll"]["dice"][1]["text"] == "H 8 ✓ (was 3 ✗)"
    act(client, c, unit, t["house"], "roll", humanity=2, beast=2, dice=[1, 2, 6, 1])
    hidden = client.get(f"{c}/challenges/{unit}", headers=t["tomas"]).json()
    assert hidden["state"]["sides"]["opponent"]["roll"] == {"hidden": True}
    view = act(client, c, unit, t["house"], "keep")
    out = view["state"]["outcome"]
    assert out["winner"] == "challenger" and out["difference"] == 4 and out["damage"] == {"opponent": 3}
    assert out["checks"] == {"challenger": ["beast above humanity"], "opponent": ["beast above humanity"]}
    seen = client.get(f"{c}/challenges/{unit}", headers=t["tomas"]).json()["state"]["outcome"]
    assert seen["damage"] == {"opponent": "hidden"} and seen["checks"]["opponent"] == ["hidden"]  # C-5 until settled
    act(client, c, unit, t["ilse"], "check", dice=[1, 2, 3, 4, 5, 6])
    view = act(client, c, unit, t["house"], "check", side="opponent", dice=[7, 1, 1, 1])
    assert view["phase"] == "settled" and view["state"]["sides"]["opponent"]["check"]["outcome"] == "held"
    sheet = client.get(f"{c}/characters/ilse", headers=t["tomas"]).json()
    assert (sheet["humanity"], sheet["beast"], sheet["willpower"]) == (5, 5, 5)
    assert sheet["checks"][0]["detail"]["outcome"] == "slipped"
    assert [line["what"] for line in sheet["history"]][:3] == ["adjusted", "check", "outcome"]
    assert sheet["history"][2]["detail"]["against"] == "Sheriff Cole"  # whom the conflict was against (BE-6)
    cole = client.get(f"{c}/house-characters", headers=t["house"]).json()[0]
    assert (cole["willpower"], cole["humanity"]) == (0, 4)
    assert client.get(f"{c}/house-characters", headers=t["ilse"]).json() == [
        {"name": "Sheriff Cole", "humanity": None, "beast": None, "willpower": None, "willpower_max": None,
         "lost": None, "history": None}]
    verified = client.get(f"{c}/challenges/{unit}/verify", headers=t["ilse"]).json()
    assert verified["entered"] == 21 and verified["mismatches"] == [] and verified["commitment_matches"]
    replay = client.get(f"{c}/challenges/{unit}/replay", headers=t["tomas"]).json()
    assert [s["event"] for s in replay["steps"]] == ["Opened", "SeedAdded", "Rolled", "Decided", "RolledInSecret",
                                                     "DecidedInSecret", "Resolved", "Checked", "CheckedInSecret"]
    r = client.post(f"{c}/willpower", headers=t["house"], json={"character": "Sheriff Cole", "amount": 5})
    assert r.status_code == 200
    assert client.get(f"{c}/house-characters", headers=t["house"]).json()[0]["willpower"] == 3
    r = client.post(f"{c}/challenges/{unit}/overturn", headers=t["house"], json={"void": True, "reason": "a dream"})
    assert r.status_code == 200 and r.json()["state"]["overturned"]["void"]
    sheet = client.get(f"{c}/characters/ilse", headers=t["ilse"]).json()
    assert (sheet["humanity"], sheet["willpower"]) == (6, 6)
    # the sheet's history says the result was overturned (C-6), not only what it moved back
    noted = next(line for line in sheet["history"] if line["what"] == "overturned")
    assert noted["detail"] == {"kind": "conflict", "void": True, "reason": "a dream", "won": None}
    assert client.get(f"{c}/audit", headers=t["tomas"]).json()["intact"]


def test_an_action_is_rolled_over_http_and_verify_proves_every_server_die(client):
    c, t = new_table(client)
    r = client.post(f"{c}/actions", headers=t["ilse"], json={"difficulty": 4, "humanity": 3, "beast": 2,
                                                              "willpower": "before", "seed": "mine"})
    assert r.status_code == 201, r.text
    view = r.json()
    assert view["system"] == "beast" and view["state"]["outcome"] is not None  # kept at once: no reroll left
    unit = view["id"]
    while view["phase"] == "check":
        view = act(client, c, unit, t["ilse"], "check")
    verified = client.get(f"{c}/challenges/{unit}/verify", headers=t["tomas"]).json()
    assert verified["checked"] >= 5 and verified["mismatches"] == [] and verified["side_seeds"][0] == "mine"
    assert client.get(f"{c}/characters/ilse", headers=t["ilse"]).json()["willpower"] == 5


def test_in_manual_mode_the_table_waits_for_the_house_to_record_a_players_check(client):
    c, t = new_table(client, table_dice=True, check_mode="manual")
    r = client.post(f"{c}/actions", headers=t["ilse"], json={"difficulty": 2, "humanity": 1, "beast": 2,
                                                              "dice": [1, 6, 6]})
    assert r.status_code == 201, r.text
    unit = r.json()["id"]
    view = act(client, c, unit, t["ilse"], "keep")
    assert view["phase"] == "check" and view["state"]["outcome"]["checks"] == {"challenger": ["beast above humanity"]}
    # BE-7: the House records the outcome, so the unit waits for the House though it plays no side
    assert view["waiting_for"] == ["house"]
    assert [a["action"] for a in client.get(f"{c}/challenges/{unit}", headers=t["house"]).json()["legal_actions"]] \
        == ["check", "abandon"]  # and, while the unit is open, abandon (C-10)
    assert act(client, c, unit, t["house"], "check", side="challenger", outcome="held")["waiting_for"] == []


@pytest.mark.parametrize("path, body, token, status, ruling", [
    ("/actions", {"difficulty": 1, "humanity": 1, "beast": 0}, "ilse", 422, "BE-2"),
    ("/actions", {"difficulty": 3, "humanity": 7, "beast": 0}, "ilse", 422, "BE-2"),
    ("/actions", {"difficulty": 3, "humanity": True, "beast": 0}, "ilse", 422, "BE-2"),
    ("/actions", {"difficulty": 3, "humanity": 1, "beast": 0}, "house", 403, "C-1"),
    ("/players", {"seat": "mara", "character": "Mara", "humanity": 0}, "house", 422, "BE-9"),
    ("/antagonists", {"name": "Sheriff Cole"}, "house", 422, "BE-1"),
    ("/antagonists", {"name": "Lady Sen", "characteristics": ["Poison"]}, "house", 422, "BE-1"),
    ("/willpower", {"character": "ilse", "amount": 1}, "house", 422, "BE-8"),
    ("/willpower", {"character": "ilse", "amount": 1}, "ilse", 403, "C-1"),
    ("/conflicts", {"against": "Nobody"}, "ilse", 404, None),
    ("/conflicts", {"against": "ilse"}, "ilse", 422, "BE-6"),
    ("/budget", None, "ilse", 422, "C-1"),
])
def test_beast_refusals_name_their_ruling_and_store_nothing(client, path, body, token, status, ruling):
    c, t = new_table(client)
    before = client.get(f"{c}/log?limit=1000", headers=t["house"]).json()["entries"]
    r = client.post(f"{c}{path}", headers=t[token], json=body) if body is not None else \
        client.get(f"{c}{path}", headers=t[token])
    assert r.status_code == status, r.text
    if ruling:
        assert r.json()["ruling"] == ruling, r.text
    assert client.get(f"{c}/log?limit=1000", headers=t["house"]).json()["entries"] == before


def _reads(client, c, unit, token) -> str:
    paths = ["/challenges", f"/challenges/{unit}", f"/challenges/{unit}/replay", f"/challenges/{unit}/verify",
             "/log?limit=1000", "/characters", "/characters/ilse", "/house-characters", ""]
    text = "\n".join(client.get(f"{c}{p}", headers=token).text for p in paths)
    return POSITIONS.sub("<n>", TIMES.sub("<t>", IDS.sub("<id>", text)))


def _shape(client, c, unit, token) -> dict:
    """What the log's size and numbering tell a seat (C-5): how many events the campaign holds, where each
    entry the seat may read sits among them, and whom the table waits for, with which moves."""
    log = client.get(f"{c}/log?limit=1000", headers=token).json()["entries"]
    return {"events": client.get(f"{c}/audit", headers=token).json()["events"],
            "size": client.get(f"{c}/audit/checkpoint", headers=token).json()["size"],
            "positions": [e["position"] - log[0]["position"] for e in log],
            "waiting": client.get(f"{c}/challenges/{unit}/waiting", headers=token).json()["seats"]}


@pytest.mark.parametrize("secret", [{"humanity": 8, "willpower": 9}, {"humanity": 2, "willpower": 1}])
def test_an_antagonists_sheet_and_dice_leak_to_no_player_before_the_house_shows_them(client, monkeypatch, secret):
    monkeypatch.setattr("adapters.randomness.new_secret_seed", lambda: "f1x3d" * 12)
    seen = []
    for cole, allocation, spent in (({"humanity": 4, "willpower": 3}, (2, 2), {}),
                                    (secret, (1, 1), {"willpower": "before"})):
        c, t = new_table(client, cole=cole)
        unit = client.post(f"{c}/conflicts", headers=t["ilse"], json={"against": "Sheriff Cole"}).json()["id"]
        # C-9: the House declares the split first (its entry hides it), then the player's input
        act(client, c, unit, t["house"], "prepare", humanity=allocation[0], beast=allocation[1], **spent)
        act(client, c, unit, t["ilse"], "pass")  # C-10: the antagonist rolls once the players' input is in
        act(client, c, unit, t["house"], "roll", humanity=allocation[0], beast=allocation[1], **spent)
        act(client, c, unit, t["ilse"], "roll", humanity=3, beast=1)
        seen.append({seat: (_reads(client, c, unit, t[seat]), _shape(client, c, unit, t[seat]))
                     for seat in ("ilse", "tomas")})
        assert "hidden" in seen[-1]["ilse"][0]
    assert seen[0] == seen[1]


def test_a_revealed_roll_stays_public_after_a_rewind_marked_as_seen_before_it(client):
    c, t = new_table(client, table_dice=True)
    unit = client.post(f"{c}/conflicts", headers=t["ilse"], json={"against": "Sheriff Cole"}).json()["id"]
    act(client, c, unit, t["ilse"], "roll", humanity=1, beast=0, dice=[9])
    act(client, c, unit, t["house"], "roll", humanity=1, beast=1, dice=[4, 6])  # step 3
    act(client, c, unit, t["house"], "reveal")
    assert client.get(f"{c}/challenges/{unit}", headers=t["tomas"]).json()["state"]["sides"]["opponent"]["roll"][
        "score"]["total"] == 1
    r = client.post(f"{c}/challenges/{unit}/rewind", headers=t["house"], json={"to_step": 2, "reason": "misread"})
    assert r.status_code == 200, r.text
    view = client.get(f"{c}/challenges/{unit}", headers=t["tomas"]).json()["state"]
    assert view["sides"]["opponent"]["roll"] is None and len(view["seen_before_rewind"]) == 2
    log = client.get(f"{c}/log?limit=1000", headers=t["tomas"]).json()["entries"]
    shown = next(e for e in log if e["event"] == "Revealed")
    assert shown["detail"]["roll"]["score"]["total"] == 1 and shown["hidden"] == []
    house = client.get(f"{c}/challenges/{unit}", headers=t["house"]).json()["legal_actions"]
    roll = next(a for a in house if a["action"] == "roll")  # C-7: the slots filled before, to enter the same
    assert roll["fixed"] == [{"slot": ["opponent", "die", 0, 0], "value": 4},
                             {"slot": ["opponent", "die", 1, 0], "value": 6}]
    assert all(a.get("fixed") is None for a in client.get(f"{c}/challenges/{unit}", headers=t["ilse"]).json()[
        "legal_actions"])  # the House's dice are in the House's legal actions only
    act(client, c, unit, t["house"], "roll", expect=422, humanity=1, beast=1, dice=[5, 6])  # C-7: the same dice
    act(client, c, unit, t["house"], "roll", humanity=1, beast=1, dice=[4, 6])
    state = client.get(f"{c}/challenges/{unit}", headers=t["tomas"]).json()["state"]
    # the faces seen before stay public (C-8); the new roll's split and choices are the House's (C-5)
    assert state["sides"]["opponent"]["roll"] == {"hidden": True}
    assert [s["value"] for s in state["seen_before_rewind"]] == [4, 6]


def test_an_antagonists_humanity_check_leaks_to_no_player_before_the_conflict_settles(client):
    seen = []
    for humanity, dice in ((4, [1] * 4), (8, [7] + [1] * 7)):  # the House's secrets: Humanity and the check
        c, t = new_table(client, cole={"humanity": humanity, "willpower": 3}, table_dice=True)
        unit = client.post(f"{c}/conflicts", headers=t["ilse"], json={"against": "Sheriff Cole"}).json()["id"]
        act(client, c, unit, t["ilse"], "roll", humanity=0, beast=2, dice=[6, 6])
        act(client, c, unit, t["ilse"], "keep")
        act(client, c, unit, t["house"], "roll", humanity=1, beast=1, dice=[1, 6])
        view = act(client, c, unit, t["house"], "keep")
        assert set(view["state"]["outcome"]["checks"]) == {"challenger", "opponent"}
        act(client, c, unit, t["house"], "check", side="opponent", dice=dice)
        seen.append({seat: (_reads(client, c, unit, t[seat]), _shape(client, c, unit, t[seat]))
                     for seat in ("ilse", "tomas")})
        assert '"check":{"hidden":true}' in seen[-1]["tomas"][0]
    assert seen[0] == seen[1]


def test_an_antagonists_secret_willpower_and_check_reach_its_sheet_when_the_conflict_settles(client):
    """Its Willpower point and its slipped check change the antagonist's sheet only at the settlement: an
    earlier change would be an event in every seat's log numbering (C-5). The rules still count the point
    spent (BE-12: the trigger compares with Willpower after it)."""
    c, t = new_table(client, cole={"humanity": 4, "willpower": 3}, table_dice=True)
    unit = client.post(f"{c}/conflicts", headers=t["ilse"], json={"against": "Sheriff Cole"}).json()["id"]
    act(client, c, unit, t["ilse"], "roll", humanity=0, beast=2, dice=[6, 6])
    act(client, c, unit, t["ilse"], "keep")
    act(client, c, unit, t["house"], "roll", humanity=4, beast=3, willpower="before", dice=[7, 7, 7, 7, 6, 6, 6])
    view = act(client, c, unit, t["house"], "keep")
    assert view["state"]["outcome"]["checks"]["opponent"] == ["beast above willpower"]  # 3 > 3 - 1 (BE-12)
    cole = client.get(f"{c}/house-characters", headers=t["house"]).json()[0]
    assert (cole["willpower"], cole["humanity"]) == (3, 4)  # nothing shows while the conflict is open
    act(client, c, unit, t["house"], "check", side="opponent", dice=[1, 1, 1, 1])
    view = act(client, c, unit, t["ilse"], "check", dice=[7] * 6)
    assert view["phase"] == "settled"
    cole = client.get(f"{c}/house-characters", headers=t["house"]).json()[0]
    assert (cole["willpower"], cole["humanity"]) == (3 - 1 - view["state"]["outcome"]["damage"].get("opponent", 0), 3)
    assert [line["detail"]["why"] for line in cole["history"] if line["what"] == "adjusted"] == ["settled"]


def test_a_conflict_a_side_could_never_roll_in_is_refused_when_it_opens(client):
    """BE-9, BE-2: refused at the open instead of leaving the table waiting for a roll nobody may make."""
    c, t = new_table(client, cole={"humanity": 2, "willpower": 3})
    r = client.post(f"{c}/conflicts", headers=t["ilse"], json={"against": "Tomas", "min_humanity": 7})
    assert r.status_code == 422 and r.json()["ruling"] == "BE-2" and "Ilse has 6 Humanity" in r.json()["detail"]
    # the antagonist's split is the House's: a player asks it no minimum, whatever the split (C-5)
    for cole in (1, 2):
        r = client.post(f"{c}/conflicts", headers=t["ilse"], json={"against": "Sheriff Cole", "min_humanity": cole})
        assert r.status_code == 422 and r.json()["ruling"] == "BE-2" and "House opens" in r.json()["detail"]
    r = client.post(f"{c}/conflicts", headers=t["house"], json={"player": "ilse", "against": "Sheriff Cole",
                                                                 "min_humanity": 3})
    assert r.status_code == 422 and "Sheriff Cole has 2 Humanity" in r.json()["detail"]
    assert client.get(f"{c}/challenges", headers=t["house"]).json() == []


def test_a_rewind_to_the_step_between_the_last_decision_and_its_result_is_refused(client):
    """C-6: that step is inside one move; stopping there would leave a unit nobody can move on."""
    c, t = new_table(client, table_dice=True)
    unit = client.post(f"{c}/conflicts", headers=t["ilse"], json={"against": "Tomas"}).json()["id"]
    # Beast above Humanity on both sides: Humanity checks follow, so the conflict is still open after the result
    act(client, c, unit, t["ilse"], "roll", humanity=1, beast=3, dice=[1, 6, 6, 6])
    act(client, c, unit, t["tomas"], "roll", humanity=1, beast=3, dice=[1, 6, 6, 6])
    act(client, c, unit, t["ilse"], "keep")
    steps = client.get(f"{c}/challenges/{unit}/replay", headers=t["house"]).json()["steps"]
    before = len(steps)
    view = act(client, c, unit, t["tomas"], "keep")  # the last decision, and the result with it
    check = next(a for a in view["legal_actions"] if a["action"] == "check")
    assert check["dice"] == 7  # C-3: one d10 per point of Tomas's Humanity (BE-12)
    steps = client.get(f"{c}/challenges/{unit}/replay", headers=t["house"]).json()["steps"]
    inside = next(s["step"] for s in steps[before:] if s["event"] != "Resolved" and
                  steps[steps.index(s) + 1]["event"] == "Resolved")
    r = client.post(f"{c}/challenges/{unit}/rewind", headers=t["house"], json={"to_step": inside, "reason": "x"})
    assert r.status_code == 422 and r.json()["ruling"] == "C-6", r.text
    r = client.post(f"{c}/challenges/{unit}/rewind", headers=t["house"], json={"to_step": inside - 1, "reason": "x"})
    assert r.status_code == 200, r.text


@pytest.mark.parametrize("willpower", [1, 2, 9])
def test_whether_an_antagonists_willpower_set_off_its_check_leaks_to_no_player_while_the_conflict_is_open(
        client, monkeypatch, willpower):
    """C-5: the antagonist's check (auto mode) is made with the result, in the House's part of it; players see
    the same steps, entries and waits whatever its secret Willpower."""
    monkeypatch.setattr("adapters.randomness.new_secret_seed", lambda: "f1x3d" * 12)
    seen = []
    for cole in ({"humanity": 6, "willpower": 9}, {"humanity": 6, "willpower": willpower}):
        c, t = new_table(client, cole=cole)
        unit = client.post(f"{c}/conflicts", headers=t["ilse"], json={"against": "Sheriff Cole"}).json()["id"]
        # its faces are 1 7 6 9 | 8 7: Humanity 2, Beast 2 successes, so only a Willpower below 2 sets it off
        act(client, c, unit, t["house"], "prepare", humanity=4, beast=2)  # C-9: before the player's input
        act(client, c, unit, t["ilse"], "pass")  # C-10: her pass (the empty seed) changes no die
        act(client, c, unit, t["house"], "roll", humanity=4, beast=2)
        act(client, c, unit, t["house"], "keep")
        act(client, c, unit, t["ilse"], "roll", humanity=0, beast=4)
        act(client, c, unit, t["ilse"], "keep")
        view = act(client, c, unit, t["ilse"], "seed", seed="fresh words")  # C-9: then the outcome
        assert view["phase"] == "check" and "ilse" in view["waiting_for"]  # her own check keeps it open
        seen.append({seat: (_reads(client, c, unit, t[seat]), _shape(client, c, unit, t[seat]))
                     for seat in ("ilse", "tomas")})
    assert seen[0] == seen[1]


@pytest.mark.parametrize("mode", [{"check_mode": "manual"}, {"table_dice": True}])
def test_with_a_check_the_house_makes_as_a_move_players_cannot_tell_whether_its_antagonist_had_one(client, mode):
    """C-5: in manual mode or with table dice the House makes (or confirms) a check for its antagonist after
    every conflict, due or not, so the step, its entry and the wait are the same whatever its Willpower."""
    seen = []
    for willpower in (3, 1):  # Cole rolls Beast 2, Humanity 2: a check only below Willpower 2 (BE-7)
        c, t = new_table(client, cole={"humanity": 4, "willpower": willpower}, **{"table_dice": True, **mode})
        unit = client.post(f"{c}/conflicts", headers=t["ilse"], json={"against": "Sheriff Cole"}).json()["id"]
        act(client, c, unit, t["ilse"], "roll", humanity=0, beast=2, dice=[6, 6])
        act(client, c, unit, t["ilse"], "keep")
        act(client, c, unit, t["house"], "roll", humanity=2, beast=2, dice=[7, 7, 6, 6])
        view = act(client, c, unit, t["house"], "keep")
        assert view["phase"] == "check" and "house" in view["waiting_for"]
        legal = client.get(f"{c}/challenges/{unit}", headers=t["house"]).json()["legal_actions"]
        check = next(a for a in legal if a["action"] == "check" and a["member"] == "opponent")
        body = {"outcome": "held"} if "check_mode" in mode else {"dice": [1] * check["dice"]}
        act(client, c, unit, t["house"], "check", side="opponent", **body)
        seen.append({seat: (_reads(client, c, unit, t[seat]), _shape(client, c, unit, t[seat]))
                     for seat in ("ilse", "tomas")})
    assert seen[0] == seen[1]


def test_an_antagonists_reroll_waits_for_the_players_fresh_seed_and_whether_it_rerolled_leaks_to_no_player(
        client, monkeypatch):
    """C-9, C-10 (ADR 0041): once both sides decided, the player adds a fresh seed (listed as `seed`, `fresh`,
    never a pass) and the antagonist's reroll is drawn with it; until then every player reads the same whether
    the House rerolled or kept (C-5)."""
    monkeypatch.setattr("adapters.randomness.new_secret_seed", lambda: "f1x3d" * 12)
    seen, drawn = [], []
    for house in ({"action": "reroll", "die": 1}, {"action": "keep"}):
        c, t = new_table(client, cole={"humanity": 6, "willpower": 9})
        unit = client.post(f"{c}/conflicts", headers=t["ilse"], json={"against": "Sheriff Cole"}).json()["id"]
        act(client, c, unit, t["house"], "prepare", humanity=4, beast=2)
        act(client, c, unit, t["ilse"], "seed", seed="Ilse's words")
        act(client, c, unit, t["house"], "roll", humanity=4, beast=2)
        act(client, c, unit, t["ilse"], "roll", humanity=3, beast=2)
        act(client, c, unit, t["house"], **house)
        view = act(client, c, unit, t["ilse"], "keep")
        assert view["phase"] == "deciding" and "ilse" in view["waiting_for"]
        fresh = [{k: v for k, v in a.items() if v is not None} for a in view["legal_actions"]
                 if a["action"] in ("seed", "pass")]
        assert fresh == [{"action": "seed", "member": "challenger", "fresh": True, "required": ["seed"]}]
        act(client, c, unit, t["ilse"], "pass", expect=422)  # C-9: a fresh seed has words
        seen.append({seat: (_reads(client, c, unit, t[seat]), _shape(client, c, unit, t[seat]))
                     for seat in ("ilse", "tomas")})
        done = act(client, c, unit, t["ilse"], "seed", seed="fresh words")
        assert done["state"]["outcome"] is not None
        drawn.append([r for r in client.get(f"{c}/challenges/{unit}/verify", headers=t["house"]).json().get(
            "results", []) if r["slot"][1:3] == ["reroll", "fresh"]])
    assert seen[0] == seen[1]
    if drawn[0]:  # settled at once: the reroll's slot carries the fresh seed (docs/fairness.md)
        assert drawn[0][0]["slot"][:4] == ["opponent", "reroll", "fresh", "fresh words"]


def test_the_overturn_form_names_the_house_character_who_may_win_now_not_the_house_c6(client):
    from tests.e2e.test_web_http import sign_in

    c, t = new_table(client, table_dice=True)
    unit = client.post(f"{c}/conflicts", headers=t["ilse"], json={"against": "Sheriff Cole"}).json()["id"]
    act(client, c, unit, t["ilse"], "seed", seed="Ilse's words")
    act(client, c, unit, t["ilse"], "roll", humanity=2, beast=3, dice=[7, 3, 6, 6, 10, 2])
    act(client, c, unit, t["ilse"], "keep")
    act(client, c, unit, t["house"], "roll", humanity=2, beast=2, dice=[1, 2, 6, 1])
    act(client, c, unit, t["house"], "keep")
    act(client, c, unit, t["ilse"], "check", dice=[1, 2, 3, 4, 5, 6])
    view = act(client, c, unit, t["house"], "check", side="opponent", dice=[7, 1, 1, 1])
    assert view["phase"] == "settled" and view["state"]["outcome"]["winner"] == "challenger"
    client.cookies.clear()
    sign_in(client, t["house"]["Authorization"].split(" ", 1)[1])
    page = client.get(f"/web/units/{unit}").text
    rulings = page[page.index('id="rulings"'):]
    winners = re.findall(r'name="winner" value="(\w+)"[^>]*>\s*([^<]+?)\s*</label>', rulings)
    assert winners == [("opponent", "Sheriff Cole")], winners  # the side that may win now, by its name
    r = client.post(f"{c}/challenges/{unit}/overturn", headers=t["house"], json={
        "winner": "opponent", "reason": "the sheriff had the drop on her"})
    assert r.status_code == 200, r.text
    damage = client.get(f"{c}/challenges/{unit}", headers=t["ilse"]).json()["state"]["overturned"]["damage"]
    lost = damage["challenger"]
    page = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", client.get(f"/web/units/{unit}/table").text))
    assert lost and f"Overturned: Sheriff Cole wins instead, and Ilse loses {lost} Willpower." in page, page
