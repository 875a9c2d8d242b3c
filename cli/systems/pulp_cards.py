"""Pulp in the Cards at the table: how its inputs read from text (``ilse,Sheriff Cole``, ``BA,R21,P3``,
``cole=2``), its sheet, its deals and its combats (PU-1 … PU-9), read like the game (ADR 0030)."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from adapters.schemas import ResolutionView
from adapters.systems.pulp_cards import schemas
from cli.inert import styled
from cli.session import UsageError
from cli.systems import Column, Said, SystemCli, board
from cli.tables import _legal, _plain, _short, _table, seed_hash


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
        value = value.strip()
        if not name.strip() or not (value.isascii() and value.isdigit()):  # "²".isdigit(), but int("²") fails
            raise UsageError(f"{item!r}: write NAME=NUMBER, e.g. cole=2")
        if name.strip() in found:
            raise UsageError(f"{item!r}: {name.strip()!r} is given an advantage twice (PU-9)")
        found[name.strip()] = int(value)
    return found or None


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


def _faces(cards: list[str]) -> str:
    """Cards as the table reads them (``A♠ 2♦ ▢``); imported late, so a command against a server loads no
    rule system until it draws."""
    from domain.systems.pulp_cards.rules import faces

    return faces(cards)


def _reads(result: dict[str, Any] | None, reads: str | None) -> str:
    if not result:
        return "hidden"
    if not reads and isinstance(result.get("success"), bool):  # a result that says no more than whether it succeeded
        reads = "success" if result["success"] else "failure"
    return f"{reads or '-'}, degree {result['degree']:+d}"


def _seed(side: str, seed: str | None, owed: list[str]) -> str:
    """C-10: a seed given, a pass (the empty seed), an input still owed, or none (a side the House plays, C-9)."""
    if side in owed:
        return "owed"
    return "none" if seed is None else "passed" if seed == "" else "given"


def _seeds(state: dict[str, Any]) -> str:
    owed = list(state.get("owed") or [])
    given = ", ".join(f"{side} {_seed(side, seed, owed)}" for side, seed in (state.get("seeds") or {}).items())
    return seed_hash(state.get("seed_hash")) + (f"; seeds: {given}" if given else "") + (
        f"; secret seed {state['secret_seed']}" if state.get("secret_seed") else "")


def _chosen(chosen: dict[str, Any] | None, owed: list[str]) -> list[RenderableType]:
    """C-9: the House's choice that waits for the players' fresh seed (``stakes combat seed``)."""
    if not chosen or not owed:
        return []
    if chosen.get("kind") == "keep":
        what = "keep the order"
    elif chosen.get("kind") == "initiative":
        given = ", ".join(f"{name} +{value}" for name, value in (chosen.get("advantages") or {}).items() if value)
        what = "initiative again" + (f" (advantages {given})" if given else "")
    else:
        target = f" on {chosen['target']}" if chosen.get("target") else ""
        what = f"{chosen.get('attacker')}'s attack{target} at difficulty {chosen.get('difficulty') or 0:+d}"
    return [Text(f"House chose: {what}; dealt with the players' fresh seed, owed now (combat seed; C-9)",
                 overflow="fold")]


def _called(called: dict[str, Any] | None) -> list[RenderableType]:
    """C-10: the first deal the House called, with its inputs, dealt with the players' seed or pass."""
    if not called:
        return []
    if called.get("kind") == "surprise":
        what = f"surprise by {called.get('ambusher') or '-'} at difficulty {called.get('difficulty') or 0:+d}"
    else:
        given = ", ".join(f"{name} +{value}" for name, value in (called.get("advantages") or {}).items())
        what = f"initiative (advantages {given or 'none'})"
    return [Text(f"House called: {what}; dealt with the players' seed or pass (C-10)", overflow="fold")]


def _overturned(state: dict[str, Any]) -> list[RenderableType]:
    o = state.get("overturned")
    return [Text(f"Result overturned: {_plain(o.get('reason') if isinstance(o, dict) else o)}", style="bold")] if o else []


