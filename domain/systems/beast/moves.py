"""The checks of every move of a Beast roll or conflict: each refuses (naming the ruling) or returns what the
move's event records, and changes nothing (BE-2 … BE-7, BE-10 … BE-12; C-3, C-7)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from domain.errors import RuleViolation
from domain.systems.beast import rules

CHALLENGER, OPPONENT = "challenger", "opponent"


class Moves:
    """Mixin of :class:`~domain.systems.beast.roll.BeastRoll`: verify functions only."""

    sides: dict[str, dict[str, Any]]
    phase: str
    kind: str
    table: bool
    minimum: dict[str, int]
    difficulty: int | None
    outcome: dict[str, Any] | None
    check_mode: str
    #: C-9: each antagonist's split and Willpower-before, declared before the players' input; kept through
    #: rewinds. The default serves units stored before it (never mutated in place).
    prepared: Mapping[str, Mapping[str, Any]] = MappingProxyType({})

    # -- dice: chains of tens by slot (BE-3, BE-10; C-3, C-7) -------------------------------------------
    def chains(self, bases: Sequence[list[Any]], entered: Sequence[int] | None) -> list[list[int]]:
        """One chain per base slot: the first roll, then every 10 rolled again, each result in its own slot
        ``[*base, step]``. Table dice are entered wave by wave: the first rolls, then the re-rolls of the
        10s in die order, and so on (C-3)."""
        chains: list[list[int]] = [[] for _ in bases]
        used = 0
        while True:
            waiting = [i for i, c in enumerate(chains) if not c or rules.goes_on(c)]
            if not waiting:
                break
            slots = [[*bases[i], len(chains[i])] for i in waiting]
            given = None
            if entered is not None and self.table:
                if len(entered) - used < len(slots):
                    raise RuleViolation(f"enter {len(slots)} more d10s for this step (the 10s are rolled again), "
                                        f"{len(entered) - used} left", ruling="C-3")
                given = list(entered[used:used + len(slots)])
                used += len(slots)
            drawn = self.draw_dice(slots, given if self.table else entered, faces=10,  # type: ignore[attr-defined]
                                   what="d10s")  # the unit's own (Fairness)
            for i, value in zip(waiting, drawn, strict=True):
                chains[i].append(value)
        if entered is not None and self.table and used != len(entered):
            raise RuleViolation(f"{len(entered)} d10s entered; this roll takes exactly {used}", ruling="C-3")
        return chains

    def verify_may_roll(self, side: str, sheet: Mapping[str, int]) -> None:
        if self.phase != "rolling" or self.sides[side]["roll"] is not None:
            raise RuleViolation("this side has rolled", ruling="BE-2")
        self.verify_first_roll_waits(side)  # type: ignore[attr-defined]  # C-10: the players' seed or pass first
        self.verify_house_declared()  # type: ignore[attr-defined]  # C-9: the antagonist's split before any roll

    def verify_can_ever_roll(self, side: str, sheet: Mapping[str, int], name: str) -> None:
        """BE-9, BE-2: a side that could never roll in this unit is refused when the unit opens, instead of
        leaving the table waiting for a roll nobody may make."""
        low = {k: self.minimum.get(k, 0) for k in ("humanity", "beast")}
        if sheet["humanity"] == 0:
            raise RuleViolation(f"{name} is lost to the Beast (Humanity 0) and cannot roll", ruling="BE-9")
        if low["humanity"] > sheet["humanity"] or low["beast"] > sheet["beast"]:
            raise RuleViolation(f"{name} has {sheet['humanity']} Humanity and {sheet['beast']} Beast dice, fewer "
                                f"than the minimum asked ({low['humanity']} and {low['beast']})", ruling="BE-2")

    # -- C-9: an antagonist's split and Willpower are declared before the players' input ------------------
    def house_owes(self) -> list[str]:
        """C-9: a side the House plays declares its split and Willpower-before (which dice it rolls) before a
        player's seed or pass, once for the unit (kept through rewinds)."""
        return [f"its split and Willpower (the {side})" for side, data in self.sides.items()
                if data["antagonist"] and side not in self.prepared]

    def verify_prepare(self, side: str, sheet: Mapping[str, int], humanity: object, beast: object,
                       willpower: object) -> dict[str, Any]:
        """What an antagonist's declaration records (C-9): its split and whether it spends Willpower before,
        checked as its roll will be (BE-2, BE-4, BE-9, BE-11)."""
        data = self.sides.get(side)
        if data is None or not data["antagonist"]:
            raise RuleViolation("only an antagonist's side declares its split before the players' input", ruling="C-9")
        if self.table:
            raise RuleViolation("with table dice the antagonist's dice are thrown at the table; nothing is declared "
                                "first", ruling="C-3")
        if side in self.prepared:
            raise RuleViolation("this antagonist has declared its split and Willpower already; its roll uses them",
                                ruling="C-9")
        if self.phase != "rolling" or data["roll"] is not None:
            raise RuleViolation("an antagonist declares its split before it rolls", ruling="C-9")
        self.verify_house_input_open(side, "the House's split and Willpower")  # type: ignore[attr-defined]
        if sheet["humanity"] == 0:  # BE-9: lost to the Beast, it rolls no die
            if humanity not in (None, 0) or beast not in (None, 0) or willpower is not None:
                raise RuleViolation("a character lost to the Beast cannot roll: declare humanity 0, beast 0",
                                    ruling="BE-9")
            return {"humanity": 0, "beast": 0, "willpower_before": False}
        h, b = rules.allocation(humanity, beast, sheet, self.minimum)
        if willpower not in (None, "before"):
            raise RuleViolation("Willpower is spent 'before' the roll here, or after it with a reroll", ruling="BE-4")
        if willpower == "before" and sheet["willpower"] < 1:
            raise RuleViolation("no Willpower can be spent at 0", ruling="BE-11")
        return {"humanity": h, "beast": b, "willpower_before": willpower == "before"}

    def _verify_prepared(self, side: str, humanity: object, beast: object, willpower: object) -> None:
        """C-9: an antagonist rolls the split and Willpower it declared before the players' input."""
        declared = self.prepared.get(side)
        if declared is None:
            return
        given = {"humanity": humanity, "beast": beast, "willpower_before": willpower == "before"}
        if given != dict(declared):
            spent = ", with 1 Willpower spent first" if declared["willpower_before"] else ""
            raise RuleViolation(f"this antagonist declared {declared['humanity']} Humanity and {declared['beast']} "
                                f"Beast dice{spent} before the players' input: it rolls those", ruling="C-9")

    def verify_roll(self, side: str, sheet: Mapping[str, int], humanity: object, beast: object, willpower: object,
                    entered: Sequence[int] | None) -> dict[str, Any]:
        self.verify_may_roll(side, sheet)
        self._verify_prepared(side, humanity, beast, willpower)
        if sheet["humanity"] == 0:
            # BE-9: lost to the Beast while this unit was open (a check elsewhere slipped): it cannot roll, so its
            # side puts no die in, and the unit goes on instead of waiting for a roll nobody may make
            if humanity not in (None, 0) or beast not in (None, 0) or willpower is not None or entered:
                raise RuleViolation("a character lost to the Beast cannot roll: its side rolls no die (humanity 0, "
                                    "beast 0)", ruling="BE-9")
            return {"humanity": 0, "beast": 0, "willpower_before": False, "dice": [], "score": rules.tally([], 0),
                    "reroll": None, "entered": self.table}
        h, b = rules.allocation(humanity, beast, sheet, self.minimum)
        if willpower not in (None, "before"):
            raise RuleViolation("Willpower is spent 'before' the roll here, or after it with a reroll", ruling="BE-4")
        if willpower == "before" and sheet["willpower"] < 1:
            raise RuleViolation("no Willpower can be spent at 0", ruling="BE-11")
        # C-7: a die's slot is its number in the roll, whatever its kind (Humanity dice first), so a roll made
        # again after a rewind shows the same faces even when the dice are split otherwise
        bases = [[side, "die", i] for i in range(h + b)]
        kinds = ["H"] * h + ["B"] * b
        dice = [{"kind": kind, "chain": chain, "base": base}
                for kind, base, chain in zip(kinds, bases, self.chains(bases, entered), strict=True)]
        bonus = 1 if willpower == "before" else 0
        # ``keeps``: no Willpower is left to reroll with once this roll is made (BE-11), so a player's side keeps
        # its dice in the same move; a rewind never stops between the two (C-6; rolls stored before lack it)
        return {"humanity": h, "beast": b, "willpower_before": bool(bonus), "dice": dice,
                "score": rules.tally(dice, bonus), "reroll": None, "entered": self.table,
                # an antagonist's Willpower is the House's secret (C-5): its rolls never say whether any is left
                "keeps": not self.sides[side]["antagonist"] and sheet["willpower"] - bonus < 1}

    def verify_decide(self, side: str) -> None:
        if self.phase not in ("rolling", "deciding") or self.sides[side]["roll"] is None:
            raise RuleViolation("a side keeps or rerolls its dice once it has rolled", ruling="BE-4")
        if self.sides[side]["decided"]:
            raise RuleViolation("this side has kept or rerolled its dice already", ruling="BE-4")

    def verify_may_reroll(self, side: str, sheet: Mapping[str, int]) -> None:
        self.verify_decide(side)
        if not self.sides[side]["roll"]["dice"]:
            raise RuleViolation("no die was rolled to roll again", ruling="BE-4")
        if self.sides[side]["roll"]["willpower_before"]:
            raise RuleViolation("one Willpower point per roll: this roll had its point before", ruling="BE-11")
        if sheet["willpower"] < 1:
            raise RuleViolation("no Willpower can be spent at 0", ruling="BE-11")

    def verify_reroll(self, side: str, sheet: Mapping[str, int], die: object,
                      entered: Sequence[int] | None, draw: bool = True) -> dict[str, Any]:
        """The reroll of die number ``die``; ``draw`` False: the choice alone, its die drawn later with the
        players' fresh seeds (an antagonist's, C-9)."""
        self.verify_may_reroll(side, sheet)
        dice = self.sides[side]["roll"]["dice"]
        number = rules.whole(die, "the die to reroll", 1, len(dice), "BE-4")
        old = dice[number - 1]
        chosen = {"die": number, "kind": old["kind"], "was": old["chain"], "was_base": old["base"]}
        if not draw:
            return chosen
        base = [side, "reroll"]  # C-7: whichever die is chosen, the reroll fills the same slots
        return {**chosen, "chain": self.chains([base], entered)[0], "base": base}

    def verify_resolve(self, sheets: Mapping[str, Mapping[str, int]]) -> dict[str, Any]:
        """The outcome once every side has decided; ``sheets``: each side's values now (after any point spent)."""
        score = {s: d["roll"]["score"] for s, d in self.sides.items()}
        checks = {s: found for s in self.sides if (found := rules.triggers(score[s], sheets[s]["willpower"]))}
        if self.kind == "action":
            total = score[CHALLENGER]["total"]
            return {"success": total >= self.difficulty, "total": total, "more": score[CHALLENGER]["more"],
                    "winner": None, "damage": {}, "checks": checks}
        a, b = score[CHALLENGER]["total"], score[OPPONENT]["total"]
        winner = None if a == b else CHALLENGER if a > b else OPPONENT
        damage = {}
        if winner is not None:
            loser = self.other(winner)
            damage = {loser: min(abs(a - b), sheets[loser]["willpower"])}  # BE-6: never below 0
        # C-5: an antagonist's check is rolled with the result, in the House's part of it, so no step, entry or
        # wait tells players that its Willpower or Humanity set one off (auto mode, the service's dice) …
        made = {s: self.roll_check(s, sheets[s], None) for s in checks
                if self.sides[s]["antagonist"] and self.check_mode == "auto" and not self.table}
        # … with table dice or in manual mode the House makes or records an antagonist's check as a move; it
        # makes one for every antagonist, due or not, so the step and its entry tell players nothing
        confirm = [s for s, d in self.sides.items() if d["antagonist"] and s not in checks
                   and (self.check_mode == "manual" or self.table)]
        return {"success": None, "winner": winner, "difference": abs(a - b), "damage": damage, "checks": checks,
                "more": {s: score[s]["more"] for s in self.sides}, **({"checked": made} if made else {}),
                **({"confirm": confirm} if confirm else {})}


    def other(self, side: str) -> str:
        return OPPONENT if side == CHALLENGER else CHALLENGER

    # -- BE-7, BE-12: the Humanity check ---------------------------------------------------------------
    def verify_check_due(self, side: str) -> None:
        check = self.sides[side]["check"] if side in self.sides else None
        if self.phase != "check" or check is None or check["outcome"] is not None:
            raise RuleViolation("no Humanity check is due on this side", ruling="BE-7")

    def verify_check(self, side: str, sheet: Mapping[str, int], outcome: object, by_house: bool,
                     entered: Sequence[int] | None) -> dict[str, Any]:
        """``auto``: one d10 per point of current Humanity, and with no 7 or more one Humanity die becomes a
        Beast die; ``manual``: the House records ``held`` or ``slipped`` (BE-7, BE-12)."""
        self.verify_check_due(side)
        if not self.sides[side]["check"]["triggers"]:  # an antagonist's check that is not due (C-5: confirmed)
            if outcome not in (None, "held"):
                raise RuleViolation("no Humanity check is due on this side: nothing slips", ruling="BE-7")
            if entered:
                raise RuleViolation("no Humanity check is due on this side: no die is rolled", ruling="BE-7")
            return {"mode": self.check_mode, "dice": [], "outcome": "none", "humanity": sheet["humanity"],
                    "lost": sheet["humanity"] == 0, "entered": False}
        if sheet["humanity"] == 0:
            if self.check_mode == "manual" and not by_house:
                raise RuleViolation("in manual mode the House records the outcome of a Humanity check", ruling="BE-7")
            if outcome not in ((None, "held", "slipped") if self.check_mode == "manual" else (None,)):
                raise RuleViolation("the House records 'held' or 'slipped' in manual mode; in auto mode no outcome "
                                    "is given", ruling="BE-7")
            return self.roll_check(side, sheet, entered)
        if self.check_mode == "manual":
            if not by_house:
                raise RuleViolation("in manual mode the House records the outcome of a Humanity check", ruling="BE-7")
            if outcome not in ("held", "slipped"):
                raise RuleViolation("the House records 'held' or 'slipped'", ruling="BE-7")
            if entered is not None:
                raise RuleViolation("a manual check rolls no dice here", ruling="C-3")
            dice: list[int] = []
        else:
            if outcome is not None:
                raise RuleViolation("in auto mode the dice decide the check; no outcome is given", ruling="BE-7")
            return self.roll_check(side, sheet, entered)
        humanity = sheet["humanity"] - (outcome == "slipped")
        return {"mode": self.check_mode, "dice": dice, "outcome": outcome, "humanity": humanity,
                "lost": humanity == 0, "entered": self.table and bool(dice)}

    def check_slot(self, side: str, j: int) -> list[Any]:
        """A Humanity check die's slot: ``[side, "check", j]``; once the players' fresh seeds of the reroll
        stage are in, it carries them (C-9): the House's reroll choice can set off its antagonist's check
        (BE-12), so the dice that check would roll must not be known when it chooses."""
        if self.fresh_in("reroll"):  # type: ignore[attr-defined]
            return [*self.fresh_slot("reroll", [side, "check"]), j]  # type: ignore[attr-defined]
        return [side, "check", j]

    def roll_check(self, side: str, sheet: Mapping[str, int], entered: Sequence[int] | None) -> dict[str, Any]:
        """BE-12, auto mode: one d10 per point of current Humanity; with no 7 or more, one Humanity die
        becomes a Beast die. At Humanity 0 (lost to the Beast already, a check of another unit having slipped
        first, BE-9) no die is left to roll or to lose: the check records ``lost`` and changes nothing."""
        if sheet["humanity"] == 0:
            if entered:
                raise RuleViolation("a character lost to the Beast has no Humanity die to roll", ruling="BE-9")
            return {"mode": self.check_mode, "dice": [], "outcome": "lost", "humanity": 0, "lost": True,
                    "entered": False}
        dice = self.draw_dice([self.check_slot(side, j) for j in range(sheet["humanity"])], entered, faces=10,  # type: ignore[attr-defined]
                              what="d10s, one per point of Humanity")
        outcome = "held" if any(v >= rules.TARGET["H"] for v in dice) else "slipped"
        humanity = sheet["humanity"] - (outcome == "slipped")
        return {"mode": self.check_mode, "dice": dice, "outcome": outcome, "humanity": humanity,
                "lost": humanity == 0, "entered": self.table and bool(dice)}

    # -- C-5: the House shows an antagonist's dice ----------------------------------------------------------
    def verify_reveal(self, side: str) -> None:
        data = self.sides.get(side)
        if data is None or not data["antagonist"] or data["roll"] is None:
            raise RuleViolation("the House reveals an antagonist's roll once it is made", ruling="C-5")
        if data["revealed"] or self.outcome is not None or self.settled:  # type: ignore[attr-defined]
            raise RuleViolation("this roll is public already", ruling="C-5")  # settled (abandoned): all is public

    # -- C-6: overturn -----------------------------------------------------------------------------------
    def verify_overturn(self, winner: object, void: object) -> dict[str, Any]:
        """A settled unit is voided (nothing it did stands) or, for a conflict, given to the other winner:
        the loser takes the difference off his Willpower (BE-6)."""
        if not self.settled:  # type: ignore[attr-defined]
            raise RuleViolation("only a settled roll or conflict is overturned; rewind an open one", ruling="C-6")
        if getattr(self, "overturned", None):
            raise RuleViolation("this was overturned already", ruling="C-6")
        if void is True and winner is None:
            return {"void": True, "winner": None, "damage": {}}
        if void is True or winner not in (CHALLENGER, OPPONENT) or self.kind != "conflict":
            raise RuleViolation("overturn a conflict with a new winner, or void it; a roll is only voided",
                                ruling="C-6")
        if self.outcome is None or getattr(self, "abandoned", None) is not None:  # C-10: abandoned: no winner to change
            raise RuleViolation("this conflict was abandoned: it is only voided", ruling="C-6")
        if winner == self.outcome["winner"]:
            raise RuleViolation(f"the {winner} won already", ruling="C-6")
        return {"void": False, "winner": winner, "damage": {self.other(winner): self.outcome["difference"]}}

    # -- what the unit does to the characters (mirrored by the application) -------------------------------
    def effects(self) -> dict[str, dict[str, int]]:
        """Per side: the change to Willpower (a point spent, damage) and to Humanity (a check slipped)."""
        overturned = getattr(self, "overturned", None)
        out = {}
        for side, data in self.sides.items():
            roll, check = data["roll"], data["check"]
            spent = int(bool(roll and (roll["willpower_before"] or roll["reroll"] or data.get("pending"))))
            damage = (self.outcome or {}).get("damage", {}).get(side, 0)
            slipped = int(bool(check and check["outcome"] == "slipped"))
            if overturned:
                damage = overturned["damage"].get(side, 0)
                if overturned["void"]:
                    spent = slipped = 0
            out[side] = {"willpower": -(spent + damage), "humanity": -slipped}
        return out

    def values_now(self, sheets: Mapping[str, Mapping[str, int]]) -> dict[str, dict[str, int]]:
        """Each side's values as the rules see them now: its sheet (``sheets``), and what this unit did to an
        antagonist that its sheet shows only once the unit settles (a Willpower point spent, a Humanity check:
        BE-4, BE-7, BE-12). An antagonist is in one open conflict at a time, so no other unit holds one back."""
        full, shown = self.effects(), self.shown_effects()
        out = {}
        for side, sheet in sheets.items():
            values = dict(sheet)
            willpower = values["willpower"] + full[side]["willpower"] - shown[side]["willpower"]
            humanity = values["humanity"] + full[side]["humanity"] - shown[side]["humanity"]
            values["willpower"] = max(0, min(willpower, values["willpower_max"]))
            values["humanity"] = max(0, min(humanity, rules.DICE))
            values["beast"] = rules.DICE - values["humanity"]
            out[side] = values
        return out

    def shown_effects(self) -> dict[str, dict[str, int]]:
        """``effects`` as the sheets show them now: a player's at once; an antagonist's only once the unit is
        settled, since a change to its sheet while the unit is open would itself tell its secret Willpower
        choice and the check it made (C-5): its ``Adjusted`` event is in everyone's log positions."""
        out = self.effects()
        if not self.settled:  # type: ignore[attr-defined]
            for side, data in self.sides.items():
                if data["antagonist"]:
                    out[side] = {"willpower": 0, "humanity": 0}
        return out
