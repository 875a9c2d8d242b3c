"""What the browser tests of the boards share (issue 31): a live server per store, Chromium, a signed-in page
per seat in its own context (phone or desktop), clicking a move, and the checks every page must pass: no
horizontal scroll at 390 px, tap targets of at least 44 px, text of at least 12 px, and no serious or
critical axe-core violation (axe-core is vendored under ``tests/e2e/vendor``: the tests run offline).

Screenshots for the guides: ``shoot(page, name)`` writes ``docs/guides/img/<name>.png`` when
``STAKES_SCREENSHOTS=1`` (``make screenshots``), and nowhere otherwise.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import EVERY_STORE
from tests.e2e.live import live_server

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ROOT = Path(__file__).resolve().parents[2]
AXE = Path(__file__).resolve().parent / "vendor" / "axe-4.10.2.min.js"
SHOTS = ROOT / "docs" / "guides" / "img"
WAIT = 30_000  # ms for a page to follow the stream (CI runs two workers, servers and browsers on 2 cores)
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1100, "height": 900}

sync_api = pytest.importorskip("playwright.sync_api")
needs_chromium = pytest.mark.skipif(not Path(CHROMIUM).exists(),
                                    reason="chromium is not installed (make test installs it)")


@pytest.fixture
def url(env_for, settings, tmp_path) -> Iterator[str]:
    """A live ``stakes serve`` on the test's store (SQLite, or its own PostgreSQL schema)."""
    with live_server(env_for(settings), tmp_path / "server.log") as found:
        yield found


@pytest.fixture
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield chromium
        chromium.close()


# ``make screenshots`` (and ``STAKES_EVERY_STORE=1``, ``tests.conftest.EVERY_STORE``) play every evening on both
# stores: at phone size on PostgreSQL and at desktop size on SQLite, for the guides' pictures at both widths.
def on_store(kind: str) -> Any:
    """Mark a browser evening to run on one store: ``make test`` plays each system's evening once, at phone
    size, and the systems share the stores out between them (the page never reads the store; the stores are
    held to one contract by the rest of the suite). With ``EVERY_STORE``, on both."""
    from tests.conftest import STORES

    chosen = STORES if EVERY_STORE else [STORES[0] if kind == "sqlite" else STORES[1]]
    return pytest.mark.parametrize("settings", chosen, indirect=True)


def viewport(settings: Any) -> dict[str, int]:
    """Phone size; with ``EVERY_STORE``, phone on PostgreSQL and desktop on SQLite (both widths, one each)."""
    if not EVERY_STORE:
        return PHONE
    return PHONE if settings.store == "postgres" else DESKTOP


#: Every Content-Security-Policy violation a seat's page reported (``seat_page``); the e2e suite fails a test
#: that leaves one (``tests/e2e/conftest.py``): a blocked style or script is a page that works otherwise than
#: written, and a new user's console full of errors.
VIOLATIONS: list[str] = []
REPORT_VIOLATIONS = ("document.addEventListener('securitypolicyviolation', (e) => console.error('CSP violation: '"
                     " + e.violatedDirective + ' ' + e.blockedURI + ' ' + e.sourceFile + ':' + e.lineNumber));")


def seat_page(browser: Any, url: str, token: str, size: dict[str, int] = PHONE) -> Any:
    """A browser context of its own for one seat, signed in through the page's form (a token or an invite)."""
    context = browser.new_context(viewport=size, is_mobile=size is PHONE, has_touch=size is PHONE)
    context.add_init_script(REPORT_VIOLATIONS)
    page = context.new_page()
    page.on("console", lambda m: VIOLATIONS.append(f"{page.url}: {m.text}") if "CSP violation" in m.text else None)
    page.goto(f"{url}/web")
    page.fill("#token", token)
    page.click("button[type=submit]")
    if token.startswith("inv_"):
        page.click("#continue")
    page.wait_for_url(f"{url}/web/campaign")
    page.evaluate("window.__notReloaded = true")
    return page


def not_reloaded(page: Any) -> bool:
    """True while the page was never reloaded since ``seat_page`` (live updates came from the stream)."""
    return bool(page.evaluate("window.__notReloaded === true"))


