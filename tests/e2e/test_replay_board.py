"""The replay page (C-6, C-8) draws each step as the system's own board, the unit as it stood after that step and
as the seat could see it then, never as the unit's fields: a player walking a settled unit on a phone reads
dice, cards and names, not ``seed_hash`` or ``your_side``. Every system of the registry's random games, played
over HTTP from the listed moves alone; the replay's last step is the settled table itself.
"""

from __future__ import annotations

import random
import re
from typing import Any

import httpx

from tests.e2e.board import PHONE, browser, needs_chromium, on_store, seat_page, url  # noqa: F401  (fixtures)
from tests.e2e.test_random_legal_play import PLAYERS, action_schema, announce, schemas, table
from tests.legal_play import body_for

pytestmark = needs_chromium
#: A field's name as the unit's state spells it: lower case words joined by underscores.
FIELD = re.compile(r"\b[a-z]+_[a-z_]+\b")


def settled_unit(http: httpx.Client, system: str, rng: random.Random) -> tuple[str, str, dict[str, dict[str, str]]]:
    """A unit of ``system`` played to its end from the seats' listed moves (no abandon, no rewind)."""
    c, t = table(http, system)
    found = schemas(http)
    unit = announce(http, system, c, t, rng)
    assert unit is not None
    for _ in range(200):
        views = {seat: http.get(f"{c}/challenges/{unit}", headers=h).json() for seat, h in t.items()}
        if views["house"]["phase"] == "settled":
            return c, unit, t
        options = [(seat, a) for seat, view in views.items() for a in view["legal_actions"]
                   if a["action"] != "abandon" and a.get("loan") is None]
        seat, legal = rng.choice(options)
        http.post(f"{c}/challenges/{unit}/actions", headers=t[seat],
                  json=body_for(legal, action_schema(found, system, legal["action"]), rng))
    raise AssertionError(f"{system}: the unit did not end in 200 moves")


#: A Pulp card's stored code (``R21``, ``P3``, ``BA``): the verify panel shows the card as it prints instead.
STORED_CARD = re.compile(r"\b(?:RA[12]|R2[12]|B[A24]|P[1-7])\b")


def lines(text: str, but: str | None = None) -> list[str]:
    """The text's lines that are not blank, nor (``but``) match a pattern."""
    return [x for x in text.splitlines() if x.strip() and not (but and re.search(but, x))]


def in_order(part: list[str], whole: list[str]) -> bool:
    """Every line of ``part`` is a line of ``whole``, in the same order."""
    rest = iter(whole)
    return all(any(line == x for x in rest) for line in part)


def board_of_step(page: Any, step: int) -> str:
    page.wait_for_function(
        "s => document.getElementById('step-board-step').textContent === String(s)"
        " && document.getElementById('step-state').getAttribute('aria-busy') === 'false'", arg=step)
    return page.locator("#step-state").inner_html()


@on_store("sqlite")
def test_the_replay_draws_every_step_as_the_systems_board_and_ends_on_the_settled_table(url, browser):  # noqa: F811
    http = httpx.Client(base_url=url, timeout=30)
    for system in sorted(PLAYERS):
        c, unit, t = settled_unit(http, system, random.Random(system))
        replay = http.get(f"{c}/challenges/{unit}/replay", headers=t["ilse"]).json()["steps"]
        page = seat_page(browser, url, t["ilse"]["Authorization"].removeprefix("Bearer "), PHONE)
        page.goto(f"{url}/web/units/{unit}/replay")
        boards = []
        for k in range(1, len(replay) + 1):
            boards.append(board_of_step(page, k))
            assert page.locator("#step-state > *").count() > 0, f"{system} step {k}: no board"
            shown = page.locator("main").inner_text()
            assert not FIELD.findall(shown), f"{system} step {k}: field names on the page: {FIELD.findall(shown)}"
            page.keyboard.press("ArrowRight")
        assert len(set(boards)) > 1, f"{system}: every step drew the same board"
        # the verify panel agrees with the server, whatever the system draws (Pulp checks each hand it dealt too)
        page.click("#verify-run")
        result = page.locator("[data-testid=verify-result]")
        assert result.get_attribute("data-agrees") == "true", (system, result.inner_text())
        assert "{" not in page.locator("#verify-list").inner_text() and "[" not in page.locator("#verify-list").inner_text()
        assert not STORED_CARD.search(page.locator("#verify-list").inner_text()), f"{system}: a card's stored code"
        # a slot names its side by who plays it, not by its role (found on a phone walk)
        listed = page.locator("#verify-list").inner_text()
        assert not re.search(r"· (challenger|opponent)\b", listed), (system, listed)
        # each step's board is the server's drawing of that step for this seat (C-5), fetched as the slider moves
        page.keyboard.press("Home")
        assert board_of_step(page, 1) == boards[0]
        # on a phone a tap of Next brings the step's board into view, headed by what happened (found on a walk:
        # the board changed below the fold and the tap seemed to do nothing)
        page.evaluate("window.scrollTo(0, 0)")
        page.click("#next")
        board_of_step(page, 2)
        page.wait_for_function("() => { const r = document.getElementById('step-board').getBoundingClientRect();"
                               " return r.top > -2 && r.top < window.innerHeight / 2; }")  # at its top, give or take a subpixel
        said = page.locator("#step-event strong").inner_text()
        assert said and page.locator("#step-board-words").inner_text() == said
        page.keyboard.press("Home")
        fragment = page.request.get(f"{url}/web/units/{unit}/replay/{len(replay)}")
        assert fragment.status == 200 and fragment.headers["cache-control"] == "no-store"
        assert page.request.get(f"{url}/web/units/{unit}/replay/{len(replay) + 1}").status == 404
        # the last step is the table as it stands, settled, less what the campaign's sheets say today (Penny
        # Ante's purses, a Beast character's Willpower, a Pool character's pool): a step of the replay has none
        # of its own
        page.goto(f"{url}/web/units/{unit}")
        live = page.locator("#table > section").first.inner_text()
        page.goto(f"{url}/web/units/{unit}/replay")
        page.locator("#step").fill(str(len(replay)))
        board_of_step(page, len(replay))
        last = lines(page.locator("#step-state").inner_text())
        assert last and in_order(last, lines(live)), (system, last, lines(live))
        page.context.close()
    # a signed-out browser reads no step
    assert httpx.get(f"{url}/web/units/{unit}/replay/1", follow_redirects=False).status_code in (303, 401)
