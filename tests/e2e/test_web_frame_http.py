"""The shared web frame over HTTP, on both stores (issue 31): a seat handed out answers its invite as a link (the
code in the fragment only) and a QR code; the House hands a seat out again from the seat list, and the old
holder's browser is told so in words; the campaign page marks the tables waiting for you; the House's rulings
(undo, overturn, abandon) sit on the unit's page, the House's only, and an undo that would show again what every
seat saw (C-8) is refused in words with an offer to go ahead."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

from api.deps import SEAT_COOKIE
from tests.e2e.conftest import bearer
from tests.e2e.test_twenty_one import stacked
from tests.e2e.test_twenty_one import table as twenty_one_table


def signed_in(client, token: str) -> str:
    """Sign the client in (its cookie jar emptied first); the session id its cookie now holds."""
    client.cookies.clear()
    r = client.post("/web/sign-in", data={"token": token}, follow_redirects=False)
    assert r.status_code in (200, 303), r.text
    return str(client.cookies.get(SEAT_COOKIE))


def as_session(client, session: str) -> None:
    client.cookies.clear()
    client.cookies.set(SEAT_COOKIE, session)


def invite_link(html: str) -> str:
    found = re.search(r'<a href="([^"]+)" id="invite-link"', html)
    assert found, html
    return found.group(1)


def pool_campaign(client) -> tuple[str, dict[str, Any], str]:
    created = client.post("/campaigns", json={"name": "Harbour", "system": "pool"}).json()
    return f"/campaigns/{created['campaign']['id']}", bearer(created["house_token"]), created["house_token"]


def test_seating_a_player_answers_the_invite_as_a_link_with_its_code_in_the_fragment_and_a_qr_code(client):
    _, _, token = pool_campaign(client)
    signed_in(client, token)
    r = client.post("/web/commands/add-player", data={"seat": "ilse", "character": "Ilse Varn",
                                                      "description": "A stubborn harbour pilot"})
    assert r.status_code == 200, r.text
    link = invite_link(r.text)
    parts = urlsplit(link)
    assert parts.path == "/web/invite" and not parts.query and parts.fragment.startswith("inv_")
    assert 'id="invite-slot" hx-swap-oob="true"' in r.text  # outside the live panel: a refresh keeps it
    assert re.search(r'<img class="qr" src="data:image/svg\+xml[^"]+" alt="QR code of the invite link for Ilse Varn"',
                     r.text)
    assert "Copy the link" in r.text and 'data-copy="invite-link"' in r.text
    assert parts.fragment not in client.get("/web/campaign/panel").text  # shown once, to that answer only
    assert 'hx-get="/web/seats/ilse/invite" hx-trigger="every 4s"' in r.text  # the card asks until it is taken
    assert client.get("/web/seats/ilse/invite").status_code == 204  # waiting: htmx leaves the card as it is
    claimed = client.post("/invites", json={"code": parts.fragment})
    assert claimed.status_code == 201 and claimed.json()["seat"] == "ilse"
    taken = client.get("/web/seats/ilse/invite")  # C-1: the code is spent; the card says so, and asks no more
    assert taken.status_code == 200 and "Ilse Varn took the seat" in taken.text and "hx-trigger" not in taken.text
    assert parts.fragment not in taken.text
    signed_in(client, claimed.json()["token"])
    refused = client.get("/web/seats/ilse/invite")  # the House's question alone
    assert refused.status_code == 403 and "Ilse Varn" not in refused.text


def test_the_house_hands_a_seat_out_again_and_the_old_holders_browser_is_told_in_words(client):
    c, house, token = pool_campaign(client)
    for seat in ("ilse", "tomas"):
        added = client.post(f"{c}/players", headers=house, json={"seat": seat, "character": seat.title(),
                                                                 "description": f"{seat} the bold"}).json()
        client.post("/invites", json={"code": added["invite"]})
    house_session = signed_in(client, token)
    panel = client.get("/web/campaign/panel").text
    assert 'hx-post="/web/seats/ilse/reissue"' in panel and "hx-confirm=" in panel  # the seat list, confirmed first
    tomas_invite = client.post(f"{c}/players/tomas/token", headers=house).json()["invite"]
    tomas = signed_in(client, tomas_invite)
    assert "/web/seats/" not in client.get("/web/campaign/panel").text  # a player has no seat list
    refused = client.post("/web/seats/ilse/reissue")
    assert refused.status_code == 403 and "C-1" in refused.text

    old = client.post(f"{c}/players/ilse/token", headers=house).json()["invite"]
    ilse = signed_in(client, old)
    assert client.get("/web/session").status_code == 204
    as_session(client, house_session)
    r = client.post("/web/seats/ilse/reissue")
    assert r.status_code == 200 and "A new invite for Ilse" in r.text and "stopped working" in r.text
    new = urlsplit(invite_link(r.text)).fragment
    assert new.startswith("inv_") and new != old

    as_session(client, ilse)
    assert client.get("/web/session", headers={"HX-Request": "true"}).headers["HX-Redirect"] == "/web"
    page = client.get("/web/campaign")  # followed to the sign-in, which says why
    assert urlsplit(str(page.url)).path == "/web"
    assert "This seat was handed to someone else, or your session ended. Ask the House for a new invite." in page.text
    client.cookies.clear()
    assert "handed to someone else" not in client.get("/web").text  # a browser that held no seat is told nothing
    as_session(client, tomas)
    assert client.get("/web/session").status_code == 204  # only that seat's sessions ended
    assert client.post("/invites", json={"code": new}).status_code == 201


def conflict(client) -> tuple[str, dict[str, Any], str]:
    c, t = twenty_one_table(client)
    unit = client.post(f"{c}/conflicts", headers=t["house"], json={"characters": ["ilse", "tomas"]}).json()["id"]
    return c, t, unit


def test_the_campaign_page_marks_the_tables_waiting_for_you(client):
    c, t, unit = conflict(client)
    u = f"{c}/challenges/{unit}"
    assert client.post(f"{u}/actions", headers=t["house"], json={"action": "deal", "deck": stacked()}).status_code == 200
    waiting = client.get(f"{u}/waiting", headers=t["ilse"]).json()["seats"]
    for seat in ("ilse", "tomas"):
        signed_in(client, t[seat]["Authorization"].split(" ", 1)[1])
        panel = client.get("/web/campaign/panel").text
        marked = re.search(rf'<li class="yours" data-yours="1"><a href="/web/units/{unit}">', panel) is not None
        assert marked == (seat in waiting), seat
        assert ("Your move" in panel) == marked


def test_the_house_undoes_from_the_rulings_and_an_undo_that_would_show_cards_again_asks_first(client):  # C-6, C-8
    c, t, unit = conflict(client)
    u = f"{c}/challenges/{unit}"

    def move(seat: str, **body: Any) -> None:
        r = client.post(f"{u}/actions", headers=t[seat], json=body)
        assert r.status_code == 200, r.text

    def steps() -> int:
        return client.get(f"{u}/replay", headers=t["house"]).json()["total"]

    move("house", action="deal", deck=stacked("10S", "3S", "7S", "7H", "9H", "4H", "KD"))
    move("ilse", action="lay", cards=["10S", "3S"])
    laid = steps()
    move("ilse", action="hold", draw=True)  # KD drawn for the hold: every seat saw it

    signed_in(client, t["ilse"]["Authorization"].split(" ", 1)[1])
    assert "Rulings" not in client.get(f"/web/units/{unit}").text  # the House's only
    refused = client.post(f"/web/units/{unit}/rulings/rewind", data={"to_step": str(laid), "reason": "mine"})
    assert refused.status_code == 403 and "C-6" in refused.text

    signed_in(client, t["house"]["Authorization"].split(" ", 1)[1])
    page = client.get(f"/web/units/{unit}").text
    rulings = page[page.index('<details class="rulings"'):]
    assert f'<option value="{laid}">Step {laid}: ' in rulings and 'name="reason"' in rulings
    # the House is told before it undoes what an undo keeps (C-7, C-9), not after (found on a phone walk)
    assert 'data-testid="undo-keeps"' in rulings and "(C-9)" in rulings
    assert 'data-action="abandon"' in rulings and 'data-action="abandon"' not in page[:page.index('<details class="rulings"')]
    before = steps()
    # a refused undo is said beside its form, open, with the step and the reason sent set in it again
    r = client.post(f"/web/units/{unit}/rulings/rewind", data={"to_step": "0", "reason": "<b>my & reason</b>"})
    assert r.status_code == 422 and steps() == before
    said = r.text[r.text.index('<details class="rulings"'):]
    assert 'data-testid="ruling-refused"' in said and "C-6" in said
    assert 'value="&lt;b&gt;my &amp; reason&lt;/b&gt;"' in said  # the House's text, inert
    assert 'class="error"' not in r.text[:r.text.index('<details class="rulings"')]
    r = client.post(f"/web/units/{unit}/rulings/rewind", data={"to_step": str(laid), "reason": "ruled otherwise"})
    # the question is answered 200 (found on a phone walk: a 422 in the console on the normal path), nothing stored
    assert r.status_code == 200 and 'data-testid="undo-warning"' in r.text and steps() == before
    warning = re.sub(r"\s+", " ", r.text[r.text.index('data-testid="undo-warning"'):])
    assert "This undo would show things again." in warning and "C-8:" in warning and "K♦" in warning
    assert "reveal=true" not in warning and "<details class=\"rulings\" data-verb=\"rulings\" id=\"rulings\" open>" in r.text
    hidden = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', warning.split("</form>")[0]))
    assert hidden == {"to_step": str(laid), "reason": "ruled otherwise", "reveal": "true"}
    r = client.post(f"/web/units/{unit}/rulings/rewind", data=hidden)  # "Undo and show them to every seat"
    assert r.status_code == 200, r.text
    rewound = client.get(f"{u}/replay", headers=t["house"]).json()["steps"][-1]
    assert rewound["event"] == "Rewound" and rewound["detail"]["to_step"] == laid

    r = client.post(f"/web/units/{unit}/act", data={"action": "abandon", "reason": "the evening ends"})
    assert r.status_code == 200, r.text
    assert client.get(u, headers=t["house"]).json()["phase"] == "settled"


def test_the_house_overturns_a_settled_result_from_a_form_built_from_the_overturn_command(client):  # C-6
    c, house, token = pool_campaign(client)
    added = client.post(f"{c}/players", headers=house, json={"seat": "ilse", "character": "Ilse Varn",
                                                             "description": "A stubborn harbour pilot"}).json()
    ilse = bearer(client.post("/invites", json={"code": added["invite"]}).json()["token"])
    assert client.post(f"{c}/adventures", headers=house, json={}).status_code == 201
    roll = client.post(f"{c}/rolls", headers=ilse, json={"count": 2})
    assert roll.status_code == 201, roll.text
    unit = roll.json()["id"]
    if roll.json()["phase"] == "choice":  # a hit: she narrates it herself (PL-4)
        r = client.post(f"{c}/challenges/{unit}/actions", headers=ilse, json={"action": "choose", "choice": "narrate"})
        assert r.status_code == 200 and r.json()["phase"] == "settled", r.text
    signed_in(client, token)
    page = client.get(f"/web/units/{unit}").text
    form = page[page.index('data-verb="overturn"'):].split("</form>")[0]
    # a Pool roll names no winner (its system's checks take none): the form voids it, and says so in words
    assert 'name="winner"' not in form and "challenger" not in form and 'data-testid="void-only"' in form
    assert 'name="void" value="true"' in form and "JSON" not in form and "wager" not in form and 'name="reason"' in form
    assert 'data-verb="rewind"' not in page  # a settled unit is not rewound (C-6)
    r = client.post(f"/web/units/{unit}/rulings/overturn", data={"void": "true", "reason": "a misread"})
    assert r.status_code == 200, r.text
    assert client.get(f"{c}/challenges/{unit}/replay", headers=house).json()["steps"][-1]["event"] == "Overturned"
    assert 'data-verb="overturn"' not in client.get(f"/web/units/{unit}").text  # voided once: not offered again


def test_every_seat_reads_the_houses_undo_and_overturn_on_the_table_with_their_reasons(client):  # C-6
    from tests.e2e.test_challenge_http import act, play_to_betting
    from tests.e2e.test_challenge_http import table as make_table

    c, t = make_table.__wrapped__(client)
    ch = play_to_betting(client, c, t)
    steps = client.get(f"{c}/challenges/{ch}/replay", headers=t["house"]).json()["steps"]
    back = max(s["step"] for s in steps if s["rewindable"])
    r = client.post(f"{c}/challenges/{ch}/rewind", headers=t["house"],
                    json={"to_step": back, "reason": "the <b>dice</b> rolled off the table", "reveal": True})
    assert r.status_code == 200, r.text
    for seat in ("ilse", "mara"):  # the player in it and one looking on
        signed_in(client, t[seat]["Authorization"].removeprefix("Bearer "))
        page = client.get(f"/web/units/{ch}").text
        note = page[page.index('data-testid="undo-note"'):].split("</p>")[0]
        assert f"The House undid the table back to step {back}: “the &lt;b&gt;dice&lt;/b&gt; rolled off the table”" in note
    # said while it is news, not into later rounds (found on a phone walk)
    from datetime import timedelta

    from api.web import pages

    said_for, pages.UNDO_SAID_FOR = pages.UNDO_SAID_FOR, timedelta(0)
    try:
        assert 'data-testid="undo-note"' not in client.get(f"/web/units/{ch}").text
    finally:
        pages.UNDO_SAID_FOR = said_for
    for _ in range(6):  # play on to the end: a keep (the cup kept before the undo) where one is owed, then a fold
        listed = {seat: {a["action"] for a in client.get(f"{c}/challenges/{ch}", headers=t[seat]).json()["legal_actions"]}
                  for seat in ("house", "ilse")}
        seat, move = next(((s, m) for m in ("fold", "keep") for s in ("house", "ilse") if m in listed[s]), (None, None))
        if seat is None:
            break
        act(client, c, ch, t[seat], move, **({"cup": [0 if seat == "house" else 1]} if move == "keep" else {}))  # as before (C-7)
    assert client.get(f"{c}/challenges/{ch}", headers=t["house"]).json()["phase"] == "settled"
    r = client.post(f"{c}/challenges/{ch}/overturn", headers=t["house"], json={"void": True, "reason": "a misread rule"})
    assert r.status_code == 200, r.text
    signed_in(client, t["ilse"]["Authorization"].removeprefix("Bearer "))
    page = client.get(f"/web/units/{ch}").text
    assert "The House overturned the result (“a misread rule”): the challenge is void" in page
    assert 'data-testid="undo-note"' not in page  # a settled table tells its result, not an undo of its play


def test_after_an_undo_the_houses_bound_characteristics_are_shown_fixed_and_named_again_from_the_form(client):  # C-9
    from tests.e2e.test_challenge_http import act
    from tests.e2e.test_challenge_http import table as make_table

    c, t = make_table.__wrapped__(client)
    ch = client.post(f"{c}/challenges", headers=t["house"], json={
        "challenger": {"antagonist": "Lady Sen"}, "opponent": {"players": ["ilse"]}, "ante": 2}).json()["id"]
    act(client, c, ch, t["house"], "declare", characteristics=["Commands a Bunch of Ninjas", "Poison"])
    act(client, c, ch, t["ilse"], "seed", seed="Ilse's lucky words")
    r = client.post(f"{c}/challenges/{ch}/rewind", headers=t["house"],
                    json={"to_step": 1, "reason": "the ninjas have no place here", "reveal": True})
    assert r.status_code == 200, r.text
    signed_in(client, t["house"]["Authorization"].removeprefix("Bearer "))
    page = client.get(f"/web/units/{ch}").text
    form = page[page.index('data-action="declare"'):].split("</form>")[0]
    assert "This side names Commands a Bunch of Ninjas, Poison again." in form
    assert 'type="checkbox"' not in form  # not a choice that the server would refuse (C-9)
    r = client.post(f"/web/units/{ch}/act", data={"action": "declare",
                                                  "characteristics": ["Commands a Bunch of Ninjas", "Poison"]})
    assert r.status_code == 200, r.text
    sides = client.get(f"{c}/challenges/{ch}", headers=t["house"]).json()["sides"]
    assert sides["challenger"]["characteristics"] == ["Commands a Bunch of Ninjas", "Poison"]


def test_a_loan_offered_to_a_player_outside_his_table_is_said_at_his_table_and_only_to_him(client):  # PA-14, C-5
    from tests.e2e.test_challenge_http import table as make_table

    c, t = make_table.__wrapped__(client)
    ch = client.post(f"{c}/challenges", headers=t["house"], json={
        "challenger": {"antagonist": "Lady Sen"}, "opponent": {"players": ["ilse"]}, "ante": 2}).json()["id"]
    r = client.post(f"{c}/loans", headers=t["tomas"], json={"borrower": "ilse", "amount": 5})
    assert r.status_code == 201, r.text
    signed_in(client, t["ilse"]["Authorization"].removeprefix("Bearer "))
    said = client.get(f"/web/units/{ch}").text
    assert 'data-testid="offers-elsewhere"' in said and "offers you 5 pennies on the campaign page" in said
    assert 'href="/web/campaign">answer on the campaign page' in said
    for seat in ("tomas", "house"):  # the lender's and the House's tables say nothing of it
        signed_in(client, t[seat]["Authorization"].removeprefix("Bearer "))
        assert 'data-testid="offers-elsewhere"' not in client.get(f"/web/units/{ch}").text
    assert client.post(f"{c}/loans/{r.json()['loan_id']}/decline", headers=t["ilse"]).status_code == 200
    signed_in(client, t["ilse"]["Authorization"].removeprefix("Bearer "))
    assert 'data-testid="offers-elsewhere"' not in client.get(f"/web/units/{ch}").text  # answered: no longer said


def test_the_overturn_form_asks_who_wins_now_by_name_with_nobody_voiding_and_no_choice_made_for_the_house(client):
    """C-6: an overturn names a new winner or voids, never both or neither; the page offers exactly those as one
    choice (the sides by name, and "Nobody: void the result"), none chosen beforehand, so no default is refused."""
    from tests.e2e.test_challenge_http import act, play_to_betting
    from tests.e2e.test_challenge_http import table as make_table

    c, t = make_table.__wrapped__(client)
    ch = play_to_betting(client, c, t)
    for _ in range(6):
        listed = {seat: {a["action"] for a in client.get(f"{c}/challenges/{ch}", headers=t[seat]).json()["legal_actions"]}
                  for seat in ("house", "ilse")}
        seat = next((s for s in ("house", "ilse") if "fold" in listed[s]), None)
        if seat is None:
            break
        act(client, c, ch, t[seat], "fold")
    assert client.get(f"{c}/challenges/{ch}", headers=t["house"]).json()["phase"] == "settled"
    signed_in(client, t["house"]["Authorization"].removeprefix("Bearer "))
    page = client.get(f"/web/units/{ch}").text
    form = page[page.index('data-verb="overturn"'):].split("</form>")[0]
    assert "Who wins now" in form and "Nobody: void the result" in form
    assert 'name="void"' not in form and " checked" not in form
    assert re.search(r"required>\s*Lady Sen</label>", form) and "(challenger)" not in form  # names, not roles
    radios = re.findall(r'<input type="radio" name="winner" value="([^"]*)"[^>]*required>', form)
    assert len(radios) >= 2 and radios[-1] == ""
    r = client.post(f"/web/units/{ch}/rulings/overturn", data={"winner": "", "reason": "a misread rule"})
    assert r.status_code == 200, r.text
    page = client.get(f"/web/units/{ch}").text
    assert "the challenge is void" in page
    # the step line agrees with the title's "overturned" (found on a phone walk: it said "Settled.")
    assert "Settled, then overturned by the House (C-6)." in page and '<p class="pa-step">Settled.' not in page


def test_an_alliance_members_page_says_its_characteristics_are_one_list_named_by_whoever_sends_it_first(client):  # PA-8
    from tests.e2e.test_challenge_http import act
    from tests.e2e.test_challenge_http import table as make_table

    c, t = make_table.__wrapped__(client)
    ch = client.post(f"{c}/challenges", headers=t["house"], json={
        "challenger": {"antagonist": "Lady Sen"}, "opponent": {"players": ["ilse", "tomas"]}, "ante": 1}).json()["id"]
    act(client, c, ch, t["house"], "declare", characteristics=["Poison"])  # C-9: the House first
    signed_in(client, t["tomas"]["Authorization"].removeprefix("Bearer "))
    page = client.get(f"/web/units/{ch}").text
    form = page[page.index('data-action="declare"'):].split("</form>")[0]
    assert "one list for the whole alliance, Ilse and Tomas; the first of you to send it names for all" in form
    assert "Whip Smart" in form and "Love Conquers All" in form  # both members' lists (PA-8)
    seats = ("house", "ilse", "tomas")
    for _ in range(12):  # on to the betting, then the House folds: the alliance is said as several
        listed = {seat: {a["action"]: a for a in client.get(f"{c}/challenges/{ch}", headers=t[seat]).json()["legal_actions"]}
                  for seat in seats}
        if "fold" in listed["house"] or "check" in listed["house"]:
            break
        seat, move = next((s, m) for m in ("pass", "declare", "roll", "keep") for s in seats if m in listed[s])
        args = {"characteristics": ["Whip Smart"]} if move == "declare" else ({"cup": []} if move == "keep" else {})
        act(client, c, ch, t[seat], move, **args)
    signed_in(client, t["house"]["Authorization"].removeprefix("Bearer "))  # the House's turn to bet (PA-9)
    assert re.search(r"Lady Sen \(the House\) bets \d+, Ilse and Tomas bet \d", client.get(f"/web/units/{ch}").text)
    act(client, c, ch, t["house"], "fold")
    assert "folded: Ilse and Tomas take the pot (PA-10)." in client.get(f"/web/units/{ch}").text


def test_after_an_undo_the_cup_kept_before_is_shown_fixed_and_sent_again_and_a_finished_table_shows_no_stake(client):
    """C-7: the same dice go back in the cup after an undo, so the page shows them as fixed, not as a choice that
    would be refused; once the challenge is over the House's stake has nothing left to cover (PA-17)."""
    from tests.e2e.test_challenge_http import act
    from tests.e2e.test_challenge_http import table as make_table

    c, t = make_table.__wrapped__(client)
    ch = client.post(f"{c}/challenges", headers=t["house"], json={
        "challenger": {"antagonist": "Lady Sen"}, "opponent": {"players": ["ilse"]}, "ante": 2, "stake": 20}).json()["id"]
    act(client, c, ch, t["house"], "declare", characteristics=["Poison"])
    act(client, c, ch, t["ilse"], "seed", seed="Ilse's lucky words")  # C-9, C-10: after the House's declaration
    act(client, c, ch, t["ilse"], "declare", characteristics=["Whip Smart"])
    act(client, c, ch, t["house"], "roll")
    act(client, c, ch, t["ilse"], "roll")
    act(client, c, ch, t["house"], "keep", cup=[0])
    act(client, c, ch, t["ilse"], "keep", cup=[1])
    signed_in(client, t["house"]["Authorization"].removeprefix("Bearer "))
    assert "the House's stake: 18 left" in client.get(f"/web/units/{ch}").text  # betting: the stake is shown
    first = min(s["step"] for s in client.get(f"{c}/challenges/{ch}/replay", headers=t["house"]).json()["steps"]
                if s["rewindable"])
    r = client.post(f"{c}/challenges/{ch}/rewind", headers=t["house"],
                    json={"to_step": first, "reason": "start over", "reveal": True})
    assert r.status_code == 200, r.text
    for _ in range(8):  # play up to Ilse's keep, the House keeping as before
        listed = {seat: {a["action"]: a for a in client.get(f"{c}/challenges/{ch}", headers=t[seat]).json()["legal_actions"]}
                  for seat in ("house", "ilse")}
        if "keep" in listed["ilse"]:
            break
        seat, move = next((s, m) for m in ("declare", "roll", "keep") for s in ("house", "ilse") if m in listed[s])
        required = listed[seat][move].get("required")
        args = {"characteristics": required or ["Whip Smart"]} if move == "declare" else (
            {"cup": required} if move == "keep" else {})
        act(client, c, ch, t[seat], move, **args)
    signed_in(client, t["ilse"]["Authorization"].removeprefix("Bearer "))
    page = client.get(f"/web/units/{ch}").text
    form = page[page.index('data-action="keep"'):].split("</form>")[0]
    assert 'data-testid="keep-bound"' in form and 'type="checkbox"' not in form
    assert '<input type="hidden" name="cup" value="1">' in form  # Ilse cupped her second die before (C-7)
    cup = {k: v for k, v in re.findall(r'name="(action|cup)" value="([^"]*)"', form)}
    r = client.post(f"/web/units/{ch}/act", data={"action": "keep", "cup__multi": "1", "cup": cup["cup"]})
    assert r.status_code == 200, r.text
    house = {a["action"]: a for a in client.get(f"{c}/challenges/{ch}", headers=t["house"]).json()["legal_actions"]}
    if "keep" in house:
        act(client, c, ch, t["house"], "keep", cup=house["keep"]["required"])
    act(client, c, ch, t["house"], "fold")
    signed_in(client, t["house"]["Authorization"].removeprefix("Bearer "))
    assert "the House's stake: " not in client.get(f"/web/units/{ch}").text
