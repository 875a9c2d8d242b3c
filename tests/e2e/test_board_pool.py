"""An evening of the Pool played in the browser by tapping (issue 31): the House and two players, each in a
browser context of their own (phone size, ``board.on_store``). The House seats a player with a
trait from the page and starts the adventure; the players buy, raise and cash in traits, buy a move, give and
use help, roll with a trait from their own sheets (answered on the campaign page, dice as dice and the outcome in
words), oppose each other at a table to the end, and the House abandons a second contest. Every move reaches
the other pages live (no reload), the seat to move sees "Your move", and no page shows a seed hash or secret
(C-5: they belong to the replay's verify panel)."""

from __future__ import annotations

import re
import time
from typing import Any

import httpx
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.e2e.board import WAIT, axe_check, browser, needs_chromium, not_reloaded, on_store, phone_checks, seat_page, shoot, url, viewport
from tests.e2e.conftest import bearer, player_token

__all__ = ["browser", "url"]  # the fixtures this module uses from the board kit
pytestmark = needs_chromium
HEX = re.compile(r"\b[0-9a-f]{64}\b")  # a seed hash or a secret seed
OUTCOME = re.compile(r"\d+: (full success|success with a complication|miss)")


def checks(page: Any, where: str, settings: Any) -> None:
    """Phone checks where the page is phone sized, axe-core everywhere, and no hash or secret on the page."""
    if viewport(settings)["width"] < 500:
        phone_checks(page, where)
    axe_check(page, where)
    assert not HEX.search(page.content()), f"{where}: a seed hash or secret on the page"


def sheet_command(page: Any, verb: str, label: str | None = None, trait: str | None = None) -> Any:
    """The form of one of the player's sheet commands (``trait``: the per-trait button)."""
    selector = f"#own-sheet form[data-verb='{verb}']" + (f"[data-trait='{trait}']" if trait else ":not([data-trait])")
    form = page.locator(selector).first
    form.wait_for(timeout=WAIT)
    return form


