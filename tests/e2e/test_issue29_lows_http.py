"""The Lows a repeat of issue 29's attack left (ADR 0027), closed (ADR 0028), each over real HTTP against a live
server on both stores: web sessions per seat are capped, a retried reissue is applied once, the access log is
bounded, a form's text must be UTF-8, audits are capped per seat and per process, ``/health`` shows no log
position, and uvicorn's own 400 carries the security headers."""

from __future__ import annotations

import re
import socket
import threading
import uuid

import httpx
import pytest

from tests.e2e.conftest import bearer
from tests.e2e.live import live_server, stored_events
from tests.e2e.test_stream import seat_table
from tests.e2e.test_stream_hardening import Follower, log_entries, signed_in


@pytest.fixture
def capped(settings, env_for, tmp_path):
    """A live server whose seats keep at most 3 web sessions; yields (url, its log, the settings)."""
    settings = settings.model_copy(update={"web_sessions_per_seat": 3})
    log = tmp_path / "server.log"
    with live_server(env_for(settings), log) as url:
        yield url, log, settings


def session_rows(settings, seat: str) -> int:
    from adapters.service import Stakes

    stakes = Stakes(settings)
    try:
        return len(stakes.views.query("SELECT 1 FROM {p}web_sessions WHERE seat = ?", (seat,)))
    finally:
        stakes.close()


def test_a_seat_keeps_at_most_its_cap_of_web_sessions_and_the_oldest_ends_like_a_sign_out(capped):
    url, _, settings = capped
    with httpx.Client(base_url=url, timeout=30) as http:
        c, t = seat_table(http)
        token = t["ilse"]["Authorization"].removeprefix("Bearer ")
        oldest = signed_in(url, token)
        stream = Follower(oldest, f"{url}{c}/stream")
        assert stream.status == 200
        browsers = [oldest] + [signed_in(url, token) for _ in range(4)]  # five sign-ins, a cap of three
        # the two oldest ended as a sign-out ends them: their cookies are refused, their open stream ended
        assert stream.ended() == "credential"
        assert [b.get("/session").status_code for b in browsers] == [401, 401, 200, 200, 200]
        assert session_rows(settings, "ilse") == 3  # no unbounded rows
        assert http.get("/session", headers=t["ilse"]).status_code == 200  # the seat token itself goes on
        for browser in browsers:
            browser.close()


def test_a_reissue_retried_under_its_key_is_applied_once_and_answers_no_one_else_a_code(settings, env_for, tmp_path):
    with live_server(env_for(settings), tmp_path / "server.log") as url, httpx.Client(base_url=url, timeout=30) as http:
        c, t = seat_table(http)
        key = {"Idempotency-Key": uuid.uuid4().hex}
        first = http.post(f"{c}/players/ilse/token", headers={**t["house"], **key})
        assert first.status_code in (200, 201), first.text
        claimed = http.post("/invites", json={"code": first.json()["invite"]})
        assert claimed.status_code == 201
        new = bearer(claimed.json()["token"])
        # the House's retry after a lost answer: the same answer, and nothing applied again
        again = http.post(f"{c}/players/ilse/token", headers={**t["house"], **key})
        assert again.status_code in (200, 201) and again.json()["invite"] == first.json()["invite"]
        assert http.get("/session", headers=new).json()["seat"] == "ilse"  # the claimed seat was not revoked
        reissues = [e for e in log_entries(http, c, t["house"]) if e["event"].endswith("SeatReissued")]
        assert len(reissues) == 1
        assert http.post("/invites", json={"code": again.json()["invite"]}).status_code in (403, 422)  # spent, C-1
        # the key is the House's, in this campaign: a player sending it hands out nothing
        r = http.post(f"{c}/players/ilse/token", headers={**t["tomas"], **key})
        assert r.status_code == 403 and "invite" not in r.json()
        # the same key for another command is refused, naming it; a new key is a new reissue
        r = http.post(f"{c}/players/tomas/token", headers={**t["house"], **key})
        assert r.status_code == 409 and "another command" in r.json()["detail"]
        assert http.get("/session", headers=t["tomas"]).status_code == 200
        fresh = http.post(f"{c}/players/ilse/token", headers={**t["house"], "Idempotency-Key": uuid.uuid4().hex})
        assert fresh.status_code in (200, 201) and fresh.json()["invite"] != first.json()["invite"]
        assert http.get("/session", headers=new).status_code == 401


