"""The live stream hardened (issue 29): streams end with their seat, caps, junk Last-Event-ID, per-campaign ids.

Every test runs a real ``stakes serve`` (uvicorn) on both stores (the ``settings`` fixture).
"""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from tests.e2e.conftest import bearer, player_headers
from tests.e2e.live import live_server, read_frames
from tests.e2e.test_stream import seat_table


class Follower:
    """Reads a stream in a thread until the server ends it; keeps every frame (id, event, data)."""

    def __init__(self, client: httpx.Client, url: str, headers: dict[str, str] | None = None) -> None:
        self.frames: list[dict[str, Any]] = []
        self.status: int | None = None
        self.opened, self.closed = threading.Event(), threading.Event()
        self.error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, args=(client, url, headers or {}), daemon=True)
        self._thread.start()
        assert self.opened.wait(20), "the stream did not open"

    def _run(self, client: httpx.Client, url: str, headers: dict[str, str]) -> None:
        try:
            with client.stream("GET", url, headers=headers, timeout=httpx.Timeout(60.0)) as r:
                self.status = r.status_code
                self.opened.set()
                fields: dict[str, str] = {}
                for line in r.iter_lines():
                    if line:
                        if not line.startswith(":"):
                            name, _, value = line.partition(":")
                            fields[name] = fields.get(name, "") + value.removeprefix(" ")
                        continue
                    if "data" in fields:
                        self.frames.append(dict(fields))
                    fields = {}
        except BaseException as exc:
            self.error = exc
        finally:
            self.opened.set()
            self.closed.set()

    def ids(self) -> list[int]:
        return [int(f["id"]) for f in self.frames if f.get("event") == "log"]

    def ended(self, timeout: float = 30.0) -> str:
        """Waits for the server to end the stream; the reason its ``end`` frame gave."""
        assert self.closed.wait(timeout), f"the stream was not ended; it got {self.ids()}"
        assert self.error is None, self.error
        ends = [json.loads(f["data"])["reason"] for f in self.frames if f.get("event") == "end"]
        assert len(ends) == 1 and self.frames[-1].get("event") == "end", self.frames[-3:]
        return ends[0]


