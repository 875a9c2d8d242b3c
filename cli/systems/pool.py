"""The Pool at the table: its sheet, traits typed as ``--trait Brave=1``, its rolls in a few lines and its
contests as the round's two rolls side by side, with the stalemate, tie or result in words (PL-1 … PL-9)."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from adapters.schemas import ResolutionView
from adapters.systems.pool import schemas
from cli.inert import styled
from cli.session import UsageError
from cli.systems import Said, SystemCli, board
from cli.tables import _legal, _plain, _short, _table, seed_hash


def traits(items: list[str] | None) -> dict[str, int] | None:
    """``--trait Brave=1``, once per trait (PL-2): ``NAME=RATING``."""
    found: dict[str, int] = {}
    for item in items or []:
        name, _, value = item.rpartition("=")
        digits = value.strip().removeprefix("-")
        if not name or not (digits.isascii() and digits.isdigit()):  # "²".isdigit(), but int("²") fails
            raise UsageError(f"{item!r}: write NAME=NUMBER, e.g. Brave=1")
        found[name.strip()] = int(value)
    return found or None


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
    if s.help_offer:
        parts.append(Text(f"Offers {s.help_offer.to} {s.help_offer.dice} dice for that character's next roll (PL-7).",
                          overflow="fold"))
    if s.rolls:
        rolls = _table("Latest rolls", "when", "kind", "dice", "trait", "total", "outcome", "lost")
        for r in s.rolls[:10]:
            rolls.add_row(f"{r.at:%Y-%m-%d %H:%M}", r.kind, " ".join(map(str, r.dice)),
                          f"{r.trait} +{r.rating}" if r.trait else "-", str(r.total), r.outcome, str(r.lost))
        parts.append(rolls)
    return Group(*parts)



def sheets(items: list[schemas.PoolSheet]) -> RenderableType:
    table = _table("Characters", "seat", "character", "pool", "traits", "moves")
    for s in items:
        table.add_row(s.seat, s.name, str(s.pool), ", ".join(f"{n} +{r}" for n, r in s.traits.items()),
                      ", ".join(s.moves))
    return table


OUTCOMES = {"full": "full success", "mixed": "success with a complication", "miss": "miss"}  # PL-2


def roll(v: ResolutionView) -> RenderableType:
    """A roll (PL-2 … PL-4) in a few lines: who rolled what, the dice, the total and outcome, what it cost."""
    s = v.state
    trait = f" + {s['trait']} +{s['rating']}" if s.get("trait") else ""
    helper = f" + {s['helper_dice']} of {s['helper']}'s" if s.get("helper") else ""
    lines = [styled("[bold]Roll[/] {}  {}", _short(v.id), v.phase),  # the kind, as the list shows it
             Text(f"{s['roller']} rolls {s['count']} dice{helper}{trait}: {_plain(s.get('dice'))}", overflow="fold")]
    if s.get("outcome"):
        cost = [f"{s['lost']} {'die' if s['lost'] == 1 else 'dice'} lost" if s.get("lost") else "no die lost"]
        if s.get("helper_lost"):
            cost.append(f"{s['helper']} loses {s['helper_lost']}")
        if s.get("gained"):
            cost.append(f"{s['gained']} dice gained")
        lines.append(Text.assemble(("Total ", ""), (str(s["total"]), "bold"), ": ",
                                   (OUTCOMES.get(s["outcome"], s["outcome"]), "bold"), f"; {', '.join(cost)}."))
    if s.get("narrator"):
        lines.append(Text(f"Narrates: {s['narrator']}"))
    if s.get("overturned"):
        lines.append(Text(f"Result overturned: {_plain(s['overturned'])}", style="bold"))
    seeds = seed_hash(s.get("seed_hash")) + (f"; secret seed {s['secret_seed']}" if s.get("secret_seed") else "")
    lines.append(Text(seeds, style="dim", overflow="fold"))
    lines.append(_legal(v.legal_actions, v.waiting_for, "pool"))
    return Group(*lines)


MODES = {"tiers": "a hit beats a miss; two hits are a stalemate; two misses, the House narrates",  # PL-8
         "highest": "the higher total wins; an exact tie goes to the House; nobody gains dice"}
ANSWERS = {"push": "pushes on", "fold": "folds"}


def _result(s: dict[str, Any]) -> str:
    """A settled contest's result in words (PL-8, PL-9, C-10)."""
    result, sides = s.get("result") or {}, s.get("sides") or {}
    winner = sides.get(result.get("winner") or "", {}).get("seat")
    loser = next((d.get("seat") for side, d in sides.items() if side != result.get("winner")), None) if winner else None
    reason = result.get("reason")
    if s.get("abandoned"):
        said = f"abandoned by the House: {s['abandoned']}; no winner, nothing gained, dice lost stay lost"
    elif reason == "hit beats miss":
        said = f"{winner} wins: a hit beats a miss"
    elif reason == "higher":
        said = f"{winner} wins with the higher total"
    elif reason == "the other side folded":
        said = f"{winner} wins: {loser} folded"
    elif reason == "the House interrupted":
        said = "no winner: the House interrupted the tie and narrates"
    elif winner is None:
        said = "no winner: both missed, the House narrates"
    else:
        said = f"{winner} wins"
    gains = [f"{seat} gains {n} {'die' if n == 1 else 'dice'}" for seat, n in (result.get("gains") or {}).items()]
    return "; ".join([said, *gains]) + "."


