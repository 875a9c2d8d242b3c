"""Rough edges of the web found by a phone walk and an API fuzzer (2026-11-29), each as the player meets it: a
table-cards deal rewound before it is dealt again from the page (C-7), a Pool contest's undone dice stay shown
(C-8), a table link of another campaign opens a page in words, and an invite says which seat it signs out of."""

from __future__ import annotations

import random
import re

from tests.e2e.conftest import bearer, player_token
from tests.e2e.test_abandoned_draw_on_the_board_http import act, board_of
from tests.e2e.test_board_pulp_cards_http import words


def test_the_house_deals_the_same_table_cards_again_from_the_page_after_a_rewind_c7(client):
    created = client.post("/campaigns", json={"name": "Deadwood", "system": "twenty-one",
                                              "settings": {"table_cards": True}}).json()
    c, t = f"/campaigns/{created['campaign']['id']}", {"house": created["house_token"]}
    for seat, name in {"ilse": "Ilse Varn", "tomas": "Brother Tomas"}.items():
        t[seat] = player_token(client, client.post(f"{c}/players", headers=bearer(t["house"]),
                                                   json={"seat": seat, "character": name}).json())
    assert client.post(f"{c}/adventures", headers=bearer(t["house"]), json={}).status_code == 201
    unit = client.post(f"{c}/conflicts", headers=bearer(t["house"]), json={"characters": ["ilse", "tomas"]}).json()["id"]
    view = client.get(f"{c}/challenges/{unit}", headers=bearer(t["house"])).json()
    (listed,) = [a for a in view["legal_actions"] if a["action"] == "deal"]
    order = random.Random(7).sample(listed["choices"], 52)
    hands = act(client, c, unit, t["house"], action="deal", deck=order)["state"]["hands"]
    r = client.post(f"{c}/challenges/{unit}/rewind", headers=bearer(t["house"]),
                    json={"to_step": 1, "reason": "the deck was cut wrong", "reveal": True})
    assert r.status_code == 200, r.text
    page = board_of(client, t["house"], unit)
    assert "Deal the same cards again" in page and "same order (C-7)" in words(page)
    r = client.post(f"/web/units/{unit}/act", data={"action": "deal", "deck": ",".join(order)})
    assert r.status_code == 200, r.text
    again = client.get(f"{c}/challenges/{unit}", headers=bearer(t["house"])).json()["state"]["hands"]
    assert again == hands


def test_a_pool_contests_dice_taken_back_by_an_undo_stay_on_every_seats_board_c8(client):
    """Found on a phone walk: the undone dice vanished from the board, though every seat had seen them and the
    same slots bring them again (C-7); they stay shown, marked, on the roller's side (C-8)."""
    from tests.e2e.test_abandoned_draw_on_the_board_http import seated

    c, t = seated(client, "pool", {"ilse": "Ilse Varn", "tomas": "Brother Tomas"}, description="A brave monk")
    assert client.post(f"{c}/adventures", headers=bearer(t["house"]), json={}).status_code == 201
    unit = client.post(f"{c}/contests", headers=bearer(t["ilse"]), json={"opponent": "tomas"}).json()["id"]
    act(client, c, unit, t["tomas"], action="pass")  # C-10: Tomas's input before Ilse's first roll
    dice = act(client, c, unit, t["ilse"], action="roll", count=3)["state"]["sides"]["challenger"]["last"]["dice"]
    r = client.post(f"{c}/challenges/{unit}/rewind", headers=bearer(t["house"]), json={"to_step": 1, "reason": "early"})
    assert r.status_code == 200, r.text
    for seat in ("tomas", "ilse"):
        page = board_of(client, t[seat], unit)
        seen = page[page.index('data-testid="seen-before-rewind"'):]
        assert "Round 1" in words(seen[:seen.index("</p>")]) and 'data-side="challenger"' in page
        assert [f"die showing {v}" in seen[:seen.index("</p>")] for v in dice] == [True] * len(dice)


def test_a_table_link_of_another_campaign_opens_a_page_in_words_not_a_problem_document(client):
    """Found on a phone walk: a table of another campaign answered the API's JSON, id and all."""
    from tests.e2e.test_abandoned_draw_on_the_board_http import seated
    from tests.e2e.test_web_http import sign_in

    _, t = seated(client, "pool", {"ilse": "Ilse Varn"}, description="A brave monk")
    other, u = seated(client, "pool", {"ilse": "Ilse Varn", "tomas": "Tomas"}, description="A brave monk")
    assert client.post(f"{other}/adventures", headers=bearer(u["house"]), json={}).status_code == 201
    unit = client.post(f"{other}/contests", headers=bearer(u["ilse"]), json={"opponent": "tomas"}).json()["id"]
    client.cookies.clear()
    sign_in(client, t["ilse"])
    for path in (f"/web/units/{unit}", f"/web/units/{unit}/replay"):
        page = client.get(path)
        assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")
        assert "This table is not in" in words(page.text) and unit not in page.text and "{" not in words(page.text)


def test_an_invite_opened_while_signed_in_says_which_seat_it_signs_out_of(client):
    """Found on a phone walk: a second invite on a signed-in phone replaced the first seat without a word."""
    from tests.e2e.test_abandoned_draw_on_the_board_http import seated
    from tests.e2e.test_web_http import sign_in

    _, t = seated(client, "pool", {"ilse": "Ilse Varn"}, description="A brave monk")
    client.cookies.clear()
    assert 'data-testid="signed-in-elsewhere"' not in client.get("/web/invite").text
    sign_in(client, t["ilse"])
    said = words(client.get("/web/invite").text)
    assert "This browser is signed in as Ilse Varn in Abandoned. Taking this seat signs it out of that one" in said


def test_the_houses_conflict_form_starts_on_two_different_characters_be6(client):
    """Found on a phone walk: the House's 'Who faces it' and 'Against' both started on the first player, so the
    form as it stood was refused (BE-6: nobody faces himself)."""
    from tests.e2e.test_abandoned_draw_on_the_board_http import seated
    from tests.e2e.test_web_http import sign_in

    c, t = seated(client, "beast", {"ilse": "Ilse Varn", "tomas": "Brother Tomas"})
    assert client.post(f"{c}/adventures", headers=bearer(t["house"]), json={}).status_code == 201
    client.cookies.clear()
    sign_in(client, t["house"])
    panel = client.get("/web/campaign/panel").text
    form = panel[panel.index('data-verb="open-conflict"'):]
    facing = re.search(r'name="player" value="(\w+)"[^>]*checked', form)
    against = re.search(r'name="against" value="(\w+)"[^>]*\s+checked', form)
    assert facing and against and facing.group(1) == "ilse" and against.group(1) == "tomas", form[:1500]
