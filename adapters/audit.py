"""The tamper-evident log (C-2): every event of a campaign is a link of its hash chain and a leaf of its
Merkle tree, written in the transaction that stores the event (``adapters/chained.py``).

Each stored event has a random salt and a digest of what the store holds for it (its stream, version,
topic and state, the state as its JSON even where it is stored deflated: ADR 0018) and the salt; the
campaign's chain folds the digests in log order,
``chain[n] = sha256(chain[n-1] + digest[n])``, and its RFC 9162 Merkle tree has the digests as leaf data.
Salts stay in the store (and the House's export): the digests, roots and proofs that are published reveal
nothing about a hidden cup or hand, which a digest of the bare event would (a hand has 22,100 values).

The audit reads the chain, the events it names, every event that has no link and the campaign's snapshots
in ONE snapshot of the store (a read transaction; REPEATABLE READ on PostgreSQL), in four queries, and
names the first broken link. Commands arriving meanwhile are simply not in that snapshot.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from functools import lru_cache
from typing import Any
from uuid import UUID

from eventsourcing.domain import Snapshot
from eventsourcing.persistence import StoredEvent

from adapters import codec, merkle, schemas

GENESIS = "0" * 64
FORMAT = "stakes-export"
FORMAT_VERSION = 2  # 2: every event carries its salt


def digest(originator_id: UUID | str, version: int, topic: str, state: bytes, salt: str) -> str:
    stream = (originator_id.hex if isinstance(originator_id, UUID) else hex_id(originator_id)).encode()
    number, name, salted = str(version).encode(), topic.encode(), salt.encode()
    # each part prefixed with its length, so no two tuples of parts hash the same bytes
    return hashlib.sha256(b"".join((
        len(stream).to_bytes(8, "big"), stream, len(number).to_bytes(8, "big"), number,
        len(name).to_bytes(8, "big"), name, len(state).to_bytes(8, "big"), state,
        len(salted).to_bytes(8, "big"), salted))).hexdigest()


def link(previous: str, event_digest: str) -> str:
    return hashlib.sha256((previous + event_digest).encode()).hexdigest()


def hexed(value: Any) -> str:
    """A salt, digest or link as hex, stored as bytes (since issue 15) or as hex text (before)."""
    return value if type(value) is str else bytes(value).hex()


def leaves(digests: list[str]) -> list[bytes]:
    return [merkle.leaf_hash(bytes.fromhex(d)) for d in digests]


def pack(frontier: list[bytes]) -> str:
    return " ".join(h.hex() for h in frontier)


def unpack(text: str) -> list[bytes]:
    return [bytes.fromhex(h) for h in text.split()]


def broken(position: int, notification_id: int | None, kind: str, detail: str) -> dict[str, Any]:
    return {"position": position, "notification_id": notification_id, "kind": kind, "detail": detail}


@lru_cache(maxsize=65536)
def hex_id(oid: Any) -> str:
    """A stored originator id (a UUID, or its text) as 32 hex digits; a campaign's few streams recur."""
    return oid.hex if isinstance(oid, UUID) else UUID(str(oid)).hex



CAMPAIGN_TOPIC = "domain.campaign:"


def campaign_in_state(stored: Any) -> str | None:
    """The campaign a stream's first event names (a campaign's own stream names itself)."""
    if stored.topic.startswith(CAMPAIGN_TOPIC):
        return hex_id(stored.originator_id)
    try:
        value = json.loads(codec.plain(stored.state)).get("campaign_id")
    except (ValueError, AttributeError, UnicodeDecodeError):
        return None
    value = value.get("_data_") if isinstance(value, dict) else value
    try:
        return UUID(str(value)).hex
    except ValueError:
        return None


def verify(stakes: Any, campaign_id: UUID, progress: Callable[[int, int], None] | None = None,
           found: dict[str, Any] | None = None) -> schemas.AuditReport:
    """Recompute the campaign's chain from the stored events in one snapshot (``found``, the recorder's
    ``read_chain``: read here unless given); name the first broken link."""
    found = found if found is not None else stakes.app.recorder.read_chain(campaign_id.hex)
    rows, first, previous = found["linked"], None, GENESIS

    def present() -> set[tuple[str, int]]:  # every stored event's place: read only to name a broken link
        stored = {(hex_id(r["e_oid"]), r["e_version"]) for r in rows if r["e_oid"] is not None}
        return stored | {(hex_id(r["originator_id"]), r["originator_version"]) for r in found["unlinked"]}

    last_nid = 0
    for i, row in enumerate(rows, 1):
        if first is None and row["notification_id"] <= last_nid:
            first = broken(i, row["notification_id"], "reordered", "the log's order differs from the chain's")
        first = first or _broken_link(row, i, previous, present)
        previous, last_nid = row["chain"], row["notification_id"]
        if progress:
            progress(i, len(rows))
    first = first or _unlinked(stakes, campaign_id, rows, found["unlinked"])
    if found["snapshots"] is not None:  # read without them (an export, which carries no snapshot): not checked
        first = first or _snapshots(stakes, rows, found["snapshots"], found["seals"])
    root = merkle.root(leaves([r["digest"] for r in rows]))
    head = found.get("head")
    if first is None and rows and (head is None or (head["position"], head["chain"], head["root"])
                                   != (len(rows), previous, root.hex())):
        first = broken(len(rows), rows[-1]["notification_id"], "chain-altered", "the stored tree head was changed")
    return schemas.AuditReport(campaign_id=campaign_id, events=len(rows), head=previous, root=root.hex(),
                               intact=first is None,
                               first_broken=None if first is None else schemas.BrokenLink.model_validate(first))


