"""Every command's response carries the campaign's new signed head (C-2), in the ``Stakes-Checkpoint`` header:
the C2SP checkpoint note, base64-encoded (a note spans several lines, a header one)."""

from __future__ import annotations

import base64
import logging
import re
from typing import Any
from uuid import UUID

from fastapi import FastAPI, Request
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from adapters import heads

HEADER = "Stakes-Checkpoint"
_CAMPAIGN = re.compile(r"^/campaigns/([0-9a-fA-F-]{32,36})(/|$)")
_COMMANDS = {"POST", "PUT", "PATCH", "DELETE"}
log = logging.getLogger("stakes.api")


class SignedHead:
    """Pure ASGI middleware (no per-request task group or body stream, unlike ``@app.middleware``): a
    command's successful answer gets its campaign's signed head as it starts."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in _COMMANDS:
            await self.app(scope, receive, send)
            return

        async def signed(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] < 400:
                campaign = _campaign(scope)
                head = (scope.get("state") or {}).get("checkpoint")
                if head is not None:  # signed by the endpoint in its own thread (``sign_after``)
                    MutableHeaders(scope=message).append(HEADER, base64.b64encode(head.note.encode()).decode())
                elif campaign is not None:
                    try:
                        current = await run_in_threadpool(heads.current, scope["app"].state.stakes, campaign)
                    except Exception as exc:
                        # The command is done: answer it (not a 500) without its head; the next answer or
                        # GET …/checkpoint carries it.
                        log.warning("no signed head for campaign %s: %s", campaign, exc)
                    else:
                        MutableHeaders(scope=message).append(HEADER, base64.b64encode(current.note.encode()).decode())
            await send(message)

        await self.app(scope, receive, signed)


def sign_after(request: Request, stakes: Any, campaign_id: UUID) -> None:
    """Called by a command's endpoint in its worker thread once the command is stored: the signed head goes
    with the answer without a second trip to the thread pool. A failure leaves it to the middleware."""
    try:
        request.state.checkpoint = heads.after_command(stakes, campaign_id)
    except Exception:
        return


def _campaign(scope: Scope) -> Any:
    """The campaign a command answered for: set by the route (a new campaign), else named in its path."""
    campaign = (scope.get("state") or {}).get("checkpoint_campaign")
    if campaign is not None:
        return campaign
    match = _CAMPAIGN.match(scope["path"])
    if match is None:
        return None
    try:
        return UUID(match.group(1))
    except ValueError:
        return None


def install(app: FastAPI) -> None:
    app.add_middleware(SignedHead)
