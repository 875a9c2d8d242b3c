"""Live servers (``stakes serve`` under uvicorn) and a small Server-Sent Events reader for the stream tests."""

from __future__ import annotations

import json
import os
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
def live_server_process(env: dict[str, str], log_path: Path) -> Iterator[tuple[str, subprocess.Popen]]:
    """``stakes serve`` in its own process on a free port; yields its URL and the process (its memory, say)."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    full = {**os.environ, **env, "STAKES_PORT": str(port), "STAKES_HOST": "127.0.0.1"}
    with open(log_path, "w") as log:
        proc = subprocess.Popen([sys.executable, "-m", "cli", "serve"], env=full, stdout=log, stderr=subprocess.STDOUT)
        try:
            for _ in range(200):
                try:
                    if httpx.get(f"{url}/health", timeout=0.5).status_code == 200:
                        break
                except httpx.HTTPError:
                    time.sleep(0.1)
            else:
                raise AssertionError(f"stakes serve did not start: {log_path.read_text()}")
            yield url, proc
        finally:
            proc.terminate()
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
