"""Penny Ante's board in the browser (issue 31, boards.md item 4): the House and two players, each in a browser
context of their own, play an evening by tapping only. The House starts the adventure, creates and funds Lady
Sen and challenges Ilse: seeds, characteristics, rolls, dice kept by their values, a raise on the slider, a
loan offered by Brother Tomas and accepted at the table, a call, a new circumstance, a double down, rerolls, a
check and a fold. Then Ilse challenges Brother Tomas with dice rolled at the table and entered: a raise, an
all-in, the showdown, his bankruptcy and the buyout. Ilse repays the loan from the debt register. Every move
reaches the other pages live (no reload); the seat whose turn it is reads "Your move"; no page ever shows
another side's cup (C-5) or the antagonist's unused characteristic; each page passes the phone checks and
axe-core in several states."""

from __future__ import annotations

import re
from typing import Any

import httpx

from tests.e2e.board import (
    WAIT,
    axe_check,
    browser,  # noqa: F401  (fixture)
    needs_chromium,
    not_reloaded,
    on_store,
    phone_checks,
    seat_page,
    shoot,
    submit,
    url,  # noqa: F401  (fixture)
    viewport,
    wait_for_move,
)
from tests.e2e.conftest import bearer, player_token

pytestmark = needs_chromium

CHARACTERS = {"ilse": ("Ilse Varn", "Whip Smart"), "tomas": ("Brother Tomas", "Love Conquers All")}


def tap(page: Any, action: str, label: str | None = None) -> None:
    """Tap a move's button on the table (``label``: the one of several forms of that move whose button reads
    so) and wait for the table's answer, which must be a success."""
    form = wait_for_move(page, action) if label is None else page.locator(
        f"#table form[data-action='{action}']", has_text=label).first
    answer = submit(page, form.locator("button[type=submit]"), lambda r: r.url.endswith("/act"))
    assert answer.status == 200, answer.text()[:500]


def command(page: Any, verb: str, fill: Any = None) -> None:
    """Open a campaign command, let ``fill(form)`` set its controls, send it and check the answer."""
    details = page.locator(f"details[data-verb='{verb}']")
    details.wait_for(timeout=WAIT)
    if not details.evaluate("d => d.open"):
        details.locator("summary").click()
    form = page.locator(f"form[data-verb='{verb}']").first
    if fill is not None:
        fill(form)
    answer = submit(page, form.locator("button[type=submit]"), lambda r: f"/web/commands/{verb}" in r.url)
    assert answer.status in (200, 204), answer.text()[:500]


def view(http: Any, c: str, unit: str, token: str) -> dict[str, Any]:
    return http.get(f"{c}/challenges/{unit}", headers=bearer(token)).json()


def phase_everywhere(pages: dict[str, Any], phase: str) -> None:
    for seat, page in pages.items():
        page.wait_for_selector(f"#table section[data-phase='{phase}']", timeout=WAIT)
        assert not_reloaded(page), seat


def your_move(page: Any) -> bool:
    return page.locator("[data-testid=your-turn]").count() == 1


def hidden_agrees(http: Any, c: str, unit: str, tokens: dict[str, str], pages: dict[str, Any]) -> None:
    """C-5: each page draws exactly its seat's view: another side's cup as die backs, never a value, and each
    shown die with the value the seat may see."""
    for seat, page in pages.items():
        seen = view(http, c, unit, tokens[seat])
        page.wait_for_selector(f"#table section[data-phase='{seen['phase']}']", timeout=WAIT)
        for key, side in seen["sides"].items():
            box = page.locator(f"#table section.pa-side[data-side='{key}']")
            hidden = sum(d["value"] is None for d in side["dice"])
            assert box.locator(".die.hidden").count() == hidden, (seat, key)
            shown = [d["value"] for d in side["dice"] if d["value"] is not None]
            labels = box.locator(".die:not(.hidden)").evaluate_all("els => els.map(e => e.getAttribute('aria-label'))")
            assert [int(x.split()[2].rstrip(",")) for x in labels] == shown, (seat, key, labels)


def checks(page: Any, where: str, phone: bool) -> None:
    if phone:
        phone_checks(page, where)
    axe_check(page, where)


