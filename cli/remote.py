"""The CLI's client of a running server: the same methods as ``adapters.service.Stakes``.

Commands are not mirrored one by one: ``run`` finds the command class the campaign's system declares
for a verb (the registry is the same on both sides), fills its route from the inputs and posts the
rest; the answer is parsed with the schema the command declares. The seat is the token's; the
``actor`` argument each method takes for symmetry with the embedded service is only used to fill
inputs that default to the acting seat. Problem details from the server come back as the same domain
errors the embedded service raises.
"""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Iterable, Iterator, Mapping
from functools import cache
from typing import Any
from urllib.parse import quote, urlsplit
from uuid import UUID, uuid4

# httpx imports its own command-line client (click, pygments, rich) whenever those are installed, which here
# they are for other reasons; Stakes never runs it, and it costs a remote command a tenth of its start-up
# (issue 14). httpx treats the client as an optional extra and answers ``httpx.main`` with a hint without it.
sys.modules.setdefault("httpx._main", None)  # type: ignore[arg-type]
import httpx
from pydantic import TypeAdapter

from adapters import schemas
from cli import catalogue
from cli.errors import Unauthenticated, Unreachable
from domain.errors import ConcurrencyConflict, KeyReused, NotFound, NotPermitted, NotSupportedYet, RuleViolation, StakesError
from domain.seats import Seat

_PARAM = re.compile(r"{(\w+)}")
#: Attempts of a command whose answer was lost to a broken connection (the same key each time).
RETRIES = 3


def _q(segment: str) -> str:
    """One path segment, encoded whole: user text never changes which route is called."""
    encoded = quote(segment, safe="")
    return encoded.replace(".", "%2E") if not encoded.strip(".") else encoded


@cache
def _answer(system: str, name: str) -> Any:
    """The schema of a read that answers a command, from the catalogue (no domain import)."""
    found = catalogue.load()["answers"].get(system, {})
    spec = found.get(name) or found.get("unit")
    if isinstance(spec, dict) and "player_added" in spec:
        from pydantic import create_model

        sheet = catalogue.model(spec["player_added"])
        return create_model(f"PlayerAdded{sheet.__name__}", __base__=schemas.PlayerAdded,
                            sheet=(sheet, ...))  # type: ignore[call-overload]
    return catalogue.model(spec)


_ERRORS: dict[str, type[StakesError]] = {
    "rule-violation": RuleViolation, "not-supported-yet": NotSupportedYet, "not-permitted": NotPermitted,
    "not-found": NotFound, "conflict": ConcurrencyConflict, "key-reused": KeyReused, "unauthenticated": Unauthenticated,
    "too-large": RuleViolation,
}


