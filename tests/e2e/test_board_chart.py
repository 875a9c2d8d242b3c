"""The campaign chart on the campaign page (issue 31, ADR 0035), in the browser at phone size: drawn by the
vendored uPlot with no request leaving the server (it works offline), names not roles, a table beside it for
screen readers, and live: a change another seat makes reaches the open page's chart from the stream, without a
reload."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import httpx

from tests.e2e.board import (  # noqa: F401  (fixtures)
    PHONE,
    WAIT,
    axe_check,
    browser,
    needs_chromium,
    not_reloaded,
    on_store,
    phone_checks,
    seat_page,
    shoot,
    url,
)
from tests.e2e.conftest import bearer, player_token

pytestmark = needs_chromium


@on_store("sqlite")
def test_the_chart_is_drawn_offline_and_follows_the_campaign_live(url, browser):  # noqa: F811
    http = httpx.Client(base_url=url, timeout=30)
    created = http.post("/campaigns", json={"name": "Knife night", "system": "twenty-one"}).json()
    c, house = f"/campaigns/{created['campaign']['id']}", bearer(created["house_token"])
    tokens = {}
    for seat, name in (("ilse", "Ilse Varn"), ("tomas", "Brother Tomas")):
        added = http.post(f"{c}/players", headers=house,
                          json={"seat": seat, "character": name, "skills": ["Knife fighting"]}).json()
        tokens[seat] = player_token(http, added)
    for count in (2, 1):
        r = http.post(f"{c}/characters/ilse/holds", headers=house, json={"count": count, "skill": "knife fighting"})
        assert r.status_code < 300, r.text

    page = seat_page(browser, url, tokens["tomas"], PHONE)
    elsewhere: list[str] = []
    page.on("request", lambda r: elsewhere.append(r.url) if urlsplit(r.url).netloc != urlsplit(url).netloc else None)
    page.wait_for_selector("#chart .chart-plot canvas")
    chart = page.locator("#chart")
    assert "Holds over the campaign" in chart.inner_text()
    summary = chart.locator("table.chart-summary")
    assert summary.locator("th[scope=row]").all_inner_texts() == ["Ilse Varn", "Brother Tomas"]  # names, not roles
    assert summary.locator("tr", has_text="Ilse Varn").locator("td").first.inner_text() == "3"
    phone_checks(page, "the campaign chart")
    axe_check(page, "the campaign chart")
    shoot(page, "chart-phone")

    r = http.post(f"{c}/characters/ilse/holds", headers=house, json={"count": 4, "skill": "knife fighting"})
    assert r.status_code < 300, r.text
    page.wait_for_function("() => { const row = [...document.querySelectorAll('#chart table.chart-summary tr')]"
                           ".find((tr) => tr.textContent.includes('Ilse Varn'));"
                           " return row && row.querySelector('td').textContent === '7'; }", timeout=WAIT)
    page.wait_for_selector("#chart .chart-plot canvas")  # drawn again after the live swap
    assert not_reloaded(page)
    assert page.locator("#chart table[data-line='Ilse Varn'] tr[data-x]").count() == 4
    assert not elsewhere, f"the page asked another host: {elsewhere}"


@on_store("postgres")
def test_the_luck_report_reads_in_names_at_phone_size(url, browser):  # noqa: F811
    """The luck report (issue 31) on the campaign page: a row per character and kind of draw, in names, with
    whether the draws fit a fair die; phone size, accessible."""
    http = httpx.Client(base_url=url, timeout=30)
    created = http.post("/campaigns", json={"name": "Monks", "system": "pool"}).json()
    c, house = f"/campaigns/{created['campaign']['id']}", bearer(created["house_token"])
    added = http.post(f"{c}/players", headers=house, json={
        "seat": "ilse", "character": "Ilse Varn", "description": "A brave and stubborn old monk"}).json()
    token = player_token(http, added)
    assert http.post(f"{c}/adventures", headers=house, json={}).status_code == 201
    for _ in range(2):
        r = http.post(f"{c}/rolls", headers=bearer(token), json={"count": 3, "seed": "for the monastery"})
        assert r.status_code == 201, r.text
        if r.json()["phase"] == "choice":  # a 7-9 or a miss waits for the roller's choice (PL-4)
            chosen = http.post(f"{c}/challenges/{r.json()['id']}/actions", headers=bearer(token),
                               json={"action": "choose", "choice": "narrate"})
            assert chosen.status_code < 300, chosen.text  # the roll ends: its dice count now
    page = seat_page(browser, url, token, PHONE)
    luck = page.locator("#luck")
    page.wait_for_function("() => { const td = document.querySelectorAll('#luck table.luck-table tbody tr td');"
                           " return td.length > 1 && td[1].textContent === '6'; }", timeout=WAIT)
    row = luck.locator("table.luck-table tbody tr").first
    assert row.locator("th").inner_text() == "Ilse Varn" and row.locator("td").nth(0).inner_text() == "d6"
    assert row.locator("td").nth(1).inner_text() == "6"
    fair = row.locator("td").nth(2).inner_text()  # in words first, the statistics after them
    assert re.match(r"(too few draws to tell|looks fair \(p = |unusual \(a fair draw does this)", fair), fair
    phone_checks(page, "the luck report")
    axe_check(page, "the luck report")
    shoot(page, "luck-phone")
