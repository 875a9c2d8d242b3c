from __future__ import annotations

from uuid import UUID

from fastapi import APIRouter, Request, status
from fastapi.responses import StreamingResponse

from adapters import schemas as out
from api.deps import SeatDep, StakesDep

router = APIRouter(tags=["audit, export and import"])
NDJSON = "application/x-ndjson"


@router.get("/campaigns/{campaign_id}/audit", response_model=out.AuditReport)
def verify(campaign_id: UUID, seat: SeatDep, stakes: StakesDep) -> out.AuditReport:
    """Recompute the campaign's hash chain from the stored events and name the first broken link (C-2)."""
    return stakes.audit(campaign_id, seat)


@router.get("/campaigns/{campaign_id}/export", response_class=StreamingResponse,
            responses={200: {"content": {NDJSON: {"schema": {"type": "string"}}},
                             "description": "JSON Lines: a header, then each event with its digest and chain link."}})
def export(campaign_id: UUID, seat: SeatDep, stakes: StakesDep) -> StreamingResponse:
    """The House's copy of the whole campaign log, to keep or to import elsewhere. Never holds tokens."""
    lines = list(stakes.export_campaign(campaign_id, seat))  # refusals are raised before streaming starts
    return StreamingResponse((line + "\n" for line in lines), media_type=NDJSON)


@router.post("/imports", status_code=status.HTTP_201_CREATED, response_model=out.ImportReport,
             openapi_extra={"requestBody": {"required": True, "content": {NDJSON: {"schema": {"type": "string"}}}}})
async def import_campaign(request: Request, stakes: StakesDep) -> out.ImportReport:
    """Load an export into this server's store, verifying its chain; new seat tokens are issued, shown once."""
    body = (await request.body()).decode("utf-8", errors="replace")
    return stakes.import_campaign(body.splitlines())
