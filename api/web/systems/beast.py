"""Humanity and Beast's web board (issue 31): d10s of two kinds, exploding tens as chains, the Willpower track,
the split chosen with steppers, and sheets whose history reads as sentences with the dice (BE-1 … BE-13).

Everything drawn comes from the signed-in seat's own reads (C-5): an antagonist's roll the seat may not see
is ``{"hidden": true}`` in its view and is drawn as a cup of die backs, never counted; its declared split
(``BeastRoll.PreparedInSecret``) is ``true`` in a player's view, and is drawn as "declared" alone.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from markupsafe import Markup

from api.web.systems import CampaignView, CommandForm, Group, Move, TableView, WebBoard, ordinal
from domain.systems.beast.rules import DICE, DIFFICULTIES, TARGET

KIND = {"H": "humanity", "B": "beast"}
REASONS = {"beast above willpower": "more Beast successes than Willpower",
           "beast above humanity": "more Beast successes than Humanity successes"}
#: How each group of campaign commands is headed, in the order the groups come (units first).
GROUPS = {"act": "Act or face a conflict", "open-conflict": "Act or face a conflict",
          "restore-willpower": "Willpower", "create-antagonist": "The House's characters"}
ORDER = ("Act or face a conflict", "Adventures", "Willpower", "The House's characters", "Seats")
#: A die as the history stores it (``rules.die_text``): ``H 10→7 ✓✓``, a reroll ``H 4 ✗ (was 10→1 ✓)``.
DIE_TEXT = re.compile(r"^([HB]) ([\d→]+) [✓✗]+(?: \(was ([\d→]+) [✓✗]+\))?$")


def difficulty(number: object) -> str:
    """BE-13: the difficulty's name with its number, ``Challenging (4)``."""
    name = DIFFICULTIES.get(number) if isinstance(number, int) else None
    return f"{name} ({number})" if name else str(number)


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 'es' if word.endswith('s') else 's'}"


# -- dice ------------------------------------------------------------------------------------------------
def faces(kind: str, chain: Sequence[int]) -> list[dict[str, Any]]:
    """One die's chain as faces: the first roll, then each re-roll of a 10 attached to it (BE-3, BE-10)."""
    out = []
    for i, value in enumerate(chain):
        success = value >= TARGET["H" if kind == "humanity" else "B"]
        again = value == 10 and i + 1 < len(chain)
        words = [f"{kind} die showing {value}"]
        if i:
            words.append("the re-roll of a 10")
        words.append("a success" if success else "no success")
        if again:
            words.append("rolled again")
        out.append({"value": value, "success": success, "extra": i > 0, "again": again, "label": ", ".join(words)})
    return out


def die(number: int, kind_letter: str, chain: Sequence[int], was: Sequence[int] | None = None) -> dict[str, Any]:
    kind = KIND[kind_letter]
    shown = faces(kind, chain)
    return {"n": number, "kind": kind, "faces": shown, "successes": sum(f["success"] for f in shown),
            "was": faces(kind, was) if was is not None else None}


