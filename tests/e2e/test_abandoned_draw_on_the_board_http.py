"""C-10 on the web board, on both stores: a unit the House abandons after a seed was given shows every seat, under
its board, the draw it would have made, in the table's own words (a Twenty-one conflict's hands by name, a Beast
conflict's d10s by side with a 10 rolled again after it, a Pool contest's dice by side), and the replay's verify
derives it again (``abandoned`` results)."""

from __future__ import annotations

import re

from tests.e2e.conftest import bearer, player_token
from tests.e2e.test_board_pulp_cards_http import words
from tests.e2e.test_web_http import sign_in


def seated(client, system: str, players: dict[str, str], **extra) -> tuple[str, dict[str, str]]:
    created = client.post("/campaigns", json={"name": "Abandoned", "system": system}).json()
    c, tokens = f"/campaigns/{created['campaign']['id']}", {"house": created["house_token"]}
    for seat, name in players.items():
        added = client.post(f"{c}/players", headers=bearer(tokens["house"]), json={
            "seat": seat, "character": name, **extra})
        assert added.status_code == 201, added.text
        tokens[seat] = player_token(client, added.json())
    return c, tokens


def act(client, c: str, unit: str, token: str, **body) -> dict:
    r = client.post(f"{c}/challenges/{unit}/actions", headers=bearer(token), json=body)
    assert r.status_code == 200, r.text
    return r.json()


def board_of(client, token: str, unit: str) -> str:
    client.cookies.clear()
    sign_in(client, token)
    page = client.get(f"/web/units/{unit}/table")
    assert page.status_code == 200, page.text
    return page.text


def drawn_section(page: str) -> str:
    found = page[page.index('data-testid="abandoned-draw"'):]
    return words(found[:found.index("</section>")])


def verified(client, c: str, unit: str, token: str) -> list[dict]:
    report = client.get(f"{c}/challenges/{unit}/verify", headers=bearer(token)).json()
    assert report["verifiable"] and not report["mismatches"], report
    return [r for r in report["results"] if r.get("abandoned")]


def test_an_abandoned_twenty_one_conflict_shows_every_seat_the_hands_its_deal_would_have_dealt(client):
    c, t = seated(client, "twenty-one", {"ilse": "Ilse Varn", "tomas": "Brother Tomas"})
    assert client.post(f"{c}/adventures", headers=bearer(t["house"]), json={}).status_code == 201
    unit = client.post(f"{c}/conflicts", headers=bearer(t["house"]), json={"characters": ["ilse", "tomas"]}).json()["id"]
    act(client, c, unit, t["ilse"], action="seed", seed="Ilse's words")
    act(client, c, unit, t["house"], action="abandon", reason="the saloon burned down")
    [record] = verified(client, c, unit, t["tomas"])
    hands = record["hands"]
    for seat in ("house", "ilse", "tomas"):
        page = board_of(client, t[seat], unit)
        assert "The House abandoned this conflict: the saloon burned down." in words(page)
        assert "every hand and the deck" not in page  # no hand was dealt: nothing "is public now"
        shown = drawn_section(page)
        for who, name in (("ilse", "Ilse Varn"), ("tomas", "Brother Tomas")):
            cards = " ".join(re.sub(r"[SHDC]$", lambda m: {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[m[0]], x)
                             for x in hands[who])
            assert f"{name}: {cards}" in shown, shown


def test_an_abandoned_beast_conflict_shows_each_sides_d10s_by_name_with_10s_rolled_again(client):
    c, t = seated(client, "beast", {"ilse": "Ilse Varn", "tomas": "Brother Tomas"})
    assert client.post(f"{c}/adventures", headers=bearer(t["house"]), json={}).status_code == 201
    unit = client.post(f"{c}/conflicts", headers=bearer(t["ilse"]), json={"against": "tomas"}).json()["id"]
    act(client, c, unit, t["ilse"], action="seed", seed="Ilse's words")
    act(client, c, unit, t["house"], action="abandon", reason="dawn came")
    records = verified(client, c, unit, t["ilse"])
    assert records and all(r["faces"] == 10 for r in records)
    shown = drawn_section(board_of(client, t["tomas"], unit))
    for side, name in (("challenger", "Ilse Varn"), ("opponent", "Brother Tomas")):
        chains: dict[int, list[str]] = {}
        for r in records:
            if r["slot"][0] == side:
                chains.setdefault(r["slot"][2], []).append(str(r["value"]))
        assert f"{name}: {' '.join('→'.join(v) for _, v in sorted(chains.items()))}" in shown, shown
    assert "⚀" not in shown and "challenger" not in shown


def test_an_abandoned_pool_contest_shows_each_sides_dice_by_name(client):
    c, t = seated(client, "pool", {"ilse": "Ilse Varn", "tomas": "Brother Tomas"}, description="A brave monk")
    assert client.post(f"{c}/adventures", headers=bearer(t["house"]), json={}).status_code == 201
    unit = client.post(f"{c}/contests", headers=bearer(t["ilse"]), json={"opponent": "tomas"}).json()["id"]
    act(client, c, unit, t["ilse"], action="seed", seed="Ilse's words")
    act(client, c, unit, t["house"], action="abandon", reason="night fell")
    records = verified(client, c, unit, t["house"])
    shown = drawn_section(board_of(client, t["ilse"], unit))
    for side, name in (("challenger", "Ilse Varn"), ("opponent", "Brother Tomas")):
        dice = [str(r["value"]) for r in records if side in r["slot"]]
        assert dice and f"{name}: {' '.join(dice)}" in shown, shown


def test_an_abandoned_penny_ante_challenge_shows_each_sides_dice_by_name(client):
    c, t = seated(client, "penny-ante", {"ilse": "Ilse Varn", "tomas": "Brother Tomas"}, characteristic="Whip")
    assert client.post(f"{c}/adventures", headers=bearer(t["house"]), json={}).status_code == 201
    unit = client.post(f"{c}/challenges", headers=bearer(t["ilse"]), json={
        "challenger": {"players": ["ilse"]}, "opponent": {"players": ["tomas"]}, "ante": 1}).json()["id"]
    act(client, c, unit, t["ilse"], action="seed", seed="Ilse's words")
    act(client, c, unit, t["house"], action="abandon", reason="the palace burns")
    records = verified(client, c, unit, t["house"])
    shown = drawn_section(board_of(client, t["tomas"], unit))
    for side, name in (("challenger", "Ilse Varn"), ("opponent", "Brother Tomas")):
        dice = [str(r["value"]) for r in records if r["slot"][:2] == ["roll", side]]
        [extra] = [str(r["value"]) for r in records if r["slot"] == ["circumstance", 1, side]]
        assert len(dice) == 6 and f"{name}: {' '.join(dice)} (the most a side rolls; it takes its dice from the " \
            f"first, PA-8); a circumstance die, if one was called for: {extra}" in shown, shown
