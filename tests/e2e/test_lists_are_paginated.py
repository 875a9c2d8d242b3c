"""Lists come a page at a time, from summary rows, with a cursor (issue 15)."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import bearer, player_headers


def pool_campaign_with_rolls(client, rolls: int):
    created = client.post("/campaigns", json={"name": "Many rolls", "system": "pool"}).json()
    cid, house = created["campaign"]["id"], bearer(created["house_token"])
    added = client.post(f"/campaigns/{cid}/players", headers=house, json={
        "seat": "ilse", "character": "Ilse", "description": "A brave and clever thief"}).json()
    ilse = player_headers(client, added)
    # C-1: units of resolution happen during an adventure
    assert client.post(f"/campaigns/{cid}/adventures", headers=house, json={}).status_code == 201
    ids = []
    for _ in range(rolls):
        r = client.post(f"/campaigns/{cid}/rolls", headers=ilse, json={"count": 2})
        assert r.status_code == 201, r.text
        ids.append(r.json()["id"])
    return f"/campaigns/{cid}", ilse, ids


def test_the_challenge_list_pages_with_a_cursor_and_loses_nothing(client):
    c, ilse, ids = pool_campaign_with_rolls(client, 5)
    seen, after = [], 0
    while page := client.get(f"{c}/challenges", headers=ilse, params={"after": after, "limit": 2}).json():
        assert len(page) <= 2
        seen += [u["id"] for u in page]
        after = page[-1]["position"]
    assert seen == ids


def test_the_challenge_list_can_show_only_open_units(client):
    c, ilse, ids = pool_campaign_with_rolls(client, 3)
    listed = client.get(f"{c}/challenges", headers=ilse, params={"open": "true"}).json()
    assert {u["id"] for u in listed} <= set(ids)
    assert all(u["phase"] != "settled" for u in listed)


def test_a_page_larger_than_the_limit_is_refused(client):
    c, ilse, _ = pool_campaign_with_rolls(client, 1)
    assert client.get(f"{c}/challenges", headers=ilse, params={"limit": 501}).status_code == 422
    assert client.get(f"{c}/challenges", headers=ilse, params={"after": -1}).status_code == 422


def test_the_cli_lists_challenges_a_page_at_a_time(cli):
    cli("campaign", "create", "Pool night", "--system", "pool")
    cli("player", "add", "ilse", "--character", "Ilse", "--description", "A brave and clever thief")
    cli("adventure", "start")  # C-1: units of resolution happen during an adventure
    for _ in range(3):
        cli("roll", "2", "--as", "ilse")
    first = cli.json("challenge", "list", "--limit", "2", "--as", "ilse")
    rest = cli.json("challenge", "list", "--after", str(first[-1]["position"]), "--as", "ilse")
    assert len(first) == 2 and len(rest) == 1
    assert rest[0]["position"] > first[-1]["position"]


def penny_ante_with_loans(client, loans: int):
    created = client.post("/campaigns", json={"name": "Lenders", "system": "penny-ante",
                                              "settings": {"starting_pile": 100}}).json()
    cid, house = created["campaign"]["id"], bearer(created["house_token"])
    seats = {}
    for seat in ("ilse", "tomas"):
        added = client.post(f"/campaigns/{cid}/players", headers=house, json={
            "seat": seat, "character": seat.title(), "characteristic": "Grit"}).json()
        seats[seat] = player_headers(client, added)
    ids = []
    for _ in range(loans):
        r = client.post(f"/campaigns/{cid}/loans", headers=seats["tomas"], json={"borrower": "ilse", "amount": 1})
        assert r.status_code == 201, r.text
        ids.append(r.json()["loan_id"])
    return f"/campaigns/{cid}", seats, ids


def test_the_debt_register_pages_with_a_cursor_and_loses_nothing(client):
    c, seats, ids = penny_ante_with_loans(client, 5)
    seen, after = [], None
    while True:
        params = {"limit": 2, **({"after": after} if after else {})}
        register = client.get(f"{c}/debts", headers=seats["ilse"], params=params).json()
        assert len(register["loans"]) <= 2
        seen += [loan["loan_id"] for loan in register["loans"]]
        if not (after := register["next_after"]):
            break
    assert sorted(seen) == sorted(ids) and len(seen) == len(set(seen))


@pytest.mark.parametrize("after", ["not-a-loan", "", "0" * 31, "%00", "6f1c3a3e-0b7a-4d9e-9a51-0c2f1e9b7d11"])
def test_a_debt_register_cursor_that_names_no_loan_answers_an_empty_page(client, after):
    """ADR 0018: ids are uuids on PostgreSQL; a cursor that is not one names no loan, never a store error."""
    c, seats, _ = penny_ante_with_loans(client, 2)
    r = client.get(f"{c}/debts", headers=seats["ilse"], params={"limit": 2, "after": after})
    assert r.status_code == 200, r.text
    assert r.json()["loans"] == [] or after == ""  # no cursor at all is the first page


def test_the_cli_pages_the_debt_register_and_still_finds_a_loan_by_its_prefix(cli):
    cli("campaign", "create", "Lenders", "--starting-pile", "100")
    for seat in ("ilse", "tomas"):
        cli("player", "add", seat, "--character", seat.title(), "--characteristic", "Grit")
    offered = [cli.json("loan", "offer", "ilse", "1", "--as", "tomas")["loan_id"] for _ in range(3)]
    first = cli.json("debts", "--limit", "2", "--as", "ilse")
    rest = cli.json("debts", "--after", first["next_after"], "--as", "ilse")
    listed = [x["loan_id"] for x in first["loans"] + rest["loans"]]
    assert sorted(listed) == sorted(offered)
    assert rest["next_after"] is None
    accepted = cli.json("loan", "accept", offered[-1][:8], "--as", "ilse")
    assert accepted["status"] == "active"
