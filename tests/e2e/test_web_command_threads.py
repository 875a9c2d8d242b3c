"""Web commands take turns in the command threads like the API's (ADR 0017, issue 29 item 6): a real uvicorn
server whose commands are held at a gate keeps answering ``/health`` while many web commands wait, never
runs more of them at once than its command threads, and runs none on the event loop (both stores)."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager

import httpx
import uvicorn

from adapters.service import Stakes
from api.app import create_app
from tests.e2e.conftest import bearer, player_headers
from tests.e2e.live import free_port


@contextmanager
def uvicorn_server(stakes: Stakes) -> Iterator[str]:
    """A real uvicorn server (real sockets, one event loop) in this process, so its service can be gated."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(stakes=stakes), host="127.0.0.1", port=port,
                                           log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.started, "uvicorn did not start"
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=15)


def on_event_loop() -> bool:
    return asyncio._get_running_loop() is not None


def web_session(http: httpx.Client, url: str, token: str) -> dict[str, str]:
    """Sign a browser in (its form, with the server's own Origin) and return its cookies."""
    r = http.post("/web/sign-in", data={"token": token}, headers={"Origin": url}, follow_redirects=False)
    assert r.status_code == 303, r.text
    return dict(r.cookies)


def test_many_web_commands_queue_in_the_command_threads_and_never_stall_health(stakes, monkeypatch) -> None:
    stakes.settings = stakes.settings.model_copy(update={"command_threads": 2})
    gate, lock = threading.Event(), threading.Lock()
    inside, most, on_loop = 0, 0, []
    run, act = stakes.run, stakes.act

    def gated(real):
        def call(*args, **kwargs):
            nonlocal inside, most
            on_loop.append(on_event_loop())
            with lock:
                inside += 1
                most = max(most, inside)
            try:
                assert gate.wait(60), "the test never opened the gate"
                return real(*args, **kwargs)
            finally:
                with lock:
                    inside -= 1
        return call

    with uvicorn_server(stakes) as url, httpx.Client(base_url=url, timeout=30) as http:
        created = http.post("/campaigns", json={"name": "Web queue", "settings": {"starting_pile": 30}}).json()
        cid, house = created["campaign"]["id"], bearer(created["house_token"])
        ilse = player_headers(http, http.post(f"/campaigns/{cid}/players", headers=house, json={
            "seat": "ilse", "character": "Ilse", "characteristic": "Whip Smart"}).json())
        http.post(f"/campaigns/{cid}/adventures", headers=house)
        http.post(f"/campaigns/{cid}/antagonists", headers=house,
                  json={"name": "Lady Sen", "characteristics": ["Poison"]})
        http.post(f"/campaigns/{cid}/antagonists/Lady%20Sen/funding", headers=house, json={"amount": 10})
        ch = http.post(f"/campaigns/{cid}/challenges", headers=house, json={
            "challenger": {"antagonist": "Lady Sen"}, "opponent": {"players": ["ilse"]}, "ante": 1}).json()["id"]
        ilse_cookies = web_session(http, url, ilse["Authorization"].split(" ", 1)[1])
        house_cookies = web_session(http, url, created["house_token"])
        monkeypatch.setattr(stakes, "run", gated(run))
        monkeypatch.setattr(stakes, "act", gated(act))

        def add(k: int) -> int:
            return http.post("/web/commands/add-player", cookies=house_cookies, headers={"Origin": url},
                             data={"seat": f"p{k}", "character": f"Player {k}", "characteristic": "Grit"}).status_code

        with ThreadPoolExecutor(12) as pool:
            futures = [pool.submit(add, k) for k in range(12)]
            deadline = time.monotonic() + 30
            while inside < 2 and time.monotonic() < deadline:
                time.sleep(0.01)
            assert inside == 2  # two commands hold the command threads, ten wait their turn
            for _ in range(5):  # the event loop is free: /health and a read answer while the commands wait
                assert http.get("/health", timeout=10).status_code == 200
                assert http.get(f"/campaigns/{cid}", headers=ilse, timeout=10).status_code == 200
            assert not any(f.done() for f in futures)
            gate.set()
            statuses = [f.result() for f in futures]
        assert statuses == [200] * 12
        assert most == 2 and not any(on_loop) and len(on_loop) == 12
        # a move from the table's buttons goes the same way
        r = http.post(f"/web/units/{ch}/act", cookies=ilse_cookies, headers={"Origin": url},
                      data={"action": "circumstance", "text": "A dark alley"})  # listed; a seed waits for the House (C-9)
        assert r.status_code == 200, r.text
        assert len(on_loop) == 13 and not any(on_loop)
        seats = {p["seat"] for p in http.get(f"/campaigns/{cid}", headers=house).json()["players"]}
        assert {f"p{k}" for k in range(12)} <= seats
