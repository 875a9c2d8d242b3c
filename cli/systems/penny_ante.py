"""Penny Ante at the table: sheets, loans, the House budget and the challenge (PA-1 … PA-24), and how a
side is written on the command line (``ilse``, ``ilse+tomas``, ``house:Lady Sen``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from uuid import UUID

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from adapters.systems.penny_ante import schemas
from cli.inert import styled
from cli.session import Target, UsageError
from cli.systems import Column, Said, SystemCli
from cli.tables import _fields, _legal, _plain, _short, _table, seat_name, seed_hash


def side(text: str) -> dict[str, Any]:
    """A side (PA-5, PA-18): a player, players joined by ``+`` (the declarer first), or ``house:<antagonist>``."""
    if text.lower().startswith("house:"):
        return {"antagonist": text.split(":", 1)[1].strip()}
    return {"players": [p.strip() for p in text.split("+") if p.strip()]}


def loan_id(t: Target, text: str) -> UUID:
    """A loan id, or a unique prefix of one as shown in tables."""
    try:
        return UUID(text)
    except ValueError:
        pass
    wanted = text.lower().replace("-", "")
    if len(wanted) < 4:
        raise UsageError(f"{text!r} is too short; give at least 4 characters of the loan id")
    matches = [loan.loan_id for loan in every_loan(t) if loan.loan_id.hex.startswith(wanted)]
    if len(matches) != 1:
        raise UsageError(f"{text!r} names {'no' if not matches else 'more than one'} loan; give more of its id")
    return matches[0]


def every_loan(t: Target) -> Iterator[Any]:
    """The campaign's loans and debts, page by page."""
    from adapters.plugin import Page

    after: str | None = None
    while True:
        register = t.backend.read(t.campaign_id(), t.seat, "debts", Page(after, 500))
        yield from register.loans
        if not (after := register.next_after):
            return


def _side(unit: Any, side: str) -> str:
    """A side of a challenge in the list: its seats, or the antagonists the House plays by name (PA-4)."""
    named = (unit.summary.get("antagonists") or {}).get(side)
    return ", ".join(named or getattr(unit, side)) or "-"


def _loan_rows(title: str, loans: list[schemas.LoanLine], other: str) -> Table:
    table = _table(title, "loan", other, "amount", "outstanding", "status")
    for loan in loans:
        table.add_row(_short(loan.loan_id), getattr(loan, other), str(loan.amount), str(loan.outstanding), loan.status)
    return table


def sheet(s: schemas.Sheet) -> RenderableType:
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
    for title, offers in (("Open loan offers", [o for o in s.offers if o.open is not False]),
                          ("Lapsed loan offers: decline or withdraw them (PA-14)",
                           [o for o in s.offers if o.open is False])):
        if offers:
            table = _table(title, "loan", "lender", "borrower", "amount", "into")
            for o in offers:
                table.add_row(_short(o.loan_id), o.lender, o.borrower, str(o.amount),
                              f"challenge {_short(o.challenge_id)}" if o.challenge_id else "-")
            parts.append(table)
    return Group(*parts)


def sheets(items: list[schemas.Sheet]) -> RenderableType:
    table = _table("Characters", "seat", "character", "pile", "in play", "characteristics", "owes")
    for s in items:
        table.add_row(s.seat, s.name, str(s.pile), str(s.in_play), ", ".join(t.name for t in s.characteristics),
                      str(sum(o.outstanding for o in s.owes)))
    return table


def antagonists(items: list[schemas.Antagonist]) -> RenderableType:
    table = _table("Antagonists and obstacles", "name", "kind", "pennies", "characteristics")
    for a in items:
        table.add_row(a.name, a.kind, str(a.pennies),
                      Text("hidden", style="dim") if a.characteristics is None else ", ".join(a.characteristics))
    return table


def antagonist(a: schemas.Antagonist) -> RenderableType:
    return antagonists([a])


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
    return Group(styled("[bold]House budget[/]: {}", state), antagonists(b.antagonists), table, allocations)


def loan(item: schemas.Loan) -> RenderableType:
    return debts(schemas.DebtRegister(campaign_id=item.loan_id, loans=[item], next_after=None), title=f"Loan {item.loan_id}")


def debts(register: schemas.DebtRegister, title: str = "Debt register") -> RenderableType:
    table = _table(title, "loan", "lender", "borrower", "amount", "outstanding", "status", "history")
    for item in register.loans:
        history = "; ".join(
            f"{h.what} by {h.actor}" + (f" ({h.amount})" if h.amount else "") + (f": {h.note}" if h.note else "")
            for h in item.history)
        table.add_row(_short(item.loan_id), item.lender, item.borrower, str(item.amount), str(item.outstanding),
                      item.status, history)
    if register.next_after:
        table.caption = f"More follow: --after {register.next_after}"
    return table