def _unbroken(table: Table, *short: str) -> Table:
    """``table`` with its ``short`` columns never wrapped nor cut, and the rest folded between words rather than
    ending in "…" (issue 31: ``difficu…`` and ``success (critic…`` at 80 columns)."""
    for column in table.columns:
        if column.header in short:
            column.no_wrap = True
        else:
            column.overflow = "fold"
    return table


def deal(v: ResolutionView) -> RenderableType:
    """A deal (PU-1 … PU-4, PU-8): who dealt for whom, the difficulty, the cards and what they read."""
    s = v.state
    head = styled("[bold]Deal[/] {}  {}  {}", _short(v.id), s["kind"], v.phase)
    table = _unbroken(_table("", "dealer", "character", "difficulty", "cut", "cards", "result"), "difficulty")
    cards = "hidden" if s.get("hidden") or not s.get("cards") else _faces(s["cards"])
    result = s.get("result")
    table.add_row(s["dealer"], s.get("character") or "-", f"{s['difficulty']:+d}",
                  "-" if s.get("cut") is None else f"{s['cut']} ({s.get('cut_by') or '-'})", cards,
                  _reads(result, result.get("reads") if result else None))
    return Group(head, table, *_overturned(s), Text(_seeds(s), style="dim", overflow="fold"),
                 _legal(v.legal_actions, v.waiting_for, "pulp-cards"))


def combat(v: ResolutionView) -> RenderableType:
    """A combat (PU-5, PU-9): who fights, the initiative and order, each attack as a line, whose turn."""
    s = v.state
    seats = {c["name"]: c["seat"] for c in s["combatants"]}
    head = styled("[bold]Combat[/] {}  cycle {}  {}", _short(v.id), s["cycle"], v.phase)
    who = "Combatants: " + ", ".join(f"{name} ({seat})" for name, seat in seats.items())
    parts: list[RenderableType] = [head, Text(who, overflow="fold"), *_called(s.get("called")),
                                   *_chosen(s.get("chosen"), s.get("fresh_owed") or [])]
    if s.get("order"):
        parts.append(Text(f"Order: {', '.join(s['order'])}" + (f"; up: {s['up']}" if s.get("up") else ""),
                          overflow="fold"))
    if s.get("surprise"):
        su = s["surprise"]
        parts.append(Text(f"Surprise by {su.get('ambusher') or su.get('by') or '-'}: "
                          f"{su.get('shown_as') or '-'} ({_reads(su.get('result'), None)})", overflow="fold"))
    if s.get("free_attack"):
        parts.append(Text(f"Free attack: {s['free_attack']}"))
    init = s.get("initiative")
    if init:
        dealt: dict[str, list[str]] = {}
        for name, card, _round in init.get("dealt") or []:
            dealt.setdefault(name, []).append(card)
        table = _table(f"Initiative, cycle {init['cycle']}" + (" (order kept)" if init.get("kept") else ""),
                       "combatant", "cards", "advantage", "total")
        for name, total in (init.get("totals") or {}).items():
            table.add_row(name, _faces(dealt.get(name, [])) or "-", str((init.get("advantages") or {}).get(name, 0)),
                          str(total))
        parts.append(table)
    if s.get("attacks"):
        # Who attacks whom in one column and the short ones never wrapped: nothing is cut at 80 columns (issue 31)
        table = _unbroken(_table("Attacks", "#", "cycle", "who", "difficulty", "cards", "result", "effect"),
                          "#", "cycle", "difficulty")
        for a in s["attacks"]:
            cards = "hidden" if a.get("hidden") or not a.get("cards") else _faces(a["cards"])
            shown = "" if a.get("shown") else " (not shown)"
            table.add_row(str(a["number"]), str(a["cycle"]),
                          f"{a['attacker']}{' (free)' if a.get('free') else ''} → {a.get('target') or '-'}",
                          f"{a['difficulty']:+d}", cards + shown, _reads(a.get("result"), a.get("reads")),
                          a.get("effect") or "-")
        parts.append(table)
    parts += _overturned(s)
    parts.append(Text(_seeds(s), style="dim", overflow="fold"))
    parts.append(_legal(v.legal_actions, v.waiting_for, "pulp-cards"))
    return Group(*parts)


