"""The HTTP protocol ``stakes serve`` runs: uvicorn's httptools protocol, bounded as h11 bounds a request's head,
whose own refusals carry our headers.

uvicorn answers a request its parser cannot take (a malformed request line or header) with a bare ``400 Bad
Request`` of its own, before the application (and so ``api.web.guard.Guard``) sees the request. Here that answer
carries the same security headers as every other answer, and ``Cache-Control: no-store`` (issue 29, ADR 0028).

httptools parses in C (issue 32, ADR 0042: h11's parsing in Python was about a quarter of the interpreter's time
under the bench's load; with httptools a command cost 9 % less CPU and a server answered 8 % more). Unlike h11
it sets no bound on a request's head, so this protocol sets h11's: a request whose line and headers pass
``HEAD_LIMIT`` bytes unfinished is answered 400 and its connection closed (ADR 0020: every input bounded).
"""

from __future__ import annotations

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from api.web.guard import HEADERS

#: The most bytes a request's line and headers may take: h11's own bound (``h11_max_incomplete_event_size``).
HEAD_LIMIT = 16 * 1024


class GuardedHttpToolsProtocol(HttpToolsProtocol):
    _in_head = True
    _head = 0

    def on_headers_complete(self) -> None:
        self._in_head = False
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._in_head, self._head = True, 0  # the next request on this connection starts its own count

    def data_received(self, data: bytes) -> None:
        if self._in_head:
            self._head += len(data)
        super().data_received(data)
        if self._in_head and self._head > HEAD_LIMIT and not self.transport.is_closing():
            self.send_400_response("Request line and headers too large.")

    def send_400_response(self, msg: str) -> None:
        head = [b"HTTP/1.1 400 Bad Request\r\n", b"content-type: text/plain; charset=utf-8\r\n",
                b"content-length: " + str(len(msg)).encode("ascii") + b"\r\n", b"connection: close\r\n",
                b"cache-control: no-store\r\n",
                *(name.encode() + b": " + value.encode() + b"\r\n" for name, value in HEADERS.items())]
        self.transport.write(b"".join(head) + b"\r\n" + msg.encode("ascii", "replace"))
        self.transport.close()