def dice_of(roll: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [die(i + 1, d["kind"], d["chain"], d.get("was")) for i, d in enumerate(roll.get("dice") or [])]


def parsed(text: str, number: int) -> dict[str, Any] | None:
    """A die of the sheet's history, from its text (``H 10→7 ✓✓``); None when it reads otherwise."""
    m = DIE_TEXT.match(str(text))
    if not m:
        return None
    chain = [int(v) for v in m.group(2).split("→")]
    was = [int(v) for v in m.group(3).split("→")] if m.group(3) else None
    return die(number, m.group(1), chain, was)


def score_words(score: Mapping[str, Any]) -> str:
    """``4 successes: 2 Humanity, 1 Beast, 1 from Willpower``; which kind scored more (BE-5, BE-11)."""
    parts = [f"{score.get('humanity', 0)} Humanity", f"{score.get('beast', 0)} Beast"]
    if score.get("willpower"):
        parts.append(f"{score['willpower']} from Willpower")
    more = {"humanity": "Humanity dice scored more", "beast": "Beast dice scored more",
            "tie": "Humanity and Beast scored alike"}.get(str(score.get("more")), "")
    return f"{plural(int(score.get('total', 0)), 'success')}: {', '.join(parts)}." + (f" {more}." if more else "")


def reasons(found: object) -> str:
    items = found if isinstance(found, list) else [found] if found else []
    return " and ".join(REASONS.get(str(r), str(r)) for r in items)


def check_words(name: str | None, check: Mapping[str, Any]) -> str:
    """A Humanity check made (BE-7, BE-12), in words; ``name`` None: the sheet's own."""
    outcome, who = check.get("outcome"), name or "the character"
    subject = f"{name}'s Humanity" if name else "Humanity"
    if outcome == "none":
        return f"{subject}: no check was due."
    if outcome == "lost":
        return f"{who[0].upper()}{who[1:]} was lost to the Beast already: no Humanity die was left to roll."
    manual = check.get("mode") == "manual"
    if outcome == "held":
        text = f"{subject} held" + (": the House ruled so." if manual else ": a 7 or more came up.")
    else:
        text = f"{subject} slipped" + (" (the House ruled so)" if manual else ": no 7 or more came up") + \
            ", and one Humanity die became a Beast die."
    if check.get("lost"):
        text += f" {who[0].upper()}{who[1:]} is lost to the Beast (BE-7) and rolls no more."
    elif check.get("humanity") is not None:
        text += f" Humanity is now {check['humanity']}."
    return text


def willpower_track(now: object, most: object) -> dict[str, Any] | None:
    if not isinstance(now, int) or not isinstance(most, int):
        return None
    return {"now": now, "max": most, "pips": [i < now for i in range(most)]}


def split(humanity: object) -> dict[str, Any] | None:
    """The ten dice of a sheet as Humanity and Beast (BE-1)."""
    if not isinstance(humanity, int):
        return None
    return {"humanity": humanity, "beast": DICE - humanity,
            "dice": ["humanity"] * humanity + ["beast"] * (DICE - humanity)}


# -- the history of a sheet, in sentences -------------------------------------------------------------------
WHY = {"roll": "spent on a roll", "conflict damage": "lost in a conflict", "Humanity check": "a Humanity check",
       "rewound": "a rewind", "overturned": "an overturned result", "abandoned": "an abandoned roll",
       "settled": "a conflict that settled"}


def _signed(amount: object, what: str) -> str | None:
    return f"{what} {amount:+d}".replace("-", "−") if isinstance(amount, int) and amount else None


def history(lines: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """A sheet's history (newest first), one entry per roll or conflict: what was rolled, with the dice, what
    came of it in words, and the changes to the sheet; a restore of Willpower is an entry of its own."""
    groups: list[list[Mapping[str, Any]]] = []
    by_unit: dict[str, list[Mapping[str, Any]]] = {}
    for line in lines:
        unit = line.get("unit")
        if unit is None or line.get("what") == "restored":
            groups.append([line])
        elif str(unit) in by_unit:
            by_unit[str(unit)].append(line)
        else:
            by_unit[str(unit)] = [line]
            groups.append(by_unit[str(unit)])
    return [_entry(list(reversed(group))) for group in groups]


def _entry(lines: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """One roll or conflict of a sheet's history, its lines oldest first."""
    entry: dict[str, Any] = {"unit": None, "at": lines[-1].get("at"), "title": "", "rolled": "", "dice": [],
                             "score": "", "rerolls": [], "result": "", "good": None, "sentences": [],
                             "checks": [], "changes": []}
    for line in lines:
        what, d = line.get("what"), line.get("detail") or {}
        entry["unit"] = str(line["unit"]) if line.get("unit") else None
        if what == "restored":
            entry["title"] = "Willpower restored"
            entry["result"] = f"The House restored {d.get('willpower', 0)} Willpower (BE-8)."
        elif what == "roll":
            action = d.get("kind") == "action"
            entry["title"] = f"Action, {difficulty(d.get('difficulty'))}" if action else "Conflict"
            entry["dice"] = [p for i, t in enumerate(d.get("dice") or []) if (p := parsed(t, i + 1))]
            spent = ", and 1 Willpower for a sure success" if d.get("willpower_before") else ""
            entry["rolled"] = f"Rolled {d.get('humanity')} Humanity and {d.get('beast')} Beast dice{spent}."
            entry["score"] = score_words(d.get("score") or {})
        elif what == "reroll":
            number = int(d.get("die") or 0)
            kind = next((x["kind"] for x in entry["dice"] if x["n"] == number), "humanity")
            entry["rerolls"].append({"text": f"Spent 1 Willpower to roll die {number} again:",
                                     "die": die(number, kind[0].upper(), d.get("chain") or [], d.get("was") or [])})
        elif what == "outcome":
            total = int((d.get("score") or {}).get("total", 0))
            if d.get("kind") == "action":
                entry["result"] = f"{'Success' if d.get('success') else 'Failure'} with {plural(total, 'success')}."
                entry["good"] = bool(d.get("success"))
            elif d.get("won") is None:
                against = f" against {d['against']}" if d.get("against") else ""
                entry["result"] = f"A tie{against} at {plural(total, 'success')}: nobody was hurt."
            else:
                against = f" against {d['against']}" if d.get("against") else ""
                entry["result"] = (f"{'Won' if d.get('won') else 'Lost'} the conflict{against} with "
                                   f"{plural(total, 'success')}.")
                entry["good"] = bool(d.get("won"))
            if d.get("willpower_lost"):
                entry["sentences"].append(f"Lost {d['willpower_lost']} Willpower in the conflict.")
            if d.get("check") and d.get("check") != ["hidden"]:
                entry["sentences"].append(f"A Humanity check was due: {reasons(d['check'])}.")
        elif what == "check":
            entry["checks"].append({"dice": [die(j + 1, "H", [v]) for j, v in enumerate(d.get("dice") or [])],
                                    "text": check_words(None, d)})
        elif what == "adjusted":
            changes = [c for c in (_signed(d.get("willpower"), "Willpower"), _signed(d.get("humanity"), "Humanity"))
                       if c]
            if changes:
                why = WHY.get(str(d.get("why")), str(d.get("why") or ""))
                entry["changes"].append(", ".join(changes) + (f" ({why})" if why else ""))
        elif what == "overturned":  # C-6: the result that stands now, the first one kept in words after it
            kind = "action" if d.get("kind") == "action" else "conflict"
            entry["title"] = entry["title"] or kind.capitalize()
            first = f" It first read: {entry['result']}" if entry["result"] else ""
            if d.get("void") or d.get("won") is None:
                now, entry["good"] = f"the {kind} no longer stands", None
            else:
                now, entry["good"] = f"{'won' if d.get('won') else 'lost'} the {kind} now", bool(d.get("won"))
            entry["result"] = f"The House overturned the result: {now} (“{d.get('reason')}”, C-6).{first}"
        elif what == "abandoned":
            kind = "action" if d.get("kind") == "action" else "conflict"
            entry["title"] = entry["title"] or kind.capitalize()
            entry["result"] = f"The House abandoned this {kind}: {d.get('reason')}. No Willpower was lost to it (C-10)."
    entry["title"] = entry["title"] or "Roll"
    return entry


def sheet(s: Mapping[str, Any]) -> dict[str, Any]:
    """A player's sheet, or an antagonist's as the House reads it (the names alone for a player: C-5)."""
    hidden = s.get("humanity") is None
    return {"name": s.get("name"), "seat": s.get("seat"), "hidden": hidden, "split": split(s.get("humanity")),
            "willpower": willpower_track(s.get("willpower"), s.get("willpower_max")), "lost": bool(s.get("lost")),
            "history": history(s.get("history") or [])}


# -- the table ------------------------------------------------------------------------------------------------
def _track_of(view: TableView, side: Mapping[str, Any]) -> dict[str, Any] | None:
    """A player's character's Willpower, from the campaign's sheets (public); an antagonist's from the House's
    characters, which only the House reads in full (C-5: a player's read of them names them, nothing more)."""
    if side.get("antagonist"):
        found = next((a for a in view.book("house-characters") or [] if a.get("name") == side.get("name")), None)
        return willpower_track(found.get("willpower"), found.get("willpower_max")) if found else None
    seats = side.get("seats") or []
    found = next((s for s in view.sheets if s.get("seat") in seats), None)
    return willpower_track(found.get("willpower"), found.get("willpower_max")) if found else None


def _side(view: TableView, key: str, data: Mapping[str, Any], state: Mapping[str, Any]) -> dict[str, Any]:
    mine = view.seat in (data.get("seats") or []) or (view.is_house and bool(data.get("antagonist")))
    roll = data.get("roll")
    seed = (state.get("side_seeds") or {}).get(key)
    out: dict[str, Any] = {
        "key": key, "name": data.get("name"), "mine": mine, "antagonist": bool(data.get("antagonist")),
        "willpower": _track_of(view, data), "roll": None, "hidden": False, "dice": [], "score": "",
        "decided": bool(data.get("decided")), "seed": "passed" if seed == "" else "seeded" if seed else None,
        "check": None, "check_hidden": False, "declared": None}
    prepared = (state.get("prepared") or {}).get(key)
    settled = state.get("phase") == "settled"
    if prepared is True or (isinstance(prepared, Mapping) and not mine and not settled):
        # C-9, C-5: a player reads the declaration itself once the unit settles (its revealed roll shows the
        # same split before that; the page does not repeat it)
        out["declared"] = f"{data.get('name')}'s split is declared, in secret until the conflict settles (C-9)."
    elif isinstance(prepared, Mapping):
        wp = ", with 1 Willpower for a sure success" if prepared.get("willpower_before") else ""
        out["declared"] = (f"Declared: {prepared.get('humanity')} Humanity and {prepared.get('beast')} Beast dice{wp}"
                           + (" (the House's secret until it settles)." if mine and not settled else "."))
    if isinstance(roll, Mapping) and roll.get("hidden"):
        out["hidden"] = True
    elif isinstance(roll, Mapping):
        out["roll"] = True
        out["dice"] = dice_of(roll)
        out["willpower_before"] = bool(roll.get("willpower_before"))
        out["score"] = score_words(roll.get("score") or {})
        out["lost_to_beast"] = not roll.get("dice")
        out["entered"] = bool(roll.get("entered"))
        if not mine and not settled:  # its dice are shown: their split with them, no secret left to announce
            out["declared"] = None
    pending = data.get("pending")
    if isinstance(pending, Mapping):  # C-9: the House's view (every seat's once it revealed its dice)
        out["pending"] = (f"1 Willpower spent to roll die {pending.get('die')} again: it is drawn with the players' "
                          "fresh seed, when every side has decided (C-9).")
    check = data.get("check")
    if isinstance(check, Mapping) and check.get("hidden"):
        out["check_hidden"] = True
    elif isinstance(check, Mapping):
        due = reasons(check.get("triggers"))
        out["check"] = {"due": due, "made": check.get("outcome") is not None,
                        "dice": [die(j + 1, "H", [v]) for j, v in enumerate(check.get("dice") or [])],
                        "text": check_words(str(data.get("name")), check) if check.get("outcome") is not None else ""}
    return out


def _outcome(state: Mapping[str, Any], names: Mapping[str, str]) -> list[str]:
    out = state.get("outcome")
    if not isinstance(out, Mapping):
        return []
    if state.get("kind") == "action":
        need = state.get("difficulty")
        head = (f"Success: {plural(out['total'], 'success')} against {difficulty(need)}." if out.get("success") else
                f"Failure: {plural(out['total'], 'success')}, and {difficulty(need)} needs {need}.")
        return [head]
    words = []
    winner = out.get("winner")
    if winner is None:
        words.append("A tie: nobody is hurt (BE-6).")
    else:
        words.append(f"{names.get(winner, winner)} wins by {plural(int(out.get('difference') or 0), 'success')}.")
        for side, lost in (out.get("damage") or {}).items():
            if lost == "hidden":
                words.append(f"{names.get(side, side)} loses Willpower; how much stays the House's until the "
                             "conflict settles (C-5).")
            elif lost:
                capped = int(lost) < int(out.get("difference") or 0)  # BE-6: never below 0
                words.append(f"{names.get(side, side)} loses {lost} Willpower"
                             + (", all there was left (it never goes below 0)." if capped else "."))
            else:
                words.append(f"{names.get(side, side)} has no Willpower left to lose.")
    return words


def _seen_before(state: Mapping[str, Any], names: Mapping[str, str]) -> list[tuple[str, str]]:
    """C-8: the d10s every seat saw that a rewind took back, side by side by name, each die's chain as it came
    (a 10 and the die it rolled again, BE-10): ``[(name, "7, 10→4, 2"), …]``."""
    by_side: dict[str, dict[tuple[Any, ...], dict[int, int]]] = {}
    for e in state.get("seen_before_rewind") or []:
        slot = list(e.get("slot") or [])
        if len(slot) < 2 or not isinstance(slot[-1], int):
            continue
        chains = by_side.setdefault(str(slot[0]), {})
        # a die and its rerolls of tens are one chain (its last part the step); a check's dice are each their own
        die = tuple(map(str, slot[1:-1])) if slot[1] in ("die", "reroll") else tuple(map(str, slot[1:]))
        chains.setdefault(die, {})[slot[-1] if slot[1] in ("die", "reroll") else 0] = e.get("value")
    out = []
    for side, chains in by_side.items():
        dice = ["→".join(str(chain[k]) for k in sorted(chain)) for chain in chains.values()]
        out.append((names.get(side, side), ", ".join(dice)))
    return out


def table_model(view: TableView) -> dict[str, Any]:
    state = view.state
    names = {key: str(data.get("name")) for key, data in (state.get("sides") or {}).items()}
    sides = [_side(view, key, data, state) for key, data in (state.get("sides") or {}).items()]
    model: dict[str, Any] = {
        "kind": state.get("kind"), "names": names, "others": [s for s in sides if not s["mine"]],
        "own": [s for s in sides if s["mine"]], "outcome": _outcome(state, names),
        "table_dice": bool(state.get("table")), "abandoned": state.get("abandoned"),
        "overturned": state.get("overturned"), "seen_before": _seen_before(state, names),
        "difficulty": difficulty(state.get("difficulty")) if state.get("kind") == "action" else None,
        "minimum": {k: v for k, v in (state.get("minimum") or {}).items() if v},
        "secret": state.get("secret_seed") is not None,
        # BE-5: an action short of its difficulty is drawn as a failure, not in a winner's colours
        "failed": state.get("kind") == "action" and isinstance(state.get("outcome"), Mapping)
        and not state["outcome"].get("success"),
    }
    model["actions"] = [_action(m, sides) for m in view.moves]
    return model


def _action(move: Move, sides: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """One of the seat's moves, with what its control needs: the split's bounds, the dice it may roll again."""
    side = next((s for s in sides if s["key"] == move.limits.get("member")), None)
    out: dict[str, Any] = {"m": move}
    if move.name in ("roll", "prepare"):
        out["split"] = _split_control(move, side)
    if move.name == "reroll":
        numbers = [int(n) for n in move.limits.get("choices") or []]
        out["dice"] = [d for d in (side["dice"] if side else []) if d["n"] in numbers]
        failed = [d["n"] for d in out["dice"] if not d["successes"]]
        out["default"] = failed[0] if failed else (numbers[0] if numbers else None)
    return out


def _split_control(move: Move | None, own: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """Steppers for the dice of each kind, bounded by the legal action's ranges (BE-2); a declared split
    (C-9) or a side lost to the Beast (BE-9) is fixed and shown in words."""
    if move is None:
        return None
    choice = (move.limits.get("choices") or [{}])[0]
    h = [int(v) for v in choice.get("humanity", [0, 0])]
    b = [int(v) for v in choice.get("beast", [0, 0])]
    willpower = list(choice.get("willpower", [None]))
    fixed = h[0] == h[1] and b[0] == b[1]
    return {"humanity": h, "beast": b, "fixed": fixed, "lost": h[1] + b[1] == 0,
            "default": (h[1], b[0] if h[1] + b[0] >= 1 else min(1, b[1])),
            "may_spend": "before" in willpower and None in willpower, "must_spend": willpower == ["before"],
            "min": move.limits.get("min"), "max": move.limits.get("max"), "side": move.limits.get("member"),
            "name": own["name"] if own else ""}


# -- the board -----------------------------------------------------------------------------------------------
class BeastBoard(WebBoard):
    #: Humanity and Beast's rulings in a player's words (the page of rulings, ``/web/rules``).
    rules = {
        "BE-1": "A character's 10 dice are split between Humanity and Beast; Willpower never goes above its maximum.",
        "BE-2": "An action names a difficulty (2 to 10) and may ask for a least number of each kind of die.",
        "BE-3": "A Humanity die succeeds on 7 or more, a Beast die on 6 or more; every 10 is rolled again.",
        "BE-4": "One Willpower point a roll: before it, one sure success; after it, one die rolled again.",
        "BE-5": "Successes at or above the difficulty succeed; the result says which kind scored more.",
        "BE-6": "In a conflict the side with more successes wins, and the difference comes off the loser's "
                "Willpower.",
        "BE-7": "More Beast successes than Willpower, or than Humanity successes, calls for a Humanity check, which "
                "may turn a Humanity die into a Beast die; at Humanity 0 the character is lost.",
        "BE-8": "The House may restore Willpower, up to its maximum.",
        "BE-9": "At creation Humanity is 1 to 10 and Willpower's maximum 1 to 10; a character lost to the Beast "
                "cannot roll.",
        "BE-10": "A 10 scores and its die rolls again on its own target; a Willpower reroll replaces a die's whole "
                 "chain.",
        "BE-11": "The success bought with Willpower counts for the difficulty and the conflict, not for either kind.",
        "BE-12": "The check compares with Willpower after this roll's point and before its damage; one check at most; "
                 "difficulty plays no part in a conflict.",
        "BE-13": "The difficulties by name: Easy 2, Average 3, Challenging 4, Difficult 5, Hard 6, Extremely Hard 7, "
                 "Almost Impossible 8, Epic 9, Legendary 10.",
    }

    package = "beast"
    table_reads = ("house-characters",)  # the House sees its antagonist's Willpower at the table (BE-6)
    phases = {"check": "Humanity checks"}

    def table(self, view: TableView) -> Markup:
        return self.render("table.html", t=view, b=table_model(view))

    def slot_words(self, slot: list[Any], sides: Mapping[str, str]) -> str | None:
        """A d10 by whose it is and its number from 1 (the slot counts from 0): a die of the roll
        (``[side, "die", i, step]``, a step past 0 its 10 rolled again, BE-10), the die rolled again with
        Willpower (``[side, "reroll", …, step]``, BE-4) or a Humanity check die (``[side, "check", …, j]``, BE-7);
        one drawn with the players' fresh seed says so (C-9)."""
        if len(slot) < 3 or slot[1] not in ("die", "reroll", "check") or not isinstance(slot[-1], int):
            return None
        who, last = sides.get(str(slot[0]), str(slot[0])), slot[-1]
        fresh = " (with the fresh seed)" if "fresh" in slot else ""
        again = f", its 10 rolled again ({ordinal(last)} time, BE-10)" if slot[1] != "check" and last else ""
        if slot[1] == "die" and len(slot) == 4 and isinstance(slot[2], int):
            return f"{who}'s die {slot[2] + 1}{again}{fresh}"
        if slot[1] == "reroll":
            return f"{who}'s die rolled again with Willpower{again}{fresh}"
        if slot[1] == "check":
            return f"{who}'s Humanity check, die {last + 1}{fresh}"
        return None

    step_phrases = {
        "Opened": "{who} opened it", "PreparedInSecret": "{who} prepared a roll in secret",
        "Rolled": "{who} rolled", "RolledInSecret": "{who} rolled in secret", "Revealed": "{who} showed the roll",
        "DecidedInSecret": "{who} decided in secret", "RerollDrawnInSecret": "A die rolled again in secret",
        "Resolved": "The result was settled", "Checked": "{who} made a Humanity check",
        "CheckedInSecret": "{who} made a Humanity check in secret",
    }

    def step_words(self, event: str, detail: dict[str, Any], actor: str, name_of: Callable[[str], str],
                   sides: Mapping[str, str] | None = None) -> str:
        """A side's decision says whether it kept its dice or rolled one again (BE-4, C-9)."""
        if event == "Decided":
            again = detail.get("reroll")
            return (f"{name_of(actor)} kept the dice" if not again else
                    f"{name_of(actor)} spent Willpower to roll a die again")
        return super().step_words(event, detail, actor, name_of, sides)

    def abandoned_lines(self, view: TableView) -> list[tuple[str, str]]:
        """C-10: each side's d10s still to roll, a 10 with the die rolled again after it (BE-10); a roll takes
        as many as it has dice, from the first (BE-1)."""
        chains: dict[tuple[str, int], list[str]] = {}
        for record in view.would_have_drawn:
            side, _, die, _ = record["slot"]
            chains.setdefault((str(side), int(die)), []).append(str(record["value"]))
        lines: dict[str, list[str]] = {}
        for (side, _), values in chains.items():
            lines.setdefault(side, []).append("→".join(values))
        return [(self.side_name(view, side), " ".join(dice) + " (a roll takes its dice from the first)")
                for side, dice in lines.items()]

    def unit_title(self, unit: dict[str, Any], names: dict[str, str]) -> str:
        sides = unit.get("sides")
        if isinstance(sides, Mapping) and sides:  # the unit's own state (its table)
            who = [str(d.get("name")) for d in sides.values()]
            if unit.get("kind") == "action":
                return f"{who[0]}'s action, {difficulty(unit.get('difficulty'))}"
            return " against ".join(who)
        summary = unit.get("summary") or {}
        if summary.get("names"):  # a line of the lists: the names its summary row holds (antagonists too)
            who = [str(n) for n in summary["names"]]
            if summary.get("kind") == "action":
                return f"{who[0]}'s action, {difficulty(summary.get('difficulty'))}"
            return " against ".join(who)
        challenger = ", ".join(names.get(s, s) for s in unit.get("challenger") or [])
        against = ", ".join(names.get(s, s) for s in unit.get("opponent") or [])
        return f"{challenger} against {against}" if against else f"{challenger}'s action"

    # -- the campaign ---------------------------------------------------------------------------------------
    def campaign(self, view: CampaignView) -> Markup:
        house = view.book("house-characters") or []
        return self.render("campaign.html", c=view, own=[sheet(s) for s in view.own],
                           others=[sheet(s) for s in view.others], house=[sheet(a) for a in house])

    def group_of(self, command: CommandForm) -> str:
        return GROUPS.get(command.verb) or super().group_of(command)

    def usable(self, command: CommandForm, view: CampaignView) -> bool:
        running = bool(view.campaign.get("adventure_running"))
        if command.verb == "act":  # BE-9: a character lost to the Beast acts no more
            return running and not any(s.get("lost") for s in view.own)
        if command.verb == "open-conflict":
            return running and not any(s.get("lost") for s in view.own)
        if command.verb == "restore-willpower":  # BE-8: someone below the maximum
            return any(c["willpower"] < c["willpower_max"] for c in self._characters(view))
        return super().usable(command, view)

    def groups(self, view: CampaignView) -> list[Group]:
        found = super().groups(view)
        found.sort(key=lambda g: ORDER.index(g.label) if g.label in ORDER else len(ORDER))
        return [Group(g.label, g.commands, open=i == 0) for i, g in enumerate(found)]

    @staticmethod
    def _characters(view: CampaignView) -> list[dict[str, Any]]:
        """Who Willpower may be restored to (BE-8): players by seat, the House's characters by name."""
        out = [{"value": s["seat"], "name": s["name"], "willpower": s["willpower"], "willpower_max": s["willpower_max"]}
               for s in [*view.own, *view.others]]
        out += [{"value": a["name"], "name": a["name"], "willpower": a["willpower"], "willpower_max": a["willpower_max"]}
                for a in view.book("house-characters") or [] if a.get("willpower") is not None]
        return out

    def command_form(self, command: CommandForm, view: CampaignView) -> Markup | None:
        if command.verb not in ("act", "open-conflict", "restore-willpower", "create-antagonist", "add-player"):
            return super().command_form(command, view)
        own = view.own[0] if view.own else None
        house = [a["name"] for a in view.book("house-characters") or []]
        players = [s for s in [*view.own, *view.others] if not s.get("lost")]
        return self.render("commands.html", cmd=command, c=view, own=own, house=house, players=players,
                           characters=self._characters(view), difficulties=sorted(DIFFICULTIES.items()),
                           table_dice=bool((view.campaign.get("settings") or {}).get("table_dice")))

    def answer(self, verb: str, value: Any, view: CampaignView) -> Markup:
        if verb == "restore-willpower" and isinstance(value, Mapping):
            return self.render("answer.html", text=f"{value.get('name')}'s Willpower is now {value.get('willpower')} "
                                                   f"of {value.get('willpower_max')}.",
                               track=willpower_track(value.get("willpower"), value.get("willpower_max")))
        if verb == "add-player" and isinstance(value, Mapping) and isinstance(value.get("sheet"), Mapping):
            one = value["sheet"]
            return self.render("answer.html", text=f"{one.get('name')} is seated: Humanity {one.get('humanity')}, "
                                                   f"Beast {one.get('beast')}, Willpower {one.get('willpower_max')}.",
                               track=None, invite=value.get("invite"))
        if verb == "create-antagonist" and isinstance(value, list):
            names = ", ".join(str(a.get("name")) for a in value)
            return self.render("answer.html", text=f"The House's characters are now: {names}.", track=None)
        return super().answer(verb, value, view)


BOARD = BeastBoard()