def contest(v: ResolutionView) -> RenderableType:
    """A contest (PL-8, PL-9): who opposes whom in which mode, the round's two rolls side by side (dice, trait,
    total, outcome, dice lost), the stalemate or tie, the result, and what the seat may do."""
    s = v.state
    sides: dict[str, dict[str, Any]] = s.get("sides") or {}
    seats = [str(d.get("seat")) for d in sides.values()]
    mode = str(s.get("mode") or "tiers")
    lines: list[RenderableType] = [
        styled("[bold]Contest[/] {}  {}", _short(v.id), v.phase),
        Text(f"{' against '.join(seats)}, round {s.get('round')}; {mode}: {MODES.get(mode, mode)}.", overflow="fold")]
    rolls = _table(f"Round {s.get('round')}", "who", "dice", "trait", "total", "outcome", "lost")
    for d in sides.values():
        last = d.get("last")
        lost = f"{last['lost']} ({d.get('lost', 0)} in all)" if d.get("rolled") and last else f"- ({d.get('lost', 0)} in all)"
        if d.get("rolled") and last:
            rolls.add_row(str(d.get("seat")), " ".join(map(str, last["dice"])),
                          f"{last['trait']} +{last['rating']}" if last.get("trait") else "-", str(last["total"]),
                          OUTCOMES.get(last["outcome"], last["outcome"]), lost)
        else:
            rolls.add_row(str(d.get("seat")), "not rolled yet", "-", "-", "-", lost)
    lines.append(rolls)
    for seen in s.get("seen_before_rewind") or []:  # C-8: dice every seat saw that an undo took back
        seat = (sides.get(seen.get("side")) or {}).get("seat", seen.get("side"))
        lines.append(Text(f"Seen by every seat before the undo: {seat}'s round {seen.get('round')}, "
                          f"{' '.join(map(str, seen.get('dice') or []))} (the same dice come again, C-7, C-8).",
                          overflow="fold"))
    if v.phase == "stalemate":
        answered = [f"{d.get('seat')} {ANSWERS.get(d.get('answer') or '', 'has not answered')}" for d in sides.values()]
        lines.append(Text(f"Both hit: a stalemate. Each side folds (gaining 2 dice) or pushes on; {', '.join(answered)}.",
                          overflow="fold"))
    elif v.phase == "tie":
        lines.append(Text("An exact tie: the House asks for a reroll or interrupts.", overflow="fold"))
    if s.get("result"):
        lines.append(Text.assemble(("Result: ", "bold"), _result(s)))
    if s.get("overturned"):
        lines.append(Text(f"Result overturned: {_plain(s['overturned'])}", style="bold"))
    seeds = seed_hash(s.get("seed_hash")) + (f"; secret seed {s['secret_seed']}" if s.get("secret_seed") else "")
    lines.append(Text(seeds, style="dim", overflow="fold"))
    lines.append(_legal(v.legal_actions, v.waiting_for, "pool"))
    return Group(*lines)


