"""The tamper-evident record (C-2): audit the hash chain, export a campaign (imports: ``adapters/imports.py``)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any
from uuid import UUID

from adapters import audit as chain
from adapters import schemas
from domain.errors import NotPermitted, RuleViolation
from domain.seats import Seat

#: A string as ``json.dumps`` writes it (ASCII, escaped).
_text = json.encoder.encode_basestring_ascii  # type: ignore[attr-defined]


# -- C-2: audit, export and import ------------------------------------------------------------

def audit(stakes: Any, campaign_id: UUID, viewer: Seat,
          progress: Callable[[int, int], None] | None = None) -> schemas.AuditReport:
    """Recompute the campaign's hash chain from the stored events (``adapters/audit.py``)."""
    return stakes.audit(campaign_id, viewer, progress)


def export_campaign(stakes: Any, campaign_id: UUID, actor: Seat,
                    progress: Callable[[int, int], None] | None = None) -> Iterator[str]:
    """The whole campaign log as JSON Lines: a header, then every event with its digest and chain link.
    Hidden values are in it (it is the House's record), tokens never are."""
    if not actor.is_house:
        raise NotPermitted("only the House exports a campaign: the export holds every hidden value",
                           ruling="C-2")
    still = stakes.views.query_one("SELECT challenge_id, kind, phase FROM {p}challenges WHERE campaign_id = ?"
                                   " AND phase NOT IN ('settled', 'void') ORDER BY position LIMIT 1",
                                   (campaign_id.hex,))
    if still:  # the House asks: it may know which of its units is open (issue 31)
        from domain.kernel.registry import supported

        labels = {cls.__name__: getattr(cls, "UNIT_LABEL", "") for system in supported() for cls in system.resolutions}
        kind = (labels.get(str(still["kind"])) or "unit").capitalize()  # the table's word for it, never its class
        raise RuleViolation(f"{kind} {str(still['challenge_id'])[:8]} is still open ({still['phase']}): its "
                            "secret seed and hidden values stay hidden until it is settled, so the campaign is "
                            "exported after", ruling="C-5")
    stakes.viewer(campaign_id, actor)
    # C-2: events, salts and links, one snapshot of the store. What is exported is what was audited; the
    # snapshots are caches the export does not carry (an import rebuilds from the events), so they are
    # checked by ``stakes audit verify``, not here.
    found = stakes.app.recorder.read_chain(campaign_id.hex, snapshots=False)
    report = chain.verify(stakes, campaign_id, found=found)
    if not report.intact:
        raise RuleViolation(f"the log was tampered with ({report.first_broken.kind} at event "  # type: ignore[union-attr]
                            f"{report.first_broken.position}); run 'stakes audit verify'", ruling="C-2")  # type: ignore[union-attr]
    rows = found["linked"]
    head = rows[-1]["chain"] if rows else chain.GENESIS
    yield json.dumps({"format": chain.FORMAT, "version": chain.FORMAT_VERSION, "campaign_id": campaign_id.hex,
                      "events": len(rows), "head": head})
    for i, row in enumerate(rows, 1):
        # json.dumps of {"position": …, "originator_id": …, …} spelled out: the same bytes, a third the time
        yield (f'{{"position": {int(row["position"])}, "originator_id": "{chain.hex_id(row["originator_id"])}", '
               f'"originator_version": {int(row["originator_version"])}, "topic": {_text(row["e_topic"])}, '
               f'"state": {_text(bytes(row["e_state"]).decode())}, "salt": {_text(row["salt"])}, '
               f'"digest": {_text(row["digest"])}, "chain": {_text(row["chain"])}}}')
        if progress:
            progress(i, len(rows))