def hooked(env: dict[str, str], tmp_path: Path, code: str) -> dict[str, str]:
    """``env`` for a server that runs ``code`` at start (a test-only ``sitecustomize`` that wraps a function)."""
    import os

    hook = tmp_path / "hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(code)
    return {**env, "PYTHONPATH": f"{hook}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}


def log_entries(http: httpx.Client, c: str, headers: dict[str, str]) -> list[dict[str, Any]]:
    """Every entry the seat may read, page after page (a page holds at most 1,000)."""
    entries: list[dict[str, Any]] = []
    after: int | None = 0
    while after is not None:
        page = http.get(f"{c}/log", params={"after": after, "limit": 1000}, headers=headers).json()
        entries += page["entries"]
        after = page["next_after"]
    return entries


def signed_in(url: str, token: str) -> httpx.Client:
    """A browser-like client holding the web view's cookie for ``token``."""
    browser = httpx.Client(base_url=url)
    r = browser.post("/web/sign-in", data={"token": token}, headers={"Origin": url}, follow_redirects=False)
    assert r.status_code == 303, r.text
    assert browser.cookies, "the sign-in set no cookie"
    return browser


def test_a_reissued_seats_open_bearer_and_cookie_streams_end_at_once_and_get_nothing_written_after(
        settings, env_for, tmp_path):
    with live_server(env_for(settings), tmp_path / "server.log") as url, httpx.Client(base_url=url, timeout=30) as http:
        c, t = seat_table(http)
        old = t["ilse"]
        browser = signed_in(url, old["Authorization"].removeprefix("Bearer "))
        before = log_entries(http, c, old)[-1]["position"]
        by_bearer = Follower(http, f"{url}{c}/stream", old)
        by_cookie = Follower(browser, f"{url}{c}/stream")
        assert by_bearer.status == by_cookie.status == 200
        reissued = http.post(f"{c}/players/ilse/token", headers=t["house"])
        assert reissued.status_code in (200, 201), reissued.text
        # the old holder's streams end at once, before anyone uses the seat again (no timing: they end by
        # themselves, the test only waits for it)
        assert by_bearer.ended() == "credential"
        assert by_cookie.ended() == "credential"
        revoked_at = log_entries(http, c, t["house"])[-1]["position"]  # the SeatReissued entry
        new = player_headers(http, reissued.json())
        written = http.post(f"{c}/antagonists", headers=t["house"], json={"name": "Grey Fox", "characteristics": []})
        assert written.status_code == 201, written.text
        after = [e["position"] for e in log_entries(http, c, new) if e["position"] > revoked_at]
        assert after, "the new holder's seat wrote nothing after the revocation"
        for old_stream in (by_bearer, by_cookie):
            # nothing written after it; a stream still reading its backlog when the reissue landed checks its
            # credential after the rows and ends without sending them (ADR 0024, 2026-11-28 addendum)
            assert not old_stream.ids() or before <= max(old_stream.ids()) <= revoked_at, old_stream.ids()
        # a reconnect with the old credential, bearer or cookie, is refused
        assert http.get(f"{c}/stream", headers={**old, "Last-Event-ID": str(before)}).status_code == 401
        assert browser.get(f"{c}/stream").status_code == 401
        browser.close()


def test_a_stream_ends_when_its_credential_expires_by_itself(settings, env_for, tmp_path):
    """Caller.expires_at (a web session's expiry) ends the stream at that moment, whatever sets it: here a
    test-only hook gives every credential 2 seconds from its check."""
    env = hooked(env_for(settings), tmp_path,
                 "import dataclasses, time\n"
                 "import api.deps as deps\n"
                 "_real = deps._caller\n"
                 "def _short(stakes, token):\n"
                 "    return dataclasses.replace(_real(stakes, token), expires_at=time.time() + 2)\n"
                 "deps._caller = _short\n")
    with live_server(env, tmp_path / "server.log") as url, httpx.Client(base_url=url, timeout=30) as http:
        c, t = seat_table(http)
        follower = Follower(http, f"{url}{c}/stream", t["tomas"])
        assert follower.status == 200
        assert follower.ended() == "credential"
        assert follower.ids() == [e["position"] for e in log_entries(http, c, t["tomas"])]


def test_streams_over_the_caps_are_answered_429_with_retry_after(settings, env_for, tmp_path):
    env = {**env_for(settings), "STAKES_STREAMS_PER_CREDENTIAL": "2", "STAKES_STREAMS_PER_PROCESS": "3"}
    with live_server(env, tmp_path / "server.log") as url, httpx.Client(base_url=url, timeout=30) as http:
        c, t = seat_table(http)
        opened = [Follower(httpx.Client(base_url=url), f"{url}{c}/stream", t["ilse"]) for _ in range(2)]
        assert [f.status for f in opened] == [200, 200]
        third = http.get(f"{c}/stream", headers=t["ilse"])
        assert third.status_code == 429 and int(third.headers["Retry-After"]) > 0
        assert third.headers["content-type"].startswith("application/problem+json")
        assert "STAKES_STREAMS_PER_CREDENTIAL" in third.json()["detail"]
        opened.append(Follower(httpx.Client(base_url=url), f"{url}{c}/stream", t["tomas"]))
        assert opened[-1].status == 200
        full = http.get(f"{c}/stream", headers=t["house"])
        assert full.status_code == 429 and int(full.headers["Retry-After"]) > 0
        assert "STAKES_STREAMS_PER_PROCESS" in full.json()["detail"]
        spec = http.get("/openapi.json", timeout=120).json()["paths"]["/campaigns/{campaign_id}/stream"]["get"]["responses"]
        assert {"200", "400", "401", "403", "404", "429"} <= set(spec)
        assert "Retry-After" in spec["429"]["headers"]


def test_junk_last_event_id_is_a_clean_400_problem_and_hang_ups_log_no_traceback(settings, env_for, tmp_path):
    log = tmp_path / "server.log"
    with live_server(env_for(settings), log) as url, httpx.Client(base_url=url, timeout=30) as http:
        c, t = seat_table(http)
        for junk in (b"\xb2", "\u0662".encode(), b"abc", b"-1", b"1e3", b"99999999999999999999999", b"+5"):
            r = http.get(f"{c}/stream", headers={**t["ilse"], "Last-Event-ID": junk})
            assert r.status_code == 400, (junk, r.text)
            assert r.headers["content-type"].startswith("application/problem+json")
            assert r.json()["type"] == "/problems/bad-last-event-id"
        ok = read_frames(f"{url}{c}/stream", t["ilse"], count=1, last_event_id="2")
        assert [int(f.id) for f in ok] == [min(e["position"] for e in log_entries(http, c, t["ilse"])
                                               if e["position"] > 2)]
        for _ in range(5):  # clients that hang up mid-stream
            read_frames(f"{url}{c}/stream", t["house"], count=1)
        assert http.get("/health").status_code == 200
    text = Path(log).read_text()
    assert "Traceback" not in text and "BrokenResourceError" not in text, text[-3000:]


def test_stream_ids_log_cursors_and_page_heads_count_within_their_own_campaign(settings, env_for, tmp_path):
    """Two campaigns written in turn: each one's ids are 1, 2, 3 …, never the global position (issue 29, 11)."""
    with live_server(env_for(settings), tmp_path / "server.log") as url, httpx.Client(base_url=url, timeout=30) as http:
        houses = {}
        for name in ("North", "South"):
            created = http.post("/campaigns", json={"name": name}).json()
            houses[f"/campaigns/{created['campaign']['id']}"] = bearer(created["house_token"])
        for i in range(4):  # interleaved
            for c, house in houses.items():
                added = http.post(f"{c}/players", headers=house, json={
                    "seat": f"p{i}", "character": f"P{i}", "characteristic": "Quick"})
                assert added.status_code == 201, added.text
        for c, house in houses.items():
            entries = log_entries(http, c, house)
            n = len(entries)
            assert [e["position"] for e in entries] == list(range(1, n + 1))
            frames = read_frames(f"{url}{c}/stream", house, until=n)
            assert [int(f.id) for f in frames] == list(range(1, n + 1))
            pages, after = [], 0
            while True:
                page = http.get(f"{c}/log", params={"after": after, "limit": 2}, headers=house).json()
                pages += [e["position"] for e in page["entries"]]
                if page["next_after"] is None:
                    break
                assert page["next_after"] <= n
                after = page["next_after"]
            assert pages == list(range(1, n + 1))
            browser = signed_in(url, house["Authorization"].removeprefix("Bearer "))
            page = browser.get("/web/campaign")
            assert f'stream?after={n}"' in page.text
            browser.close()


def test_a_reissue_through_one_postgresql_server_ends_the_old_holders_stream_on_another(
        pg_server, pg_schema, env_for, tmp_path):
    """The revocation reaches the other process by a notification ordered with the log's (ADR 0024)."""
    from tests.conftest import postgres_settings

    env = env_for(postgres_settings(pg_server, pg_schema, tmp_path))
    with live_server(env, tmp_path / "a.log") as a, live_server(env, tmp_path / "b.log") as b, \
            httpx.Client(base_url=b, timeout=30) as via_b, httpx.Client(base_url=a, timeout=30) as via_a:
        c, t = seat_table(via_b)
        on_a = Follower(via_a, f"{a}{c}/stream", t["ilse"])
        assert on_a.status == 200
        reissued = via_b.post(f"{c}/players/ilse/token", headers=t["house"])
        assert reissued.status_code in (200, 201), reissued.text
        revoked_at = log_entries(via_b, c, t["house"])[-1]["position"]
        new = player_headers(via_b, reissued.json())
        written = via_b.post(f"{c}/antagonists", headers=t["house"], json={"name": "Grey Fox", "characteristics": []})
        assert written.status_code == 201, written.text
        assert on_a.ended() == "credential"
        assert not on_a.ids() or max(on_a.ids()) <= revoked_at  # a backlog read at the reissue may end unsent
        assert max(e["position"] for e in log_entries(via_b, c, new)) > revoked_at
        assert via_a.get(f"{c}/stream", headers=t["ilse"]).status_code == 401


def test_signing_out_of_the_web_view_ends_that_browsers_open_stream_at_once(settings, env_for, tmp_path):
    """Issue 29: a sign-out revokes the web session on the server, and its open stream ends (reason
    'credential') while the seat's other credentials keep theirs."""
    with live_server(env_for(settings), tmp_path / "server.log") as url, httpx.Client(base_url=url, timeout=30) as http:
        c, t = seat_table(http)
        browser = signed_in(url, t["ilse"]["Authorization"].removeprefix("Bearer "))
        by_cookie = Follower(browser, f"{url}{c}/stream")
        by_bearer = Follower(http, f"{url}{c}/stream", t["ilse"])
        assert by_cookie.status == by_bearer.status == 200
        out = browser.post("/web/sign-out", headers={"Origin": url}, follow_redirects=False)
        assert out.status_code in (200, 303), out.text
        assert by_cookie.ended() == "credential"
        assert browser.get(f"{c}/stream").status_code == 401
        assert http.get(f"{c}/characters/ilse", headers=t["ilse"]).status_code == 200  # the token still works
        assert not by_bearer.closed.is_set()  # the seat token's own stream goes on
        browser.close()


def test_a_reissue_through_one_sqlite_server_ends_the_old_holders_stream_on_another_within_a_second(
        env_for, tmp_path):
    """SQLite has no NOTIFY: the other process's watcher sees the credential tables change (``PRAGMA
    data_version``) and its streams check again well before the 30-second routine re-check (issue 29)."""
    from tests.conftest import sqlite_settings

    env = env_for(sqlite_settings(tmp_path))
    with live_server(env, tmp_path / "a.log") as a, live_server(env, tmp_path / "b.log") as b, \
            httpx.Client(base_url=b, timeout=30) as via_b, httpx.Client(base_url=a, timeout=30) as via_a:
        c, t = seat_table(via_b)
        on_a = Follower(via_a, f"{a}{c}/stream", t["ilse"])
        assert on_a.status == 200
        reissued = via_b.post(f"{c}/players/ilse/token", headers=t["house"])
        assert reissued.status_code in (200, 201), reissued.text
        revoked_at = log_entries(via_b, c, t["house"])[-1]["position"]
        started = time.monotonic()
        written = via_b.post(f"{c}/antagonists", headers=t["house"], json={"name": "Grey Fox", "characteristics": []})
        assert written.status_code == 201, written.text
        assert on_a.ended(timeout=10) == "credential"
        assert time.monotonic() - started < 5  # the routine re-check is 30 s: this came from the watcher
        assert not on_a.ids() or max(on_a.ids()) <= revoked_at
        assert via_a.get(f"{c}/stream", headers=t["ilse"]).status_code == 401


def test_a_revocation_and_a_write_while_a_stream_reads_its_backlog_reach_it_only_as_the_end(
        settings, env_for, tmp_path):
    """The backlog is read by the stream itself: a reissue on another process, then a write, both landing
    while that read waits, must not reach the old holder (issue 29). A test-only hook holds the first backlog
    read of server A for three seconds while server B revokes and writes."""
    marker = tmp_path / "hold-the-backlog"
    env = env_for(settings)
    held = hooked(env, tmp_path,
                  "import os, time\n"
                  "import adapters.ledger as ledger\n"
                  "_real = ledger.entries_after\n"
                  "def _held(*args, **kwargs):\n"
                  f"    if os.path.exists({str(marker)!r}):\n"
                  f"        os.remove({str(marker)!r})\n"
                  "        time.sleep(3)\n"
                  "    return _real(*args, **kwargs)\n"
                  "ledger.entries_after = _held\n")
    with live_server(held, tmp_path / "a.log") as a, live_server(env, tmp_path / "b.log") as b, \
            httpx.Client(base_url=b, timeout=30) as via_b, httpx.Client(base_url=a, timeout=30) as via_a:
        c, t = seat_table(via_b)
        marker.write_text("")
        on_a = Follower(via_a, f"{a}{c}/stream", t["ilse"])
        assert on_a.status == 200
        deadline = time.monotonic() + 10  # the stream's first backlog read has begun, and is held (a busy machine)
        while marker.exists() and time.monotonic() < deadline:
            time.sleep(0.02)
        assert not marker.exists(), "the hook did not hold the backlog read"
        reissued = via_b.post(f"{c}/players/ilse/token", headers=t["house"])
        assert reissued.status_code in (200, 201), reissued.text
        revoked_at = log_entries(via_b, c, t["house"])[-1]["position"]
        written = via_b.post(f"{c}/antagonists", headers=t["house"], json={"name": "Grey Fox", "characteristics": []})
        assert written.status_code == 201, written.text
        assert on_a.ended() == "credential"
        assert not on_a.ids() or max(on_a.ids()) <= revoked_at, on_a.ids()


def test_a_web_move_whose_body_comes_after_the_seat_was_reissued_is_refused_and_stores_nothing(
        settings, env_for, tmp_path):
    """A browser's session is looked up again once the body is in, in the command's own thread: a client that
    sends a move's headers, holds its body back past a reissue and then sends it, is sent to the sign-in and
    nothing is stored (issue 29: a revoked credential stops working everywhere at once)."""
    import socket
    from urllib.parse import urlsplit

    with live_server(env_for(settings), tmp_path / "server.log") as url, httpx.Client(base_url=url, timeout=30) as http:
        c, t = seat_table(http)
        ch = http.post(f"{c}/challenges", headers=t["house"], json={
            "challenger": {"antagonist": "Lady Sen"}, "opponent": {"players": ["ilse"]}, "ante": 1}).json()["id"]
        assert http.post(f"{c}/challenges/{ch}/actions", headers=t["house"],
                         json={"action": "declare", "characteristics": ["Poison"]}).status_code == 200
        browser = signed_in(url, t["ilse"]["Authorization"].removeprefix("Bearer "))
        cookie = "; ".join(f"{k}={v}" for k, v in browser.cookies.items())
        before = [e["position"] for e in log_entries(http, c, t["house"])]
        body = b"action=seed&seed=held+back+words"
        where = urlsplit(url)
        with socket.create_connection((where.hostname, where.port), timeout=30) as raw:
            raw.sendall((f"POST /web/units/{ch}/act HTTP/1.1\r\nHost: {where.netloc}\r\nCookie: {cookie}\r\n"
                         f"Origin: {url}\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                         f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode())
            time.sleep(0.5)  # the headers are in: the seat was resolved from the cookie
            reissued = http.post(f"{c}/players/ilse/token", headers=t["house"])
            assert reissued.status_code in (200, 201), reissued.text
            raw.sendall(body)
            answer = b""
            while chunk := raw.recv(65536):
                answer += chunk
        status = int(answer.split(b" ", 2)[1])
        assert status in (303, 401), answer[:300]
        after = log_entries(http, c, t["house"])
        assert not [e for e in after if e["position"] not in before and e["event"] == "SeedAdded"], after[-3:]
        browser.close()


def test_a_stream_whose_credential_is_revoked_between_its_lookup_and_its_admission_ends_before_any_later_entry(
        settings, env_for, tmp_path):
    """The stream's revocation generation is the one before its credential was looked up: a reissue landing
    between the lookup and the admission makes it check again before it sends anything (red team: it counted as
    checked and carried entries written after the revocation until the routine re-check). A test-only hook
    holds the stream's lookup two seconds while the House reissues the seat."""
    marker = tmp_path / "hold-the-lookup"
    env = hooked(env_for(settings), tmp_path,
                 "import os, time\n"
                 "import api.deps as deps\n"
                 "_real = deps._caller\n"
                 "def _held(*args, **kwargs):\n"
                 "    found = _real(*args, **kwargs)\n"
                 f"    if os.path.exists({str(marker)!r}):\n"
                 f"        os.remove({str(marker)!r})\n"
                 "        time.sleep(2)\n"
                 "    return found\n"
                 "deps._caller = _held\n")
    with live_server(env, tmp_path / "server.log") as url, httpx.Client(base_url=url, timeout=30) as http:
        c, t = seat_table(http)
        marker.write_text("")
        reissued: list[httpx.Response] = []

        def reissue() -> None:
            time.sleep(0.7)  # the stream's lookup is done and held
            reissued.append(http.post(f"{c}/players/ilse/token", headers=t["house"]))

        during = threading.Thread(target=reissue)
        during.start()
        on = Follower(httpx.Client(base_url=url), f"{url}{c}/stream?after={2**62}", t["ilse"])
        during.join()
        assert reissued and reissued[0].status_code in (200, 201), reissued
        assert not marker.exists(), "the hook did not hold the lookup"
        revoked_at = log_entries(http, c, t["house"])[-1]["position"]
        if on.status == 200:
            written = http.post(f"{c}/antagonists", headers=t["house"], json={"name": "Grey Fox", "characteristics": []})
            assert written.status_code == 201, written.text
            assert on.ended(timeout=10) == "credential"
        assert not on.ids() or max(on.ids()) <= revoked_at, on.ids()
