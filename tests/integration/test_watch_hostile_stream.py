"""``stakes watch`` against a hostile server (issue 29, red team): the stream's ``id:`` lines are printed
(``[id] waiting for: …``) and sent back as ``Last-Event-ID``, so an id that is not an entry's number (rich
markup, terminal escapes) must be dropped, never printed nor echoed. A real HTTP server plays the hostile one.
Its log page, read once at start-up for where the log is, must answer a clear CLI error when its position is no
integer (issue 29, ADR 0028)."""

from __future__ import annotations

import json
import threading
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import SimpleNamespace

import httpx
import pytest
from typer.testing import CliRunner

from cli.main import app as cli_app
from cli.watch import _changes

HOSTILE_IDS = ["[/bold]", "[link=https://evil.example]click[/link]", "5\x1b[2J\x1b]8;;https://evil\x07", "\u00b2",
               "\u0663", "1" * 40, "7"]


class Hostile(BaseHTTPRequestHandler):
    seen: list[str | None] = []

    def do_GET(self) -> None:
        Hostile.seen.append(self.headers.get("Last-Event-ID"))
        body = "".join(f"id: {i}\nevent: log\ndata: {{}}\n\n" for i in HOSTILE_IDS).encode("utf-8", "surrogatepass")
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


def test_a_hostile_streams_ids_that_are_not_entry_numbers_are_never_printed_nor_sent_back():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Hostile)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        http = httpx.Client(base_url=f"http://127.0.0.1:{server.server_address[1]}")
        cid = uuid.uuid4()
        target = SimpleNamespace(remote=True, backend=SimpleNamespace(http=http), campaign_id=lambda: cid)
        changes = _changes(target, 0)
        got = [next(changes), next(changes)]  # the first stream's only number, then the reconnect's
        changes.close()
    finally:
        server.shutdown()
    assert got == ["7", "7"]
    assert Hostile.seen[:2] == [None, "7"]  # the reconnect resumes from the number, nothing hostile echoed


class HostileLog(BaseHTTPRequestHandler):
    """A server whose log page carries a position that is no integer, or pages that never move on."""

    pages: list[dict] = []
    paths: list[str] = []

    def do_GET(self) -> None:
        HostileLog.paths.append(self.path)
        if self.path == "/session":  # which seat the token is: the CLI asks first
            page = {"campaign_id": HostileLog.pages[0]["campaign_id"], "seat": "ilse"}
        else:
            page = HostileLog.pages[0] if "/log" in self.path else {"detail": "nothing here"}
        body = json.dumps(page).encode()
        self.send_response(404 if page.get("detail") else 200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


def entry(position: object) -> dict:
    return {"position": position, "at": "2026-01-01T00:00:00Z", "actor": "house", "stream": "s", "event": "E",
            "detail": {}, "hidden": []}


@pytest.mark.parametrize("page", [
    {"entries": [entry("[bold]12[/bold]")], "next_after": None},
    {"entries": [entry(1.5)], "next_after": None},
    {"entries": [entry({"n": 1})], "next_after": None},
    {"entries": [entry(3)], "next_after": "soon"},
    {"entries": [entry(3)], "next_after": -5},  # pages that would never end (going back)
], ids=["markup", "fraction", "object", "next-after-text", "next-after-standing-still"])
def test_stakes_watch_answers_a_clear_error_for_a_hostile_log_position_never_a_traceback(page, tmp_path):
    cid = uuid.uuid4()
    HostileLog.pages = [{"campaign_id": str(cid), **page}]
    server = ThreadingHTTPServer(("127.0.0.1", 0), HostileLog)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        env = {"STAKES_SERVER": f"http://127.0.0.1:{server.server_address[1]}", "STAKES_TOKEN": "stk_" + "x" * 43,
               "STAKES_CAMPAIGN": str(cid), "STAKES_CONFIG": str(tmp_path / "config.json")}
        result = CliRunner().invoke(cli_app, ["watch", uuid.uuid4().hex], env=env)
    finally:
        server.shutdown()
    assert result.exit_code == 8, (result.output, HostileLog.paths)  # the server is no Stakes server (Unreachable)
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "not a Stakes" in result.output
    assert "entries.0.position" in result.output or "next_after" in result.output  # it names what is wrong
    assert "\x1b" not in result.output
