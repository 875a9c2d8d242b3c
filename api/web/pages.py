"""The pages a seat reads: sign-in, the campaign, a unit's table, and a unit's replay with its verify panel.

Each live part is a fragment of its own (``…/panel``, ``…/table``) that htmx fetches again whenever the
seat's stream (``GET /campaigns/{id}/stream``) brings a frame, so a page updates without a reload and
shows exactly what the seat's reads show (C-5).
"""

from __future__ import annotations

from typing import Annotated, Any
from uuid import UUID

from fastapi import APIRouter, Depends, Form, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from adapters import ledger
from api.deps import LEGACY_COOKIE, SEAT_COOKIE, SESSION_PREFIX, _caller, _token, caller_or_none
from api.web import forms
from api.web.render import Viewer, plain, templates, viewer
from domain.errors import StakesError
from domain.kernel.common import SHARED
from domain.kernel.registry import rule_system, system_of_unit
from domain.seats import Seat

router = APIRouter(prefix="/web", include_in_schema=False)
Seated = Annotated[Viewer, Depends(viewer)]


@router.get("")
def home(request: Request) -> Response:
    if caller_or_none(request) is not None:
        return RedirectResponse("/web/campaign", status_code=303)
    return templates.TemplateResponse(request, "signin.html", {"error": None})


@router.get("/invite")
def invite(request: Request) -> Response:
    """An invite link the House hands over: ``/web/invite#inv_…``. The code is in the fragment, which the
    browser never sends, so it reaches no access log (issue 29); ``invite.js`` fills the sign-in form with it.
    Nothing is claimed until the player sends the form (a link preview must not spend it)."""
    return templates.TemplateResponse(request, "signin.html", {"error": None, "invite": True})


@router.get("/invite/{code}")
def invite_of_old(code: str) -> Response:
    """A link of an earlier release (the code in the path): sent on to the fragment form. The access log's
    filter (``api.web.guard.Redact``) blanks the code in this request's line."""
    return RedirectResponse("/web/invite#" + code[:200], status_code=303)


def _signed_in(request: Request, campaign_id: UUID, seat: Seat, response: Response) -> Response:
    """Open a web session for the seat and hand the browser its id in the cookie (never the token)."""
    session, _ = request.app.state.stakes.open_session(campaign_id, seat)
    response.set_cookie(SEAT_COOKIE, session, httponly=True, samesite="strict", path="/",
                        secure=request.url.scheme == "https",
                        max_age=request.app.state.stakes.settings.web_session_seconds)
    response.delete_cookie(LEGACY_COOKIE, path="/")
    return response


@router.post("/sign-in")
def sign_in(request: Request, token: Annotated[str, Form(max_length=200)]) -> Response:
    """Claim an invite code (``inv_…``, once: C-1) or check a seat token, and open a web session: the
    HttpOnly, SameSite=Strict cookie holds its id (issue 29). A claimed invite's new token is shown once
    on the answer, so the player can sign in again after the session ends."""
    stakes, given = request.app.state.stakes, token.strip()
    if given.startswith("inv_"):
        try:
            claimed = stakes.claim(given)
        except StakesError as exc:  # unknown or already claimed (C-1)
            from api.web.play import status_of

            return templates.TemplateResponse(request, "signin.html", {"error": str(exc)},
                                              status_code=status_of(exc))
        page = templates.TemplateResponse(request, "claimed.html", {"token": claimed.token, "seat": None,
                                                                    "claimed_seat": claimed.seat})
        return _signed_in(request, claimed.campaign_id, Seat(claimed.seat), page)
    try:  # a seat token (never a session id) becomes a seat through api.deps alone
        found = None if given.startswith(SESSION_PREFIX) else _caller(stakes, given)
    except HTTPException:
        found = None
    if found is None:
        return templates.TemplateResponse(request, "signin.html",
                                          {"error": "That seat token is not known here."}, status_code=401)
    return _signed_in(request, found.campaign_id, found.seat, RedirectResponse("/web/campaign", status_code=303))


@router.post("/sign-out")
def sign_out(request: Request) -> Response:
    """The session ends on the server at once (its cookie stops working everywhere, its streams end), and
    the browser forgets the cookie."""
    session = _token(request, None)
    if session:
        request.app.state.stakes.sign_out(session)
    response = RedirectResponse("/web", status_code=303)
    response.delete_cookie(SEAT_COOKIE, path="/")
    response.delete_cookie(LEGACY_COOKIE, path="/")
    return response