def test_the_access_log_bounds_a_long_query_string_and_still_redacts_credentials(capped):
    url, log, _ = capped
    secret = "stk_" + "S" * 43
    long = "a" * 20_000
    assert httpx.get(f"{url}/health", params={"t": secret, "pad": long}).status_code == 200
    assert httpx.get(f"{url}/health", params={"pad": long, "t": secret}).status_code == 200
    lines = [line for line in log.read_text().splitlines() if "/health?" in line]
    assert len(lines) == 2, lines
    for line in lines:
        assert len(line) < 1000 and "more characters not logged]" in line, line[:300]
        assert secret not in line and "S" * 20 not in line
    assert "stk_[redacted]" in lines[0]


def test_a_form_post_with_invalid_utf8_is_refused_422_and_stores_nothing(settings, env_for, tmp_path):
    with live_server(env_for(settings), tmp_path / "server.log") as url, httpx.Client(base_url=url, timeout=30) as http:
        c, t = seat_table(http)
        house = signed_in(url, t["house"]["Authorization"].removeprefix("Bearer "))
        form = {"Content-Type": "application/x-www-form-urlencoded", "Origin": url}
        stored = stored_events(settings)
        bodies = [b"seat=nina&character=N%FFna&characteristic=Calm",  # a %-escape that is no UTF-8
                  b"seat=nina&character=N\xffna&characteristic=Calm",  # a raw byte that is none
                  b"seat=nina&character=N%C3&characteristic=Calm"]  # a sequence cut short
        for body in bodies:
            r = house.post("/web/commands/add-player", content=body, headers=form)
            assert r.status_code == 422, (body, r.status_code, r.text[:200])
            assert r.headers["content-type"] == "application/problem+json" and "UTF-8" in r.json()["detail"]
            assert r.headers["x-content-type-options"] == "nosniff"  # the Guard's headers on it too
        multipart = b'--B\r\nContent-Disposition: form-data; name="token"\r\n\r\n\xff\xfe\r\n--B--\r\n'
        r = httpx.post(f"{url}/web/sign-in", content=multipart,
                       headers={"Content-Type": "multipart/form-data; boundary=B", "Origin": url})
        assert r.status_code == 422 and "UTF-8" in r.json()["detail"]
        assert stored_events(settings) == stored
        names = [p["seat"] for p in http.get(c, headers=t["house"]).json()["players"]]
        assert "nina" not in names
        # the same form in UTF-8 is taken
        r = house.post("/web/commands/add-player", content="seat=nina&character=Nïna&characteristic=Calm".encode(),
                       headers=form)
        assert r.status_code == 200, r.text[:300]
        house.close()


