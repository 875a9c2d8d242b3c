"""The web view in headless Chromium (Playwright, Debian's chromium; ``make test`` installs both): three seats,
each in its own browser context, watch one Penny Ante challenge played from the pages; a Pool contest is
played from the pages too (issue 14). Pages update from the live stream, never by a reload."""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.conftest import sqlite_settings
from tests.e2e.conftest import bearer, player_token
from tests.e2e.live import live_server

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
DOCS = Path(__file__).resolve().parents[2] / "docs"
sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="chromium is not installed (make test installs it)")
WAIT = 15_000  # ms for a page to follow the stream


@pytest.fixture
def url(env_for, tmp_path) -> Iterator[str]:
    with live_server(env_for(sqlite_settings(tmp_path)), tmp_path / "server.log") as found:
        yield found


@pytest.fixture
def browser() -> Iterator[object]:
    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield chromium
        chromium.close()


def seat_page(browser, url: str, token: str, phone: bool = False):
    """A browser context of its own for one seat, signed in through the page's form."""
    context = browser.new_context(viewport={"width": 390, "height": 844} if phone else {"width": 1100, "height": 900})
    page = context.new_page()
    page.goto(f"{url}/web")
    page.fill("#token", token)
    page.click("button[type=submit]")
    page.wait_for_url(f"{url}/web/campaign")
    page.evaluate("window.__notReloaded = true")
    return page


def not_reloaded(page) -> bool:
    return page.evaluate("window.__notReloaded === true")


def click_action(page, name: str, *, may_vanish: bool = False) -> bool:
    """Send the move; with ``may_vanish``, a move another seat's move took away meanwhile (the page re-drew
    the table from its stream between looking and clicking) is not sent, and False says so."""
    form = page.locator(f"#table form[data-action='{name}']")
    before = page.locator("#table > section").get_attribute("data-phase")
    # marked in one step (a live frame may re-draw the table between looking and marking): the table drawn again
    # after the move (swapped or morphed) no longer carries the mark
    marked = page.evaluate("n => { const f = document.querySelector(`#table form[data-action='${n}']`);"
                           " if (f) f.setAttribute('data-sent', '1'); return !!f; }", name)
    if not marked and may_vanish:
        return False
    if not may_vanish:  # the move's own answer, not a live frame that lands while it is sent, says it is done
        with page.expect_response(lambda r: r.request.method == "POST" and "/act" in r.url, timeout=WAIT):
            form.locator("button[type=submit]").click()
        return True
    try:
        form.locator("button[type=submit]").click(timeout=5_000)
    except PlaywrightTimeout:
        if form.count():
            raise
        return False
    # sent: the table is drawn again (the move's answer, or a live frame), which a form offered anew after the move
    # (a second round of the same move) also is
    page.wait_for_function(f"(p) => !document.querySelector(\"#table form[data-action='{name}'][data-sent]\") "
                           "|| document.querySelector('#table > section').dataset.phase !== p", arg=before, timeout=WAIT)
    return True


def hidden_dice_in_view(view: dict) -> int:
    return sum(d["value"] is None for side in view["sides"].values() for d in side["dice"])


