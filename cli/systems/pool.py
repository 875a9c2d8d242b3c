"""The Pool at the table: its sheet (PL-1 … PL-9). Its rolls and contests are drawn by the shared renderer
of any unit's state."""

from __future__ import annotations

from rich.console import Group, RenderableType

from adapters.systems.pool import schemas
from cli.session import UsageError
from cli.systems import SystemCli
from cli.tables import _table


def traits(items: list[str] | None) -> dict[str, int] | None:
    """``--trait Brave=1``, once per trait (PL-2): ``NAME=RATING``."""
    found: dict[str, int] = {}
    for item in items or []:
        name, _, value = item.rpartition("=")
        if not name or not value.strip().lstrip("-").isdigit():
            raise UsageError(f"{item!r}: write NAME=NUMBER, e.g. Brave=1")
        found[name.strip()] = int(value)
    return found or None


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


CLI = SystemCli(parsers={"traits": (list[str], traits)}, options={"traits": "--trait"},  # --trait Brave=1, repeated
                renderers={"PoolSheet": pool_sheet, "list[PoolSheet]": sheets},
                unit_kinds=("PoolRoll", "PoolContest"))
