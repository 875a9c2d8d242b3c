"""The web session is a session, and the web view is hardened (issue 29), over real HTTP against ``stakes serve``
(uvicorn) on both stores: the cookie holds a server-side session id that sign-out, a reissue and expiry end
everywhere at once (pages, API, stream); writes from another origin are refused and store nothing; every answer
carries the security headers and a seat's answers are never stored; an unspent invite code never reaches the
server's access log."""

from __future__ import annotations

import re
import time
from html.parser import HTMLParser

import httpx
import pytest

from tests.e2e.conftest import bearer, player_token
from tests.e2e.live import live_server, live_server_for

COOKIE = "stakes_session"


#: Each test plays its own campaign: the module shares one store of each kind and its live server.
pytestmark = pytest.mark.shared_store


@pytest.fixture
def server(request, settings, env_for, tmp_path):
    """A live server on the store under test (the module's, when it shares stores); yields (url, the path of its
    log: stdout and stderr)."""
    with live_server_for(request, settings, env_for(settings), tmp_path / "server.log") as (url, _, log):
        yield url, log


def pool_table(http: httpx.Client) -> tuple[str, dict[str, str], str, dict[str, str]]:
    """A Pool campaign with two seated players and an open contest: (campaign path, tokens, contest id, invite
    of a third seat not yet claimed)."""
    created = http.post("/campaigns", json={"name": "Pool night", "system": "pool"}).json()
    c, house = f"/campaigns/{created['campaign']['id']}", bearer(created["house_token"])
    tokens = {"house": created["house_token"]}
    for seat in ("ilse", "tomas"):
        added = http.post(f"{c}/players", headers=house, json={"seat": seat, "character": seat.title(),
                                                               "description": f"{seat} the bold"}).json()
        tokens[seat] = player_token(http, added)
    unclaimed = http.post(f"{c}/players", headers=house, json={"seat": "oskar", "character": "Oskar",
                                                               "description": "oskar the quiet"}).json()
    assert http.post(f"{c}/adventures", headers=house, json={}).status_code in (200, 201)  # C-1
    contest = http.post(f"{c}/contests", headers=bearer(tokens["ilse"]), json={"opponent": "tomas"})
    assert contest.status_code in (200, 201), contest.text
    return c, tokens, contest.json()["id"], unclaimed


def sign_in(url: str, token: str) -> str:
    """Sign in through the page's form (same origin) and answer the cookie's value."""
    r = httpx.post(f"{url}/web/sign-in", data={"token": token}, headers={"Origin": url}, follow_redirects=False)
    assert r.status_code in (200, 303), r.text
    return r.cookies[COOKIE]


def with_cookie(session: str) -> dict[str, str]:
    return {"Cookie": f"{COOKIE}={session}"}


def stream_status(url: str, path: str, headers: dict[str, str]) -> int:
    with httpx.stream("GET", f"{url}{path}/stream", headers=headers, timeout=10) as r:
        return r.status_code


def refused_everywhere(url: str, c: str, session: str) -> None:
    """The cookie's value gets the sign-in page on pages, and 401 from the API and the stream."""
    page = httpx.get(f"{url}/web/campaign", headers=with_cookie(session), follow_redirects=False)
    assert page.status_code == 303 and page.headers["location"] == "/web"
    fragment = httpx.get(f"{url}/web/campaign/panel", headers={**with_cookie(session), "HX-Request": "true"})
    assert fragment.status_code == 401 and fragment.headers["HX-Redirect"] == "/web"
    for path in ("/session", c, f"{c}/log"):
        r = httpx.get(f"{url}{path}", headers=with_cookie(session))
        assert r.status_code == 401, (path, r.text)
    assert stream_status(url, c, with_cookie(session)) == 401


def works(url: str, c: str, session: str, seat: str) -> None:
    assert httpx.get(f"{url}/web/campaign", headers=with_cookie(session)).status_code == 200
    assert httpx.get(f"{url}/session", headers=with_cookie(session)).json()["seat"] == seat
    assert stream_status(url, c, with_cookie(session)) == 200


