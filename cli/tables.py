"""The tables people read (rich): every renderer, the consoles and the progress bar. ``cli/output.py`` is the
sink that chooses between these and ``--format json``, and loads this module only to draw a table."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from typing import Any

from pydantic import BaseModel
from rich import box
from rich.console import Console, Group, RenderableType
from rich.padding import Padding
from rich.panel import Panel
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from adapters import schemas
from cli.inert import inert, styled
from cli.options import Format
from cli.systems import Column, SystemCli

# No string is ever read as rich markup or :emoji: code (issue 29): user text shows as typed, and the CLI's own
# styling is built with ``cli.inert.styled`` or ``Text``.
out = Console(soft_wrap=True, markup=False, emoji=False)
err = Console(stderr=True, soft_wrap=True, markup=False, emoji=False)


def show(value: Any, render: Callable[[Any], RenderableType] | None = None) -> None:
    """Draw ``value`` on stdout with ``render`` (or readably)."""
    columns = os.environ.get("COLUMNS", "")
    # The width asked for now: rich reads COLUMNS only when the console is made, and a width once set would
    # stay for every later table of this process (the tests run many commands in one).
    out.width = int(columns) if columns.isdigit() else None  # type: ignore[assignment]
    value = inert(value)  # every user text in it neutralised, before any renderer sees it (cli/inert.py)
    # Wrapped to the width, never cut (issue 31): a soft-wrapping console crops every line of a panel or group
    # at the edge, so a token, a seed hash or a campaign id lost its end at 80 columns.
    out.print(render(value) if render else _generic(value), soft_wrap=False)


def _generic(value: Any) -> RenderableType:
    return json.dumps(value.model_dump(mode="json"), indent=2)


def _table(title: str, *columns: str) -> Table:
    table = Table(title=title, box=box.SIMPLE_HEAVY, title_justify="left")
    for column in columns:
        table.add_column(column)
    return table


def _short(an_id: Any) -> str:
    """An id as the tables show it, and as commands take it: its first 8 characters."""
    return str(an_id)[:8]


def _is_id(value: Any) -> bool:
    """A whole id (a UUID as text), shown short."""
    return isinstance(value, str) and len(value) == 36 and value.count("-") == 4


# -- any value, whatever its shape: plain text for people, never a Python repr ------------------------------
def _is_die(value: Any) -> bool:
    """A die as the views give it (``schemas.Die``): its face, or null while hidden, and whether it is cupped."""
    return isinstance(value, dict) and {"value", "in_cup"} <= set(value) <= {"value", "in_cup", "seen_before_rewind"}


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _die_text(die: dict[str, Any]) -> str:
    face = "?" if die.get("value") is None else str(die["value"])
    face += "*" if die.get("seen_before_rewind") else ""  # shown before a rewind, so public (C-8)
    return f"({face})" if die.get("in_cup") else face


def _plain(value: Any, nested: bool = False) -> str:
    """One value as readable text: ``-`` for nothing, ``yes``/``no``, dice as ``4 5 (2)``, a mapping as
    ``name: value, …`` (in brackets when nested in another value)."""
    if value is None or value == "":
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (str, int, float)):
        return str(value)
    if isinstance(value, dict):
        if not value:
            return "-"
        if _is_die(value):
            return _die_text(value)
        text = ", ".join(f"{k}: {_plain(v, True)}" for k, v in value.items())
        return f"({text})" if nested else text
    if isinstance(value, (list, tuple, set, frozenset)):
        items = list(value)
        if not items:
            return "-"
        if all(_is_die(d) for d in items):  # with their positions, counting from 1 (as --cup takes them)
            return " ".join(f"{n}:{_die_text(d)}" for n, d in enumerate(items, 1))
        if all(_is_number(x) for x in items):
            return " ".join(map(str, items))
        return ", ".join(_plain(x, True) for x in items)
    return str(value)


def _fields(values: dict[str, Any], skip: Sequence[str] = ()) -> str:
    """``key=value, …`` for an event's detail, as plain text (the consoles read no markup: cli/inert.py)."""
    return ", ".join(f"{k}={_plain(v, True)}" for k, v in values.items() if k not in skip)


def _is_record_list(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(x, dict) and not _is_die(x) for x in value)