def open_table(page: Any, unit_id: str) -> None:
    page.goto(page.url.split("/web/")[0] + f"/web/units/{unit_id}")
    page.wait_for_selector("#table > section")
    page.evaluate("window.__notReloaded = true")


def submit(page: Any, button: Any, sent: Any, timeout: int = WAIT) -> Any:
    """Tap ``button`` and return the answer to the POST it sent (``sent(request)`` picks it out).

    A tap that sent no request at all is tapped again, up to twice: on a loaded machine a tap can land in the
    moment a live refresh morphs the table, and a player whose tap did nothing taps again too. A tap that did
    send is never repeated, so no move is made twice."""
    for attempt in range(3):
        try:
            with page.expect_request(lambda r: r.method == "POST" and sent(r),
                                     timeout=timeout if attempt == 2 else 8_000) as request:
                button.click(timeout=timeout)
        except sync_api.TimeoutError:
            if attempt == 2:
                raise
            continue
        answer = request.value.response()
        assert answer is not None, "the move's POST got no answer"
        return answer
    raise AssertionError("unreachable")


def wait_for_move(page: Any, name: str) -> Any:
    """The form of the seat's move ``name`` once the page (following its stream) offers it."""
    form = page.locator(f"#table form[data-action='{name}']").first
    form.wait_for(timeout=WAIT)
    return form


def phone_checks(page: Any, where: str = "") -> None:
    """At phone width: no horizontal scroll, every visible control at least 44 px tall and wide (WCAG 2.5.5
    enhanced target size, as the issue asks), and no visible text under 12 px."""
    found = page.evaluate("""() => {
      const out = {scroll: document.documentElement.scrollWidth - window.innerWidth, small: [], tiny: []};
      const visible = (el) => { const r = el.getBoundingClientRect(); const s = getComputedStyle(el);
        return r.width > 0 && r.height > 0 && r.right > 0 && r.bottom > 0 && s.visibility !== 'hidden' && s.display !== 'none'; };
      for (const el of document.querySelectorAll('a[href], button, input:not([type=hidden]), select, textarea, summary')) {
        if (!visible(el)) continue;
        const r = el.getBoundingClientRect();
        // a checkbox or radio counts with its label (the label is the target)
        const box = (el.type === 'checkbox' || el.type === 'radio') && el.closest('label');
        const target = box ? box.getBoundingClientRect() : r;
        const what = (el.textContent || el.value || el.name || '').trim().slice(0, 30);
        if (target.height < 43.5 || target.width < 43.5)
          out.small.push(`${el.tagName.toLowerCase()} "${what}" ${Math.round(target.width)}x${Math.round(target.height)}`);
      }
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      while (walker.nextNode()) {
        const node = walker.currentNode; if (!node.textContent.trim()) continue;
        const el = node.parentElement; if (!el || !visible(el)) continue;
        const size = parseFloat(getComputedStyle(el).fontSize);
        if (size < 12) out.tiny.push(`${node.textContent.trim().slice(0, 30)} ${size}px`);
      }
      return out;
    }""")
    assert found["scroll"] <= 0, f"{where}: {found['scroll']} px of horizontal scroll at phone width"
    assert not found["small"], f"{where}: tap targets under 44 px: {found['small'][:10]}"
    assert not found["tiny"], f"{where}: text under 12 px: {found['tiny'][:10]}"


def axe_check(page: Any, where: str = "") -> None:
    """axe-core (vendored) on the page as it is: no moderate, serious or critical violation."""
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.evaluate(AXE.read_text() + "\n;undefined")  # evaluated by the driver: the page's CSP allows no inline script
    result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    bad = [f"{v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes'][:3]]}"
           for v in result["violations"] if v.get("impact") in ("moderate", "serious", "critical")]
    assert not bad, f"{where}: axe-core found {bad}"


def shoot(page: Any, name: str) -> None:
    """A screenshot for the guides (``docs/guides/img/<name>.png``) when ``STAKES_SCREENSHOTS=1``."""
    if os.environ.get("STAKES_SCREENSHOTS") == "1":
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
