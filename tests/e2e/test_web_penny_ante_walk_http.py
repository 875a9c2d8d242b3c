"""What a phone walk of the README's first evening of Penny Ante found (2026-11-29), each as a player meets it: the
dice every seat saw stay on every board after an undo to before the roll (C-8), the House's undo list chooses no
step for it, the replay says whose cup a fresh seed rerolled, and the sign-in's address opened again is a page."""

from __future__ import annotations

from tests.e2e.conftest import bearer
from tests.e2e.test_abandoned_draw_on_the_board_http import act, board_of, seated
from tests.e2e.test_board_pulp_cards_http import words


def kept_then_undone(client) -> tuple[str, dict[str, str], str, dict[str, list[int]]]:
    """Ilse challenges Tomas; both roll and keep, each with one die in the cup; the House undoes the table to
    before the first roll. Returns the campaign, the tokens, the unit and each side's dice shown before the undo."""
    c, t = seated(client, "penny-ante", {"ilse": "Ilse Varn", "tomas": "Brother Tomas"}, characteristic="Whip")
    assert client.post(f"{c}/adventures", headers=bearer(t["house"]), json={}).status_code == 201
    unit = client.post(f"{c}/challenges", headers=bearer(t["ilse"]), json={
        "challenger": {"players": ["ilse"]}, "opponent": {"players": ["tomas"]}, "ante": 1}).json()["id"]
    for seat in ("ilse", "tomas"):
        act(client, c, unit, t[seat], action="declare", characteristics=["Whip"])
    act(client, c, unit, t["ilse"], action="seed", seed="Ilse's words")
    act(client, c, unit, t["tomas"], action="seed", seed="Tomas's words")
    steps = client.get(f"{c}/challenges/{unit}/replay", headers=bearer(t["house"])).json()["steps"]
    before_roll = max(s["step"] for s in steps if s["rewindable"])
    for seat in ("ilse", "tomas"):
        act(client, c, unit, t[seat], action="roll")
    for seat in ("ilse", "tomas"):
        act(client, c, unit, t[seat], action="keep", cup=[0])
    shown = {side: [d["value"] for d in data["dice"][1:]] for side, data in
             client.get(f"{c}/challenges/{unit}", headers=bearer(t["house"])).json()["sides"].items()}
    r = client.post(f"{c}/challenges/{unit}/rewind", headers=bearer(t["house"]),
                    json={"to_step": before_roll, "reason": "the characteristics were named out of turn"})
    assert r.status_code == 200, r.text
    return c, t, unit, shown


def test_dice_every_seat_saw_stay_on_every_board_after_an_undo_to_before_the_roll_c8(client):
    """Found on a phone walk: after an undo to before the roll, both boards said "No dice rolled yet", though
    every seat had seen the kept dice (C-8); the cupped dice, which nobody else saw, stay unsaid (C-5)."""
    c, t, unit, shown = kept_then_undone(client)
    seen = {}
    for seat in ("house", "ilse", "tomas"):
        sides = client.get(f"{c}/challenges/{unit}", headers=bearer(t[seat])).json()["sides"]
        seen[seat] = {side: data["seen_before_rewind"] for side, data in sides.items()}
        for side, data in sides.items():
            assert data["dice"] == []  # the rolls were undone
            assert [d["value"] for d in data["seen_before_rewind"]] == shown[side], (seat, side)
            assert [d["die"] for d in data["seen_before_rewind"]] == [2], (seat, side)  # die 1 was in the cup
    assert seen["house"] == seen["ilse"] == seen["tomas"]  # public: the same for every seat
    for seat in ("ilse", "tomas"):
        page = board_of(client, t[seat], unit)
        for side, values in shown.items():
            box = page[page.index(f'data-side="{side}"'):]
            box = box[:box.index("</section>")]
            said = box[box.index('data-testid="seen-before-rewind"'):]
            assert "Shown to every seat before the undo" in words(said)
            assert [f"die showing {v}, die 2, shown to all before the undo" in said for v in values] == [True]
    # the same slots roll the same dice again (C-7): once rolled, the list is empty and the die is marked instead
    for seat in ("ilse", "tomas"):
        act(client, c, unit, t[seat], action="roll")
    mine = client.get(f"{c}/challenges/{unit}", headers=bearer(t["tomas"])).json()["sides"]
    assert mine["challenger"]["seen_before_rewind"] == []
    assert [d["value"] for d in mine["challenger"]["dice"]] == [None, *shown["challenger"]]
    assert [d.get("seen_before_rewind") for d in mine["challenger"]["dice"]] == [False, True]
    page = board_of(client, t["tomas"], unit)
    assert 'data-testid="seen-marked"' in page and "seen" in words(page[page.index('data-side="challenger"'):])


def test_the_house_undo_list_chooses_no_step_and_names_whose_dice_a_step_rolled(client):
    """Found on a phone walk: after an undo, the list's first step, chosen already, was one the undo took back;
    and a roll set off by a seat's seed was said without whose dice it rolled."""
    _, t, unit, _ = kept_then_undone(client)
    page = board_of(client, t["house"], unit)
    select = page[page.index('id="rewind-step"'):]
    select = select[:select.index("</select>")]
    first = select[select.index("<option"):]
    assert first.startswith('<option value="" selected>Choose a step')
    assert "selected" not in first[first.index("</option>"):]  # no other option is chosen
    assert "Brother Tomas&#39;s dice were rolled" in select or "Brother Tomas's dice were rolled" in select
    assert "Steps an undo took back" in select