def _is_record_map(value: Any) -> bool:
    """A mapping of names to records, such as a challenge's sides: drawn as one column per name."""
    return (isinstance(value, dict) and bool(value) and not _is_die(value)
            and all(isinstance(v, dict) or v is None for v in value.values())
            and any(isinstance(v, dict) and v and not _is_die(v) for v in value.values()))


def _depth(value: Any) -> int:
    """How deep a value nests: 0 for a scalar or a die, one more for each list or mapping around it."""
    if isinstance(value, dict) and not _is_die(value):
        return 1 + max(map(_depth, value.values()), default=0)
    if isinstance(value, (list, tuple)):
        return 1 + max(map(_depth, value), default=0)
    return 0


def _keys(records: Sequence[Any]) -> list[str]:
    keys: dict[str, None] = {}
    for record in records:
        if isinstance(record, dict):
            keys.update(dict.fromkeys(map(str, record)))
    return list(keys)


def _render(value: Any, depth: int = 0) -> RenderableType:
    """Any value as a renderable: records side by side in a table, mappings as a grid, the rest as text.

    Deep down, or with many columns, a list of records is one line per record: a table squeezed into what is
    left of the width would fold every cell to a letter or two, or to nothing. For the same reason records
    side by side must be shallow; deeper ones are drawn one under the other."""
    if _is_record_map(value) and _depth(value) <= 4:
        table = Table(box=box.SIMPLE, show_edge=False, pad_edge=False)
        table.add_column("")
        for name in value:
            table.add_column(str(name))
        for key in _keys(list(value.values())):
            table.add_row(Text(key, style="dim"),
                          *(_render(r[key], depth + 1) if isinstance(r, dict) and key in r
                            else Text("-" if r is None else "") for r in value.values()))
        return table
    if _is_record_list(value):
        columns = _keys(value)
        if depth >= 2 or len(columns) > 5:
            return _text("\n".join(_plain(record, True) for record in value))
        table = Table(box=box.SIMPLE, show_edge=False, pad_edge=False)
        for column in columns:
            table.add_column(column)
        for record in value:
            table.add_row(*(_text(_plain(record.get(c), True)) if c in record else "" for c in columns))
        return table
    if isinstance(value, dict) and value and not _is_die(value):
        grid = Table.grid(padding=(0, 2))
        grid.add_column(style="dim", no_wrap=True)
        grid.add_column()
        for key, item in value.items():
            grid.add_row(Text(str(key)), _render(item, depth + 1))
        return grid
    return _text(_plain(value))


def _text(text: str) -> Text:
    """Plain text (never read as markup) that folds rather than losing its end, as a seed hash would."""
    return Text(text, overflow="fold")


def seed_hash(value: str | None) -> str:
    """A unit's published seed hash as a table shows it (issue 31): its first 12 characters, enough to tell it
    by; ``--format json`` has it whole and ``stakes challenge verify`` checks it (C-4)."""
    return f"seed hash {value[:12]} (stakes challenge verify checks it)" if value else "seed hash -"


def kind_label(kind: str) -> str:
    """A unit's kind as the table says it ("combat", "roll"): its system's word, never a class name (issue 31)."""
    from cli.systems import label

    return label(kind)


def _state(state: dict[str, Any]) -> RenderableType:
    """A unit's whole state, whatever its kind (a Penny Ante challenge, a Pool roll or contest, …)."""
    return Padding(_render(state) if state else Text("-"), (0, 0, 0, 2))


#: How to read seat -> the name the table knows it by, for the command running now (``session.run`` sets it;
#: read at most once, when a drawing first names a seat: names, not handles). A seat it does not name is said
#: as the seat ("house" as "the House").
NAMES_OF: ContextVar[Callable[[], dict[str, str]] | None] = ContextVar("names_of", default=None)
_NAMES_READ: ContextVar[tuple[Any, dict[str, str]] | None] = ContextVar("names_read", default=None)


def seat_name(seat: str) -> str:
    read = NAMES_OF.get()
    names: dict[str, str] = {}
    if read is not None:
        kept = _NAMES_READ.get()
        if kept is None or kept[0] is not read:
            try:
                kept = (read, read())
            except Exception:  # a drawing never fails for a name: the seat is said as it is
                kept = (read, {})
            _NAMES_READ.set(kept)
        names = kept[1]
    return names.get(seat) or ("the House" if seat == "house" else seat)


