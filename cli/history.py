"""Renderers of what happened: the event log, replays step by step, verification, audit, import and rebuild
reports. Part of the one output sink (``cli/output.py``), which re-exports them."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from adapters import schemas
from cli.inert import neutralise, styled
from cli.systems import Board, Phrase, Said
from cli.tables import _fields, _is_die, _is_id, _plain, _systems, _table


def _flat(value: Any, prefix: str = "") -> dict[str, Any]:
    if isinstance(value, dict) and value and not _is_die(value):
        flat: dict[str, Any] = {}
        for key, item in value.items():
            flat.update(_flat(item, f"{prefix}.{key}" if prefix else str(key)))
        return flat
    return {prefix: value}


# -- the shared words for what a system does not phrase itself: never a tuple, a repr or a class name ----------
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_HASH = re.compile(r"[0-9a-f]{64}")
_HEX_ID = re.compile(r"[0-9a-f]{32}")
_TIME = re.compile(r"\d{4}-\d\d-\d\dT(\d\d:\d\d)")
#: What the log and a replay leave out: the campaign is the one being read; a step's state is drawn apart.
_SKIP = ("campaign_id", "state")


def words(name: str) -> str:
    """A name of the program's as words: ``PlayerSeated`` -> ``Player seated``, ``helper_dice`` -> ``helper dice``."""
    return _CAMEL.sub(" ", name.replace("_", " ")).strip().capitalize()


_IDENTIFIER = re.compile(r"[a-z][a-z0-9_]*")


def _label(path: str) -> str:
    """A path of keys in words; a key that is no identifier of the program's (a name someone typed) as typed."""
    return " ".join(words(part).lower() if _IDENTIFIER.fullmatch(part) else part for part in path.split(".") if part)


def said(value: Any) -> str:
    """One value in words: ids by their first 8 characters, a seed or its hash by its first 12, a time as HH:MM,
    ``yes``/``no``, ``-`` for nothing; lists and records flattened with no brackets (issue 31)."""
    if value is None or value == "" or value == [] or value == {}:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        if _is_id(value) or _HEX_ID.fullmatch(value):
            return value.replace("-", "")[:8] if not _is_id(value) else value[:8]
        if _HASH.fullmatch(value):
            return f"{value[:12]}…"  # whole in the verify panel (stakes challenge verify)
        time = _TIME.match(value)
        return time.group(1) if time else value
    if isinstance(value, dict):
        if _is_die(value):
            return _plain(value)
        return ", ".join(f"{_label(str(k))} {said(v)}" for k, v in value.items() if said(v) != "-")
    if isinstance(value, (list, tuple)):
        if all(_is_die(x) for x in value):
            return _plain(list(value))
        shown = [said(x) for x in value]
        return ("; " if any(isinstance(x, (dict, list, tuple)) for x in value) else " ").join(shown)
    return str(value)


def said_lines(values: dict[str, Any], skip: tuple[str, ...] = _SKIP) -> list[str]:
    """A detail or a state as ``key: value`` lines, nested records flattened (``sides challenger name: Ilse``),
    nothing empty."""
    flat = _flat({k: v for k, v in values.items() if k not in skip})
    return [f"{_label(path)}: {said(v)}" for path, v in flat.items() if said(v) != "-"]


