"""Plain Humanity and Beast rules: settings, targets, chains of tens, successes and the BE-7 trigger.

Nothing here records anything; the aggregates call these to verify a move and to compute what its
event records (BE-1 … BE-12).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from domain.errors import RuleViolation

DICE = 10  # BE-1: a character's dice, split between Humanity and Beast
DEFAULT_HUMANITY, DEFAULT_WILLPOWER = 7, 6  # BE-1
TARGET = {"H": 7, "B": 6}  # BE-3: a Humanity die succeeds on 7+, a Beast die on 6+
KINDS = {"humanity": "H", "beast": "B"}
#: BE-3, BE-10: a 10 is rolled again as often as it comes up; a chain holds at most this many results
#: (the first roll and up to 19 re-rolls). A chain that reaches the cap keeps its last 10's success and
#: is not rolled again. The chance of reaching it is 10^-19 per die.
MAX_CHAIN = 20
FACES = 10  # BE-3: every die is a d10
EXPLODE_ON = 10  # BE-3, BE-10: the face that is rolled again
#: BE-2, BE-13: Easy (2) to Legendary (10), by the designer's names; views and the CLI show the name by the number
DIFFICULTIES = {2: "Easy", 3: "Average", 4: "Challenging", 5: "Difficult", 6: "Hard", 7: "Extremely Hard",
                8: "Almost Impossible", 9: "Epic", 10: "Legendary"}
CHECK_MODES = ("auto", "manual")  # BE-7


def whole(value: object, what: str, low: int, high: int, ruling: str) -> int:
    """A strict whole number in ``[low, high]`` (``true`` is not a number)."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise RuleViolation(f"{what} is a whole number from {low} to {high}, not {value!r}", ruling=ruling)
    return value


def beast_settings(raw: Mapping[str, Any]) -> dict[str, Any]:
    """Campaign settings: ``check_mode`` (BE-7, default auto) and ``table_dice`` (C-3)."""
    unknown = set(raw) - {"check_mode", "table_dice"}
    if unknown:
        raise RuleViolation(f"unknown Humanity and Beast settings: {', '.join(sorted(unknown))}", ruling="C-1")
    mode = raw.get("check_mode") or "auto"
    if mode not in CHECK_MODES:
        raise RuleViolation(f"a Humanity check is 'auto' or 'manual', not {mode!r}", ruling="BE-7")
    table = raw.get("table_dice", False)
    if not isinstance(table, bool):
        raise RuleViolation("table_dice is true or false", ruling="C-3")
    return {"check_mode": mode, "table_dice": table}


def creation(humanity: object, willpower_max: object) -> tuple[int, int]:
    """BE-1, BE-9: Humanity 1 to 10 (Beast is the rest of 10), Willpower maximum 1 to 10."""
    humanity = DEFAULT_HUMANITY if humanity is None else humanity
    willpower_max = DEFAULT_WILLPOWER if willpower_max is None else willpower_max
    return (whole(humanity, "Humanity at creation", 1, DICE, "BE-9"),
            whole(willpower_max, "the Willpower maximum", 1, 10, "BE-9"))


def allocation(humanity: object, beast: object, sheet: Mapping[str, int], minimum: Mapping[str, int]) -> tuple[int, int]:
    """BE-2: at least the minimums, at most the split, 1 to 10 dice in all."""
    h = whole(humanity, "Humanity dice", 0, DICE, "BE-2")
    b = whole(beast, "Beast dice", 0, DICE, "BE-2")
    if h > sheet["humanity"] or b > sheet["beast"]:
        raise RuleViolation(f"the split is {sheet['humanity']} Humanity and {sheet['beast']} Beast; "
                            f"{h} and {b} do not fit it", ruling="BE-2")
    if h < minimum.get("humanity", 0) or b < minimum.get("beast", 0):
        raise RuleViolation(f"this roll needs at least {minimum.get('humanity', 0)} Humanity and "
                            f"{minimum.get('beast', 0)} Beast dice", ruling="BE-2")
    if not 1 <= h + b <= DICE:
        raise RuleViolation("a roll takes 1 to 10 dice in all", ruling="BE-2")
    return h, b


def chain_successes(kind: str, chain: Sequence[int]) -> int:
    """BE-3, BE-10: every result of the chain at or above the die's own target is a success."""
    return sum(1 for v in chain if v >= TARGET[kind])


def goes_on(chain: Sequence[int]) -> bool:
    """Whether a chain is rolled again: its last result is a 10 and the cap is not reached (BE-3)."""
    return bool(chain) and chain[-1] == EXPLODE_ON and len(chain) < MAX_CHAIN


def tally(dice: Sequence[Mapping[str, Any]], bonus: int) -> dict[str, Any]:
    """Successes per kind, the Willpower success (BE-11: of neither kind) and which kind scored more (BE-5)."""
    h = sum(chain_successes("H", d["chain"]) for d in dice if d["kind"] == "H")
    b = sum(chain_successes("B", d["chain"]) for d in dice if d["kind"] == "B")
    more = "humanity" if h > b else "beast" if b > h else "tie"
    return {"humanity": h, "beast": b, "willpower": bonus, "total": h + b + bonus, "more": more}


def triggers(score: Mapping[str, int], willpower_now: int) -> list[str]:
    """BE-7, BE-12: Beast successes above current Willpower (after this roll's point, before damage), or
    above Humanity successes; the Willpower success counts for neither. One check, whatever holds."""
    found = []
    if score["beast"] > willpower_now:
        found.append("beast above willpower")
    if score["beast"] > score["humanity"]:
        found.append("beast above humanity")
    return found


def die_text(die: Mapping[str, Any]) -> str:
    """A die as the table reads it: ``H 10→7 ✓✓`` (a reroll shows the chain it replaced)."""
    def one(chain: Sequence[int]) -> str:
        marks = "✓" * chain_successes(die["kind"], chain)
        return f"{'→'.join(map(str, chain))} {marks or '✗'}"
    text = f"{die['kind']} {one(die['chain'])}"
    return f"{text} (was {one(die['was'])})" if die.get("was") is not None else text


def pending(units: Iterable[Any], character_hex: str) -> dict[str, int]:
    """C-5: what open ``units`` did to an antagonist (a Willpower point spent, damage, a check slipped) that its
    sheet shows only once each settles: a restore waits for it (BE-8)."""
    out = {"willpower": 0, "humanity": 0}
    for unit in units:
        if unit.settled:
            continue
        full, shown = unit.effects(), unit.shown_effects()
        for side, data in unit.sides.items():
            if data["antagonist"] and data["character"] == character_hex:
                for key in out:
                    out[key] += full[side][key] - shown[side][key]
    return out