def _who(unit: Any) -> str:
    """Who takes part, by the names the unit's summary row holds (House characters too), else by seats."""
    return ", ".join(str(n) for n in unit.summary.get("names") or []) or \
        " vs ".join(", ".join(side) for side in (unit.challenger, unit.opponent) if side) or "-"


def unit_phrase(event: str, d: dict[str, Any], said: Said) -> str | None:
    """A deal's or a combat's events as the table says them (PU-1 … PU-9)."""
    if event == "Dealt":
        hand: dict[str, Any] = d["hand"] if isinstance(d.get("hand"), dict) else {}
        shown = _faces(hand["cards"]) if hand.get("cards") else "hidden"
        result: dict[str, Any] | None = d["result"] if isinstance(d.get("result"), dict) else None
        difficulty = f"{d['difficulty']:+d}" if isinstance(d.get("difficulty"), int) else "-"
        dealer, character = said.name(d.get("seat") or d.get("dealer") or "-"), d.get("character") or "-"
        kind = f"a {d['kind']} draw" if d.get("kind") else "a draw"
        whose = f"{character} takes {kind}" if dealer == character else f"{dealer} deals {character} {kind}"
        return (f"{whose}, difficulty {difficulty}: {shown}"
                + (f"; {_reads(result, 'success' if result.get('success') else 'failure')}"
                   if result and isinstance(result.get("degree"), int) else "")
                + (f"\nseed {d['seed']}" if d.get("seed") else ""))  # the seat's own seed, as typed (C-4)
    if event == "Shown":
        return "The cards are shown to every seat"
    if event == "Opened" and isinstance(d.get("combatants"), list):
        return "Combat: " + ", ".join(str(c.get("name")) for c in d["combatants"] if isinstance(c, dict))
    if event == "InitiativeDealt" and isinstance(d.get("totals"), dict):
        totals = ", ".join(f"{name} {total}" for name, total in d["totals"].items())
        return f"Initiative, cycle {d.get('cycle', '-')}: {totals}; order {', '.join(map(str, d.get('order') or []))}"
    if event == "Attacked":
        laid: dict[str, Any] = d["hand"] if isinstance(d.get("hand"), dict) else {}
        got: dict[str, Any] = d["result"] if isinstance(d.get("result"), dict) else {}
        shown = _faces(laid["cards"]) if laid.get("cards") else "hidden"
        reads = f"; {'success' if got.get('success') else 'failure'}, degree {got['degree']:+d}" \
            if isinstance(got.get("degree"), int) else ""
        target = f" {d['target']}" if d.get("target") else ""
        return f"{d.get('attacker') or '-'} attacks{target}: {shown}{reads}"
    return None


def character_phrase(event: str, d: dict[str, Any], said: Said) -> str | None:
    if event == "Created":
        return f"{said.who or d.get('name') or 'A character'} joins"
    return None


CLI = SystemCli(parsers={"names": (str, names), "cards": (str, cards), "advantages": (list[str], advantages)},
                renderers={"PulpSheet": pulp_sheet, "list[PulpSheet]": sheets, "unit:PulpDeal": deal,
                           "unit:PulpCombat": combat},
                unit_kinds=("PulpDeal", "PulpCombat"), unit_labels={"PulpDeal": "deal", "PulpCombat": "combat"},
                unit_columns=(Column("who", _who),),
                boards={"PulpDeal": board(ResolutionView, deal, "PulpDeal"),
                        "PulpCombat": board(ResolutionView, combat, "PulpCombat")},
                phrases={"PulpDeal": unit_phrase, "PulpCombat": unit_phrase, "PulpCharacter": character_phrase})