def _dice(dice: list[schemas.Die]) -> Text:
    """Each die with its position, counting from 1 as ``--cup`` takes them: ``1:6 2:(?)`` (cupped in brackets)."""
    shown = Text()
    for n, d in enumerate(dice, 1):
        face = ("?" if d.value is None else str(d.value)) + ("*" if d.seen_before_rewind else "")  # C-8
        shown.append(" " if n > 1 else "")
        shown.append_text(Text(f"{n}:({face})", style="dim") if d.in_cup else Text.assemble(f"{n}:", (face, "bold")))
    return shown if dice else Text("-")


def _positions(actions: list[Any]) -> list[Any]:
    """The dice a move names, by position from 1 as the table shows them (the rules count from 0)."""
    out = []
    for a in actions:
        if a.action == "keep":
            a = a.model_copy(update={k: [n + 1 for n in getattr(a, k)] for k in ("choices", "required")
                                     if getattr(a, k) is not None})
        out.append(a)
    return out


def challenge(v: schemas.ChallengeView) -> RenderableType:
    """The table: dice (cup in brackets), circumstances, pot, wagers, turn and the legal actions."""
    header = styled("[bold]Challenge[/] {}  step [bold]{}[/]  ante {}  pot [bold]{}[/]{}", v.id, v.phase, v.ante, v.pot,
                    (f"  stake {v.stake}" if v.stake is not None else "") + ("  table dice" if v.table else ""))
    # PA-9, PA-12: "bet" is the wager of this betting round (what a call matches and a check needs equal),
    # "staked" all the side put in, a double down's cost included (issue 31)
    sides = _table("Sides", "side", "who", "characteristics", "dice", "bet", "staked", "")
    for name, side in v.sides.items():
        marks = " ".join(m for m, on in (("all-in", side.all_in), ("← turn", v.turn == name),
                                         ("(you)", v.your_side == name)) if on)
        who = side.members if side.kind == "antagonist" else [seat_name(m) for m in side.members]  # names (issue 31)
        sides.add_row(name, ", ".join(who), ", ".join(side.characteristics) or "-",
                      _dice(side.dice), str(side.betting_wager), str(side.wager), marks)
    circumstances = _table("Circumstances", "step", "side", "circumstance", "die", "barred for")
    for c in v.circumstances:
        circumstances.add_row(str(c.step), c.side, c.text if c.text is not None else "(seen before the undo, C-8)",
                              "-" if c.die is None else str(c.die) + (" *" if c.seen_before_rewind else ""),
                              c.barred or "")
    parts: list[RenderableType] = [header, Text(seed_hash(v.seed_hash), style="dim"), sides]
    for name, side in v.sides.items():  # C-8: dice every seat saw before an undo took their roll back
        if side.seen_before_rewind:
            parts.append(f"{name}: seen by every seat before the undo (the same slots roll them again, C-7, C-8): "
                         + " ".join(f"{d.die}:{d.value}" + (" (reroll)" if d.rolled == "reroll" else "")
                                    for d in side.seen_before_rewind))
    if any(d.seen_before_rewind for side in v.sides.values() for d in side.dice) or \
            any(c.seen_before_rewind for c in v.circumstances):
        parts.append(Text("* seen by every seat before the undo: it stays shown (C-8)", style="dim"))
    if v.circumstances:
        parts.append(circumstances)
    if v.result:
        r = v.result

        def side_words(key: object) -> str:  # a side by who plays it (issue 31): names, not roles
            side = v.sides.get(str(key)) if key is not None else None
            if side is None:
                return str(key)
            return ", ".join(side.members if side.kind == "antagonist" else [seat_name(m) for m in side.members])

        def paid(payouts: object) -> str:
            return ", ".join(f"{seat_name(str(k))} {n}" for k, n in payouts.items()) \
                if isinstance(payouts, dict) and payouts else "-"

        winner = side_words(r["winner"]) + " wins" if r.get("winner") else \
            ("void: no winner" if r.get("reason") == "void" else "no winner (a draw)")
        how = {"overturned": "overturned by the House (C-6)", "void": "voided by the House (C-6)"}.get(
            str(r.get("reason")), f"by {_plain(r.get('reason'))}")
        narrator = r.get("narrator")
        parts.append(Text.assemble(("Result", "bold"), ": ",
            f"{winner}, {how}; narrates: {side_words(narrator) if narrator in v.sides else _plain(narrator)}; "
            f"paid: {paid(r.get('payouts'))}"))
        for was in r.get("overturned") or []:  # C-6: each result an overturn replaced, with its reason
            if isinstance(was, dict):
                parts.append(f"  replaced: paid {paid(was.get('previous'))}; the House's reason: "
                             f"{_plain(was.get('reason'))}")
        scores = r.get("scores")
        if isinstance(scores, dict) and scores:
            parts.append("Scores: " + "; ".join(
                f"{side} {_plain(x.get('score'))}, {_plain(x.get('category'))} of {_plain(x.get('hand'))}"
                if isinstance(x, dict) else f"{side} {_plain(x)}" for side, x in scores.items()))
        rest = {k: val for k, val in r.items() if k not in ("winner", "reason", "narrator", "payouts", "scores",
                                                           "overturned") and _plain(val) not in ("-", "no")}
        if rest:
            parts.append(f"  {_fields(rest)}")
    if v.bankrupts:
        parts.append("Bankrupt: " + "; ".join(
            f"{m} {_plain(b.get('status'))}, bids {_plain(b.get('bids'))}" if isinstance(b, dict) else
            f"{m} {_plain(b)}" for m, b in v.bankrupts.items()))
    if v.loan_offers:
        offers = _table("Loans offered into this challenge (PA-14)", "loan", "lender", "borrower", "amount", "")
        for o in v.loan_offers:
            offers.add_row(_short(o.loan_id), seat_name(o.lender), seat_name(o.borrower), str(o.amount),
                           "open this round" if o.open else Text("lapsed with its round", style="dim"))
        parts.append(offers)
    for a in v.loans_answered:  # the lender learns his offer was taken (PA-14)
        parts.append(f"{seat_name(a.lender)} offered {seat_name(a.borrower)} {a.amount}: {a.answer}")
    if v.secret_seed:
        parts.append(Text(f"secret seed {v.secret_seed}", style="dim"))
    parts.append(_legal(_positions(v.legal_actions), v.waiting_for, "penny-ante"))
    return Group(*parts)


