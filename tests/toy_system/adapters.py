"""Coin Flip's adapter module: what the shared adapters ask of a system (``adapters/systems/__init__.py``).

Its read model is one table of characters, with each player's wins and losses as caller (CF-4), kept from
the flips' events; the flips themselves are kept by the shared ``challenges`` table. Its sheet and the
view of a flip are pydantic schemas; it has no answers and no reads of its own.
"""

from __future__ import annotations

from typing import Any, Literal
from uuid import UUID

from pydantic import BaseModel, Field

from adapters import schemas as shared
from adapters.plugin import Answer, Projection, ProjectionContext, Read
from domain.errors import NotFound
from domain.seats import Seat

PROJECTION = Projection(
    tables=("coinflip_characters",),
    ddl=(
        "CREATE TABLE IF NOT EXISTS {p}coinflip_characters (character_id TEXT PRIMARY KEY,"
        " campaign_id TEXT NOT NULL, seat TEXT NOT NULL, name TEXT NOT NULL, wins BIGINT NOT NULL,"
        " losses BIGINT NOT NULL, joined_at TEXT NOT NULL, UNIQUE (campaign_id, seat))",
    ),
)


class CoinFlipSheet(BaseModel):
    system: Literal["coin-flip"] = "coin-flip"
    seat: str
    name: str
    wins: int = Field(description="Flips won as caller (CF-4), voided ones not counted (C-6).")
    losses: int = Field(description="Flips lost as caller (CF-4), voided ones not counted (C-6).")


class CoinFlipView(shared.ResolutionView):
    """A flip as the viewing seat sees it: the coin and the secret only once it is settled (C-5)."""


SHEET = CoinFlipSheet
UNITS = (CoinFlipView,)
ANSWERS: dict[str, Answer] = {}
READS: tuple[Read, ...] = ()


# -- projection ---------------------------------------------------------------------------------------------
@PROJECTION.on("CoinCharacter.Created")
def _created(p: ProjectionContext, e: Any, oid: str, campaign: str, at: str, nid: int) -> None:
    p.execute("INSERT INTO {p}coinflip_characters VALUES (?, ?, ?, ?, 0, 0, ?)", (oid, campaign, e.seat, e.name, at))


def _count(p: ProjectionContext, campaign: str, seat: str, won: bool, delta: int) -> None:
    column = "wins" if won else "losses"
    p.execute(f"UPDATE {{p}}coinflip_characters SET {column} = {column} + ? WHERE campaign_id = ? AND seat = ?",
         (delta, campaign, seat))


@PROJECTION.on("CoinFlip.Settled")
def _settled(p: ProjectionContext, e: Any, oid: str, campaign: str, at: str, nid: int) -> None:
    _count(p, campaign, e.caller, e.won, 1)


@PROJECTION.on("CoinFlip.Overturned")
def _overturned(p: ProjectionContext, e: Any, oid: str, campaign: str, at: str, nid: int) -> None:
    _count(p, campaign, e.caller, e.won, -1)  # C-6: the sheet follows the void


# -- reads ----------------------------------------------------------------------------------------------------
def players(views: Any, campaign_id: UUID) -> list[dict[str, Any]]:
    return views.query("SELECT seat, name, joined_at, character_id FROM {p}coinflip_characters WHERE campaign_id = ?"
                       " ORDER BY joined_at, seat", (campaign_id.hex,))


def sheet(stakes: Any, campaign_id: UUID, seat: str) -> CoinFlipSheet:
    row = stakes.views.query_one("SELECT * FROM {p}coinflip_characters WHERE campaign_id = ? AND seat = ?",
                                 (campaign_id.hex, seat))
    if row is None:
        raise NotFound(f"no player named {seat!r} sits in this campaign")
    return CoinFlipSheet(seat=seat, name=row["name"], wins=row["wins"], losses=row["losses"])


def unit_view(stakes: Any, campaign_id: UUID, unit: Any, viewer: Seat) -> CoinFlipView:
    return CoinFlipView(id=unit.id, campaign_id=campaign_id, kind=type(unit).__name__, phase=unit.phase,
                        state=unit.view_for(viewer.name), legal_actions=unit.legal_actions(viewer.name))
