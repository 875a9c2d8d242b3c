"""Pulp in the Cards at the table: how its inputs read from text (``ilse,Sheriff Cole``, ``BA,R21,P3``,
``cole=2``) and its sheet (PU-1 … PU-9). Deals and combats are drawn by the shared renderer of any unit."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType

from adapters.systems.pulp_cards import schemas
from cli.session import UsageError
from cli.tables import _table


def names(text: str) -> list[str]:
    """``ilse,Sheriff Cole``: comma-separated names."""
    found = [n.strip() for n in text.split(",") if n.strip()]
    if not found:
        raise UsageError("give names separated by commas, e.g. ilse,Sheriff Cole")
    return found


def cards(text: str) -> list[str]:
    """``BA,R21,P3``: the cards as dealt at the table."""
    return [c.strip().upper() for c in text.replace(" ", ",").split(",") if c.strip()]


def advantages(items: list[str] | None) -> dict[str, int] | None:
    """``--advantage "Sheriff Cole=2"``, once per combatant."""
    found: dict[str, Any] = {}
    for item in items or []:
        name, _, value = item.rpartition("=")
        if not name.strip() or not value.strip().isdigit():
            raise UsageError(f"{item!r}: write NAME=NUMBER, e.g. cole=2")
        found[name.strip()] = int(value)
    return found or None


PARSERS = {"names": (str, names), "cards": (str, cards), "advantages": (list[str], advantages)}


def pulp_sheet(s: schemas.PulpSheet) -> RenderableType:
    head = _table(f"{s.name} ({s.seat})", "conditions", "promotions")
    head.add_row(", ".join(s.conditions) or "-", ", ".join(s.promotions) or "-")
    notes = _table("Notes", "when", "kind", "note", "by")
    for n in s.notes:
        notes.add_row(f"{n.at:%Y-%m-%d %H:%M}", n.kind, n.text, n.by)
    parts: list[RenderableType] = [head, notes]
    if s.deals:
        deals = _table("Latest deals", "when", "kind", "cards", "difficulty", "degree", "result")
        for d in s.deals[:10]:
            result = "critical" if d.critical else "fumble" if d.fumble else "success" if d.success else "failure"
            marks = (" (void)" if d.void else "") + (" (seen before the rewind)" if d.seen_before_the_rewind else "")
            deals.add_row(f"{d.at:%Y-%m-%d %H:%M}", d.kind, d.shown_as, f"{d.difficulty:+d}", f"{d.degree:+d}",
                          result + marks)
        parts.append(deals)
    return Group(*parts)


def sheets(items: list[schemas.PulpSheet]) -> RenderableType:
    table = _table("Characters", "seat", "character", "conditions", "promotions")
    for s in items:
        table.add_row(s.seat, s.name, ", ".join(s.conditions), ", ".join(s.promotions))
    return table


RENDERERS = {"PulpSheet": pulp_sheet, "list[PulpSheet]": sheets}