def test_three_seats_watch_one_penny_ante_challenge_played_from_their_pages(url, browser):
    http = httpx.Client(base_url=url)
    created = http.post("/campaigns", json={"name": "Jade Court", "settings": {"starting_pile": 30}}).json()
    c, house = f"/campaigns/{created['campaign']['id']}", bearer(created["house_token"])
    tokens = {"house": created["house_token"]}
    for seat, trait in (("ilse", "Whip Smart"), ("tomas", "Love Conquers All")):
        added = http.post(f"{c}/players", headers=house, json={"seat": seat, "character": seat.title(),
                                                               "characteristic": trait}).json()
        tokens[seat] = player_token(http, added)
    http.post(f"{c}/antagonists", headers=house, json={"name": "Lady Sen", "characteristics": ["Poison", "Cunning"]})
    http.post(f"{c}/adventures", headers=house)
    http.post(f"{c}/antagonists/Lady%20Sen/funding", headers=house, json={"amount": 20})
    pages = {seat: seat_page(browser, url, token, phone=seat == "ilse") for seat, token in tokens.items()}

    # The House announces the challenge from its page; every seat's campaign page lists it without a reload.
    h = pages["house"]
    h.locator("details[data-verb='announce-challenge']").evaluate("d => { d.open = true; }")
    form = h.locator("form[data-verb='announce-challenge']")
    form.locator("[name='challenger.antagonist']").select_option("Lady Sen")  # the sides by name, not as JSON (issue 31)
    form.locator("input[name='opponent.players'][value=ilse]").check()
    form.locator("[name=ante]").fill("2")
    form.locator("button[type=submit]").click()
    h.wait_for_url("**/web/units/*")
    unit = h.url.rsplit("/", 1)[1]
    for seat in ("ilse", "tomas"):
        pages[seat].locator(f"#tables a[href='/web/units/{unit}']").wait_for(timeout=WAIT)
        assert not_reloaded(pages[seat]), seat
        pages[seat].click(f"#tables a[href='/web/units/{unit}']")
        pages[seat].wait_for_url(f"**/web/units/{unit}")
    for page in pages.values():
        page.evaluate("window.__notReloaded = true")

    i, t = pages["ilse"], pages["tomas"]
    h.check("#table form[data-action='declare'] input[value='Poison']")
    click_action(h, "declare")  # C-9: the House's characteristics before the player's seed
    i.fill("#table form[data-action='seed'] [name=seed]", "Ilse's lucky words")
    click_action(i, "seed")
    i.check("#table form[data-action='declare'] input[value='Whip Smart']")
    click_action(i, "declare")
    click_action(h, "roll")
    click_action(i, "roll")
    h.locator("#table form[data-action='keep'] input[name=cup]").first.check()
    click_action(h, "keep")
    i.locator("#table form[data-action='keep'] input[name=cup]").last.check()
    click_action(i, "keep")
    t.wait_for_selector("#table section[data-phase='betting-1']", timeout=WAIT)

    # Each seat sees exactly what its reads show it (C-5): the other side's cup dice stay hidden.
    secret = None
    for seat, page in pages.items():
        view = http.get(f"{c}/challenges/{unit}", headers=bearer(tokens[seat])).json()
        page.wait_for_selector(f"#table section[data-phase='{view['phase']}']", timeout=WAIT)
        assert page.locator("#table .die.hidden").count() == hidden_dice_in_view(view) > 0, seat
        assert "Cunning" not in page.locator("#table").inner_text() or seat == "house"
    assert "waiting" in t.locator("[data-testid=waiting]").inner_text().lower()
    if os.environ.get("STAKES_SCREENSHOTS") == "1":  # the README's pictures, only when asked (make screenshots)
        t.screenshot(path=str(DOCS / "web-table.png"), full_page=True)

    # Play it out from the pages: whoever the table waits for takes the first of check / call / roll / seed (the
    # fresh seed after both reroll calls, drawn in the browser, C-9), once
    # his page (updated by the stream) offers it.
    for _ in range(20):
        # each seat learns its own moves only (C-5): another seat's are not named
        waiting = {seat: http.get(f"{c}/challenges/{unit}/waiting", headers=bearer(tokens[seat])).json()["seats"]
                   for seat in ("house", "ilse")}
        moves = [(seat, name) for seat in ("house", "ilse") for name in ("check", "call", "roll", "seed")
                 if name in waiting[seat].get(seat, [])]
        if not moves:
            break
        seat, name = moves[0]
        pages[seat].wait_for_selector(f"#table form[data-action='{name}']", timeout=WAIT)
        click_action(pages[seat], name)
    for seat, page in pages.items():
        page.wait_for_selector("#table section[data-phase='settled']", timeout=WAIT)
        assert not_reloaded(page), seat
        assert page.locator("#table .die.hidden").count() == 0, seat  # settled: everything is shown
    secret = http.get(f"{c}/challenges/{unit}", headers=bearer(tokens["tomas"])).json()["secret_seed"]
    assert secret and secret not in t.locator("#table").inner_text()  # the seeds are the verify panel's (issue 31)

    # The replay slider walks the settled challenge, by keys too; the verify panel agrees with the server.
    replay = http.get(f"{c}/challenges/{unit}/replay", headers=bearer(tokens["ilse"])).json()
    i.goto(f"{url}/web/units/{unit}/replay")
    assert i.locator("#step").get_attribute("max") == str(len(replay["steps"]))
    seen = []
    for step in replay["steps"]:
        assert i.locator("#step-label").inner_text() == str(step["step"])
        seen.append(i.locator("#step-event strong").get_attribute("data-event"))
        i.keyboard.press("ArrowRight")
    assert seen == [s["event"] for s in replay["steps"]]
    i.keyboard.press("Home")
    assert i.locator("#step-label").inner_text() == "1"
    i.locator("#step").fill(str(len(replay["steps"])))
    assert i.locator("#step-label").inner_text() == str(len(replay["steps"]))
    assert secret in i.locator("#verify-data").text_content()
    server = http.get(f"{c}/challenges/{unit}/verify", headers=bearer(tokens["ilse"])).json()
    i.click("#verify-run")
    result = i.locator("[data-testid=verify-result]")
    assert result.get_attribute("data-agrees") == "true", result.inner_text()
    assert int(result.get_attribute("data-derived")) == server["checked"] > 0
    assert int(result.get_attribute("data-mismatches")) == len(server["mismatches"]) == 0
    if os.environ.get("STAKES_SCREENSHOTS") == "1":
        i.screenshot(path=str(DOCS / "web-replay.png"), full_page=True)


