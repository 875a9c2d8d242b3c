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
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from datetime import timedelta
from functools import partial
from typing import Any
from uuid import UUID

from pydantic import BaseModel

from adapters import answers, archive, audit, forked, heads, imports, ledger, randomness, readcheck, schemas, table
from adapters import chart as campaign_chart
from adapters import luck as luck_report
from adapters.fanout import Fanout
from adapters.grouped import Job, Leader
from adapters.plugin import Page, Read
from adapters.projection import NeedsRepair, ProjectionRunner, StoreUnavailable, collector_paused
from adapters.settings import Settings
from adapters.store import open_application, open_signer, open_views, prepare
from adapters.systems import edge, edges
from adapters.tokens import Tokens
from adapters.views import ViewsMixin, now
from domain.errors import ConcurrencyConflict, NotFound, NotPermitted, RuleViolation, StakesError
from domain.kernel.commands import Command, Context
from domain.kernel.registry import system_of_unit
from domain.seats import Seat

__all__ = ["NeedsRepair", "Stakes", "StoreUnavailable"]


#: How long a campaign's creation or a reissue, sent again under its Idempotency-Key, is answered (a creation
#: never with its House token since issue 29, ADR 0028); later it is refused 409 (C-1).
RETRY_WINDOW = timedelta(minutes=10)
#: What a creation sent again under its Idempotency-Key answers in place of the House token (issue 29, ADR 0028).
LOST_HOUSE_TOKEN = ("This Idempotency-Key already created this campaign, and its House token was answered to that "
                    "request only; it is never answered again (whoever else learnt the key gets no seat). No one "
                    "can hand the House seat out again, not even the operator: if that first answer was lost, "
                    "the campaign is still empty, so create a new one with a new key.")


#: The columns of a unit's summary row (``Stakes.challenges``): the shared ones, and ``summary``, the system's
#: own figures (``Projection.summarises``, issue 30).
SUMMARY = "challenge_id, position, kind, sides, phase, announced_at, summary"


def _summary(row: Mapping[str, Any]) -> schemas.ChallengeSummary:
    sides = json.loads(row["sides"])
    return schemas.ChallengeSummary(
        id=UUID(row["challenge_id"]), position=row["position"], kind=row["kind"], phase=row["phase"],
        announced_at=row["announced_at"], summary=json.loads(row["summary"]), challenger=sides[0],
        opponent=sides[1] if len(sides) > 1 else [], sides=sides)


