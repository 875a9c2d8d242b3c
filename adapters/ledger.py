"""The ledger's own reads: the event log, censored per seat (C-2, C-5), and the step-by-step replay of a
unit of resolution (C-2, C-6)."""

from __future__ import annotations

import copy
import json
from typing import Any
from uuid import UUID

from adapters import schemas
from adapters.views import censor, event_detail, event_visibility, unit_kinds
from domain.errors import NotFound, StakesError
from domain.seats import Seat


# -- the event log ------------------------------------------------------
def log(stakes: Any, campaign_id: UUID, viewer: Seat, after: int = 0, limit: int = 100) -> schemas.EventLog:
    """Who did what and when, censored for the viewer (C-5)."""
    stakes.viewer(campaign_id, viewer)
    limit, after = max(1, min(limit, 1000)), max(0, min(after, 2**62))
    rows = _rows(stakes, campaign_id, after, limit + 1)
    entries = [entry for r in rows[:limit] if (entry := _log_entry(r, viewer)) is not None]
    next_after = rows[limit - 1]["seq"] if len(rows) > limit else None
    return schemas.EventLog(campaign_id=campaign_id, entries=entries, next_after=next_after)


def entries_after(stakes: Any, campaign_id: UUID, viewer: Seat, after: int,
                  limit: int = 500) -> tuple[list[schemas.LogEntry], int]:
    """The entries after ``after`` this seat may read, censored as ``log`` does (C-5), and the position
    read up to (entries hidden from the seat are passed over, not sent). The stream's source."""
    rows = _rows(stakes, campaign_id, after, limit)
    entries = [entry for r in rows if (entry := _log_entry(r, viewer)) is not None]
    return entries, rows[-1]["seq"] if rows else after


def last_position(stakes: Any, campaign_id: UUID) -> int:
    """The number of the campaign's last log entry (0: none yet): a page's head, a stream's start."""
    row = stakes.views.query_one("SELECT MAX(seq) AS last FROM {p}event_log WHERE campaign_id = ?",
                                 (campaign_id.hex,))
    return int(row["last"]) if row is not None and row["last"] is not None else 0


def last_entry(stakes: Any, campaign_id: UUID, viewer: Seat, unit_id: UUID, event: str) -> schemas.LogEntry | None:
    """The unit's latest log entry of ``event`` as the viewer may read it (``log``'s censor, C-5), from the log's
    index by unit: one read, however long the unit."""
    stakes.viewer(campaign_id, viewer)
    row = stakes.views.query_one(
        "SELECT l.*, c.revealed, c.phase FROM {p}event_log l LEFT JOIN {p}challenges c ON c.challenge_id = l.challenge_id"
        " WHERE l.challenge_id = ? AND l.event = ? AND l.campaign_id = ? ORDER BY l.notification_id DESC LIMIT 1",
        (unit_id.hex, event, campaign_id.hex))
    return None if row is None else _log_entry(row, viewer)


def _rows(stakes: Any, campaign_id: UUID, after: int, limit: int) -> list[dict[str, Any]]:
    return stakes.views.query(
        "SELECT l.*, c.revealed, c.phase FROM {p}event_log l LEFT JOIN {p}challenges c"
        " ON c.challenge_id = l.challenge_id"
        " WHERE l.campaign_id = ? AND l.seq > ? ORDER BY l.seq LIMIT ?",
        (campaign_id.hex, after, limit),
    )


def _log_entry(row: dict[str, Any], viewer: Seat) -> schemas.LogEntry | None:
    """One log entry censored for the viewer (C-5); a revealed challenge is public."""
    seen = censor(json.loads(row["detail"]), json.loads(row["visibility"]), viewer.name,
                  bool(row.get("revealed")), row.get("phase") == "settled")
    if seen is None:
        return None
    detail, hidden = seen
    return schemas.LogEntry(position=row["seq"], at=row["at"], actor=row["actor"],
                            stream=row["stream"], event=row["event"], detail=detail, hidden=hidden)


def fully_visible(row: dict[str, Any], viewer: Seat) -> bool:
    """Whether the viewer may read every field of a log row's event (C-5): only then is its stored JSON
    opened to him in the audit's leaves (``adapters/heads.py``)."""
    seen = censor(json.loads(row["detail"]), json.loads(row["visibility"]), viewer.name,
                  bool(row.get("revealed")), row.get("phase") == "settled")
    return seen is not None and not seen[1]


# -- C-2, C-6: replay and undo ---------------------------------------------------------------
def _may_rewind(unit: Any, step: int, past: Any) -> bool:
    """Whether the unit's own rules accept an undo to ``step`` now (``Resolution.verify_rewind``: a step inside
    one move, a wait whose fresh seeds came since …, C-6). A sheet that can no longer bear what the step spent
    is found only when the undo is sent."""
    try:
        unit.verify_rewind(step, past, "asked")
    except StakesError:
        return False
    return True


def replay(stakes: Any, campaign_id: UUID, viewer: Seat, challenge_id: UUID, step: int | None = None) -> schemas.Replay:
    """Every step of one challenge, as the viewer may see it. Reads that challenge's events only."""
    stakes.viewer(campaign_id, viewer)
    events = [stakes.app.mapper.to_domain_event(s) for s in stakes.app.recorder.select_events(challenge_id)]
    if not events or type(events[0]).__qualname__.split(".")[0] not in unit_kinds() \
            or events[0].campaign_id != campaign_id:
        raise NotFound(f"no challenge {challenge_id} in this campaign")
    final: Any = None
    branch: list[int] = []
    shown: set[int] = set()
    for i, e in enumerate(events):
        final = e.mutate(final)
        if type(e).__qualname__.endswith(".Rewound"):  # the steps after ``to_step`` are abandoned
            branch = [j for j in branch if events[j].originator_version <= e.to_step]
        branch.append(i)
        if final.revealed:
            # C-8: every step of the unit as it stood was shown to every seat, whatever a rewind did since;
            # a step a rewind abandoned before that stays hidden until the unit is settled (C-5)
            shown.update(branch)
    settled = final.settled
    steps: list[schemas.ReplayStep] = []
    state: Any = None
    before: dict[str, Any] = {}
    pasts: list[Any] = []  # the House's: each step's state, to ask the unit whether it may go back there (C-6)
    for i, e in enumerate(events):
        state = e.mutate(state)
        if viewer.is_house and not settled:
            pasts.append(copy.deepcopy(state))
        reveal = settled or i in shown
        view = copy.deepcopy(state.view_for(viewer.name, reveal=reveal, settled=settled))
        seen = censor(event_detail(e), event_visibility(e, state), viewer.name, reveal, settled)
        detail, hidden = seen if seen is not None else ({}, ["*"])
        steps.append(schemas.ReplayStep(
            step=e.originator_version, event=type(e).__qualname__.split(".")[1], actor=e.actor, at=e.timestamp,
            detail=detail, hidden=hidden, changes=sorted(k for k in view if view[k] != before.get(k)),
            state=view))
        before = view
    if viewer.is_house:
        for k, found in enumerate(steps[:-1], start=1):
            found.rewindable = not settled and _may_rewind(state, k, pasts[k - 1])
        steps[-1].rewindable = False
    if step is not None:
        if not 1 <= step <= len(steps):
            raise NotFound(f"this challenge has steps 1 to {len(steps)}, not {step}")
        steps = [steps[step - 1]]
    return schemas.Replay(challenge_id=challenge_id, kind=type(events[0]).__qualname__.split(".")[0],
                          revealed=final.revealed, total=len(events), steps=steps)