def _waiting(waiting_for: Sequence[str]) -> str:
    names = [seat_name(s) for s in waiting_for]
    said = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1] if names else ""
    return f"The table waits for {said}." if waiting_for else ""


def _limits(a: schemas.LegalAction) -> str:
    """A move's limits in words: what it chooses from (the command line beside it fills the choices in), how
    many, what it must repeat after an undo (C-7) or which fields it needs, then any limit of the system's own."""
    limits = a.model_dump(exclude_none=True, mode="json")
    limits.pop("action", None)
    field, choices, required = limits.pop("field", None), limits.pop("choices", None), limits.pop("required", None)
    low, high, step = limits.pop("min", None), limits.pop("max", None), limits.pop("step", None)
    said = []
    if isinstance(choices, list) and choices and all(not isinstance(c, dict | list) for c in choices):
        said.append(f"{(field or 'choices').replace('_', ' ')}: {', '.join(map(str, choices))}")
    elif choices is not None:
        said.append(f"{(field or 'choices').replace('_', ' ')}: {_plain(choices, True)}")
    if low is not None and high is not None:
        said.append(f"from {low} to {high}" + (f", in steps of {step}" if step not in (None, 1) else ""))
    elif high is not None:
        said.append(f"at most {high}")
    elif low is not None:
        said.append(f"at least {low}")
    if required is not None:
        said.append(f"as before the undo (C-7): {_plain(required, True)}" if field else
                    f"needs {', '.join(str(r).replace('_', ' ') for r in required)}")
    for key, value in limits.items():
        words = key.replace("_", " ")
        if value is True:
            said.append(words)
        elif value is not False:
            said.append(f"{words}: {_short(value) if _is_id(value) else _plain(value, True)}")
    return "; ".join(said)


#: The seat an embedded CLI acts as when it is not the House (``session.run`` sets it): the command line that plays
#: a listed move carries ``--as`` then, or, typed as shown, it would act as the House.
ACTING_AS: ContextVar[str | None] = ContextVar("acting_as", default=None)


def _shell(value: object) -> str:
    """A value as a shell takes it as one word (``'Love Conquers All'``)."""
    import shlex

    return shlex.quote(str(value))


def _how(a: schemas.LegalAction, system: str | None) -> str:
    """The command line that plays a listed move (every listed move is playable from its listing alone): the
    command of the unit's action, or the campaign command the unit lists (an answer to something offered into
    it), with the values the listing fixes (an id, the one choice) and a placeholder for each other it needs."""
    from cli import catalogue

    found = [c for c in catalogue.load()["commands"] if (system is None or system in c["systems"])
             and (c["action"] == a.action or (c["listed"] and c["verb"] == a.action))]
    if not found:
        return "-"
    entry = min(found, key=lambda c: len(c["words"].split()) == 1)  # the grouped words (combat show), not show
    limits = a.model_dump(exclude_none=True, mode="json")
    choices = limits.get("choices") if isinstance(limits.get("choices"), list) else None
    words = ["stakes", entry["words"]]
    flags = {p["name"]: p["option"] for p in entry["params"] if p["kind"] == "bool"}
    named = [str(c).replace("-", "_") for c in choices or [] if isinstance(c, str)]
    if choices and not limits.get("field") and named and len(named) == len(choices) and all(n in flags for n in named):
        # the choices name the move's flags: one of them is the line's
        picked = [flags[n] for n in named]
        words.append(picked[0] if len(picked) == 1 else "{" + "|".join(picked) + "}")
    ranges = choices[0] if choices and len(choices) == 1 and isinstance(choices[0], dict) else {}
    for p in entry["params"]:
        value: str | None = None
        fixed = ranges.get(p["name"]) if isinstance(ranges.get(p["name"]), list) else None
        if p["name"] == limits.get("field") and choices and all(not isinstance(c, dict | list) for c in choices):
            value = _shell(choices[0]) if len(choices) == 1 else "{" + "|".join(_shell(c) for c in choices) + "}"
            low, high = limits.get("min"), limits.get("max")
            if (p["kind"] == "list" or p["parser"]) and len(choices) > 1 and isinstance(high, int) and high > 1:
                # several of them: "<2 of {a|b|c}>" (each its own word), or "<0 to 3 of {1|2|3}, comma-separated>"
                many = str(high) if low == high else f"{low or 0} to {high}"
                value = f"<{many} of {value}{', comma-separated' if p['parser'] else ''}>"
        elif isinstance(limits.get(p["name"]), str | int) and not isinstance(limits.get(p["name"]), bool):
            raw = limits[p["name"]]
            value = _short(raw) if _is_id(raw) else _shell(raw)
        elif fixed and len(fixed) == 2 and all(isinstance(v, int) for v in fixed) and fixed[0] == fixed[1]:
            value = str(fixed[0])  # a range of one value (declared before, C-9)
        elif fixed and None not in fixed and len(fixed) == 1 and isinstance(fixed[0], str):
            value = _shell(fixed[0])  # the one value it must take (as declared, C-9)
        elif p["required"]:
            value = f"<{p['name']}>"
        if value is not None:
            words.append(value if p["positional"] else f"{p['option']} {value}")
    acting = ACTING_AS.get()
    if acting is not None:
        words.append(f"--as {_shell(acting)}")
    return " ".join(words)


