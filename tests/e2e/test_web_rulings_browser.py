"""The House's rulings in Chromium (issue 31, C-6, C-8, C-10), on both stores (phone size on PostgreSQL, desktop
on SQLite): under a Twenty-one conflict's board the House unfolds "Rulings", picks the step to go back to from
steps told in words, gives a reason, and is told in words that the undo would hide again a card every seat saw;
it goes ahead with "Undo and show them to every seat", and the player's page follows without a reload. Then the
House abandons the table, confirming first. The player's page has no rulings. Every state passes the phone and
accessibility checks."""

from __future__ import annotations

import httpx

from tests.e2e.board import (  # noqa: F401  (browser and url are fixtures)
    WAIT,
    axe_check,
    browser,
    needs_chromium,
    not_reloaded,
    open_table,
    phone_checks,
    seat_page,
    url,
    viewport,
)
from tests.e2e.test_twenty_one import stacked
from tests.e2e.test_twenty_one import table as twenty_one_table

pytestmark = needs_chromium


def checked(page, where: str) -> None:
    phone_checks(page, where)
    axe_check(page, where)


def test_the_house_undoes_with_a_warning_in_words_and_abandons_from_the_rulings(url, browser, settings):  # noqa: F811
    http = httpx.Client(base_url=url, timeout=30)
    c, t = twenty_one_table(http)
    unit = http.post(f"{c}/conflicts", headers=t["house"], json={"characters": ["ilse", "tomas"]}).json()["id"]
    u = f"{c}/challenges/{unit}"
    for seat, body in (("house", {"action": "deal", "deck": stacked("10S", "3S", "7S", "7H", "9H", "4H", "KD")}),
                       ("ilse", {"action": "lay", "cards": ["10S", "3S"]})):
        assert http.post(f"{u}/actions", headers=t[seat], json=body).status_code == 200
    laid = http.get(f"{u}/replay", headers=t["house"]).json()["total"]
    assert http.post(f"{u}/actions", headers=t["ilse"], json={"action": "hold", "draw": True}).status_code == 200

    token = {seat: h["Authorization"].split(" ", 1)[1] for seat, h in t.items()}
    size = viewport(settings)
    h, i = seat_page(browser, url, token["house"], size), seat_page(browser, url, token["ilse"], size)
    open_table(h, unit)
    open_table(i, unit)
    assert i.locator("#rulings").count() == 0  # the House's only

    h.locator("#rulings summary").click()
    steps = h.locator("#rewind-step option")
    offered = [s["step"] for s in http.get(f"{u}/replay", headers=t["house"]).json()["steps"] if s["rewindable"]]
    assert laid in offered and len(offered) < laid  # the steps inside one move are not offered (C-6)
    # nothing chosen until the House chooses (the first step listed may be one an earlier undo took back)
    assert steps.first.get_attribute("value") == "" and h.input_value("#rewind-step") == ""
    assert [steps.nth(k).get_attribute("value") for k in range(1, steps.count())] == [str(n) for n in reversed(offered)]
    assert steps.nth(1).inner_text().startswith(f"Step {laid}: ")  # the latest first
    checked(h, "the rulings, unfolded")
    h.select_option("#rewind-step", str(laid))
    h.fill("#rewind-reason", "the hold was called too late")
    h.once("dialog", lambda dialog: dialog.accept())  # "Undo the table back to that step, for every seat? …"
    h.locator("form[data-verb='rewind'] button[type=submit]").click()
    warning = h.locator("[data-testid=undo-warning]")
    warning.wait_for(timeout=WAIT)
    assert "This undo would show things again." in warning.inner_text() and "K♦" in warning.inner_text()
    assert "C-8" in warning.inner_text() and "reveal=true" not in warning.inner_text()
    assert http.get(f"{u}/replay", headers=t["house"]).json()["steps"][-1]["event"] != "Rewound"  # nothing stored
    checked(h, "the undo's warning")

    before = i.locator("#table").inner_text()
    h.click("[data-testid=undo-reveal]")  # "Undo and show them to every seat"
    h.wait_for_function("() => !document.querySelector('[data-testid=undo-warning]')", timeout=WAIT)
    last = http.get(f"{u}/replay", headers=t["house"]).json()["steps"][-1]
    assert last["event"] == "Rewound" and last["detail"]["to_step"] == laid
    assert last["detail"]["reason"] == "the hold was called too late"
    # the undo is done: its reason is not left in the box for the next ruling (found on a phone walk)
    assert h.locator("#rewind-reason").count() == 0 or h.input_value("#rewind-reason") == ""
    i.wait_for_function("(before) => document.querySelector('#table').innerText !== before", arg=before,
                        timeout=WAIT)  # the player's page follows the undo live
    assert not_reloaded(i)
    # … and tells her of it, with its reason (C-6: every seat sees the ruling and why)
    note = i.locator("[data-testid=undo-note]")
    note.wait_for(timeout=WAIT)
    assert f"The House undid the table back to step {laid}: “the hold was called too late”" in note.inner_text()

    h.locator("#rulings summary").click() if not h.locator("#rulings").evaluate("(d) => d.open") else None
    h.fill("#abandon-reason", "the evening ends")
    h.once("dialog", lambda dialog: dialog.accept())  # "Abandon this table for every seat? …"
    h.locator("#rulings form[data-action='abandon'] button[type=submit]").click()
    h.wait_for_selector("#table > section[data-phase='settled']", timeout=WAIT)
    i.wait_for_selector("#table > section[data-phase='settled']", timeout=WAIT)
    assert not_reloaded(i)
    abandoned = [s for s in http.get(f"{u}/replay", headers=t["ilse"]).json()["steps"] if s["event"] == "Abandoned"]
    assert [s["detail"].get("reason") for s in abandoned] == ["the evening ends"]
    if h.locator("#rulings").count():  # what is left to rule on a settled table (an overturn)
        h.locator("#rulings summary").click()
        checked(h, "the rulings of a settled table")
