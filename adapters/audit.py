"""The tamper-evident log (C-2): every event of a campaign bound into a hash chain.

Each stored event gets a digest of exactly what the store holds for it (its
stream, version, topic and state bytes); the campaign's chain folds the digests
in log order: ``chain[n] = sha256(chain[n-1] + digest[n])``. The chain is kept
beside the read models but is not one: a rebuild never rewrites it, so an event
altered, deleted or reordered in the database afterwards breaks a link, and
``stakes audit verify`` names the first broken one.

Exports carry each event with its digest and chain link; an import recomputes
them and refuses a file whose chain does not hold.
"""

from __future__ import annotations

import hashlib
from typing import Any
from uuid import UUID

GENESIS = "0" * 64
FORMAT = "stakes-export"
FORMAT_VERSION = 1


def digest(originator_id: UUID | str, version: int, topic: str, state: bytes) -> str:
    stream = originator_id.hex if isinstance(originator_id, UUID) else UUID(str(originator_id)).hex
    h = hashlib.sha256()
    for part in (stream.encode(), str(version).encode(), topic.encode(), state):
        h.update(len(part).to_bytes(8, "big"))
        h.update(part)
    return h.hexdigest()


def link(previous: str, event_digest: str) -> str:
    return hashlib.sha256((previous + event_digest).encode()).hexdigest()


def broken(position: int, notification_id: int | None, kind: str, detail: str) -> dict[str, Any]:
    return {"position": position, "notification_id": notification_id, "kind": kind, "detail": detail}