def _shortened(value: Any) -> Any:
    """A state for a board in a replay: seeds and their hashes by their first 12 characters."""
    if isinstance(value, str) and _HASH.fullmatch(value):
        return f"{value[:12]}…"
    if isinstance(value, dict):
        return {k: _shortened(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_shortened(v) for v in value]
    return value


@cache
def _hooks() -> tuple[dict[str, Phrase], dict[str, Board]]:
    """Every system's phrases (by stream kind) and boards (by unit kind): ``cli/systems/<package>.py``."""
    phrases: dict[str, Phrase] = {}
    boards: dict[str, Board] = {}
    for own in _systems():
        phrases.update(own.phrases)
        boards.update(own.boards)
    return phrases, boards


def _phrase(kind: str, event: str, detail: dict[str, Any], said: Said) -> list[str] | None:
    """The system's words for one event, as lines (the first its name), or None."""
    shown = _phrase_of(kind, event, detail, said)
    return shown.splitlines() if shown else None


def _phrase_of(kind: str, event: str, detail: dict[str, Any], said: Said) -> str | None:
    own = _hooks()[0].get(kind)
    return own(event, {k: v for k, v in detail.items() if k not in _SKIP}, said) if own else None


def _learn(kind: str, event: str, detail: dict[str, Any], said: Said) -> None:
    """What the system's phrase of an event notes in ``said`` (who plays each side), its words not shown."""
    _phrase_of(kind, event, detail, said)


def said_of(names: dict[str, str] | None, steps: list[schemas.ReplayStep], kind: str) -> Said:
    """What a unit's phrases know after reading ``steps`` in order (who plays each side, as it opened): for a
    replay shown a step at a time, whichever step comes first."""
    said = Said(names=names or {})
    for s in steps:
        _phrase(kind, s.event, s.detail, said)
    return said


def _differences(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """What a step changed, field by field: ``sides opponent last total: - → 9``."""
    old, new = _flat(before), _flat(after)
    lines = []
    for path in [*new, *(p for p in old if p not in new)]:
        was, now = said(old.get(path)), said(new.get(path))
        if was != now:
            lines.append(f"{_label(path)}: {was} → {now}")
    return lines


#: A unit's opening steps, asked for by its id (32 hex digits): ``stakes log`` reads them for a unit that opened
#: before the page (its replay's first step, as the seat may see it).
Openings = Callable[[str], Sequence[schemas.ReplayStep]]


def log(entries: schemas.EventLog, names: dict[str, str] | None = None, characters: dict[str, str] | None = None,
        opening: Openings | None = None) -> RenderableType:
    """One row per event, in words: what happened (as its system says it, else ``Kind event``) and its detail
    under it, so a narrow terminal cuts nothing. ``names`` (seat -> the name the table knows it by) names who
    acted and who plays each side; ``characters`` (a character's stream id -> its name) whose stream an event is
    on, as does an event of the page that names it; ``opening`` gives a unit that opened before the page its
    sides, so its moves are said by who plays them, as on the page where it opened."""
    streams = _streams(entries, names or {}, characters or {}, opening)
    table = Table(title="Event log", box=box.SIMPLE_HEAVY, title_justify="left")
    table.add_column("#", no_wrap=True)
    table.add_column("when", no_wrap=True)
    table.add_column("who")
    table.add_column("what", ratio=1)
    day = None
    for e in entries.entries:
        kind = e.stream.split(":")[0]
        said = streams[e.stream]
        # a stream's subject is named by its creation (a later event's ``name`` is what that event records, a
        # thing the character took, not the character)
        if said.who is None and e.event == "Created" and isinstance(e.detail.get("name"), str):
            said.who = e.detail["name"]
        phrased = _phrase(kind, e.event, e.detail, said)
        head, lines = (phrased[0], phrased[1:]) if phrased else (f"{words(kind)} {words(e.event).lower()}",
                                                                  ["; ".join(said_lines(e.detail))])
        what = Text(head, style="bold", overflow="fold")
        detail = "\n".join(line for line in lines if line)
        if detail:
            what.append(f"\n{detail}")
        if e.hidden:
            hidden = "the whole entry" if e.hidden == ["*"] else ", ".join(words(h).lower() for h in e.hidden)
            what.append(f"{' ' if detail else chr(10)}({hidden} hidden)", style="dim")
        when = f"{e.at:%H:%M}" if e.at.date() == day else f"{e.at:%d %b}\n{e.at:%H:%M}"
        day = e.at.date()
        table.add_row(str(e.position), when, Text(said.name(e.actor)), what)
    return table


def _streams(entries: schemas.EventLog, names: dict[str, str], characters: dict[str, str],
             opening: Openings | None) -> dict[str, Said]:
    """What each stream's phrases know before the page's first event of it: its character's name; for a unit
    whose opening is not that event, what its opening said (who plays each side)."""
    units = {k for own in _systems() for k in own.unit_kinds}
    silent: set[str] = set()  # kinds whose opening was read and noted no sides: not read again
    streams: dict[str, Said] = {}
    for e in entries.entries:
        if e.stream in streams:
            continue
        kind, _, oid = e.stream.partition(":")
        said = streams[e.stream] = Said(who=characters.get(oid), names=names)
        if opening is None or kind not in units or kind in silent:
            continue
        first = Said(names=names)
        _learn(kind, e.event, e.detail, first)
        if "sides" not in first.memo:  # the unit opened before this page: read how it opened
            for step in opening(oid):
                _learn(kind, step.event, step.detail, said)
            if "sides" not in said.memo:
                silent.add(kind)
    return streams


def rebuilt(report: schemas.RebuildReport) -> RenderableType:
    return f"Rebuilt every read model from {report.events} events (position {report.position})."


def verification(v: schemas.Verification) -> RenderableType:
    if not v.verifiable:
        return f"Not verifiable yet: {_plain(v.reason)}."
    # A result that carries its deck is a shuffle (C-7); any other is a die.
    cards = any(isinstance(r, dict) and "deck" in r for r in v.results or ())
    drawn, counted = ("shuffled deck", "shuffles") if cards else ("rolled die", "dice")
    verdict = (styled("[green]every server-{} matches[/]", drawn) if not v.mismatches and v.commitment_matches
               else styled("[red]{} mismatch(es); commitment matches: {}[/]", len(v.mismatches),
                           v.commitment_matches))
    return Group(Text.assemble(f"Challenge {v.challenge_id}: ", verdict),
                 f"checked {v.checked} {counted}, {v.entered} entered at the table",
                 *(f"  {_fields(m) if isinstance(m, dict) else _plain(m)}" for m in v.mismatches))


def _step_head(s: schemas.ReplayStep, total: int, kind: str, said: Said) -> list[RenderableType]:
    lines: list[RenderableType] = [
        # "sent by": whose command stored the step; a draw another seat's seed set off is stored by that seat's (C-10)
        styled("[bold]Step {}/{}[/] [bold]{}[/], sent by {} at {}", s.step, total, words(s.event), said.name(s.actor),
               f"{s.at:%H:%M}")]
    said_here = _phrase(kind, s.event, s.detail, said)
    detail = Text("; ".join(said_here) if said_here else "; ".join(said_lines(s.detail)), overflow="fold")
    if s.hidden:
        hidden = "the whole entry" if s.hidden == ["*"] else ", ".join(words(h).lower() for h in s.hidden)
        detail.append(f"{' ' if detail.plain else ''}({hidden} hidden)", style="dim")
    if detail.plain:
        lines.append(Padding(detail, (0, 0, 0, 2)))  # wrapped lines stay indented under their step
    return lines


def _board(s: schemas.ReplayStep, kind: str, unit: Any) -> RenderableType:
    """The unit after step ``s``: its system's board (as ``challenge show`` draws it, without moves), else its
    state as ``key: value`` lines."""
    own = _hooks()[1].get(kind)
    if own is not None:
        return Padding(own(unit, _shortened(s.state)), (0, 0, 0, 2))
    return Padding(Text("\n".join(said_lines(s.state, ())) or "-", overflow="fold"), (0, 0, 0, 2))


def replay_step(s: schemas.ReplayStep, total: int, kind: str = "", unit: Any = None,
                said: Said | None = None) -> RenderableType:
    """One step: the event, what it changed, and the whole unit after it, whatever its kind. ``said``: what its
    phrases know (``said_of`` the replay's steps)."""
    return Group(*_step_head(s, total, kind, said or Said()), f"  changed: {', '.join(words(c).lower() for c in s.changes) or '-'}",
                 Text("  state after this step:", style="dim"), _board(s, kind, unit))


def replay(r: schemas.Replay, names: dict[str, str] | None = None, known: Said | None = None) -> RenderableType:
    """Every step in words; without a board of its system's, what each changed, field by field; the unit as it
    stood at the last step drawn as ``challenge show`` draws it. ``names``: seat -> the name the table knows;
    ``known``: what the phrases learnt from the whole replay (``said_of``), for a replay of one step."""
    head = styled("[bold]Replay[/] of {} {}: {} steps{}", words(r.kind) if r.kind else "challenge",
                  str(r.challenge_id)[:8], r.total, "; revealed, nothing is hidden any more" if r.revealed else "")
    said = known or Said(names=names or {})
    if len(r.steps) <= 1:
        return Group(head, *(replay_step(s, r.total, r.kind, r.challenge_id, said) for s in r.steps))
    parts: list[RenderableType] = [head]
    drawn = r.kind in _hooks()[1]
    before: dict[str, Any] | None = None
    for s in r.steps:
        parts.extend(_step_head(s, r.total, r.kind, said))
        if drawn:
            pass  # the step says what happened; the board is drawn once, at the end
        elif before is None:
            parts.extend([Text("  state after this step:", style="dim"), _board(s, r.kind, r.challenge_id)])
        else:
            changed = _differences(before, s.state)
            parts.extend(Padding(Text(line, style="cyan", overflow="fold"), (0, 0, 0, 2)) for line in changed)
            if not changed:
                parts.append(Text("  the state did not change", style="dim"))
        before = s.state
    last = r.steps[-1]
    parts.extend([Text(f"State after step {last.step}", style="bold"), _board(last, r.kind, r.challenge_id)])
    return Group(*parts)


def audit_report(r: schemas.AuditReport) -> RenderableType:
    if r.intact:
        return Group(styled("[green]The log of campaign {} is intact[/]: {} events chained.", r.campaign_id,
                            r.events), Text(f"head {r.head}", style="dim"))
    b = r.first_broken
    assert b is not None
    if b.kind == "read-model-altered":
        return _read_models_report(r)
    return Group(styled("[red]The log of campaign {} was tampered with[/]: first broken link at event {} "
                        "(notification {}): {}. {}.", r.campaign_id, b.position, b.notification_id, b.kind,
                        b.detail))


def _read_models_report(r: schemas.AuditReport) -> RenderableType:
    """The log is intact, but rows of the read models are not what its events project to (issue 29). The House
    sees each row, another seat each table and kind, counted (C-5). Every value is shown literally."""
    table = _table("Read-model rows that differ from the events", "table", "difference", "rows", "row", "found",
                   "the events say")
    for d in r.read_model_differences:
        key = ", ".join(f"{k}={v}" for k, v in (d.key or {}).items())
        found = "; ".join(f"{c}={(d.found or {}).get(c)!r}" for c in d.columns) if d.kind == "altered" else ""
        expected = "; ".join(f"{c}={(d.expected or {}).get(c)!r}" for c in d.columns) if d.kind == "altered" else ""
        table.add_row(*(Text(neutralise(str(v))) for v in (d.table, d.kind, d.rows, key, found, expected)))
    total = r.read_model_rows or sum(d.rows for d in r.read_model_differences)
    return Group(styled("[red]The read models of campaign {} were edited[/]: the log is intact ({} events "
                        "chained), but {} row(s) differ from what its events project to.", r.campaign_id, r.events,
                        total), table)


def imported(r: schemas.ImportReport) -> RenderableType:
    from cli.tables import token_notice

    invites = _table("One-time invite codes (hand each to its player)", "seat", "invite")
    for seat, code in r.invites.items():
        invites.add_row(seat, code)
    return Group(f"Imported campaign {r.imported_from} as {r.campaign_id}: {r.events} events, chain verified "
                 f"(head {r.head}). It is now your current campaign, and you hold its House seat.",
                 token_notice("The House's new token.", r.house_token), invites)
