"""The CLI's client of a running server: the same methods as ``adapters.service.Stakes``.

The seat is the token's; the ``actor`` argument each method takes for symmetry
with the embedded service is ignored here. Problem details from the server come
back as the same domain errors the embedded service raises.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Annotated, Any
from uuid import UUID

from urllib.parse import quote

import httpx
from pydantic import Field, TypeAdapter

from adapters import schemas
from domain.errors import ConcurrencyConflict, NotFound, NotPermitted, NotSupportedYet, RuleViolation, StakesError
from domain.seats import Seat

SHEET = Annotated[schemas.Sheet | schemas.PoolSheet, Field(discriminator="system")]
RESOLUTION = schemas.ChallengeView | schemas.ResolutionView
ADVENTURE = schemas.HouseBudget | schemas.CampaignView


def _q(segment: str) -> str:
    """One path segment, encoded whole: user text never changes which route is called."""
    encoded = quote(segment, safe="")
    return encoded.replace(".", "%2E") if not encoded.strip(".") else encoded


class Unauthenticated(StakesError):
    """No token, or one the server does not know."""


class Unreachable(StakesError):
    """The server did not answer."""


_ERRORS: dict[str, type[StakesError]] = {
    "rule-violation": RuleViolation, "not-supported-yet": NotSupportedYet, "not-permitted": NotPermitted,
    "not-found": NotFound, "conflict": ConcurrencyConflict, "unauthenticated": Unauthenticated,
}


class RemoteStakes:
    def __init__(self, server: str, token: str | None, *, transport: httpx.BaseTransport | None = None) -> None:
        self.server = server
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        self.http = httpx.Client(base_url=server.rstrip("/"), headers=headers, timeout=30.0, transport=transport)

    def close(self) -> None:
        self.http.close()

    def _call(self, method: str, path: str, result: Any, json: dict[str, Any] | None = None,
              params: dict[str, Any] | None = None, *, raw: bool = False, content: bytes | None = None) -> Any:
        try:
            response = self.http.request(method, path, json=json, params=params, content=content)
        except httpx.HTTPError as exc:
            raise Unreachable(f"cannot reach {self.http.base_url}: {exc}") from None
        if response.is_success and raw:
            return response.text
        if response.is_success:
            try:
                return TypeAdapter(result).validate_python(response.json())
            except ValueError as exc:
                raise Unreachable(f"{self.http.base_url} answered something that is not a Stakes answer: {exc}") from None
        try:
            problem = response.json()
        except ValueError:
            problem = {"detail": response.text or response.reason_phrase}
        ruling = problem.get("ruling") or ""
        detail = str(problem.get("detail", ""))
        if ruling and detail.startswith(f"{ruling}: "):
            detail = detail[len(ruling) + 2:]
        cls = _ERRORS.get(str(problem.get("type", "")).rsplit("/", 1)[-1], StakesError)
        raise cls(detail, ruling=ruling)

    def _c(self, campaign_id: UUID, rest: str = "") -> str:
        return f"/campaigns/{campaign_id}{rest}"

    # -- seats and campaigns ------------------------------------------------
    def session(self) -> schemas.Session:
        return self._call("GET", "/session", schemas.Session)

    def create_campaign(self, name: str, system: str, settings: dict[str, Any] | None = None) -> schemas.CampaignCreated:
        return self._call("POST", "/campaigns", schemas.CampaignCreated,
                          {"name": name, "system": system, "settings": settings or {}})

    def campaign(self, campaign_id: UUID, actor: Seat) -> schemas.CampaignView:
        return self._call("GET", self._c(campaign_id), schemas.CampaignView)

    def add_player(self, campaign_id: UUID, actor: Seat, seat: str, character: str, characteristic: str | None = None,
                   description: str | None = None, traits: dict[str, int] | None = None) -> schemas.PlayerAdded:
        body = {"seat": seat, "character": character, "characteristic": characteristic, "description": description,
                "traits": traits}
        return self._call("POST", self._c(campaign_id, "/players"), schemas.PlayerAdded, body)

    def reissue_token(self, campaign_id: UUID, actor: Seat, seat: str) -> schemas.PlayerAdded:
        return self._call("POST", self._c(campaign_id, f"/players/{_q(seat)}/token"), schemas.PlayerAdded)

    # -- sheets ---------------------------------------------------------------
    def sheet(self, campaign_id: UUID, actor: Seat, seat: str | None = None) -> Any:
        return self._call("GET", self._c(campaign_id, f"/characters/{_q(seat or actor.name)}"), SHEET)

    def sheets(self, campaign_id: UUID, actor: Seat) -> Any:
        return self._call("GET", self._c(campaign_id, "/characters"), list[SHEET])

    def buy_characteristic(self, campaign_id: UUID, actor: Seat, seat: str | None, name: str) -> schemas.Sheet:
        path = self._c(campaign_id, f"/characters/{_q(seat or actor.name)}/characteristics")
        return self._call("POST", path, schemas.Sheet, {"name": name})

    # -- adventures and the House ---------------------------------------------
    def start_adventure(self, campaign_id: UUID, actor: Seat, amount: int | None = None,
                        note: str | None = None) -> Any:
        return self._call("POST", self._c(campaign_id, "/adventures"), ADVENTURE, {"amount": amount, "note": note})

    def end_adventure(self, campaign_id: UUID, actor: Seat) -> Any:
        return self._call("POST", self._c(campaign_id, "/adventures/current/end"), ADVENTURE)

    def budget(self, campaign_id: UUID, actor: Seat) -> schemas.HouseBudget:
        return self._call("GET", self._c(campaign_id, "/budget"), schemas.HouseBudget)

    def antagonists(self, campaign_id: UUID, actor: Seat) -> list[schemas.Antagonist]:
        return self._call("GET", self._c(campaign_id, "/antagonists"), list[schemas.Antagonist])

    def create_antagonist(self, campaign_id: UUID, actor: Seat, name: str, kind: str = "antagonist",
                          characteristics: list[str] | None = None) -> schemas.Antagonist:
        body = {"name": name, "kind": kind, "characteristics": characteristics or []}
        return self._call("POST", self._c(campaign_id, "/antagonists"), schemas.Antagonist, body)

    def add_antagonist_characteristic(self, campaign_id: UUID, actor: Seat, antagonist: str,
                                      name: str) -> schemas.Antagonist:
        path = self._c(campaign_id, f"/antagonists/{_q(antagonist)}/characteristics")
        return self._call("POST", path, schemas.Antagonist, {"name": name})

    def fund_antagonist(self, campaign_id: UUID, actor: Seat, antagonist: str, amount: int) -> schemas.Antagonist:
        path = self._c(campaign_id, f"/antagonists/{_q(antagonist)}/funding")
        return self._call("POST", path, schemas.Antagonist, {"amount": amount})

    # -- loans ----------------------------------------------------------------
    def debts(self, campaign_id: UUID, actor: Seat) -> schemas.DebtRegister:
        return self._call("GET", self._c(campaign_id, "/debts"), schemas.DebtRegister)

    def offer_loan(self, campaign_id: UUID, actor: Seat, borrower: str, amount: int) -> schemas.Loan:
        return self._call("POST", self._c(campaign_id, "/loans"), schemas.Loan,
                          {"borrower": borrower, "amount": amount})

    def _loan(self, campaign_id: UUID, loan_id: UUID, action: str, body: dict[str, Any] | None = None) -> schemas.Loan:
        return self._call("POST", self._c(campaign_id, f"/loans/{loan_id}/{action}"), schemas.Loan, body)

    def accept_loan(self, campaign_id: UUID, actor: Seat, loan_id: UUID) -> schemas.Loan:
        return self._loan(campaign_id, loan_id, "accept")

    def decline_loan(self, campaign_id: UUID, actor: Seat, loan_id: UUID) -> schemas.Loan:
        return self._loan(campaign_id, loan_id, "decline")

    def withdraw_loan(self, campaign_id: UUID, actor: Seat, loan_id: UUID) -> schemas.Loan:
        return self._loan(campaign_id, loan_id, "withdraw")

    def repay_loan(self, campaign_id: UUID, actor: Seat, loan_id: UUID, amount: int) -> schemas.Loan:
        return self._loan(campaign_id, loan_id, "repayments", {"amount": amount})

    def forgive_loan(self, campaign_id: UUID, actor: Seat, loan_id: UUID) -> schemas.Loan:
        return self._loan(campaign_id, loan_id, "forgive")

    def record_consequence(self, campaign_id: UUID, actor: Seat, loan_id: UUID, note: str) -> schemas.Loan:
        return self._loan(campaign_id, loan_id, "consequences", {"note": note})

    # -- the log ----------------------------------------------------------------
    def log(self, campaign_id: UUID, actor: Seat, after: int = 0, limit: int = 100) -> schemas.EventLog:
        return self._call("GET", self._c(campaign_id, "/log"), schemas.EventLog,
                          params={"after": after, "limit": limit})


    # -- challenges -----------------------------------------------------------------
    def announce_challenge(self, campaign_id: UUID, actor: Seat, challenger: dict[str, Any], opponent: dict[str, Any],
                           ante: int, stake: int | None = None, table: bool = False,
                           circumstance: str | None = None) -> schemas.ChallengeView:
        body = {"challenger": challenger, "opponent": opponent, "ante": ante, "stake": stake, "table": table,
                "circumstance": circumstance}
        return self._call("POST", self._c(campaign_id, "/challenges"), schemas.ChallengeView, body)

    def challenges(self, campaign_id: UUID, actor: Seat) -> list[schemas.ChallengeSummary]:
        return self._call("GET", self._c(campaign_id, "/challenges"), list[schemas.ChallengeSummary])

    def challenge(self, campaign_id: UUID, actor: Seat, challenge_id: UUID) -> Any:
        return self._call("GET", self._c(campaign_id, f"/challenges/{challenge_id}"), RESOLUTION)

    def challenge_action(self, campaign_id: UUID, actor: Seat, challenge_id: UUID, action: str,
                         args: dict[str, Any] | None = None) -> schemas.ChallengeView:
        return self._call("POST", self._c(campaign_id, f"/challenges/{challenge_id}/actions"), RESOLUTION,
                          {"action": action, **(args or {})})

    def verify_challenge(self, campaign_id: UUID, actor: Seat, challenge_id: UUID) -> schemas.Verification:
        return self._call("GET", self._c(campaign_id, f"/challenges/{challenge_id}/verify"), schemas.Verification)

    def replay(self, campaign_id: UUID, actor: Seat, challenge_id: UUID, step: int | None = None) -> schemas.Replay:
        return self._call("GET", self._c(campaign_id, f"/challenges/{challenge_id}/replay"), schemas.Replay,
                          params={"step": step} if step else None)

    def rewind_challenge(self, campaign_id: UUID, actor: Seat, challenge_id: UUID, to_step: int,
                         reason: str) -> schemas.ChallengeView:
        return self._call("POST", self._c(campaign_id, f"/challenges/{challenge_id}/rewind"), RESOLUTION,
                          {"to_step": to_step, "reason": reason})

    def overturn_challenge(self, campaign_id: UUID, actor: Seat, challenge_id: UUID, winner: str | None,
                           void: bool, reason: str) -> schemas.ChallengeView:
        return self._call("POST", self._c(campaign_id, f"/challenges/{challenge_id}/overturn"),
                          RESOLUTION, {"winner": winner, "void": void, "reason": reason})

    # -- audit, export, import ---------------------------------------------------------------
    def audit(self, campaign_id: UUID, actor: Seat, progress: Any = None) -> schemas.AuditReport:
        return self._call("GET", self._c(campaign_id, "/audit"), schemas.AuditReport)

    def export_campaign(self, campaign_id: UUID, actor: Seat, progress: Any = None) -> Iterator[str]:
        lines = self._call("GET", self._c(campaign_id, "/export"), str, raw=True)
        return iter(lines.splitlines())

    def import_campaign(self, lines: Iterable[str], progress: Any = None) -> schemas.ImportReport:
        return self._call("POST", "/imports", schemas.ImportReport, content="\n".join(lines).encode())

    # -- the Pool ---------------------------------------------------------------------------------
    def _sheet_post(self, campaign_id: UUID, path: str, body: dict[str, Any] | None = None) -> schemas.PoolSheet:
        return self._call("POST", self._c(campaign_id, path), schemas.PoolSheet, body)

    def raise_trait(self, campaign_id: UUID, actor: Seat, seat: str | None, name: str,
                    new: bool | None = None) -> schemas.PoolSheet:
        return self._sheet_post(campaign_id, f"/characters/{_q(seat or actor.name)}/traits",
                                {"name": name, "new": new})

    def cash_in_trait(self, campaign_id: UUID, actor: Seat, seat: str | None, name: str) -> schemas.PoolSheet:
        return self._sheet_post(campaign_id, f"/characters/{_q(seat or actor.name)}/traits/{_q(name)}/cash-in")

    def buy_move(self, campaign_id: UUID, actor: Seat, seat: str | None, name: str, cost: int) -> schemas.PoolSheet:
        return self._sheet_post(campaign_id, f"/characters/{_q(seat or actor.name)}/moves", {"name": name, "cost": cost})

    def offer_help(self, campaign_id: UUID, actor: Seat, to: str, dice: int) -> schemas.PoolSheet:
        return self._sheet_post(campaign_id, "/help", {"to": to, "dice": dice})

    def pool_roll(self, campaign_id: UUID, actor: Seat, count: int, trait: str | None = None,
                  helper: str | None = None, seed: str | None = None, dice: list[int] | None = None) -> Any:
        body = {"count": count, "trait": trait, "helper": helper, "seed": seed, "dice": dice}
        return self._call("POST", self._c(campaign_id, "/rolls"), RESOLUTION, body)

    def open_contest(self, campaign_id: UUID, actor: Seat, opponent: str) -> Any:
        return self._call("POST", self._c(campaign_id, "/contests"), RESOLUTION, {"opponent": opponent})
