"""Issue 31, item 2 (PA-14): every move a unit's legal actions list is played from its listing alone through the
unit's one action endpoint, over JSON (``POST …/challenges/{id}/actions``) and from the web page
(``/web/units/{id}/act``). Answers to a loan offered into a challenge are campaign commands: the endpoint runs
them as those commands, with the same authorization and key as their own routes, and a refusal stores nothing."""

from __future__ import annotations

import re
from typing import Any

from tests.e2e.test_challenge_http import act, play_to_betting, table  # noqa: F401  (fixture)
from tests.e2e.test_web_http import sign_in

LOAN_MOVES = ("accept-loan", "decline-loan", "withdraw-loan")


def entries(client: Any, c: str, t: dict[str, Any]) -> int:
    return len(client.get(f"{c}/log?limit=1000", headers=t["house"]).json()["entries"])


def listed(client: Any, c: str, ch: str, headers: dict[str, str], name: str) -> list[dict[str, Any]]:
    view = client.get(f"{c}/challenges/{ch}", headers=headers).json()
    return [a for a in view["legal_actions"] if a["action"] == name]


def body_from(listing: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    """What a client that knows no rule sends: the action, and each listed value the move's body takes."""
    return {"action": listing["action"],
            **{k: v for k, v in listing.items() if k in schema.get("properties", {}) and k != "action"}}


def move_schema(client: Any, name: str) -> dict[str, Any]:
    body = client.get("/openapi.json").json()
    found = body["components"]["schemas"]
    refs = body["paths"]["/campaigns/{campaign_id}/challenges/{challenge_id}/actions"]["post"]["requestBody"]
    names = [r["$ref"].rsplit("/", 1)[1] for r in refs["content"]["application/json"]["schema"]["oneOf"]]
    return next(found[n] for n in names if found[n]["properties"]["action"].get("default") == name)


def pile(client: Any, c: str, t: dict[str, Any], seat: str) -> int:
    return client.get(f"{c}/characters/{seat}", headers=t[seat]).json()["pile"]


def test_every_listed_loan_move_is_accepted_through_the_action_endpoint_built_from_its_listing(client, table):  # noqa: F811
    c, t = table
    ch = play_to_betting(client, c, t)
    act(client, c, ch, t["tomas"], "lend", borrower="ilse", amount=4)
    act(client, c, ch, t["mara"], "lend", borrower="ilse", amount=3)
    schemas = {name: move_schema(client, name) for name in LOAN_MOVES}
    assert {n: sorted(s["properties"]) for n, s in schemas.items()} == {n: ["action", "loan"] for n in LOAN_MOVES}
    # the borrower answers each offer, the lenders withdraw theirs: every one listed, none of them a UUID typed
    assert [a["amount"] for a in listed(client, c, ch, t["ilse"], "accept-loan")] == [4, 3]
    assert len(listed(client, c, ch, t["tomas"], "withdraw-loan")) == len(listed(client, c, ch, t["mara"], "withdraw-loan")) == 1
    before = pile(client, c, t, "ilse")
    take = listed(client, c, ch, t["ilse"], "accept-loan")[0]
    r = client.post(f"{c}/challenges/{ch}/actions", headers=t["ilse"], json=body_from(take, schemas["accept-loan"]))
    assert r.status_code == 200, r.text
    assert r.json()["id"] == ch and {o["amount"] for o in r.json()["loan_offers"]} == {3}  # answered with the table
    assert pile(client, c, t, "ilse") == before + 4 and pile(client, c, t, "tomas") == 26
    back = listed(client, c, ch, t["mara"], "withdraw-loan")[0]
    r = client.post(f"{c}/challenges/{ch}/actions", headers=t["mara"], json=body_from(back, schemas["withdraw-loan"]))
    assert r.status_code == 200, r.text
    assert not listed(client, c, ch, t["ilse"], "accept-loan") and not listed(client, c, ch, t["mara"], "withdraw-loan")
    act(client, c, ch, t["house"], "check")
    act(client, c, ch, t["ilse"], "check")
    act(client, c, ch, t["house"], "roll")
    act(client, c, ch, t["ilse"], "roll")
    act(client, c, ch, t["ilse"], "seed", seed="fresh words")  # C-9: the reroll comes with the fresh seed
    act(client, c, ch, t["tomas"], "lend", borrower="ilse", amount=2)  # round 2
    no = listed(client, c, ch, t["ilse"], "decline-loan")[0]
    r = client.post(f"{c}/challenges/{ch}/actions", headers=t["ilse"], json=body_from(no, schemas["decline-loan"]))
    assert r.status_code == 200, r.text
    register = client.get(f"{c}/debts", headers=t["house"]).json()["loans"]
    assert [(x["lender"], x["amount"], x["status"]) for x in register] == [
        ("tomas", 4, "active"), ("mara", 3, "withdrawn"), ("tomas", 2, "declined")]


def test_a_loan_answer_through_the_action_endpoint_runs_exactly_once_under_its_key_as_on_its_own_route(client, table):  # noqa: F811
    c, t = table
    ch = play_to_betting(client, c, t)
    act(client, c, ch, t["tomas"], "lend", borrower="ilse", amount=4)
    loan = listed(client, c, ch, t["ilse"], "accept-loan")[0]["loan"]
    key = {**t["ilse"], "Idempotency-Key": "accept-once-1"}
    for _ in range(2):
        r = client.post(f"{c}/challenges/{ch}/actions", headers=key, json={"action": "accept-loan", "loan": loan})
        assert r.status_code == 200, r.text
    r = client.post(f"{c}/loans/{loan}/accept", headers=key)  # the same key on the command's own route
    assert r.status_code == 200 and r.json()["status"] == "active", r.text
    assert pile(client, c, t, "ilse") == 28 + 4 and pile(client, c, t, "tomas") == 26  # 30 less the ante; once
    history = client.get(f"{c}/debts", headers=t["house"]).json()["loans"][0]["history"]
    assert [h["what"] for h in history].count("accepted") == 1


def test_a_loan_answer_refused_through_the_action_endpoint_names_its_ruling_and_stores_nothing(client, table):  # noqa: F811
    c, t = table
    ch = play_to_betting(client, c, t)
    act(client, c, ch, t["tomas"], "lend", borrower="ilse", amount=4)
    into = listed(client, c, ch, t["ilse"], "accept-loan")[0]["loan"]
    outside = client.post(f"{c}/loans", headers=t["mara"], json={"borrower": "ilse", "amount": 2}).json()["loan_id"]
    before = entries(client, c, t)
    for headers, body, status, ruling in (
        (t["ilse"], {"action": "accept-loan", "loan": outside}, 422, "PA-14"),  # not offered into this challenge
        (t["tomas"], {"action": "accept-loan", "loan": into}, 403, None),  # only the borrower accepts
        (t["ilse"], {"action": "withdraw-loan", "loan": into}, 403, None),  # only the lender withdraws
        (t["ilse"], {"action": "accept-loan", "loan": into, "amount": 4}, 422, "PA-14"),  # not a field of it
        (t["ilse"], {"action": "accept-loan"}, 422, "PA-14"),
    ):
        r = client.post(f"{c}/challenges/{ch}/actions", headers=headers, json=body)
        assert r.status_code == status, (body, r.text)
        assert ruling is None or r.json()["ruling"] == ruling, r.text
    assert entries(client, c, t) == before


def test_a_lender_outside_the_challenge_is_never_waited_for_and_both_tables_draw_after_a_loan_from_the_page(client, table):  # noqa: F811
    """The defect of issue 31: lending from the page answered 422 although the loan was stored, and both
    tables then showed a raw problem. Now the lend answers the table; each page draws its loan move."""
    c, t = table
    ch = play_to_betting(client, c, t)
    token = {seat: h["Authorization"].split(" ", 1)[1] for seat, h in t.items()}
    sign_in(client, token["tomas"])
    r = client.post(f"/web/units/{ch}/act", data={"action": "lend", "borrower": "ilse", "amount": "5"})
    assert r.status_code == 200, r.text
    assert 'data-action="withdraw-loan"' in r.text and "problem" not in r.headers["content-type"]
    waiting = client.get(f"{c}/challenges/{ch}/waiting", headers=t["tomas"]).json()["seats"]
    assert "tomas" not in waiting and "mara" not in waiting
    client.cookies.clear()
    sign_in(client, token["ilse"])
    page = client.get(f"/web/units/{ch}/table")
    assert page.status_code == 200 and 'data-action="accept-loan"' in page.text
    loan = re.search(r'name="loan" value="([0-9a-f-]{36})"', page.text).group(1)
    r = client.post(f"/web/units/{ch}/act", data={"action": "accept-loan", "loan": loan})
    assert r.status_code == 200, r.text
    assert pile(client, c, t, "ilse") == 28 + 5


def test_a_move_refused_from_the_page_stores_nothing(client, table):  # noqa: F811
    c, t = table
    ch = play_to_betting(client, c, t)
    sign_in(client, t["tomas"]["Authorization"].split(" ", 1)[1])
    before = entries(client, c, t)
    for data, status in (({"action": "lend", "borrower": "ilse", "amount": "31"}, 422),  # beyond his pile (PA-14)
                         ({"action": "lend", "borrower": "house", "amount": "1"}, 422),
                         ({"action": "check"}, 403),  # not his side's move (PA-5)
                         ({"action": "accept-loan", "loan": "00000000-0000-0000-0000-000000000000"}, 404)):
        r = client.post(f"/web/units/{ch}/act", data=data)
        assert r.status_code == status, (data, r.status_code, r.text[:300])
        assert 'role="alert"' in r.text and "text/html" in r.headers["content-type"]  # the table, the refusal above it
    assert entries(client, c, t) == before


def test_the_cli_answers_a_loan_offered_into_a_challenge_through_the_challenges_action_path(cli):
    """The CLI's loan moves take the same path as a page when the challenge lists them (issue 31): answered with
    the table; a loan offered outside a challenge still runs on its own route, answered with the loan."""
    from tests.e2e.test_cli_rough_edges import to_betting

    ch = to_betting(cli)
    cli("challenge", "raise", "4")
    first = cli.json("challenge", "lend", "ilse", "5", "--as", "tomas")["loan_offers"][0]["loan_id"]
    answer = cli.json("loan", "accept", first[:8], "--as", "ilse")
    assert answer["id"] == ch and answer["loan_offers"] == [] and "legal_actions" in answer  # the table's answer
    outside = cli.json("loan", "offer", "tomas", "2", "--as", "ilse")["loan_id"]
    answer = cli.json("loan", "decline", outside[:8], "--as", "tomas")
    assert answer["loan_id"] == outside and answer["status"] == "declined"  # the command's own answer
    register = {x["loan_id"]: x["status"] for x in cli.json("debts")["loans"]}
    assert register == {first: "active", outside: "declined"}


def test_a_challenge_is_announced_from_the_page_with_its_sides_picked_not_typed_as_json(client, table):  # noqa: F811
    c, t = table
    sign_in(client, t["house"]["Authorization"].split(" ", 1)[1])
    panel = client.get("/web/campaign/panel").text
    assert 'name="challenger.antagonist"' in panel and 'name="opponent.players" value="ilse"' in panel
    assert 'placeholder="JSON"' not in panel and "house:Lady Sen" not in panel
    before = entries(client, c, t)
    both = {"challenger.antagonist": "Lady Sen", "opponent.players__multi": "1", "opponent.players": "ilse",
            "opponent.antagonist": "Lady Sen", "ante": "2"}
    r = client.post("/web/commands/announce-challenge", data=both)
    assert r.status_code == 422 and "PA-5" in r.text and entries(client, c, t) == before  # one kind of side, not both
    r = client.post("/web/commands/announce-challenge", data={
        "challenger.antagonist": "Lady Sen", "opponent.players__multi": "1", "opponent.players": ["ilse", "tomas"],
        "ante": "2", "circumstance": ""})
    assert r.status_code == 204, r.text
    unit = r.headers["HX-Redirect"].rsplit("/", 1)[1]
    view = client.get(f"{c}/challenges/{unit}", headers=t["house"]).json()
    assert view["sides"]["challenger"]["members"] == ["Lady Sen"] and view["sides"]["opponent"]["members"] == ["ilse", "tomas"]
    client.cookies.clear()
    sign_in(client, t["mara"]["Authorization"].split(" ", 1)[1])  # a player challenges for herself, typing the antagonist
    r = client.post("/web/commands/announce-challenge", data={
        "challenger.players": "mara", "challenger.players__multi": "1", "opponent.players__multi": "1",
        "opponent.antagonist": "Lady Sen", "ante": "1"})
    assert r.status_code == 422 and "already in a challenge" in r.text  # Lady Sen is busy (PA-5)


def test_the_lender_sees_at_the_table_that_his_loan_was_accepted_and_every_seat_the_same(client, table):  # noqa: F811
    """Found on a phone walk: once the borrower accepted, the offer just vanished from the lender's table (PA-14).
    The table lists every loan offered into it that was answered, and how; public, like the register."""
    c, t = table
    ch = play_to_betting(client, c, t)
    act(client, c, ch, t["tomas"], "lend", borrower="ilse", amount=4)
    act(client, c, ch, t["mara"], "lend", borrower="ilse", amount=2)
    into = {o["lender"]: o["loan_id"] for o in client.get(f"{c}/challenges/{ch}", headers=t["ilse"]).json()["loan_offers"]}
    act(client, c, ch, t["ilse"], "accept-loan", loan=into["tomas"])
    act(client, c, ch, t["ilse"], "decline-loan", loan=into["mara"])
    views = {seat: client.get(f"{c}/challenges/{ch}", headers=t[seat]).json() for seat in ("tomas", "mara", "ilse", "house")}
    assert all(v["loan_offers"] == [] for v in views.values())
    answered = {(o["lender"], o["amount"], o["answer"]) for o in views["tomas"]["loans_answered"]}
    assert answered == {("tomas", 4, "accepted"), ("mara", 2, "declined")}
    assert all(v["loans_answered"] == views["tomas"]["loans_answered"] for v in views.values())
    token = {seat: h["Authorization"].split(" ", 1)[1] for seat, h in t.items()}
    client.cookies.clear()
    sign_in(client, token["tomas"])
    page = client.get(f"/web/units/{ch}/table").text
    said = page[page.index('data-testid="loans-answered"'):]
    said = re.sub(r"<[^>]+>", " ", said[:said.index("</ul>")])
    assert "offered" in said and "4 pennies: accepted, and the pennies moved." in said
    assert "2 pennies: declined." in said
