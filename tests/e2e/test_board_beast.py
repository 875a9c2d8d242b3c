"""An evening of Humanity and Beast played in three browsers by tapping only (issue 31): the House and two
players, each in a browser context of its own (phone size, ``board.on_store``). The campaign is made
and the players seated over HTTP; every move after that is a tap on a page. The House creates Sheriff Cole
and starts the adventure; it opens a conflict for Ilse against him and declares his split in secret (C-9);
Ilse seeds from her browser with words of her own (C-4), rolls a split chosen with steppers, and spends
Willpower on a reroll (BE-4); the House rolls the declared split, reveals it and keeps it. The House restores
Ilse's Willpower (BE-8). Tomas acts against a difficulty named by BE-13, with Willpower before, until his Beast
calls for a Humanity check he rolls (BE-7). Ilse opens a conflict against Tomas: she passes, he seeds, both
roll and keep. The House opens one more conflict, declares, and abandons it (C-10); the adventure ends.

Every move reaches the other pages live (no reload); the seat whose turn it is reads "Your move"; each page
draws exactly the dice its seat's own read shows, so the House's dice and its declared split never reach a
player's page before they may (C-5); the pages pass the phone and axe-core checks in several states.
"""

from __future__ import annotations

import re
from typing import Any

import httpx

from tests.e2e import board
from tests.e2e.board import PHONE, WAIT, axe_check, needs_chromium, not_reloaded, on_store, phone_checks, seat_page, shoot, submit, viewport
from tests.e2e.conftest import bearer, player_token

pytestmark = needs_chromium
browser, url = board.browser, board.url  # the fixtures: Chromium, and a live server on the test's store
NAMES = {"ilse": "Ilse Varn", "tomas": "Brother Tomas"}
COLE = "Sheriff Cole"
SEED = re.compile(r"[0-9a-f]{32}")  # the 128 random bits seed.js draws in the browser (C-4)

#: The dice a page draws, per side of the table: every face of every chain (and what a reroll replaced),
#: then the Humanity check's dice; a die back (``.back``) has no value.
DRAWN = """() => Object.fromEntries(Array.from(document.querySelectorAll('#table .beast-side')).map((s) =>
  [s.dataset.side, Array.from(s.querySelectorAll('.d10[data-value]')).map((d) => Number(d.dataset.value))]).sort())"""


def readable(view: dict[str, Any]) -> dict[str, list[int]]:
    """The dice a seat's own read shows it, per side, in the order the board draws them."""
    out = {}
    for side, data in view["state"]["sides"].items():
        roll, check = data.get("roll") or {}, data.get("check") or {}
        values = [v for d in roll.get("dice", []) for v in [*d["chain"], *(d.get("was") or [])]]
        if check.get("outcome") is not None:
            values += check.get("dice") or []
        out[side] = values
    return dict(sorted(out.items()))


