"""Twenty-one's board in the browser (issue 31, boards.md item 4), at phone size, on one store each
(``board.on_store``; both, and desktop size on SQLite, under ``make screenshots``). The campaign and its two
players are made over HTTP; from then on the House and the two
players, each in a browser context of its own, play an evening by tapping only: the adventure, holds, two
conflicts, seeds (a random one made in the browser, typed words) and passes, the order of play, laying, the
House's modifiers, assist and hinder, both uses of a hold, keep and discard, drawing and standing, the end.

Each move reaches the other seats' pages from the stream (no reload), the seat whose move it is reads "Your
move", and no page ever holds a card of another seat's hand (C-5): neither its code in the markup nor its name
in the text. A campaign without table cards shows no reshuffle field anywhere (C-3).
"""

from __future__ import annotations

import re
from itertools import combinations
from typing import Any

import httpx

from api.web.systems.twenty_one import card_name
from domain.systems.twenty_one.cards import DECK, total
from tests.e2e.board import (  # noqa: F401
    PHONE,
    WAIT,
    axe_check,
    browser,
    needs_chromium,
    not_reloaded,
    on_store,
    open_table,
    phone_checks,
    seat_page,
    shoot,
    submit,
    url,
    viewport,
    wait_for_move,
)
from tests.e2e.conftest import bearer, player_token

pytestmark = needs_chromium
NAMES = {"ilse": "Ilse Varn", "tomas": "Brother Tomas"}

#: The cards of the signed-in player's own hand (and set-aside card) as his page draws them.
OWN_CARDS = """() => {
  const found = new Set();
  const you = document.querySelector('#table .t21-you');
  if (you) {
    you.querySelectorAll('[data-card]').forEach((e) => found.add(e.dataset.card));
    you.querySelectorAll("input[name=cards], input[name=replace_with], form[data-action='order-card'] input[name=card]")
      .forEach((e) => found.add(e.value));
  }
  document.querySelectorAll('#table [data-testid=set-aside] [data-card]').forEach((e) => found.add(e.dataset.card));
  return Array.from(found);
}"""


def own_cards(page: Any) -> list[str]:
    return list(page.evaluate(OWN_CARDS))


def settle(page: Any) -> None:
    """Until htmx has swapped in the answer of the seat's last move."""
    page.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')",
                           timeout=WAIT)


def tap(page: Any, form: Any, button: str = "button[type=submit]") -> None:
    """Tap a move's button and wait for its answer: a 200 (a refusal would be a 4xx naming its ruling)."""
    answer = submit(page, form.locator(button).first, lambda r: "/web/" in r.url)
    assert answer.status == 200, answer.text()[:400]
    settle(page)


def move(page: Any, action: str, choice: str | None = None, button: str = "button[type=submit]") -> None:
    wait_for_move(page, action)
    found = f"#table form[data-action='{action}']" + (f"[data-choice='{choice}']" if choice else "")
    tap(page, page.locator(found), button)


def command(page: Any, verb: str, has_text: str | None = None) -> Any:
    """A campaign command's form on the House's page (its group unfolded)."""
    page.locator(f"details[data-verb='{verb}']").evaluate("d => { d.open = true; }")
    form = page.locator(f"form[data-verb='{verb}']")
    return form.filter(has_text=has_text) if has_text else form


def wait_text(page: Any, text: str) -> None:
    page.wait_for_function("(t) => document.querySelector('#table').textContent.includes(t)", arg=text, timeout=WAIT)


def your_move(page: Any) -> None:
    page.locator("[data-testid=your-turn]").wait_for(timeout=WAIT)


def hidden_from_others(pages: dict[str, Any], hands: dict[str, list[str]]) -> None:
    """C-5: no page holds a card of another seat's hand, by code (an attribute) or by name (the text)."""
    for seat, page in pages.items():
        html, text = page.content(), page.evaluate("document.body.textContent")
        for owner, cards in hands.items():
            if owner == seat:
                continue
            for code in cards:
                assert f'"{code}"' not in html, f"{seat}'s page holds {owner}'s {code}"
                assert card_name(code) not in text, f"{seat}'s page names {owner}'s {card_name(code)}"
        assert page.locator("[name=reshuffle], [name=deck]").count() == 0, f"{seat}: a table-cards field (C-3)"