def test_the_cookie_holds_a_session_id_that_sign_out_ends_on_pages_the_api_and_the_stream(server):
    url, _ = server
    http = httpx.Client(base_url=url)
    c, tokens, _, _ = pool_table(http)
    session, other_browser = sign_in(url, tokens["ilse"]), sign_in(url, tokens["ilse"])
    assert session.startswith("ses_") and session != other_browser and tokens["ilse"] not in (session, other_browser)
    works(url, c, session, "ilse")

    out = httpx.post(f"{url}/web/sign-out", headers={**with_cookie(session), "Origin": url}, follow_redirects=False)
    assert out.status_code == 303 and f'{COOKIE}=""' in out.headers["set-cookie"]  # the browser forgets it
    refused_everywhere(url, c, session)  # and the server no longer knows it, wherever it is sent
    works(url, c, other_browser, "ilse")  # another browser's session of the seat goes on
    assert http.get("/session", headers=bearer(tokens["ilse"])).json()["seat"] == "ilse"  # so does the token


def test_a_cookie_holding_a_seat_token_or_an_unknown_session_is_no_credential(server):
    url, _ = server
    http = httpx.Client(base_url=url)
    _, tokens, _, _ = pool_table(http)
    for value in (tokens["ilse"], "ses_unknown", "ses_"):  # the old release's cookie held the token itself
        assert httpx.get(f"{url}/session", headers=with_cookie(value)).status_code == 401
        assert httpx.get(f"{url}/web/campaign", headers=with_cookie(value), follow_redirects=False).status_code == 303
    for value in ("ses_unknown", "stk_unknown"):  # 401 for any unknown token, as a bearer too
        assert http.get("/session", headers=bearer(value)).status_code == 401


def test_a_reissued_seat_ends_the_old_holders_web_sessions(server):
    url, _ = server
    http = httpx.Client(base_url=url)
    c, tokens, _, _ = pool_table(http)
    ilse, tomas = sign_in(url, tokens["ilse"]), sign_in(url, tokens["tomas"])
    works(url, c, ilse, "ilse")
    reissued = http.post(f"{c}/players/ilse/token", headers=bearer(tokens["house"]))
    assert reissued.status_code in (200, 201), reissued.text
    refused_everywhere(url, c, ilse)
    works(url, c, tomas, "tomas")  # only that seat's sessions end
    new = sign_in(url, reissued.json()["invite"])  # the new holder claims it and is signed in
    works(url, c, new, "ilse")


@pytest.fixture
def short_sessions(settings):
    return settings.model_copy(update={"web_session_seconds": 4})


def test_a_web_session_stops_working_by_itself_at_its_expiry(short_sessions, env_for, tmp_path):
    with live_server(env_for(short_sessions), tmp_path / "server.log") as url:
        http = httpx.Client(base_url=url)
        c, tokens, _, _ = pool_table(http)
        r = httpx.post(f"{url}/web/sign-in", data={"token": tokens["ilse"]}, headers={"Origin": url},
                       follow_redirects=False)
        session, signed_in = r.cookies[COOKIE], time.time()
        assert "Max-Age=4" in r.headers["set-cookie"]
        assert httpx.get(f"{url}/session", headers=with_cookie(session)).json()["seat"] == "ilse"
        time.sleep(max(0.0, signed_in + 4.5 - time.time()))  # past its expiry: the server refuses it itself
        refused_everywhere(url, c, session)
        assert http.get("/session", headers=bearer(tokens["ilse"])).json()["seat"] == "ilse"  # the token lives on


