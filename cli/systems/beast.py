"""Humanity and Beast at the table: its sheet and the House's characters (BE-1 … BE-9). Rolls and
conflicts are drawn by the shared renderer of any unit's state; each die reads like ``H 10→7 ✓✓``."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from adapters.systems.beast import schemas
from cli.systems import Column, Said, SystemCli, board
from cli.tables import _legal, _table, seed_hash


def _plain(value: object) -> str:
    """A value as people read it: no Python reprs."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        return ", ".join(f"{k} {_plain(v)}" for k, v in value.items() if v not in (None, [], {}))
    if isinstance(value, (list, tuple)):
        return " ".join(_plain(v) for v in value)
    return "-" if value is None else str(value)


#: Why a Humanity check is due (BE-7, BE-12), as people say it.
REASONS = {"beast above willpower": "more Beast successes than Willpower",
           "beast above humanity": "more Beast successes than Humanity"}


def _reasons(value: object) -> str:
    """A check's reasons (a list, or one), readable: ``more Beast successes than Humanity``."""
    items = value if isinstance(value, list) else [value] if value else []
    return " and ".join(REASONS.get(str(r), str(r)) for r in items) or "none"


def _signed(amount: object, what: str) -> str | None:
    return f"{what} {amount:+d}" if isinstance(amount, int) and amount else None


def _score(score: dict) -> str:
    wp = f", Willpower {score['willpower']}" if score.get("willpower") else ""
    return f"{score.get('total', '?')} (Humanity {score.get('humanity', '?')}, Beast {score.get('beast', '?')}{wp})"


def _difficulty(number: object, name: object) -> str:
    """BE-13: a difficulty by its number and its name, ``4 (Challenging)``."""
    return f"{number} ({name})" if name else str(number)


def _line(what: str, detail: dict) -> str:
    """One line of a sheet's history as the table says it (BE-2 … BE-8): no ``key: value`` dumps (issue 31)."""
    d = detail
    if what == "roll" and isinstance(d.get("dice"), list):
        action = d.get("kind") == "action"
        head = f"Action, difficulty {_difficulty(d['difficulty'], d.get('difficulty_name'))}" if action else "Conflict roll"
        wp = ", +1 Willpower" if d.get("willpower_before") else ""
        return f"{head}: {'  '.join(map(str, d['dice']))}{wp} = {_score(d.get('score') or {})}"
    if what == "reroll":
        return f"Willpower reroll of die {d.get('die')}: {_plain(d.get('was'))} became {_plain(d.get('chain'))}"
    if what == "outcome":
        if d.get("kind") == "action":
            head = "Success" if d.get("success") else "Failure"
        else:
            head = "Won the conflict" if d.get("won") else "Lost the conflict" if d.get("won") is False else "A tie"
        lost = f"; lost {d['willpower_lost']} Willpower" if d.get("willpower_lost") else ""
        check = f"; Humanity check due: {_reasons(d['check'])}" if d.get("check") else ""
        return f"{head}, {_score(d.get('score') or {})}{lost}{check}"
    if what == "check":
        dice = f" on {_plain(d.get('dice'))}" if d.get("dice") else ""
        how = " (dice entered at the table)" if d.get("entered") else ""
        lost = "; lost to the Beast (BE-7)" if d.get("lost") else ""
        return f"Humanity check{dice}{how}: {d.get('outcome')}; Humanity now {d.get('humanity')}{lost}"
    if what == "adjusted":
        changes = [c for c in (_signed(d.get("willpower"), "Willpower"), _signed(d.get("humanity"), "Humanity")) if c]
        return f"{', '.join(changes) or 'no change'}" + (f" ({d['why']})" if d.get("why") else "")
    if what == "restored":
        return f"Willpower +{d.get('willpower', 0)}, restored by the House (BE-8)"
    if what == "overturned":
        head = "Action" if d.get("kind") == "action" else "Conflict"
        now = ("voided: the result no longer stands" if d.get("void") or d.get("won") is None
               else "won now" if d.get("won") else "lost now")
        return f"{head} overturned by the House ({now}): {d.get('reason')} (C-6)"
    if what == "abandoned":
        head = "Action" if d.get("kind") == "action" else "Conflict"
        return f"{head} abandoned by the House: {d.get('reason')} (no damage, C-10)"
    return "; ".join(f"{k} {_plain(v)}" for k, v in d.items() if v not in (None, [], {}))


def beast_sheet(s: schemas.BeastSheet) -> RenderableType:
    head = _table(f"{s.name} ({s.seat})", "humanity", "beast", "willpower", "status")
    head.add_row(str(s.humanity), str(s.beast), f"{s.willpower}/{s.willpower_max}", s.status)
    parts: list[RenderableType] = [head]
    if s.history:
        history = _table("History", "when", "what", "detail")
        for line in s.history[:15]:
            history.add_row(f"{line.at:%Y-%m-%d %H:%M}", line.what, _line(line.what, line.detail))
        parts.append(history)
    return Group(*parts)