def board(unit: Any, state: dict[str, Any]) -> RenderableType:
    """The challenge as it stood after one replay step: the table ``challenge show`` draws, without moves."""
    from pydantic import ValidationError

    try:
        view = schemas.ChallengeView.model_validate({**state, "id": unit, "campaign_id": unit, "legal_actions": []})
    except ValidationError:  # a state of another shape: its lines, in words
        from cli.history import said_lines

        return Text("\n".join(said_lines(state, ())), overflow="fold")
    return challenge(view.model_copy(update={"waiting_for": None, "id": str(unit)[:8]}))  # shown as the list shows it


def _members(d: Any, said: Said) -> str:
    """A side as announced: its players by their characters' names, or the antagonist the House plays (by the
    name the House gave it, never looked up as a seat)."""
    if not isinstance(d, dict):
        return _plain(d)
    members = [str(m) for m in d.get("members") or []]
    return " + ".join(members) or "-" if d.get("kind") == "antagonist" else said.all(members, " + ")


def _rolled(d: dict[str, Any]) -> str:
    dice = d.get("dice")
    shown = [] if dice is None else [" ".join(map(str, dice)) or "no dice"]  # None: hidden from this seat (C-5)
    if d.get("circumstance_die") is not None:
        shown.append(f"circumstance die {d['circumstance_die']}")
    return f": {', '.join(shown)}" if shown else ""


def _paid(payouts: Any, said: Said) -> str:
    return ", ".join(f"{said.name(k)} {v}" for k, v in payouts.items()) if isinstance(payouts, dict) else ""


#: A side's moves that say no more than who made them: betting (PA-9, PA-12), and the call for the reroll once
#: its second circumstance is declared (PA-7, C-9).
SIDE_DOES = {"Checked": "checks", "Called": "calls", "WentAllIn": "goes all in", "Folded": "folds",
             "RerollCalled": "calls for the reroll"}


