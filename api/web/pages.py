"""The pages a seat reads: sign-in, the campaign, a unit's table, and a unit's replay with its verify panel.

Each live part is a fragment of its own (``…/panel``, ``…/table``) that htmx fetches again whenever the
seat's stream (``GET /campaigns/{id}/stream``) brings a frame, so a page updates without a reload and
shows exactly what the seat's reads show (C-5).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any
from uuid import UUID

from fastapi import APIRouter, Depends, Form, HTTPException, Path, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from adapters import ledger
from adapters.schemas import HOUSE_NAME
from api.deps import LEGACY_COOKIE, SEAT_COOKIE, SESSION_PREFIX, _caller, _token, caller_or_none
from api.web import forms
from api.web import systems as boards
from api.web.render import Viewer, plain, templates, viewer
from domain.errors import StakesError
from domain.kernel.common import SHARED, Abandon
from domain.kernel.registry import rule_system, system_of_unit
from domain.seats import Seat

router = APIRouter(prefix="/web", include_in_schema=False)
Seated = Annotated[Viewer, Depends(viewer)]
#: Points per line the campaign page's chart shows at most (its table alternative lists them all).
WEB_CHART_POINTS = 100


@router.get("")
def home(request: Request) -> Response:
    """The sign-in. A browser that comes here with a session cookie the server no longer knows lost its seat
    while signed in (signing out deletes the cookie): the House handed the seat to someone else (a reissue, or
    its new invite was claimed), or the session ran out. The page says so in words until the browser signs in
    again (which replaces the cookie). The cookie is left alone here: an open page may send the browser here
    twice at once (its stream's end and a live refresh), and the second visit must say it too."""
    if caller_or_none(request) is not None:
        return RedirectResponse("/web/campaign", status_code=303)
    ended = bool(request.cookies.get(SEAT_COOKIE))
    return templates.TemplateResponse(request, "signin.html", {"error": None, "ended": ended})


@router.get("/session")
def session_check(v: Seated) -> Response:
    """Whether this browser's session still stands: 204, or (``SignedOut``) the sign-in, which says why. A page
    asks when its stream ends (``sse:end``: a reissue or a sign-out elsewhere ended the session)."""
    return Response(status_code=204)


@router.get("/invite")
def invite(request: Request) -> Response:
    """An invite link the House hands over: ``/web/invite#inv_…``. The code is in the fragment, which the
    browser never sends, so it reaches no access log (issue 29); ``invite.js`` fills the sign-in form with it.
    Nothing is claimed until the player sends the form (a link preview must not spend it). A browser signed in
    to a seat already is told that taking this one signs it out of that one (found on a phone walk)."""
    found, current = caller_or_none(request), None
    if found is not None:
        campaign = request.app.state.stakes.campaign(found.campaign_id, found.seat)
        current = {"seat": campaign.names().get(found.seat.name, found.seat.name)
                   if not found.seat.is_house else HOUSE_NAME, "campaign": campaign.name}
    return templates.TemplateResponse(request, "signin.html", {"error": None, "invite": True, "current": current})


@router.post("/invite/whose")
def invite_whose(request: Request, token: Annotated[str, Form(max_length=200)]) -> Response:
    """Whose seat the invite on the sign-in page opens, so the player sees "Take Ilse Varn's seat" before taking
    it: the code comes in a POST body (never a URL: no access log keeps it) and nothing is spent (C-1). An
    unknown or claimed code is answered as the sign-in would answer it."""
    from api.web.play import status_of

    try:
        found = request.app.state.stakes.invitation(token.strip())
    except StakesError as exc:
        return JSONResponse({"detail": str(exc)}, status_code=status_of(exc))
    return JSONResponse(found.model_dump())


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


@router.get("/sign-in")
@router.get("/sign-out")
def signed_in_again() -> Response:
    """The address a sign-in or sign-out form posted to, opened again (a phone's Back, a reload, a bookmark of the
    page that showed the token): the sign-in page, which sends a signed-in browser on to its campaign."""
    return RedirectResponse("/web", status_code=303)


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
        seat = Seat(claimed.seat)
        name = stakes.campaign(claimed.campaign_id, seat).names().get(claimed.seat, claimed.seat)  # names, not handles
        page = templates.TemplateResponse(request, "claimed.html", {"token": claimed.token, "seat": None,
                                                                    "claimed_seat": name})
        return _signed_in(request, claimed.campaign_id, seat, page)
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
def board_of(v: Viewer, system_id: str | None = None) -> boards.WebBoard:
    """The campaign's system's web board (``api/web/systems/<package>.py``), or the generic one."""
    if system_id is None:
        system_id = v.stakes.campaign(v.campaign_id, v.seat).system
    return boards.of(system_id)


def names_of(sheets: list[dict[str, Any]]) -> dict[str, str]:
    """Seat -> the name a page shows for it, from the sheets it shows anyway (a page without them asks the
    campaign: ``CampaignView.names``)."""
    names = {"house": HOUSE_NAME}
    for s in sheets:
        if s.get("seat") and s.get("name"):
            names[str(s["seat"])] = str(s["name"])
    return names


def campaign_commands(v: Viewer, system_id: str) -> list[boards.CommandForm]:
    """The campaign commands this seat's kind may issue, each as a form (announcing a unit, seating a player …)."""
    system = rule_system(system_id)
    verbs = sorted({c.verb for c in system.commands()} | {c.verb for c in SHARED})
    out = []
    for verb in verbs:
        cls = v.stakes.command_class(v.campaign_id, verb)
        if (cls.who == "house") != v.seat.is_house and cls.who != "anyone":
            continue
        out.append(boards.CommandForm(verb, cls.summary(), forms.fields(cls), cls))
    return out


def _books(v: Viewer, names: tuple[str, ...] | None = None) -> list[boards.Book]:
    """The system's reads (those ``names``, or all) as the seat may make them; one it may not is left out."""
    books = []
    for read in v.stakes.reads(v.campaign_id).values():
        if names is not None and read.name not in names:
            continue
        try:
            books.append(boards.Book(read.name, read.label or read.name,
                                     plain(v.stakes.read(v.campaign_id, v.seat, read.name))))
        except StakesError:  # a read this seat may not make
            continue
    return books


def campaign_view(v: Viewer) -> tuple[boards.CampaignView, boards.WebBoard]:
    stakes, cid = v.stakes, v.campaign_id
    campaign = plain(stakes.campaign(cid, v.seat))
    sheets = plain(stakes.sheets(cid, v.seat))
    books = _books(v)
    units = plain(stakes.recent_units(cid, v.seat))  # the newest and every open one, never just the oldest
    view = boards.CampaignView(
        campaign=campaign, seat=v.seat.name, is_house=v.seat.is_house, names=names_of(sheets),
        own=[s for s in sheets if s.get("seat") == v.seat.name],
        others=[s for s in sheets if s.get("seat") != v.seat.name], books=books, units=units,
        open=[u for u in units if u["phase"] not in ("settled", "void", "abandoned")],
        commands=campaign_commands(v, campaign["system"]))
    return view, board_of(v, campaign["system"])


def waiting_on(v: Viewer, units: list[dict[str, Any]]) -> set[str]:
    """The open units whose table waits for this seat now (the campaign page marks them "Your move")."""
    found = set()
    for unit in units:
        try:
            if v.seat.name in v.stakes.waiting_for(v.campaign_id, v.seat, UUID(str(unit["id"]))).seats:
                found.add(str(unit["id"]))
        except StakesError:  # a unit this seat may not read
            continue
    return found


def campaign_context(v: Viewer) -> dict[str, Any]:
    view, board = campaign_view(v)
    seats = [{"seat": p["seat"], "name": p["character"]} for p in view.campaign.get("players", [])] \
        if v.seat.is_house else []
    return {"c": view, "board": board, "campaign": view.campaign, "seat": v.seat.name,
            "seat_name": view.name_of(v.seat.name), "head": ledger.last_position(v.stakes, v.campaign_id),
            "groups": board.groups(view), "seats": seats, "yours": waiting_on(v, view.open),
            "chart": campaign_chart(v), "luck": campaign_luck(v)}


def campaign_luck(v: Viewer) -> dict[str, Any] | None:
    """The luck report (issue 31): the same for every seat (public draws only); None when the system counts none."""
    try:
        found: dict[str, Any] = plain(v.stakes.luck(v.campaign_id, v.seat))
    except StakesError:
        return None
    return found


def campaign_chart(v: Viewer) -> dict[str, Any] | None:
    """The campaign chart as this seat may see it (issue 31, C-5), a hundred points a line at most; None when the
    campaign's system tracks no quantity on its sheets."""
    try:
        found: dict[str, Any] = plain(v.stakes.chart(v.campaign_id, v.seat, WEB_CHART_POINTS))
    except StakesError:
        return None
    return found


@router.get("/campaign")
def campaign_page(request: Request, v: Seated) -> Response:
    return templates.TemplateResponse(request, "campaign.html", campaign_context(v))


@router.get("/rules")
def rules_page(request: Request, v: Seated) -> Response:
    """The rulings the pages cite by code (C-9, and the campaign's system's own), one line each in a player's
    words, each at its own anchor (``/web/rules#C-9``)."""
    view, board = campaign_view(v)
    return templates.TemplateResponse(request, "rules.html", {
        "c": view, "board": board, "seat": v.seat.name, "seat_name": view.name_of(v.seat.name),
        "shared": boards.KERNEL_RULES, "own": board.rules, "system": view.campaign.get("system")})


@router.get("/campaign/panel")
def campaign_panel(request: Request, v: Seated) -> Response:
    return templates.TemplateResponse(request, "_campaign_panel.html", campaign_context(v))


# -- a unit's table -----------------------------------------------------------------------------------------
def table_view(v: Viewer, unit_id: UUID) -> tuple[boards.TableView, boards.WebBoard]:
    stakes, cid = v.stakes, v.campaign_id
    view = plain(stakes.challenge(cid, v.seat, unit_id))
    unit = stakes.load_unit(cid, unit_id)
    system = system_of_unit(unit)
    moves: list[boards.Move] = []
    rulings: list[boards.Move] = []
    for legal in view.get("legal_actions", []):
        limits = {k: val for k, val in legal.items() if val is not None}
        cls = system.move(unit, legal["action"])  # a unit's action, or a campaign command it lists (issue 31)
        move = boards.Move(legal["action"], cls.summary(), limits, forms.fields(cls, limits=limits), cls)
        (rulings if issubclass(cls, Abandon) else moves).append(move)  # the kernel's ruling: the frame draws it
    state = view.get("state") if isinstance(view.get("state"), dict) and "kind" in view else {
        k: val for k, val in view.items() if k not in ("id", "campaign_id", "legal_actions", "waiting_for")}
    sheets = plain(stakes.sheets(cid, v.seat))
    board = boards.of(system.id)
    table = boards.TableView(
        unit_id=unit_id, campaign_id=cid, kind=type(unit).__name__, phase=str(view.get("phase")), state=state,
        moves=moves, waiting=stakes.waiting_for(cid, v.seat, unit_id).seats, seat=v.seat.name,
        is_house=v.seat.is_house, names=names_of(sheets), sheets=sheets, rulings=rulings,
        abandoned=getattr(unit, "abandoned", None) is not None, overturned=bool(getattr(unit, "was_overturned", False)),
        would_have_drawn=[dict(d) for d in getattr(unit, "would_have_drawn", ())] if unit.settled else [],
        owing=unit.inputs_awaited(), owing_sides=unit.inputs_awaited_by_side(), books=_books(v, board.table_reads))
    return table, board


# -- the House's rulings on a unit (C-6, C-10): the frame's collapsed section under the board ------------------
@dataclass(frozen=True)
class Step:
    """One step of a unit, in words, for the undo's select."""

    number: int
    words: str
    at: str
    undone: bool


@dataclass(frozen=True)
class Rulings:
    """What the House may rule on a unit now: undo to a step (the kernel's ``rewind``, while the unit is open),
    overturn its result (``overturn``, once it is settled), abandon it (``abandon``, a legal move of an open
    unit). Built for the House only, from the House's own reads."""

    rewind: boards.CommandForm | None
    steps: list[Step]
    overturn: boards.CommandForm | None
    abandon: boards.Move | None
    #: ``challenger``/``opponent`` -> the names of that side's seats, for the overturn's "who wins".
    sides: dict[str, str]
    #: The sides the overturn may name as the new winner (the system's ``overturn_winners``, C-6); none: the unit
    #: is only voided.
    winners: tuple[str, ...] = ()
    #: A refused undo the House may confirm (C-8): the ruling's words and the inputs to send again.
    confirm: dict[str, Any] | None = None
    open: bool = False
    #: A refused ruling, said beside its form (not at the table's top, off a phone's screen), with the inputs
    #: the House sent, set in the form again.
    error: str | None = None
    sent: dict[str, str] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool((self.rewind and self.steps) or self.overturn or self.abandon)


def command_form(v: Viewer, verb: str, skip: tuple[str, ...] = ("unit",)) -> boards.CommandForm:
    cls = v.stakes.command_class(v.campaign_id, verb)
    return boards.CommandForm(verb, cls.summary(), forms.fields(cls, skip=skip), cls)


def rulings_of(v: Viewer, table: boards.TableView, board: boards.WebBoard) -> Rulings | None:
    if not v.seat.is_house:
        return None
    settled = table.phase == "settled"
    steps: list[Step] = []
    if not settled:
        replay = v.stakes.replay(v.campaign_id, v.seat, table.unit_id)
        undone: set[int] = set()
        for s in replay.steps:
            if s.event == "Rewound" and isinstance(s.detail.get("to_step"), int):
                undone.update(range(s.detail["to_step"] + 1, s.step))
        last = replay.steps[-1] if replay.steps else None
        again = last.detail.get("to_step") if last is not None and last.event == "Rewound" else None
        # only the steps the unit's rules would take back to (C-6), not the one a last undo went back to already
        found = table.state.get("sides")
        by_name = {side: board.side_name(table, side) for side in found} if isinstance(found, dict) else {}
        steps = [Step(s.step, board.step_words(s.event, s.detail, s.actor, table.name_of, by_name), s.at.isoformat(),
                      s.step in undone) for s in replay.steps[:-1] if s.rewindable and s.step != again]
        steps.reverse()  # the latest first: an undo most often takes back the last move
    sides: dict[str, str] = {}
    if settled:
        unit = v.stakes.challenge_summary(v.campaign_id, v.seat, table.unit_id)
        # a side by its name on the board (a House character's, not "the House"), else by its seats' names
        sides = {side: named if (named := board.side_name(table, side)) != side else
                 " and ".join(table.name_of(s) for s in seats)
                 for side, seats in (("challenger", unit.challenger), ("opponent", unit.opponent)) if seats}
    # C-6: overturn is offered only where the unit's own checks would take it now, with the winners they take
    winners = v.stakes.overturn_winners(v.campaign_id, v.seat, table.unit_id) if settled else None
    return Rulings(rewind=None if settled else command_form(v, "rewind", ("unit", "to_step", "reason", "reveal")),
                   steps=steps, overturn=command_form(v, "overturn") if winners is not None else None,
                   abandon=table.ruling("abandon") or next(iter(table.rulings), None), sides=sides,
                   winners=winners or ())


def table_context(v: Viewer, unit_id: UUID) -> dict[str, Any]:
    table, board = table_view(v, unit_id)
    return {"t": table, "board": board, "unit_id": str(unit_id), "campaign_id": str(v.campaign_id),
            "seat": v.seat.name, "seat_name": table.name_of(v.seat.name), "kind": table.kind, "phase": table.phase,
            "title": board.unit_title({"kind": table.kind, **table.state}, table.names),
            "head": ledger.last_position(v.stakes, v.campaign_id), "rulings": rulings_of(v, table, board),
            # C-6: every seat is told of the House's last undo while the table is open, with its reason
            "last_undo": recent_undo(v, unit_id) if table.phase != "settled" else None}


#: How long a table says the House's last undo above the board (the replay and the history keep it for good).
UNDO_SAID_FOR = timedelta(minutes=15)


def recent_undo(v: Viewer, unit_id: UUID) -> Any:
    """The unit's last undo while it is news (found on a phone walk: said above the board into later rounds)."""
    found = v.stakes.last_rewind(v.campaign_id, v.seat, unit_id)
    if found is None or datetime.now(UTC) - found.at > UNDO_SAID_FOR:
        return None
    return found


def not_here(request: Request, v: Viewer, exc: StakesError) -> HTMLResponse:
    """A table link this seat cannot open (another campaign's, or none): a page in words with the way back, not
    the API's problem document (found on a phone walk: a link from another campaign showed raw JSON)."""
    from api.web.play import status_of

    campaign = v.stakes.campaign(v.campaign_id, v.seat)
    return templates.TemplateResponse(request, "not_here.html", {
        "seat": v.seat.name, "seat_name": campaign.names().get(v.seat.name, v.seat.name),
        "campaign_name": campaign.name}, status_code=status_of(exc))


@router.get("/units/{unit_id}")
def unit_page(request: Request, unit_id: UUID, v: Seated) -> Response:
    try:
        context = table_context(v, unit_id)
    except StakesError as exc:
        return not_here(request, v, exc)
    return templates.TemplateResponse(request, "unit.html", context)


@router.get("/units/{unit_id}/table")
def unit_table(request: Request, unit_id: UUID, v: Seated) -> Response:
    return templates.TemplateResponse(request, "_table.html", table_context(v, unit_id))


@router.get("/units/{unit_id}/replay")
def replay_page(request: Request, unit_id: UUID, v: Seated) -> HTMLResponse:
    """Every step, a slider and keys to walk them, undone steps shown as branches, the board as it stood at the
    step (``replay_board``, fetched as the slider moves), and the verify panel."""
    try:
        replay = v.stakes.replay(v.campaign_id, v.seat, unit_id).model_dump(mode="json")
    except StakesError as exc:
        return not_here(request, v, exc)
    verification = v.stakes.verify_challenge(v.campaign_id, v.seat, unit_id).model_dump(mode="json")
    names = v.stakes.campaign(v.campaign_id, v.seat).names()
    commitment = next((s["state"].get("seed_hash") for s in reversed(replay["steps"])
                       if isinstance(s["state"].get("seed_hash"), str)), None)
    unit = v.stakes.load_unit(v.campaign_id, unit_id)
    board = boards.of(system_of_unit(unit).id)
    # each side by the names of who plays it, for the verify panel's slots ("roll · Lady Sen · 0", not "opponent")
    last = replay["steps"][-1]["state"] if replay["steps"] else {}
    seen = boards.TableView(unit_id=unit_id, campaign_id=v.campaign_id, kind=replay.get("kind") or "",
                            phase=str(last.get("phase")), state=plain(last), moves=[], waiting={}, seat=v.seat.name,
                            is_house=v.seat.is_house, names=names, sheets=[], replay=True)
    sides = {side: board.side_name(seen, side) for side in (last.get("sides") or {})}
    for s in replay["steps"]:  # the page draws each step's state as the system's board, not as its fields
        del s["state"], s["changes"]
        # what happened in the table's words, from what this seat may read of the step (C-5): a draw another
        # seat's input set off is said as the system says it (``step_words``), not as that seat's move
        s["words"] = board.step_words(s["event"], s["detail"], s["actor"], lambda seat: names.get(seat, seat), sides)
    for result in verification.get("results") or []:  # a draw in the table's own words, where it has them
        words = board.draw_words(result.get("value"))
        if words is not None:
            result["words"] = words
        where = board.slot_words(list(result.get("slot") or []), {**names, **sides})  # a seat or a side
        if where is not None:
            result["where"] = where
    return templates.TemplateResponse(request, "replay.html", {
        "unit_id": str(unit_id), "seat": v.seat.name, "total": replay["total"], "replay": replay, "board": board,
        "verification": verification, "names": names, "sides": sides,
        "seat_name": names.get(v.seat.name, v.seat.name),
        "commitment": commitment})


@router.get("/units/{unit_id}/replay/{step}")
def replay_board(unit_id: UUID, step: Annotated[int, Path(ge=1, le=1_000_000)], v: Seated) -> HTMLResponse:
    """The unit's board as it stood after ``step``, as this seat may see it then (the replay's state of that
    step: C-5, C-8), drawn by the system's own board with no controls: what the replay page shows as the
    slider moves."""
    cid = v.campaign_id
    found = v.stakes.replay(cid, v.seat, unit_id, step=step)  # refuses a unit of another campaign, a bad step
    state = found.steps[0].state
    unit = v.stakes.load_unit(cid, unit_id)
    view = boards.TableView(unit_id=unit_id, campaign_id=cid, kind=found.kind, phase=str(state.get("phase")),
                            state=plain(state), moves=[], waiting={}, seat=v.seat.name, is_house=v.seat.is_house,
                            names=v.stakes.campaign(cid, v.seat).names(), sheets=[], replay=True)  # the sheets are today's, not the step's
    board = boards.of(system_of_unit(unit).id).table(view)
    return HTMLResponse(str(board), headers={"Cache-Control": "no-store"})