def _legal(actions: Sequence[schemas.LegalAction], waiting_for: Sequence[str] | None = (),
           system: str | None = None) -> RenderableType:
    """What the viewing seat may do now, each with the command line that plays it (``system``: the unit's, so the
    command is its own); when nothing, whom the table waits for. ``None``: a replay's step, drawn as the unit
    stood then, with nothing to do (``cli/history.py``)."""
    if waiting_for is None:
        return Text("")
    if not actions:
        return Text.assemble(("Nothing to do for you now.", "dim"), (" " + _waiting(waiting_for)) if waiting_for else "")
    legal = _table("What you can do now", "action", "limits", "to play it")
    for a in actions:
        legal.add_row(a.action, _limits(a), Text(_how(a, system)))
    return Group(legal, _waiting(waiting_for)) if waiting_for else legal


def campaign(c: schemas.CampaignView) -> RenderableType:
    settings = _fields({k: v for k, v in c.settings.items() if v is not None})
    state = f"adventure {c.adventure} running" if c.adventure_running else (
        f"between adventures (last: {c.adventure})" if c.adventure else "no adventure yet")
    players: RenderableType = Text("No player seated yet: 'stakes player add' seats one.", style="dim")
    if c.players:
        seated = _table("Players", "seat", "character")
        for p in c.players:
            seated.add_row(p.seat, p.character)
        players = seated
    return Group(styled("[bold]{}[/] ({}) [dim]{}[/]", c.name, c.system, c.id), f"settings: {settings}", state,
                 players)


def campaigns(items: list[schemas.CampaignView]) -> RenderableType:
    """Each campaign as a row: its name over its whole id (as --campaign takes it), then its system, seats and
    adventure, none of them ever cut or broken mid-word at 80 columns (issue 31): the name wraps between words
    within the width of the id; the short columns never wrap."""
    table = Table(title="Campaigns", box=box.SIMPLE_HEAVY, title_justify="left", pad_edge=False, collapse_padding=True)
    table.add_column("campaign", min_width=36, overflow="fold")
    for column in ("system", "players", "adventure"):
        table.add_column(column, no_wrap=True)
    for c in items:
        table.add_row(Text.assemble((c.name, "bold"), "\n", (str(c.id), "dim")), c.system, str(len(c.players)),
                      f"{c.adventure or '-'}{' running' if c.adventure_running else ''}")
    return table


def token_notice(label: str, token: str) -> RenderableType:
    return Panel(styled("{}\n[dim]Shown once. {}[/]", token, label), title="seat token", expand=False)


def created(c: schemas.CampaignCreated) -> RenderableType:
    if c.house_token is None:  # embedded creations always hold one; a server's replay never (ADR 0028)
        return Group(campaign(c.campaign), styled("[dim]{}[/]", c.note or "no House token in this answer"))
    return Group(campaign(c.campaign), token_notice("It is the House's: keep it to run the server for players.",
                                                    c.house_token))


# -- each system's renderers, by the name of what they render ------------------------------------------------
def _systems() -> list[SystemCli]:
    from cli import catalogue, systems

    return [systems.of(module) for module in catalogue.load()["cli_modules"]]