def test_a_pool_contest_is_played_from_two_pages(url, browser):
    http = httpx.Client(base_url=url)
    created = http.post("/campaigns", json={"name": "Pool night", "system": "pool"}).json()
    c, house = f"/campaigns/{created['campaign']['id']}", bearer(created["house_token"])
    tokens = {}
    for seat in ("ilse", "tomas"):
        added = http.post(f"{c}/players", headers=house, json={"seat": seat, "character": seat.title(),
                                                               "description": f"{seat} the bold"}).json()
        tokens[seat] = player_token(http, added)
    pages = {seat: seat_page(browser, url, token) for seat, token in tokens.items()}
    assert http.post(f"{c}/adventures", headers=house, json={}).status_code == 201  # C-1: units of resolution happen during an adventure
    i, t = pages["ilse"], pages["tomas"]
    form = i.locator("#own-sheet form[data-verb='open-contest']")  # the Pool board: opponents as radios, by name
    form.locator("input[name=opponent][value='tomas']").check()
    form.locator("button[type=submit]").click()
    i.wait_for_url("**/web/units/*")
    unit = i.url.rsplit("/", 1)[1]
    t.locator(f"#tables a[href='/web/units/{unit}']").wait_for(timeout=WAIT)
    assert not_reloaded(t)
    t.click(f"#tables a[href='/web/units/{unit}']")
    deadline = time.monotonic() + 60  # each page acts when its stream shows it a move (a slow machine too)
    while i.locator("#table > section").get_attribute("data-phase") != "settled" and time.monotonic() < deadline:
        acted = False
        for page in (i, t):
            for name in ("pass", "roll", "push"):  # C-10: a seed or pass before the other's first roll
                if page.locator(f"#table form[data-action='{name}']").count():
                    acted = click_action(page, name, may_vanish=True)  # the other side's move may re-draw it (PL-8)
                    break
        if not acted:
            i.wait_for_timeout(200)  # neither page shows a move yet: let the streams catch up
    for page in (i, t):
        page.wait_for_selector("#table section[data-phase='settled']", timeout=WAIT)
    view = http.get(f"{c}/challenges/{unit}", headers=bearer(tokens["tomas"])).json()
    assert view["phase"] == "settled" and view["state"]["result"]["winner"] in ("challenger", "opponent", None)
    assert t.locator("#table .die").count() >= 4  # both sides' dice, drawn as dice


def test_the_browsers_derivation_matches_domain_fairness_for_any_seed_and_slot(url, browser):
    """fairness.js is a port of domain/fairness.py (C-4, C-7): the same dice and shuffles from the same inputs,
    whatever the text (non-ASCII, quotes, emoji) and however many faces."""
    import random

    from domain.fairness import commitment, derive_die, derive_shuffle

    rng = random.Random(14)
    alphabet = "abcXYZ019 _-\"\\'é☃日本😀\n\t"
    text = lambda: "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 24)))
    cases = []
    for _ in range(60):
        slot = [rng.choice(["roll", "round", "deal"]), rng.choice(["challenger", "opponent", text()]), rng.randint(0, 40)]
        cases.append({"secret": text() or "s", "seeds": [text(), text()], "slot": slot, "faces": rng.choice([2, 6, 7, 20, 100]),
                      "deck": ["AS", "2H", "10D", "KC", "QS", "7H"][: rng.randint(1, 6)]})
    page = browser.new_context().new_page()
    page.goto(f"{url}/web")
    page.add_script_tag(url=f"{url}/static/fairness.js")
    got = page.evaluate("""(cases) => cases.map((c) => [
        StakesFairness.deriveDie(c.secret, c.seeds, c.slot, c.faces),
        StakesFairness.deriveShuffle(c.secret, c.seeds, c.slot, c.deck),
        StakesFairness.commitment(c.secret)])""", cases)
    expected = [[derive_die(c["secret"], c["seeds"], c["slot"], c["faces"]),
                 derive_shuffle(c["secret"], c["seeds"], c["slot"], c["deck"]), commitment(c["secret"])] for c in cases]
    assert got == expected


