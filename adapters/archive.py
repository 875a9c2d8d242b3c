"""The tamper-evident record (C-2): audit the hash chain, export a campaign, import one elsewhere."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from typing import Any
from uuid import UUID

from eventsourcing.persistence import IntegrityError, StoredEvent

from adapters import audit as chain
from adapters import schemas
from domain.errors import NotPermitted, RuleViolation
from domain.seats import Seat


# -- C-2: audit, export and import ------------------------------------------------------------

def audit(stakes: Any, campaign_id: UUID, viewer: Seat,
          progress: Callable[[int, int], None] | None = None) -> schemas.AuditReport:
    """Recompute the campaign's hash chain from the stored events; name the first broken link."""
    stakes.viewer(campaign_id, viewer)
    rows = stakes.views.chain_rows(campaign_id)
    previous, first = chain.GENESIS, None
    for i, row in enumerate(rows, 1):
        first = first or _check_link(stakes, row, previous)
        previous = row["chain"]
        if progress:
            progress(i, len(rows))
    first = first or _unchained(stakes, campaign_id, rows)
    return schemas.AuditReport(campaign_id=campaign_id, events=len(rows), head=previous,
                               intact=first is None, first_broken=first)


def _unchained(stakes: Any, campaign_id: UUID, rows: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Events of the campaign's streams that the chain does not hold: inserted in the database, or the
    chain's own last links deleted."""
    chained = {(r["originator_id"], r["originator_version"]) for r in rows}
    for stream in stakes.views.query("SELECT originator_id FROM {p}streams WHERE campaign_id = ?",
                                   (campaign_id.hex,)):
        for stored in stakes.app.recorder.select_events(UUID(stream["originator_id"])):
            if (stored.originator_id.hex, stored.originator_version) not in chained:
                return chain.broken(len(rows) + 1, None, "unchained",
                                    f"event {stored.originator_id} v{stored.originator_version} is not in the chain")
    return None


def _check_link(stakes: Any, row: dict[str, Any], previous: str) -> dict[str, Any] | None:
    position, nid = row["position"], row["notification_id"]
    notes = stakes.app.recorder.select_notifications(start=nid, limit=1)
    note = notes[0] if notes and notes[0].id == nid else None
    if note is None or (note.originator_id.hex, note.originator_version) != (row["originator_id"],
                                                                            row["originator_version"]):
        moved = stakes.app.recorder.select_events(UUID(row["originator_id"]), gt=row["originator_version"] - 1,
                                                lte=row["originator_version"])
        kind = "reordered" if moved or note is not None else "deleted"
        return chain.broken(position, nid, kind, f"event {row['originator_id']} v{row['originator_version']} "
                                                 f"is not where the chain put it")
    try:
        found = chain.digest(note.originator_id, note.originator_version, note.topic, bytes(note.state))
    except (TypeError, ValueError):
        return chain.broken(position, nid, "altered", "the stored event is no longer bytes")
    if found != row["digest"]:
        return chain.broken(position, nid, "altered", "the stored event no longer matches its digest")
    if chain.link(previous, found) != row["chain"]:
        return chain.broken(position, nid, "chain-altered", "the chain itself was changed")
    return None


def export_campaign(stakes: Any, campaign_id: UUID, actor: Seat,
                    progress: Callable[[int, int], None] | None = None) -> Iterator[str]:
    """The whole campaign log as JSON Lines: a header, then every event with its digest and chain link.
    Hidden values are in it (it is the House's record), tokens never are."""
    if not actor.is_house:
        raise NotPermitted("only the House exports a campaign: the export holds every hidden value",
                           ruling="C-2")
    if stakes.views.query_one("SELECT 1 AS x FROM {p}challenges WHERE campaign_id = ? AND phase <> 'settled'",
                            (campaign_id.hex,)):
        raise RuleViolation("a challenge, roll or contest is still open: its secret seed and hidden dice "
                            "stay hidden until it is settled, so the campaign is exported after", ruling="C-5")
    report = audit(stakes, campaign_id, actor)
    if not report.intact:
        raise RuleViolation(f"the log was tampered with ({report.first_broken.kind} at event "  # type: ignore[union-attr]
                            f"{report.first_broken.position}); run 'stakes audit verify'", ruling="C-2")  # type: ignore[union-attr]
    rows = stakes.views.chain_rows(campaign_id)
    head = rows[-1]["chain"] if rows else chain.GENESIS
    yield json.dumps({"format": chain.FORMAT, "version": chain.FORMAT_VERSION, "campaign_id": campaign_id.hex,
                      "events": len(rows), "head": head})
    for i, row in enumerate(rows, 1):
        (stored,) = stakes.app.recorder.select_events(UUID(row["originator_id"]), gt=row["originator_version"] - 1,
                                                    lte=row["originator_version"])
        yield json.dumps({"position": row["position"], "originator_id": row["originator_id"],
                          "originator_version": row["originator_version"], "topic": stored.topic,
                          "state": stored.state.decode(), "digest": row["digest"], "chain": row["chain"]})
        if progress:
            progress(i, len(rows))


def import_campaign(stakes: Any, lines: Iterable[str],
                    progress: Callable[[int, int], None] | None = None) -> schemas.ImportReport:
    """Load an exported campaign into this store, verifying its chain on the way in; new tokens are issued."""
    header, events = _read_export(lines)
    campaign_id = UUID(header["campaign_id"])
    previous = chain.GENESIS
    stored = []
    streams: dict[str, int] = {}
    for i, line in enumerate(events, 1):
        state = line["state"].encode()
        d = chain.digest(line["originator_id"], line["originator_version"], line["topic"], state)
        previous = chain.link(previous, d)
        if line.get("position") != i or d != line["digest"] or previous != line["chain"]:
            raise RuleViolation(f"the export's chain breaks at event {i}; nothing was imported", ruling="C-2")
        if not line["topic"].startswith("domain."):
            raise RuleViolation(f"event {i} has a topic from outside Stakes; nothing was imported", ruling="C-2")
        _belongs(stakes, i, line, state, campaign_id, streams)
        stored.append(StoredEvent(originator_id=UUID(line["originator_id"]),
                                  originator_version=line["originator_version"], topic=line["topic"], state=state))
        if progress:
            progress(i, len(events))
    _replayable(stakes, stored)
    if previous != header["head"] or len(events) != header["events"]:
        raise RuleViolation("the export is incomplete: its head does not match its events", ruling="C-2")
    if stakes.views.query_one("SELECT 1 AS x FROM {p}campaigns WHERE campaign_id = ?", (campaign_id.hex,)) \
            or stakes.views.query_one("SELECT 1 AS x FROM {p}audit_chain WHERE campaign_id = ?", (campaign_id.hex,)):
        raise RuleViolation(f"this store already holds campaign {campaign_id}", ruling="C-2")
    try:
        stakes.app.recorder.insert_events(stored)
    except IntegrityError:
        raise RuleViolation(f"this store already holds events of campaign {campaign_id}", ruling="C-2") from None
    stakes.catch_up()
    seats = ["house", *(p.seat for p in stakes.campaign_row(campaign_id).players)]
    tokens = {seat: stakes.tokens.issue(campaign_id, seat) for seat in seats}
    return schemas.ImportReport(campaign_id=campaign_id, events=len(stored), head=previous, tokens=tokens)


def _replayable(stakes: Any, stored: list[StoredEvent]) -> None:
    """Rebuild every aggregate of the export in memory first: an event that does not apply never
    reaches the store (C-2)."""
    streams: dict[Any, Any] = {}
    for i, event in enumerate(stored, 1):
        try:
            domain_event = stakes.app.mapper.to_domain_event(event)
            streams[event.originator_id] = domain_event.mutate(streams.get(event.originator_id))
            if not hasattr(domain_event, "actor"):
                raise ValueError("no acting seat")
        except Exception as exc:
            raise RuleViolation(f"event {i} of the export does not apply ({type(exc).__name__}); "
                                "nothing was imported", ruling="C-2") from None


def _belongs(stakes: Any, i: int, line: dict[str, Any], state: bytes, campaign_id: UUID, streams: dict[str, int]) -> None:
    """Every event of an export belongs to its campaign: each stream starts in the file, with the
    campaign's id, and its versions follow one another (C-2). Nothing reaches another campaign."""
    stream, version = UUID(str(line["originator_id"])).hex, line["originator_version"]
    if version == 1:
        try:
            fields = stakes.app.mapper.transcoder.decode(state)
        except Exception:
            raise RuleViolation(f"event {i} of the export is not readable", ruling="C-2") from None
        owner = stream if line["topic"].startswith("domain.campaign:") else fields.get("campaign_id")
        owner = owner.hex if isinstance(owner, UUID) else str(owner)
        if owner != campaign_id.hex or (i == 1) != line["topic"].startswith("domain.campaign:"):
            raise RuleViolation(f"event {i} does not belong to campaign {campaign_id}", ruling="C-2")
    elif streams.get(stream) != version - 1:
        raise RuleViolation(f"event {i} continues a stream the export did not start", ruling="C-2")
    streams[stream] = version


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
    if not records or records[0].get("format") != chain.FORMAT or records[0].get("version") != chain.FORMAT_VERSION:
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

