"""The Pool's web board over plain HTTP (issue 31), on both stores: what the pages post is what the rules take
(traits at creation as pairs of controls, a roll's trait, dice count and table dice), a refusal names its
ruling and stores nothing, a roll is answered on the campaign page in words, and lists read as names."""

from __future__ import annotations

import re

from tests.e2e.conftest import bearer, player_token
from tests.e2e.test_web_http import sign_in


def campaign(client, **settings) -> tuple[str, dict[str, str], str]:
    created = client.post("/campaigns", json={"name": "Harbour", "system": "pool", "settings": settings}).json()
    return f"/campaigns/{created['campaign']['id']}", bearer(created["house_token"]), created["house_token"]


def seat(client, c: str, house: dict[str, str], who: str, name: str, traits: dict[str, int] | None = None) -> str:
    added = client.post(f"{c}/players", headers=house, json={
        "seat": who, "character": name, "description": "A stubborn pilot with quick hands", "traits": traits or {}})
    assert added.status_code == 201, added.text
    return player_token(client, added.json())


def as_seat(client, token: str) -> None:
    client.cookies.clear()
    sign_in(client, token)


def test_the_house_seats_a_player_with_traits_picked_as_pairs_and_a_bad_rating_stores_nothing(client):
    c, house, token = campaign(client)
    as_seat(client, token)
    panel = client.get("/web/campaign/panel").text
    assert 'name="traits__key"' in panel and "+3 (10 dice)" in panel and 'placeholder="JSON"' not in panel
    form = {"seat": "mara", "character": "Mara Quill", "description": "A stubborn pilot with quick hands",
            "traits__key": ["stubborn", "", "quick hands"], "traits__value": ["2", "1", "1"]}
    r = client.post("/web/commands/add-player", data=form)
    assert r.status_code == 200 and "Mara Quill is seated, with 5 dice and quick hands +1, stubborn +2" in r.text
    assert 'data-testid="invite" ' in r.text or 'data-testid="invite"' in r.text
    sheet = client.get(f"{c}/characters/mara", headers=house).json()
    assert sheet["traits"] == {"stubborn": 2, "quick hands": 1} and sheet["pool"] == 12 - 5 - 2  # PL-1
    for value, ruling in (("x", "PL-1"), ("4", "PL-1")):
        bad = {**form, "seat": "tom", "traits__key": ["stubborn"], "traits__value": [value]}
        r = client.post("/web/commands/add-player", data=bad)
        assert r.status_code == 422 and ruling in r.text, r.text
    assert client.get(f"{c}/characters/tom", headers=house).status_code == 404  # nothing stored


def test_a_roll_from_the_sheet_is_answered_on_the_page_in_words_and_a_roll_past_the_pool_is_refused(client):
    c, house, _ = campaign(client)
    mara = seat(client, c, house, "mara", "Mara Quill", {"stubborn": 1})
    assert client.post(f"{c}/adventures", headers=house, json={}).status_code == 201
    as_seat(client, mara)
    panel = client.get("/web/campaign/panel").text
    assert re.search(r'<input id="roll-count" type="number"[^>]*min="2" max="10"', panel)  # bounded by the pool
    assert 'value="stubborn"' in panel and "stubborn +1" in panel
    r = client.post("/web/commands/roll", data={"count": "11", "trait": "stubborn"})
    assert r.status_code == 422 and "PL-2" in r.text
    assert client.get(f"{c}/challenges", headers=bearer(mara)).json() == []  # nothing stored
    r = client.post("/web/commands/roll", data={"count": "3", "trait": "stubborn", "helper": "", "seed": ""})
    assert r.status_code == 200 and "HX-Redirect" not in r.headers  # answered here, not at a table
    roll = client.get(f"{c}/challenges", headers=bearer(mara)).json()[0]
    state = client.get(f"{c}/challenges/{roll['id']}", headers=bearer(mara)).json()["state"]
    words = {"full": "full success", "mixed": "success with a complication", "miss": "miss"}[state["outcome"]]
    answer = r.text.split('id="answer"', 1)[1].split("</section>", 1)[0]
    assert f"{state['total']}: {words}" in answer and answer.count('class="die"') == 3  # dice as dice
    assert "Mara Quill&#39;s roll" in answer and "PoolRoll" not in r.text and state["seed_hash"] not in r.text
    assert r.text.count('class="die"') == 6  # and the same three in her latest rolls