def checked(page: Any, where: str) -> None:
    phone_checks(page, where)
    axe_check(page, where)


def follow(page: Any, unit: str) -> None:
    """A player's campaign page lists the new conflict from its stream; the player taps it."""
    link = page.locator(f"#tables a[href='/web/units/{unit}']")
    link.wait_for(timeout=WAIT)
    assert not_reloaded(page), "the conflict reached the campaign page without a reload"
    link.click()
    page.wait_for_url(f"**/web/units/{unit}")
    page.wait_for_selector("#table .t21")
    page.evaluate("window.__notReloaded = true")


def to_campaign(page: Any) -> None:
    page.locator("nav.crumbs a[href='/web/campaign']").click()
    page.wait_for_url("**/web/campaign")
    page.evaluate("window.__notReloaded = true")


def lay(page: Any, cards: list[str]) -> None:
    """Tap ``cards`` in this order, then lay them: the last tapped is the last card laid (TO-7, TO-8)."""
    form = wait_for_move(page, "lay")
    for code in cards:
        form.locator(f"label.pc-pick:has(input[value='{code}'])").click()
    if len(cards) == 2:
        assert "tapped last, is the last card laid" in form.locator("[data-lay-preview]").inner_text()
    tap(page, page.locator("#table form[data-action='lay']"))


def no_natural(hand: list[str], count: int) -> list[str]:
    """Cards to lay that make no natural 21 (TO-5), so the action stays open for what follows."""
    pairs = [list(pair) for pair in combinations(hand, count)]
    return next((pair for pair in pairs if count < 2 or total(pair) != 21), pairs[0])