def sheets(items: list[schemas.BeastSheet]) -> RenderableType:
    table = _table("Characters", "seat", "character", "humanity", "beast", "willpower", "status")
    for s in items:
        table.add_row(s.seat, s.name, str(s.humanity), str(s.beast), f"{s.willpower}/{s.willpower_max}",
                      s.status)
    return table


def house_characters(items: list[schemas.HouseCharacter]) -> RenderableType:
    table = _table("The House's characters", "name", "humanity", "beast", "willpower")
    for a in items:
        hidden = a.humanity is None
        table.add_row(a.name, "hidden" if hidden else str(a.humanity), "hidden" if hidden else str(a.beast),
                      "hidden" if hidden else f"{a.willpower}/{a.willpower_max}")
    return table


def _roll(data: dict) -> str:
    roll = data.get("roll")
    if roll is None:
        return "not rolled"
    if roll.get("hidden"):
        return "rolled (hidden until the House reveals it)"
    dice = "  ".join(d["text"] for d in roll["dice"])
    score = roll["score"]
    wp = " +1 Willpower" if roll["willpower_before"] else ""
    seen = " (seen before the rewind)" if roll.get("seen_before_rewind") else ""
    return f"{dice}{wp}  = {score['total']} (H {score['humanity']}, B {score['beast']}){seen}"


def beast_view(v: schemas.BeastView) -> RenderableType:
    """A roll or conflict: each side's dice as ``H 10→7 ✓✓``, the outcome, and what the seat may do."""
    s = v.state
    title = f"Action, difficulty {s['difficulty']} ({s['difficulty_name']})" if s["kind"] == "action" else "Conflict"
    table = _table(f"{title}  {v.id}  {v.phase}", "side", "character", "dice", "check")
    for side, data in s["sides"].items():
        check = data.get("check") or {}
        shown = "hidden" if check.get("hidden") else check.get("outcome") or ("due" if check else "-")
        if check.get("dice"):
            shown += " " + " ".join(map(str, check["dice"]))
        table.add_row(side, data["name"], _roll(data), shown)
    parts: list[RenderableType] = [table]
    if isinstance(s.get("seed_hash"), str):  # C-4: the commitment, as every system's table says it
        parts.append(Text(seed_hash(s["seed_hash"]), style="dim"))
    out = s.get("outcome")
    if out:
        if s["kind"] == "action":
            against = _difficulty(s["difficulty"], s.get("difficulty_name"))
            parts.append(f"{'Success' if out['success'] else 'Failure'}: {out['total']} against {against}; "
                         f"more: {out['more']}")
        else:
            names = {side: data["name"] for side, data in s["sides"].items()}
            damage = out["damage"]
            lost = "; ".join(f"{names.get(k, k)} {v}" for k, v in damage.items()) if isinstance(damage, dict) \
                else _plain(damage)
            winner = names.get(out["winner"], out["winner"]) if out["winner"] else None
            said = "Winner as rolled" if s.get("overturned") else "Winner"  # the House's ruling follows (C-6)
            parts.append(f"{said}: {winner or 'none (a tie does no harm)'}; Willpower lost: {lost or 'none'}")
        names = {side: data["name"] for side, data in s["sides"].items()}
        due = {side: why for side, why in (out.get("checks") or {}).items()
               if not ((s["sides"].get(side) or {}).get("check") or {}).get("outcome")}  # made: the table says it
        if due:
            parts.append("Humanity check due: " + "; ".join(
                f"{names.get(side, side)}, {'hidden' if why == 'hidden' else _reasons(why)}"
                for side, why in due.items()))
    if s.get("overturned"):
        o = s["overturned"]
        names = {side: data["name"] for side, data in s["sides"].items()}
        ruled = "void: nothing it did stands" if o["void"] else f"{names.get(o['winner'], o['winner'])} wins instead"
        parts.append(f"Overturned by the House (C-6), {ruled}: {o['reason']}")
    if s.get("seen_before_rewind"):
        parts.append("Seen by every seat before the rewind (C-8): "
                     f"{_plain([e['value'] for e in s['seen_before_rewind']])}")
    if any(a.action == "seed" and a.fresh for a in v.legal_actions):
        parts.append("Every side has decided: a fresh seed from each player comes before the last dice are drawn "
                     "(C-9): stakes conflict seed [WORDS] (no words: random bits drawn here)")
    for data in s["sides"].values():
        if data.get("pending"):  # the House's own view (or once it revealed its dice)
            parts.append(f"{_plain(data['name'])} spends 1 Willpower to roll die {data['pending'].get('die')} again: "
                         "drawn with the players' fresh seed (C-9)")
    parts.append(_legal(v.legal_actions, v.waiting_for, "beast"))
    return Group(*parts)


def _die(d: dict) -> str:
    return f"{d.get('kind', '')} {'→'.join(map(str, d.get('chain') or []))}".strip()