@cache
def renderers() -> dict[str, Callable[[Any], RenderableType]]:
    """Every system's renderers (``cli/systems/<package>.py``, ``CLI.renderers``): schema name -> renderer."""
    found: dict[str, Callable[[Any], RenderableType]] = {}
    for own in _systems():
        found.update(own.renderers)
    return found


def _key(value: Any) -> str:
    """What a value is, for its renderer: its schema's name, or ``list[<name>]``."""
    if isinstance(value, list):
        return f"list[{type(value[0]).__name__}]" if value else "list"
    return type(value).__name__


def render(value: Any) -> RenderableType:
    """A value as its system draws it, else as any unit's state, else readably (never a Python repr)."""
    found = renderers().get(_key(value))
    if found is not None:
        return found(value)
    if isinstance(value, schemas.PlayerAdded):  # answered with the system's own sheet schema
        return player_added(value)
    if isinstance(value, schemas.ResolutionView):
        own = renderers().get(f"unit:{value.kind}")  # a system's own drawing of this kind of unit (ADR 0030)
        if own is not None:
            return own(value)
        state = {k: v for k, v in value.state.items() if k != "seed_hash"}
        parts: list[RenderableType] = [
            styled("[bold]{}[/] {}  step [bold]{}[/]", kind_label(value.kind).capitalize(), _short(value.id),
                   value.phase), _state(state)]
        if "seed_hash" in value.state:
            parts.append(Text(seed_hash(value.state["seed_hash"]), style="dim"))
        return Group(*parts, _legal(value.legal_actions, value.waiting_for))
    if isinstance(value, list):
        return Group(*(render(v) for v in value)) if value else Text("-")
    return _state(value.model_dump(mode="json")) if isinstance(value, BaseModel) else Text(_plain(value))


def sheet(s: Any) -> RenderableType:
    return render(s)


def sheets(items: list[Any]) -> RenderableType:
    return render(items)


def resolution(v: Any) -> RenderableType:
    """Any unit of resolution: its system's own table when it has one (a Penny Ante challenge), else its whole
    state as the viewing seat may see it, whatever its shape, and what the seat may do now."""
    return render(v)


def adventure(value: Any) -> RenderableType:
    """What starting or ending an adventure answers: the campaign, or the system's own books."""
    return campaign(value) if isinstance(value, schemas.CampaignView) else render(value)


#: Where the players' browsers reach the table, for an invite's link (``session.run`` sets it: the server's
#: address, or an embedded store's ``stakes serve`` address), and whether it is this machine's own.
SERVED_AT: ContextVar[tuple[str, bool] | None] = ContextVar("served_at", default=None)


def player_added(p: schemas.PlayerAdded) -> RenderableType:
    lines = [f"Invite code for {p.sheet.seat} (works once): {p.invite}",
             f"Give it to the player of {p.sheet.seat}: 'stakes claim {p.invite}' gives that player alone the "
             "seat's token."]
    served = SERVED_AT.get()
    if served is not None and served[0]:  # the link the README's players open on their phones (code in its fragment)
        base, own = served
        lines.append(f"Or the link to open on the player's phone: {base}/web/invite#{p.invite}")
        if own:
            lines.append("  (with this machine's address on your network instead of 127.0.0.1, once the table is "
                         "served to it: 'make run HOST=0.0.0.0' or 'stakes serve --host 0.0.0.0')")
    return Group(sheet(p.sheet), "\n".join(lines))


def claimed(c: schemas.SeatClaimed) -> RenderableType:
    return token_notice(f"Seat {c.seat} in campaign {c.campaign_id} is yours.", c.token)


def session(s: schemas.Session) -> RenderableType:
    return styled("Seat [bold]{}[/] in campaign {}.", s.seat, s.campaign_id)


#: The columns of a unit whose system names none of its own: who takes part, on each side.
SIDES = (Column("who", lambda c: " vs ".join(", ".join(side) for side in (c.challenger, c.opponent) if side) or "-"),)


def _step(c: schemas.ChallengeSummary) -> str:
    """A unit's step in the list: "abandoned" (C-10) or "overturned" (C-6) whatever its phase."""
    return "abandoned" if c.summary.get("abandoned") else "overturned" if c.summary.get("overturned") else c.phase


