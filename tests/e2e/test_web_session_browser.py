"""The web session in headless Chromium (issue 29): a player follows his invite link (the code in the fragment),
signs in, plays a Pool contest from the page, reads the replay and /docs, and signs out. No page ever reports a
Content-Security-Policy violation, and after sign-out the old cookie value is refused by the pages, the API
and the stream; the invite code never reaches the server's access log."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.e2e.conftest import bearer, player_token
from tests.e2e.live import live_server
from tests.e2e.test_web_browser import CHROMIUM, WAIT, click_action, seat_page, sync_api
from tests.e2e.test_web_session_http import COOKIE, refused_everywhere

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="chromium is not installed")

#: Reports every violation the page sees on the console, where the test listens (Chromium logs its own too).
REPORT = ("document.addEventListener('securitypolicyviolation', (e) => console.error("
          "'CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI));")


@pytest.fixture
def served(settings, env_for, tmp_path) -> Iterator[tuple[str, Path]]:
    log = tmp_path / "server.log"
    with live_server(env_for(settings), log) as url:
        yield url, log


@pytest.fixture
def browser() -> Iterator[object]:
    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield chromium
        chromium.close()


def watched(browser, violations: list[str]):
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    context.add_init_script(REPORT)
    page = context.new_page()

    def heard(message) -> None:
        text = message.text
        if "Content Security Policy" in text or "CSP violation" in text or "Refused to" in text:
            violations.append(f"{page.url}: {text}")

    page.on("console", heard)
    return context, page


def test_a_player_signs_in_by_his_invite_link_plays_and_signs_out_with_no_csp_violation(served, browser):
    url, log = served
    http = httpx.Client(base_url=url)
    created = http.post("/campaigns", json={"name": "Pool night", "system": "pool"}).json()
    c, house = f"/campaigns/{created['campaign']['id']}", bearer(created["house_token"])
    invite = http.post(f"{c}/players", headers=house, json={"seat": "ilse", "character": "Ilse",
                                                            "description": "ilse the bold"}).json()["invite"]
    tomas = player_token(http, http.post(f"{c}/players", headers=house, json={
        "seat": "tomas", "character": "Tomas", "description": "tomas the bold"}).json())
    assert http.post(f"{c}/adventures", headers=house, json={}).status_code in (200, 201)  # C-1

    violations: list[str] = []
    context, i = watched(browser, violations)
    # The link the House hands over carries the code in its fragment: the page fills the form, and drops it
    # from the address bar; nothing is claimed until the player sends the form.
    i.goto(f"{url}/web/invite#{invite}")
    i.wait_for_function("document.getElementById('token').value !== ''", timeout=WAIT)
    assert i.input_value("#token") == invite and "#" not in i.url
    # The page says whose seat it opens, by name, before the player takes it (nothing spent yet).
    i.locator("[data-testid=invite-whose]").wait_for(state="visible", timeout=WAIT)
    assert i.locator("[data-testid=invite-whose]").inner_text() == "The House invites you to play Ilse in Pool night."
    assert i.locator("h1").inner_text() == "Take Ilse's seat"
    i.click("button[type=submit]")
    token = i.locator("[data-testid=seat-token]").input_value()
    assert token.startswith("stk_") and http.get("/session", headers=bearer(token)).json()["seat"] == "ilse"
    i.click("#continue")
    i.wait_for_url(f"{url}/web/campaign")
    session = next(k["value"] for k in context.cookies() if k["name"] == COOKIE)
    assert session.startswith("ses_") and session != token

    # Play a contest from the pages (htmx, its SSE extension and the keep-input script all run under the CSP).
    t = seat_page(browser, url, tomas)
    form = i.locator("#own-sheet form[data-verb='open-contest']")  # the Pool board: opponents as radios, by name
    form.locator("input[name=opponent][value='tomas']").check()
    form.locator("button[type=submit]").click()
    i.wait_for_url("**/web/units/*")
    unit = i.url.rsplit("/", 1)[1]
    t.locator(f"#tables a[href='/web/units/{unit}']").wait_for(timeout=WAIT)
    t.click(f"#tables a[href='/web/units/{unit}']")
    deadline = time.monotonic() + 60
    while i.locator("#table > section").get_attribute("data-phase") != "settled" and time.monotonic() < deadline:
        acted = False
        for page in (i, t):
            for name in ("pass", "roll", "push"):  # C-10: a seed or pass before the other's first roll
                if page.locator(f"#table form[data-action='{name}']").count():
                    acted = click_action(page, name, may_vanish=True)
                    break
        if not acted:
            i.wait_for_timeout(200)
    i.wait_for_selector("#table section[data-phase='settled']", timeout=WAIT)

    # The replay and its verify panel, and Swagger UI: scripts from files only.
    i.goto(f"{url}/web/units/{unit}/replay")
    i.click("#verify-run")
    assert i.locator("[data-testid=verify-result]").get_attribute("data-agrees") == "true"
    assert http.get("/openapi.json", timeout=60).status_code == 200  # built once, on its first request
    i.goto(f"{url}/docs")
    i.locator(".swagger-ui .opblock").first.wait_for(timeout=60_000)
    i.goto(f"{url}/web/campaign")

    # Sign out: the browser is back at the sign-in, and the old cookie value works nowhere any more.
    errors: list[str] = []  # nothing on the console but what the page's own stream ending would say
    i.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    i.wait_for_function("() => document.querySelector('[sse-connect]') !== null")
    i.wait_for_timeout(300)  # the stream open
    i.click("header form button")
    i.wait_for_url(f"{url}/web")
    i.wait_for_timeout(500)
    assert errors == [], errors  # found on a phone walk: "[object Event]" twice, and a 401 of /web/session
    # the browser's cookie store takes the answer's Set-Cookie on its own schedule, not with the navigation
    for _ in range(50):
        if not [k for k in context.cookies() if k["name"] == COOKIE]:
            break
        i.wait_for_timeout(100)
    assert not [k for k in context.cookies() if k["name"] == COOKIE]
    refused_everywhere(url, c, session)
    context.add_cookies([{"name": COOKIE, "value": session, "url": url}])  # the old value put back by hand
    i.goto(f"{url}/web/campaign")
    assert i.url == f"{url}/web" and i.locator("#token").count() == 1

    assert violations == []
    # The listener hears a violation when there is one: an inline script put into the page is refused.
    i.evaluate("() => { const s = document.createElement('script'); s.textContent = 'window.ran = 1';"
               " document.body.appendChild(s); }")
    i.wait_for_timeout(300)
    assert violations and i.evaluate("window.ran === undefined")
    assert invite not in log.read_text() and token not in log.read_text()