def test_a_write_from_another_origin_is_refused_and_stores_nothing(server):
    url, _ = server
    http = httpx.Client(base_url=url)
    c, tokens, _, _ = pool_table(http)
    house = sign_in(url, tokens["house"])
    port = int(url.rsplit(":", 1)[1])
    before = http.get(f"{c}/log?limit=1000", headers=bearer(tokens["house"])).json()["entries"]
    hostile = [{"Origin": "http://evil.example"},
               {"Origin": f"http://127.0.0.1:{port + 1}"},  # another port of the same host: same-site, not same-origin
               {"Origin": "null"},
               {"Origin": url, "Sec-Fetch-Site": "same-site"},
               {"Sec-Fetch-Site": "cross-site"},
               {"Referer": "http://evil.example/page"}]  # no Origin, and a Referer of another origin
    writes = [("/web/commands/add-player", {"seat": "mallory", "character": "Mallory", "description": "sly"}),
              ("/web/sign-out", {}),
              ("/web/sign-in", {"token": tokens["ilse"]})]
    for headers in hostile:
        for path, form in writes:
            r = httpx.post(f"{url}{path}", data=form, headers={**with_cookie(house), **headers}, follow_redirects=False)
            assert r.status_code == 403, (headers, path, r.text)
            assert r.headers["content-type"] == "application/problem+json" and "origin" in r.json()["detail"].lower()
            assert COOKIE not in r.headers.get("set-cookie", "")
        # the API too, when the write rides on the cookie rather than a bearer header
        r = httpx.post(f"{url}{c}/players", json={"seat": "mallory", "character": "Mallory", "description": "sly"},
                       headers={**with_cookie(house), **headers})
        assert r.status_code == 403, (headers, r.text)
    after = http.get(f"{c}/log?limit=1000", headers=bearer(tokens["house"])).json()["entries"]
    assert after == before  # nothing stored
    works(url, c, house, "house")  # the hostile sign-outs ended nothing

    # the same posts from the server's own pages go through
    same = {**with_cookie(house), "Origin": url, "Sec-Fetch-Site": "same-origin"}
    r = httpx.post(f"{url}/web/commands/add-player", data=writes[0][1], headers=same)
    assert r.status_code == 200 and "inv_" in r.text
    assert http.get(f"{c}/characters/mallory", headers=bearer(tokens["house"])).status_code == 200
    # and a bearer-token client (no browser, no cookie) is not asked for an Origin
    r = http.post(f"{c}/players", json={"seat": "nina", "character": "Nina", "description": "calm"},
                  headers={**bearer(tokens["house"]), "Origin": "http://evil.example"})
    assert r.status_code in (200, 201), r.text


class Markup(HTMLParser):
    """What a page carries that a strict Content-Security-Policy would block."""

    def __init__(self) -> None:
        super().__init__()
        self.inline_scripts: list[str] = []
        self.handlers: list[str] = []
        self.styles: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        self.handlers += [name for name, _ in attrs if name.startswith("on")]
        self.styles += ["style attribute"] if "style" in found else []
        self.styles += ["style element"] if tag == "style" else []
        self._in_script = tag == "script" and "src" not in found and found.get("type") != "application/json"
        if tag == "a" and (found.get("href") or "").lower().startswith("javascript:"):
            self.handlers.append("javascript: link")

    def handle_data(self, data: str) -> None:
        if self._in_script and data.strip():
            self.inline_scripts.append(data.strip()[:80])

    def handle_endtag(self, tag: str) -> None:
        self._in_script = False


def security_headers(r: httpx.Response, seat: bool) -> None:
    csp = r.headers["content-security-policy"]
    directives = {d.split()[0]: d.split()[1:] for d in (p.strip() for p in csp.split(";")) if d}
    assert directives["script-src"] == ["'self'"] and directives["style-src"] == ["'self'"], csp
    assert directives["frame-ancestors"] == ["'none'"] and directives["object-src"] == ["'none'"], csp
    assert "'unsafe-inline'" not in csp and "'unsafe-eval'" not in csp
    assert r.headers["x-frame-options"] == "DENY"
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["referrer-policy"] in ("no-referrer", "same-origin")
    if seat:
        assert r.headers["cache-control"] == "no-store", r.url


