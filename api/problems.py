"""RFC 9457 problem details for every refusal; bad input never gets a 500."""

from __future__ import annotations

from typing import Any

from eventsourcing.persistence import PersistenceError
from fastapi import FastAPI, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from starlette.exceptions import HTTPException as StarletteHTTPException

from adapters.imports import TooLarge
from adapters.service import NeedsRepair, StoreUnavailable
from domain.errors import ConcurrencyConflict, KeyReused, NotFound, NotPermitted, NotSupportedYet, RuleViolation, StakesError

MEDIA_TYPE = "application/problem+json"

#: (status, slug, title) per domain error class, most specific first.
STATUS = (
    (TooLarge, 413, "too-large", "The request is larger than this server takes"),
    (NotSupportedYet, 422, "not-supported-yet", "This rule system is not supported yet"),
    (RuleViolation, 422, "rule-violation", "The command breaks a ruling"),
    (NotPermitted, 403, "not-permitted", "This seat may not do that"),
    (NotFound, 404, "not-found", "Not found"),
    (NeedsRepair, 409, "needs-repair", "This campaign needs repair"),
    (KeyReused, 409, "key-reused", "This idempotency key was used for another command; send a new key"),
    (ConcurrencyConflict, 409, "conflict", "A concurrent command won; try again"),
)


class Problem(BaseModel):
    type: str
    title: str
    status: int
    detail: str
    ruling: str | None = None
    instance: str | None = None


def problem(request: Request, status: int, slug: str, title: str, detail: str, ruling: str | None = None) -> JSONResponse:
    body = Problem(type=f"/problems/{slug}", title=title, status=status, detail=detail, ruling=ruling or None,
                   instance=request.url.path)
    return JSONResponse(body.model_dump(exclude_none=True), status_code=status, media_type=MEDIA_TYPE)


def install(app: FastAPI) -> None:
    @app.exception_handler(StakesError)
    async def on_domain_error(request: Request, exc: StakesError) -> JSONResponse:
        for cls, status, slug, title in STATUS:
            if isinstance(exc, cls):
                return problem(request, status, slug, title, str(exc), exc.ruling)
        return problem(request, 400, "bad-request", "Bad request", str(exc), exc.ruling)

    @app.exception_handler(PersistenceError)
    @app.exception_handler(StoreUnavailable)
    async def on_store_down(request: Request, exc: Exception) -> JSONResponse:
        return problem(request, 503, "store-unavailable", "The store is unavailable", str(exc).splitlines()[0])

    @app.exception_handler(RequestValidationError)
    async def on_invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        unknown = await _unknown_token(request)
        if unknown is not None:  # 401 before 422: an unknown token learns nothing of the route (issue 29)
            return await on_http(request, unknown)
        parts = []
        for error in exc.errors():
            where = ".".join(str(p) for p in error.get("loc", ()) if p != "body")
            parts.append(f"{where}: {error.get('msg')}" if where else str(error.get("msg")))
        return problem(request, 422, "invalid-input", "The request is not well formed", "; ".join(parts))

    @app.exception_handler(StarletteHTTPException)
    async def on_http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        if exc.status_code == 400 and (isinstance(exc.__cause__, UnicodeError) or exc.detail == UNPARSED):
            unknown = await _unknown_token(request)
            if unknown is not None:
                return await on_http(request, unknown)
            # FastAPI answers a JSON body it cannot decode 400; it is malformed JSON like any other (issue 29)
            if isinstance(exc.__cause__, UnicodeError):
                why = (f"not valid JSON: JSON text is UTF-8 (RFC 8259 section 8.1), and this body is not "
                       f"({getattr(exc.__cause__, 'reason', exc.__cause__)})")
            else:  # issue 29, red team: JSON arrays nested 100,000 deep, an integer of 5,000 digits
                why = (f"it cannot be read ({type(exc.__cause__).__name__}): nested too deeply, a number too long, "
                       "or not well formed")
            return problem(request, 422, "invalid-input", "The request is not well formed", f"body: {why}")
        slug = {401: "unauthenticated", 403: "not-permitted", 404: "not-found", 405: "method-not-allowed",
                429: "too-many-requests"}.get(
            exc.status_code, "http-error")
        response = problem(request, exc.status_code, slug, str(exc.detail), str(exc.detail))
        response.headers.update(exc.headers or {})  # 405 keeps its Allow
        if exc.status_code == 401:
            response.headers["WWW-Authenticate"] = "Bearer"
        return response


#: What FastAPI says of a body it could not parse at all (before its own validation): a 400 it documents nowhere.
UNPARSED = "There was an error parsing the body"


def _takes_token(route: Any) -> bool:
    """Whether a route reads the bearer token (or the seat cookie standing for it); remembered on the route."""
    found = getattr(route, "_stakes_takes_token", None)
    if found is None:
        from api.deps import bearer

        def walk(dependant: Any) -> bool:
            return dependant.call is bearer or any(walk(d) for d in dependant.dependencies)

        dependant = getattr(route, "dependant", None)
        found = dependant is not None and walk(dependant)
        if route is not None:
            route._stakes_takes_token = found
    return found


async def _unknown_token(request: Request) -> StarletteHTTPException | None:
    """The 401 a route that takes a token owes a request whose token is unknown, found only once its inputs were
    refused: a seated route looks its token up in the endpoint's own thread (``api.deps.one_hop``), after
    FastAPI checked the inputs, so a bad token with a bad body would otherwise be answered 422 (issue 29)."""
    from api.deps import _caller, _token, bearer

    if not _takes_token(request.scope.get("route")):
        return None
    token = _token(request, await bearer(request))
    stakes = getattr(request.app.state, "stakes", None)
    if stakes is None or (token and token == stakes.settings.operator_token):
        return None
    try:
        await run_in_threadpool(_caller, stakes, token)
    except StarletteHTTPException as exc:
        return exc
    except Exception:
        return None
    return None


PROBLEM_RESPONSES = {
    code: {"model": Problem, "content": {MEDIA_TYPE: {}}, "description": text}
    for code, text in (
        (401, "No or unknown bearer token, or a web session that ended (signed out, expired, seat reissued)"),
        (403, ("The token's seat may not do this (C-1), or belongs to another campaign; or a write riding on the "
               "web session cookie came from another origin")),
        (404, "No such campaign or seat, nor anything else the path names (a unit, a record of the system's own)"),
        (409, "Lost an optimistic-concurrency race; retry (or the campaign needs repair)"),
        (413, ("The body is larger than this server takes (STAKES_MAX_BODY_BYTES; an import: "
               "STAKES_IMPORT_MAX_BYTES), answered before it is read")),
        (422, ("Breaks a ruling (the ruling is named), or is not well formed: malformed JSON, a body that is not "
               "UTF-8, or `null` where an object is meant")),
        (503, "The store is unavailable; retry later"),
    )
}
