"""The web view over plain HTTP (issue 14): sign-in cookie, pages per seat (C-5), forms, offline /docs."""

from __future__ import annotations

import re

from tests.e2e.test_challenge_http import play_to_betting, table  # noqa: F401  (fixture)


def sign_in(client, token: str) -> None:
    r = client.post("/web/sign-in", data={"token": token}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/web/campaign"
    cookie = r.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie


def test_docs_and_the_pages_load_every_asset_from_the_server_itself(client):
    for path in ("/docs", "/web"):
        page = client.get(path).text
        sources = re.findall(r'(?:src|href)="([^"]+)"', page) + re.findall(r"(?:_url|url): *'([^']+)'", page)
        assert sources and all(s.startswith(("/", "#")) for s in sources) and "//" not in "".join(sources), sources
        for source in sources:
            if source.startswith("/static/"):
                assert client.get(source).status_code == 200, source


def test_an_unknown_token_is_refused_and_a_signed_out_page_goes_to_the_sign_in(client):
    r = client.post("/web/sign-in", data={"token": "stk_nobody"})
    assert r.status_code == 401 and "not known" in r.text
    r = client.get("/web/campaign", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/web"


def test_the_cookie_stands_for_the_seat_in_the_api_too(client, table):  # noqa: F811
    c, t = table
    token = t["ilse"]["Authorization"].split(" ", 1)[1]
    sign_in(client, token)
    assert client.get("/session").json()["seat"] == "ilse"
    assert client.get(f"{c}/characters/ilse").status_code == 200


def test_each_seats_table_page_hides_the_other_sides_cup(client, table):  # noqa: F811
    c, t = table
    ch = play_to_betting(client, c, t)
    for seat in ("house", "ilse", "tomas"):
        client.cookies.clear()
        sign_in(client, t[seat]["Authorization"].split(" ", 1)[1])
        page = client.get(f"/web/units/{ch}/table").text
        view = client.get(f"{c}/challenges/{ch}").json()
        hidden = sum(d["value"] is None for side in view["sides"].values() for d in side["dice"])
        assert page.count('class="die hidden"') == hidden > 0, seat
        panel = client.get("/web/campaign/panel").text
        assert "Cunning" not in page and ("Cunning" in panel) == (seat == "house"), seat  # unused, the House's (C-5)


def test_a_move_posted_from_a_form_is_validated_like_json_and_refusals_name_the_ruling(client, table):  # noqa: F811
    c, t = table
    ch = play_to_betting(client, c, t)
    sign_in(client, t["house"]["Authorization"].split(" ", 1)[1])
    r = client.post(f"/web/units/{ch}/act", data={"action": "raise", "amount": "3"})
    assert r.status_code == 422 and "PA-9" in r.text
    r = client.post(f"/web/units/{ch}/act", data={"action": "raise", "amount": "two"})
    assert r.status_code == 422 and "whole number" in r.text
    r = client.post(f"/web/units/{ch}/act", data={"action": "raise", "amount": "4"})
    assert r.status_code == 200 and client.get(f"{c}/challenges/{ch}").json()["pot"] == 8


def test_a_player_added_from_the_campaign_page_signs_in_with_his_invite_once(client, table):  # noqa: F811
    _c, t = table
    sign_in(client, t["house"]["Authorization"].split(" ", 1)[1])
    r = client.post("/web/commands/add-player", data={"seat": "oskar", "character": "Oskar", "characteristic": "Sly"})
    assert r.status_code == 200 and "inv_" in r.text and "stk_" not in r.text  # the House never sees his token
    code = re.search(r"inv_[A-Za-z0-9_-]+", r.text).group(0)
    client.post("/web/sign-out")
    # an old-style link (the code in the path) goes on to the fragment form (issue 29), and claims nothing yet
    link = client.get(f"/web/invite/{code}", follow_redirects=False)
    assert link.status_code == 303 and link.headers["location"] == f"/web/invite#{code}"
    page = client.get("/web/invite")
    assert page.status_code == 200 and "/static/invite.js" in page.text and code not in page.text
    claimed = client.post("/web/sign-in", data={"token": code}, follow_redirects=False)  # signs him in as oskar
    assert claimed.status_code == 200 and "stakes_session=ses_" in claimed.headers["set-cookie"]
    token = re.search(r'value="(stk_[A-Za-z0-9_-]+)"', claimed.text).group(1)  # shown to him once
    assert client.get("/session").json()["seat"] == "oskar"
    assert client.get("/session", headers={"Authorization": f"Bearer {token}"}).json()["seat"] == "oskar"
    client.post("/web/sign-out")
    again = client.post("/web/sign-in", data={"token": code}, follow_redirects=False)
    assert again.status_code == 403 and "claimed" in again.text  # an invite works once (C-1)
    sign_in(client, t["house"]["Authorization"].split(" ", 1)[1])
    r = client.post("/web/commands/add-player", data={"seat": "", "character": ""})
    assert r.status_code == 422