def test_the_sign_in_address_opened_again_is_the_sign_in_page_not_a_problem_document(client):
    """Found on a phone walk: Back or a reload on the page that showed the token opened ``GET /web/sign-in``,
    which answered 405 in JSON; and a JSON answer's tab asked for /favicon.ico, a 404 in the console."""
    client.cookies.clear()
    for path in ("/web/sign-in", "/web/sign-out"):
        r = client.get(path, follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"] == "/web"
        assert client.get(path).headers["content-type"].startswith("text/html")
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200 and icon.headers["content-type"].startswith("image/svg")


def test_a_players_side_says_on_its_box_that_its_seed_went_in_or_was_passed_c4_c10(client):
    """Found on a phone walk: after "Add my seed" the control vanished and nothing said the seed went in."""
    c, t = seated(client, "penny-ante", {"ilse": "Ilse Varn", "tomas": "Brother Tomas"}, characteristic="Whip")
    assert client.post(f"{c}/adventures", headers=bearer(t["house"]), json={}).status_code == 201
    unit = client.post(f"{c}/challenges", headers=bearer(t["ilse"]), json={
        "challenger": {"players": ["ilse"]}, "opponent": {"players": ["tomas"]}, "ante": 1}).json()["id"]
    page = board_of(client, t["ilse"], unit)
    assert "No seed words yet." in words(page[page.index('data-testid="seed-challenger"'):])
    act(client, c, unit, t["ilse"], action="seed", seed="<b>moonlight</b>")
    act(client, c, unit, t["tomas"], action="pass")
    for seat in ("ilse", "tomas", "house"):
        page = board_of(client, t[seat], unit)
        mine = page[page.index('data-testid="seed-challenger"'):]
        assert "Seed words given: “&lt;b&gt;moonlight&lt;/b&gt;”." in mine[:mine.index("</p>")]  # inert (escaped)
        theirs = page[page.index('data-testid="seed-opponent"'):]
        assert "Passed: no seed words." in words(theirs[:theirs.index("</p>") + 4])


def test_every_page_points_to_the_rulings_in_words_and_every_code_the_system_cites_is_there(client):
    """Found on two phone walks: the pages cite rulings by code (PA-8, C-9) with nothing to say what they are.
    Each signed-in page links to a page of the rulings, one line each, at the code's own anchor."""
    import re
    from pathlib import Path

    from api.web.systems import KERNEL_RULES
    from api.web.systems import of as board_of_system

    for system, prefix, folder in (("penny-ante", "PA", "penny_ante"), ("pool", "PL", "pool"),
                                   ("twenty-one", "TO", "twenty_one"), ("beast", "BE", "beast"),
                                   ("pulp-cards", "PU", "pulp_cards")):
        cited = set()
        for path in [*Path("domain/systems", folder).rglob("*.py"), *Path("api/web/systems").glob(f"{folder}.py")]:
            cited |= set(re.findall(rf"\b{prefix}-\d+\b", path.read_text()))
        assert cited and cited <= set(board_of_system(system).rules), (system, cited - set(board_of_system(system).rules))
    shared = set()
    for path in Path("domain").rglob("*.py"):
        shared |= set(re.findall(r"\bC-\d+\b", path.read_text()))
    assert shared <= set(KERNEL_RULES)

    _, t = seated(client, "penny-ante", {"ilse": "Ilse Varn"}, characteristic="Whip")
    client.cookies.clear()
    from tests.e2e.test_web_http import sign_in

    sign_in(client, t["ilse"])
    assert 'href="/web/rules"' in client.get("/web/campaign").text
    page = client.get("/web/rules")
    assert page.status_code == 200
    for code in ("PA-8", "PA-14", "C-9", "C-8"):
        assert f'id="{code}"' in page.text
    assert 'id="TO-4"' not in page.text  # only this campaign's system and the shared rulings
    said = words(page.text)
    assert "An undo is not a reroll" in said and "one die plus one per characteristic" in said
    client.cookies.clear()
    assert client.get("/web/rules", follow_redirects=False).status_code in (303, 401)  # signed out: the sign-in


def test_the_your_move_line_of_the_campaign_page_links_to_the_table_that_waits(client):
    """Found on a phone walk: "Your move: 1 table waits for you" was plain text, the table's link screens below."""
    c, t = seated(client, "penny-ante", {"ilse": "Ilse Varn", "tomas": "Brother Tomas"}, characteristic="Whip")
    assert client.post(f"{c}/adventures", headers=bearer(t["house"]), json={}).status_code == 201
    unit = client.post(f"{c}/challenges", headers=bearer(t["ilse"]), json={
        "challenger": {"players": ["ilse"]}, "opponent": {"players": ["tomas"]}, "ante": 1}).json()["id"]
    from tests.e2e.test_web_http import sign_in

    client.cookies.clear()
    sign_in(client, t["tomas"])
    page = client.get("/web/campaign").text
    line = page[page.index('data-testid="your-turn"'):]
    line = line[:line.index("</p>")]
    assert f'<a href="/web/units/{unit}">' in line and "waits for you" in words(line)
