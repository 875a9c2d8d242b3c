"""Playing from a page: a legal action's form, or a campaign command's (announcing a unit, starting an
adventure …), posted as a form and run exactly as over JSON: the same command class validates it, and a
refusal names the ruling (shown on the page with a 4xx status). The House's rulings on a unit (undo,
overturn) post from the unit's page; a seat handed out (``add-player``, or a reissue from the seat list)
answers its invite as a link and a QR code."""

from __future__ import annotations

from dataclasses import replace
from typing import Any
from uuid import UUID

import segno
from anyio import to_thread
from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import Response

from api.deps import caller_or_none
from api.web import forms
from api.web.pages import Seated, board_of, campaign_context, table_context
from api.web.render import SignedOut, Viewer, plain, templates
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


def still_seated(request: Request, v: Viewer) -> None:
    """The browser's session looked up again in the command's own thread, just before the command runs: the seat
    was resolved when the request's headers came, and a client may hold its body back past a sign-out or a
    reissue (issue 29: a revoked credential stops working everywhere at once). ``SignedOut`` otherwise."""
    found = caller_or_none(request)
    if found is None or found.campaign_id != v.campaign_id or found.seat != v.seat:
        raise SignedOut()


@router.post("/units/{unit_id}/act")
async def act(request: Request, unit_id: UUID, v: Seated) -> Response:
    """One move from the table's buttons; answers the table again (or the refusal above it)."""
    form = await posted(request)
    name = (form.get("action") or [""])[0]
    error, status = None, 200

    def move() -> None:
        still_seated(request, v)
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


#: The kernel's rulings the frame posts from a unit's page (C-6): the unit is the page's own.
RULINGS = ("rewind", "overturn")


@router.post("/units/{unit_id}/rulings/{verb}")
async def rule(request: Request, unit_id: UUID, verb: str, v: Seated) -> Response:
    """The House's undo or overturn from the unit's "Rulings" section; answers the table again. An undo refused
    because it would show to some seats again what every seat saw (C-8) is answered with the refusal in words and
    an offer to go ahead anyway (the command's ``cli_confirm`` field sent true)."""
    if verb not in RULINGS:
        raise HTTPException(404, f"no ruling {verb!r} here")
    form = await posted(request)
    if verb == "overturn" and form.get("winner") == [""]:  # the page's "Nobody: void the result" (C-6)
        form = {**form, "void": ["true"]}
        del form["winner"]
    error, status, confirm = None, 200, None
    # off the event loop: the first look-up of a campaign's commands reads the campaign from the store
    cls = await in_thread(lambda: v.stakes.command_class(v.campaign_id, verb))

    def run() -> None:
        still_seated(request, v)
        payload = forms.payload(cls, form, skip=("unit",))
        v.stakes.run(v.campaign_id, v.seat, verb, {**payload, "unit": str(unit_id)})

    try:
        await in_command_thread(request, run)
    except StakesError as exc:
        error, status = str(exc), status_of(exc)
        field, ruling = cls.cli_confirm or ("", "")
        if ruling and exc.ruling == ruling and not form.get(field):
            # the refusal's own words, without the API's and the CLI's way round it (the page offers its own)
            words = exc.message.split(". Rewind with ")[0].rstrip(".") + "."
            error, confirm = None, {"words": f"{ruling}: {words}", "field": field,
                                    "values": {k: vals[0] for k, vals in form.items() if vals and k != field}}
            status = 200  # a question to the House, not a failure: no error in the browser's console or network
    ctx = await in_thread(lambda: table_context(v, unit_id))
    ctx["error"] = error
    if ctx["rulings"] is not None and (confirm or error):
        sent = {k: vals[0] for k, vals in form.items() if vals and isinstance(vals[0], str)}
        ctx["rulings"] = replace(ctx["rulings"], confirm=confirm, open=True, error=error, sent=sent)
        ctx["error"] = None  # said beside the ruling's form
    return templates.TemplateResponse(request, "_table.html", ctx, status_code=status)


def invite_of(request: Request, seat: str, name: str, code: str) -> dict[str, Any]:
    """An invite as the House hands it over (issue 31): a link whose code is in the fragment only (so it reaches
    no access log, issue 29), and that link as a QR code drawn here (an SVG ``data:`` image, which the page's
    Content-Security-Policy allows; no script draws it)."""
    link = f"{str(request.base_url).rstrip('/')}/web/invite#{code}"
    qr = segno.make(link, error="m").svg_data_uri(scale=5, border=2, dark="#000000", light="#ffffff")
    return {"seat": seat, "name": name, "link": link, "qr": qr}


@router.get("/seats/{seat}/invite")
async def invite_status(request: Request, seat: str, v: Seated) -> Response:
    """The House's invite card asks, every few seconds, whether the player took the seat (C-1): 204 while the
    invite waits (htmx leaves the card), else the card says so in words and asks no more."""
    def read() -> str | None:
        if not v.stakes.invite_claimed(v.campaign_id, v.seat, seat):
            return None
        return v.stakes.campaign(v.campaign_id, v.seat).names().get(seat, seat)

    name = await in_thread(read)
    if name is None:
        return Response(status_code=204)
    return templates.TemplateResponse(request, "_invite_taken.html", {"name": name})


@router.post("/seats/{seat}/reissue")
async def reissue(request: Request, seat: str, v: Seated) -> Response:
    """The House hands a seat out again (a lost token, a new player): the old token and every web session of
    the seat stop working at once (their pages are sent to the sign-in, which says so), and the new invite is
    shown as a link and a QR code, like a new player's."""
    def run() -> Any:
        still_seated(request, v)
        return plain(v.stakes.reissue_token(v.campaign_id, v.seat, seat))

    try:
        added = await in_command_thread(request, run)
    except StakesError as exc:
        ctx = await in_thread(lambda: campaign_context(v))
        ctx["error"] = str(exc)
        return templates.TemplateResponse(request, "_campaign_panel.html", ctx, status_code=status_of(exc))
    ctx = await in_thread(lambda: campaign_context(v))
    sheet = added.get("sheet") or {}
    ctx["invite"] = invite_of(request, str(sheet.get("seat") or seat), str(sheet.get("name") or seat), added["invite"])
    ctx["invite"]["again"] = True
    return templates.TemplateResponse(request, "_campaign_panel.html", ctx)


@router.post("/commands/{verb}")
async def command(request: Request, verb: str, v: Seated) -> Response:
    """A campaign command from its form. A new unit opens its table (unless the board answers it on the page,
    ``WebBoard.opens_table``); anything else answers on the page."""
    form = await posted(request)

    def run() -> Any:
        still_seated(request, v)
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
    if isinstance(answer, dict) and isinstance(answer.get("invite"), str):  # a seat handed out: its invite
        sheet = answer.get("sheet") or {}
        ctx["invite"] = invite_of(request, str(sheet.get("seat", "")), str(sheet.get("name") or sheet.get("seat", "")),
                                  answer["invite"])
        answer = {k: val for k, val in answer.items() if k != "invite"}  # the frame hands it over (link, QR)
    ctx["answer"] = ctx["board"].answer(verb, answer, ctx["c"])
    return templates.TemplateResponse(request, "_campaign_panel.html", ctx)