# -- the campaign ----------------------------------------------------------------------------------------
def campaign_commands(v: Viewer, system_id: str) -> list[dict[str, Any]]:
    """The campaign commands this seat may issue, each as a form (announcing a unit, seating a player …)."""
    system = rule_system(system_id)
    verbs = sorted({c.verb for c in system.commands()} | {c.verb for c in SHARED})
    out = []
    for verb in verbs:
        cls = v.stakes.command_class(v.campaign_id, verb)
        if (cls.who == "house") != v.seat.is_house and cls.who != "anyone":
            continue
        out.append({"verb": verb, "summary": cls.summary(), "fields": forms.fields(cls)})
    return out


def campaign_context(v: Viewer) -> dict[str, Any]:
    stakes, cid = v.stakes, v.campaign_id
    campaign = stakes.campaign(cid, v.seat)
    sheets = plain(stakes.sheets(cid, v.seat))
    books = []
    for read in stakes.reads(cid).values():
        try:
            books.append({"label": read.label or read.name, "value": plain(stakes.read(cid, v.seat, read.name))})
        except StakesError:  # a read this seat may not make
            continue
    units = plain(stakes.challenges(cid, v.seat))
    return {"campaign": plain(campaign), "seat": v.seat.name, "own": [s for s in sheets if s.get("seat") == v.seat.name],
            "others": [s for s in sheets if s.get("seat") != v.seat.name], "books": books,
            "units": units, "open": [u for u in units if u["phase"] not in ("settled", "void")],
            "head": ledger.last_position(stakes, cid)}


@router.get("/campaign")
def campaign_page(request: Request, v: Seated) -> Response:
    ctx = campaign_context(v)
    ctx["commands"] = campaign_commands(v, ctx["campaign"]["system"])
    return templates.TemplateResponse(request, "campaign.html", ctx)


@router.get("/campaign/panel")
def campaign_panel(request: Request, v: Seated) -> Response:
    return templates.TemplateResponse(request, "_campaign_panel.html", campaign_context(v))


# -- a unit's table -----------------------------------------------------------------------------------------
def table_context(v: Viewer, unit_id: UUID) -> dict[str, Any]:
    stakes, cid = v.stakes, v.campaign_id
    view = plain(stakes.challenge(cid, v.seat, unit_id))
    unit = stakes.load_unit(cid, unit_id)
    system = system_of_unit(unit)
    actions = []
    for legal in view.get("legal_actions", []):
        limits = {k: val for k, val in legal.items() if val is not None}
        cls = system.action(unit, legal["action"])
        actions.append({"name": legal["action"], "summary": cls.summary(), "limits": limits,
                        "fields": forms.fields(cls, limits=limits)})
    state = {k: val for k, val in view.items() if k not in ("id", "campaign_id", "legal_actions")}
    return {"unit_id": str(unit_id), "kind": type(unit).__name__, "phase": view.get("phase"), "state": state,
            "actions": actions, "waiting": stakes.waiting_for(cid, v.seat, unit_id).seats, "seat": v.seat.name,
            "campaign_id": str(cid), "head": ledger.last_position(stakes, cid)}


@router.get("/units/{unit_id}")
def unit_page(request: Request, unit_id: UUID, v: Seated) -> Response:
    return templates.TemplateResponse(request, "unit.html", table_context(v, unit_id))


@router.get("/units/{unit_id}/table")
def unit_table(request: Request, unit_id: UUID, v: Seated) -> Response:
    return templates.TemplateResponse(request, "_table.html", table_context(v, unit_id))


@router.get("/units/{unit_id}/replay")
def replay_page(request: Request, unit_id: UUID, v: Seated) -> HTMLResponse:
    """Every step, a slider and keys to walk them, undone steps shown as branches, and the verify panel."""
    replay = v.stakes.replay(v.campaign_id, v.seat, unit_id).model_dump(mode="json")
    verification = v.stakes.verify_challenge(v.campaign_id, v.seat, unit_id).model_dump(mode="json")
    return templates.TemplateResponse(request, "replay.html", {
        "unit_id": str(unit_id), "seat": v.seat.name, "total": replay["total"], "replay": replay,
        "verification": verification})
