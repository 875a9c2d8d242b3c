"""What every page shares: the templates, the signed-in seat, and drawing values (dice as dice, cards as cards)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from uuid import UUID

from fastapi import Request
from fastapi.templating import Jinja2Templates
from markupsafe import Markup, escape
from pydantic import BaseModel

from adapters.service import Stakes
from api.deps import caller_or_none
from domain.seats import Seat

templates = Jinja2Templates(directory=Path(__file__).resolve().parent / "templates")
FACES = "⚀⚁⚂⚃⚄⚅"
CARD = re.compile(r"^(10|[2-9JQKA])([SHDC])$")
SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


class SignedOut(Exception):
    """No seat cookie, or one the server no longer knows: the page asks to sign in."""


@dataclass(frozen=True)
class Viewer:
    campaign_id: UUID
    seat: Seat
    stakes: Stakes


def viewer(request: Request) -> Viewer:
    """The seat the browser signed in as (its web session cookie, resolved by ``api.deps``), or ``SignedOut``."""
    found = caller_or_none(request)
    if found is None:
        raise SignedOut()
    return Viewer(found.campaign_id, found.seat, request.app.state.stakes)


def plain(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


def die(value: Any, note: str = "") -> Markup:
    """One d6 as a die face; a hidden one (None) as a die back."""
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 6:
        label = f"die showing {value}" + (f", {note}" if note else "")
        return Markup('<span class="die" role="img" aria-label="{}">{}</span>').format(label, FACES[value - 1])
    if value is None:
        return Markup('<span class="die hidden" role="img" aria-label="hidden die{}">?</span>').format(
            f", {note}" if note else "")
    return Markup('<span class="die big">{}</span>').format(value)


def card(value: str) -> Markup:
    m = CARD.match(value)
    if not m:
        return Markup('<span class="card">{}</span>').format(value)
    red = " red" if m.group(2) in "HD" else ""
    return Markup('<span class="card{}" aria-label="{}">{}{}</span>').format(red, value, m.group(1), SUITS[m.group(2)])


def _is_die(value: Any) -> bool:
    return isinstance(value, dict) and "value" in value and (value["value"] is None or (
        isinstance(value["value"], int) and not isinstance(value["value"], bool)))


def show(value: Any, key: str = "") -> Markup:
    """Any read, drawn generically: nested mappings as definition lists, dice as dice, cards as cards."""
    dicey = "dice" in key or key in ("cup", "revealed", "kept", "rolled", "value")
    if isinstance(value, dict):
        if _is_die(value):
            flags = [k.replace("_", " ") for k, v in value.items() if k != "value" and v is True]
            return die(value["value"], ", ".join(flags)) + (
                Markup('<small class="flag">{}</small>').format(", ".join(flags)) if flags else Markup(""))
        if not value:
            return Markup('<span class="none">—</span>')
        rows = Markup("").join(Markup("<div><dt>{}</dt><dd>{}</dd></div>").format(k.replace("_", " "), show(v, k))
                               for k, v in value.items())
        return Markup('<dl class="kv">{}</dl>').format(rows)
    if isinstance(value, list):
        if not value:
            return Markup('<span class="none">—</span>')
        if all(_is_die(v) for v in value) or (dicey and all(isinstance(v, int) or v is None for v in value)):
            return Markup('<span class="dice">{}</span>').format(Markup("").join(
                show(v, "value") if isinstance(v, dict) else die(v) for v in value))
        if all(isinstance(v, str) and CARD.match(v) for v in value):
            return Markup('<span class="cards">{}</span>').format(Markup("").join(card(v) for v in value))
        if all(not isinstance(v, (dict, list)) for v in value):
            return escape(", ".join(str(v) for v in value))
        return Markup('<ol class="items">{}</ol>').format(Markup("").join(
            Markup("<li>{}</li>").format(show(v)) for v in value))
    if value is None:
        return Markup('<span class="none">—</span>')
    if isinstance(value, bool):
        return Markup("yes" if value else "no")
    if dicey and isinstance(value, int):
        return die(value)
    return escape(str(value))


def ago(value: Any, now: datetime | None = None) -> str:
    """An ISO time as a relative one ("3 minutes ago"); the exact time stays in the element's ``datetime``."""
    try:
        at = value if isinstance(value, datetime) else datetime.fromisoformat(str(value))
    except ValueError:
        return str(value)
    if at.tzinfo is None:
        at = at.replace(tzinfo=UTC)
    seconds = int(((now or datetime.now(UTC)) - at).total_seconds())
    if seconds < 45:
        return "just now"
    for size, unit in ((86400 * 30, "month"), (86400, "day"), (3600, "hour"), (60, "minute")):
        if seconds >= size:
            count = round(seconds / size)
            return f"{count} {unit}{'' if count == 1 else 's'} ago"
    return "just now"


templates.env.filters["show"] = show
templates.env.filters["ago"] = ago
templates.env.globals["die"] = die
