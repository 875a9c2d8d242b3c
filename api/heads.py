"""Every command's response carries the campaign's new signed head (C-2), in the ``Stakes-Checkpoint`` header:
the C2SP checkpoint note, base64-encoded (a note spans several lines, a header one)."""

from __future__ import annotations

import base64
import re
from collections.abc import Awaitable, Callable
from uuid import UUID

from fastapi import FastAPI, Request, Response
from starlette.concurrency import run_in_threadpool

from adapters import heads

HEADER = "Stakes-Checkpoint"
_CAMPAIGN = re.compile(r"^/campaigns/([0-9a-fA-F-]{32,36})(/|$)")
_COMMANDS = {"POST", "PUT", "PATCH", "DELETE"}


def install(app: FastAPI) -> None:
    @app.middleware("http")
    async def signed_head(request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        response = await call_next(request)
        if request.method not in _COMMANDS or response.status_code >= 400:
            return response
        campaign = getattr(request.state, "checkpoint_campaign", None)
        match = _CAMPAIGN.match(request.url.path)
        if campaign is None and match:
            try:
                campaign = UUID(match.group(1))
            except ValueError:
                return response
        if campaign is not None:
            head = await run_in_threadpool(heads.current, request.app.state.stakes, campaign)
            response.headers[HEADER] = base64.b64encode(head.note.encode()).decode()
        return response