@on_store("postgres")
def test_an_evening_of_penny_ante_played_by_tapping_on_three_pages(url, browser, settings):  # noqa: F811
    http = httpx.Client(base_url=url)
    created = http.post("/campaigns", json={"name": "Ninjas of the Jade Court", "system": "penny-ante",
                                            "settings": {"starting_pile": 30}}).json()
    c = f"/campaigns/{created['campaign']['id']}"
    tokens = {"house": created["house_token"]}
    for seat, (name, trait) in CHARACTERS.items():
        added = http.post(f"{c}/players", headers=bearer(tokens["house"]),
                          json={"seat": seat, "character": name, "characteristic": trait}).json()
        tokens[seat] = player_token(http, added)
    size = viewport(settings)
    phone = size["width"] < 500
    pages = {seat: seat_page(browser, url, token, size) for seat, token in tokens.items()}
    h, i, t = pages["house"], pages["ilse"], pages["tomas"]

    # The House starts the adventure, creates Lady Sen with secrets of her own and funds her, all by tapping.
    command(h, "start-adventure")
    h.locator("#budget", has_text="Adventure 1 is under way").wait_for(timeout=WAIT)
    assert h.locator("details[data-verb='start-adventure']").count() == 0  # not while one runs
    command(h, "create-antagonist", lambda f: (f.locator("[name=name]").fill("Lady Sen"),
                                               f.locator("[name=characteristics]").fill("Poison, Cunning")))
    command(h, "fund-antagonist", lambda f: (f.locator("[name=antagonist]").select_option("Lady Sen"),
                                             f.locator("[name=amount]").fill("20")))
    h.locator("#budget td", has_text="Poison, Cunning").wait_for(timeout=WAIT)
    for seat in ("ilse", "tomas"):  # the players' pages follow, without the antagonist's secrets (C-5)
        pages[seat].locator("#budget th", has_text="Lady Sen").wait_for(timeout=WAIT)
        assert not_reloaded(pages[seat]) and "Cunning" not in pages[seat].locator("main").inner_text()
        assert pages[seat].locator("details[data-verb='accept-loan']").count() == 0
    assert h.locator("details[data-verb='offer-loan'], details[data-verb='accept-loan']").count() == 0
    checks(h, "the House's campaign page", phone)
    checks(i, "a player's campaign page", phone)

    # Challenge 1: Lady Sen challenges Ilse, announced with controls (no JSON).
    def announce_lady_sen(form: Any) -> None:
        form.locator("[name='challenger.antagonist']").select_option("Lady Sen")
        form.locator("label.choice", has_text="Ilse Varn").locator("input").check()
        form.locator("[data-step-for=ann-ante].step-up").click()  # ante 2
        form.locator("[name=circumstance]").fill("A dark alley")

    command(h, "announce-challenge", announce_lady_sen)
    h.wait_for_url("**/web/units/*")
    unit = h.url.rsplit("/", 1)[1]
    for seat in ("ilse", "tomas"):
        link = pages[seat].locator(f"#tables a[href='/web/units/{unit}']")
        link.wait_for(timeout=WAIT)
        assert not_reloaded(pages[seat]) and link.inner_text() == "Lady Sen challenges Ilse Varn"
        link.click()
        pages[seat].wait_for_url(f"**/web/units/{unit}")
    for page in pages.values():
        page.wait_for_selector("#table section")
        page.evaluate("window.__notReloaded = true")
    assert your_move(h) and not your_move(t)

    h.locator("#table form[data-action='declare'] label", has_text="Poison").locator("input").check()
    tap(h, "declare")  # C-9: the House names its dice before the player's seed
    wait_for_move(i, "seed").locator("[name=seed]").fill("Ilse's lucky words")
    assert your_move(i)
    tap(i, "seed")
    wait_for_move(i, "declare").locator("label", has_text="Whip Smart").locator("input").check()
    tap(i, "declare")
    tap(h, "roll")
    tap(i, "roll")
    # keeping: a checkbox per die, labelled by its value, the dice drawn as dice
    keep = wait_for_move(h, "keep")
    own = view(http, c, unit, tokens["house"])["sides"]["challenger"]["dice"]
    labels = [" ".join(x.split()) for x in keep.locator("label.pa-die-choice").all_inner_texts()]
    assert labels == [f"{faces(d['value'])} {d['value']}" for d in own]
    for d in own:  # each checkbox's accessible name is its die's value
        assert keep.get_by_role("checkbox", name=str(d["value"]), exact=True).count() >= 1
    keep.locator("input[name=cup]").first.check()
    if not phone:
        shoot(h, "penny_ante-keep-desktop")
    tap(h, "keep")
    wait_for_move(i, "keep").locator("input[name=cup]").last.check()
    tap(i, "keep")
    phase_everywhere(pages, "betting-1")
    hidden_agrees(http, c, unit, tokens, pages)
    for seat in ("ilse", "tomas"):
        assert "Cunning" not in pages[seat].locator("main").inner_text()  # never used, never shown (C-5)

    # First round: the House raises with the stepper (a number to type, or − and + by the ante: a slider of a
    # penny every 10 px was fiddly on a phone); Brother Tomas lends Ilse 5 at the table; she accepts; calls.
    assert your_move(h) and not your_move(i)
    limits = next(a for a in view(http, c, unit, tokens["house"])["legal_actions"] if a["action"] == "raise")
    amount = wait_for_move(h, "raise").locator("input[type=number][name=amount]")
    assert (amount.get_attribute("min"), amount.get_attribute("max"), amount.get_attribute("step")) == (
        str(limits["min"]), str(limits["max"]), str(limits["step"]))
    wait_for_move(h, "raise").get_by_role("button", name=re.compile("^One more Raise by")).click()
    assert amount.input_value() == str(limits["min"] + limits["step"])
    amount.fill("4")
    checks(h, "the House's table, betting", phone)
    shoot(h, f"penny_ante-board-{'phone' if phone else 'desktop'}")
    tap(h, "raise")
    lend = wait_for_move(t, "lend")  # an outsider may lend, and the table does not wait for him
    assert t.locator("[data-testid=waiting]").inner_text().count("Brother Tomas") == 0 and not your_move(t)
    assert t.locator("[data-testid=you-may]").count() == 1
    lend.locator("label.choice", has_text="Ilse Varn").locator("input").check()
    lend.locator("input[type=number][name=amount]").fill("5")
    tap(t, "lend")
    accept = wait_for_move(i, "accept-loan")
    assert "Brother Tomas offers Ilse Varn 5 pennies" in i.locator(".pa-loans").inner_text()
    assert not_reloaded(i) and wait_for_move(t, "withdraw-loan")
    checks(i, "Ilse's table with a loan offered", phone)
    if phone:
        shoot(i, "penny_ante-loan-phone")
    assert submit(i, accept.locator("button[type=submit]"), lambda r: r.url.endswith("/act")).status == 200
    i.locator("section.pa-side[data-side=opponent]", has_text="33 in the purse").wait_for(timeout=WAIT)  # 30 - 2 + 5
    # the lender's table says his loan was accepted (found on a phone walk: the offer just vanished)
    t.locator("[data-testid=loans-answered]", has_text="5 pennies: accepted").wait_for(timeout=WAIT)
    assert t.locator("li.pa-offer").count() == 0
    assert your_move(i)
    assert i.locator("#table form[data-action='call'] button").inner_text() == "Call 4"
    tap(i, "call")

    # New circumstances: Ilse declares one, the House doubles down; both reroll their cups.
    phase_everywhere(pages, "new-circumstances")
    wait_for_move(i, "circumstance").locator("[name=text]").fill("Tomas's lucky charm")
    tap(i, "circumstance")
    wait_for_move(h, "double-down").locator("[name=text]").fill("Ninjas on the roof")
    tap(h, "double-down")
    # C-9: both call the reroll (the button says so: no die comes yet); Ilse's fresh seed, drawn in her browser,
    # rolls both cups
    for page in (h, i):
        assert wait_for_move(page, "roll").locator("button[type=submit]").inner_text().startswith("Call the reroll")
    tap(h, "roll")
    tap(i, "roll")
    fresh = i.locator("#table form.pa-fresh-seed")
    fresh.wait_for(timeout=WAIT)
    assert "after its choices" in fresh.inner_text()
    answer = submit(i, fresh.locator("button[data-random-seed='pa-fresh-seed']"), lambda r: r.url.endswith("/act"))
    assert answer.status == 200, answer.text()[:500]
    phase_everywhere(pages, "betting-2")
    hidden_agrees(http, c, unit, tokens, pages)
    wager = i.locator("[data-testid=wager-challenger]")
    wager.wait_for(timeout=WAIT)
    assert "Betting now: 6" in wager.inner_text() and "in the pot: 12 (6 of it doubling down" in wager.inner_text()
    assert "the wagers are level, so you may check" in wait_for_move(h, "check").locator("xpath=../..").inner_text()
    checks(h, "the House's table after a double down", phone)
    lend = wait_for_move(t, "lend")  # round 2: Brother Tomas offers again, and Ilse declines at the table
    lend.locator("label.choice", has_text="Ilse Varn").locator("input").check()
    lend.locator("input[type=number][name=amount]").fill("3")
    tap(t, "lend")
    tap(i, "decline-loan")
    t.locator("[data-testid=loans-answered]", has_text="3 pennies: declined").wait_for(timeout=WAIT)
    assert t.locator("li.pa-offer").count() == 0
    tap(h, "check")
    i.once("dialog", lambda dialog: dialog.accept())  # "Fold? The other side takes the whole pot at once (PA-10)."
    tap(i, "fold")  # PA-10: Ilse folds and narrates her defeat
    phase_everywhere(pages, "settled")
    for seat, page in pages.items():
        outcome = page.locator(".pa-result").inner_text()
        assert "Ilse Varn folded: Lady Sen (the House) takes the pot" in outcome and "Ilse Varn narrates" in outcome, seat
        assert page.locator("#table .die.hidden").count() == 0, seat  # settled: everything is shown (C-5)
    assert http.get(f"{c}/characters/ilse", headers=bearer(tokens["ilse"])).json()["pile"] == 29

    # Challenge 2: Ilse challenges Brother Tomas, with dice rolled at the table and entered by tapping (C-3).
    for page in pages.values():
        page.click("a[href='/web/campaign']")
        page.wait_for_url("**/web/campaign")
        page.evaluate("window.__notReloaded = true")

    def announce_against_tomas(form: Any) -> None:
        form.locator("fieldset", has_text="Against").locator("label.choice", has_text="Brother Tomas").locator("input").check()
        form.locator("[name=table]").check()

    command(i, "announce-challenge", announce_against_tomas)
    i.wait_for_url("**/web/units/*")
    second = i.url.rsplit("/", 1)[1]
    for seat in ("house", "tomas"):
        link = pages[seat].locator(f"#tables a[href='/web/units/{second}']")
        link.wait_for(timeout=WAIT)
        assert not_reloaded(pages[seat]) and link.inner_text() == "Ilse Varn challenges Brother Tomas"
        link.click()
        pages[seat].wait_for_url(f"**/web/units/{second}")
    for page in pages.values():
        page.wait_for_selector("#table section")
        page.evaluate("window.__notReloaded = true")
    tap(i, "declare")  # no characteristic: one die
    wait_for_move(t, "declare").locator("label", has_text="Love Conquers All").locator("input").check()
    tap(t, "declare")
    wait_for_move(i, "roll").locator("select[name=dice]").select_option("6")
    tap(i, "roll")
    entry = wait_for_move(t, "roll")
    entry.locator("select[name=dice]").nth(0).select_option("1")
    entry.locator("select[name=dice]").nth(1).select_option("2")
    tap(t, "roll")
    tap(i, "keep")
    tap(t, "keep")
    phase_everywhere(pages, "betting-1")
    raise_max = next(a for a in view(http, c, second, tokens["ilse"])["legal_actions"] if a["action"] == "raise")["max"]
    wait_for_move(i, "raise").locator("input[type=number][name=amount]").fill(str(raise_max))
    tap(i, "raise")
    assert wait_for_move(t, "all-in").locator("button").inner_text() == "All-in: 24"
    tap(t, "all-in")  # PA-12: the rest of Ilse's raise goes back to her; no more betting
    tap(i, "roll")
    tap(t, "roll")
    phase_everywhere(pages, "bankruptcy")
    checks(t, "Brother Tomas's table, bankrupt", phone)
    buyout = wait_for_move(t, "buyout")
    assert wait_for_move(t, "debt") and "The best bid: the House, 1 penny" in buyout.inner_text()
    buyout.locator("label.choice", has_text="Love Conquers All").locator("input").check()
    tap(t, "buyout")
    phase_everywhere(pages, "settled")
    outcome = h.locator(".pa-result").first.inner_text()
    assert "Ilse Varn wins the showdown" in outcome and "Ilse Varn scores 6" in outcome, outcome
    sheet = http.get(f"{c}/characters/tomas", headers=bearer(tokens["tomas"])).json()
    assert sheet["pile"] == 1 and [x["name"] for x in sheet["characteristics"]] == []

    # Ilse repays Brother Tomas from the debt register, by tapping (no id to type).
    i.click("a[href='/web/campaign']")
    i.wait_for_url("**/web/campaign")
    row = i.locator("tr.pa-loan", has_text="Brother Tomas lent Ilse Varn")
    repay = row.locator("form[data-verb='repay-loan'] button[type=submit]")
    assert submit(i, repay, lambda r: "/web/commands/repay-loan" in r.url).status == 200
    i.locator("tr.pa-loan[data-status=repaid]").wait_for(timeout=WAIT)
    t.click("a[href='/web/campaign']")
    t.locator("tr.pa-loan[data-status=repaid]").wait_for(timeout=WAIT)
    assert t.locator("tr.pa-loan[data-status=declined]", has_text="Brother Tomas offered Ilse Varn").count() == 1
    checks(i, "Ilse's campaign page after the evening", phone)
    if phone:
        shoot(i, "penny_ante-campaign-phone")


def faces(value: int) -> str:
    return "⚀⚁⚂⚃⚄⚅"[value - 1]
