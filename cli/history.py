"""Renderers of what happened: the event log, replays step by step, verification, audit, import and rebuild
reports. Part of the one output sink (``cli/output.py``), which re-exports them."""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from adapters import schemas
from cli.inert import neutralise, styled
from cli.tables import _fields, _is_die, _plain, _state, _table


def _flat(value: Any, prefix: str = "") -> dict[str, Any]:
    if isinstance(value, dict) and value and not _is_die(value):
        flat: dict[str, Any] = {}
        for key, item in value.items():
            flat.update(_flat(item, f"{prefix}.{key}" if prefix else str(key)))
        return flat
    return {prefix: value}


def _differences(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """What a step changed, field by field: ``sides.opponent.last.total: - → 9``."""
    old, new = _flat(before), _flat(after)
    lines = []
    for path in [*new, *(p for p in old if p not in new)]:
        was, now = _plain(old.get(path), True), _plain(new.get(path), True)
        if was != now:
            lines.append(f"{path}: {was} → {now}")
    return lines


def log(entries: schemas.EventLog) -> RenderableType:
    """One row per event: the event's name in full, its detail under it (so a narrow terminal cuts neither)."""
    names = [f"{e.stream.split(':')[0]}.{e.event}" for e in entries.entries]
    table = Table(title="Event log", box=box.SIMPLE_HEAVY, title_justify="left")
    table.add_column("#", no_wrap=True)
    table.add_column("when", no_wrap=True)  # the date over the time: room for the names
    table.add_column("who")
    table.add_column("what", ratio=1, min_width=max(map(len, names), default=4))  # a name is never cut
    for e, name in zip(entries.entries, names):
        what = Text(name, style="bold", overflow="fold")
        detail = _fields(e.detail, skip=("campaign_id",))
        if detail:
            what.append(f"\n{detail}")
        if e.hidden:
            what.append(f"{' ' if detail else chr(10)}({', '.join(e.hidden)} hidden)", style="dim")
        table.add_row(str(e.position), e.at.strftime("%Y-%m-%d\n%H:%M:%S"), Text(e.actor), what)
    return table


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


def _step_head(s: schemas.ReplayStep, total: int) -> list[RenderableType]:
    lines: list[RenderableType] = [
        styled("[bold]Step {}/{}[/] [bold]{}[/] by {} at {}", s.step, total, s.event, s.actor,
               f"{s.at:%Y-%m-%d %H:%M:%S}")]
    detail = Text(_fields(s.detail, skip=("campaign_id", "state")))
    if s.hidden:
        hidden = "the whole entry" if s.hidden == ["*"] else ", ".join(s.hidden)
        detail.append(f"{' ' if detail.plain else ''}({hidden} hidden)", style="dim")
    if detail.plain:
        lines.append(Text.assemble("  ", detail))
    return lines


def replay_step(s: schemas.ReplayStep, total: int) -> RenderableType:
    """One step: the event, what it changed, and the whole state after it, whatever the unit's kind."""
    return Group(*_step_head(s, total), f"  changed: {', '.join(s.changes) or '-'}",
                 Text("  state after this step:", style="dim"), _state(s.state))


def replay(r: schemas.Replay) -> RenderableType:
    """Every step with what it changed, field by field; the state in full at the first and the last step."""
    head = styled("[bold]Replay[/] of challenge {}: {} steps{}", r.challenge_id, r.total,
                  " (revealed: nothing is hidden any more)" if r.revealed else "")
    if len(r.steps) <= 1:
        return Group(head, *(replay_step(s, r.total) for s in r.steps))
    parts: list[RenderableType] = [head]
    before: dict[str, Any] | None = None
    for s in r.steps:
        parts.extend(_step_head(s, r.total))
        if before is None:
            parts.extend([Text("  state after this step:", style="dim"), _state(s.state)])
        else:
            changed = _differences(before, s.state)
            parts.extend(Text(f"  {line}", style="cyan") for line in changed)
            if not changed:
                parts.append(Text("  the state did not change", style="dim"))
        before = s.state
    last = r.steps[-1]
    parts.extend([Text(f"State after step {last.step}", style="bold"), _state(last.state)])
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
                 f"(head {r.head}).", token_notice("The House's new token.", r.house_token), invites)
