"""What the red team found in the merged issue-29 work (issue 29), each over real HTTP against ``stakes serve``
(uvicorn) on both stores."""

from __future__ import annotations

import threading

import httpx
import pytest

from tests.e2e.conftest import bearer
from tests.e2e.live import stored_events
from tests.e2e.test_web_session_http import COOKIE, pool_table, server, sign_in, with_cookie

#: Each test plays its own campaign: the module shares one store of each kind and its live server.
pytestmark = pytest.mark.shared_store

__all__ = ["server"]  # the fixture, imported for the tests below


def test_a_cookie_borne_write_with_an_authorization_header_that_is_no_bearer_token_is_still_origin_checked(server):
    """``Authorization: Basic …`` (or a bare ``Bearer``) is no bearer token: api.deps then reads the session
    cookie, so the write rides on the cookie and must pass the origin check like any other."""
    url, _ = server
    http = httpx.Client(base_url=url)
    c, tokens, _, _ = pool_table(http)
    house = sign_in(url, tokens["house"])
    before = http.get(f"{c}/log?limit=1000", headers=bearer(tokens["house"])).json()["entries"]
    for authorization in ("Basic Zm9vOmJhcg==", "Bearer", "Digest x", "bearer\tstk_x"):
        r = httpx.post(f"{url}{c}/players", json={"seat": "mallory", "character": "Mallory", "description": "sly"},
                       headers={**with_cookie(house), "Origin": "http://evil.example", "Authorization": authorization})
        assert r.status_code == 403, (authorization, r.text)
        assert r.headers["content-type"] == "application/problem+json" and "origin" in r.json()["detail"].lower()
    assert http.get(f"{c}/log?limit=1000", headers=bearer(tokens["house"])).json()["entries"] == before
    # a real bearer token from another origin is no browser's cookie: it is not asked for an Origin
    r = http.post(f"{c}/players", json={"seat": "nina", "character": "Nina", "description": "calm"},
                  headers={**with_cookie(house), **bearer(tokens["house"]), "Origin": "http://evil.example"})
    assert r.status_code == 201, r.text
    assert COOKIE not in r.headers.get("set-cookie", "")


def test_audits_waiting_for_their_turn_hold_no_worker_thread_so_other_campaigns_keep_reading(stakes) -> None:
    """The audit reads and projects a whole campaign (seconds at 100k events). Before, each request waited for
    its turn inside a worker thread: 45 audits of a 3,000-event campaign, which the House of any campaign may
    send (anyone may create one), stalled every other campaign's reads for 27 s. Here the audits are held at a
    gate: 60 of them (more than the server's worker threads) wait, and another campaign is still read; at most
    ``readcheck.AT_ONCE`` run at once; all answer once the gate opens."""
    from concurrent.futures import ThreadPoolExecutor

    from adapters import readcheck
    from tests.e2e.test_web_command_threads import uvicorn_server

    gate, lock = threading.Event(), threading.Lock()
    inside, most = 0, 0
    real = stakes.audit

    def gated(*args, **kwargs):
        nonlocal inside, most
        with lock:
            inside += 1
            most = max(most, inside)
        try:
            assert gate.wait(120), "the test never opened the gate"
            return real(*args, **kwargs)
        finally:
            with lock:
                inside -= 1

    stakes.audit = gated
    # this test is about threads, not the caps on audits (ADR 0028): 60 of one seat's may wait at once here
    stakes.settings.audits_per_credential = stakes.settings.audits_per_process = 60
    with uvicorn_server(stakes) as url, httpx.Client(base_url=url, timeout=60) as http:
        big = http.post("/campaigns", json={"name": "Audited"}).json()
        other = http.post("/campaigns", json={"name": "Elsewhere"}).json()
        audit = f"/campaigns/{big['campaign']['id']}/audit"
        with ThreadPoolExecutor(60) as pool:
            answers = [pool.submit(httpx.get, f"{url}{audit}", headers=bearer(big["house_token"]), timeout=120)
                       for _ in range(60)]
            deadline = threading.Event()
            while inside < readcheck.AT_ONCE and not deadline.wait(0.05):
                pass
            for _ in range(3):  # the other campaign is read while 60 audits wait (before: every thread held)
                r = http.get(f"/campaigns/{other['campaign']['id']}", headers=bearer(other["house_token"]))
                assert r.status_code == 200, r.text
            assert http.get("/health").status_code == 200
            gate.set()
            statuses = [a.result().status_code for a in answers]
    assert statuses == [200] * 60
    assert most == readcheck.AT_ONCE


