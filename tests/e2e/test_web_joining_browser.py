"""Joining a table in Chromium (issue 31), on both stores (phone size on PostgreSQL, desktop on SQLite): the House
seats a player by clicking and sees the invite as a QR code and a link; the player, in a browser of his own,
opens the link, takes the seat and plays; and when the House hands the seat out again, the old holder's open
page goes to the sign-in by itself and says so in words. The system is the registry's first whose player can
open a unit from its commands' schema examples: no system is named here."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import httpx

from tests.e2e.board import WAIT, browser, needs_chromium, not_reloaded, seat_page, url, viewport  # noqa: F401
from tests.e2e.conftest import bearer
from tests.e2e.frame import Opener, opener, seat_inputs, systems

pytestmark = needs_chromium


def playable() -> tuple[Any, Opener]:
    for system in systems():
        found = opener(system)
        if found is not None and found.who != "house":
            return system, found
    raise AssertionError("no system's player can open a unit from its commands' schema examples")


def fill(form: Any, inputs: dict[str, Any]) -> None:
    """Each input into the control the form has for it, whatever kind (a board draws its own)."""
    for name, value in inputs.items():
        control = form.locator(f"[name='{name}']").first
        if not control.count():
            continue
        kind = control.evaluate("(el) => el.tagName === 'SELECT' ? 'select' : el.type")
        if kind == "select":
            control.select_option(str(value))
        elif kind in ("radio", "checkbox"):
            form.locator(f"[name='{name}'][value='{value}']").check()
        elif kind == "hidden":
            continue
        else:  # text, number, range …: set as typed, so the page's own scripts hear it
            control.evaluate("(el, v) => { el.value = v; el.dispatchEvent(new Event('input', {bubbles: true}));"
                             " el.dispatchEvent(new Event('change', {bubbles: true})); }", str(value))


def command_form(page: Any, verb: str, keys: bool = False) -> Any:
    """The form of a campaign command, unfolded when its section is folded (by a tap, or by the keyboard)."""
    details = page.locator(f"details[data-verb='{verb}']")
    if details.count() and not details.first.evaluate("(d) => d.open"):
        if keys:
            details.first.locator("summary").focus()
            page.keyboard.press("Enter")
        else:
            details.first.locator("summary").click()
    form = page.locator(f"form[data-verb='{verb}']").first
    form.wait_for(timeout=WAIT)
    return form


def house_page(browser: Any, url: str, token: str, settings: Any) -> Any:  # noqa: F811
    return seat_page(browser, url, token, viewport(settings))


def test_the_house_seats_a_player_by_clicking_and_the_player_follows_the_link_and_plays(url, browser, settings):  # noqa: F811
    system, found = playable()
    http = httpx.Client(base_url=url, timeout=30)
    created = http.post("/campaigns", json={"name": "Harbour night", "system": system.id}).json()
    c, house = f"/campaigns/{created['campaign']['id']}", bearer(created["house_token"])
    assert http.post(f"{c}/adventures", headers=house, json={}).status_code == 201
    h = house_page(browser, url, created["house_token"], settings)

    form = command_form(h, "add-player")
    fill(form, seat_inputs(system, "ilse", "Ilse Varn"))
    form.locator("button[type=submit]").click()
    qr = h.locator("[data-testid=invite-qr]")
    qr.wait_for(timeout=WAIT)
    assert qr.get_attribute("src").startswith("data:image/svg+xml") and qr.evaluate("(img) => img.naturalWidth") > 0
    link = str(h.locator("[data-testid=invite-link]").get_attribute("href"))
    assert urlsplit(link).path == "/web/invite" and urlsplit(link).fragment.startswith("inv_")
    assert "Ilse Varn" in h.locator("[data-testid=invite]").inner_text()
    h.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=url)
    h.click("[data-copy=invite-link]")
    h.locator("#invite-copied").filter(has_text="Copied").wait_for(timeout=WAIT)
    assert h.evaluate("navigator.clipboard.readText()") == link

    size = viewport(settings)
    context = browser.new_context(viewport=size, is_mobile=size["width"] < 500, has_touch=size["width"] < 500)
    p = context.new_page()
    p.goto(link)  # his own browser: the link fills the form, nothing is claimed before he sends it
    p.wait_for_function("document.getElementById('token').value !== ''", timeout=WAIT)
    p.click("button[type=submit]")
    token = p.locator("[data-testid=seat-token]").input_value()
    assert token.startswith("stk_")
    p.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=url)
    p.click("[data-copy=seat-token]")  # shown once: he copies it to keep it
    p.locator("#token-copied").filter(has_text="Copied").wait_for(timeout=WAIT)
    assert p.evaluate("navigator.clipboard.readText()") == token
    p.click("#continue")
    p.wait_for_url(f"{url}/web/campaign")
    assert "Ilse Varn" in p.locator("header").inner_text()  # his character's name, not a seat handle
    # the House's invite card hears that the seat was taken (C-1: the code is spent), without a reload
    h.locator("[data-testid=invite-taken]").filter(has_text="Ilse Varn took the seat").wait_for(timeout=WAIT)
    assert not h.locator("[data-testid=invite-link]").count() and not_reloaded(h)

    opened = command_form(p, found.verb, keys=True)  # he plays, by the keyboard: his first command that opens a table
    fill(opened, found.inputs)
    opened.locator("button[type=submit]").focus()
    p.keyboard.press("Enter")
    p.wait_for_url(f"{url}/web/units/*", timeout=WAIT)
    p.wait_for_selector("#table > section")
    unit = p.url.rsplit("/", 1)[1]
    assert http.get(f"{c}/challenges/{unit}", headers=house).json()["kind"] == p.locator("#table > section").get_attribute(
        "data-kind")
    h.locator(f"#tables a[href='/web/units/{unit}']").wait_for(timeout=WAIT)  # the House's page hears of it live
    assert not_reloaded(h)
    context.close()


def test_a_reissued_seats_open_page_goes_to_the_sign_in_and_says_so_in_words(url, browser, settings):  # noqa: F811
    system = systems()[0]
    http = httpx.Client(base_url=url, timeout=30)
    created = http.post("/campaigns", json={"name": "Jade Court", "system": system.id}).json()
    c, house = f"/campaigns/{created['campaign']['id']}", bearer(created["house_token"])
    added = http.post(f"{c}/players", headers=house, json=seat_inputs(system, "ilse", "Ilse Varn"))
    assert added.status_code == 201, added.text
    p = seat_page(browser, url, added.json()["invite"], viewport(settings))  # Ilse's browser, on the campaign page
    h = house_page(browser, url, created["house_token"], settings)

    h.locator("details[data-verb='reissue'] summary").click()
    h.once("dialog", lambda dialog: dialog.accept())  # "Hand Ilse Varn's seat out again? …"
    h.click("button[aria-label=\"Reissue Ilse Varn's seat\"]")
    h.locator("[data-testid=invite-qr]").wait_for(timeout=WAIT)
    assert "A new invite for Ilse Varn" in h.locator("[data-testid=invite]").inner_text()

    told = p.locator("[data-testid=seat-ended]")
    told.wait_for(timeout=WAIT)  # by itself: its stream ended with the session (and a live refresh was refused)
    assert urlsplit(p.url).path == "/web" and p.locator("#token").count() == 1
    assert told.inner_text() == "This seat was handed to someone else, or your session ended. Ask the House for a new invite."
