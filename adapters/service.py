"""The service both entrypoints call: commands go to the application, reads to projections.

``Stakes`` wires the event-sourced application to the read models. A command
arrives as its verb and raw inputs (``run``) or as a move in a unit of
resolution (``act``); the campaign's rule system decides which command class
validates it. After the command the projection catches up, so the caller
reads its own write, and the command's declared answer is read from the rows.
Reads catch up first too, so a second process sharing the store (the CLI next
to a server) never reads stale rows. A read never replays history: it selects
rows. Nothing here names a rule system: it asks the registry and each system's
adapter module (``adapters/systems/``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any
from uuid import UUID

from pydantic import BaseModel

from adapters import answers, archive, ledger, randomness, schemas
from adapters.plugin import Read
from adapters.projection import ProjectionRunner, StoreUnavailable
from adapters.settings import Settings
from adapters.store import open_application, open_views, prepare
from adapters.systems import edge, edges
from adapters.tokens import Tokens
from adapters.views import ViewsMixin
from domain.errors import NotFound, NotPermitted, RuleViolation
from domain.kernel.commands import Command, Context
from domain.seats import Seat

__all__ = ["Stakes", "StoreUnavailable"]


class Stakes:
    def __init__(self, settings: Settings | None = None) -> None:
        self.settings = settings or Settings()
        prepare(self.settings)
        self.app = open_application(self.settings)
        self.views: ViewsMixin = open_views(self.settings)
        self.views.transcoder = self.app.mapper.transcoder  # type: ignore[attr-defined]  # unit snapshots
        self.projection = ProjectionRunner(self.app, self.views)
        self.tokens = Tokens(self.views)

    def close(self) -> None:
        self.app.close()
        self.views.factory.close()  # type: ignore[attr-defined]

    # -- projection ---------------------------------------------------------
    def catch_up(self, progress: Callable[[int, int], None] | None = None) -> int:
        return self.projection.catch_up(progress)

    def rebuild(self, progress: Callable[[int, int], None] | None = None) -> schemas.RebuildReport:
        """Empty every read model and project the whole log again."""
        events = self.projection.rebuild(progress)
        return schemas.RebuildReport(events=events, position=self.projection.position())

    def health(self) -> dict[str, Any]:
        """Whether the store answers, and how far the log and the read models are."""
        try:
            log = self.app.recorder.max_notification_id() or 0
            return {"status": "ok", "store": "up", "log": log, "projected": self.projection.position()}
        except Exception as exc:  # noqa: BLE001  any store error means the store is down for this answer
            return {"status": "unavailable", "store": "down", "detail": str(exc).splitlines()[0] if str(exc) else
                    type(exc).__name__}

    # -- seats --------------------------------------------------------------
    def authenticate(self, token: str) -> tuple[UUID, Seat] | None:
        return self.tokens.authenticate(token)

    def viewer(self, campaign_id: UUID, viewer: Seat) -> schemas.CampaignView:
        """The campaign, once the viewer is known to hold a seat in it."""
        self.catch_up()
        campaign = self.campaign_row(campaign_id)
        if not viewer.is_house and viewer.name not in {p.seat for p in campaign.players}:
            raise NotPermitted(f"{viewer.name!r} has no seat in this campaign")
        return campaign

    def reissue_token(self, campaign_id: UUID, actor: Seat, seat: str) -> schemas.PlayerAdded:
        """A new token for a player who lost his; the old one stops working."""
        if not actor.is_house:
            raise NotPermitted("only the House may issue seat tokens")
        campaign = self.viewer(campaign_id, actor)
        handle = Seat.parse(seat).name
        return schemas.PlayerAdded(sheet=self.any_sheet(campaign, handle), token=self.tokens.issue(campaign_id, handle))

    # -- campaigns ----------------------------------------------------------
    def create_campaign(self, name: str, system: str, settings: Mapping[str, Any] | None = None,
                        key: str | None = None) -> schemas.CampaignCreated:
        campaign_id = self.app.create_campaign(name, system, settings, key=key)
        self.catch_up()
        token = self.tokens.issue(campaign_id, "house")  # a retried creation gets a fresh House token
        return schemas.CampaignCreated(campaign=self.campaign_row(campaign_id), house_token=token)

    def campaign_row(self, campaign_id: UUID) -> schemas.CampaignView:
        row = self.views.query_one("SELECT * FROM {p}campaigns WHERE campaign_id = ?", (campaign_id.hex,))
        if row is None:
            raise NotFound(f"no campaign {campaign_id}")
        players = edge(row["system"]).players(self.views, campaign_id)
        return schemas.CampaignView(
            id=UUID(row["campaign_id"]), name=row["name"], system=row["system"],
            settings=json.loads(row["settings"]), created_at=row["created_at"], adventure=row["adventure"],
            adventure_running=bool(row["adventure_running"]),
            players=[schemas.SeatRef(seat=p["seat"], character=p["name"]) for p in players],
        )

    def campaign(self, campaign_id: UUID, viewer: Seat) -> schemas.CampaignView:
        return self.viewer(campaign_id, viewer)

    def campaigns(self) -> list[schemas.CampaignView]:
        """Every campaign in this store (embedded use only: whoever holds the file holds every seat)."""
        self.catch_up()
        rows = self.views.query("SELECT campaign_id FROM {p}campaigns ORDER BY created_at")
        return [self.campaign_row(UUID(r["campaign_id"])) for r in rows]

    # -- commands -------------------------------------------------------------
    def command_class(self, campaign_id: UUID, verb: str) -> type[Command]:
        return self.app.command_class(campaign_id, verb)

    def run(self, campaign_id: UUID, actor: Seat, verb: str, payload: Mapping[str, Any] | None = None,
            key: str | None = None) -> Any:
        """Run a campaign command by its verb with raw inputs; answers with the command's declared read.
        A ``key`` (the client's ``Idempotency-Key``) makes a retry answer without running it again."""
        cls = self.command_class(campaign_id, verb)
        inputs = {k: v for k, v in dict(payload or {}).items() if v is not None}  # null is an input left out
        for name in cls.actor_fields:
            inputs[name] = inputs.get(name) or actor.name
        command = self.app.parse(campaign_id, verb, inputs)
        ctx = Context(campaign_id, actor, randomness.new_secret_seed() if cls.draws_secret else None, key)  # C-4
        result = self.app.execute(ctx, command)
        self.catch_up()
        return answers.answer(self, ctx, command, result)

    def act(self, campaign_id: UUID, actor: Seat, unit_id: UUID, payload: Mapping[str, Any],
            key: str | None = None) -> BaseModel:
        """One move in a unit of resolution (a challenge, a roll, a contest …), as ``{"action": …, …}``."""
        self.app.act(Context(campaign_id, actor, key=key), unit_id, payload)
        self.catch_up()
        return self.unit_view(campaign_id, unit_id, actor)

    # -- sheets -------------------------------------------------------------
    def any_sheet(self, campaign: schemas.CampaignView, seat: str) -> BaseModel:
        return edge(campaign.system).sheet(self, campaign.id, seat)

    def sheet(self, campaign_id: UUID, viewer: Seat, seat: str | None = None) -> BaseModel:
        campaign = self.viewer(campaign_id, viewer)
        whose = Seat.parse(seat) if seat else viewer
        if whose.is_house:
            raise NotFound("the House has no character sheet; name a player")
        return self.any_sheet(campaign, whose.name)

    def sheets(self, campaign_id: UUID, viewer: Seat) -> list[BaseModel]:
        campaign = self.viewer(campaign_id, viewer)
        return [self.any_sheet(campaign, p.seat) for p in campaign.players]

    # -- a system's own reads (the House budget, the debt register …) ---------------------------
    def reads(self, campaign_id: UUID) -> dict[str, Read]:
        return {r.name: r for r in edge(self.campaign_row(campaign_id).system).READS}

    def read(self, campaign_id: UUID, viewer: Seat, name: str) -> Any:
        campaign = self.viewer(campaign_id, viewer)
        found = self.reads(campaign_id).get(name)
        if found is None:  # C-1: each system keeps its own books
            other = next((r for e in edges() for r in e.READS if r.name == name), None)
            label = other.label if other else name
            raise RuleViolation(f"a {campaign.system} campaign keeps no {label}", ruling="C-1")
        return found.read(self, campaign_id, viewer)

    # -- units of resolution (C-1) ---------------------------------------------------------------
    def load_unit(self, campaign_id: UUID, unit_id: UUID) -> Any:
        unit = self.views.load_challenge(unit_id)
        if unit is None or unit.campaign_id != campaign_id:
            raise NotFound(f"no challenge {unit_id} in this campaign")
        return unit

    def unit_view(self, campaign_id: UUID, unit_id: UUID, viewer: Seat) -> BaseModel:
        campaign = self.campaign_row(campaign_id)
        return edge(campaign.system).unit_view(self, campaign_id, self.load_unit(campaign_id, unit_id), viewer)

    def challenge(self, campaign_id: UUID, viewer: Seat, challenge_id: UUID) -> BaseModel:
        self.viewer(campaign_id, viewer)
        return self.unit_view(campaign_id, challenge_id, viewer)

    def challenges(self, campaign_id: UUID, viewer: Seat) -> list[schemas.ChallengeSummary]:
        self.viewer(campaign_id, viewer)
        rows = self.views.query("SELECT challenge_id FROM {p}challenges WHERE campaign_id = ?"
                                " ORDER BY announced_at, challenge_id", (campaign_id.hex,))
        out = []
        for row in rows:
            ch = self.load_unit(campaign_id, UUID(row["challenge_id"]))
            sides = [s.get("members") or s["seats"] for s in ch.sides.values()]
            out.append(schemas.ChallengeSummary(
                id=ch.id, kind=type(ch).__name__, phase=ch.phase, announced_at=ch.created_on,
                ante=getattr(ch, "ante", 0), pot=getattr(ch, "pot", 0), challenger=sides[0],
                opponent=sides[1] if len(sides) > 1 else []))
        return out

    def verify_challenge(self, campaign_id: UUID, viewer: Seat, challenge_id: UUID) -> schemas.Verification:
        """Recompute every server-drawn result from the revealed seeds (C-4)."""
        self.viewer(campaign_id, viewer)
        return schemas.Verification(challenge_id=challenge_id, **self.load_unit(campaign_id, challenge_id).verify())

    # -- the ledger (C-2, C-5, C-6) ---------------------------------------------------------------
    def log(self, campaign_id: UUID, viewer: Seat, after: int = 0, limit: int = 100) -> schemas.EventLog:
        return ledger.log(self, campaign_id, viewer, after, limit)

    def replay(self, campaign_id: UUID, viewer: Seat, challenge_id: UUID, step: int | None = None) -> schemas.Replay:
        return ledger.replay(self, campaign_id, viewer, challenge_id, step)

    def audit(self, campaign_id: UUID, viewer: Seat,
              progress: Callable[[int, int], None] | None = None) -> schemas.AuditReport:
        return archive.audit(self, campaign_id, viewer, progress)

    def export_campaign(self, campaign_id: UUID, actor: Seat,
                        progress: Callable[[int, int], None] | None = None) -> Iterator[str]:
        return archive.export_campaign(self, campaign_id, actor, progress)

    def import_campaign(self, lines: Iterable[str],
                        progress: Callable[[int, int], None] | None = None) -> schemas.ImportReport:
        return archive.import_campaign(self, lines, progress)