class Evening:
    """The three seats' pages, and the API the test reads its oracle from (never to move)."""

    def __init__(self, http: httpx.Client, c: str, tokens: dict[str, str], pages: dict[str, Any], phone: bool) -> None:
        self.http, self.c, self.tokens, self.pages, self.phone = http, c, tokens, pages, phone
        self.problems: list[str] = []
        for seat, page in pages.items():
            page.on("console", lambda m, seat=seat: self.heard(seat, m))

    def heard(self, seat: str, message: Any) -> None:
        if message.type == "error" or "Content Security Policy" in message.text or "Refused to" in message.text:
            self.problems.append(f"{seat}: {message.text}")

    def read(self, seat: str, unit: str) -> dict[str, Any]:
        r = self.http.get(f"{self.c}/challenges/{unit}", headers=bearer(self.tokens[seat]))
        assert r.status_code == 200, r.text
        return r.json()

    def moves(self, seat: str, unit: str) -> list[str]:
        return [a["action"] for a in self.read(seat, unit)["legal_actions"]]

    def sheet(self, seat: str) -> dict[str, Any]:
        return self.http.get(f"{self.c}/characters/{seat}", headers=bearer(self.tokens[seat])).json()

    # -- tapping ---------------------------------------------------------------------------------------------
    def form(self, seat: str, selector: str) -> Any:
        found = self.pages[seat].locator(selector).first
        found.wait_for(timeout=WAIT)
        return found

    def send(self, seat: str, form: Any, path: str = "/act") -> None:
        """Tap the form's submit button and wait for the server's answer; a refusal fails the test."""
        page = self.pages[seat]
        answer = submit(page, form.locator("button[type=submit]"), lambda r: path in r.url)
        assert answer.status < 400, f"{seat}: {answer.status} {page.locator('.error').all_inner_texts()}"

    def tap(self, seat: str, action: str) -> None:
        """A one-tap move of the table (``data-action``)."""
        self.send(seat, self.form(seat, f"#table form[data-action='{action}']"))

    def command(self, seat: str, verb: str) -> Any:
        """A campaign command's form, unfolded."""
        page = self.pages[seat]
        page.locator(f"details[data-verb='{verb}']").first.wait_for(timeout=WAIT)
        page.locator(f"details[data-verb='{verb}']").evaluate("d => { d.open = true; }")
        return self.form(seat, f"form[data-verb='{verb}']")

    def step(self, form: Any, label: str, times: int) -> None:
        """Tap a stepper's + (or − for negative ``times``) button."""
        button = form.get_by_role("button", name=f"One {'more' if times > 0 else 'less'} {label}", exact=True)
        for _ in range(abs(times)):
            button.click()

    # -- going places --------------------------------------------------------------------------------------
    def to_table(self, seat: str, unit: str) -> None:
        """From the campaign page, tap the table's link (it appeared there live)."""
        page = self.pages[seat]
        link = page.locator(f"#tables a[href='/web/units/{unit}']")
        link.wait_for(timeout=WAIT)
        assert not_reloaded(page), f"{seat}: the table reached the campaign page by a reload"
        link.click()
        page.wait_for_selector("#table section")
        page.evaluate("window.__notReloaded = true")

    def to_campaign(self, seat: str) -> None:
        page = self.pages[seat]
        page.click("nav.crumbs a[href='/web/campaign']")
        page.wait_for_selector("#panel section")
        page.evaluate("window.__notReloaded = true")

    def opened(self, seat: str) -> str:
        """The unit a command just opened: the page was sent to its table."""
        page = self.pages[seat]
        page.wait_for_url("**/web/units/*", timeout=WAIT)
        page.wait_for_selector("#table section")
        page.evaluate("window.__notReloaded = true")
        return page.url.rsplit("/", 1)[1]

    # -- what the pages show ---------------------------------------------------------------------------------
    def shows_what_it_may(self, unit: str, *seats: str) -> None:
        """Each page draws exactly the dice its seat's own read shows (C-5), once it has followed the stream."""
        for seat in seats:
            page = self.pages[seat]
            expected = readable(self.read(seat, unit))
            page.wait_for_function(f"(exp) => JSON.stringify(({DRAWN})()) === JSON.stringify(exp)", arg=expected,
                                   timeout=WAIT)
            assert not_reloaded(page), seat

    def phase(self, unit: str, phase: str, *seats: str) -> None:
        for seat in seats:
            self.pages[seat].wait_for_selector(f"#table section[data-phase='{phase}']", timeout=WAIT)
            assert not_reloaded(self.pages[seat]), seat

    def your_move(self, seat: str) -> None:
        self.pages[seat].locator("[data-testid=your-turn]").wait_for(timeout=WAIT)

    def checked(self, where: str, *seats: str) -> None:
        for seat in seats:
            page = self.pages[seat]
            if self.phone:
                phone_checks(page, f"{seat} {where}")
            axe_check(page, f"{seat} {where}")

    def settle(self, unit: str, *players: str) -> None:
        """Humanity checks that fall due are rolled by their players with a tap (BE-7), until settled."""
        for _ in range(3):
            due = [p for p in players if "check" in self.moves(p, unit)]
            if not due:
                break
            for seat in due:
                self.your_move(seat)
                self.tap(seat, "check")


