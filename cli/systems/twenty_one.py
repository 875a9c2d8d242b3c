"""Twenty-one at the table: cards typed as lists (``KH,10h``), names as ``ilse,tomas``, signed modifiers, and
cards drawn as ``A♠ 10♥`` (``STAKES_PLAIN_CARDS=1`` prints ``AS 10H``)."""

from __future__ import annotations

import os
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from adapters.systems import twenty_one as schemas
from cli.inert import styled
from cli.session import UsageError
from cli.systems import Column, Said, SystemCli, board
from cli.tables import _legal, _table


def pretty(code: str, plain: bool) -> str:
    """Imported late, so a command against a server loads no rule system."""
    from domain.systems.twenty_one.cards import pretty as shown

    return shown(code, plain)


def _items(text: str | None) -> list[str] | None:
    if text is None:
        return None
    return [x for x in text.replace(" ", ",").split(",") if x]


def signed(text: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise UsageError(f"{text!r} is not +1 or -1") from None


def plain() -> bool:
    return os.environ.get("STAKES_PLAIN_CARDS", "").lower() in ("1", "true", "yes")


def show(card: Any) -> str:
    """A card as the views give it (a code, or ``{"card": …}``): ``K♥``; ``?`` while hidden; ``*`` when it was
    seen by every seat before a rewind (C-8)."""
    if isinstance(card, dict):
        code = card.get("card")
        return "?" if code is None else pretty(code, plain()) + ("*" if card.get("seen_before_rewind") else "")
    return "-" if card is None else pretty(card, plain())


def cards(items: Any) -> str:
    return " ".join(show(x) for x in items or []) or "-"


def conflict(v: schemas.ConflictView) -> RenderableType:
    s = v.state
    known = f" (known: {cards(s['deck_known'])})" if s["deck_known"] else ""
    head = Group(
        styled("[bold]Conflict[/] {}  round {}  {}", v.id, s["round"], v.phase),
        Text(f"Turn: {s['turn'] or '-'}; order: {', '.join(s['turn_order']) or '-'}; "
             f"acted: {', '.join(s['acted']) or '-'}", overflow="fold"),
        # every discard, wrapped rather than cut (issue 31: 8 of 11 were shown at 80 columns)
        Text(f"Deck: {s['deck_count']} cards{known}; discard ({len(s['discard'])}): {cards(s['discard'])}",
             overflow="fold"))
    hands = _table("Hands", "seat", "cards")
    for seat, hand in s["hands"].items():
        hands.add_row(seat + (" (you)" if seat == s["you"] else ""), cards(hand))
    parts: list[RenderableType] = [head, hands]
    a = s.get("action")
    if a:
        act = _table(f"Action of {a['actor']}", "laid", "total", "targets", "modifiers", "set aside", "drawn for hold")
        act.add_row(cards(a["laid"]) + (" natural 21" if a["natural"] else ""), str(a["total"]),
                    f"mixed {a['targets']['mixed']}, full {a['targets']['full']}",
                    ", ".join(f"{m['value']:+d} {m['source']}" for m in a["modifiers"]) or "-",
                    show(a["set_aside"]) if a["set_aside"] else "-", show(a["pending"]))
        parts.append(act)
    if s["results"]:
        res = _table("Actions", "round", "seat", "laid", "total", "targets", "outcome")
        for r in s["results"]:
            res.add_row(str(r["round"]), r["seat"], cards(r["laid"]), str(r["total"]),
                        f"{r['targets']['mixed']}/{r['targets']['full']}",
                        r["outcome"] + f" ({r['how']})" + (" overturned" if r["overturned"] else ""))
        parts.append(res)
    parts.append(_legal(v.legal_actions, v.waiting_for, "twenty-one"))
    return Group(*parts)


def hand(h: schemas.Hand) -> RenderableType:
    table = _table(f"Your hand ({h.seat})", "conflict", "cards", "set aside")
    for line in h.hands:
        table.add_row(str(line.conflict)[:8], cards(line.cards), show(line.set_aside) if line.set_aside else "-")
    return table


def sheet(s: schemas.TwentyOneSheet) -> RenderableType:
    head = _table(f"{s.name} ({s.seat})", "skills", "holds")
    head.add_row(", ".join(s.skills) or "-", str(s.holds))
    parts: list[RenderableType] = [head]
    if s.actions:
        lines = _table("Latest actions", "when", "laid", "total", "targets", "outcome")
        for r in s.actions[:10]:
            lines.add_row(f"{r.at:%Y-%m-%d %H:%M}", cards(r.laid), str(r.total),
                          f"{r.targets['mixed']}/{r.targets['full']}",
                          f"{r.outcome} ({r.how})" + (" overturned" if r.overturned else ""))
        parts.append(lines)
    return Group(*parts)


def conflict_phrase(event: str, d: dict[str, Any], said: Said) -> str | None:
    """A conflict's events as the table says them: cards as ``9♠ 5♠`` (hidden ones as ``?``), seats by name."""
    seat = said.name(d.get("seat") or "-")
    if event == "Opened":
        return f"Conflict: {said.all(d.get('seats'))}"
    if event == "Shuffled":
        return f"The deck is shuffled ({len(d['cards'])} cards)" if isinstance(d.get("cards"), list) \
            else "The deck is shuffled"
    if event == "HandDealt":
        return f"{seat} is dealt {cards(d['cards']) if 'cards' in d else 'cards'}"
    if event == "OrderCalled":
        return f"Order cards called from {said.all(d.get('actors'))}"
    if event == "OrderCardLaid":
        return f"{seat} lays {show(d['card']) if 'card' in d else 'a card'} for the order"
    if event == "OrderSettled":
        return f"The order: {said.all(d.get('order'))}"
    if event == "CardsLaid":
        drawn = f", draws {cards(d['drawn'])}" if d.get("drawn") else ""
        return f"{seat} lays {cards(d.get('cards'))}{drawn}" + (" (natural 21)" if d.get("natural") else "")
    if event == "CardDrawn":
        return f"{seat} draws {show(d['card']) if 'card' in d else 'a card'}"
    if event == "Stood":
        return f"{seat} stands"
    if event == "ActionResolved":
        t = d.get("targets") or {}
        return (f"{seat}: {cards(d.get('laid'))} = {d.get('total')} against {t.get('mixed', '-')}/{t.get('full', '-')}: "
                f"{d.get('outcome')} ({d.get('how')})")
    if event == "ModifierAdded":  # TO-6: -1 makes both targets easier, +1 harder
        value = d.get("value")
        how = "easier (-1)" if value == -1 else "harder (+1)" if value == 1 else str(value)
        return f"A modifier makes it {how}: {d.get('source', '-')}"
    if event == "Replaced":  # TO-7, TO-8: an assist, a hinder or a hold's card takes the last card laid's place
        kind = {"assist": "assists", "hinder": "hinders"}.get(str(d.get("kind")), f"replaces ({d.get('kind')})")
        return (f"{seat} {kind}: {show(d['card']) if 'card' in d else 'a card'} replaces "
                f"{show(d['replaced']) if 'replaced' in d else 'the last card laid'}")
    if event == "HoldSpent":  # TO-8
        use = "the set-aside card" if d.get("use") == "set-aside" else "a card drawn"
        drawn = f" ({show(d['card'])})" if d.get("card") else ""
        return f"{seat} spends a hold on {use}{drawn}"
    if event == "HoldCardDiscarded":  # TO-13
        return f"{seat} discards the card drawn for the hold"
    if event == "RoundEnded":
        return f"Round {d.get('round', '-')} ends"
    if event == "Voided":
        return f"The House voids the conflict: {d.get('reason', '-')}"
    if event == "Ended":
        return "The conflict ends"
    return None


def character_phrase(event: str, d: dict[str, Any], said: Said) -> str | None:
    if event == "Created":
        skills = ", ".join(d.get("skills") or [])
        return f"{said.who or d.get('name') or 'A character'} joins" + (f", skilled in {skills}" if skills else "")
    return None


CLI = SystemCli(parsers={"names": (str, _items), "cards": (str, _items), "signed": (str, signed)},
                renderers={"ConflictView": conflict, "Hand": hand, "TwentyOneSheet": sheet,
                           "list[TwentyOneSheet]": lambda items: Group(*(sheet(s) for s in items))},
                unit_kinds=("Conflict",), unit_labels={"Conflict": "conflict"},
                unit_columns=(Column("who", lambda c: ", ".join(seat for side in c.sides for seat in side) or "-"),),
                boards={"Conflict": board(schemas.ConflictView, conflict, "Conflict")},
                phrases={"Conflict": conflict_phrase, "TwentyOneCharacter": character_phrase})
