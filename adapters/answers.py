"""What answers a command: each command names a read (``Command.answer``), looked up here.

The shared reads are below; a system's adapter module may add its own or give its own for a shared
name (``ANSWERS``: Penny Ante answers ``adventure`` with the House budget). The schema of each answer
is declared with it, so the API documents one response schema per command.
"""

from __future__ import annotations

from functools import cache
from typing import Any
from uuid import UUID

from pydantic import BaseModel, create_model

from adapters import schemas
from adapters.plugin import Answer
from adapters.systems import edge, edges
from domain.kernel.commands import Command, Context
from domain.kernel.registry import supported
from domain.seats import Seat


def _campaign(stakes: Any, ctx: Context, command: Command, result: Any) -> schemas.CampaignView:
    return stakes.campaign_row(ctx.campaign_id)


def _player_added(stakes: Any, ctx: Context, command: Any, result: Any) -> schemas.PlayerAdded:
    seat = Seat.parse(command.seat).name
    sheet = stakes.any_sheet(ctx.campaign_id, seat)
    # C-1: answered again to a retry under the same key, the code is the same and seats nobody twice
    invite = stakes.tokens.invite(ctx.campaign_id, seat) if ctx.key is None else \
        stakes.tokens.invite_once(ctx.campaign_id, seat, ctx.key)
    return schemas.PlayerAdded(sheet=sheet, invite=invite)


def _sheet(stakes: Any, ctx: Context, command: Any, result: Any) -> BaseModel:
    return stakes.any_sheet(ctx.campaign_id, Seat.parse(command.seat).name)


def _own_sheet(stakes: Any, ctx: Context, command: Any, result: Any) -> BaseModel:
    return stakes.any_sheet(ctx.campaign_id, ctx.actor.name)


def _unit(stakes: Any, ctx: Context, command: Any, result: Any) -> BaseModel:
    # the unit as this command's catch-up left it in memory, when it did (issue 30: not decoded again)
    found = stakes.views.projected(result) if isinstance(result, UUID) else None
    return stakes.unit_view(ctx.campaign_id, result, ctx.actor, found)


def sheet_models() -> Any:
    models = tuple(e.SHEET for e in edges())
    return models[0] if len(models) == 1 else _union(models)


def unit_models() -> Any:
    return _union(tuple(m for e in edges() for m in e.UNITS))


def _union(models: tuple[Any, ...]) -> Any:
    from functools import reduce
    from operator import or_

    return reduce(or_, models)


SHARED: dict[str, Answer] = {
    "campaign": Answer(schemas.CampaignView, _campaign),
    "player-added": Answer(None, _player_added),
    "sheet": Answer(None, _sheet),
    "own-sheet": Answer(None, _own_sheet),
    "unit": Answer(None, _unit),
    "adventure": Answer(schemas.CampaignView, _campaign),
}


def find(system_id: str, name: str) -> Answer:
    found = edge(system_id).ANSWERS.get(name) or SHARED[name]
    if found.model is None:  # the schema depends on the system: its sheet, or its units' views
        model = {"sheet": edge(system_id).SHEET, "own-sheet": edge(system_id).SHEET,
                 "player-added": player_added(system_id)}.get(name) or _union(edge(system_id).UNITS)
        return Answer(model, found.read)
    return found


@cache
def player_added(system_id: str) -> type[schemas.PlayerAdded]:
    """A seated player's answer with the system's own sheet schema."""
    sheet = edge(system_id).SHEET
    return create_model(f"PlayerAdded{sheet.__name__}", __base__=schemas.PlayerAdded,
                        sheet=(sheet, ...))  # type: ignore[call-overload]


def player_added_models() -> Any:
    return _union(tuple(player_added(s.id) for s in supported()))


def answer(stakes: Any, ctx: Context, command: Command, result: Any) -> Any:
    return find(stakes.system_id(ctx.campaign_id), type(command).answer).read(stakes, ctx, command, result)
