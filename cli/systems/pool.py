"""The Pool at the table: its sheet (PL-1 … PL-9). Its rolls and contests are drawn by the shared renderer
of any unit's state."""

from __future__ import annotations

from rich.console import Group, RenderableType

from adapters.systems.pool import schemas
from cli.tables import _table


def pool_sheet(s: schemas.PoolSheet) -> RenderableType:
    head = _table(f"{s.name} ({s.seat})", "pool", "description")
    head.add_row(str(s.pool), s.description)
    traits = _table("Traits", "trait", "rating")
    for name, rating in s.traits.items():
        traits.add_row(name, f"+{rating}")
    parts: list[RenderableType] = [head, traits]
    if s.moves:
        moves = _table("Moves", "move", "cost")
        for name, cost in s.moves.items():
            moves.add_row(name, f"{cost}d")
        parts.append(moves)
    if s.rolls:
        rolls = _table("Latest rolls", "when", "kind", "dice", "trait", "total", "outcome", "lost")
        for r in s.rolls[:10]:
            rolls.add_row(f"{r.at:%Y-%m-%d %H:%M}", r.kind, " ".join(map(str, r.dice)),
                          f"{r.trait} +{r.rating}" if r.trait else "-", str(r.total), r.outcome, str(r.lost))
        parts.append(rolls)
    return Group(*parts)



def sheets(items: list[schemas.PoolSheet]) -> RenderableType:
    table = _table("Characters", "seat", "character", "pool", "traits", "moves")
    for s in items:
        table.add_row(s.seat, s.name, str(s.pool), ", ".join(f"{n} +{r}" for n, r in s.traits.items()),
                      ", ".join(s.moves))
    return table


RENDERERS = {"PoolSheet": pool_sheet, "list[PoolSheet]": sheets}