def test_a_refused_command_on_a_phone_keeps_what_was_sent_and_brings_the_reason_into_view(url, browser):
    """The House announces with an ante the antagonist cannot cover (PA-17): the page answers with the reason,
    scrolled into the phone's view and focused, and the form keeps the sides, the ante and the circumstance."""
    http = httpx.Client(base_url=url)
    created = http.post("/campaigns", json={"name": "Jade Court", "settings": {"starting_pile": 30}}).json()
    c, house = f"/campaigns/{created['campaign']['id']}", bearer(created["house_token"])
    http.post(f"{c}/players", headers=house, json={"seat": "ilse", "character": "Ilse", "characteristic": "Whip Smart"})
    http.post(f"{c}/antagonists", headers=house, json={"name": "Lady Sen", "characteristics": ["Poison"]})
    http.post(f"{c}/adventures", headers=house)  # Lady Sen is not funded: she holds nothing to stake
    h = seat_page(browser, url, created["house_token"], phone=True)
    h.locator("details[data-verb='announce-challenge']").evaluate("d => { d.open = true; }")
    form = h.locator("form[data-verb='announce-challenge']")
    form.locator("[name='challenger.antagonist']").select_option("Lady Sen")
    form.locator("input[name='opponent.players'][value=ilse]").check()
    form.locator("[name=ante]").fill("2")
    form.locator("[name=circumstance]").fill("A dark alley")
    form.locator("button[type=submit]").click()
    reason = h.locator("[role=alert]", has_text="PA-17")
    reason.wait_for(timeout=WAIT)
    h.wait_for_function("() => document.activeElement && document.activeElement.getAttribute('role') === 'alert'",
                        timeout=WAIT)
    assert "the antagonist holds 0 pennies: fund it from the House budget first" in reason.inner_text()
    box = reason.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844, box  # in the phone's view
    form = h.locator("form[data-verb='announce-challenge']")
    assert form.is_visible()
    assert form.locator("[name='challenger.antagonist']").input_value() == "Lady Sen"
    assert form.locator("input[name='opponent.players'][value=ilse]").is_checked()
    assert form.locator("[name=ante]").input_value() == "2"
    assert form.locator("[name=circumstance]").input_value() == "A dark alley"
    assert not_reloaded(h)


def test_a_player_announces_against_a_picked_antagonist_and_cannot_be_on_both_sides_of_a_name(url, browser):
    """PA-5, PA-18: the announce form names antagonists in a list to pick from, never a text to type; an ally
    ticked is no longer there to tick as an opponent (and the other way round), so nobody is on both sides."""
    http = httpx.Client(base_url=url)
    created = http.post("/campaigns", json={"name": "Jade Court", "settings": {"starting_pile": 30}}).json()
    c, house = f"/campaigns/{created['campaign']['id']}", bearer(created["house_token"])
    tokens = {}
    for seat in ("ilse", "tomas", "mara"):
        added = http.post(f"{c}/players", headers=house, json={"seat": seat, "character": seat.title(),
                                                               "characteristic": "Grit"}).json()
        tokens[seat] = player_token(http, added)
    http.post(f"{c}/antagonists", headers=house, json={"name": "Lady Sen", "characteristics": ["Poison"]})
    http.post(f"{c}/adventures", headers=house)
    http.post(f"{c}/antagonists/Lady%20Sen/funding", headers=house, json={"amount": 20})
    i = seat_page(browser, url, tokens["ilse"], phone=True)
    i.locator("details[data-verb='announce-challenge']").evaluate("d => { d.open = true; }")
    form = i.locator("form[data-verb='announce-challenge']")
    against = form.locator("select[name='opponent.antagonist']")
    assert against.evaluate("s => [...s.options].map(o => o.value)") == ["", "Lady Sen"]
    assert against.input_value() == ""  # none picked: the characters ticked are the side against
    opponent, ally = (form.locator(f"input[name='{side}.players'][value=tomas]") for side in ("opponent", "challenger"))
    ally.check()
    assert not opponent.is_checked() and opponent.is_disabled()
    ally.uncheck()
    assert opponent.is_enabled()
    form.locator("input[name='opponent.players'][value=mara]").check()
    assert form.locator("input[name='challenger.players'][value=mara]").is_disabled()
    form.locator("button[type=submit]").click()
    i.wait_for_url("**/web/units/*")
    assert "Mara" in i.locator("#table").inner_text()