def test_audits_beyond_a_seats_cap_or_the_servers_are_answered_429_with_retry_after(stakes) -> None:
    from tests.e2e.test_web_command_threads import uvicorn_server

    stakes.settings.audits_per_credential, stakes.settings.audits_per_process = 1, 2
    gate, inside = threading.Event(), threading.Semaphore(0)
    real = stakes.audit

    def gated(*args, **kwargs):
        inside.release()
        assert gate.wait(60), "the test never opened the gate"
        return real(*args, **kwargs)

    stakes.audit = gated
    with uvicorn_server(stakes) as url, httpx.Client(base_url=url, timeout=60) as http:
        one, two, three = (http.post("/campaigns", json={"name": n}).json() for n in ("One", "Two", "Three"))
        audit = "/campaigns/{}/audit"
        running = []
        try:
            for created in (one, two):  # one audit each, both running: the server's cap of two is reached
                running.append(threading.Thread(target=lambda c=created: running.append(http.get(
                    audit.format(c["campaign"]["id"]), headers=bearer(c["house_token"])).status_code)))
                running[-1].start()
                assert inside.acquire(timeout=30), "the audit did not start"
            again = http.get(audit.format(one["campaign"]["id"]), headers=bearer(one["house_token"]))
            assert again.status_code == 429 and int(again.headers["Retry-After"]) > 0, again.text
            assert "STAKES_AUDITS_PER" in again.json()["detail"]
            other = http.get(audit.format(three["campaign"]["id"]), headers=bearer(three["house_token"]))
            assert other.status_code == 429 and "STAKES_AUDITS_PER_PROCESS" in other.json()["detail"]
            assert http.get(f"/campaigns/{three['campaign']['id']}", headers=bearer(three["house_token"])).status_code == 200
        finally:
            gate.set()
            for thread in [r for r in running if isinstance(r, threading.Thread)]:
                thread.join(timeout=60)
        assert sorted(r for r in running if isinstance(r, int)) == [200, 200]
        # once answered, the seat audits again
        assert http.get(audit.format(one["campaign"]["id"]), headers=bearer(one["house_token"])).status_code == 200
        spec = http.get("/openapi.json").json()["paths"]["/campaigns/{campaign_id}/audit"]["get"]["responses"]
        assert "Retry-After" in spec["429"]["headers"]


def test_health_shows_no_log_position_so_no_one_watches_other_campaigns(settings, env_for, tmp_path):
    with live_server(env_for(settings), tmp_path / "server.log") as url, httpx.Client(base_url=url, timeout=30) as http:
        http.post("/campaigns", json={"name": "Mine"})  # the read models have reached the log since the start
        before = http.get("/health").json()
        http.post("/campaigns", json={"name": "Someone else's"})
        after = http.get("/health").json()
        assert before == after == {"status": "ok", "store": "up", "kind": settings.store, "read_models": "ready"}
        assert not re.search(r"\d", http.get("/health").text)  # no number at all


def test_a_request_head_sent_a_little_at_a_time_past_its_bound_is_refused_not_held(capped):
    """httptools sets no bound on a request's head (ADR 0042): ``api.server`` sets h11's, 16 KiB, however the
    bytes arrive (issue 29, ADR 0020: every input bounded)."""
    url, _, _ = capped
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=30) as raw:
        raw.sendall(b"GET /health HTTP/1.1\r\nHost: " + host.encode() + b"\r\n")
        answer = b""
        for i in range(40):  # 40 headers of 1,000 bytes, each sent on its own
            try:
                raw.sendall(b"X-Pad-%d: " % i + b"p" * 1000 + b"\r\n")
            except OSError:  # the server answered and closed before the last ones
                break
        while b"\r\n\r\n" not in answer:
            chunk = raw.recv(65536)
            assert chunk, answer
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 400"), answer[:200]
    assert b"x-content-type-options: nosniff" in answer.lower()


def test_uvicorns_own_400_for_oversized_headers_carries_the_security_headers(capped):
    url, _, _ = capped
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=30) as raw:
        # headers past the bound (16 KiB, h11's) and still unfinished: answered before the app sees them
        raw.sendall(b"GET /health HTTP/1.1\r\nHost: " + host.encode() + b"\r\nX-Padding: " + b"p" * 40_000)
        answer = b""
        while b"\r\n\r\n" not in answer:
            chunk = raw.recv(65536)
            assert chunk, answer
            answer += chunk
    head = answer.split(b"\r\n\r\n", 1)[0].decode("latin-1").lower()
    assert head.startswith("http/1.1 400"), head
    assert "content-security-policy: default-src 'self'" in head
    assert "x-content-type-options: nosniff" in head and "cache-control: no-store" in head
    assert httpx.get(f"{url}/health").status_code == 200  # the server goes on