def _rolled(d: dict[str, Any], who: str) -> str:
    trait = f" + {d['trait']} +{d.get('rating', 0)}" if d.get("trait") else ""
    dice = _plain(d.get("dice")) if d.get("dice") else "in secret"
    total = f" = {d['total']}, {OUTCOMES.get(d.get('outcome') or '', d.get('outcome') or '-')}" if d.get("total") is not None else ""
    lost = f"; {d['lost']} {'die' if d['lost'] == 1 else 'dice'} lost" if d.get("lost") else ""
    return f"{who} rolls {d.get('count', '')} dice{trait}: {dice}{total}{lost}".replace("  ", " ")


def unit_phrase(event: str, d: dict[str, Any], said: Said) -> str | None:
    """A roll's or a contest's events as the table says them (PL-2 … PL-9), by who rolls (names, not seats)."""
    if event == "Rolled":  # the seat's own seed, once revealed, is shown as typed (C-4)
        seed = f"\nseed {d['seed']}" if d.get("seed") else ""
        helped = f", helped by {said.name(d['helper'])}" if d.get("helper") else ""
        roller = said.name(d["roller"]) if d.get("roller") else said.side(d.get("side"))
        return _rolled(d, roller) + helped + seed
    if event == "Chosen":
        return f"Chooses to {d.get('choice', '-')}" + (f"; {d['gained']} dice gained" if d.get("gained") else "")
    if event == "Opened":
        sides = {side: said.name(d.get(side) or "-") for side in ("challenger", "opponent")}
        said.sides(sides)
        return f"{sides['challenger']} opposes {sides['opponent']} ({d.get('mode', '-')})"
    if event == "SeedAdded":  # the seat's own words, shown as typed (C-4)
        return f"{said.side(d.get('side'))} gives a seed" + (f"\nseed {d['seed']}" if d.get("seed") else "")
    if event == "Answered" and d.get("answer"):
        return f"{said.side(d.get('side'))} {ANSWERS.get(d['answer'], d['answer'])}"
    return None


def _dice(count: Any) -> str:
    return f"{count} {'die' if count == 1 else 'dice'}"


def character_phrase(event: str, d: dict[str, Any], said: Said) -> str | None:
    name = said.who or d.get("name") or "A character"
    if event == "Created":
        traits = ", ".join(f"{n} +{r}" for n, r in (d.get("traits") or {}).items())
        return f"{name} joins with {d.get('pool', '?')} dice" + (f"; traits {traits}" if traits else "") + \
            (f"\n{d['description']}" if d.get("description") else "")
    if event == "DiceLost":
        return f"{name} loses {_dice(d.get('count'))}"
    if event == "DiceGained":
        return f"{name} gains {_dice(d.get('count'))}"
    if event == "HelpOffered":
        return f"{name} offers {said.name(d.get('to'))} {_dice(d.get('dice'))} of help (PL-7)"
    return None


CLI = SystemCli(parsers={"traits": (list[str], traits)}, options={"traits": "--trait"},  # --trait Brave=1, repeated
                renderers={"PoolSheet": pool_sheet, "list[PoolSheet]": sheets, "unit:PoolRoll": roll,
                           "unit:PoolContest": contest},
                unit_kinds=("PoolRoll", "PoolContest"),
                boards={"PoolRoll": board(ResolutionView, roll, "PoolRoll"),
                        "PoolContest": board(ResolutionView, contest, "PoolContest")},
                phrases={"PoolRoll": unit_phrase, "PoolContest": unit_phrase, "PoolCharacter": character_phrase},
                unit_labels={"PoolRoll": "roll", "PoolContest": "contest"})
