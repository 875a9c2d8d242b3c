"""The web view (issue 14): server-rendered pages (Jinja2) updated by htmx from the live stream.

``install(app)`` mounts the vendored assets under ``/static`` (htmx, its SSE extension and Swagger UI:
nothing is fetched from a CDN), serves ``/docs`` from them, and adds the pages under ``/web``. A browser
signs in with its seat token; the sign-in sets an HttpOnly cookie that the API and the stream accept
in place of the bearer header (``api.deps``). Every page is generic over rule systems: it renders what
the service's reads answer and builds forms from the command classes (``api.web.forms``).
"""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles

STATIC = Path(__file__).resolve().parent.parent / "static"


def install(app: FastAPI) -> None:
    from api.web import pages, play
    from api.web.render import SignedOut

    @app.exception_handler(SignedOut)
    async def signed_out(request: Request, exc: SignedOut) -> Response:
        if request.headers.get("HX-Request"):  # a fragment: send the whole page to the sign-in
            return Response(status_code=401, headers={"HX-Redirect": "/web"})
        return RedirectResponse("/web", status_code=303)

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.include_router(pages.router)
    app.include_router(play.router)

    @app.get("/docs", include_in_schema=False)
    def docs() -> HTMLResponse:
        """Swagger UI from the vendored assets, so it works without internet."""
        return get_swagger_ui_html(openapi_url=app.openapi_url or "/openapi.json", title=f"{app.title} API",
                                   swagger_js_url="/static/swagger/swagger-ui-bundle.js",
                                   swagger_css_url="/static/swagger/swagger-ui.css",
                                   swagger_favicon_url="/static/favicon.svg")
