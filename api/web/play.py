"""Playing from a page: a legal action's form, or a campaign command's (announcing a unit, starting an
adventure …), posted as a form and run exactly as over JSON: the same command class validates it, and a
refusal names the ruling (shown on the page with a 4xx status)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from anyio import to_thread
from fastapi import APIRouter, Request
from fastapi.responses import Response

from api.web import forms
from api.web.pages import Seated, board_of, campaign_context, table_context
from api.web.render import plain, templates
from domain.errors import NotFound, NotPermitted, StakesError
from domain.kernel.registry import system_of_unit

router = APIRouter(prefix="/web", include_in_schema=False)


def status_of(exc: StakesError) -> int:
    return 404 if isinstance(exc, NotFound) else 403 if isinstance(exc, NotPermitted) else 422


async def in_command_thread(request: Request, work: Any) -> Any:
    """Run a web command's service calls in the server's command threads (ADR 0017, issue 29), exactly as
    the JSON API's commands run (``api.deps.one_hop``): never on the event loop, never more at once than
    ``Settings.writers``."""
    return await to_thread.run_sync(work, limiter=getattr(request.app.state, "writers", None))


async def in_thread(work: Any) -> Any:
    """A read that answers the page (the table, the panel), off the event loop like every read."""
    return await to_thread.run_sync(work)


async def posted(request: Request) -> dict[str, list[str]]:
    form = await request.form()
    return {key: [v for v in form.getlist(key) if isinstance(v, str)] for key in form}


@router.post("/units/{unit_id}/act")
async def act(request: Request, unit_id: UUID, v: Seated) -> Response:
    """One move from the table's buttons; answers the table again (or the refusal above it)."""
    form = await posted(request)
    name = (form.get("action") or [""])[0]
    error, status = None, 200

    def move() -> None:
        unit = v.stakes.load_unit(v.campaign_id, unit_id)
        cls = system_of_unit(unit).move(unit, name)
        v.stakes.act(v.campaign_id, v.seat, unit_id, {"action": name, **forms.payload(cls, form)})

    try:
        await in_command_thread(request, move)
    except StakesError as exc:
        error, status = str(exc), status_of(exc)
    ctx = await in_thread(lambda: table_context(v, unit_id))
    ctx["error"] = error
    return templates.TemplateResponse(request, "_table.html", ctx, status_code=status)


@router.post("/commands/{verb}")
async def command(request: Request, verb: str, v: Seated) -> Response:
    """A campaign command from its form. A new unit opens its table (unless the board answers it on the page,
    ``WebBoard.opens_table``); anything else answers on the page."""
    form = await posted(request)

    def run() -> Any:
        cls = v.stakes.command_class(v.campaign_id, verb)
        return v.stakes.run(v.campaign_id, v.seat, verb, forms.payload(cls, form))

    try:
        answer: Any = await in_command_thread(request, run)
    except StakesError as exc:
        ctx = await in_thread(lambda: campaign_context(v))
        ctx["error"] = str(exc)
        return templates.TemplateResponse(request, "_campaign_panel.html", ctx, status_code=status_of(exc))
    answer = plain(answer)
    unit = isinstance(answer, dict) and "legal_actions" in answer and "id" in answer
    if unit and (await in_thread(lambda: board_of(v))).opens_table(verb):
        return Response(status_code=204, headers={"HX-Redirect": f"/web/units/{answer['id']}"})
    ctx = await in_thread(lambda: campaign_context(v))
    ctx["answer"] = ctx["board"].answer(verb, answer, ctx["c"])
    return templates.TemplateResponse(request, "_campaign_panel.html", ctx)
