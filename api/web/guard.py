"""Web hardening (issue 29): every answer's security headers, the origin check of cookie-borne writes, and the
access log's redaction of credentials in paths, and its bound on what a request line may put in the log.

``Guard`` is one pure ASGI middleware (the stream passes through it untouched but for its headers):

- **Headers on every answer.** A Content-Security-Policy that allows scripts, styles and connections from the
  server itself only (no inline script or style anywhere: the pages, htmx and ``/docs`` load theirs from
  ``/static``), ``frame-ancestors 'none'`` with ``X-Frame-Options: DENY``, ``X-Content-Type-Options:
  nosniff`` and ``Referrer-Policy: same-origin`` (not ``no-referrer``: under it
  browsers send ``Origin: null`` on their own posts). Everything but the vendored assets under ``/static`` is
  ``Cache-Control: no-store``: a seat's pages, fragments, API answers and stream show what only that seat
  may see (C-5), so no browser or proxy keeps a copy.
- **Same-origin writes.** A write (any method but GET, HEAD, OPTIONS) under ``/web``, or anywhere when it
  rides on the session cookie instead of a bearer header, is refused 403 before its body is read (so nothing
  is stored) when ``Sec-Fetch-Site`` says another site or origin, when ``Origin`` is not the server's own
  (``null`` included), or when there is no ``Origin`` and ``Referer`` names another origin. SameSite=Strict
  alone does not stop another port of the same host, which is same-site. A client that sends neither header
  (not a browser) carries no one else's cookie and passes. The server's own origin is the request's
  ``Host``: a reverse proxy must pass ``Host`` through.
"""

from __future__ import annotations

import json
import logging
import re
from typing import Any
from urllib.parse import urlsplit

from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.deps import SEAT_COOKIE

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
       "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
HEADERS = {
    "content-security-policy": CSP,
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
    "cross-origin-opener-policy": "same-origin",
}
SAFE = frozenset({"GET", "HEAD", "OPTIONS"})
#: The only answers a browser or proxy may keep: the vendored assets, the same for every seat.
CACHEABLE = "/static/"
DEFAULT_PORTS = {"http": "80", "https": "443"}


def _netloc(url: str) -> str | None:
    """``host[:port]`` of an origin or URL, lower case, without its scheme's default port; None if none."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    if not parts.scheme or not parts.netloc:
        return None
    netloc = parts.netloc.lower().rpartition("@")[2]
    default = DEFAULT_PORTS.get(parts.scheme.lower())
    return netloc.removesuffix(f":{default}") if default else netloc


def _own(headers: Headers) -> str:
    host = headers.get("host", "").lower()
    for port in DEFAULT_PORTS.values():
        host = host.removesuffix(f":{port}")
    return host


def cross_origin(headers: Headers) -> str | None:
    """Why a write is not from the server's own pages, or None when it is (or when no browser header says)."""
    site = headers.get("sec-fetch-site")
    if site is not None and site not in ("same-origin", "none"):
        return f"Sec-Fetch-Site is {site!r}"
    own = _own(headers)
    origin = headers.get("origin")
    if origin is not None:
        return None if _netloc(origin) == own and own else f"Origin {origin[:100]!r} is not this server"
    referer = headers.get("referer")
    if referer is not None and _netloc(referer) != own:
        return "the Referer is another origin"
    return None


def _guarded(scope: Scope, headers: Headers) -> bool:
    """A write the origin check applies to: a form post of the web view, or any write riding on the cookie."""
    if scope["method"] in SAFE:
        return False
    if scope["path"] == "/web" or scope["path"].startswith("/web/"):
        return True
    return SEAT_COOKIE in headers.get("cookie", "") and not _bearer(headers)


def _bearer(headers: Headers) -> bool:
    """Whether the request carries a bearer token, the credential ``api.deps`` reads before the cookie. Any
    other ``Authorization`` (``Basic …``, a bare ``Bearer``) is not one: the request then rides on the cookie,
    and is checked like any cookie-borne write (issue 29, red team: such a header slipped past the check)."""
    scheme, _, credentials = headers.get("authorization", "").strip().partition(" ")
    return scheme.lower() == "bearer" and bool(credentials.strip())


class Guard:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        path: str = scope["path"]
        store_none = not path.startswith(CACHEABLE)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                out = MutableHeaders(scope=message)
                for name, value in HEADERS.items():
                    out[name] = value
                if store_none:
                    out["cache-control"] = "no-store"
            await send(message)

        if _guarded(scope, headers):
            why = cross_origin(headers)
            if why is not None:
                await refuse(scope, send_with_headers, why)
                return
        await self.app(scope, receive, send_with_headers)


async def refuse(scope: Scope, send: Any, why: str) -> None:
    """403, an RFC 9457 problem, before the request's body is read: nothing is stored."""
    body = json.dumps({"type": "/problems/cross-origin", "title": "A write from another origin is refused",
                       "status": 403, "detail": f"{why}: this server takes form posts and cookie-borne writes "
                       "only from its own origin (issue 29)", "instance": scope["path"]}).encode()
    await send({"type": "http.response.start", "status": 403,
                "headers": [(b"content-type", b"application/problem+json"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


#: A credential or invite code in a request line: kept to its kind, the secret blanked.
SECRET = re.compile(r"\b(inv|stk|ses)_[A-Za-z0-9_\-%]+")


#: The longest request target (path and query string) the access log keeps (issue 29, ADR 0028): a longer one is
#: cut there, with a marker saying how much was left out, so no request can make the log hold what it sends.
LOGGED_TARGET = 512


def bounded(text: str, limit: int = LOGGED_TARGET) -> str:
    """``text`` with its secrets blanked, then cut to ``limit`` characters with a marker naming what was cut."""
    text = SECRET.sub(r"\1_[redacted]", text)
    if len(text) <= limit:
        return text
    return f"{text[:limit]}…[{len(text) - limit} more characters not logged]"


class Redact(logging.Filter):
    """Blanks invite codes, seat tokens and session ids in the access log's request lines (uvicorn's
    ``uvicorn.access`` logger: its arguments are client, method, path, HTTP version, status), and bounds each
    line's text (``LOGGED_TARGET``; issue 29). The web view never puts a secret in a URL (an invite link carries
    its code in the fragment); this covers old links and hand-typed URLs."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(bounded(a) if isinstance(a, str) else a for a in record.args)
        elif isinstance(record.msg, str):
            record.msg = bounded(record.msg, LOGGED_TARGET * 2)
        return True


def redact_access_log() -> None:
    access = logging.getLogger("uvicorn.access")
    if not any(isinstance(f, Redact) for f in access.filters):
        access.addFilter(Redact())