def test_a_json_body_nested_too_deeply_or_with_a_huge_number_is_refused_422_like_malformed_json(server, settings):
    """FastAPI answered both an undocumented 400 naming no problem ("There was an error parsing the body"); the
    contract (issue 29 item 12) answers any body that cannot be read like malformed JSON: 422, stored nothing."""
    url, _ = server
    http = httpx.Client(base_url=url)
    created = http.post("/campaigns", json={"name": "Counted"}).json()
    c, house = f"/campaigns/{created['campaign']['id']}", bearer(created["house_token"])
    stored = stored_events(settings)
    hostile = [b"[" * 100_000 + b"]" * 100_000,
               b'{"name": "x", "settings": {"starting_pile": ' + b"9" * 5000 + b"}}"]
    for body in hostile:
        for path, headers in (("/campaigns", {}), (f"{c}/players", house)):
            r = http.post(path, content=body, headers={**headers, "Content-Type": "application/json"})
            assert r.status_code == 422, (path, r.status_code, r.text[:200])
            assert r.headers["content-type"] == "application/problem+json"
            assert r.json()["type"] == "/problems/invalid-input" and r.json()["detail"].startswith("body:")
    # an unknown token with such a body is still answered 401 first
    r = http.post(f"{c}/players", content=hostile[0], headers={**bearer("stk_unknown"), "Content-Type": "application/json"})
    assert r.status_code == 401, r.text[:200]
    assert stored_events(settings) == stored


def test_a_seat_cannot_pass_the_stream_cap_by_signing_in_again_and_again(settings, env_for, tmp_path):
    """Each sign-in opens a new web session, so a cap counted per credential let one seat hold any number of
    streams (with a cap of 8, one token and three sign-ins held 32), up to the process cap every other seat
    shares. The cap counts the seat: its token and all its web sessions together."""
    from tests.e2e.live import live_server
    from tests.e2e.test_stream import seat_table
    from tests.e2e.test_stream_hardening import Follower, signed_in

    env = {**env_for(settings), "STAKES_STREAMS_PER_CREDENTIAL": "2", "STAKES_STREAMS_PER_PROCESS": "50"}
    with live_server(env, tmp_path / "server.log") as url, httpx.Client(base_url=url, timeout=30) as http:
        c, t = seat_table(http)
        token = t["ilse"]["Authorization"].removeprefix("Bearer ")
        opened = [Follower(httpx.Client(base_url=url), f"{url}{c}/stream", t["ilse"]),
                  Follower(signed_in(url, token), f"{url}{c}/stream")]
        assert [f.status for f in opened] == [200, 200]
        for browser in (signed_in(url, token), signed_in(url, token)):  # fresh sessions of the same seat
            r = browser.get(f"{c}/stream")
            assert r.status_code == 429 and int(r.headers["Retry-After"]) > 0, r.text
            assert "STAKES_STREAMS_PER_CREDENTIAL" in r.json()["detail"]
        r = http.get(f"{c}/stream", headers=t["ilse"])
        assert r.status_code == 429, r.text
        other = Follower(httpx.Client(base_url=url), f"{url}{c}/stream", t["tomas"])  # another seat is not held back
        assert other.status == 200


def test_the_body_limits_413_carries_the_security_headers_and_no_store_like_every_other_answer(server):
    """The body limit answered before the Guard could add its headers: a 413 came without CSP, nosniff, frame
    denial or no-store."""
    url, _ = server
    for path in ("/campaigns", "/web/sign-in"):
        r = httpx.post(f"{url}{path}", content=b"x" * (2 * 1024 * 1024), headers={"Content-Type": "application/json",
                                                                                 "Origin": url})
        assert r.status_code == 413, r.text[:200]
        assert "frame-ancestors 'none'" in r.headers["content-security-policy"]
        assert r.headers["x-content-type-options"] == "nosniff" and r.headers["x-frame-options"] == "DENY"
        assert r.headers["cache-control"] == "no-store"
