"""The FastAPI app factory."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI

from adapters.service import Stakes
from adapters.settings import Settings
from api import problems
from api.problems import PROBLEM_RESPONSES
from api.routers import audit, campaigns, challenges, characters, house, loans, log, pool

DESCRIPTION = (
    "The campaign ledger for tabletop role-playing. Every change is an immutable event; "
    "reads come from projections. Authenticate with the seat token you were given "
    "(`Authorization: Bearer …`). Refusals are RFC 9457 problem details naming the ruling broken."
)


def create_app(settings: Settings | None = None, stakes: Stakes | None = None) -> FastAPI:
    """Build the API. Pass ``stakes`` to share a service (tests); otherwise one opens at startup."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        owned = stakes is None
        app.state.stakes = stakes or Stakes(settings)
        app.state.stakes.catch_up()
        try:
            yield
        finally:
            if owned:
                app.state.stakes.close()

    app = FastAPI(title="Stakes", version="0.1.0", description=DESCRIPTION, lifespan=lifespan,
                  responses=PROBLEM_RESPONSES)  # type: ignore[arg-type]
    problems.install(app)
    for module in (campaigns, characters, house, loans, pool, challenges, log, audit):
        app.include_router(module.router)

    @app.get("/health", tags=["service"])
    def health() -> dict[str, str]:
        return {"status": "ok"}

    return app
