"""A Beast roll or conflict: the unit of resolution of Humanity and Beast (C-1; BE-2 … BE-7, BE-10 … BE-12).

One aggregate plays both: an *action* has one side and a difficulty (BE-2, BE-5); a *conflict* has two
sides, a player's character against an antagonist or another player's (BE-6). Each side rolls, then
keeps its dice or spends Willpower to reroll one die; once every side has decided, the unit resolves,
and each side whose Beast ran high makes a Humanity check (BE-7). Seeds, slot-derived d10s (every 10's
re-roll, the Willpower reroll and each check die have a slot of their own), table dice, ``verify``,
rewinds with locked slots and C-8 come from the kernel (``domain.kernel.resolution``).

What a unit does to the characters is ``effects()``: per side, Willpower spent and lost and Humanity
slipped. The application mirrors any change of it onto the characters in the same save, so a rewind or
an overturn restores the sheets (C-6).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any
from uuid import UUID

from eventsourcing.domain import Aggregate, event

from domain.errors import RuleViolation
from domain.fairness import commitment
from domain.kernel.resolution import Resolution, slot_key
from domain.systems.beast import rules
from domain.systems.beast.moves import Moves
from domain.systems.beast.seen import Seen
from domain.text import clean_text

CHALLENGER, OPPONENT = "challenger", "opponent"
#: C-9, C-10: the stage of a conflict against an antagonist after every side decided, before the antagonist's
#: Willpower reroll is drawn (``BeastRoll.fresh_stage``).
REROLL = "reroll"


class BeastRoll(Seen, Moves, Resolution, Aggregate):
    UNIT_LABEL = "roll"
    REWOUND = ("sides", "phase", "outcome", "rolls")  # ``prepared`` is kept through rewinds (C-9)
    TABLE_DICE = "this campaign rolls table dice: enter the d10s as rolled"
    DIE_FACES = 10  # BE-3: every die is a d10, the Humanity check's too
    SEEDS_CLOSED = "a side adds its seed before the first roll (C-7: never after a rewind)"
    SETTLED_REWIND = "a settled roll or conflict is not rewound; overturn it instead"
    abandoned: str | None = None  # C-10: the House's reason, once it abandoned the unit (older states: never)

    @event("Opened")
    def __init__(self, campaign_id: UUID, adventure: int, kind: str, difficulty: int | None,
                 minimum: dict[str, int], check_mode: str, table: bool, seed_hash: str, secret_seed: str,
                 sides: dict[str, dict[str, Any]], actor: str) -> None:
        self.campaign_id, self.adventure, self.kind = campaign_id, adventure, kind
        self.difficulty, self.minimum, self.check_mode, self.table = difficulty, dict(minimum), check_mode, table
        self.seed_hash, self.secret_seed = seed_hash, secret_seed
        self.sides = {side: {**copy.deepcopy(data), "seed": None, "roll": None, "decided": False,
                             "revealed": False, "check": None} for side, data in sides.items()}
        self.phase = "rolling"
        self.rolls: list[dict[str, Any]] = []
        self.outcome: dict[str, Any] | None = None
        self.overturned: dict[str, Any] | None = None

    @classmethod
    def open(cls, *, campaign_id: UUID, adventure: int, kind: str, difficulty: object, minimum: Mapping[str, object],
             check_mode: str, table: bool, secret_seed: str, sides: dict[str, dict[str, Any]], actor: str) -> BeastRoll:
        if kind == "action":
            difficulty = rules.whole(difficulty, "the difficulty", 2, 10, "BE-2")
        elif difficulty is not None:
            raise RuleViolation("difficulty plays no part in a conflict's outcome", ruling="BE-12")
        low = {k: rules.whole(minimum.get(k) or 0, f"the minimum of {k} dice", 0, rules.DICE, "BE-2")
               for k in ("humanity", "beast")}
        if sum(low.values()) > rules.DICE:
            raise RuleViolation("the minimums ask for more than 10 dice", ruling="BE-2")
        seats = [s for d in sides.values() for s in d["seats"] if s != "house"]
        if len(seats) != len(set(seats)) or (kind == "conflict" and len({d["character"] for d in sides.values()}) < 2):
            raise RuleViolation("a character does not face himself", ruling="BE-6")
        return cls(campaign_id=campaign_id, adventure=adventure, kind=kind, difficulty=difficulty, minimum=low,
                   check_mode=check_mode, table=table, seed_hash=commitment(secret_seed), secret_seed=secret_seed,
                   sides=sides, actor=actor)

    @property
    def settled(self) -> bool:
        return self.phase == "settled"

    def seed_of(self, side: str) -> str | None:
        return self.sides[side]["seed"] if side in self.sides else None

    def put_seed(self, side: str, seed: str | None) -> None:
        if side in self.sides:  # an action has one side
            self.sides[side]["seed"] = seed

    # -- C-4: seeds --------------------------------------------------------------------------------
    def add_seed(self, side: str, seed: object, actor: str) -> None:
        """A seed before the first roll, or the fresh seed the antagonist's reroll waits for (C-4, C-9, C-10)."""
        self.give_input(side, seed, actor)

    @event("FreshSeedAdded")
    def _fresh_seed_added(self, stage: str, side: str, seed: str, actor: str) -> None:
        """C-9, C-10: a player's fresh seed, given once every side decided; public."""
        self.put_fresh(stage, side, seed)

    # -- C-9, C-10: the antagonist's reroll waits for the players' fresh seed ---------------------------------
    def fresh_stage(self) -> str | None:
        """C-9: once every side of a conflict against an antagonist has kept or chosen its reroll, the House's
        reroll is drawn only with the players' fresh seeds: choosing it, the House could compute the die from
        its secret and the first seeds. The stage is owed whether the antagonist rerolled or kept (its choice
        stays its secret until the outcome, C-5)."""
        if (self.phase == "deciding" and self.outcome is None and all(d["decided"] for d in self.sides.values())
                and any(d["antagonist"] for d in self.sides.values())):
            return REROLL
        return None

    def rerolls_fresh(self, side: str) -> bool:
        """Whether ``side``'s Willpower reroll waits for the players' fresh seeds: an antagonist's, when the
        service derives the dice and some player seeds (C-9; table dice are thrown at the table, C-3)."""
        return bool(self.sides[side]["antagonist"]) and not self.table and bool(self.seeders())

    def pending(self, side: str) -> dict[str, Any] | None:
        """The reroll ``side`` chose that waits for the fresh seeds (C-9), or None."""
        found: dict[str, Any] | None = self.sides[side].get("pending")
        return found

    def draw_at_fresh_input(self, stage: str, actor: str) -> None:
        """C-10: the antagonists' chosen rerolls, drawn with the fresh seeds in the slot (``fresh_slot``); the
        outcome follows in the same move (``ready``)."""
        for side in self.sides:
            chosen = self.pending(side)
            if chosen is None:
                continue
            base = self.fresh_slot(stage, [side, "reroll"])
            reroll = {key: value for key, value in chosen.items() if key != "pending"}
            self._reroll_drawn_in_secret(side=side, reroll={**reroll, "chain": self.chains([base], None)[0],
                                                            "base": base}, actor=actor)

    @event("RerollDrawnInSecret")
    def _reroll_drawn_in_secret(self, side: str, reroll: dict[str, Any], actor: str) -> None:
        """C-9, C-10: the antagonist's reroll, drawn with the fresh seeds; the House's until the outcome, which
        the same move records (C-5)."""
        self.sides[side]["pending"] = None
        self._apply_reroll(side, reroll)

    @event("SeedAdded")
    def _seed_added(self, side: str, seed: str, actor: str) -> None:
        self.put_seed(side, seed)

    @event("SeedPassed")
    def _seed_passed(self, side: str, actor: str) -> None:
        """C-10: the side gives no seed text; the House's side may roll once no player's input is owed."""
        self.put_pass(side)

    # -- C-9: an antagonist declares what goes into its roll before the players' input ---------------------
    def prepare(self, side: str, sheet: Mapping[str, int], humanity: object, beast: object, willpower: object,
                actor: str) -> None:
        self._prepared_in_secret(side=side, prepared=self.verify_prepare(side, sheet, humanity, beast, willpower),
                                 actor=actor)

    @event("PreparedInSecret")
    def _prepared_in_secret(self, side: str, prepared: dict[str, Any], actor: str) -> None:
        self.prepared = {**self.prepared, side: dict(prepared)}

    # -- BE-2 … BE-4: a side rolls --------------------------------------------------------------------
    def roll(self, side: str, sheet: Mapping[str, int], humanity: object, beast: object, willpower: object,
             entered: Sequence[int] | None, actor: str) -> None:
        roll = self.verify_roll(side, sheet, humanity, beast, willpower, entered)
        if self.sides[side]["antagonist"]:
            self._rolled_in_secret(side=side, roll=roll, actor=actor)
        else:
            self._rolled(side=side, roll=roll, actor=actor)

    def _record_roll(self, side: str, roll: dict[str, Any]) -> None:
        for die in roll["dice"]:
            for step, value in enumerate(die["chain"]):
                self.record_result([*die["base"], step], value, roll["entered"], faces=10)
        self.sides[side]["roll"] = copy.deepcopy(roll)
        if all(d["roll"] is not None for d in self.sides.values()):
            self.phase = "deciding"

    @event("Rolled")
    def _rolled(self, side: str, roll: dict[str, Any], actor: str) -> None:
        self._record_roll(side, roll)

    @event("RolledInSecret")
    def _rolled_in_secret(self, side: str, roll: dict[str, Any], actor: str) -> None:
        self._record_roll(side, roll)

    # -- BE-4, BE-10, BE-11: keep, or reroll one die with Willpower -----------------------------------------
    def decide(self, side: str, sheet: Mapping[str, int], die: object | None, entered: Sequence[int] | None,
               actor: str) -> None:
        """Keep the dice (``die`` None) or reroll die number ``die`` with a Willpower point. An antagonist's
        reroll waits for the players' fresh seeds (C-9), drawn at once when a rewind kept them."""
        # C-7: a reroll drawn at once before this rule (a unit open when it shipped) is drawn at its old slot again
        fresh = self.rerolls_fresh(side) and slot_key([side, "reroll", 0]) not in self.filled
        if die is None:
            self.verify_decide(side)
            if entered is not None:
                raise RuleViolation("keeping the dice rolls nothing", ruling="C-3")
            reroll = None
        elif fresh:
            reroll = {**self.verify_reroll(side, sheet, die, None, draw=False), "pending": True}
        else:
            reroll = self.verify_reroll(side, sheet, die, entered)
        if fresh:
            _, made = self.bound_house_choice(REROLL, side)
            self.verify_house_choice(REROLL, side, reroll and reroll["die"],
                                     f"to reroll die {made}" if made else "to keep its dice")
        if self.sides[side]["antagonist"]:
            self._decided_in_secret(side=side, reroll=reroll, actor=actor)
        else:
            self._decided(side=side, reroll=reroll, actor=actor)
        if self.fresh_stage() is not None and self.fresh_in(REROLL) and any(map(self.pending, self.sides)):
            self.draw_at_fresh_input(REROLL, actor)  # the fresh seeds were given before a rewind (C-7)

    def _record_decision(self, side: str, reroll: dict[str, Any] | None) -> None:
        self.sides[side]["decided"] = True
        if self.sides[side]["antagonist"]:  # C-9: bound once the fresh seeds are in (``bound_house_choice``)
            self.put_house_choice(REROLL, side, reroll["die"] if reroll else None)
        if reroll is None:
            return
        if reroll.get("pending"):
            self.sides[side]["pending"] = copy.deepcopy(reroll)
            return
        self._apply_reroll(side, reroll)

    def _apply_reroll(self, side: str, reroll: dict[str, Any]) -> None:
        roll = self.sides[side]["roll"]
        for step, value in enumerate(reroll["chain"]):
            self.record_result([*reroll["base"], step], value, roll["entered"], faces=10)
        roll["reroll"] = copy.deepcopy(reroll)
        roll["dice"][reroll["die"] - 1] = {"kind": reroll["kind"], "chain": list(reroll["chain"]),
                                           "base": list(reroll["base"]), "was": list(reroll["was"])}
        roll["score"] = rules.tally(roll["dice"], 0)

    @event("Decided")
    def _decided(self, side: str, reroll: dict[str, Any] | None, actor: str) -> None:
        self._record_decision(side, reroll)

    @event("DecidedInSecret")
    def _decided_in_secret(self, side: str, reroll: dict[str, Any] | None, actor: str) -> None:
        self._record_decision(side, reroll)

    def ready(self) -> bool:
        """Every side decided, every reroll drawn, no fresh seed owed (C-9): the outcome follows at once."""
        return (self.phase == "deciding" and self.outcome is None and all(d["decided"] for d in self.sides.values())
                and not self.owed_fresh() and not any(map(self.pending, self.sides)))

    def mid_move(self) -> bool:
        """Not a step to stop at (C-6): every side has decided and the result follows in the same move; or a
        player's side rolled and cannot reroll (no die, its Willpower point spent before, or no Willpower left
        after the roll, BE-11), so the same move keeps its dice (issue 30: found by the conformance suite); or
        the last fresh seed is in and the antagonist's reroll is drawn in the same move (C-10)."""
        return self.ready() or self.drawing_fresh() or any(self.keeps_at_once(side) for side in self.sides)

    def keeps_at_once(self, side: str) -> bool:
        """Whether a player's ``side`` that rolled keeps its dice in the same move, whatever its sheet says."""
        data = self.sides[side]
        roll = data["roll"]
        return (roll is not None and not data["antagonist"] and not data["decided"]
                and (not roll["dice"] or bool(roll["willpower_before"]) or bool(roll.get("keeps"))))

    # -- BE-5 … BE-7, BE-12: the outcome ------------------------------------------------------------------
    def resolve(self, sheets: Mapping[str, Mapping[str, int]], actor: str) -> None:
        outcome = self.verify_resolve(sheets)
        self._resolved(outcome=outcome, rolls={s: copy.deepcopy(d["roll"]) for s, d in self.sides.items()},
                       actor=actor)

    @event("Resolved")
    def _resolved(self, outcome: dict[str, Any], rolls: dict[str, Any], actor: str) -> None:
        """Public: the outcome shows every side's dice (an antagonist's are revealed, C-5)."""
        self.outcome = copy.deepcopy(outcome)
        for side, found in outcome["checks"].items():
            self.sides[side]["check"] = {"triggers": list(found), "dice": None, "outcome": None}
        for side in outcome.get("confirm", []):  # an antagonist's check the House confirms, not due (C-5)
            self.sides[side]["check"] = {"triggers": [], "dice": None, "outcome": None}
        self.show()  # the dice rolled so far, every side's: not the antagonist's check, whose dice stay its own
        for side, check in outcome.get("checked", {}).items():  # an antagonist's, made with the result (C-5)
            self._record_check(side, check)
        self.phase = "check" if any(d["check"] is not None and d["check"]["outcome"] is None
                                    for d in self.sides.values()) else "settled"

    # -- BE-7: the Humanity check ---------------------------------------------------------------------
    def check(self, side: str, sheet: Mapping[str, int], outcome: object, by_house: bool,
              entered: Sequence[int] | None, actor: str) -> None:
        check = self.verify_check(side, sheet, outcome, by_house, entered)
        if self.sides[side]["antagonist"]:
            self._checked_in_secret(side=side, check=check, actor=actor)
        else:
            self._checked(side=side, check=check, actor=actor)

    def _record_check(self, side: str, check: dict[str, Any]) -> None:
        for j, value in enumerate(check["dice"]):
            self.record_result(self.check_slot(side, j), value, check["entered"], faces=10)
        self.sides[side]["check"].update(copy.deepcopy(check))
        if all(d["check"] is None or d["check"]["outcome"] is not None for d in self.sides.values()):
            self.phase = "settled"

    @event("Checked")
    def _checked(self, side: str, check: dict[str, Any], actor: str) -> None:
        self._record_check(side, check)

    @event("CheckedInSecret")
    def _checked_in_secret(self, side: str, check: dict[str, Any], actor: str) -> None:
        self._record_check(side, check)

    # -- C-5, C-8: the House shows an antagonist's roll -------------------------------------------------------
    def reveal(self, side: str, actor: str) -> None:
        self.verify_reveal(side)
        self._revealed(side=side, roll=copy.deepcopy(self.sides[side]["roll"]), actor=actor)

    @event("Revealed")
    def _revealed(self, side: str, roll: dict[str, Any], actor: str) -> None:
        """Public: the antagonist's dice as rolled so far; they stay public after a rewind (C-8)."""
        self.sides[side]["revealed"] = True
        self.show()

    # -- C-10, C-1: the House abandons an open unit ------------------------------------------------------------
    def draw_to_come(self) -> bool:
        """C-10: a side's roll is still to come (its dice are fixed once a seed or pass is given)."""
        return self.phase == "rolling" and any(d["roll"] is None for d in self.sides.values())

    def would_be_draws(self, **inputs: Any) -> dict[str, Any]:
        """C-10: a seed or pass is given and a side has not rolled: the d10s its roll would have shown, for as
        many dice as a character has (BE-1), each 10 rolled again (BE-10), for every seat to see."""
        bases = [[side, "die", i] for side, data in self.sides.items() if data["roll"] is None
                 for i in range(rules.DICE)]
        chains = self.chains(bases, None)
        return {"draws": [{"slot": [*base, step], "value": value, "faces": 10}
                          for base, chain in zip(bases, chains, strict=True) for step, value in enumerate(chain)]}

    def close_abandoned(self, reason: str, actor: str) -> None:
        self._abandoned(reason=reason, rolls={s: copy.deepcopy(d["roll"]) for s, d in self.sides.items()},
                        actor=actor)

    @event("DrawAbandoned")
    def _draw_abandoned(self, draws: list[dict[str, Any]], actor: str) -> None:
        """C-10: recorded for every seat to see; the unit's state is unchanged (those dice were not rolled) but for
        the draws it keeps to show."""
        self.keep_would_have_drawn(draws)

    @event("Abandoned")
    def _abandoned(self, reason: str, rolls: dict[str, Any], actor: str) -> None:
        """C-10: the House ended the unit with a reason. Before its outcome no side takes Willpower damage;
        Willpower already spent on its dice stays spent; a Humanity check still due is not made. Everything is
        public now (C-5): an antagonist's roll (``rolls``, every side's as it stands), and what it spent, which
        its sheet shows from now on."""
        self.phase = "settled"
        self.abandoned = reason
        self.show()

    # -- C-6, C-7: undo ----------------------------------------------------------------------------------
    def kept_through_rewind(self) -> dict[str, Any]:
        """C-9: the splits declared before the roll, besides the kernel's seeds and shown values."""
        return {**super().kept_through_rewind(), "prepared": dict(self.prepared)}

    @event("Rewound")
    def _rewound(self, to_step: int, reason: str, state: dict[str, Any], actor: str) -> None:
        self.restore(state)

    def overturn(self, winner: object, void: object, reason: object, actor: str) -> None:
        reason = clean_text(reason, "a reason", max_length=500, ruling="C-6")
        ruling = self.verify_overturn(winner, void)
        self._overturned(reason=reason, actor=actor, **ruling)

    @event("Overturned")
    def _overturned(self, reason: str, void: bool, winner: str | None, damage: dict[str, int], actor: str) -> None:
        self.overturned = {"reason": reason, "void": void, "winner": winner, "damage": dict(damage)}