@on_store("postgres")
def test_an_evening_of_twenty_one_is_played_by_tapping(url, browser, settings):  # noqa: F811
    size = viewport(settings)
    form_factor = "phone" if size is PHONE else "desktop"
    http = httpx.Client(base_url=url, timeout=30)
    created = http.post("/campaigns", json={"name": "Blind Corners", "system": "twenty-one"}).json()
    c, house = f"/campaigns/{created['campaign']['id']}", bearer(created["house_token"])
    codes = {"house": created["house_token"]}
    for seat, skills in (("ilse", ["Knife fighting", "Rooftops"]), ("tomas", ["Scripture"])):
        added = http.post(f"{c}/players", headers=house, json={"seat": seat, "character": NAMES[seat], "skills": skills})
        assert added.status_code == 201, added.text
        codes[seat] = added.json()["invite"]
    pages = {seat: seat_page(browser, url, code, size) for seat, code in codes.items()}
    h, i, t = pages["house"], pages["ilse"], pages["tomas"]
    h.on("dialog", lambda dialog: dialog.accept())  # the end of a conflict asks first (everything becomes public)

    def view(unit: str) -> dict[str, Any]:
        """The conflict as the House reads it: public state only (no hand)."""
        return http.get(f"{c}/challenges/{unit}", headers=house).json()

    # -- the House starts the adventure and grants holds, by tapping ----------------------------------------------
    tap(h, command(h, "start-adventure"))
    h.locator("form[data-verb='open-conflict']").wait_for(timeout=WAIT)
    for seat in ("ilse", "tomas"):
        form = command(h, "grant-holds", f"Grant holds to {NAMES[seat]}")
        form.locator("button.step-up").click()  # two holds
        tap(h, form)
        h.locator(".t21-character", has_text=NAMES[seat]).filter(has_text="2 holds to spend").wait_for(timeout=WAIT)
    checked(h, "the House's campaign page")

    # -- conflict 1: a seed from the browser, a pass, the order of play -------------------------------------------
    form = command(h, "open-conflict")
    assert form.locator("input[type=text], textarea").count() == 0  # the engaged are ticked by name, not typed
    for name in NAMES.values():
        form.locator("label.choice", has_text=name).click()
    form.locator("button[type=submit]").click()
    h.wait_for_url("**/web/units/*")
    unit = h.url.rsplit("/", 1)[1]
    h.evaluate("window.__notReloaded = true")
    for seat in ("ilse", "tomas"):
        follow(pages[seat], unit)
    your_move(i)
    checked(i, "a player's table, seeding")
    move(i, "seed", button="button[data-random-for]")
    for page in (h, t):
        wait_text(page, "Ilse Varn has seeded")
    seed = view(unit)["state"]["seeds"]["ilse"]
    assert re.fullmatch(r"[0-9a-f]{64}", seed), seed  # 32 bytes from crypto.getRandomValues (C-4)
    move(t, "pass")
    for page in pages.values():
        page.wait_for_selector("#table .t21[data-dealt='1']", timeout=WAIT)
    hands = {seat: own_cards(pages[seat]) for seat in NAMES}
    assert all(len(cards) == 3 for cards in hands.values()), hands
    hidden_from_others(pages, hands)
    assert h.locator("#table .pc.back").count() == 6  # the House sees every hand as backs (TO-2, C-5)

    move(h, "order")
    for seat in NAMES:
        wait_for_move(pages[seat], "order-card")
    checked(i, "a player's table, laying for the order")
    for seat in NAMES:
        hand = own_cards(pages[seat])
        keep = no_natural(hand, 2)  # the card laid for the order leaves two that make no natural
        move(pages[seat], "order-card", choice=next(x for x in hand if x not in keep))
        if seat == "ilse":
            wait_text(t, "Ilse Varn")
            t.locator("#table .t21-laying .pc.back").wait_for(timeout=WAIT)  # laid face down (TO-3)
    for page in pages.values():
        page.wait_for_selector("#table ol.t21-turns", timeout=WAIT)
    first, second = view(unit)["state"]["turn_order"]
    a, b = pages[first], pages[second]

    # -- the first action: lay, an easier modifier, an assist, a hold's draw kept, a draw, a stand -------------
    your_move(a)
    tapped = list(reversed(own_cards(a)))  # against the hand's order: the player picks which card is laid last
    lay(a, tapped)
    assert view(unit)["state"]["action"]["laid"][:len(tapped)] == tapped  # (found on a phone walk)
    for page in (h, b):
        page.wait_for_selector(f"#table [data-testid=action][data-actor='{first}']", timeout=WAIT)
    checked(h, "the House's table during an action")
    move(h, "modifier", button="button[value='-1']")
    wait_text(b, "−1, easier")
    # an assist is optional (TO-7): the other player may act, and is not told the table waits for him
    b.locator("[data-testid=you-may]").wait_for(timeout=WAIT)
    assert b.locator("[data-testid=your-turn]").count() == 0
    h.wait_for_function("(n) => !document.querySelector('[data-testid=waiting]').textContent.includes(n)",
                        arg=NAMES[second], timeout=WAIT)
    checked(b, "a player's table, assisting")
    shoot(b, f"twenty_one-board-{form_factor}")
    helping = b.locator("#table form[data-action='assist hinder']")
    helping.locator("label.pc-pick").first.click()
    tap(b, helping, "button[value=assist]")
    for page in (h, a):
        wait_text(page, f"{NAMES[second]} assisted")
    move(a, "hold", choice="draw")
    for page in (h, b):
        wait_text(page, "Drawn for the hold")
    move(a, "keep", choice="true")
    move(a, "draw")
    if view(unit)["state"]["action"]:  # not bust: stand
        checked(a, "a player's table, his own action")
        move(a, "stand")
    for page in pages.values():
        page.wait_for_selector("#table .t21[data-results='1']", timeout=WAIT)

    # -- the second action: the deck makes up a hand of one, a harder modifier, a stand ----------------------
    your_move(b)
    lay(b, own_cards(b)[:1])
    if view(unit)["state"]["action"]:  # not a natural (TO-5)
        move(h, "modifier", button="button[value='1']")
        wait_text(b, "+1, harder")
        move(b, "stand")
    for page in pages.values():  # the round ends: every hand is dealt back up to three (TO-9)
        page.wait_for_selector("#table .t21[data-round='2']", timeout=WAIT)
    hands = {seat: own_cards(pages[seat]) for seat in NAMES}
    assert all(len(cards) == 3 for cards in hands.values()), hands
    hidden_from_others(pages, hands)
    outcomes = [r["outcome"] for r in view(unit)["state"]["results"]]
    for r, outcome in zip(h.locator("#table ol.t21-results > li").all(), reversed(outcomes), strict=True):
        assert r.get_attribute("data-outcome") == outcome

    move(h, "end")
    for seat, page in pages.items():
        page.wait_for_selector("#table section[data-phase='settled']", timeout=WAIT)
        assert not_reloaded(page), seat
    text = h.evaluate("document.body.textContent")  # ended: every hand is public (C-5)
    assert all(card_name(x) in text for cards in hands.values() for x in cards)

    # -- conflict 2: typed seed words, a pass, free order: a hinder, a hold on the set-aside card, a discard -----
    for page in pages.values():
        to_campaign(page)
    checked(i, "a player's campaign page")
    i.locator("#own-sheet .t21-latest li").first.wait_for(timeout=WAIT)
    if form_factor == "phone":
        shoot(i, "twenty_one-campaign-phone")
    form = command(h, "open-conflict")
    for name in NAMES.values():
        form.locator("label.choice", has_text=name).click()
    form.locator("button[type=submit]").click()
    h.wait_for_url("**/web/units/*")
    unit = h.url.rsplit("/", 1)[1]
    h.evaluate("window.__notReloaded = true")
    for seat in NAMES:
        follow(pages[seat], unit)
    wait_for_move(t, "seed")
    t.fill("#t21-seed-words", "Brother Tomas's psalm")
    tap(t, t.locator("#table form[data-action='seed']"), "button.secondary")
    move(i, "pass")
    for page in pages.values():
        page.wait_for_selector("#table .t21[data-dealt='1']", timeout=WAIT)
    assert view(unit)["state"]["seeds"] == {"ilse": "", "tomas": "Brother Tomas's psalm"}
    hands = {seat: own_cards(pages[seat]) for seat in NAMES}
    hidden_from_others(pages, hands)

    your_move(i)
    lay(i, no_natural(own_cards(i), 2))  # the third card is set aside (TO-4)
    i.locator("#table [data-testid=set-aside] [data-card]").wait_for(timeout=WAIT)
    for page in (h, t):
        page.locator("#table [data-testid=set-aside] .pc.back").wait_for(timeout=WAIT)  # set aside, hidden (C-5)
    hands = {seat: own_cards(pages[seat]) for seat in NAMES}
    hidden_from_others(pages, hands)
    helping = t.locator("#table form[data-action='assist hinder']")
    helping.wait_for(timeout=WAIT)
    helping.locator("label.pc-pick").last.click()
    tap(t, helping, "button[value=hinder]")
    wait_text(i, "Brother Tomas hindered")
    move(i, "hold", choice="set-aside")
    for page in (h, t):
        wait_text(page, "A hold was spent on the set-aside card")
    move(i, "stand")
    for page in pages.values():
        page.wait_for_selector("#table .t21[data-results='1']", timeout=WAIT)

    your_move(t)
    lay(t, no_natural(own_cards(t), 2))
    if view(unit)["state"]["action"]:
        move(t, "hold", choice="draw")
        move(t, "keep", choice="false")
        for page in (h, i):
            wait_text(page, "A hold was spent to draw a card")
        if view(unit)["state"]["action"]:
            move(t, "stand")
    for page in pages.values():
        page.wait_for_selector("#table .t21[data-round='2']", timeout=WAIT)
    if form_factor == "desktop":
        checked(h, "the House's table between rounds")
    move(h, "end")
    for seat, page in pages.items():
        page.wait_for_selector("#table section[data-phase='settled']", timeout=WAIT)
        assert not_reloaded(page), seat
    checked(t, "a player's table, ended")
    results = view(unit)["state"]["results"]
    assert [r["seat"] for r in results] == ["ilse", "tomas"]
    assert results[0]["replacement"] == {"seat": "tomas", "kind": "hinder"} and results[0]["hold"] == "set-aside"