class Stakes:
    def __init__(self, settings: Settings | None = None) -> None:
        self.settings = settings or Settings()
        with prepare(self.settings):  # tables created one process at a time
            self.signer = open_signer(self.settings)
            self.app = open_application(self.settings, self.signer)
            self.app.recorder.link_legacy()  # type: ignore[attr-defined]  # adapters.chained.ChainMixin  # a store from before the chain was part of the write: linked once
            self.app.recorder.upgrade_chain()  # type: ignore[attr-defined]  # an older release's chain made lean: once
            self.views: ViewsMixin = open_views(self.settings)
        self.views.transcoder = self.app.mapper.transcoder  # type: ignore[attr-defined]  # unit snapshots
        self.app.stored = self.views.hand_in  # a command's units reach its catch-up unbuilt again (issue 30)
        self.views.upgrade(self.app.name)  # rows of an older release's shape are projected anew
        self.projection = ProjectionRunner(self.app, self.views)
        self.tokens = Tokens(self.views, self.signer)
        self.fanout = Fanout(self.settings)  # wakes the open streams (issue 14, ADR 0014)
        #: Commands stored in groups (issue 32, ADR 0042); None: each alone (``Settings.group_commit``).
        #: Each campaign's head as this thread's last write left it, taken (``ChainMixin.written``).
        self._written: Callable[[], dict[str, tuple[int, bytes]]] = self.app.recorder.written  # type: ignore[attr-defined]
        self.leader = Leader(self.app, self.catch_up, self._alone, self.views.handing_in, self._written) \
            if self.settings.group_commit else None
        self._answered = threading.local()  # per thread: the heads its last command's write left (``written_head``)
        #: Whether the read models have reached the log once since this process started (``health``).
        self.ready = False

    def close(self) -> None:
        self.fanout.close()
        self.app.close()
        self.views.factory.close()  # type: ignore[attr-defined]

    # -- projection ---------------------------------------------------------
    def catch_up(self, progress: Callable[[int, int], None] | None = None) -> int:
        applied = self.projection.catch_up(progress)
        self.ready = True
        if applied:
            self.fanout.published(self.views.touched())
        return applied

    def rebuild(self, progress: Callable[[int, int], None] | None = None) -> schemas.RebuildReport:
        """Empty every read model and project the whole log again."""
        events = self.projection.rebuild(progress)
        return schemas.RebuildReport(events=events, position=self.projection.position())

    def health(self) -> dict[str, Any]:
        """Whether the store answers, which kind it is, and whether the read models have reached the log since
        this process started. No log position (issue 29, ADR 0028): the store's event count moves with every
        campaign's commands, so anyone polling it would watch other campaigns' activity."""
        try:
            self.app.recorder.max_notification_id()  # the store answers
            return {"status": "ok", "store": "up", "kind": self.settings.store,
                    "read_models": "ready" if self.ready else "catching up"}
        except Exception as exc:
            return {"status": "unavailable", "store": "down", "kind": self.settings.store,
                    "detail": str(exc).splitlines()[0] if str(exc) else type(exc).__name__}

    # -- seats --------------------------------------------------------------
    def authenticate(self, token: str) -> tuple[UUID, Seat] | None:
        return self.tokens.authenticate(token)

    # -- web sessions (issue 29): the browser's cookie holds one, never the seat token --------------------
    def open_session(self, campaign_id: UUID, seat: Seat) -> tuple[str, float]:
        """A web sign-in for a seat already authenticated: its session id and expiry (epoch seconds). The seat
        keeps at most ``Settings.web_sessions_per_seat`` live sessions (issue 29, ADR 0028): the oldest ends as a
        sign-out ends it, its open streams told at once."""
        session, expires, ended = self.tokens.open_session(campaign_id, seat.name, self.settings.web_session_seconds,
                                                           self.settings.web_sessions_per_seat)
        if ended:
            self.fanout.revoked()
        return session, expires

    def session(self, session: str) -> tuple[UUID, Seat, float] | None:
        """The seat a live web session stands for, and when it ends; None once signed out or expired."""
        return self.tokens.session(session)

    def sign_out(self, session: str) -> None:
        """The session stops working at once; its open streams end (``Fanout.revoked``)."""
        if self.tokens.close_session(session):
            self.fanout.revoked()

    def viewer(self, campaign_id: UUID, viewer: Seat) -> schemas.CampaignView:
        """The campaign, once the viewer is known to hold a seat in it. Inside an answer's reads (one
        connection, already caught up before they began) no second catch-up waits for another connection."""
        if not self.views.in_reading():
            self.catch_up()
        campaign = self.campaign_row(campaign_id)
        if not viewer.is_house and viewer.name not in {p.seat for p in campaign.players}:
            raise NotPermitted(f"{viewer.name!r} has no seat in this campaign")
        return campaign

    def invite_claimed(self, campaign_id: UUID, viewer: Seat, seat: str) -> bool:
        """The House asks whether the invite it handed out for ``seat`` was claimed (the web's invite card, C-1)."""
        if not viewer.is_house:
            raise NotPermitted("only the House hands seats out")
        return self.tokens.invite_claimed(campaign_id, seat)

    def reissue_token(self, campaign_id: UUID, actor: Seat, seat: str, key: str | None = None) -> schemas.PlayerAdded:
        """Hand a seat out again (a lost token): the old token and every web session signed in with it
        (issue 29) stop working at once, the player sees a
        ``SeatReissued`` event, and the answer is a new one-time invite code (never the token itself).

        Exactly once under ``key`` (the client's Idempotency-Key, issue 29, ADR 0028): the reissue is a command
        with its record, scoped like every command's to the campaign and the House seat, so only this
        campaign's House can replay it. A replay (a retry, or a request racing the first under the same key)
        answers the same code (derived from the key under the server's secret) and finishes what the stored
        reissue left undone (``Tokens.finish_reissue``): a first run that failed after its write still revokes
        the old token and stores the code, while a player who claimed that code meanwhile keeps his seat and the
        code answered again seats nobody (it is spent, C-1). Past ``RETRY_WINDOW`` a replay is refused 409."""
        if not actor.is_house:
            raise NotPermitted("only the House may hand a seat out again")
        campaign = self.viewer(campaign_id, actor)
        handle = Seat.parse(seat).name
        replayed, at = self.app.reissue_seat(campaign_id, handle, actor.name, key)
        if replayed and now() - at > RETRY_WINDOW:
            raise ConcurrencyConflict(f"this Idempotency-Key handed the seat out again more than "
                                      f"{RETRY_WINDOW.seconds // 60} minutes ago; send a new key for a new invite")
        self.catch_up()
        code = randomness.new_invite() if key is None else self.tokens.reissue_code(campaign_id, handle, key)
        self.tokens.finish_reissue(campaign_id, handle, code, at)
        self.fanout.revoked()  # issue 29: the old holder's open streams check their credential again
        return schemas.PlayerAdded(sheet=self.any_sheet(campaign.id, handle), invite=code)

    def claim(self, code: str) -> schemas.SeatClaimed:
        """A player claims his seat with the House's one-time invite code; his token is shown to him once."""
        campaign_id, seat, token = self.tokens.claim(code)
        self.fanout.revoked()  # issue 29: the claim ended any web session of the seat's previous holder
        return schemas.SeatClaimed(campaign_id=campaign_id, seat=seat, token=token, system=self.system_id(campaign_id))

    def invitation(self, code: str) -> schemas.Invitation:
        """Whose seat an invite code opens, before it is claimed: the campaign's name and the character's (names,
        not handles). Nothing is spent; the code holder learns only what claiming it would show (C-1)."""
        refused = NotPermitted("this invite code is unknown or already claimed: ask the House for a new one "
                               "(each code seats its player once)", ruling="C-1")
        found = self.tokens.invited(code)
        if found is None:
            raise refused
        try:
            campaign = self.campaign_row(found[0])
        except StakesError:  # a campaign set aside for repair: answered as any code it cannot say (C-1)
            raise refused from None
        return schemas.Invitation(campaign=campaign.name, character=campaign.names().get(found[1], found[1]))

    # -- campaigns ----------------------------------------------------------
    def create_campaign(self, name: str, system: str, settings: Mapping[str, Any] | None = None,
                        key: str | None = None) -> schemas.CampaignCreated:
        if key is not None:
            # The key is the creating client's secret (issue 29): whoever sends it within the retry window is
            # answered the House token. So it is never stored as sent: the command's record (which the log, the
            # leaves and the export show) holds only a digest of it under the server's key, from which nobody
            # can work the key back, and sending the digest as a key derives another digest.
            key = self.signer.token(f"creation key\n{key}").replace("stk_", "key_", 1)
        campaign_id, replayed = self.app.create_campaign_once(name, system, settings, key=key,
                                                              secret=randomness.new_secret_seed())  # C-10
        self.catch_up()
        campaign = self.campaign_row(campaign_id)
        # issue 29 (ADR 0028): the House token is answered once, to the request that created the campaign (C-1),
        # and stored only where the campaign has none yet. A creation sent again under its key (a lost answer,
        # or anyone else who learnt the key) answers the same campaign without it, and says what to do.
        if replayed and now() - campaign.created_at > RETRY_WINDOW:
            # past the window of a lost answer the key answers nothing of the campaign at all
            raise ConcurrencyConflict(f"this Idempotency-Key created a campaign more than "
                                      f"{RETRY_WINDOW.seconds // 60} minutes ago; send a new key for a new campaign")
        token = None if replayed else self.tokens.issue_first(campaign_id, "house")
        if token is None:
            return schemas.CampaignCreated(campaign=campaign, house_token=None, note=LOST_HOUSE_TOKEN)
        return schemas.CampaignCreated(campaign=campaign, house_token=token)

    def usable(self, campaign_id: UUID) -> None:
        """Refuse a campaign marked for repair (one of its events could not be projected); others go on."""
        broken = self.views.query_one("SELECT notification_id FROM {p}repairs WHERE campaign_id = ?",
                                      (campaign_id.hex,))
        if broken is not None:
            raise NeedsRepair(f"campaign {campaign_id} needs repair: its event {broken['notification_id']} could not "
                              "be applied to the read models; the operator repairs it (then 'stakes rebuild')",
                              ruling="C-2")

    def campaign_row(self, campaign_id: UUID) -> schemas.CampaignView:
        self.usable(campaign_id)
        row = self.views.query_one("SELECT * FROM {p}campaigns WHERE campaign_id = ?", (campaign_id.hex,))
        if row is None:
            raise NotFound(f"no campaign {campaign_id}")
        players = edge(row["system"]).players(self.views, campaign_id)
        return schemas.CampaignView(
            id=UUID(row["campaign_id"]), name=row["name"], system=row["system"],
            settings=json.loads(row["settings"]), created_at=row["created_at"], adventure=row["adventure"],
            adventure_running=bool(row["adventure_running"]),
            players=[schemas.SeatRef(seat=p["seat"], character=p["name"],
                                     character_id=UUID(str(p["character_id"])) if p.get("character_id") else None)
                     for p in players],
        )

    def system_id(self, campaign_id: UUID) -> str:
        """The campaign's rule system, remembered by the application (it never changes, C-1)."""
        return self.app.system_of(campaign_id).id

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
        self.usable(campaign_id)
        cls = self.command_class(campaign_id, verb)
        inputs = {k: v for k, v in dict(payload or {}).items() if v is not None}  # null is an input left out
        for name in cls.actor_fields:
            inputs[name] = inputs.get(name) or actor.name
        command = self.app.parse(campaign_id, verb, inputs)
        ctx = Context(campaign_id, actor, randomness.new_secret_seed() if cls.draws_secret else None, key)  # C-4
        # some answers write (an invite): no ``reading``
        return self._command(lambda: self.app.execute(ctx, command),
                             lambda result: answers.answer(self, ctx, command, result))

    def act(self, campaign_id: UUID, actor: Seat, unit_id: UUID, payload: Mapping[str, Any],
            key: str | None = None) -> BaseModel:
        """One move in a unit of resolution (a challenge, a roll, a contest …), as ``{"action": …, …}``."""
        self.usable(campaign_id)

        def answer(_: Any) -> BaseModel:
            with self.views.reading():  # the unit as this catch-up left it in memory: not decoded again (issue 30)
                return self.unit_view(campaign_id, unit_id, actor, self.views.projected(unit_id))

        return self._command(lambda: self.app.act(Context(campaign_id, actor, key=key), unit_id, payload), answer)

    def _command(self, decide: Callable[[], Any], answer: Callable[[Any], Any]) -> Any:
        """A command decided in the domain, then answered from the read models once stored and projected: in a
        group with the commands arriving with it (issue 32, ``adapters/grouped.py``), or alone."""
        job = Job(decide, answer)
        self._answered.heads = None
        answered = self.leader.submit(job) if self.leader is not None else self._alone(job)
        self._answered.heads = job.heads
        return answered

    def _alone(self, job: Job) -> Any:
        with self.app.in_group(None), self._one_pass():
            self._written()  # what an earlier write of this thread left untaken
            decided = job.decide()
            job.heads = self._written()
            self.catch_up()
            return job.answer(decided)

    def written_head(self, campaign_id: UUID) -> tuple[int, bytes] | None:
        """The campaign's head (size, Merkle root) as the write that stored this thread's last command left it,
        computed in that write's transaction (C-2); None if that write did not touch the campaign."""
        heads = getattr(self._answered, "heads", None)
        return heads.get(campaign_id.hex) if heads else None

    @contextmanager
    def _one_pass(self) -> Iterator[None]:
        """A command, its catch-up and its answer as one scope (issue 30, item 7): the aggregates the command
        takes stay out of the cache until its answer is built, so the projection and the answer read the
        writer's unit itself (``ViewsMixin.handing_in``) and no other thread's command changes it meanwhile."""
        with self.app.taking(), self.views.handing_in():
            yield

    # -- sheets -------------------------------------------------------------
    def any_sheet(self, campaign_id: UUID, seat: str) -> BaseModel:
        """A seat's sheet as the campaign's system draws it (no seat check: callers have made it)."""
        with self.views.reading():
            return edge(self.system_id(campaign_id)).sheet(self, campaign_id, seat)

    def sheet(self, campaign_id: UUID, viewer: Seat, seat: str | None = None) -> BaseModel:
        campaign = self.viewer(campaign_id, viewer)
        whose = Seat.parse(seat) if seat else viewer
        if whose.is_house:
            raise NotFound("the House has no character sheet; name a player")
        return self.any_sheet(campaign.id, whose.name)

    def sheets(self, campaign_id: UUID, viewer: Seat) -> list[BaseModel]:
        campaign = self.viewer(campaign_id, viewer)
        return [self.any_sheet(campaign.id, p.seat) for p in campaign.players]

    # -- a system's own reads (the House budget, the debt register …) ---------------------------
    def reads(self, campaign_id: UUID) -> dict[str, Read]:
        return {r.name: r for r in edge(self.campaign_row(campaign_id).system).READS}

    def read(self, campaign_id: UUID, viewer: Seat, name: str, page: Page | None = None) -> Any:
        campaign = self.viewer(campaign_id, viewer)
        found = self.reads(campaign_id).get(name)
        if found is None:  # C-1: each system keeps its own books
            other = next((r for e in edges() for r in e.READS if r.name == name), None)
            label = other.label if other else name
            raise RuleViolation(f"a {campaign.system} campaign keeps no {label}", ruling="C-1")
        with self.views.reading():
            if found.paged:  # a list that grows with the campaign comes a page at a time
                return found.read(self, campaign_id, viewer, page or Page())
            return found.read(self, campaign_id, viewer)

    # -- units of resolution (C-1) ---------------------------------------------------------------
    def load_unit(self, campaign_id: UUID, unit_id: UUID) -> Any:
        unit = self.views.load_challenge(unit_id)
        if unit is None or unit.campaign_id != campaign_id:
            raise NotFound(f"no challenge {unit_id} in this campaign")
        return unit

    def last_rewind(self, campaign_id: UUID, viewer: Seat, unit_id: UUID) -> schemas.LogEntry | None:
        """The unit's latest rewind (C-6: who undid it, back to which step, why, when), as the viewer reads the
        log's entry (censored as ``log`` is, C-5), or None: what a table's frame tells every seat."""
        return ledger.last_entry(self, campaign_id, viewer, unit_id, "Rewound")

    def overturn_winners(self, campaign_id: UUID, viewer: Seat, unit_id: UUID) -> tuple[str, ...] | None:
        """C-6, for the House's rulings: None when the unit may not be overturned now, else the sides an overturn
        may name as its new winner (none: it is only voided), from the unit's own checks (``RuleSystem``)."""
        self.viewer(campaign_id, viewer)
        if not viewer.is_house:
            return None
        unit = self.load_unit(campaign_id, unit_id)
        return system_of_unit(unit).overturn_winners(unit)

    def unit_view(self, campaign_id: UUID, unit_id: UUID, viewer: Seat, unit: Any = None) -> BaseModel:
        """The unit as ``viewer`` sees it, with who the table waits for. Callers have checked the campaign
        (``viewer``, or ``usable`` before a command); ``unit``, when given, is the unit as the projection just
        left it in memory (``ViewsMixin.projected``), else it is read from its row.

        One pass (issue 30): the viewer's view is built once, and ``waiting_for`` asks every other seat of the
        unit only for its moves (the system's ``legal_actions``; a full view only for a system without it)."""
        if unit is None or unit.campaign_id != campaign_id:
            unit = self.load_unit(campaign_id, unit_id)
        rules = system_of_unit(unit)
        system = edge(rules.id)
        view = system.unit_view(self, campaign_id, unit, viewer)
        moves = getattr(system, "legal_actions", None)

        def action_class(name: str) -> type[Command] | None:
            try:
                return rules.move(unit, name)
            except RuleViolation:
                return None

        seen: dict[str, list[str]] = {}

        def names_of(seat: str) -> list[str]:
            if seat not in seen:
                if seat == viewer.name:
                    seen[seat] = [a.action for a in view.legal_actions]
                elif moves is not None:
                    seen[seat] = [a["action"] if isinstance(a, Mapping) else a.action
                                  for a in moves(self, campaign_id, unit, Seat.parse(seat))]
                else:
                    seen[seat] = [a.action for a in system.unit_view(self, campaign_id, unit,
                                                                     Seat.parse(seat)).legal_actions]
            return seen[seat]

        def moving(name: str, optional: bool) -> bool:
            if rules.listed_command(unit, name) is not None or name == "abandon":
                return False
            found = action_class(name)
            return optional or found is None or found.awaited

        def may_act(seat: str, optional: bool = False) -> bool:
            """A move of the unit: not an answer to something offered into it (a campaign command its legal
            actions list, issue 31), nor the House's abandon (C-10), always open to it, nor (``optional`` False)
            a move its class calls optional (``Command.awaited``): the table waits for none of them."""
            return any(moving(name, optional) for name in names_of(seat))

        waiting = unit.waiting_for(may_act)
        if not waiting:
            # only optional moves are left, so one of them is how the unit goes on (a choice a rewind binds the
            # House to make again, C-9): the seats that may make one are waited for; never a dead end
            waiting = unit.waiting_for(lambda seat: may_act(seat, optional=True))
        return view.model_copy(update={"waiting_for": waiting,
                                       "legal_actions": schemas.with_choice_fields(view.legal_actions, action_class)})

    def challenge(self, campaign_id: UUID, viewer: Seat, challenge_id: UUID) -> BaseModel:
        self.viewer(campaign_id, viewer)
        with self.views.reading():
            return self.unit_view(campaign_id, challenge_id, viewer)

    def challenges(self, campaign_id: UUID, viewer: Seat, after: int = 0, limit: int = 100,
                   open_only: bool = False) -> list[schemas.ChallengeSummary]:
        """One page of the campaign's units, oldest first, from their summary rows (no snapshot decoded).

        ``after`` is the ``position`` of the last unit of the previous page.
        """
        self.viewer(campaign_id, viewer)
        rows = self.views.query(
            f"SELECT {SUMMARY} FROM {{p}}challenges WHERE campaign_id = ? AND position > ?" +
            (" AND phase <> 'settled'" if open_only else "") + " ORDER BY position LIMIT ?",
            (campaign_id.hex, after, limit))
        return [_summary(row) for row in rows]

    def recent_units(self, campaign_id: UUID, viewer: Seat, limit: int = 30) -> list[schemas.ChallengeSummary]:
        """The campaign's newest ``limit`` units and every unit still open, oldest first: what a page lists
        however long the campaign has run (an index range, flat as it grows)."""
        self.viewer(campaign_id, viewer)
        rows = self.views.query(
            f"SELECT {SUMMARY} FROM {{p}}challenges WHERE campaign_id = ? AND (phase <> 'settled' OR position >="
            " COALESCE((SELECT min(position) FROM (SELECT position FROM {p}challenges WHERE campaign_id = ?"
            " ORDER BY position DESC LIMIT ?) AS newest), 0)) ORDER BY position",
            (campaign_id.hex, campaign_id.hex, limit))
        return [_summary(row) for row in rows]

    def challenge_summary(self, campaign_id: UUID, viewer: Seat, challenge_id: UUID) -> schemas.ChallengeSummary:
        """One unit's summary row (its sides' seats, its phase), as ``challenges`` lists it: what the web frame's
        rulings name the sides by (issue 31)."""
        self.viewer(campaign_id, viewer)
        row = self.views.query_one(f"SELECT {SUMMARY} FROM {{p}}challenges WHERE campaign_id = ? AND challenge_id = ?",
                                   (campaign_id.hex, challenge_id.hex))
        if row is None:
            raise NotFound(f"no challenge {challenge_id} in this campaign")
        return _summary(row)

    def waiting_for(self, campaign_id: UUID, viewer: Seat, unit_id: UUID) -> schemas.Waiting:
        """Who may act in the unit now, and the viewer's own moves, without their limits (issue 14, C-5)."""
        self.viewer(campaign_id, viewer)
        return schemas.Waiting(challenge_id=unit_id, seats=table.waiting_for(self, campaign_id, unit_id, viewer))

    def verify_challenge(self, campaign_id: UUID, viewer: Seat, challenge_id: UUID) -> schemas.Verification:
        """Recompute every server-drawn result from the revealed seeds (C-4)."""
        self.viewer(campaign_id, viewer)
        return schemas.Verification(challenge_id=challenge_id, **self.load_unit(campaign_id, challenge_id).verify())

    def commitments(self, campaign_id: UUID, viewer: Seat) -> schemas.Commitments:
        """Each seat's committed next secret, as its hash (C-10): what a one-shot draw will use. Read from the
        log's rows (public: the secret is hidden there from every seat)."""
        self.viewer(campaign_id, viewer)
        rows = self.views.query("SELECT seq, stream, detail FROM {p}event_log WHERE campaign_id = ?"
                                " AND stream LIKE ? ORDER BY seq", (campaign_id.hex, "SeatSecret:%"))
        seats: dict[str, str] = {}
        latest: dict[str, schemas.Commitment] = {}
        for row in rows:
            detail = json.loads(row["detail"])
            seat = seats.setdefault(row["stream"], detail.get("seat", ""))
            latest[row["stream"]] = schemas.Commitment(seat=seat, nonce=detail["nonce"],
                                                       seed_hash=detail["seed_hash"], position=row["seq"])
        return schemas.Commitments(campaign_id=campaign_id, seats=list(latest.values()))

    # -- the ledger (C-2, C-5, C-6) ---------------------------------------------------------------
    def log(self, campaign_id: UUID, viewer: Seat, after: int = 0, limit: int = 100) -> schemas.EventLog:
        return ledger.log(self, campaign_id, viewer, after, limit)

    def chart(self, campaign_id: UUID, viewer: Seat, limit: int = campaign_chart.DEFAULT_POINTS) -> campaign_chart.CampaignChart:
        """Each character's tracked quantity over the campaign, as the viewer's seat may see it (issue 31)."""
        return campaign_chart.chart(self, campaign_id, viewer, limit)

    def luck(self, campaign_id: UUID, viewer: Seat) -> luck_report.LuckReport:
        """Every public draw per seat and kind against its fair distribution, and the abandoned ones apart."""
        return luck_report.report(self, campaign_id, viewer)

    def replay(self, campaign_id: UUID, viewer: Seat, challenge_id: UUID, step: int | None = None) -> schemas.Replay:
        return ledger.replay(self, campaign_id, viewer, challenge_id, step)

    def audit(self, campaign_id: UUID, viewer: Seat,
              progress: Callable[[int, int], None] | None = None) -> schemas.AuditReport:
        """The chain (C-2), then every projected row of the campaign against what its events project to
        (issue 29, ``adapters/readcheck.py``): the live rows first, then the events, in that order."""
        self.viewer(campaign_id, viewer)
        # the scratch store made in a thread meanwhile, and the chain walk and the snapshots' replay in a forked
        # child beside the projection (ADR 0043); an event stored without a link makes the walk ask the read
        # models, so the walk runs here then
        with collector_paused(), readcheck.scratch_soon(self) as scratch:  # no cycle is made (ADR 0037, 0039)
            position, live = readcheck.read_live(self.views, self.app.name, campaign_id.hex)
            found = self.app.recorder.read_chain(campaign_id.hex)  # type: ignore[attr-defined]  # ChainMixin
            walk = partial(audit.verify, self, campaign_id, None, found)
            chained = walk if found["unlinked"] else forked.beside(walk)
            try:
                differences = readcheck.check(self, campaign_id.hex, position, live, found["linked"], progress,
                                              scratch)
            except Exception:
                report = chained()
                if not report.intact:
                    return report  # the events cannot vouch for any row, nor for what projecting them raised
                raise
            report = chained()
            if not report.intact:
                return report  # the events cannot vouch for any row
            return readcheck.report(report, differences, viewer.is_house)

    def checkpoint(self, campaign_id: UUID, viewer: Seat) -> schemas.Checkpoint:
        """The campaign's signed head (C-2): keep it; later heads must extend it."""
        self.viewer(campaign_id, viewer)
        return heads.current(self, campaign_id)

    def consistency(self, campaign_id: UUID, viewer: Seat, first: int,
                    second: int | None = None) -> schemas.Consistency:
        """RFC 9162 proof that the log of ``second`` events (all of it by default) extends that of ``first``."""
        self.viewer(campaign_id, viewer)
        return heads.consistency(self, campaign_id, first, second)

    def leaves(self, campaign_id: UUID, viewer: Seat) -> schemas.Leaves:
        """The campaign's leaves, opened where the viewer may read the whole event (C-2, C-5)."""
        self.viewer(campaign_id, viewer)
        return heads.leaves(self, campaign_id, viewer)

    def public_key(self) -> schemas.PublicKey:
        return heads.public_key(self)

    def export_campaign(self, campaign_id: UUID, actor: Seat,
                        progress: Callable[[int, int], None] | None = None) -> Iterator[str]:
        return archive.export_campaign(self, campaign_id, actor, progress)

    def import_campaign(self, lines: Iterable[str], progress: Callable[[int, int], None] | None = None,
                        operator_token: str | None = None) -> schemas.ImportReport:
        """Load an export as a new campaign. The edge checks the operator's credential; embedded, whoever
        holds the store is its operator."""
        def issue(campaign_id: UUID, seats: list[str]) -> dict[str, Any]:
            return {"house_token": self.tokens.issue(campaign_id, "house"),
                    "invites": {seat: self.tokens.invite(campaign_id, seat) for seat in seats}}

        return imports.import_campaign(self, lines, issue, progress)

