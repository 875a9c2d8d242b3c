"""The Pool at the table: its sheet, traits typed as ``--trait Brave=1`` and its rolls in a few lines (PL-1 …
PL-9). Its contests are drawn by the shared renderer of any unit's state."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.text import Text

from adapters.schemas import ResolutionView
from adapters.systems.pool import schemas
from cli.inert import styled
from cli.session import UsageError
from cli.systems import SystemCli
from cli.tables import _legal, _plain, _short, _table


def traits(items: list[str] | None) -> dict[str, int] | None:
    """``--trait Brave=1``, once per trait (PL-2): ``NAME=RATING``."""
    found: dict[str, int] = {}
    for item in items or []:
        name, _, value = item.rpartition("=")
        digits = value.strip().removeprefix("-")
        if not name or not (digits.isascii() and digits.isdigit()):  # "²".isdigit(), but int("²") fails
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


OUTCOMES = {"full": "full success", "mixed": "success with a complication", "miss": "miss"}  # PL-2


def roll(v: ResolutionView) -> RenderableType:
    """A roll (PL-2 … PL-4) in a few lines: who rolled what, the dice, the total and outcome, what it cost."""
    s = v.state
    trait = f" + {s['trait']} +{s['rating']}" if s.get("trait") else ""
    helper = f" + {s['helper_dice']} of {s['helper']}'s" if s.get("helper") else ""
    lines = [styled("[bold]Roll[/] {} ({})  {}", _short(v.id), v.kind, v.phase),  # the kind, as the list shows it
             Text(f"{s['roller']} rolls {s['count']} dice{helper}{trait}: {_plain(s.get('dice'))}", overflow="fold")]
    if s.get("outcome"):
        cost = [f"{s['lost']} dice lost" if s.get("lost") else "no die lost"]
        if s.get("helper_lost"):
            cost.append(f"{s['helper']} loses {s['helper_lost']}")
        if s.get("gained"):
            cost.append(f"{s['gained']} dice gained")
        lines.append(Text.assemble(("Total ", ""), (str(s["total"]), "bold"), ": ",
                                   (OUTCOMES.get(s["outcome"], s["outcome"]), "bold"), f"; {', '.join(cost)}."))
    if s.get("narrator"):
        lines.append(Text(f"Narrates: {s['narrator']}"))
    if s.get("overturned"):
        lines.append(Text(f"Result overturned: {_plain(s['overturned'])}", style="bold"))
    seeds = f"seed hash {s['seed_hash']}" + (f"; secret seed {s['secret_seed']}" if s.get("secret_seed") else "")
    lines.append(Text(seeds, style="dim", overflow="fold"))
    lines.append(_legal(v.legal_actions, v.waiting_for))
    return Group(*lines)


CLI = SystemCli(parsers={"traits": (list[str], traits)}, options={"traits": "--trait"},  # --trait Brave=1, repeated
                renderers={"PoolSheet": pool_sheet, "list[PoolSheet]": sheets, "unit:PoolRoll": roll},
                unit_kinds=("PoolRoll", "PoolContest"))
