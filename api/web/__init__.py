"""The web view (issue 14): server-rendered pages (Jinja2) updated by htmx from the live stream.

``install(app)`` mounts the vendored assets under ``/static`` (htmx, its SSE extension and Swagger UI:
nothing is fetched from a CDN), serves ``/docs`` from them, and adds the pages under ``/web``. A browser
signs in with its seat token (or an invite); the sign-in opens a web session whose id the HttpOnly cookie
holds, and the API and the stream accept it in place of the bearer header (``api.deps``, issue 29).
``api.web.guard`` adds the security headers to every answer and refuses cross-origin writes. The pages are a
shared frame (sign-in and joining, whose turn it is, refusals, the House's rulings, the replay) around each rule
system's board (``api.web.systems``, ADR 0031), built only from the signed-in seat's reads.
"""

from __future__ import annotations

from html import escape
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles

STATIC = Path(__file__).resolve().parent.parent / "static"


def install(app: FastAPI) -> None:
    from api.web import guard, pages, play
    from api.web.render import SignedOut

    # the Guard (security headers, no-store, same-origin writes: issue 29) is added last, in api.app: outermost
    guard.redact_access_log()

    @app.exception_handler(SignedOut)
    async def signed_out(request: Request, exc: SignedOut) -> Response:
        if request.headers.get("HX-Request"):  # a fragment: send the whole page to the sign-in
            return Response(status_code=401, headers={"HX-Redirect": "/web"})
        return RedirectResponse("/web", status_code=303)

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> Response:
        """Browsers ask for it on any page without an icon link (a JSON answer opened in a tab): the one icon."""
        return RedirectResponse("/static/favicon.svg", status_code=308)

    app.include_router(pages.router)
    app.include_router(play.router)

    @app.get("/docs", include_in_schema=False)
    def docs() -> HTMLResponse:
        """Swagger UI from the vendored assets, so it works without internet; started by a script file of
        its own, since the Content-Security-Policy allows no inline script (issue 29)."""
        title, spec = escape(f"{app.title} API"), escape(app.openapi_url or "/openapi.json")
        return HTMLResponse(f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link type="text/css" rel="stylesheet" href="/static/swagger/swagger-ui.css">
<link rel="icon" href="/static/favicon.svg">
<title>{title}</title>
</head>
<body>
<div id="swagger-ui"></div>
<script src="/static/swagger/swagger-ui-bundle.js"></script>
<script src="/static/swagger/init.js" data-openapi="{spec}"></script>
</body>
</html>
""")