@on_store("sqlite")
def test_table_cards_are_dealt_and_reshuffled_by_tapping_them_in_order(url, browser, settings):  # noqa: F811
    """C-3: with table cards the House enters the deck it shuffled, and later the discards it reshuffled, by
    tapping the cards in the order they lie (a tap taken back, a count kept); nobody types a card code."""
    size = viewport(settings)
    http = httpx.Client(base_url=url, timeout=30)
    created = http.post("/campaigns", json={"name": "Felt", "system": "twenty-one", "settings": {"table_cards": True}})
    c, house = f"/campaigns/{created.json()['campaign']['id']}", bearer(created.json()["house_token"])
    seats = {"house": house}
    for seat in NAMES:
        added = http.post(f"{c}/players", headers=house, json={"seat": seat, "character": NAMES[seat]}).json()
        seats[seat] = bearer(player_token(http, added))
    assert http.post(f"{c}/adventures", headers=house, json={}).status_code == 201
    unit = http.post(f"{c}/conflicts", headers=house, json={"characters": list(NAMES)}).json()["id"]
    h = seat_page(browser, url, created.json()["house_token"], size)
    open_table(h, unit)
    low = [rank + suit for rank in ("A", "2", "3", "4", "5") for suit in "SHDC"]
    deck = [*low, *(x for x in DECK if x not in low)]  # low cards first: the deck runs out in a few actions

    form = wait_for_move(h, "deal")
    assert form.locator("input[type=text], textarea").count() == 0  # tapped, not typed
    status = form.locator("[data-ordered-status]")
    for code in deck[:2]:
        form.locator(f"[data-ordered-card='{code}']").click()
    form.locator(f"[data-ordered-card='{deck[1]}']").click()  # taken back
    assert "1 of 52" in status.inner_text()
    for code in deck[1:]:
        form.locator(f"[data-ordered-card='{code}']").click()
    assert "All 52 entered" in status.inner_text()
    first = form.locator(f"[data-ordered-card='{deck[0]}']")
    assert first.get_attribute("aria-pressed") == "true" and first.get_attribute("aria-label").endswith("1st from the top")
    checked(h, "the House's table, entering a deck")
    tap(h, form)
    view = http.get(f"{c}/challenges/{unit}", headers=seats["ilse"]).json()
    assert [x["card"] for x in view["state"]["hands"]["ilse"]] == deck[:3]  # TO-2: the top three

    def legal(seat: str) -> dict[str, Any]:
        return http.get(f"{c}/challenges/{unit}", headers=seats[seat]).json()

    for _ in range(80):  # each acts: lay what the hand holds, draw till the action resolves (TO-4)
        if any(a["action"] == "reshuffle" for a in legal("house")["legal_actions"]):
            break
        for seat in NAMES:
            v = legal(seat)
            moves = {a["action"]: a for a in v["legal_actions"]}
            if "lay" in moves:
                body: dict[str, Any] = {"action": "lay", "cards": [x["card"] for x in v["state"]["hands"][seat]][:moves["lay"]["max"]]}
            elif "draw" in moves:
                body = {"action": "draw"}
            else:
                continue
            assert http.post(f"{c}/challenges/{unit}/actions", headers=seats[seat], json=body).status_code == 200
            break
    before = legal("house")
    assert before["phase"] == "reshuffle", before["phase"]  # TO-9, C-3: the refill waits for the House
    discards = before["state"]["discard"]
    hands = {seat: [x["card"] for x in legal(seat)["state"]["hands"][seat]] for seat in NAMES}

    form = wait_for_move(h, "reshuffle")
    assert form.locator("input[type=text], textarea").count() == 0
    offered = [b.get_attribute("data-ordered-card") for b in form.locator("[data-ordered-card]").all()]
    assert sorted(offered) == sorted(discards)  # exactly the discards (C-3)
    order = list(reversed(offered))
    for code in order:
        form.locator(f"[data-ordered-card='{code}']").click()
    assert f"All {len(order)} entered" in form.locator("[data-ordered-status]").inner_text()
    tap(h, form)
    after = {seat: [x["card"] for x in legal(seat)["state"]["hands"][seat]] for seat in NAMES}
    dealt = [x for seat in NAMES for x in after[seat] if x not in hands[seat]]
    assert dealt and dealt == order[:len(dealt)]  # the refill goes on from the top of the deck as tapped
    assert legal("house")["phase"] == "play"