def _broken_link(row: dict[str, Any], i: int, previous: str,
                present: Callable[[], set[tuple[str, int]]]) -> dict[str, Any] | None:
    nid, oid, version = row["notification_id"], hex_id(row["originator_id"]), row["originator_version"]
    if row["position"] != i:
        return broken(i, None, "deleted", f"the chain has no link at position {i}")
    if row["e_oid"] is None or (hex_id(row["e_oid"]), row["e_version"]) != (oid, version):
        kind = "reordered" if (oid, version) in present() else "deleted"
        return broken(i, nid, kind, f"event {UUID(oid)} v{version} is not where the chain put it")
    if digest(oid, version, row["e_topic"], bytes(row["e_state"]), row["salt"]) != row["digest"]:
        return broken(i, nid, "altered", "the stored event no longer matches its digest")
    if link(previous, row["digest"]) != row["chain"]:
        return broken(i, nid, "chain-altered", "the chain itself was changed")
    return None


def _unlinked(stakes: Any, campaign_id: UUID, rows: list[dict[str, Any]],
              unlinked: list[dict[str, Any]]) -> dict[str, Any] | None:
    """An event of this campaign with no link was written into the store some other way (C-2)."""
    if not unlinked:  # the usual case: no event of the store lacks its link, so no event of this campaign does
        return None
    streams = {hex_id(r["originator_id"]) for r in rows}
    streams |= {r["originator_id"] for r in stakes.views.query(
        "SELECT originator_id FROM {p}streams WHERE campaign_id = ?", (campaign_id.hex,))}
    for e in unlinked:
        stored = StoredEvent(originator_id=e["originator_id"], originator_version=e["originator_version"],
                             topic=e["topic"], state=bytes(e["state"]))
        if hex_id(e["originator_id"]) in streams or campaign_in_state(stored) == campaign_id.hex:
            position = 1 + sum(1 for r in rows if r["notification_id"] < e["nid"])
            return broken(position, e["nid"], "unchained", f"event {UUID(hex_id(e['originator_id']))} "
                          f"v{e['originator_version']} was stored without a link of the chain")
    return None


def _snapshots(stakes: Any, rows: list[dict[str, Any]], snapshots: list[dict[str, Any]],
               seals: dict[tuple[str, int], str]) -> dict[str, Any] | None:
    """Each stored snapshot must carry this server's seal and equal the replay of the events it summarises.

    Each stream is replayed once, oldest event first, and compared with its snapshots as it passes their
    versions: the cost is the campaign's events, not its events times its snapshots."""
    mapper, recorder = stakes.app.mapper, stakes.app.snapshots.recorder
    by_stream: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        if r["e_state"] is not None:
            by_stream.setdefault(hex_id(r["originator_id"]), []).append(r)
    kept_by_stream: dict[str, list[StoredEvent]] = {}
    for snap in snapshots:
        stored = StoredEvent(originator_id=UUID(str(snap["originator_id"])),
                             originator_version=snap["originator_version"], topic=snap["topic"],
                             state=bytes(snap["state"]))
        oid, version = UUID(str(stored.originator_id)).hex, stored.originator_version
        if seals.get((oid, version)) != recorder.seal_of(stored):
            return broken(0, None, "snapshot-altered", f"the snapshot of {stored.originator_id} at v{version} "
                                                       "does not carry this server's seal")
        kept_by_stream.setdefault(oid, []).append(stored)
    for oid, kept_snapshots in kept_by_stream.items():
        events = sorted(by_stream.get(oid, []), key=lambda r: r["originator_version"])
        aggregate, applied, stream = None, 0, UUID(oid)
        for stored in sorted(kept_snapshots, key=lambda k: k.originator_version):
            version = stored.originator_version
            where = f"the snapshot of {stored.originator_id} at v{version}"
            while applied < len(events) and events[applied]["originator_version"] <= version:
                r = events[applied]
                event = mapper.to_domain_event(StoredEvent(originator_id=stream, originator_version=r["e_version"],
                                                           topic=r["e_topic"], state=r["e_state"]))
                aggregate, applied = event.mutate(aggregate), applied + 1
            try:
                kept = mapper.to_domain_event(stored)
            except Exception:
                return broken(0, None, "snapshot-altered", f"{where} does not decode")
            if aggregate is None or mapper.transcoder.encode(Snapshot.take(aggregate).state) != \
                    mapper.transcoder.encode(kept.state):
                return broken(0, None, "snapshot-altered", f"{where} differs from the events it summarises")
    return None
