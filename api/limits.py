"""Every request body is bounded (issue 29): pure ASGI middleware in front of every route.

A body larger than the route's limit is answered 413 (an RFC 9457 problem) before it is read:

* a ``Content-Length`` over the limit is refused at once, before a byte of the body is received;
* a body without one (chunked) is counted while it streams in; at the first chunk over the limit the 413 is
  sent, the application is told the client went away (``http.disconnect``), and the connection closes.

The server never holds more than the limit of one request's body, whatever the client sends.

A form post (``application/x-www-form-urlencoded`` or ``multipart/form-data``: the web view's) is also checked
to be UTF-8 once its whole body is in (issue 29, ADR 0028): its bytes and every %-escaped value must decode, or
it is answered 422 naming the problem before any route acts on it, so nothing is stored. (The form parser would
otherwise turn bad bytes into U+FFFD or Latin-1 letters, where a JSON body with them is refused 422.) The limit is
``Settings.max_body_bytes`` (``STAKES_MAX_BODY_BYTES``, 1 MiB by default); ``POST /imports`` takes up to
``Settings.import_max_bytes`` (its own, larger limit) and streams its body itself.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qsl

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from adapters.settings import Settings

MEDIA_TYPE = "application/problem+json"
_DEFAULT = Settings.model_fields["max_body_bytes"].default
_IMPORTS = ("POST", "/imports")


def limit_for(scope: Scope) -> tuple[int, str]:
    """The largest body this request may carry, and the setting that says so."""
    stakes = getattr(getattr(scope.get("app"), "state", None), "stakes", None)
    settings = getattr(stakes, "settings", None)
    if (scope.get("method"), scope.get("path")) == _IMPORTS:
        return (settings.import_max_bytes if settings else Settings.model_fields["import_max_bytes"].default,
                "STAKES_IMPORT_MAX_BYTES")
    return (settings.max_body_bytes if settings else _DEFAULT), "STAKES_MAX_BODY_BYTES"


def _problem(scope: Scope, limit: int, setting: str) -> tuple[list[tuple[bytes, bytes]], bytes]:
    if setting == "STAKES_IMPORT_MAX_BYTES":  # as the import route words it (C-2: import is a command)
        detail, ruling = f"C-2: an import is at most {limit:,} bytes ({setting}); nothing was imported", "C-2"
    else:
        detail, ruling = f"a request body here is at most {limit:,} bytes ({setting}); nothing was read or stored", None
    body = json.dumps({
        "type": "/problems/too-large", "title": "The request is larger than this server takes", "status": 413,
        "detail": detail, **({"ruling": ruling} if ruling else {}), "instance": scope.get("path", ""),
    }).encode()
    headers = [(b"content-type", MEDIA_TYPE.encode()), (b"content-length", str(len(body)).encode()),
               (b"connection", b"close")]  # the rest of the body is never read: the connection cannot be reused
    return headers, body


class BodyLimit:
    """Answers 413 for a body over the route's limit, before it is read (see the module's text)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit, setting = limit_for(scope)
        declared = _content_length(scope)
        if declared is not None and declared > limit:
            await self._refuse(scope, send, limit, setting)
            return

        seen = 0
        started = refused = False
        form = _form_kind(scope)
        held: list[bytes] = []

        async def counted() -> Message:
            nonlocal seen, refused
            if refused:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:  # the chunk that crosses the limit is dropped, with the rest of the body
                    refused = True
                    if not started:
                        await self._refuse(scope, send, limit, setting)
                    return {"type": "http.disconnect"}
                if form is not None:  # a form's text is checked whole, before the route sees its last chunk
                    held.append(message.get("body", b""))
                    why = None if message.get("more_body", False) else not_utf8(form, b"".join(held))
                    if why is not None:
                        refused = True
                        if not started:
                            await _send_problem(scope, send, 422, "invalid-input", "The request is not well formed",
                                                f"body: {why}; nothing was read or stored")
                        return {"type": "http.disconnect"}
            return message

        async def sending(message: Message) -> None:
            nonlocal started
            if refused:
                return  # the 413 was answered; whatever the route makes of a vanished client goes nowhere
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counted, sending)
        except Exception:
            if not refused:
                raise
            # the route saw its client disconnect (the body was cut at the limit): already answered 413

    @staticmethod
    async def _refuse(scope: Scope, send: Send, limit: int, setting: str) -> None:
        headers, body = _problem(scope, limit, setting)
        await send({"type": "http.response.start", "status": 413, "headers": headers})
        await send({"type": "http.response.body", "body": body, "more_body": False})


FORMS = ("application/x-www-form-urlencoded", "multipart/form-data")


def _form_kind(scope: Scope) -> str | None:
    """The form media type of the request's body, or None when it is no form (JSON, an import …)."""
    if scope.get("method") in ("GET", "HEAD", "OPTIONS"):
        return None
    for name, value in scope.get("headers", ()):
        if name == b"content-type":
            kind = value.decode("latin-1").split(";", 1)[0].strip().lower()
            return kind if kind in FORMS else None
    return None


def not_utf8(kind: str, body: bytes) -> str | None:
    """Why a form's body is not UTF-8 text (its raw bytes, or a %-escaped value of a urlencoded form), or None.
    The web view's pages declare UTF-8, so a browser sends nothing else; no route takes a file."""
    try:
        text = body.decode("utf-8")
        if kind == FORMS[0]:
            parse_qsl(text, keep_blank_values=True, encoding="utf-8", errors="strict")
    except UnicodeDecodeError as exc:
        return (f"a form's text is UTF-8 (the pages declare it), and this form's is not ({exc.reason} at byte "
                f"{exc.start}{' of a %-escaped value' if kind == FORMS[0] and body.isascii() else ''})")
    return None


async def _send_problem(scope: Scope, send: Send, status: int, slug: str, title: str, detail: str) -> None:
    body = json.dumps({"type": f"/problems/{slug}", "title": title, "status": status, "detail": detail,
                       "instance": scope.get("path", "")}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", MEDIA_TYPE.encode()), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body, "more_body": False})


def _content_length(scope: Scope) -> int | None:
    """The declared body length; a malformed one counts as unknown (the body is then counted as it comes)."""
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            text = value.decode("latin-1").strip()
            return int(text) if text.isascii() and text.isdigit() else None
    return None


def install(app: Any) -> None:
    app.add_middleware(BodyLimit)