def test_table_dice_are_picked_one_select_per_die_and_a_blank_is_no_die(client):
    c, house, _ = campaign(client, table_dice=True)
    mara = seat(client, c, house, "mara", "Mara Quill", {"stubborn": 1})
    client.post(f"{c}/adventures", headers=house, json={})
    as_seat(client, mara)
    assert client.get("/web/campaign/panel").text.count('name="dice"') == 10  # one per die of her pool (C-3)
    r = client.post("/web/commands/roll", data={"count": "2", "trait": "stubborn", "dice__multi": "1",
                                                "dice": ["6", "4", "", ""]})
    assert r.status_code == 200 and "11: full success" in r.text  # 6 + 4 + 1 (PL-2)
    r = client.post("/web/commands/roll", data={"count": "2", "dice__multi": "1", "dice": ["", ""]})
    assert r.status_code == 422 and "C-3" in r.text


def test_a_contest_table_offers_the_seats_traits_and_bounded_dice_and_lists_read_as_names(client):
    c, house, token = campaign(client)
    mara = seat(client, c, house, "mara", "Mara Quill", {"stubborn": 2})
    tom = seat(client, c, house, "tom", "Tom Reyes")
    client.post(f"{c}/adventures", headers=house, json={})
    as_seat(client, mara)
    r = client.post("/web/commands/open-contest", data={"opponent": "tom"})
    assert r.status_code == 204 and r.headers["HX-Redirect"].startswith("/web/units/")  # a contest has its table
    unit = r.headers["HX-Redirect"].rsplit("/", 1)[1]
    page = client.get(f"/web/units/{unit}/table").text
    assert 'data-action="pass"' in page and 'id="contest-count"' not in page  # C-10: Tom's input first
    said = " ".join(re.sub(r"<[^>]+>", " ", page[page.index('data-testid="owing"'):]).split())
    assert said.startswith('data-testid="owing">The first draw waits until Tom Reyes has added seed words or passed, and you too.')
    as_seat(client, tom)
    assert client.post(f"/web/units/{unit}/act", data={"action": "pass"}).status_code == 200
    page = client.get(f"/web/units/{unit}/table").text
    assert "Passed: no seed words." in page and "Mara Quill has added seed words or passed" in " ".join(
        re.sub(r"<[^>]+>", " ", page).split())  # Tom's page: Mara's input is still owed, his is given
    as_seat(client, mara)
    page = client.get(f"/web/units/{unit}/table").text
    assert "Your move, Mara Quill." in page and "Mara Quill against Tom Reyes" in page
    assert re.search(r'<input id="contest-count" type="number"[^>]*min="2" max="7"', page)  # 12 - 5
    assert 'name="trait" value="stubborn"' in page and "stubborn +2" in page
    r = client.post(f"/web/units/{unit}/act", data={"action": "roll", "count": "2", "trait": "brave"})
    assert r.status_code == 422 and "PL-2" in r.text  # a trait she does not have
    as_seat(client, token)
    panel = client.get("/web/campaign/panel").text
    tables = panel.split('id="tables"', 1)[1].split("</section>", 1)[0]
    assert "Mara Quill against Tom Reyes" in tables and not re.search(r"PoolContest|PoolRoll|\bante\b|\bpot\b", tables)