def test_every_page_fragment_and_answer_sends_the_security_headers_and_a_seats_are_never_stored(server):
    url, _ = server
    http = httpx.Client(base_url=url)
    c, tokens, unit, _ = pool_table(http)
    ilse = with_cookie(sign_in(url, tokens["ilse"]))
    public = ["/web", "/web/invite", "/docs"]  # signed out
    pages = ["/web/campaign", f"/web/units/{unit}", f"/web/units/{unit}/replay"]
    fragments = ["/web/campaign/panel", f"/web/units/{unit}/table"]
    for path in public + pages + fragments:
        r = httpx.get(f"{url}{path}", headers={} if path in public else ilse)
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/html"), path
        security_headers(r, seat=True)
        markup = Markup()
        markup.feed(r.text)
        assert markup.inline_scripts == [] and markup.handlers == [] and markup.styles == [], (path, markup.__dict__)
    for path in ("/session", c, f"{c}/challenges/{unit}", f"{c}/log", "/openapi.json", "/health"):
        r = httpx.get(f"{url}{path}", headers=ilse)
        assert r.status_code == 200, path
        security_headers(r, seat=True)
    with httpx.stream("GET", f"{url}{c}/stream", headers=ilse, timeout=10) as r:
        assert r.status_code == 200
        security_headers(r, seat=True)
    for path in ("/web/campaign", f"{c}/log"):  # refusals carry them too
        security_headers(httpx.get(f"{url}{path}", follow_redirects=False), seat=True)
    # a move posted from the table, and the vendored assets (which alone may be cached)
    r = httpx.post(f"{url}/web/units/{unit}/act", data={"action": "roll"}, headers={**ilse, "Origin": url})
    security_headers(r, seat=True)
    for asset in ("/static/web.css", "/static/invite.js", "/static/swagger/init.js", "/static/vendor/htmx-2.0.11.min.js"):
        r = httpx.get(f"{url}{asset}")
        assert r.status_code == 200 and r.headers.get("cache-control") != "no-store", asset
        security_headers(r, seat=False)


def test_an_unspent_invite_code_never_reaches_the_access_log_and_says_whose_seat_it_opens(server):
    url, log = server
    http = httpx.Client(base_url=url)
    _, _, _, invite = pool_table(http)
    code = invite["invite"]
    # What a browser sends for the link /web/invite#<code>: the fragment stays in the browser.
    page = httpx.get(f"{url}/web/invite#{code}")
    assert page.status_code == 200 and code not in page.text
    # An old-style link (the code in the path) is sent on to the fragment form; its request line is blanked.
    old = httpx.get(f"{url}/web/invite/{code}", follow_redirects=False)
    assert old.status_code == 303 and old.headers["location"] == f"/web/invite#{code}"
    httpx.get(f"{url}/web/invite?code={code}")  # a hand-made query string: blanked as well
    # The sign-in page asks whose seat the code opens (in a POST body): nothing is spent, and it asks again alike.
    for _ in range(2):
        whose = httpx.post(f"{url}/web/invite/whose", data={"token": code}, headers={"Origin": url})
        assert whose.status_code == 200 and whose.json() == {"campaign": "Pool night", "character": "Oskar"}
    assert httpx.post(f"{url}/web/invite/whose", data={"token": code},
                      headers={"Origin": "https://elsewhere.example"}).status_code == 403  # another site: refused
    unspent = log.read_text()
    claimed = httpx.post(f"{url}/web/sign-in", data={"token": code}, headers={"Origin": url})
    assert claimed.status_code == 200 and "Oskar" in claimed.text  # the character's name, not the seat handle
    spent = httpx.post(f"{url}/web/invite/whose", data={"token": code}, headers={"Origin": url})
    assert spent.status_code == 403 and "C-1" in spent.text and "Oskar" not in spent.text
    unknown = httpx.post(f"{url}/web/invite/whose", data={"token": "inv_" + "x" * 22}, headers={"Origin": url})
    assert unknown.status_code == 403 and unknown.json() == spent.json()  # unknown and spent read alike
    deadline = time.monotonic() + 10  # the access log is written by another process: wait for its lines
    while "/web/sign-in" not in log.read_text() and time.monotonic() < deadline:
        time.sleep(0.1)
    text = log.read_text()
    assert '"GET /web/invite HTTP/1.1" 200' in text and "POST /web/sign-in" in text  # the log is the server's
    assert "/web/invite/inv_[redacted]" in text and "code=inv_[redacted]" in text
    assert code not in text and code not in unspent
    assert not re.search(r"stk_[A-Za-z0-9_-]{8}|ses_[A-Za-z0-9_-]{8}", text)  # nor a token or a session id
