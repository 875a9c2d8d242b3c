"""One output sink: rich tables for people, ``--format json`` for scripts; errors to stderr."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from enum import Enum
from typing import Any

from pydantic import BaseModel
from rich import box
from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from adapters import schemas

out = Console(soft_wrap=True)
err = Console(stderr=True, soft_wrap=True)


class Format(str, Enum):
    table = "table"
    json = "json"


def emit(value: BaseModel | Sequence[BaseModel], fmt: Format, render: Callable[[Any], RenderableType] | None = None) -> None:
    if fmt is Format.json:
        data = [v.model_dump(mode="json") for v in value] if isinstance(value, (list, tuple)) else value.model_dump(mode="json")  # type: ignore[union-attr]
        print(json.dumps(data, indent=2))
        return
    out.print(render(value) if render else _generic(value))


def _generic(value: Any) -> RenderableType:
    return json.dumps(value.model_dump(mode="json"), indent=2)


def _table(title: str, *columns: str) -> Table:
    table = Table(title=title, box=box.SIMPLE_HEAVY, title_justify="left")
    for column in columns:
        table.add_column(column)
    return table


def _short(loan_id: Any) -> str:
    return str(loan_id)[:8]


def campaign(c: schemas.CampaignView) -> RenderableType:
    settings = ", ".join(f"{k}={v}" for k, v in c.settings.items() if v is not None)
    state = f"adventure {c.adventure} running" if c.adventure_running else (
        f"between adventures (last: {c.adventure})" if c.adventure else "no adventure yet")
    players = _table("Players", "seat", "character")
    for p in c.players:
        players.add_row(p.seat, p.character)
    return Group(f"[bold]{c.name}[/] ({c.system}) [dim]{c.id}[/]", f"settings: {settings}", state, players)


def campaigns(items: list[schemas.CampaignView]) -> RenderableType:
    table = _table("Campaigns", "id", "name", "system", "players", "adventure")
    for c in items:
        table.add_row(str(c.id), c.name, c.system, str(len(c.players)),
                      f"{c.adventure}{' (running)' if c.adventure_running else ''}")
    return table


def token_notice(label: str, token: str) -> RenderableType:
    return Panel(f"{token}\n[dim]Shown once. {label}[/]", title="seat token", expand=False)


def created(c: schemas.CampaignCreated) -> RenderableType:
    return Group(campaign(c.campaign), token_notice("It is the House's: keep it to run the server for players.",
                                                    c.house_token))


def player_added(p: schemas.PlayerAdded) -> RenderableType:
    return Group(sheet(p.sheet), token_notice(f"Hand it to {p.sheet.seat}; it acts only for {p.sheet.name}.", p.token))


def _loan_rows(title: str, loans: list[schemas.LoanLine], other: str) -> Table:
    table = _table(title, "loan", other, "amount", "outstanding", "status")
    for loan in loans:
        table.add_row(_short(loan.loan_id), getattr(loan, other), str(loan.amount), str(loan.outstanding), loan.status)
    return table


def sheet(s: schemas.Sheet | schemas.PoolSheet) -> RenderableType:
    if isinstance(s, schemas.PoolSheet):
        return pool_sheet(s)
    head = _table(f"{s.name} ({s.seat})", "pile", "in play", "spent")
    head.add_row(str(s.pile), str(s.in_play), str(s.spent))
    traits = _table("Characteristics", "name", "cost")
    for t in s.characteristics:
        traits.add_row(t.name, "free" if t.cost == 0 else str(t.cost))
    parts: list[RenderableType] = [head, traits]
    if s.owes:
        parts.append(_loan_rows("Owes", s.owes, "lender"))
    if s.owed:
        parts.append(_loan_rows("Is owed", s.owed, "borrower"))
    if s.offers:
        table = _table("Open loan offers", "loan", "lender", "borrower", "amount")
        for o in s.offers:
            table.add_row(_short(o.loan_id), o.lender, o.borrower, str(o.amount))
        parts.append(table)
    return Group(*parts)


def sheets(items: list[Any]) -> RenderableType:
    if items and isinstance(items[0], schemas.PoolSheet):
        table = _table("Characters", "seat", "character", "pool", "traits", "moves")
        for s in items:
            table.add_row(s.seat, s.name, str(s.pool), ", ".join(f"{n} +{r}" for n, r in s.traits.items()),
                          ", ".join(s.moves))
        return table
    table = _table("Characters", "seat", "character", "pile", "in play", "characteristics", "owes")
    for s in items:
        table.add_row(s.seat, s.name, str(s.pile), str(s.in_play), ", ".join(t.name for t in s.characteristics),
                      str(sum(o.outstanding for o in s.owes)))
    return table


def antagonists(items: list[schemas.Antagonist]) -> RenderableType:
    table = _table("Antagonists and obstacles", "name", "kind", "pennies", "characteristics")
    for a in items:
        table.add_row(a.name, a.kind, str(a.pennies),
                      "[dim]hidden[/]" if a.characteristics is None else ", ".join(a.characteristics))
    return table


def antagonist(a: schemas.Antagonist) -> RenderableType:
    return antagonists([a])


def adventure(value: Any) -> RenderableType:
    return budget(value) if isinstance(value, schemas.HouseBudget) else campaign(value)


def budget(b: schemas.HouseBudget) -> RenderableType:
    state = f"adventure {b.adventure}: House pile {b.pile}" if b.adventure_running else "no adventure running"
    table = _table("Adventures", "#", "player piles", "opening", "pile", "allocated", "retired", "note", "ended")
    for a in b.adventures:
        table.add_row(str(a.number), str(a.player_piles), str(a.opening_pile), str(a.pile), str(a.allocated),
                      str(a.retired), a.note or "", "yes" if a.ended_at else "")
    allocations = _table("Allocations", "adventure", "antagonist", "amount")
    for a in b.adventures:
        for al in a.allocations:
            allocations.add_row(str(a.number), al.antagonist, str(al.amount))
    return Group(f"[bold]House budget[/]: {state}", antagonists(b.antagonists), table, allocations)


def loan(item: schemas.Loan) -> RenderableType:
    return debts(schemas.DebtRegister(campaign_id=item.loan_id, loans=[item]), title=f"Loan {item.loan_id}")


def debts(register: schemas.DebtRegister, title: str = "Debt register") -> RenderableType:
    table = _table(title, "loan", "lender", "borrower", "amount", "outstanding", "status", "history")
    for item in register.loans:
        history = "; ".join(
            f"{h.what} by {h.actor}" + (f" ({h.amount})" if h.amount else "") + (f": {h.note}" if h.note else "")
            for h in item.history)
        table.add_row(_short(item.loan_id), item.lender, item.borrower, str(item.amount), str(item.outstanding),
                      item.status, history)
    return table


def log(entries: schemas.EventLog) -> RenderableType:
    table = _table("Event log", "#", "when", "who", "what", "detail")
    for e in entries.entries:
        detail = ", ".join(f"{k}={v}" for k, v in e.detail.items() if k != "campaign_id")
        if e.hidden:
            detail += f" [dim]({', '.join(e.hidden)} hidden)[/]"
        table.add_row(str(e.position), e.at.strftime("%Y-%m-%d %H:%M:%S"), e.actor,
                      f"{e.stream.split(':')[0]}.{e.event}", detail)
    return table


def rebuilt(report: schemas.RebuildReport) -> RenderableType:
    return f"Rebuilt every read model from {report.events} events (position {report.position})."


def session(s: schemas.Session) -> RenderableType:
    return f"Seat [bold]{s.seat}[/] in campaign {s.campaign_id}."


def _dice(dice: list[schemas.Die]) -> str:
    shown = []
    for d in dice:
        face = "?" if d.value is None else str(d.value)
        shown.append(f"[dim]({face})[/]" if d.in_cup else f"[bold]{face}[/]")
    return " ".join(shown) or "-"


def challenge(v: schemas.ChallengeView) -> RenderableType:
    """The table: dice (cup in brackets), circumstances, pot, wagers, turn and the legal actions."""
    header = (f"[bold]Challenge[/] {v.id}  step [bold]{v.phase}[/]  ante {v.ante}  pot [bold]{v.pot}[/]"
              + (f"  stake {v.stake}" if v.stake is not None else "") + ("  table dice" if v.table else ""))
    sides = _table("Sides", "side", "who", "characteristics", "dice", "wager", "")
    for name, side in v.sides.items():
        marks = " ".join(m for m, on in (("all-in", side.all_in), ("← turn", v.turn == name),
                                         ("(you)", v.your_side == name)) if on)
        sides.add_row(name, ", ".join(side.members), ", ".join(side.characteristics) or "-", _dice(side.dice),
                      str(side.wager), marks)
    circumstances = _table("Circumstances", "step", "side", "circumstance", "die", "barred for")
    for c in v.circumstances:
        circumstances.add_row(str(c.step), c.side, c.text, "-" if c.die is None else str(c.die), c.barred or "")
    legal = _table("What you can do now", "action", "limits")
    for a in v.legal_actions:
        limits = ", ".join(f"{k}={val}" for k, val in a.model_dump(exclude_none=True).items() if k != "action")
        legal.add_row(a.action, limits)
    parts: list[RenderableType] = [header, f"[dim]seed hash {v.seed_hash}[/]", sides]
    if v.circumstances:
        parts.append(circumstances)
    if v.result:
        r = v.result
        parts.append(f"[bold]Result[/]: winner {r.get('winner') or 'none (a draw)'} by {r.get('reason')}; "
                     f"narrates: {r.get('narrator') or '-'}; payouts {r.get('payouts') or {}}")
        if r.get("scores"):
            parts.append("Scores: " + "; ".join(f"{s} {x['score']} ({x['category']}: {x['hand']})"
                                                 for s, x in r["scores"].items()))
    if v.bankrupts:
        parts.append("Bankrupt: " + "; ".join(f"{m} {b['status']}, bids {b['bids']}" for m, b in v.bankrupts.items()))
    if v.secret_seed:
        parts.append(f"[dim]secret seed {v.secret_seed}[/]")
    parts.append(legal if v.legal_actions else "[dim]Nothing to do for you now.[/]")
    return Group(*parts)


def challenges(items: list[schemas.ChallengeSummary]) -> RenderableType:
    table = _table("Challenges", "id", "step", "challenger", "opponent", "ante", "pot")
    for c in items:
        table.add_row(str(c.id), c.phase, ", ".join(c.challenger), ", ".join(c.opponent), str(c.ante), str(c.pot))
    return table


def verification(v: schemas.Verification) -> RenderableType:
    if not v.verifiable:
        return f"Not verifiable yet: {v.reason}."
    verdict = "[green]every server-rolled die matches[/]" if not v.mismatches and v.commitment_matches else (
        f"[red]{len(v.mismatches)} mismatch(es); commitment matches: {v.commitment_matches}[/]")
    return Group(f"Challenge {v.challenge_id}: {verdict}",
                 f"checked {v.checked} dice, {v.entered} entered at the table",
                 *(f"  slot {m['slot']}: recorded {m['recorded']}, derived {m['derived']}" for m in v.mismatches))


def replay_step(s: schemas.ReplayStep, total: int) -> RenderableType:
    detail = ", ".join(f"{k}={v}" for k, v in s.detail.items() if k not in ("campaign_id", "state"))
    if s.hidden:
        detail += f" [dim]({', '.join(s.hidden)} hidden)[/]"
    state = s.state
    sides = " | ".join(
        f"{name}: {_dice([schemas.Die(**d) for d in side['dice']])} wager {side['wager']}"
        for name, side in state["sides"].items())
    return Group(
        f"[bold]Step {s.step}/{total}[/] {s.event} by {s.actor} at {s.at:%Y-%m-%d %H:%M:%S}",
        f"  {detail}" if detail else "",
        f"  changed: {', '.join(s.changes) or '-'}",
        f"  [dim]{state['phase']}, pot {state['pot']}, turn {state['turn'] or '-'}; {sides}[/]",
    )


def replay(r: schemas.Replay) -> RenderableType:
    head = f"[bold]Replay[/] of challenge {r.challenge_id}: {r.total} steps" + (
        " (revealed: every die is shown)" if r.revealed else "")
    return Group(head, *(replay_step(s, r.total) for s in r.steps))


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


def audit_report(r: schemas.AuditReport) -> RenderableType:
    if r.intact:
        return Group(f"[green]The log of campaign {r.campaign_id} is intact[/]: {r.events} events chained.",
                     f"[dim]head {r.head}[/]")
    b = r.first_broken
    assert b is not None
    return Group(f"[red]The log of campaign {r.campaign_id} was tampered with[/]: first broken link at event "
                 f"{b.position} (notification {b.notification_id}): {b.kind}. {b.detail}.")


def imported(r: schemas.ImportReport) -> RenderableType:
    tokens = _table("New seat tokens (shown once)", "seat", "token")
    for seat, token in r.tokens.items():
        tokens.add_row(seat, token)
    return Group(f"Imported campaign {r.campaign_id}: {r.events} events, chain verified (head {r.head}).", tokens)


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


def resolution(v: Any) -> RenderableType:
    """A Pool roll or contest (or a Penny Ante challenge)."""
    if isinstance(v, schemas.ChallengeView):
        return challenge(v)
    s = v.state
    if v.kind == "PoolRoll":
        lines = [f"[bold]Roll[/] {v.id} by {s['roller']}: {' '.join(map(str, s['dice']))}"
                 + (f" + {s['trait']} (+{s['rating']})" if s["trait"] else "")
                 + f" = [bold]{s['total']}[/] ({s['outcome']})",
                 f"lost {s['lost']}" + (f", {s['helper']}'s dice lost {s['helper_lost']}" if s["helper"] else "")
                 + f", gained {s['gained']}; {s['phase']}" + (f"; narrates: {s['narrator']}" if s["narrator"] else "")]
        if s.get("overturned"):
            lines.append(f"[yellow]overturned[/]: {s['overturned']['reason']}")
    else:
        lines = [f"[bold]Contest[/] {v.id} ({s['mode']}), round {s['round']}: {s['phase']}"]
        for name, side in s["sides"].items():
            last = side.get("last")
            shown = f"{' '.join(map(str, last['dice']))} = {last['total']} ({last['outcome']})" if last else "-"
            lines.append(f"  {name} {side['seat']}: {shown}")
        if s.get("result"):
            lines.append(f"winner: {s['result']['winner'] or 'none'} ({s['result']['reason']}); "
                         f"gains {s['result']['gains']}")
    if v.legal_actions:
        lines.append("you can: " + ", ".join(a.action for a in v.legal_actions))
    return Group(*lines)
