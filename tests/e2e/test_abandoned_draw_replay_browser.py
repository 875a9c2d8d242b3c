"""C-10 on the replay page, in Chromium at phone size: a Beast conflict the House undid one step of and then
abandoned after a seed shows the d10s it would have drawn as numbers (never a d6's pips), the verify panel
derives them again in the browser as the server does, and the undo is told apart from the step shown, in words."""

from __future__ import annotations

import re

import httpx

from tests.e2e.board import (  # noqa: F401  (browser and url are fixtures)
    WAIT,
    axe_check,
    browser,
    needs_chromium,
    phone_checks,
    seat_page,
    url,
)
from tests.e2e.test_abandoned_draw_on_the_board_http import act, seated

pytestmark = needs_chromium

PIPS = re.compile("[⚀-⚅]")


def test_an_abandoned_conflicts_replay_shows_its_d10s_as_numbers_and_the_browser_derives_them(url, browser):  # noqa: F811
    http = httpx.Client(base_url=url, timeout=30)
    c, t = seated(http, "beast", {"ilse": "Ilse Varn", "tomas": "Brother Tomas"})
    assert http.post(f"{c}/adventures", headers={"Authorization": f"Bearer {t['house']}"}, json={}).status_code == 201
    opened = http.post(f"{c}/conflicts", headers={"Authorization": f"Bearer {t['ilse']}"}, json={"against": "tomas"})
    unit = opened.json()["id"]
    act(http, c, unit, t["ilse"], action="seed", seed="Ilse's words")
    act(http, c, unit, t["tomas"], action="seed", seed="Tomas's words")
    act(http, c, unit, t["house"], action="abandon", reason="dawn came")
    replay = http.get(f"{c}/challenges/{unit}/replay", headers={"Authorization": f"Bearer {t['tomas']}"}).json()
    at = next(s["step"] for s in replay["steps"] if s["event"] == "DrawAbandoned")

    page = seat_page(browser, url, t["tomas"])
    page.goto(f"{url}/web/units/{unit}/replay")
    page.wait_for_selector("#step-event strong")
    page.locator("#step").fill(str(at))
    page.locator("#step-event details.recorded summary").click()
    recorded = page.locator("#step-event details.recorded")
    assert not PIPS.search(recorded.inner_text()), recorded.inner_text()  # d10s as numbers, never pips
    drawn = [r for r in replay["steps"][at - 1]["detail"]["draws"]]
    assert recorded.locator(".die.big").count() == len(drawn) > 0  # each die apart, as a die with its number
    assert recorded.locator(".die.big").first.get_attribute("aria-label") == f"die showing {drawn[0]['value']}"
    page.click("#verify-run")
    result = page.locator("[data-testid=verify-result]")
    result.wait_for(timeout=WAIT)
    server = http.get(f"{c}/challenges/{unit}/verify", headers={"Authorization": f"Bearer {t['tomas']}"}).json()
    abandoned = [r for r in server["results"] if r.get("abandoned")]
    assert abandoned and server["checked"] >= len(abandoned)
    assert result.get_attribute("data-agrees") == "true", result.inner_text()
    assert int(result.get_attribute("data-derived")) == server["checked"]
    phone_checks(page, "an abandoned conflict's replay")
    axe_check(page, "an abandoned conflict's replay")