class RemoteStakes:
    def __init__(self, server: str, token: str | None, *, transport: httpx.BaseTransport | None = None) -> None:
        self.server = server
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        # A plain-HTTP server (a laptop on the LAN) uses no TLS at all, so no certificate store is loaded for
        # it (that alone costs about 0.2 s of every command); an https:// server is verified as usual.
        tls = urlsplit(server).scheme == "https"
        self.http = httpx.Client(base_url=server.rstrip("/"), headers=headers, timeout=30.0, transport=transport,
                                 verify=tls)
        self._systems: dict[UUID, str] = {}

    def close(self) -> None:
        self.http.close()

    def _call(self, method: str, path: str, result: Any, json: Any = None, params: dict[str, Any] | None = None,
              *, raw: bool = False, content: bytes | None = None, key: str | None = None,
              auth: str | None = None) -> Any:
        """One request. A command carries an ``Idempotency-Key``, so when the answer is lost (the connection
        drops) it is sent again, and the server applies it once and answers as the first time."""
        headers = {"Idempotency-Key": key} if key else {}
        for attempt in range(RETRIES if key else 1):
            try:
                request = self.http.build_request(method, path, json=json, params=params, content=content,
                                                  headers=headers)
                if auth is not None:  # this request only: another credential (the operator's), or none
                    request.headers.pop("Authorization", None)
                    if auth:
                        request.headers["Authorization"] = f"Bearer {auth}"
                response = self.http.send(request)
                break
            except httpx.TransportError as exc:
                if attempt + 1 >= (RETRIES if key else 1):
                    raise Unreachable(f"cannot reach {self.http.base_url}: {exc}") from None
                time.sleep(0.2 * (attempt + 1))
            except httpx.HTTPError as exc:
                raise Unreachable(f"cannot reach {self.http.base_url}: {exc}") from None
        if response.is_success and raw:
            return response.text
        if response.is_success:
            try:
                return TypeAdapter(result).validate_python(response.json())
            except ValueError as exc:
                raise Unreachable(f"{self.http.base_url} answered something that is not a Stakes answer: {exc}") from None
        raise self.refusal(response)

    def refusal(self, response: httpx.Response) -> StakesError:
        """The error a refused request stands for (its RFC 9457 problem), in words: a seat token the server no
        longer knows is told as a seat handed out again, with what to do (issue 31). The response is read."""
        response.read()  # a streamed answer (the live stream refused) is read here
        try:
            problem = response.json()
        except ValueError:
            problem = {"detail": response.text or response.reason_phrase}
        if not isinstance(problem, dict):
            problem = {"detail": response.reason_phrase}
        ruling = problem.get("ruling") or ""
        detail = str(problem.get("detail", ""))
        if ruling and detail.startswith(f"{ruling}: "):
            detail = detail[len(ruling) + 2:]
        cls = _ERRORS.get(str(problem.get("type", "")).rsplit("/", 1)[-1], StakesError)
        if cls is Unauthenticated and "authorization" in self.http.headers and detail == "Unknown token":
            # the seat token this CLI holds is refused (issue 31), not another credential such as an operator's
            detail = (f"{detail}: this seat's token was replaced or revoked by the House, so the one this CLI "
                      f"holds no longer works on {self.http.base_url}. Ask the House for the new invite code of "
                      "your seat, then run 'stakes claim CODE'")
        return cls(detail, ruling=ruling)

    def _c(self, campaign_id: UUID, rest: str = "") -> str:
        return f"/campaigns/{campaign_id}{rest}"

    def _system(self, campaign_id: UUID) -> str:
        """The campaign's rule system: remembered in the config once met, so no command asks twice (issue 30)."""
        if campaign_id not in self._systems:
            from cli import config

            known = config.load().systems.get(campaign_id.hex)
            if known is None:
                known = self._call("GET", self._c(campaign_id), schemas.CampaignView).system
                config.remember_system(campaign_id.hex, known)
            self._systems[campaign_id] = known
        return self._systems[campaign_id]

    # -- commands, defined once in the domain ---------------------------------------------------------
    def run(self, campaign_id: UUID, actor: Seat, verb: str, payload: Mapping[str, Any] | None = None,
            key: str | None = None) -> Any:
        system = self._system(campaign_id)
        routes = catalogue.load()["routes"]
        if system not in routes:
            raise RuleViolation(f"this CLI does not know the rule system {system!r}", ruling="C-1")
        cls = routes[system].get(verb)
        if cls is None:
            hint = (catalogue.load().get("instead") or {}).get(system, {}).get(verb)
            raise RuleViolation(f"a {system} campaign has no command {verb!r}" + (f": {hint}" if hint else ""),
                                ruling="C-1")
        body = {k: v for k, v in dict(payload or {}).items() if v is not None}
        for name in cls["actor_fields"]:
            body.setdefault(name, actor.name)
        method, route = cls["route"].split(" ", 1)
        path = _PARAM.sub(lambda m: _q(str(body.pop(m.group(1), ""))), route)
        model = _answer(system, cls["answer"])
        return self._call(method, self._c(campaign_id, path), model, body or None, key=key or uuid4().hex)

    def act(self, campaign_id: UUID, actor: Seat, unit_id: UUID, payload: Mapping[str, Any],
            key: str | None = None) -> Any:
        body = {k: v for k, v in dict(payload).items() if v is not None}
        return self._call("POST", self._c(campaign_id, f"/challenges/{unit_id}/actions"), self._unit(campaign_id), body,
                          key=key or uuid4().hex)

    def read(self, campaign_id: UUID, actor: Seat, name: str, page: Any = None) -> Any:
        found = next((r for r in catalogue.load()["reads"] if r["name"] == name), None)
        if found is None:
            raise NotFound(f"there is no read {name!r}")
        params = {k: v for k, v in (("after", page.after), ("limit", page.limit)) if v is not None} if page else None
        return self._call("GET", self._c(campaign_id, found["path"]), catalogue.model(found["model"]),
                          params=params)  # another system's: the server says why

    def _unit(self, campaign_id: UUID) -> Any:
        return _answer(self._system(campaign_id), "unit")

    def _sheet(self, campaign_id: UUID) -> Any:
        return _answer(self._system(campaign_id), "sheet")

    # -- seats and campaigns ------------------------------------------------
    def session(self) -> schemas.Session:
        return self._call("GET", "/session", schemas.Session)

    def create_campaign(self, name: str, system: str, settings: dict[str, Any] | None = None,
                        key: str | None = None) -> schemas.CampaignCreated:
        return self._call("POST", "/campaigns", schemas.CampaignCreated,
                          {"name": name, "system": system, "settings": settings or {}}, key=key or uuid4().hex)

    def campaign(self, campaign_id: UUID, actor: Seat) -> schemas.CampaignView:
        return self._call("GET", self._c(campaign_id), schemas.CampaignView)

    def reissue_token(self, campaign_id: UUID, actor: Seat, seat: str) -> schemas.PlayerAdded:
        return self._call("POST", self._c(campaign_id, f"/players/{_q(seat)}/token"),
                          _answer(self._system(campaign_id), "player-added"), key=uuid4().hex)  # applied once

    def sheet(self, campaign_id: UUID, actor: Seat, seat: str | None = None) -> Any:
        return self._call("GET", self._c(campaign_id, f"/characters/{_q(seat or actor.name)}"),
                          self._sheet(campaign_id))

    def sheets(self, campaign_id: UUID, actor: Seat) -> Any:
        return self._call("GET", self._c(campaign_id, "/characters"), list[self._sheet(campaign_id)])  # type: ignore[misc]

    def log(self, campaign_id: UUID, actor: Seat, after: int = 0, limit: int = 100) -> schemas.EventLog:
        return self._call("GET", self._c(campaign_id, "/log"), schemas.EventLog, params={"after": after, "limit": limit})

    def chart(self, campaign_id: UUID, actor: Seat, limit: int = 200) -> Any:
        from adapters.chart import CampaignChart

        return self._call("GET", self._c(campaign_id, "/chart"), CampaignChart, params={"points": limit})

    def luck(self, campaign_id: UUID, actor: Seat) -> Any:
        from adapters.luck import LuckReport

        return self._call("GET", self._c(campaign_id, "/luck"), LuckReport)

    # -- units of resolution -----------------------------------------------------------------------------
    def challenges(self, campaign_id: UUID, actor: Seat, after: int = 0, limit: int = 100,
                   open_only: bool = False) -> list[schemas.ChallengeSummary]:
        params = {"after": after, "limit": limit, **({"open": "true"} if open_only else {})}
        return self._call("GET", self._c(campaign_id, "/challenges"), list[schemas.ChallengeSummary], params=params)

    def challenge(self, campaign_id: UUID, actor: Seat, challenge_id: UUID) -> Any:
        return self._call("GET", self._c(campaign_id, f"/challenges/{challenge_id}"), self._unit(campaign_id))

    def waiting_for(self, campaign_id: UUID, actor: Seat, challenge_id: UUID) -> schemas.Waiting:
        return self._call("GET", self._c(campaign_id, f"/challenges/{challenge_id}/waiting"), schemas.Waiting)

    def verify_challenge(self, campaign_id: UUID, actor: Seat, challenge_id: UUID) -> schemas.Verification:
        return self._call("GET", self._c(campaign_id, f"/challenges/{challenge_id}/verify"), schemas.Verification)

    def replay(self, campaign_id: UUID, actor: Seat, challenge_id: UUID, step: int | None = None) -> schemas.Replay:
        return self._call("GET", self._c(campaign_id, f"/challenges/{challenge_id}/replay"), schemas.Replay,
                          params={"step": step} if step else None)

    # -- audit, export, import ---------------------------------------------------------------
    def audit(self, campaign_id: UUID, actor: Seat, progress: Any = None) -> schemas.AuditReport:
        return self._call("GET", self._c(campaign_id, "/audit"), schemas.AuditReport)

    def checkpoint(self, campaign_id: UUID, actor: Seat | None) -> schemas.Checkpoint:
        return self._call("GET", self._c(campaign_id, "/audit/checkpoint"), schemas.Checkpoint)

    def consistency(self, campaign_id: UUID, actor: Seat | None, first: int,
                    second: int | None = None) -> schemas.Consistency:
        return self._call("GET", self._c(campaign_id, "/audit/consistency"), schemas.Consistency,
                          params={"from": first, **({"second": second} if second is not None else {})})

    def public_key(self) -> schemas.PublicKey:
        return self._call("GET", "/audit/public-key", schemas.PublicKey)

    def export_campaign(self, campaign_id: UUID, actor: Seat, progress: Any = None) -> Iterator[str]:
        lines = self._call("GET", self._c(campaign_id, "/export"), str, raw=True)
        return iter(lines.splitlines())

    def import_campaign(self, lines: Iterable[str], progress: Any = None,
                        operator_token: str | None = None) -> schemas.ImportReport:
        return self._call("POST", "/imports", schemas.ImportReport, content="\n".join(lines).encode(),
                          auth=operator_token or "")

    def claim(self, code: str) -> schemas.SeatClaimed:
        return self._call("POST", "/invites", schemas.SeatClaimed, {"code": code}, auth="")
