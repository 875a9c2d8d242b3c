"""Every shared page of the web frame, for every rule system in the registry, at phone size (390 px): no
horizontal scroll, tap targets of at least 44 px, text of at least 12 px, and no serious or critical axe-core
violation (issue 31). One live server per store; the systems are looped inside it.

The pages: the sign-in, an invite link's page and the claimed seat's page (the same for every system: checked
once), then per system the campaign page as the House (with a new seat's invite, its link and QR code, shown)
and as the player; and, where the system's first unit-opening command can be filled from its schema's examples,
the unit's table as the player and as the House (its "Rulings" unfolded) and the unit's replay, whose hashes
appear only in its verify panel.
"""

from __future__ import annotations

from urllib.parse import urlsplit

import httpx

from tests.e2e.board import PHONE, axe_check, browser, needs_chromium, on_store, phone_checks, url  # noqa: F401  (fixtures)
from tests.e2e.conftest import bearer
from tests.e2e.frame import house_adds_a_player, open_all_details, opener, systems

pytestmark = needs_chromium


def checked(page, where: str) -> None:
    open_all_details(page)
    phone_checks(page, where)
    axe_check(page, where)


def chart_drawn(page, where: str) -> None:
    """The campaign chart (issue 31) is drawn by the vendored uPlot (no inline script: the CSP holds), one
    canvas as wide as its card at most, with its table alternative beside it."""
    page.wait_for_selector("#chart .chart-plot canvas")
    assert page.evaluate("typeof uPlot") == "function", where
    widths = page.evaluate("[document.querySelector('#chart .chart-plot canvas').getBoundingClientRect().right,"
                           " document.querySelector('#chart').getBoundingClientRect().right]")
    assert widths[0] <= widths[1], f"{where}: the chart overflows its card {widths}"
    assert page.locator("#chart table.chart-summary th[scope=row]").count() >= 1, where


def phone(browser):  # noqa: F811
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    return context, context.new_page()


@on_store("postgres")
def test_every_shared_page_passes_the_phone_and_accessibility_checks_for_every_system(url, browser):  # noqa: F811
    http = httpx.Client(base_url=url, timeout=30)
    first = True
    for system in systems():
        created = http.post("/campaigns", json={"name": f"{system.name} night", "system": system.id})
        assert created.status_code == 201, created.text
        c, house = f"/campaigns/{created.json()['campaign']['id']}", bearer(created.json()["house_token"])

        h_context, h = phone(browser)
        h.goto(f"{url}/web")
        if first:
            checked(h, "the sign-in")
        h.fill("#token", created.json()["house_token"])
        h.click("button[type=submit]")
        h.wait_for_url(f"{url}/web/campaign")
        link = house_adds_a_player(h, system, "ilse", "Ilse Varn")
        assert urlsplit(link).path == "/web/invite" and urlsplit(link).fragment.startswith("inv_")
        assert h.locator("[data-testid=invite-qr]").get_attribute("src").startswith("data:image/svg+xml")
        checked(h, f"{system.id}: the campaign as the House, with an invite")
        assert http.post(f"{c}/adventures", headers=house, json={}).status_code == 201

        p_context, p = phone(browser)
        p.goto(link)
        p.wait_for_function("document.getElementById('token').value !== ''")
        if first:
            checked(p, "an invite link's page")
        p.click("button[type=submit]")
        token = p.locator("[data-testid=seat-token]").input_value()
        if first:
            checked(p, "the claimed seat")
        p.click("#continue")
        p.wait_for_url(f"{url}/web/campaign")
        checked(p, f"{system.id}: the campaign as the player")
        chart_drawn(p, f"{system.id}: the campaign as the player")
        p.click("footer.foot a[href='/web/rules']")  # the rulings the pages cite, in words
        p.wait_for_url(f"{url}/web/rules")
        checked(p, f"{system.id}: the rulings")
        p.go_back()
        p.wait_for_url(f"{url}/web/campaign")

        found = opener(system)
        if found is not None:
            seat = bearer(token) if found.who != "house" else house
            r = http.post(f"{c}{found.route}", headers=seat, json=found.inputs)
            assert r.status_code in (200, 201), f"{system.id} {found.verb}: {r.text}"
            unit = r.json()["id"]
            for who, page in (("the player", p), ("the House", h)):
                page.goto(f"{url}/web/units/{unit}")
                page.wait_for_selector("#table > section")
                checked(page, f"{system.id}: the table as {who}")
            p.goto(f"{url}/web/units/{unit}/replay")
            p.wait_for_selector("#step-event strong")
            p.wait_for_selector("#step-state[aria-busy=false] > *")  # the step's board, drawn by the system's board
            checked(p, f"{system.id}: the replay")
            commitment = p.locator("[data-testid=commitment]")
            if commitment.count():  # a hash is shown in the verify panel only
                assert commitment.inner_text() not in p.locator("#replay").inner_text()
        first = False
        h_context.close()
        p_context.close()