def challenges(items: list[schemas.ChallengeSummary], limit: int | None = None) -> RenderableType:
    """Every unit of resolution: its id (as commands take it), kind and step, then its system's own columns
    (``CLI.unit_columns``, ADR 0030: a Penny Ante challenge shows its ante and pot, a Pool roll who rolled).
    A full page ends with how to ask for the next one (no log position column, issue 31)."""
    columns = {kind: own.unit_columns or SIDES for own in _systems() for kind in own.unit_kinds}
    shown = [columns.get(c.kind, SIDES) for c in items]
    extra = shown[0] if shown and all(s == shown[0] for s in shown) else SIDES
    table = _table("Challenges", "id", "kind", "step", *(col.header for col in extra))
    for c in items:
        # the unit's own word for its kind where its summary says one (a Beast conflict or action), else its label
        said = c.summary.get("kind")
        table.add_row(_short(c.id), said if isinstance(said, str) and said else kind_label(c.kind), _step(c),
                      *(col.cell(c) for col in extra))
    if not items:
        table.caption = "None yet."
    elif limit is not None and len(items) >= limit:
        table.caption = f"More may follow: --after {items[-1].position}"
    return table


@contextmanager
def progress_bar(label: str, fmt: Format) -> Iterator[Callable[[int, int], None] | None]:
    """A rich progress bar on a terminal; nothing at all in --format json mode or when piped."""
    if fmt is Format.json or not err.is_terminal:
        yield None
        return
    with Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=err,
                  transient=True) as bar:
        task = bar.add_task(label, total=None)
        yield lambda done, total: bar.update(task, completed=done, total=total)


# The renderers of history live beside this module; every caller finds them here.
from cli.history import (  # noqa: E402
    audit_report,
    imported,
    log,
    rebuilt,
    replay,
    replay_step,
    said_of,
    verification,
)

__all__ = ["audit_report", "imported", "log", "rebuilt", "replay", "replay_step", "said_of", "verification"]


# -- the campaign chart (issue 31) --------------------------------------------------------------------------------
SPARKS = "▁▂▃▄▅▆▇█"


def sparkline(values: Sequence[int], width: int = 24) -> str:
    """``values`` as one line of block characters, at most ``width`` of them (evenly chosen, the last kept)."""
    if not values:
        return ""
    if len(values) > width:
        step = (len(values) - 1) / (width - 1)
        values = [values[round(i * step)] for i in range(width)]
    low, high = min(values), max(values)
    span = high - low or 1
    return "".join(SPARKS[(v - low) * (len(SPARKS) - 1) // span] for v in values)


def chart(c: Any) -> RenderableType:
    """Each line of the campaign chart as a row: whose sheet, the value now, its low and high, and a sparkline
    (oldest left). User text (names) arrives neutralised (``show``)."""
    table = _table(f"{c.label.capitalize()} over the campaign ({c.ruling})", "Seat", "Character", "Now", "Low",
                   "High", "Changes", "Over the campaign")
    for line in c.lines:
        values = [p.value for p in line.points]
        table.add_row(line.seat, line.name, str(line.value), str(min(values, default=line.value)),
                      str(max(values, default=line.value)), str(line.recorded - 1), sparkline(values))
    if not c.lines:
        return Group(table, f"No {c.label} recorded yet.")
    if c.sampled:
        return Group(table, f"Long lines are sampled to {c.limit} points (first and last kept).")
    return table



def luck(report: Any) -> RenderableType:
    """The luck report: a row per seat and kind of draw, with its chi-square and p-value; abandoned draws apart."""
    def rows(title: str, lines: Any) -> Table:
        table = _table(title, "Whose", "Kind", "Draws", "Chi-square", "DoF", "p", "Verdict")
        for line in lines:
            p = "-" if line.p_value is None else f"{line.p_value:.3f}"
            verdict = ("too few draws to test" if line.p_value is None
                       else "unusual (p < 0.01)" if line.p_value < 0.01 else "as a fair draw gives")
            table.add_row(line.seat, line.kind, str(line.draws), f"{line.chi_square:.2f}", str(line.dof), p, verdict)
        return table

    parts: list[RenderableType] = [rows("Draws of ended units, against a fair draw (C-5)", report.settled)]
    if report.abandoned:
        parts.append(rows("Draws the House abandoned (C-10)", report.abandoned))
    if not report.settled and not report.abandoned:
        parts.append("No draw counted yet: a unit's draws count once it has ended.")
    return Group(*parts)
