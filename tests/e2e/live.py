"""Live servers (``stakes serve`` under uvicorn) and a small Server-Sent Events reader for the stream tests."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def live_server(env: dict[str, str], log_path: Path) -> Iterator[str]:
    """``stakes serve`` in its own process on a free port; yields its URL."""
    with live_server_process(env, log_path) as (url, _):
        yield url


@contextmanager
def live_server_for(request: Any, settings: Any, env: dict[str, str], log_path: Path
                    ) -> Iterator[tuple[str, subprocess.Popen, Path]]:
    """A live server on ``settings`` with ``env``: yields its URL, its process and the path of its log. In a
    module marked ``shared_store`` (tests/conftest.py) it is the module's one for that store and environment,
    started by the first test that asks and ended with the module (its log then holds every test's lines);
    else this test's own."""
    from tests.conftest import shares_stores

    if not shares_stores(request):
        with live_server_process(env, log_path) as (url, proc):
            yield url, proc, log_path
        return
    shared = request.getfixturevalue("shared_stores")

    def start() -> tuple[str, subprocess.Popen, Path]:
        log = shared.tmp_path_factory.mktemp(f"server-{settings.store}") / "server.log"
        return (*shared.stack.enter_context(live_server_process(env, log)), log)

    yield shared.keep(("live server", settings.store, frozenset(env.items())), start)


@contextmanager
def live_server_process(env: dict[str, str], log_path: Path, *args: str) -> Iterator[tuple[str, subprocess.Popen]]:
    """``stakes serve`` in its own process on a free port; yields its URL and the process (its memory, say).
    ``args`` go to ``stakes serve`` (``--workers 2``, say)."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    full = {**os.environ, **env, "STAKES_PORT": str(port), "STAKES_HOST": "127.0.0.1"}
    with open(log_path, "w") as log:
        proc = subprocess.Popen([sys.executable, "-m", "cli", "serve", *args], env=full, stdout=log,
                                stderr=subprocess.STDOUT)
        try:
            wait_until_healthy(url, proc, log_path)
            yield url, proc
        finally:
            stop(proc)


def wait_until_healthy(url: str, proc: subprocess.Popen, log_path: Path, seconds: float = 60.0) -> None:
    """Until the server answers ``/health`` 200; fails at once when its process has ended."""
    deadline = time.monotonic() + seconds
    with httpx.Client(timeout=0.5) as http:
        while time.monotonic() < deadline:
            try:
                if http.get(f"{url}/health").status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if proc.poll() is not None:
                break
            time.sleep(0.05)
    raise AssertionError(f"stakes serve did not start: {log_path.read_text()}")


def stop(proc: subprocess.Popen) -> None:
    """Ends a server as ``stakes serve`` is ended (SIGTERM). uvicorn then waits up to STAKES_SHUTDOWN_GRACE
    seconds (3) for open requests, live streams included; after 2 s a SIGINT forces the exit, as a second
    Ctrl-C would, so a test does not sit out the grace."""
    if proc.poll() is not None:
        return
    proc.terminate()
    try:
        proc.wait(timeout=2)
        return
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@dataclass
class Frame:
    id: str | None
    event: str | None
    data: str

    def json(self) -> Any:
        return json.loads(self.data)


def read_frames(url: str, headers: dict[str, str], *, count: int | None = None, until: int | None = None,
                last_event_id: str | None = None, timeout: float = 20.0, heads: list[Frame] | None = None
                ) -> list[Frame]:
    """Open the stream and read ``count`` log frames, or frames until one with id ``until``; then hang up.
    The ``head`` frames between them go to ``heads`` when given."""
    if last_event_id is not None:
        headers = {**headers, "Last-Event-ID": last_event_id}
    frames: list[Frame] = []
    fields: dict[str, str] = {}
    done = False
    deadline = time.monotonic() + timeout
    with httpx.stream("GET", url, headers=headers, timeout=httpx.Timeout(timeout)) as r:
        assert r.status_code == 200, r.read()
        assert r.headers["content-type"].startswith("text/event-stream")
        for line in r.iter_lines():
            if time.monotonic() > deadline:
                raise AssertionError(f"the stream stalled after {[f.id for f in frames]}")
            if line:
                if not line.startswith(":"):
                    name, _, value = line.partition(":")
                    fields[name] = fields.get(name, "") + value.removeprefix(" ")
                continue
            if "data" in fields and fields.get("event") == "head":
                if heads is not None:
                    heads.append(Frame(None, "head", fields["data"]))
                    if done:  # the head that follows the last frame wanted
                        break
            elif "data" in fields:
                frames.append(Frame(fields.get("id"), fields.get("event"), fields["data"]))
                done = (count is not None and len(frames) >= count) or (until is not None and frames[-1].id == str(until))
                if done and heads is None:
                    break
            fields = {}
    return frames


def stored_events(settings: Any) -> int:
    """How many events the store under a live server holds, read from the store itself: ``/health`` shows no
    log position (issue 29, ADR 0028), and a test checking that a refusal stored nothing counts them here."""
    from adapters.service import Stakes

    stakes = Stakes(settings)
    try:
        return stakes.app.recorder.max_notification_id() or 0
    finally:
        stakes.close()
