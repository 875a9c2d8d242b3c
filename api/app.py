"""The FastAPI app factory: the shared routers, and the routes generated from every system's commands."""

from __future__ import annotations

import gc
import logging
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.openapi.utils import get_openapi
from fastapi.responses import JSONResponse

from adapters.service import Stakes
from adapters.settings import Settings
from api import commands, heads, limits, problems, stream, web
from api.deps import writers
from api.problems import PROBLEM_RESPONSES
from api.routers import audit, campaigns, challenges, characters, chart, log
from api.web.guard import Guard

logger = logging.getLogger("stakes.api")

DESCRIPTION = (
    "The campaign ledger for tabletop role-playing. Every change is an immutable event; "
    "reads come from projections. Authenticate with the seat token you were given "
    "(`Authorization: Bearer …`). Refusals are RFC 9457 problem details naming the ruling broken."
)


def _catch_up_in_background(stakes: Stakes) -> threading.Thread:
    """Project what the read models lack (a new release, a restored store) while the server already
    answers. A request that reads meanwhile catches up first, so it never reads stale rows (issue 15)."""

    def run() -> None:
        try:
            stakes.catch_up()
        except Exception as exc:
            logger.warning("the read models did not catch up at start (%s); the next request will", exc)

    worker = threading.Thread(target=run, name="stakes-catch-up", daemon=True)
    worker.start()
    return worker


def _freeze_heap() -> None:
    """What a server holds from its start to its end (modules, routes, schemas, the open store) leaves the
    garbage collector's sight: a full collection walked all of it, about 150,000 objects, and held every request
    for 70 to 130 ms every few seconds under load: the whole of the commands' p99 (issue 32, ADR 0042)."""
    gc.collect()
    gc.freeze()


def create_app(settings: Settings | None = None, stakes: Stakes | None = None, serving: bool = False) -> FastAPI:
    """Build the API. Pass ``stakes`` to share a service (tests); otherwise one opens at startup. ``serving``:
    the app is the process's own (``stakes serve``), for its whole life."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        owned = stakes is None
        app.state.stakes = stakes or Stakes(settings)
        app.state.writers = writers(app.state.stakes.settings)  # commands at once in this process (ADR 0017)
        _catch_up_in_background(app.state.stakes)  # answer at once: /health says when the views are ready
        app.state.stakes.fanout.start()  # PostgreSQL: LISTEN for the other processes' writes
        if serving:
            _freeze_heap()
        try:
            yield
        finally:
            if owned:
                app.state.stakes.close()

    app = FastAPI(title="Stakes", version="0.3.0", description=DESCRIPTION, lifespan=lifespan,
                  responses=PROBLEM_RESPONSES, docs_url=None)  # type: ignore[arg-type]
    web.install(app)  # the web view, its vendored assets, and /docs served from them (issue 14)
    problems.install(app)
    heads.install(app)
    stream.install(app)  # the server's own send, kept for live streams (issue 32)
    limits.install(app)  # every body bounded, 413 before it is read (issue 29)
    # outermost (issue 29, red team): the security headers go on every answer, the body limit's 413 included
    app.add_middleware(Guard)
    app.include_router(campaigns.router)
    app.include_router(characters.router())  # their schemas are the registered systems': made with the app
    app.include_router(challenges.router())
    for module in (log, audit, stream, chart):
        app.include_router(module.router)
    app.include_router(commands.command_router())
    app.include_router(commands.read_router())

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = commands.publish(get_openapi(
                title=app.title, version=app.version, description=app.description, routes=app.routes))
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]

    @app.get("/health", tags=["service"], responses={503: {"description": "The store does not answer"}})
    def health(request: Request) -> JSONResponse:
        """Whether the service and its store answer (503 while the store is down; no restart is needed): `status`,
        `store` (up or down), `kind` (sqlite or postgres) and `read_models` (`catching up` after a start until
        they reach the log, then `ready`). It shows no log position: that would let anyone watch every
        campaign's activity (issue 29, ADR 0028)."""
        report = request.app.state.stakes.health()
        return JSONResponse(report, status_code=200 if report["store"] == "up" else 503)

    return app


def from_environment() -> FastAPI:
    """The app of one ``stakes serve`` worker: settings from the ``STAKES_*`` environment (uvicorn factory)."""
    return create_app(Settings(), serving=True)