def challenge_phrase(event: str, d: dict[str, Any], said: Said) -> str | None:
    """A challenge's events as the table says them (PA-5 … PA-24), by who plays each side (names, not roles)."""
    the = said.side(d.get("side"))
    if event in SIDE_DOES:
        return f"{the} {SIDE_DOES[event]}"
    if event == "Announced":
        sides = {side: _members(d.get(side), said) for side in ("challenger", "opponent")}
        said.sides(sides)
        why = f": {d['circumstance']}" if d.get("circumstance") else ""
        return f"{sides['challenger']} challenges {sides['opponent']}, ante {d.get('ante')}{why}"
    if event == "SeedAdded":  # the seat's own words, shown as typed (C-4)
        return f"{the} gives a seed" + (f"\nseed {d['seed']}" if d.get("seed") else "")
    if event == "SeedPassed":
        return f"{the} passes, giving no seed (C-10)"
    if event == "CircumstanceDeclared":
        doubled = " and doubles down" if d.get("double_down") else ""
        return f"{the} declares a circumstance{doubled}: {d.get('text', '-')}"
    if event == "CharacteristicsDeclared":
        return f"{the} declares {', '.join(d.get('characteristics') or []) or 'no characteristic'}"
    if event == "FreshSeedAdded":
        return f"{the} gives a fresh seed (C-9)" + (f"\nseed {d['seed']}" if d.get("seed") else "")
    if event == "DiceRolled":
        return f"{the} rolls{_rolled(d)}"
    if event == "CupRerolled":
        return f"{the} rerolls the cup{_rolled(d)}"
    if event == "DiceKept":
        return f"{the} shows {' '.join(map(str, d.get('revealed') or [])) or 'nothing'}" + (
            f" and keeps {len(d['cup'])} {'die' if len(d['cup']) == 1 else 'dice'} in the cup"
            if isinstance(d.get("cup"), list) and d["cup"] else "")
    if event == "Raised":
        return f"{the} raises {d.get('amount')}"
    if event == "Decided":
        payouts = _paid(d.get("payouts"), said)
        return (f"{said.side(d['winner'])} wins" if d.get("winner") else "No winner") + \
            f" by {_plain(d.get('reason'))}" + (f"; paid: {payouts}" if payouts else "")
    if event == "BidPlaced":
        return f"{said.name(d.get('bidder'))} bids {d.get('amount')} for {said.name(d.get('member'))}"
    if event == "DebtTaken":
        return f"{said.name(d.get('member'))} takes on a debt of {d.get('amount')} (PA-18)"
    if event == "BuyoutAccepted":
        return (f"{said.name(d.get('member'))} accepts {said.name(d.get('bidder'))}'s buyout of {d.get('amount')}"
                f" for {d.get('characteristic', '-')}")
    if event == "LoanOffered":
        return f"{said.name(d.get('lender'))} offers {said.name(d.get('borrower'))} a loan in round {d.get('round')}"
    if event == "Abandoned":
        payouts = _paid(d.get("payouts"), said)
        return f"The House abandons the challenge: {d.get('reason', '-')}" + (f"; returned: {payouts}" if payouts else "")
    if event == "Overturned":
        winner = f"{said.side(d['winner'])} wins" if d.get("winner") else "no winner"
        return f"The House overturns the result ({winner}): {d.get('reason', '-')}"
    return None


def character_phrase(event: str, d: dict[str, Any], said: Said) -> str | None:
    """A character's or an antagonist's events: ``Ilse Varn wagers 1`` (PA-1 … PA-4)."""
    name = said.who or d.get("name") or "A character"
    if event == "Created":
        pile = f" with {d['pile']} pennies" if d.get("pile") is not None else ""
        owned = [d["first_characteristic"]] if d.get("first_characteristic") else list(d.get("characteristics") or [])
        return f"{name} joins{pile}" + (f", {', '.join(owned)}" if owned else "")
    if event == "PenniesWagered":
        return f"{name} wagers {d.get('amount')}"
    if event == "StakesSettled":
        return f"{name} staked {d.get('staked')} and receives {d.get('received')}"
    if event == "AdventureJoined":
        return f"{name} joins adventure {d.get('adventure')} with {d.get('pile')} pennies"
    return None


CLI = SystemCli(
    parsers={"side": (str, side)},
    lookups={"loan": loan_id},  # a loan id or the first characters of one, as the tables show them
    options={"characteristics": "--characteristic"},  # repeatable, one characteristic each
    renderers={
        "Sheet": sheet, "list[Sheet]": sheets, "Antagonist": antagonist, "antagonists": antagonists,
        "list[Antagonist]": antagonists, "HouseBudget": budget, "Loan": loan, "DebtRegister": debts,
        "ChallengeView": challenge,
    },
    unit_kinds=("Challenge",), unit_labels={"Challenge": "challenge"},
    unit_columns=(Column("challenger", lambda c: _side(c, "challenger")),
                  Column("opponent", lambda c: _side(c, "opponent")),
                  Column("ante", lambda c: str(c.summary.get("ante", "-"))),
                  Column("pot", lambda c: str(c.summary.get("pot", "-")))),
    boards={"Challenge": board},
    phrases={"Challenge": challenge_phrase, "Character": character_phrase, "Antagonist": character_phrase},
)