def test_a_stalemate_and_a_tie_are_answered_by_buttons_and_read_in_words(client):
    for mode, first, second in (("tiers", ["4", "4"], ["3", "5"]), ("highest", ["4", "4"], ["2", "6"])):
        c, house, token = campaign(client, table_dice=True, opposed_mode=mode)
        mara = seat(client, c, house, "mara", "Mara Quill")
        tom = seat(client, c, house, "tom", "Tom Reyes")
        client.post(f"{c}/adventures", headers=house, json={})
        as_seat(client, mara)
        unit = client.post("/web/commands/open-contest", data={"opponent": "tom"}).headers["HX-Redirect"].rsplit("/", 1)[1]
        page = client.get(f"/web/units/{unit}/table").text
        assert page.count('name="dice"') == 12  # one select per die of her pool, table dice (C-3)
        roll = client.post(f"/web/units/{unit}/act", data={"action": "roll", "count": "2", "dice__multi": "1",
                                                         "dice": [*first, "", ""]})
        assert roll.status_code == 200 and "8: success with a complication" in roll.text  # PL-2
        as_seat(client, tom)
        page = client.post(f"/web/units/{unit}/act", data={"action": "roll", "count": "2", "dice__multi": "1",
                                                         "dice": second}).text
        if mode == "tiers":  # two hits: a stalemate (PL-8); Tom pushes, Mara folds
            assert "Both hit: a stalemate" in page and 'data-action="push"' in page and 'data-action="fold"' in page
            client.post(f"/web/units/{unit}/act", data={"action": "push"})
            as_seat(client, mara)
            page = client.post(f"/web/units/{unit}/act", data={"action": "fold"}).text
            assert "Tom Reyes wins: Mara Quill folded." in page and "Mara Quill gains 2 dice." in page  # PL-8, PL-9
        else:  # an exact tie: the House's buttons (PL-8)
            assert "An exact tie" in page and 'data-action="reroll"' not in page  # not Tom's to break
            as_seat(client, token)
            page = client.get(f"/web/units/{unit}/table").text
            assert 'data-action="reroll"' in page and 'data-action="interrupt"' in page
            page = client.post(f"/web/units/{unit}/act", data={"action": "interrupt"}).text
            assert "No winner: the House interrupted the tie and narrates." in page and not re.search(r"gains \d", page)


def test_an_overturned_roll_reads_overturned_in_the_lists_and_on_its_page_not_settled_c6(client):
    c, house, _ = campaign(client)
    mara = seat(client, c, house, "mara", "Mara Quill")
    assert client.post(f"{c}/adventures", headers=house, json={}).status_code == 201
    roll = client.post(f"{c}/rolls", headers=bearer(mara), json={"count": 2}).json()
    if roll["phase"] == "choice":
        assert client.post(f"{c}/challenges/{roll['id']}/actions", headers=bearer(mara), json={
            "action": "choose", "choice": "narrate"}).status_code == 200
    as_seat(client, mara)
    page = client.get(f"/web/units/{roll['id']}").text
    assert re.search(r'<span class="phase">\s*settled\s*</span>', page)
    r = client.post(f"{c}/challenges/{roll['id']}/overturn", headers=house, json={"reason": "a misread die"})
    assert r.status_code == 200, r.text
    page = client.get(f"/web/units/{roll['id']}").text
    assert re.search(r'<span class="phase">\s*overturned\s*</span>', page)  # the table's title, for a player
    tables = client.get("/web/campaign").text.split('id="tables"', 1)[1]
    assert re.search(r'class="phase done">\s*overturned\s*</span>', tables)
    listed = client.get(f"{c}/challenges", headers=bearer(mara)).json()
    assert listed[0]["summary"].get("overturned") is True and listed[0]["phase"] == "settled"


def test_a_contest_of_several_rounds_keeps_each_sides_earlier_rounds_on_its_table(client):
    """Found on a phone walk: after a stalemate and a second round the table showed round 2 alone, beside the
    contest's dice lost in both; each side's earlier rounds stay listed, and its cost says 'in this round'."""
    c, house, _ = campaign(client, table_dice=True)
    mara = seat(client, c, house, "mara", "Mara Quill")
    tom = seat(client, c, house, "tom", "Tom Reyes")
    client.post(f"{c}/adventures", headers=house, json={})
    as_seat(client, mara)
    unit = client.post("/web/commands/open-contest", data={"opponent": "tom"}).headers["HX-Redirect"].rsplit("/", 1)[1]

    def roll(who: str, dice: list[str]) -> str:
        as_seat(client, who)
        r = client.post(f"/web/units/{unit}/act", data={"action": "roll", "count": str(len(dice)), "dice__multi": "1",
                                                        "dice": dice})
        assert r.status_code == 200, r.text
        return r.text

    roll(mara, ["4", "4"])
    roll(tom, ["4", "4"])  # two hits: a stalemate (PL-8); both push on
    for who in (mara, tom):
        as_seat(client, who)
        assert client.post(f"/web/units/{unit}/act", data={"action": "push"}).status_code == 200
    roll(mara, ["1", "2"])
    page = roll(tom, ["3", "4"])
    said = " ".join(re.sub(r"<[^>]+>", " ", page).split())
    assert page.count('data-testid="earlier-round"') == 2 and "Round 1:" in said and "in this round" in said