def unit_phrase(event: str, d: dict, said: Said) -> str | None:
    """A roll or conflict's events as the table says them (BE-1 … BE-12), by who plays each side."""
    side = said.side(d.get("side"))
    if event == "Opened":
        sides = {k: v.get("name") or said.all(v.get("seats")) for k, v in (d.get("sides") or {}).items()}
        said.sides(sides)
        if d.get("kind") == "action":
            return f"{sides.get('challenger', '-')} acts, difficulty {_difficulty(d.get('difficulty'), None)}"
        return f"Conflict: {sides.get('challenger', '-')} against {sides.get('opponent', '-')}"
    if event == "SeedAdded":  # the seat's own words, shown as typed (C-4)
        return f"{side} gives a seed" + (f"\nseed {d['seed']}" if d.get("seed") else "")
    if event == "SeedPassed":
        return f"{side} passes, giving no seed (C-10)"
    if event == "PreparedInSecret":  # what it prepared: the House's own (C-5), shown to it alone
        prepared = d.get("prepared")
        return f"{side} prepares the roll in secret (C-9)" + (f"\n{_plain(prepared)}" if prepared else "")
    if event in ("Rolled", "RolledInSecret"):
        roll = d.get("roll")
        if not isinstance(roll, dict):
            return f"{side} rolls in secret"
        wp = ", +1 Willpower" if roll.get("willpower_before") else ""
        return f"{side} rolls {'  '.join(_die(x) for x in roll.get('dice') or [])}{wp} = " \
               f"{_score(roll.get('score') or {})}"
    if event in ("Decided", "DecidedInSecret", "RerollDrawnInSecret"):
        if "reroll" not in d:  # hidden from this seat (C-5)
            return f"{side} decides in secret"
        reroll = d.get("reroll")
        if reroll is None:
            return f"{side} keeps the dice"
        if isinstance(reroll, dict) and reroll.get("pending"):  # C-9: drawn with the players' fresh seeds
            return f"{side} spends Willpower to roll die {reroll.get('die')} again, drawn with the fresh seeds"
        return f"{side} rerolls with Willpower: {_plain(reroll)}"
    if event == "FreshSeedAdded":
        return f"{side} adds a fresh seed (C-9): {_plain(d.get('seed'))}"
    if event == "Resolved":
        if not isinstance(d.get("outcome"), dict):  # hidden from this seat until the unit is settled (C-5)
            return "Resolved (the outcome is hidden until it is settled)"
        out = d["outcome"]
        if out.get("success") is not None:
            return "Success" if out["success"] else "Failure"
        damage = out.get("damage") or {}
        lost = "; ".join(f"{said.side(k, capital=False)} loses {v} Willpower" for k, v in damage.items()) \
            if isinstance(damage, dict) else ""
        return (f"{said.side(out['winner'])} wins" if out.get("winner") else "A tie") + (f": {lost}" if lost else "")
    if event in ("Checked", "CheckedInSecret"):
        c = d.get("check")
        if not isinstance(c, dict):
            return f"{side} makes a Humanity check in secret"
        return f"{side}: " + _line("check", c)
    if event == "Abandoned":
        return f"The House abandons it: {d.get('reason', '-')}"
    return None


def character_phrase(event: str, d: dict, said: Said) -> str | None:
    """A character's events: ``Ilse's Humanity was adjusted`` over its detail (BE-2 … BE-8)."""
    name = said.who or d.get("name") or "A character"
    if event == "Created":
        return f"{name} joins" + (f", Humanity {d['humanity']}" if d.get("humanity") is not None else "")
    if event == "Adjusted":
        what = " and ".join(w for w, k in (("Willpower", "willpower"), ("Humanity", "humanity")) if d.get(k))
        return f"{name}'s {what or 'sheet'} was adjusted\n{_line('adjusted', d)}"
    if event == "Restored":
        return f"{name}'s Willpower was restored\n{_line('restored', d)}"
    return None


def _who(unit: Any) -> str:
    """Who takes part, by the names the unit's summary row holds (House characters too), else by seats."""
    return ", ".join(str(n) for n in unit.summary.get("names") or []) or \
        " vs ".join(", ".join(side) for side in (unit.challenger, unit.opponent) if side) or "-"


CLI = SystemCli(renderers={"BeastView": beast_view, "BeastSheet": beast_sheet, "list[BeastSheet]": sheets,
                           "list[HouseCharacter]": house_characters, "house-characters": house_characters,
                           "HouseCharacter": lambda a: house_characters([a])},
                unit_kinds=("BeastRoll",), unit_labels={"BeastRoll": "roll"},
                unit_columns=(Column("who", _who),),
                boards={"BeastRoll": board(schemas.BeastView, beast_view, "BeastRoll")},
                phrases={"BeastRoll": unit_phrase, "BeastCharacter": character_phrase,
                         "BeastAntagonist": character_phrase})
