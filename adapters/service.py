"""The service both entrypoints call: commands go to the application, reads to projections.

``Stakes`` wires the event-sourced application to the read models. After each
command it catches the projection up, so the client that issued the command
reads its own write; reads also catch up first, so a second process sharing
the store (the CLI next to a server) never reads stale rows. A read never
replays history: it selects rows.
"""

from __future__ import annotations

import copy
import json
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar
from uuid import UUID

from eventsourcing.persistence import IntegrityError, OperationalError, StoredEvent

from adapters import audit, randomness, schemas
from adapters.settings import Settings
from adapters.store import open_application, open_views, prepare
from adapters.views import RESOLUTIONS, ViewsMixin, censor, event_detail, event_visibility
from domain.errors import NotFound, NotPermitted, RuleViolation
from domain.seats import Seat

T = TypeVar("T")
BATCH = 500
CONFLICTS = 50


class StoreUnavailable(Exception):
    """The event store or the read models cannot be reached or written (HTTP 503, CLI exit 9)."""


class Stakes:
    def __init__(self, settings: Settings | None = None) -> None:
        self.settings = settings or Settings()
        prepare(self.settings)
        self.app = open_application(self.settings)
        self.views: ViewsMixin = open_views(self.settings)
        self.views.transcoder = self.app.mapper.transcoder  # type: ignore[attr-defined]  # challenge snapshots
        self._lock = threading.Lock()

    def close(self) -> None:
        self.app.close()
        self.views.factory.close()  # type: ignore[attr-defined]

    # -- projection ---------------------------------------------------------
    def catch_up(self, progress: Callable[[int, int], None] | None = None) -> int:
        """Apply every event not yet projected; returns how many were applied."""
        applied, conflicts = 0, 0
        with self._lock:
            while True:
                start = (self.views.max_tracking_id(self.app.name) or 0) + 1
                notes = self.app.recorder.select_notifications(start=start, limit=BATCH)
                if not notes:
                    return applied
                batch = [(self.app.mapper.to_domain_event(n), n) for n in notes]
                try:
                    self.views.project(self.app.name, batch)
                except (IntegrityError, OperationalError) as exc:
                    conflicts += 1  # another process projected these first; read the position again
                    if conflicts > CONFLICTS:
                        raise StoreUnavailable(f"the read models cannot catch up: {exc}") from exc
                    time.sleep(0.01 * conflicts)
                    continue
                applied += len(batch)
                if progress:
                    progress(applied, self.app.recorder.max_notification_id() or applied)

    def rebuild(self, progress: Callable[[int, int], None] | None = None) -> schemas.RebuildReport:
        """Empty every read model and project the whole log again."""
        with self._lock:
            self.views.reset(self.app.name)
        events = self.catch_up(progress)
        return schemas.RebuildReport(events=events, position=self.views.max_tracking_id(self.app.name) or 0)

    def _command(self, run: Callable[[], T]) -> T:
        result = run()
        self.catch_up()
        return result

    # -- seats --------------------------------------------------------------
    def _issue_token(self, campaign_id: UUID, seat: str) -> str:
        token = randomness.new_token()
        self.views.store_token(token, campaign_id, seat)
        return token

    def authenticate(self, token: str) -> tuple[UUID, Seat] | None:
        found = self.views.seat_for_token(token)
        return (found[0], Seat(found[1])) if found else None

    def _viewer(self, campaign_id: UUID, viewer: Seat) -> schemas.CampaignView:
        self.catch_up()
        campaign = self._campaign_row(campaign_id)
        if not viewer.is_house and viewer.name not in {p.seat for p in campaign.players}:
            raise NotPermitted(f"{viewer.name!r} has no seat in this campaign")
        return campaign

    # -- campaigns ----------------------------------------------------------
    def create_campaign(self, name: str, system: str, settings: dict[str, Any] | None = None) -> schemas.CampaignCreated:
        campaign_id = self._command(lambda: self.app.create_campaign(name, system, settings))
        token = self._issue_token(campaign_id, "house")
        return schemas.CampaignCreated(campaign=self._campaign_row(campaign_id), house_token=token)

    def _campaign_row(self, campaign_id: UUID) -> schemas.CampaignView:
        row = self.views.query_one("SELECT * FROM {p}campaigns WHERE campaign_id = ?", (campaign_id.hex,))
        if row is None:
            raise NotFound(f"no campaign {campaign_id}")
        players = self.views.query(
            "SELECT seat, name, joined_at FROM {p}characters WHERE campaign_id = ? UNION ALL"
            " SELECT seat, name, joined_at FROM {p}pool_characters WHERE campaign_id = ? ORDER BY joined_at, seat",
            (campaign_id.hex, campaign_id.hex))
        return schemas.CampaignView(
            id=UUID(row["campaign_id"]), name=row["name"], system=row["system"],
            settings=json.loads(row["settings"]), created_at=row["created_at"], adventure=row["adventure"],
            adventure_running=bool(row["adventure_running"]),
            players=[schemas.SeatRef(seat=p["seat"], character=p["name"]) for p in players],
        )

    def campaign(self, campaign_id: UUID, viewer: Seat) -> schemas.CampaignView:
        return self._viewer(campaign_id, viewer)

    def campaigns(self) -> list[schemas.CampaignView]:
        """Every campaign in this store (embedded use only: whoever holds the file holds every seat)."""
        self.catch_up()
        rows = self.views.query("SELECT campaign_id FROM {p}campaigns ORDER BY created_at")
        return [self._campaign_row(UUID(r["campaign_id"])) for r in rows]

    def add_player(
        self, campaign_id: UUID, actor: Seat, seat: str, character: str, characteristic: str | None = None,
        description: str | None = None, traits: dict[str, int] | None = None,
    ) -> schemas.PlayerAdded:
        self._command(lambda: self.app.add_player(campaign_id, actor, seat, character, characteristic, description,
                                                   traits))
        handle = Seat.parse(seat).name
        sheet = self._any_sheet(self._campaign_row(campaign_id), handle)
        return schemas.PlayerAdded(sheet=sheet, token=self._issue_token(campaign_id, handle))

    def reissue_token(self, campaign_id: UUID, actor: Seat, seat: str) -> schemas.PlayerAdded:
        """A new token for a player who lost his; the old one stops working."""
        if not actor.is_house:
            raise NotPermitted("only the House may issue seat tokens")
        self._viewer(campaign_id, actor)
        handle = Seat.parse(seat).name
        sheet = self._any_sheet(self._campaign_row(campaign_id), handle)
        return schemas.PlayerAdded(sheet=sheet, token=self._issue_token(campaign_id, handle))

    # -- sheets -------------------------------------------------------------
    def _loan_lines(self, where: str, params: tuple[Any, ...]) -> list[schemas.LoanLine]:
        rows = self.views.query(f"SELECT * FROM {{p}}loans WHERE {where} ORDER BY offered_at, loan_id", params)
        return [schemas.LoanLine(**{k: r[k] for k in schemas.LoanLine.model_fields}) for r in rows]

    def _sheet(self, campaign_id: UUID, seat: str) -> schemas.Sheet:
        row = self.views.query_one(
            "SELECT * FROM {p}characters WHERE campaign_id = ? AND seat = ?", (campaign_id.hex, seat)
        )
        if row is None:
            raise NotFound(f"no player named {seat!r} sits in this campaign")
        traits = self.views.query(
            "SELECT name, cost, acquired_at FROM {p}characteristics WHERE character_id = ? ORDER BY position",
            (row["character_id"],),
        )
        cid = campaign_id.hex
        outstanding = "status IN ('active', 'defaulted')"
        return schemas.Sheet(
            seat=row["seat"], name=row["name"], pile=row["pile"], in_play=row["in_play"], spent=row["spent"],
            characteristics=[schemas.Characteristic(**t) for t in traits],
            owes=self._loan_lines(f"campaign_id = ? AND borrower = ? AND {outstanding}", (cid, seat)),
            owed=self._loan_lines(f"campaign_id = ? AND lender = ? AND {outstanding}", (cid, seat)),
            offers=self._loan_lines("campaign_id = ? AND status = 'offered' AND (lender = ? OR borrower = ?)",
                                    (cid, seat, seat)),
        )

    def sheet(self, campaign_id: UUID, viewer: Seat, seat: str | None = None) -> schemas.Sheet | schemas.PoolSheet:
        campaign = self._viewer(campaign_id, viewer)
        whose = Seat.parse(seat) if seat else viewer
        if whose.is_house:
            raise NotFound("the House has no character sheet; name a player")
        return self._any_sheet(campaign, whose.name)

    def _any_sheet(self, campaign: schemas.CampaignView, seat: str) -> schemas.Sheet | schemas.PoolSheet:
        return self._pool_sheet(campaign.id, seat) if campaign.system == "pool" else self._sheet(campaign.id, seat)

    def sheets(self, campaign_id: UUID, viewer: Seat) -> list[schemas.Sheet | schemas.PoolSheet]:
        campaign = self._viewer(campaign_id, viewer)
        return [self._any_sheet(campaign, p.seat) for p in campaign.players]

    def _economy(self, campaign_id: UUID, viewer: Seat, what: str) -> schemas.CampaignView:
        campaign = self._viewer(campaign_id, viewer)
        if campaign.system != "penny-ante":
            raise RuleViolation(f"a {campaign.system} campaign keeps no {what}: that is Penny Ante's economy",
                                ruling="C-1")
        return campaign

    def buy_characteristic(self, campaign_id: UUID, actor: Seat, seat: str | None, name: str) -> schemas.Sheet:
        seat = Seat.parse(seat).name if seat else actor.name
        self._command(lambda: self.app.buy_characteristic(campaign_id, actor, seat, name))
        return self._sheet(campaign_id, seat)

    # -- adventures and the House budget -------------------------------------
    def start_adventure(self, campaign_id: UUID, actor: Seat, amount: int | None = None,
                        note: str | None = None) -> schemas.HouseBudget | schemas.CampaignView:
        """Penny Ante answers with the House budget; a system without one (the Pool) with the campaign."""
        self._command(lambda: self.app.start_adventure(campaign_id, actor, amount, note))
        return self._after_adventure(campaign_id, actor)

    def end_adventure(self, campaign_id: UUID, actor: Seat) -> schemas.HouseBudget | schemas.CampaignView:
        self._command(lambda: self.app.end_adventure(campaign_id, actor))
        return self._after_adventure(campaign_id, actor)

    def _after_adventure(self, campaign_id: UUID, actor: Seat) -> schemas.HouseBudget | schemas.CampaignView:
        campaign = self._campaign_row(campaign_id)
        return self.budget(campaign_id, actor) if campaign.system == "penny-ante" else campaign

    def _antagonists(self, campaign_id: UUID, viewer: Seat, name: str | None = None) -> list[schemas.Antagonist]:
        rows = self.views.query(
            "SELECT * FROM {p}antagonists WHERE campaign_id = ? ORDER BY created_at, name", (campaign_id.hex,)
        )
        found = [
            schemas.Antagonist(
                name=r["name"], kind=r["kind"], pennies=r["pennies"], in_play=r["in_play"], winnings=r["winnings"],
                characteristics=json.loads(r["characteristics"]) if viewer.is_house else None,
            )
            for r in rows
            if name is None or r["name"].casefold() == " ".join(name.split()).casefold()
        ]
        if name is not None and not found:
            raise NotFound(f"the House has no antagonist or obstacle named {name!r}")
        return found

    def antagonists(self, campaign_id: UUID, viewer: Seat) -> list[schemas.Antagonist]:
        self._economy(campaign_id, viewer, "antagonists' purses")
        return self._antagonists(campaign_id, viewer)

    def create_antagonist(
        self, campaign_id: UUID, actor: Seat, name: str, kind: str = "antagonist", characteristics: list[str] | None = None
    ) -> schemas.Antagonist:
        created = self._command(lambda: self.app.create_antagonist(campaign_id, actor, name, kind, characteristics))
        return self._antagonists(campaign_id, actor, created)[0]

    def add_antagonist_characteristic(self, campaign_id: UUID, actor: Seat, antagonist: str, name: str) -> schemas.Antagonist:
        self._command(lambda: self.app.add_antagonist_characteristic(campaign_id, actor, antagonist, name))
        return self._antagonists(campaign_id, actor, antagonist)[0]

    def fund_antagonist(self, campaign_id: UUID, actor: Seat, antagonist: str, amount: int) -> schemas.Antagonist:
        self._command(lambda: self.app.fund_antagonist(campaign_id, actor, antagonist, amount))
        return self._antagonists(campaign_id, actor, antagonist)[0]

    def budget(self, campaign_id: UUID, viewer: Seat) -> schemas.HouseBudget:
        campaign = self._economy(campaign_id, viewer, "House budget")
        cid = campaign_id.hex
        allocations: dict[int, list[schemas.Allocation]] = {}
        for a in self.views.query("SELECT * FROM {p}allocations WHERE campaign_id = ? ORDER BY position", (cid,)):
            allocations.setdefault(a["adventure"], []).append(
                schemas.Allocation(antagonist=a["antagonist"], amount=a["amount"], at=a["at"]))
        adventures = [
            schemas.AdventureBudget(**{k: r[k] for k in schemas.AdventureBudget.model_fields if k != "allocations"},
                                    allocations=allocations.get(r["number"], []))
            for r in self.views.query("SELECT * FROM {p}adventures WHERE campaign_id = ? ORDER BY number", (cid,))
        ]
        current = adventures[-1].pile if adventures and campaign.adventure_running else 0
        return schemas.HouseBudget(
            campaign_id=campaign_id, adventure=campaign.adventure, adventure_running=campaign.adventure_running,
            pile=current, antagonists=self._antagonists(campaign_id, viewer), adventures=adventures,
        )

    # -- loans (PA-14) ------------------------------------------------------
    def _loan_view(self, campaign_id: UUID, loan_id: UUID) -> schemas.Loan:
        return self._loans(campaign_id, loan_id)[0]

    def _loans(self, campaign_id: UUID, loan_id: UUID | None = None) -> list[schemas.Loan]:
        where, params = "campaign_id = ?", [campaign_id.hex]
        if loan_id is not None:
            where, params = where + " AND loan_id = ?", [*params, loan_id.hex]
        rows = self.views.query(f"SELECT * FROM {{p}}loans WHERE {where} ORDER BY offered_at, loan_id", params)
        if loan_id is not None and not rows:
            raise NotFound(f"no loan {loan_id} in this campaign")
        history: dict[str, list[schemas.LoanEvent]] = {}
        ids = [r["loan_id"] for r in rows]
        if ids:
            marks = ", ".join("?" for _ in ids)
            for h in self.views.query(
                f"SELECT * FROM {{p}}loan_history WHERE loan_id IN ({marks}) ORDER BY loan_id, version", ids
            ):
                history.setdefault(h["loan_id"], []).append(
                    schemas.LoanEvent(at=h["at"], actor=h["actor"], what=h["what"], amount=h["amount"], note=h["note"]))
        return [schemas.Loan(**r, history=history.get(r["loan_id"], [])) for r in rows]

    def debts(self, campaign_id: UUID, viewer: Seat) -> schemas.DebtRegister:
        self._economy(campaign_id, viewer, "debt register")
        return schemas.DebtRegister(campaign_id=campaign_id, loans=self._loans(campaign_id))

    def offer_loan(self, campaign_id: UUID, actor: Seat, borrower: str, amount: int) -> schemas.Loan:
        loan_id = self._command(lambda: self.app.offer_loan(campaign_id, actor, borrower, amount))
        return self._loan_view(campaign_id, loan_id)

    def _on_loan(self, method: Callable[..., None], campaign_id: UUID, actor: Seat, loan_id: UUID, *args: Any) -> schemas.Loan:
        self._command(lambda: method(campaign_id, actor, loan_id, *args))
        return self._loan_view(campaign_id, loan_id)

    def accept_loan(self, campaign_id: UUID, actor: Seat, loan_id: UUID) -> schemas.Loan:
        return self._on_loan(self.app.accept_loan, campaign_id, actor, loan_id)

    def decline_loan(self, campaign_id: UUID, actor: Seat, loan_id: UUID) -> schemas.Loan:
        return self._on_loan(self.app.decline_loan, campaign_id, actor, loan_id)

    def withdraw_loan(self, campaign_id: UUID, actor: Seat, loan_id: UUID) -> schemas.Loan:
        return self._on_loan(self.app.withdraw_loan, campaign_id, actor, loan_id)

    def repay_loan(self, campaign_id: UUID, actor: Seat, loan_id: UUID, amount: int) -> schemas.Loan:
        return self._on_loan(self.app.repay_loan, campaign_id, actor, loan_id, amount)

    def forgive_loan(self, campaign_id: UUID, actor: Seat, loan_id: UUID) -> schemas.Loan:
        return self._on_loan(self.app.forgive_loan, campaign_id, actor, loan_id)

    def record_consequence(self, campaign_id: UUID, actor: Seat, loan_id: UUID, note: str) -> schemas.Loan:
        return self._on_loan(self.app.record_consequence, campaign_id, actor, loan_id, note)

    # -- the event log ------------------------------------------------------
    def log(self, campaign_id: UUID, viewer: Seat, after: int = 0, limit: int = 100) -> schemas.EventLog:
        """Who did what and when, censored for the viewer (C-5)."""
        self._viewer(campaign_id, viewer)
        limit, after = max(1, min(limit, 1000)), max(0, min(after, 2**62))
        rows = self.views.query(
            "SELECT l.*, c.revealed, c.phase FROM {p}event_log l LEFT JOIN {p}challenges c"
            " ON c.challenge_id = l.challenge_id"
            " WHERE l.campaign_id = ? AND l.notification_id > ? ORDER BY l.notification_id LIMIT ?",
            (campaign_id.hex, after, limit + 1),
        )
        entries = [entry for r in rows[:limit] if (entry := self._log_entry(r, viewer)) is not None]
        next_after = rows[limit - 1]["notification_id"] if len(rows) > limit else None
        return schemas.EventLog(campaign_id=campaign_id, entries=entries, next_after=next_after)

    @staticmethod
    def _log_entry(row: dict[str, Any], viewer: Seat) -> schemas.LogEntry | None:
        """One log entry censored for the viewer (C-5); a revealed challenge is public."""
        seen = censor(json.loads(row["detail"]), json.loads(row["visibility"]), viewer.name,
                      bool(row.get("revealed")), row.get("phase") == "settled")
        if seen is None:
            return None
        detail, hidden = seen
        return schemas.LogEntry(position=row["notification_id"], at=row["at"], actor=row["actor"],
                                stream=row["stream"], event=row["event"], detail=detail, hidden=hidden)

    # -- challenges (PA-5 … PA-18) ------------------------------------------------------------
    def announce_challenge(
        self, campaign_id: UUID, actor: Seat, challenger: dict[str, Any], opponent: dict[str, Any], ante: int,
        stake: int | None = None, table: bool = False, circumstance: str | None = None,
    ) -> schemas.ChallengeView:
        secret = randomness.new_secret_seed()  # drawn here, recorded in the event (C-4)
        challenge_id = self._command(lambda: self.app.announce_challenge(
            campaign_id, actor, challenger, opponent, ante, secret, stake=stake, table=table,
            circumstance=circumstance))
        return self._challenge_view(campaign_id, challenge_id, actor)

    def challenge_action(self, campaign_id: UUID, actor: Seat, challenge_id: UUID, action: str,
                         args: dict[str, Any] | None = None) -> schemas.ChallengeView | schemas.ResolutionView:
        """One move in a challenge, a Pool roll or a Pool contest."""
        self._command(lambda: self.app.act(campaign_id, actor, challenge_id, action, args))
        return self._challenge_view(campaign_id, challenge_id, actor)

    def challenge(self, campaign_id: UUID, viewer: Seat,
                  challenge_id: UUID) -> schemas.ChallengeView | schemas.ResolutionView:
        self._viewer(campaign_id, viewer)
        return self._challenge_view(campaign_id, challenge_id, viewer)

    def challenges(self, campaign_id: UUID, viewer: Seat) -> list[schemas.ChallengeSummary]:
        self._viewer(campaign_id, viewer)
        rows = self.views.query("SELECT challenge_id FROM {p}challenges WHERE campaign_id = ?"
                                " ORDER BY announced_at, challenge_id", (campaign_id.hex,))
        out = []
        for row in rows:
            ch = self._load_challenge(campaign_id, UUID(row["challenge_id"]))
            sides = [s.get("members") or s["seats"] for s in ch.sides.values()]
            out.append(schemas.ChallengeSummary(
                id=ch.id, kind=type(ch).__name__, phase=ch.phase, announced_at=ch.created_on,
                ante=getattr(ch, "ante", 0), pot=getattr(ch, "pot", 0), challenger=sides[0],
                opponent=sides[1] if len(sides) > 1 else []))
        return out

    def verify_challenge(self, campaign_id: UUID, viewer: Seat, challenge_id: UUID) -> schemas.Verification:
        """Recompute every server-rolled die from the revealed seeds (C-4)."""
        self._viewer(campaign_id, viewer)
        return schemas.Verification(challenge_id=challenge_id,
                                    **self._load_challenge(campaign_id, challenge_id).verify())

    def _load_challenge(self, campaign_id: UUID, challenge_id: UUID) -> Any:
        challenge = self.views.load_challenge(challenge_id)
        if challenge is None or challenge.campaign_id != campaign_id:
            raise NotFound(f"no challenge {challenge_id} in this campaign")
        return challenge

    def _challenge_view(self, campaign_id: UUID, challenge_id: UUID,
                        viewer: Seat) -> schemas.ChallengeView | schemas.ResolutionView:
        ch = self._load_challenge(campaign_id, challenge_id)
        cid = campaign_id.hex
        if not hasattr(ch, "ante"):  # a Pool roll or contest
            row = self.views.query_one("SELECT pool FROM {p}pool_characters WHERE campaign_id = ? AND seat = ?",
                                       (cid, viewer.name))
            return schemas.ResolutionView(
                id=ch.id, campaign_id=campaign_id, kind=type(ch).__name__, phase=ch.phase,
                state=ch.view_for(viewer.name), legal_actions=ch.legal_actions(viewer.name, row["pool"] if row else 0))
        piles = {r["seat"]: r["pile"] for r in self.views.query(
            "SELECT seat, pile FROM {p}characters WHERE campaign_id = ?", (cid,))}
        lists: dict[str, list[str]] = {}
        for r in self.views.query("SELECT name, pennies, characteristics FROM {p}antagonists WHERE campaign_id = ?",
                                  (cid,)):
            piles[r["name"]] = r["pennies"]
            lists[r["name"]] = json.loads(r["characteristics"])
        for r in self.views.query("SELECT ch.seat, c.name FROM {p}characteristics c JOIN {p}characters ch"
                                  " ON ch.character_id = c.character_id WHERE ch.campaign_id = ?"
                                  " ORDER BY c.position", (cid,)):
            lists.setdefault(r["seat"], []).append(r["name"])
        mine = ch.side_of(viewer.name)
        side_lists = {}
        if mine is not None:  # only a side's own seats see what it may still name (C-5)
            side_lists[mine] = [n for m in ch.sides[mine]["members"] for n in lists.get(m, [])]
        house_pile = self.budget(campaign_id, Seat.house()).pile if viewer.is_house else 0
        seat_pile = house_pile if viewer.is_house else piles.get(viewer.name, 0)
        legal = ch.legal_actions(viewer.name, piles, seat_pile, side_lists)
        return schemas.ChallengeView(id=ch.id, campaign_id=campaign_id, legal_actions=legal, **ch.view_for(viewer.name))

    # -- C-2, C-6: replay and undo ---------------------------------------------------------------
    def replay(self, campaign_id: UUID, viewer: Seat, challenge_id: UUID, step: int | None = None) -> schemas.Replay:
        """Every step of one challenge, as the viewer may see it. Reads that challenge's events only."""
        self._viewer(campaign_id, viewer)
        events = [self.app.mapper.to_domain_event(s) for s in self.app.recorder.select_events(challenge_id)]
        if not events or type(events[0]).__qualname__.split(".")[0] not in RESOLUTIONS \
                or events[0].campaign_id != campaign_id:
            raise NotFound(f"no challenge {challenge_id} in this campaign")
        final = None
        for e in events:
            final = e.mutate(final)
        reveal, settled = final.revealed, final.settled
        steps: list[schemas.ReplayStep] = []
        state, before = None, {}
        for e in events:
            state = e.mutate(state)
            view = copy.deepcopy(state.view_for(viewer.name, reveal=reveal, settled=settled))
            seen = censor(event_detail(e), event_visibility(e, state), viewer.name, reveal, settled)
            detail, hidden = seen if seen is not None else ({}, ["*"])
            steps.append(schemas.ReplayStep(
                step=e.originator_version, event=type(e).__qualname__.split(".")[1], actor=e.actor, at=e.timestamp,
                detail=detail, hidden=hidden, changes=sorted(k for k in view if view[k] != before.get(k)),
                state=view))
            before = view
        if step is not None:
            if not 1 <= step <= len(steps):
                raise NotFound(f"this challenge has steps 1 to {len(steps)}, not {step}")
            steps = [steps[step - 1]]
        return schemas.Replay(challenge_id=challenge_id, revealed=reveal, total=len(events), steps=steps)

    def rewind_challenge(self, campaign_id: UUID, actor: Seat, challenge_id: UUID, to_step: int,
                         reason: str) -> schemas.ChallengeView | schemas.ResolutionView:
        self._command(lambda: self.app.rewind(campaign_id, actor, challenge_id, to_step, reason))
        return self._challenge_view(campaign_id, challenge_id, actor)

    def overturn_challenge(self, campaign_id: UUID, actor: Seat, challenge_id: UUID, winner: str | None,
                           void: bool, reason: str) -> schemas.ChallengeView | schemas.ResolutionView:
        self._command(lambda: self.app.overturn(campaign_id, actor, challenge_id, winner, void, reason))
        return self._challenge_view(campaign_id, challenge_id, actor)

    # -- C-2: audit, export and import ------------------------------------------------------------
    def audit(self, campaign_id: UUID, viewer: Seat,
              progress: Callable[[int, int], None] | None = None) -> schemas.AuditReport:
        """Recompute the campaign's hash chain from the stored events; name the first broken link."""
        self._viewer(campaign_id, viewer)
        rows = self.views.chain_rows(campaign_id)
        previous, first = audit.GENESIS, None
        for i, row in enumerate(rows, 1):
            first = first or self._check_link(row, previous)
            previous = row["chain"]
            if progress:
                progress(i, len(rows))
        first = first or self._unchained(campaign_id, rows)
        return schemas.AuditReport(campaign_id=campaign_id, events=len(rows), head=previous,
                                   intact=first is None, first_broken=first)

    def _unchained(self, campaign_id: UUID, rows: list[dict[str, Any]]) -> dict[str, Any] | None:
        """Events of the campaign's streams that the chain does not hold: inserted in the database, or the
        chain's own last links deleted."""
        chained = {(r["originator_id"], r["originator_version"]) for r in rows}
        for stream in self.views.query("SELECT originator_id FROM {p}streams WHERE campaign_id = ?",
                                       (campaign_id.hex,)):
            for stored in self.app.recorder.select_events(UUID(stream["originator_id"])):
                if (stored.originator_id.hex, stored.originator_version) not in chained:
                    return audit.broken(len(rows) + 1, None, "unchained",
                                        f"event {stored.originator_id} v{stored.originator_version} is not in the chain")
        return None

    def _check_link(self, row: dict[str, Any], previous: str) -> dict[str, Any] | None:
        position, nid = row["position"], row["notification_id"]
        notes = self.app.recorder.select_notifications(start=nid, limit=1)
        note = notes[0] if notes and notes[0].id == nid else None
        if note is None or (note.originator_id.hex, note.originator_version) != (row["originator_id"],
                                                                                row["originator_version"]):
            moved = self.app.recorder.select_events(UUID(row["originator_id"]), gt=row["originator_version"] - 1,
                                                    lte=row["originator_version"])
            kind = "reordered" if moved or note is not None else "deleted"
            return audit.broken(position, nid, kind, f"event {row['originator_id']} v{row['originator_version']} "
                                                     f"is not where the chain put it")
        try:
            found = audit.digest(note.originator_id, note.originator_version, note.topic, bytes(note.state))
        except (TypeError, ValueError):
            return audit.broken(position, nid, "altered", "the stored event is no longer bytes")
        if found != row["digest"]:
            return audit.broken(position, nid, "altered", "the stored event no longer matches its digest")
        if audit.link(previous, found) != row["chain"]:
            return audit.broken(position, nid, "chain-altered", "the chain itself was changed")
        return None

    def export_campaign(self, campaign_id: UUID, actor: Seat,
                        progress: Callable[[int, int], None] | None = None) -> Iterator[str]:
        """The whole campaign log as JSON Lines: a header, then every event with its digest and chain link.
        Hidden values are in it (it is the House's record), tokens never are."""
        if not actor.is_house:
            raise NotPermitted("only the House exports a campaign: the export holds every hidden value",
                               ruling="C-2")
        if self.views.query_one("SELECT 1 AS x FROM {p}challenges WHERE campaign_id = ? AND phase <> 'settled'",
                                (campaign_id.hex,)):
            raise RuleViolation("a challenge, roll or contest is still open: its secret seed and hidden dice "
                                "stay hidden until it is settled, so the campaign is exported after", ruling="C-5")
        report = self.audit(campaign_id, actor)
        if not report.intact:
            raise RuleViolation(f"the log was tampered with ({report.first_broken.kind} at event "  # type: ignore[union-attr]
                                f"{report.first_broken.position}); run 'stakes audit verify'", ruling="C-2")  # type: ignore[union-attr]
        rows = self.views.chain_rows(campaign_id)
        head = rows[-1]["chain"] if rows else audit.GENESIS
        yield json.dumps({"format": audit.FORMAT, "version": audit.FORMAT_VERSION, "campaign_id": campaign_id.hex,
                          "events": len(rows), "head": head})
        for i, row in enumerate(rows, 1):
            (stored,) = self.app.recorder.select_events(UUID(row["originator_id"]), gt=row["originator_version"] - 1,
                                                        lte=row["originator_version"])
            yield json.dumps({"position": row["position"], "originator_id": row["originator_id"],
                              "originator_version": row["originator_version"], "topic": stored.topic,
                              "state": stored.state.decode(), "digest": row["digest"], "chain": row["chain"]})
            if progress:
                progress(i, len(rows))

    def import_campaign(self, lines: Iterable[str],
                        progress: Callable[[int, int], None] | None = None) -> schemas.ImportReport:
        """Load an exported campaign into this store, verifying its chain on the way in; new tokens are issued."""
        header, events = self._read_export(lines)
        campaign_id = UUID(header["campaign_id"])
        previous = audit.GENESIS
        stored = []
        streams: dict[str, int] = {}
        for i, line in enumerate(events, 1):
            state = line["state"].encode()
            d = audit.digest(line["originator_id"], line["originator_version"], line["topic"], state)
            previous = audit.link(previous, d)
            if line.get("position") != i or d != line["digest"] or previous != line["chain"]:
                raise RuleViolation(f"the export's chain breaks at event {i}; nothing was imported", ruling="C-2")
            if not line["topic"].startswith("domain."):
                raise RuleViolation(f"event {i} has a topic from outside Stakes; nothing was imported", ruling="C-2")
            self._belongs(i, line, state, campaign_id, streams)
            stored.append(StoredEvent(originator_id=UUID(line["originator_id"]),
                                      originator_version=line["originator_version"], topic=line["topic"], state=state))
            if progress:
                progress(i, len(events))
        self._replayable(stored)
        if previous != header["head"] or len(events) != header["events"]:
            raise RuleViolation("the export is incomplete: its head does not match its events", ruling="C-2")
        if self.views.query_one("SELECT 1 AS x FROM {p}campaigns WHERE campaign_id = ?", (campaign_id.hex,)) \
                or self.views.query_one("SELECT 1 AS x FROM {p}audit_chain WHERE campaign_id = ?", (campaign_id.hex,)):
            raise RuleViolation(f"this store already holds campaign {campaign_id}", ruling="C-2")
        try:
            self.app.recorder.insert_events(stored)
        except IntegrityError:
            raise RuleViolation(f"this store already holds events of campaign {campaign_id}", ruling="C-2") from None
        self.catch_up()
        seats = ["house", *(p.seat for p in self._campaign_row(campaign_id).players)]
        tokens = {seat: self._issue_token(campaign_id, seat) for seat in seats}
        return schemas.ImportReport(campaign_id=campaign_id, events=len(stored), head=previous, tokens=tokens)

    def _replayable(self, stored: list[StoredEvent]) -> None:
        """Rebuild every aggregate of the export in memory first: an event that does not apply never
        reaches the store (C-2)."""
        streams: dict[Any, Any] = {}
        for i, event in enumerate(stored, 1):
            try:
                domain_event = self.app.mapper.to_domain_event(event)
                streams[event.originator_id] = domain_event.mutate(streams.get(event.originator_id))
                if not hasattr(domain_event, "actor"):
                    raise ValueError("no acting seat")
            except Exception as exc:
                raise RuleViolation(f"event {i} of the export does not apply ({type(exc).__name__}); "
                                    "nothing was imported", ruling="C-2") from None

    def _belongs(self, i: int, line: dict[str, Any], state: bytes, campaign_id: UUID, streams: dict[str, int]) -> None:
        """Every event of an export belongs to its campaign: each stream starts in the file, with the
        campaign's id, and its versions follow one another (C-2). Nothing reaches another campaign."""
        stream, version = UUID(str(line["originator_id"])).hex, line["originator_version"]
        if version == 1:
            try:
                fields = self.app.mapper.transcoder.decode(state)
            except Exception:
                raise RuleViolation(f"event {i} of the export is not readable", ruling="C-2") from None
            owner = stream if line["topic"].startswith("domain.campaign:") else fields.get("campaign_id")
            owner = owner.hex if isinstance(owner, UUID) else str(owner)
            if owner != campaign_id.hex or (i == 1) != line["topic"].startswith("domain.campaign:"):
                raise RuleViolation(f"event {i} does not belong to campaign {campaign_id}", ruling="C-2")
        elif streams.get(stream) != version - 1:
            raise RuleViolation(f"event {i} continues a stream the export did not start", ruling="C-2")
        streams[stream] = version

    @staticmethod
    def _read_export(lines: Iterable[str]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        records = []
        for number, text in enumerate(lines, 1):
            if not text.strip():
                continue
            try:
                record = json.loads(text)
            except ValueError:
                raise RuleViolation(f"line {number} of the export is not JSON", ruling="C-2") from None
            if not isinstance(record, dict):
                raise RuleViolation(f"line {number} of the export is not an object", ruling="C-2")
            records.append(record)
        if not records or records[0].get("format") != audit.FORMAT or records[0].get("version") != audit.FORMAT_VERSION:
            raise RuleViolation("this is not a Stakes export (format stakes-export, version 1)", ruling="C-2")
        header, events = records[0], records[1:]
        if not (isinstance(header.get("campaign_id"), str) and isinstance(header.get("head"), str)
                and isinstance(header.get("events"), int) and not isinstance(header.get("events"), bool)):
            raise RuleViolation("the export's header needs campaign_id, head and events", ruling="C-2")
        try:
            UUID(header["campaign_id"])
        except ValueError:
            raise RuleViolation("the export's campaign_id is not an id", ruling="C-2") from None
        types = {"position": int, "originator_id": str, "originator_version": int, "topic": str, "state": str,
                 "digest": str, "chain": str}
        for i, event in enumerate(events, 1):
            for field, kind in types.items():
                value = event.get(field)
                if not isinstance(value, kind) or isinstance(value, bool):
                    raise RuleViolation(f"event {i} of the export has no proper {field}", ruling="C-2")
            try:
                UUID(event["originator_id"])
            except ValueError:
                raise RuleViolation(f"event {i} of the export has a malformed id", ruling="C-2") from None
        return header, events

    # -- the Pool (PL-1 … PL-8) -----------------------------------------------------------------------
    def _pool_sheet(self, campaign_id: UUID, seat: str) -> schemas.PoolSheet:
        row = self.views.query_one("SELECT * FROM {p}pool_characters WHERE campaign_id = ? AND seat = ?",
                                   (campaign_id.hex, seat))
        if row is None:
            raise NotFound(f"no player named {seat!r} sits in this campaign")
        oid = row["character_id"]
        traits = {t["name"]: t["rating"] for t in self.views.query(
            "SELECT name, rating FROM {p}pool_traits WHERE character_id = ? ORDER BY name", (oid,))}
        moves = {m["name"]: m["cost"] for m in self.views.query(
            "SELECT name, cost FROM {p}pool_moves WHERE character_id = ? ORDER BY name", (oid,))}
        rolls = [schemas.PoolRollLine(**{**r, "dice": json.loads(r["dice"])}) for r in self.views.query(
            "SELECT * FROM {p}pool_rolls WHERE campaign_id = ? AND seat = ? ORDER BY position DESC LIMIT 50",
            (campaign_id.hex, seat))]
        return schemas.PoolSheet(seat=seat, name=row["name"], description=row["description"], pool=row["pool"],
                                 traits=traits, moves=moves, rolls=rolls)

    def raise_trait(self, campaign_id: UUID, actor: Seat, seat: str | None, name: str,
                    new: bool | None = None) -> schemas.PoolSheet:
        self._command(lambda: self.app.raise_trait(campaign_id, actor, seat, name, new))
        return self._pool_sheet(campaign_id, Seat.parse(seat).name if seat else actor.name)

    def cash_in_trait(self, campaign_id: UUID, actor: Seat, seat: str | None, name: str) -> schemas.PoolSheet:
        self._command(lambda: self.app.cash_in_trait(campaign_id, actor, seat, name))
        return self._pool_sheet(campaign_id, Seat.parse(seat).name if seat else actor.name)

    def buy_move(self, campaign_id: UUID, actor: Seat, seat: str | None, name: str, cost: int) -> schemas.PoolSheet:
        self._command(lambda: self.app.buy_move(campaign_id, actor, seat, name, cost))
        return self._pool_sheet(campaign_id, Seat.parse(seat).name if seat else actor.name)

    def offer_help(self, campaign_id: UUID, actor: Seat, to: str, dice: int) -> schemas.PoolSheet:
        self._command(lambda: self.app.offer_help(campaign_id, actor, to, dice))
        return self._pool_sheet(campaign_id, actor.name)

    def pool_roll(self, campaign_id: UUID, actor: Seat, count: int, trait: str | None = None,
                  helper: str | None = None, seed: str | None = None,
                  dice: list[int] | None = None) -> schemas.ChallengeView | schemas.ResolutionView:
        secret = randomness.new_secret_seed()  # drawn here, recorded in the event (C-4)
        roll_id = self._command(lambda: self.app.pool_roll(campaign_id, actor, count, secret, trait=trait,
                                                           helper=helper, seed=seed, dice=dice))
        return self._challenge_view(campaign_id, roll_id, actor)

    def open_contest(self, campaign_id: UUID, actor: Seat,
                     opponent: str) -> schemas.ChallengeView | schemas.ResolutionView:
        secret = randomness.new_secret_seed()
        contest_id = self._command(lambda: self.app.open_contest(campaign_id, actor, opponent, secret))
        return self._challenge_view(campaign_id, contest_id, actor)
