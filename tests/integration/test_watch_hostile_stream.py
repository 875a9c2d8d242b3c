"""``stakes watch`` against a hostile server (issue 29, red team): the stream's ``id:`` lines are printed
(``[id] waiting for: …``) and sent back as ``Last-Event-ID``, so an id that is not an entry's number (rich
markup, terminal escapes) must be dropped, never printed nor echoed. A real HTTP server plays the hostile one."""

from __future__ import annotations

import threading
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import SimpleNamespace

import httpx

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