def choose(page: Any, card: Any, which: str) -> None:
    """Tap who narrates (PL-4) and wait for the settled roll. A tap that landed while a live refresh was
    replacing the answer is lost with the replaced button: the seat taps again, as a player would."""
    for attempt in range(3):
        button = card.locator(f"form[data-choice='{which}'] button")
        if button.count():
            button.click()
        try:
            page.locator("#answer .pool-roll[data-phase='settled']").wait_for(timeout=WAIT // 3)
            return
        except PlaywrightTimeout:
            if attempt == 2:
                raise


def unfold(page: Any, selector: str) -> None:
    """Open a folded part of the page by tapping its summary (unless it is open already)."""
    details = page.locator(selector)
    if not details.evaluate("d => d.open"):
        details.locator("summary").click()


def pool_is(page: Any, dice: int) -> None:
    """Wait until the seat's own sheet shows ``dice`` in its pool (the answer to its command, or a live frame)."""
    page.locator("#own-sheet [data-testid=pool] strong", has_text=re.compile(rf"^{dice}$")).wait_for(timeout=WAIT)


def tap_move(page: Any, name: str, *, may_vanish: bool = False) -> bool:
    """Tap the move ``name`` on the table (its form's submit button); with ``may_vanish``, a move the other
    side's move took away meanwhile is not sent, and False says so."""
    form = page.locator(f"#table form[data-action='{name}']")
    if not form.count():
        return False
    before = page.locator("#table section").get_attribute("data-phase")
    rolled_before = page.locator("#table .pool-side.mine .rolled").count()
    asked: list[str] = []
    if name == "fold":  # a fold ends the contest at once: the page asks first (found on a phone walk)
        def answer(dialog: Any) -> None:
            asked.append(dialog.message)
            dialog.accept()
        page.once("dialog", answer)
    try:
        form.locator("button[type=submit]").click(timeout=5_000 if may_vanish else WAIT)
    except Exception:
        if not may_vanish or form.count():
            raise
        return False
    assert name != "fold" or asked == ["Fold? The other side wins the contest at once; you gain 2 dice (PL-9)."]
    page.wait_for_function(
        "([name, phase, rolled]) => !document.querySelector(`#table form[data-action='${name}']`)"
        " || document.querySelector('#table section').dataset.phase !== phase"
        " || document.querySelectorAll('#table .pool-side.mine .rolled').length !== rolled",
        arg=[name, before, rolled_before], timeout=WAIT)
    return True


@on_store("sqlite")
def test_an_evening_of_the_pool_is_played_by_tapping(settings, url, browser):
    size = viewport(settings)
    phone = size["width"] < 500
    http = httpx.Client(base_url=url, timeout=30)
    created = http.post("/campaigns", json={"name": "Harbour Lights", "system": "pool"}).json()
    c, house = f"/campaigns/{created['campaign']['id']}", bearer(created["house_token"])
    added = http.post(f"{c}/players", headers=house, json={
        "seat": "tom", "character": "Tom Reyes", "description": "An old smuggler, patient and lucky"})
    assert added.status_code == 201, added.text
    h = seat_page(browser, url, created["house_token"], size)
    t = seat_page(browser, url, player_token(http, added.json()), size)

    # The House seats Mara from its page: a description and a trait bought at creation, by name and rating (PL-1).
    h.fill("#add-seat", "mara")
    h.fill("#add-character", "Mara Quill")
    h.fill("#add-description", "A stubborn harbour pilot with quick hands")
    h.fill("#add-trait-0", "stubborn")
    h.select_option("#add-rating-0", "1")
    h.locator("form[data-verb='add-player'] button[type=submit]").click()
    invite = h.locator("[data-testid=invite-link]")  # the frame hands the invite over: a link and a QR code
    invite.wait_for(timeout=WAIT)
    assert "Mara Quill is seated, with 10 dice and stubborn +1" in h.inner_text("#answer")  # 12 - 2 (PL-1)
    h.wait_for_timeout(600)  # the House's own frame refreshes the panel: the answer (the invite) stays
    code = (invite.get_attribute("href") or "").split("#", 1)[1]
    assert code.startswith("inv_")
    t.locator(".pool-sheet-other[data-seat='mara']").wait_for(timeout=WAIT)  # Tom's page heard it, live
    assert not_reloaded(t)
    m = seat_page(browser, url, code, size)
    assert "Rolls and contests happen during an adventure" in m.inner_text("#own-sheet")
    checks(h, "the House's campaign page before the adventure", settings)

    # The House starts the adventure: both players' sheets offer a roll, without a reload.
    h.locator("form[data-verb='start-adventure'] button[type=submit]").click()
    for page in (m, t):
        sheet_command(page, "roll")
        assert not_reloaded(page)

    # Tom buys a trait, raises it, buys and cashes in another, and buys a move: all controls (PL-5, PL-6).
    unfold(t, "#own-sheet details[data-verb='raise-trait']")
    t.fill("#new-trait", "patient")
    sheet_command(t, "raise-trait").locator("button").click()
    t.locator("#own-sheet li[data-trait='patient']").wait_for(timeout=WAIT)
    pool_is(t, 10)
    sheet_command(t, "raise-trait", trait="patient").locator("button").click()  # +2 costs 5
    t.locator("#own-sheet li[data-trait='patient'] .pool-trait-name", has_text="+2").wait_for(timeout=WAIT)
    pool_is(t, 5)
    unfold(t, "#own-sheet details[data-verb='raise-trait']")
    t.fill("#new-trait", "lucky")
    sheet_command(t, "raise-trait").locator("button").click()  # +1 costs 2: no other trait at +1
    t.locator("#own-sheet li[data-trait='lucky']").wait_for(timeout=WAIT)
    pool_is(t, 3)
    sheet_command(t, "cash-in-trait", trait="lucky").locator("button").click()  # its rating back
    t.locator("#own-sheet li[data-trait='lucky']").wait_for(state="detached", timeout=WAIT)
    pool_is(t, 4)
    unfold(t, "#own-sheet details[data-verb='buy-move']")
    t.fill("#new-move", "Read the tide")
    buy = sheet_command(t, "buy-move")
    assert buy.locator("input[name=cost]").evaluate_all("els => els.map(e => e.value)") == ["2"]  # 5 or 10: too dear
    buy.locator("input[name=cost][value='2']").check()
    buy.locator("button").click()
    t.locator("#own-sheet .pool-moves-list", has_text="Read the tide").wait_for(timeout=WAIT)
    pool_is(t, 2)
    m.locator(".pool-sheet-other[data-seat='tom']", has_text="Read the tide").wait_for(timeout=WAIT)
    assert not_reloaded(m)
    assert "You keep 2 dice, so you have none to give now." in t.inner_text("#own-sheet")  # PL-7

    # Mara offers Tom three dice; Tom's sheet shows the offer live (PL-7).
    help_form = sheet_command(m, "offer-help")
    help_form.locator("input[name=to][value='tom']").check()
    for _ in range(2):
        help_form.locator(".step-up").click()
    assert help_form.locator("input[name=dice]").input_value() == "3"
    help_form.locator("button[type=submit]").click()
    m.locator("#answer", has_text="You offer Tom Reyes 3 dice").wait_for(timeout=WAIT)
    t.locator("#own-sheet .pool-offer", has_text="Mara Quill offers you 3 dice").wait_for(timeout=WAIT)
    assert not_reloaded(t)

    # Mara rolls four dice with her trait, from her sheet; the answer shows the dice and the outcome in words.
    roll = sheet_command(m, "roll")
    roll.locator("input[name=trait][value='stubborn']").check()
    for _ in range(4):
        roll.locator(".step-up").click()  # bounded by her pool (PL-2): 10 at most
    roll.locator(".step-down").click()
    assert roll.locator("input[name=count]").input_value() == "5"
    roll.locator("button[type=submit]").click()
    card = m.locator("#answer .pool-roll")
    card.wait_for(timeout=WAIT)
    assert card.locator(".die").count() == 5 and "with stubborn +1" in card.inner_text()
    assert OUTCOME.search(card.inner_text()) and card.locator("[data-testid=dice-lost]").count() == 1
    if phone:
        shoot(m, "pool-campaign-phone")
    if card.get_attribute("data-phase") == "choice":  # a hit: who narrates (PL-4)
        checks(m, "Mara's campaign page with a choice pending", settings)
        choose(m, card, "house")
        assert "The House narrates, and Mara Quill gains 1 die." in m.inner_text("#answer")
    else:
        assert "A miss: the House narrates, and Mara Quill gains 2 dice." in card.inner_text()
    m.wait_for_timeout(600)  # her own frame refreshes the panel: the answer stays
    assert m.locator("#answer .pool-roll[data-phase='settled']").count() == 1
    for page in (t, h):  # her roll reaches the others' pages live, with its relative time
        line = page.locator(".pool-sheet-other[data-seat='mara'] .pool-latest li").first
        line.wait_for(timeout=WAIT)
        assert "just now" in line.inner_text() and line.locator(".die").count() == 5
        assert not_reloaded(page)
    checks(m, "Mara's campaign page after her roll", settings)

    # Tom rolls his two dice with Mara's three: her dice are charged first for each 5 or 6 (PL-7).
    roll = sheet_command(t, "roll")
    assert roll.locator("input[name=count]").get_attribute("max") == "2"
    roll.locator("input[name=helper][value='mara']").check()
    roll.locator("input[name=trait][value='patient']").check()
    roll.locator("button[type=submit]").click()
    card = t.locator("#answer .pool-roll")
    card.wait_for(timeout=WAIT)
    assert card.locator(".pool-hand.help .die").count() == 3 and "Mara Quill gave 3 and loses" in card.inner_text()
    if card.get_attribute("data-phase") == "choice":
        choose(t, card, "narrate")
        assert "Tom Reyes narrates." in t.inner_text("#answer")
    m.locator(".pool-sheet-other[data-seat='tom'] .pool-latest li").first.wait_for(timeout=WAIT)
    assert m.locator("#own-sheet .pool-offer", has_text="You offer").count() == 0  # the offer is spent
    checks(t, "Tom's campaign page after a helped roll", settings)

    # Mara opposes Tom: the contest opens at its table; Tom's page lists it live and he goes there by tapping.
    oppose = sheet_command(m, "open-contest")
    oppose.locator("input[name=opponent][value='tom']").check()
    oppose.locator("button[type=submit]").click()
    m.wait_for_url("**/web/units/*")
    contest = m.url.rsplit("/", 1)[1]
    m.locator("#table section").wait_for(timeout=WAIT)
    assert m.locator("#table h1").inner_text().startswith("Mara Quill against Tom Reyes")
    link = t.locator(f"#own-sheet a[href='/web/units/{contest}']")
    link.wait_for(timeout=WAIT)
    assert not_reloaded(t)
    link.click()
    t.wait_for_url(f"**/web/units/{contest}")
    h.locator(f"#tables a[href='/web/units/{contest}']").click()
    h.wait_for_url(f"**/web/units/{contest}")
    for page in (m, t, h):
        page.locator("#table section").wait_for(timeout=WAIT)
        page.evaluate("window.__notReloaded = true")
    assert "PoolContest" not in m.inner_text("#table") and "Your move, Mara Quill." in m.inner_text("#table")
    checks(t, "Tom at the contest before any roll", settings)

    # Mara adds her seed words (C-4) and Tom passes (C-10: a first roll waits for the other side's input), then
    # both roll; each move reaches the other pages live.
    assert m.locator("#table form[data-action='roll']").count() == 0
    unfold(m, "#table details[data-verb='seed']")
    m.fill("#contest-seed", "gulls over the pier")
    m.locator("#table form[data-action='seed'] button").click()
    m.locator("#table form[data-action='seed']").wait_for(state="detached", timeout=WAIT)
    t.locator("#table form[data-action='pass'] button").click()
    t.locator("#table form[data-action='pass']").wait_for(state="detached", timeout=WAIT)
    form = m.locator("#table form[data-action='roll']")
    form.wait_for(timeout=WAIT)
    form.locator("input[name=trait][value='stubborn']").check()
    form.locator(".step-up").click()
    form.locator("button[type=submit]").click()
    m.locator("#table .pool-side.mine .rolled").wait_for(timeout=WAIT)
    t.locator("#table .pool-side[data-seat='mara'] .rolled").wait_for(timeout=WAIT)  # live, on Tom's page
    h.locator("#table .pool-side[data-seat='mara'] .rolled").wait_for(timeout=WAIT)
    assert not_reloaded(t) and not_reloaded(h)
    assert "Your move, Tom Reyes." in t.inner_text("#table") and "Your move" not in m.inner_text("#table")
    if phone:
        shoot(t, "pool-board-phone")
    else:
        shoot(t, "pool-board-desktop")
    checks(t, "Tom at the contest with Mara's roll in", settings)
    deadline = time.monotonic() + 90  # in a stalemate Mara pushes on, then Tom folds (PL-8)
    stalemates = 0
    while m.locator("#table section").get_attribute("data-phase") != "settled" and time.monotonic() < deadline:
        acted = False
        for page, answer in ((m, "push"), (t, "fold")):
            if page.locator("#table form[data-action='roll']").count():
                acted = tap_move(page, "roll", may_vanish=True)
            elif page.locator(f"#table form[data-action='{answer}']").count():
                stalemates += 1
                if stalemates == 1:
                    checks(page, "a stalemate", settings)
                acted = tap_move(page, answer, may_vanish=True)
        if not acted:
            m.wait_for_timeout(150)  # neither page offers a move yet: the streams catch up
    for page in (m, t, h):
        result = page.locator("#table [data-testid=result]")
        result.wait_for(timeout=WAIT)
        assert re.search(r"wins|No winner", result.inner_text())
        assert not_reloaded(page)
    view = http.get(f"{c}/challenges/{contest}", headers=house).json()
    winner = view["state"]["result"]["winner"]
    assert view["phase"] == "settled" and (winner is None or view["state"]["sides"][winner]["seat"] in ("mara", "tom"))
    checks(m, "Mara at the settled contest", settings)

    # A second contest, which the House abandons with a reason (C-10): every seat reads it.
    t.goto(f"{url}/web/campaign")
    oppose = sheet_command(t, "open-contest")
    oppose.locator("button[type=submit]").click()  # Mara, the only other character, is picked already
    t.wait_for_url("**/web/units/*")
    second = t.url.rsplit("/", 1)[1]
    h.goto(f"{url}/web/campaign")
    h.locator(f"#tables a[href='/web/units/{second}']").click()
    h.wait_for_url(f"**/web/units/{second}")
    t.locator("#table section").wait_for(timeout=WAIT)
    t.evaluate("window.__notReloaded = true")
    h.once("dialog", lambda dialog: dialog.accept())  # "Abandon this table for every seat? …"
    unfold(h, "#table details#rulings")  # the frame's rulings: the House alone sees them
    h.fill("#abandon-reason", "the tide turned")
    h.locator("#table form[data-action='abandon'] button").click()
    for page in (h, t):
        page.locator("#table [data-testid=result]", has_text="The House abandoned this contest: the tide turned").wait_for(
            timeout=WAIT)
    assert not_reloaded(t)
    assert h.locator("#table h1 .phase").inner_text() == "abandoned"  # C-10: not "settled"
    checks(h, "the House at an abandoned contest", settings)

    # The lists read as names, never as classes, and carry no Penny Ante ante or pot.
    h.goto(f"{url}/web/campaign")
    tables = h.inner_text("#tables")
    assert "Mara Quill's roll" in tables and "Tom Reyes's roll" in tables and "Tom Reyes against Mara Quill" in tables
    assert "abandoned" in tables  # the abandoned contest's badge (C-10)
    assert not re.search(r"PoolRoll|PoolContest|\bante\b|\bpot\b", tables)
    checks(h, "the House's campaign page at the end", settings)
