"""The HTTP protocol ``stakes serve`` runs: uvicorn's h11 protocol, whose own refusals carry our headers.

uvicorn answers a request h11 cannot take (request headers over ``h11_max_incomplete_event_size``, 16 KiB by
default, or a malformed request line) with a bare ``400 Bad Request`` of its own, before the application (and
so ``api.web.guard.Guard``) sees the request. Here that answer carries the same security headers as every
other answer, and ``Cache-Control: no-store`` (issue 29, ADR 0028).
"""

from __future__ import annotations

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from api.web.guard import HEADERS


class GuardedH11Protocol(H11Protocol):
    def send_400_response(self, msg: str) -> None:
        headers = [(b"content-type", b"text/plain; charset=utf-8"), (b"connection", b"close"),
                   (b"cache-control", b"no-store"),
                   *((name.encode(), value.encode()) for name, value in HEADERS.items())]
        self.transport.write(self.conn.send(h11.Response(status_code=400, headers=headers, reason=b"Bad Request")))
        self.transport.write(self.conn.send(h11.Data(data=msg.encode("ascii", "replace"))))
        self.transport.write(self.conn.send(h11.EndOfMessage()))
        self.transport.close()
