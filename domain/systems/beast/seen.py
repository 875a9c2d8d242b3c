"""What each seat sees of a Beast roll or conflict, and what it may do now (C-5, C-8; BE-2 … BE-7).

An antagonist's dice, its Willpower choices and its Humanity check are the House's until the House reveals
them, or until the unit resolves (its outcome shows every die). A die every seat has seen stays public
after a rewind, marked as seen before the rewind (C-8). ``legal_actions`` is built from the same checks
that refuse a move, so a listed move is accepted and an unlisted one refused.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Mapping
from typing import Any

from domain.errors import passes
from domain.kernel.resolution import HOUSE, slot_key
from domain.systems.beast import rules


def _chain(steps: Mapping[int, int]) -> list[int]:
    """A die's results by step (its first roll, then each re-roll), as far as they run unbroken (C-7)."""
    out: list[int] = []
    while len(out) in steps:
        out.append(steps[len(out)])
    return out


def _slots(roll: Mapping[str, Any] | None) -> list[list[Any]]:
    if not roll:
        return []
    return [[*d["base"], k] for d in roll["dice"] for k in range(len(d["chain"]))]


class Seen:
    """Mixin of :class:`~domain.systems.beast.roll.BeastRoll`: views and legal actions."""

    sides: dict[str, dict[str, Any]]
    outcome: dict[str, Any] | None

    @property
    def revealed(self) -> bool:
        """Every hidden value is public: settled, resolved, or each antagonist's roll revealed (C-5)."""
        return self.settled or self.outcome is not None or all(  # type: ignore[attr-defined]
            d["revealed"] for d in self.sides.values() if d["antagonist"])

    def sides_of(self, seat: str) -> list[str]:
        """The sides ``seat`` plays: a player his character's, the House its antagonists'."""
        if seat == HOUSE:
            return [s for s, d in self.sides.items() if d["antagonist"]]
        return [s for s, d in self.sides.items() if seat in d["seats"]]

    # -- C-5, C-8: the view ----------------------------------------------------------------------------
    def view_for(self, seat: str, reveal: bool = False, settled: bool = False) -> dict[str, Any]:
        show_all = seat == HOUSE or reveal or settled or self.revealed
        done = self.settled or settled  # type: ignore[attr-defined]
        current = {slot_key(r["slot"]) for r in self.rolls}  # type: ignore[attr-defined]
        sides = {}
        for side, data in self.sides.items():
            view = copy.deepcopy(data)
            if data["antagonist"] and not show_all and view["roll"] is not None:
                # its split, its Willpower choice and the die it rerolls are choices of this roll, even when
                # its faces were seen before a rewind (C-7 brings them again): those faces are listed with the
                # unit's ``seen_before_rewind``, whatever this roll is (C-8), the roll stays hidden (C-5)
                current = {k for k in current if ast.literal_eval(k)[0] != side}
                view["roll"] = {"hidden": True}
            if data["antagonist"] and self.outcome is not None and not (done or seat == HOUSE):
                # its triggers and dice tell of its Willpower and Humanity; whether it has one at all, too
                view["check"] = {"hidden": True}
            if view["roll"] and "dice" in view["roll"]:
                for die in view["roll"]["dice"]:
                    die["text"] = rules.die_text(die)
            view.pop("seed", None)
            view.pop("pending", None)
            if show_all and data.get("pending"):  # C-9: its reroll, drawn with the players' fresh seeds
                view["pending"] = {"die": data["pending"]["die"]}
            view["seeded"] = data["seed"] is not None
            sides[side] = view
        # C-8: every die every seat saw and a rewind took back: those shown (an antagonist's once revealed or
        # resolved), and every die of a player's side, public the moment it is rolled (found on a phone walk:
        # a player's roll undone read "Not rolled yet", as if nobody had seen it)
        public = {s for s, d in self.sides.items() if not d["antagonist"]}
        hidden_again = {slot_key(r["slot"]) for r in self.rolls} - current  # type: ignore[attr-defined]
        earlier = [{"slot": slot, "value": value} for slot, value in self.taken_back(hidden_again)  # type: ignore[attr-defined]
                   if self.was_shown(slot) or slot[0] in public]  # type: ignore[attr-defined]
        return {
            "kind": self.kind, "adventure": self.adventure, "phase": self.phase,  # type: ignore[attr-defined]
            "difficulty": self.difficulty, "difficulty_name": rules.DIFFICULTIES.get(self.difficulty or 0),  # type: ignore[attr-defined]
            "minimum": dict(self.minimum), "check_mode": self.check_mode, "table": self.table,  # type: ignore[attr-defined]
            "seed_hash": self.seed_hash, "secret_seed": self.secret_seed if done else None,  # type: ignore[attr-defined]
            "side_seeds": {s: d["seed"] for s, d in self.sides.items()},
            "sides": sides, "outcome": self._outcome_for(seat, done),
            "overturned": copy.deepcopy(getattr(self, "overturned", None)),
            "abandoned": getattr(self, "abandoned", None),  # C-10: the House's reason
            "seen_before_rewind": earlier,
            # C-9, C-10: the players' fresh seeds (public), and the sides that still owe one
            "fresh_seeds": {stage: dict(given) for stage, given in self.fresh.items()},  # type: ignore[attr-defined]
            "fresh_owed": self.owed_fresh(),  # type: ignore[attr-defined]
            # C-9: which antagonists declared their split; the split itself is the House's until revealed (C-5)
            "prepared": {s: (dict(p) if show_all else True) for s, p in self.prepared.items()},  # type: ignore[attr-defined]
        }

    def _outcome_for(self, seat: str, done: bool) -> dict[str, Any] | None:
        """Until settled, an antagonist's damage (capped at its Willpower, BE-6) and the triggers of its
        check (BE-7) are the House's (C-5)."""
        outcome = copy.deepcopy(self.outcome)
        if outcome is None or done or seat == HOUSE:
            return outcome
        for side, data in self.sides.items():
            if data["antagonist"]:
                if side in outcome["damage"]:
                    outcome["damage"][side] = "hidden"
                outcome["checks"][side] = ["hidden"]  # whether it has one or not (C-5)
        outcome.pop("checked", None)
        outcome.pop("confirm", None)
        return outcome

    def _fixed_before(self, side: str, kinds: tuple[str, ...]) -> dict[str, Any]:
        """C-7, table dice: the slots of this side's move that showed a die before a rewind, ``[side, "die",
        number, roll]`` (a reroll's ``[side, "reroll", roll]``) with its value, to be entered the same again."""
        if not self.table:  # type: ignore[attr-defined]
            return {}
        slots = [ast.literal_eval(k) for k in self.filled]  # type: ignore[attr-defined]
        fixed = [{"slot": slot, "value": self.filled[slot_key(slot)]} for slot in sorted(slots, key=repr)  # type: ignore[attr-defined]
                 if slot[0] == side and slot[1] in kinds]
        return {"fixed": fixed} if fixed else {}

    def _table_dice(self, side: str, kind: str, **count: Any) -> dict[str, Any]:
        """C-3, table dice (issue 30): what the table enters for this side's ``kind`` of move (``die``: a roll,
        ``reroll``: a Willpower reroll), for the listing alone to say: d10s (``faces``), how many come first
        (``count``: ``dice``, or ``count_of``, the body fields whose sum it is), and that each result of
        ``explode_on`` adds one more die to the same chain, up to ``chain_max`` results (BE-3, BE-10); they
        are entered wave by wave (the first rolls, then the re-rolls of the 10s in die order, and so on).
        After a rewind, ``fixed_chains``: per die (in die order), the results its slots showed before, to be
        entered the same again (C-7); besides the slot-by-slot ``fixed``."""
        if not self.table:  # type: ignore[attr-defined]
            return {}
        out: dict[str, Any] = {"faces": rules.FACES, "explode_on": rules.EXPLODE_ON, "chain_max": rules.MAX_CHAIN,
                               **count, **self._fixed_before(side, (kind,))}
        if "fixed" in out:
            chains: dict[int, dict[int, int]] = {}
            for entry in out["fixed"]:
                slot = entry["slot"]
                number, step = (slot[2], slot[3]) if kind == "die" else (0, slot[2])
                chains.setdefault(number, {})[step] = entry["value"]
            out["fixed_chains"] = [_chain(chains.get(i, {})) for i in range(max(chains) + 1)]
        return out

    # -- what a seat may do now ------------------------------------------------------------------------------
    def _a_split(self, sheet: Mapping[str, int]) -> tuple[int, int, None]:
        """One split the sheet allows, to ask whether a declaration is open at all (BE-2, BE-9)."""
        if sheet["humanity"] == 0:
            return 0, 0, None
        low = {k: self.minimum.get(k, 0) for k in ("humanity", "beast")}  # type: ignore[attr-defined]
        return max(low["humanity"], 1 if not low["beast"] else 0), low["beast"], None

    def _roll_choices(self, action: str, side: str, sheet: Mapping[str, int]) -> dict[str, Any]:
        """The splits and Willpower a roll (or its declaration, C-9) may take (BE-2, BE-4); ``max`` 0 when the
        sheet allows none."""
        if sheet["humanity"] == 0:
            return {"action": action, "member": side, "min": 0, "max": 0,
                    "choices": [{"humanity": [0, 0], "beast": [0, 0], "willpower": [None]}]}
        low = {k: self.minimum.get(k, 0) for k in ("humanity", "beast")}  # type: ignore[attr-defined]
        fits = low["humanity"] <= sheet["humanity"] and low["beast"] <= sheet["beast"] and \
            sheet["humanity"] + sheet["beast"] >= 1
        return {"action": action, "member": side, "min": max(1, sum(low.values())),
                "max": sheet["humanity"] + sheet["beast"] if fits else 0,
                "choices": [{"humanity": [low["humanity"], sheet["humanity"]],
                             "beast": [low["beast"], sheet["beast"]],
                             "willpower": [None, "before"] if sheet["willpower"] else [None]}]}

    def legal_actions(self, seat: str, sheets: Mapping[str, Mapping[str, int]]) -> list[dict[str, Any]]:
        """``sheets``: the values of each side's character now (only the seat's own sides are read)."""
        out: list[dict[str, Any]] = []
        own = self.sides_of(seat)
        for side in own:
            sheet = sheets[side]
            if not self.table and passes(self.verify_prepare, side, sheet, *self._a_split(sheet)):  # type: ignore[attr-defined]
                out.append(self._roll_choices("prepare", side, sheet))  # C-9: before the players' input
            if side in self.owed_fresh():  # type: ignore[attr-defined]  # C-9, C-10: a fresh seed, never a pass
                out.append({"action": "seed", "member": side, "fresh": True, "required": ["seed"]})
            elif passes(self.verify_may_seed, side):  # type: ignore[attr-defined]
                out += [{"action": "seed", "member": side}, {"action": "pass", "member": side}]  # C-10
            may_roll = passes(self.verify_may_roll, side, sheet)  # type: ignore[attr-defined]
            if may_roll and sheet["humanity"] == 0:
                # BE-9: lost to the Beast since the unit opened; its side rolls no die
                out.append({"action": "roll", "member": side, "min": 0, "max": 0,
                            "choices": [{"humanity": [0, 0], "beast": [0, 0], "willpower": [None]}],
                            **({"dice": 0} if self.table else {})})  # type: ignore[attr-defined]
            elif may_roll and side in self.prepared:  # type: ignore[attr-defined]
                declared = self.prepared[side]  # type: ignore[attr-defined]  # C-9: the declared split, no other
                h, b = declared["humanity"], declared["beast"]
                out.append({"action": "roll", "member": side, "min": h + b, "max": h + b,
                            "choices": [{"humanity": [h, h], "beast": [b, b],
                                         "willpower": ["before" if declared["willpower_before"] else None]}],
                            **self._table_dice(side, "die", dice=h + b, count_of=list(rules.KINDS))})
            elif may_roll:
                choices = self._roll_choices("roll", side, sheet)
                if choices["max"]:  # the count follows the split picked: one d10 per die of each kind (BE-2)
                    out.append({**choices, **self._table_dice(side, "die", count_of=list(rules.KINDS))})
            # C-9: after a rewind that kept the players' fresh seeds, the antagonist makes its choice again
            bound, made = self.bound_house_choice("reroll", side) if self.sides[side]["antagonist"] else (False, None)  # type: ignore[attr-defined]
            if passes(self.verify_may_reroll, side, sheet) and not (bound and made is None):  # type: ignore[attr-defined]
                count = len(self.sides[side]["roll"]["dice"])
                out.append({"action": "reroll", "member": side,
                            "choices": [made] if bound else list(range(1, count + 1)),
                            **self._table_dice(side, "reroll", dice=1)})  # the die again, and its 10s (BE-10)
            if passes(self.verify_decide, side) and not (bound and made is not None):  # type: ignore[attr-defined]
                out.append({"action": "keep", "member": side})
        for side in self.sides:
            mine = side in own or seat == HOUSE
            if mine and passes(self.verify_check_due, side):  # type: ignore[attr-defined]
                due = bool(self.sides[side]["check"]["triggers"])
                if self.check_mode == "manual" and seat == HOUSE:  # type: ignore[attr-defined]
                    out.append({"action": "check", "member": side, "choices": ["held", "slipped"] if due else ["held"]})
                elif self.check_mode == "auto":  # type: ignore[attr-defined]
                    entry: dict[str, Any] = {"action": "check", "member": side}
                    if self.table:  # type: ignore[attr-defined]  # C-3: one d10 per point of Humanity (BE-12)
                        slots = [[side, "check", j] for j in range(sheets[side]["humanity"] if due else 0)]
                        entry["dice"], entry["faces"] = len(slots), rules.FACES  # no 10 is rolled again
                        fixed = self.fixed_before(slots)  # type: ignore[attr-defined]  # C-7
                        if fixed is not None:
                            entry["fixed"] = fixed
                    out.append(entry)
        if seat == HOUSE:
            out += [{"action": "reveal", "member": s} for s in own if passes(self.verify_reveal, s)]  # type: ignore[attr-defined]
        return out + self.abandon_actions(seat)  # type: ignore[attr-defined]  # C-10