@on_store("sqlite")
def test_an_evening_of_humanity_and_beast_is_played_by_tapping(url, browser, settings):
    http = httpx.Client(base_url=url)
    created = http.post("/campaigns", json={"name": "Red Hollow", "system": "beast"}).json()
    c, house = f"/campaigns/{created['campaign']['id']}", bearer(created["house_token"])
    tokens = {"house": created["house_token"]}
    for seat, humanity, willpower in (("ilse", 6, 5), ("tomas", 3, 3)):
        added = http.post(f"{c}/players", headers=house, json={"seat": seat, "character": NAMES[seat],
                                                               "humanity": humanity, "willpower": willpower})
        tokens[seat] = player_token(http, added.json())
    size = viewport(settings)
    pages = {seat: seat_page(browser, url, token, size) for seat, token in tokens.items()}
    e = Evening(http, c, tokens, pages, phone=size is PHONE)
    h, i, t = pages["house"], pages["ilse"], pages["tomas"]
    e.checked("campaign before the adventure", "house", "ilse")

    # The House creates Sheriff Cole with steppers (Humanity 3, Willpower 4) and starts the adventure.
    form = e.command("house", "create-antagonist")
    form.get_by_label("Name").fill(COLE)
    e.step(form, "Humanity dice (Beast is the rest of 10)", -4)
    e.step(form, "Willpower maximum", -2)
    e.send("house", form, "/web/commands/")
    h.get_by_text(f"The House's characters are now: {COLE}.").wait_for(timeout=WAIT)
    assert http.get(f"{c}/house-characters", headers=house).json()[0] | {"history": []} == {
        "name": COLE, "humanity": 3, "beast": 7, "willpower": 4, "willpower_max": 4, "lost": False, "history": []}
    i.locator("#house-characters").get_by_text(COLE).wait_for(timeout=WAIT)  # its name reaches the players live
    assert "Willpower 4" not in i.locator("#house-characters").inner_text()  # its sheet does not (C-5)
    e.send("house", e.command("house", "start-adventure"), "/web/commands/")
    for seat in ("ilse", "tomas"):
        pages[seat].locator("form[data-verb='act']").wait_for(timeout=WAIT)  # acting opens with the adventure
        assert not_reloaded(pages[seat]), seat

    # -- Unit 1: the House opens a conflict for Ilse against Sheriff Cole ----------------------------------
    form = e.command("house", "open-conflict")
    form.get_by_label(NAMES["ilse"], exact=True).first.check()
    form.get_by_label(f"{COLE} (the House's)").check()
    e.send("house", form, "/web/commands/")
    first = e.opened("house")
    listed = e.pages["ilse"].locator(f"#tables a[href='/web/units/{first}']")
    listed.wait_for(timeout=WAIT)  # the list names the House's character, not "the House" (issue 31)
    assert listed.inner_text() == f"{NAMES['ilse']} against {COLE}", listed.inner_text()
    e.to_table("ilse", first)
    e.to_table("tomas", first)  # Tomas watches
    e.your_move("house")
    e.checked("table, the House declares", "house")
    # BE-6: the House sees its character's Willpower at the table, as it sees a player's; a player sees Ilse's
    # track, never Cole's (C-5: an antagonist's sheet is the House's)
    h.locator("#table [data-side='opponent'] [aria-label='Willpower 4 of 4']").wait_for(timeout=WAIT)
    i.locator("#table [data-side='challenger'] [aria-label='Willpower 5 of 5']").wait_for(timeout=WAIT)
    for seat in ("ilse", "tomas"):
        assert pages[seat].locator("#table [data-side='opponent'] .willpower-track").count() == 0, seat

    # C-9: the House declares Cole's split in secret: 2 Humanity and 6 Beast dice, Willpower before.
    form = e.form("house", "#table form[data-action='prepare']")
    e.step(form, "Humanity dice", -1)
    e.step(form, "Beast dice", 6)
    form.get_by_label("Spend 1 Willpower first").check()
    e.send("house", form)
    declared = "2 Humanity and 6 Beast dice"
    h.get_by_text(f"Declared: {declared}").wait_for(timeout=WAIT)
    for seat in ("ilse", "tomas"):
        pages[seat].get_by_text(f"{COLE}'s split is declared, in secret").wait_for(timeout=WAIT)
        assert declared not in pages[seat].content(), seat  # C-5: not even in the page's markup
    e.your_move("ilse")
    assert t.locator("[data-testid=your-turn]").count() == 0  # Tomas only watches this table

    # C-4: Ilse seeds from her browser, words of her own first.
    form = e.form("ilse", "#table form[data-action='seed']")
    form.get_by_label("Words of your own to mix in (optional)").fill("Ilse's lucky words")
    e.send("ilse", form)
    seed = e.read("ilse", first)["state"]["side_seeds"]["challenger"]
    assert seed.startswith("Ilse's lucky words ") and SEED.fullmatch(seed.rsplit(" ", 1)[1]), seed

    # Ilse rolls 6 Humanity and 2 Beast dice, chosen with the steppers (bounded by her split, BE-2).
    form = e.form("ilse", "#table form[data-action='roll']")
    assert form.locator("input[name=humanity]").get_attribute("max") == "6"
    assert form.locator("input[name=beast]").get_attribute("max") == "4"
    e.step(form, "Beast dice", 2)
    e.send("ilse", form)
    e.shows_what_it_may(first, "house", "ilse", "tomas")
    assert len(readable(e.read("tomas", first))["challenger"]) >= 8

    # The House rolls the split it declared; the players see a cup of die backs, not one of its dice (C-5).
    e.your_move("house")
    e.tap("house", "roll")
    assert len(readable(e.read("house", first))["opponent"]) >= 8
    for seat in ("ilse", "tomas"):
        pages[seat].locator("#table [data-side='opponent'] .cup").wait_for(timeout=WAIT)
    e.shows_what_it_may(first, "house", "ilse", "tomas")
    e.checked("table, Ilse may reroll", "ilse")

    # BE-4: Ilse spends a Willpower point to roll one die again, picked by tapping the die itself: one that
    # scored nothing if there is one.
    e.your_move("ilse")
    form = e.form("ilse", "#table form[data-action='reroll']")
    shoot(i, "beast-board-phone" if e.phone else "beast-board-desktop")
    blank = form.locator("label.die-choice:not(:has(.hit))")
    choice = blank.first if blank.count() else form.locator("label.die-choice").last
    number = int(choice.locator(".chain").get_attribute("data-die"))
    choice.click()
    e.send("ilse", form)
    assert e.read("ilse", first)["state"]["sides"]["challenger"]["roll"]["reroll"]["die"] == number
    e.shows_what_it_may(first, "house", "ilse", "tomas")
    i.locator("#table [data-side='challenger'] .was").wait_for(timeout=WAIT)

    # The House shows Cole's dice to everyone, then keeps them: the conflict resolves. On Tomas's page the reveal
    # is a change, not a new page (ADR 0038): the dice that turned face up are marked for a moment.
    t.evaluate("""() => { window.__marked = 0; new MutationObserver((ms) => ms.forEach((m) => {
        if (m.target.classList && m.target.classList.contains('changed')) window.__marked += 1; }))
      .observe(document.getElementById('table'), {subtree: true, attributes: true, attributeFilter: ['class']}); }""")
    e.tap("house", "reveal")
    e.shows_what_it_may(first, "house", "ilse", "tomas")
    t.wait_for_function("window.__marked >= 8", timeout=WAIT)  # Cole's eight dice or more, each shown changing
    assert len(readable(e.read("tomas", first))["opponent"]) >= 8
    assert declared not in i.content() and declared not in t.content()  # the declaration: once settled (C-9)
    e.tap("house", "keep")
    # C-9: every side has decided; Ilse adds a fresh seed from her browser before Cole's last dice are drawn, and
    # the outcome comes with it (the same wait whether the House rerolled or kept).
    e.your_move("ilse")
    form = e.form("ilse", "#table form[data-action='seed']")
    assert form.locator("[data-testid=fresh-seed]").count() == 1
    e.send("ilse", form)
    fresh = e.read("ilse", first)["state"]["fresh_seeds"]["reroll"]["challenger"]
    assert SEED.fullmatch(fresh), fresh  # drawn in her browser (seed.js)
    e.settle(first, "ilse")
    e.phase(first, "settled", "house", "ilse", "tomas")
    e.shows_what_it_may(first, "house", "ilse", "tomas")
    outcome = i.locator("[data-testid=outcome]").inner_text()
    assert " wins by " in outcome or "A tie" in outcome
    assert f"Declared: {declared}" in t.locator("#table").inner_text()  # public once settled (C-5)
    e.checked("table, settled", "ilse", "house")

    # BE-8: the House restores Ilse's Willpower by tapping; her page follows live.
    for seat in ("house", "ilse", "tomas"):
        e.to_campaign(seat)
    before = e.sheet("ilse")["willpower"]
    assert before < 5  # the reroll's point at least
    form = e.command("house", "restore-willpower")
    form.get_by_label(re.compile(rf"{NAMES['ilse']} \(Willpower {before} of 5\)")).check()
    e.step(form, "Points restored (never above the maximum)", 1)
    e.send("house", form, "/web/commands/")
    h.get_by_text(f"{NAMES['ilse']}'s Willpower is now {min(5, before + 2)} of 5.").wait_for(timeout=WAIT)
    i.locator(f"#own-sheet [aria-label='Willpower {min(5, before + 2)} of 5']").wait_for(timeout=WAIT)
    assert not_reloaded(i)

    # -- Unit 2 (and on): Tomas acts against a named difficulty (BE-13) until his Beast calls for a check ----
    checks = 0
    actions: list[str] = []
    while not checks and len(actions) < 5:
        form = e.command("tomas", "act")
        form.get_by_label("Hard (6)").check()
        e.step(form, "Humanity dice", -2)
        e.step(form, "Beast dice", 7)
        if not actions:
            form.get_by_label(re.compile("Spend 1 Willpower first")).check()
        e.send("tomas", form, "/web/commands/")
        unit = e.opened("tomas")
        actions.append(unit)
        roll = e.read("tomas", unit)["state"]["sides"]["challenger"]["roll"]
        assert (roll["humanity"], roll["beast"], roll["willpower_before"]) == (1, 7, len(actions) == 1)
        assert SEED.fullmatch(e.read("tomas", unit)["state"]["side_seeds"]["challenger"])  # the browser's (C-4)
        if "keep" in e.moves("tomas", unit):
            # BE-4: without a point spent first, Willpower left after the roll lets him reroll a die; he keeps
            # them, and the outcome follows (the first action spent its point first, so it kept at once, BE-11).
            assert len(actions) > 1
            e.tap("tomas", "keep")
        t.locator("[data-testid=outcome]").get_by_text(re.compile(r"^(Success|Failure): .* Hard \(6\)")).wait_for(
            timeout=WAIT)
        if "check" in e.moves("tomas", unit):
            e.checked("table, a Humanity check is due", "tomas")
            e.settle(unit, "tomas")
            checks += 1
            t.locator("#table .check-words").wait_for(timeout=WAIT)
        e.phase(unit, "settled", "tomas")
        e.to_campaign("tomas")
    assert checks == 1, "seven Beast dice against Willpower 2 or 3 called for no Humanity check in five actions"
    history = t.locator("#own-sheet .beast-history").inner_text()
    assert "Action, Hard (6)" in history and "Rolled 1 Humanity and 7 Beast dice" in history
    i.locator(f"#tables a[href='/web/units/{actions[-1]}']").wait_for(timeout=WAIT)  # Ilse's list follows live
    assert not_reloaded(i)

    # -- Unit 3: Ilse opens a conflict against Tomas; she passes, he seeds from his browser alone -----------
    form = e.command("ilse", "open-conflict")
    form.get_by_label(NAMES["tomas"], exact=True).check()
    e.send("ilse", form, "/web/commands/")
    third = e.opened("ilse")
    e.to_table("tomas", third)
    e.to_table("house", third)  # the House watches
    e.your_move("ilse")
    e.tap("ilse", "pass")
    e.your_move("tomas")
    e.send("tomas", e.form("tomas", "#table form[data-action='seed']"))
    assert SEED.fullmatch(e.read("house", third)["state"]["side_seeds"]["opponent"])
    assert e.read("house", third)["state"]["side_seeds"]["challenger"] == ""  # Ilse passed (C-10)
    e.tap("ilse", "roll")
    e.tap("tomas", "roll")
    e.shows_what_it_may(third, "house", "ilse", "tomas")
    for seat in ("ilse", "tomas"):
        if "keep" in e.moves(seat, third):
            e.tap(seat, "keep")
    e.settle(third, "ilse", "tomas")
    e.phase(third, "settled", "house", "ilse", "tomas")
    e.shows_what_it_may(third, "house", "ilse", "tomas")

    # -- Unit 4: the House opens a conflict for Tomas against Cole, declares, and abandons it (C-10) ---------
    for seat in ("house", "ilse", "tomas"):
        e.to_campaign(seat)
    e.checked("campaign with history", "tomas", "house")
    cole_sheet = h.locator("#house-characters").inner_text()  # the House reads its character's history …
    assert "Conflict" in cole_sheet and re.search(r"(Won|Lost) the conflict|A tie (against .+ )?at", cole_sheet), cole_sheet
    assert "History" not in i.locator("#house-characters").inner_text()  # … a player its name alone (C-5)
    form = e.command("house", "open-conflict")
    form.get_by_label(NAMES["tomas"], exact=True).first.check()
    form.get_by_label(f"{COLE} (the House's)").check()
    e.send("house", form, "/web/commands/")
    fourth = e.opened("house")
    e.to_table("tomas", fourth)
    e.send("house", e.form("house", "#table form[data-action='prepare']"))
    t.get_by_text(f"{COLE}'s split is declared, in secret").wait_for(timeout=WAIT)
    cole = http.get(f"{c}/house-characters", headers=house).json()[0]["humanity"]  # a check may have slipped
    assert f"Declared: {cole} Humanity and 0 Beast dice" not in t.content()
    h.once("dialog", lambda dialog: dialog.accept())  # "Abandon this table for every seat? …"
    h.locator("details#rulings summary").click()  # the frame's rulings: the House alone sees them
    form = e.form("house", "#table form[data-action='abandon']")
    form.get_by_label(re.compile("Why")).fill("Dawn came")
    e.send("house", form)
    e.phase(fourth, "settled", "house", "tomas")
    t.get_by_text("The House abandoned this conflict: Dawn came.").wait_for(timeout=WAIT)
    t.get_by_text(f"Declared: {cole} Humanity and 0 Beast dice").wait_for(timeout=WAIT)  # public now (C-5)

    # The adventure ends; the campaign pages read as the table would tell it.
    e.to_campaign("house")
    e.to_campaign("tomas")
    h.once("dialog", lambda dialog: dialog.accept())  # "End the adventure now, for every seat?"
    e.send("house", e.command("house", "end-adventure"), "/web/commands/")
    i.locator("form[data-verb='act']").wait_for(state="detached", timeout=WAIT)
    assert not_reloaded(i)
    sheet = i.locator("#own-sheet").inner_text()
    # not the generic "kind: action; success: no; …" (a tie reads "1 success: nobody was hurt", which is fine)
    assert "Kind: action" not in sheet and not re.search(r"success: (no|yes)\b", sheet.lower())
    assert re.search(r"(Won|Lost) the conflict against [A-Z][^\n]* with \d+ success|A tie against [A-Z]", sheet), sheet
    assert f"The House restored {min(2, 5 - before)} Willpower" in sheet
    e.checked("campaign at the end", "ilse", "tomas")
    if e.phone:
        shoot(i, "beast-campaign-phone")
    assert e.problems == []
