"""Pool rolls and opposed contests: the Pool's units of resolution (PL-2 … PL-4, PL-7 … PL-9, C-3 … C-9).

Seeds, slot-derived dice (or dice entered by hand at the table), verification and rewinds come from the
resolution kernel (``domain.kernel.resolution``); each event records its dice, so a replay never rolls
again. Every move has one verify function that refuses it (naming the ruling) or returns what it records;
``legal_actions`` lists exactly the moves whose verify function passes. The application mirrors what a
roll costs or gives onto the characters' pools in the same save.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any
from uuid import UUID

from eventsourcing.domain import Aggregate, event

from domain.errors import RuleViolation, passes
from domain.fairness import commitment
from domain.kernel.resolution import HOUSE, Resolution, enter_or_derive
from domain.systems.pool import rules
from domain.systems.pool.character import PoolCharacter
from domain.text import clean_text

CHALLENGER, OPPONENT = "challenger", "opponent"
TABLE_DICE = "this roll uses table dice"


def _count(count: object, pool: int) -> int:
    """PL-2: at least 2 dice, at most the pool."""
    if isinstance(count, bool) or not isinstance(count, int) or count < 2:
        raise RuleViolation(f"a roll takes at least 2 dice, not {count!r}", ruling="PL-2")
    if count > pool:
        raise RuleViolation(f"a roll takes at most the pool's {pool} dice, not {count}", ruling="PL-2")
    return count


class PoolRoll(Resolution, Aggregate):
    """One roll (PL-2, PL-3), maybe with help (PL-7); on a hit the player's choice is pending (PL-4)."""

    UNIT_LABEL = "roll"
    SEED_SIDES = (CHALLENGER,)
    TABLE_DICE = TABLE_DICE

    @event("Rolled")
    def __init__(
        self, campaign_id: UUID, adventure: int, roller: str, count: int, trait: str | None, rating: int,
        helper: str | None, helper_dice: int, seed_hash: str, secret_seed: str, seed: str, table: bool,
        dice: list[int], total: int, outcome: str, lost: int, helper_lost: int, actor: str,
    ) -> None:
        self.campaign_id = campaign_id
        self.adventure = adventure
        self.roller, self.count, self.trait, self.rating = roller, count, trait, rating
        self.helper, self.helper_dice = helper, helper_dice
        self.seed_hash, self.secret_seed, self.seed, self.table = seed_hash, secret_seed, seed, table
        self.dice, self.total, self.outcome = list(dice), total, outcome
        self.lost, self.helper_lost = lost, helper_lost
        self.gained = 2 if outcome == "miss" else 0  # PL-4: on a miss the House narrates, the pool gains 2
        self.narrator = "house" if outcome == "miss" else None
        self.phase = "settled" if outcome == "miss" else "choice"
        self.overturned: dict[str, Any] | None = None
        self.sides = {CHALLENGER: {"seats": [roller]}}

    @staticmethod
    def verify_roll(roller: PoolCharacter, count: object, trait: str | None, helper: PoolCharacter | None,
                    helper_dice: int) -> tuple[int, str | None, int, int]:
        """The dice count, the trait and its rating, and the helper's dice (PL-2, PL-7)."""
        count = _count(count, roller.pool)
        trait_name, rating = roller.rating_of(trait)
        if helper is None:
            return count, trait_name, rating, 0
        if helper.seat == roller.seat:
            raise RuleViolation("a character does not help himself", ruling="PL-7")
        if isinstance(helper_dice, bool) or not isinstance(helper_dice, int) or helper_dice < 1:
            raise RuleViolation("a helper gives at least one die", ruling="PL-7")
        if helper.pool - helper_dice < rules.FLOOR:
            raise RuleViolation(f"{helper.name} gives at most {helper.pool - rules.FLOOR} dice, keeping two",
                                ruling="PL-7")
        return count, trait_name, rating, helper_dice

    @classmethod
    def roll(
        cls, *, campaign_id: UUID, adventure: int, roller: PoolCharacter, count: object, trait: str | None,
        helper: PoolCharacter | None, helper_dice: int, secret_seed: str, seed: str | None, table: bool,
        entered: Sequence[int] | None, actor: str,
    ) -> PoolRoll:
        count, trait_name, rating, helper_dice = cls.verify_roll(roller, count, trait, helper, helper_dice)
        seed = clean_text(seed or "", "a seed", max_length=200, ruling="C-4", required=False)
        slots = [["roll", roller.seat, i] for i in range(count + helper_dice)]
        dice = enter_or_derive(table=table, secret=secret_seed, seeds=[seed], slots=slots, entered=entered,
                               table_message=TABLE_DICE)
        total, outcome = rules.read(dice, rating)
        lost, helper_lost = rules.charge(rules.losses(dice), roller.pool, helper_dice)
        return cls(campaign_id=campaign_id, adventure=adventure, roller=roller.seat, count=count, trait=trait_name,
                   rating=rating, helper=helper.seat if helper else None, helper_dice=helper_dice,
                   seed_hash=commitment(secret_seed), secret_seed=secret_seed, seed=seed, table=table, dice=dice,
                   total=total, outcome=outcome, lost=lost, helper_lost=helper_lost, actor=actor)

    @property
    def settled(self) -> bool:
        return self.phase == "settled"

    revealed = True  # a Pool roll hides nothing but its secret seed (C-5)

    @property
    def rolls(self) -> list[dict[str, Any]]:  # type: ignore[override]
        """Every die with its slot (C-7), as the kernel records them."""
        return [{"slot": ["roll", self.roller, i], "value": v, "entered": self.table} for i, v in enumerate(self.dice)]

    def side_seeds(self) -> list[str]:
        return [self.seed]

    def verify_choice(self, choice: object) -> int:
        """PL-4: on a hit, narrate, or let the House narrate and gain one die. Returns the dice gained."""
        if self.phase != "choice":
            raise RuleViolation("there is no choice pending on this roll", ruling="PL-4")
        if choice not in ("narrate", "house"):
            raise RuleViolation("on a hit choose 'narrate' or 'house' (the House narrates, +1 die)", ruling="PL-4")
        return 1 if choice == "house" else 0

    def choose(self, choice: str, actor: str) -> None:
        self._chosen(choice=choice, gained=self.verify_choice(choice), actor=actor)

    @event("Chosen")
    def _chosen(self, choice: str, gained: int, actor: str) -> None:
        self.gained = gained
        self.narrator = self.roller if choice == "narrate" else "house"
        self.phase = "settled"

    def verify_overturn(self, reason: object) -> str:
        reason = clean_text(reason, "a reason", max_length=500, ruling="C-6")
        if self.phase != "settled":
            raise RuleViolation("only a settled roll is overturned", ruling="C-6")
        if self.overturned:
            raise RuleViolation("this roll was overturned already", ruling="C-6")
        return reason

    def overturn(self, reason: str, roller_back: int, helper_back: int, actor: str) -> None:
        """C-6: the House voids a settled roll; its effects on the pools are reversed (as far as the floor allows)."""
        self._overturned(reason=self.verify_overturn(reason), roller_back=roller_back, helper_back=helper_back,
                         actor=actor)

    @event("Overturned")
    def _overturned(self, reason: str, roller_back: int, helper_back: int, actor: str) -> None:
        self.overturned = {"reason": reason, "roller": roller_back, "helper": helper_back}

    def legal_actions(self, seat: str, pool: int) -> list[dict[str, Any]]:
        """The roller's PL-4 choice, while it is pending (built from ``verify_choice``)."""
        choices = [c for c in ("narrate", "house") if passes(self.verify_choice, c)]
        return [{"action": "choose", "choices": choices}] if seat == self.roller and choices else []

    def view_for(self, seat: str, reveal: bool = False, settled: bool = False) -> dict[str, Any]:
        keys = ("adventure", "roller", "count", "trait", "rating", "helper", "helper_dice", "seed_hash", "seed",
                "table", "dice", "total", "outcome", "lost", "helper_lost", "gained", "narrator", "phase",
                "overturned")
        view = {k: copy.deepcopy(getattr(self, k)) for k in keys}
        view["kind"] = "roll"
        view["secret_seed"] = self.secret_seed if self.settled or settled else None
        return view


class PoolContest(Resolution, Aggregate):
    """Two characters opposed (PL-8, PL-9): rounds of rolls until the outcome is clear."""

    UNIT_LABEL = "contest"
    REWOUND = ("sides", "round", "phase", "rolls", "result")
    TABLE_DICE = TABLE_DICE
    overturned: dict[str, Any] | None = None  # C-6: a voided contest (a class default for older states)
    abandoned: str | None = None  # C-10: the House's reason, once it abandoned the contest (older states: never)
    SEEDS_CLOSED = SEED_GIVEN = "a side adds its seed once, before the first roll"
    SETTLED_REWIND = "a settled contest is not rewound"

    @event("Opened")
    def __init__(self, campaign_id: UUID, adventure: int, challenger: str, opponent: str, mode: str,
                 seed_hash: str, secret_seed: str, table: bool, actor: str) -> None:
        self.campaign_id, self.adventure, self.mode = campaign_id, adventure, mode
        self.seed_hash, self.secret_seed, self.table = seed_hash, secret_seed, table
        self.sides = {side: {"seat": seat, "seats": [seat], "seed": None, "rolled": False, "answer": None,
                             "last": None, "lost": 0, "rolls": []}
                      for side, seat in ((CHALLENGER, challenger), (OPPONENT, opponent))}
        self.round = 1
        self.phase = "rolling"
        self.rolls: list[dict[str, Any]] = []
        self.result: dict[str, Any] | None = None

    @classmethod
    def open(cls, *, campaign_id: UUID, adventure: int, challenger: str, opponent: str, mode: str, secret_seed: str,
             table: bool, actor: str) -> PoolContest:
        if challenger == opponent:
            raise RuleViolation("a character does not oppose himself", ruling="PL-8")
        return cls(campaign_id=campaign_id, adventure=adventure, challenger=challenger, opponent=opponent, mode=mode,
                   seed_hash=commitment(secret_seed), secret_seed=secret_seed, table=table, actor=actor)

    @property
    def settled(self) -> bool:
        return self.phase == "settled"

    revealed = True

    def side_of(self, seat: str) -> str | None:
        return next((s for s, d in self.sides.items() if d["seat"] == seat), None)

    def _other(self, side: str) -> str:
        return OPPONENT if side == CHALLENGER else CHALLENGER

    def seeds(self) -> list[str]:
        return self.side_seeds()

    # -- C-4: seeds ----------------------------------------------------------------------------------
    def add_seed(self, side: str, seed: str, actor: str) -> None:
        self._seed_added(side=side, seed=self.verify_seed(side, seed), actor=actor)

    @event("SeedAdded")
    def _seed_added(self, side: str, seed: str, actor: str) -> None:
        self.put_seed(side, seed)

    @event("SeedPassed")
    def _seed_passed(self, side: str, actor: str) -> None:
        """C-10: the side gives no seed text; the other side's first roll need not wait for it."""
        self.put_pass(side)

    # -- PL-2, PL-3, PL-8: rolls -------------------------------------------------------------------------
    def _verify_may_roll(self, side: str) -> None:
        if self.phase != "rolling":
            raise RuleViolation(f"the contest is at '{self.phase}', not rolling", ruling="PL-8")
        if self.sides[side]["rolled"]:
            raise RuleViolation("this side has rolled in this round", ruling="PL-8")
        self.verify_first_roll_waits(side)  # C-10, C-4: the other player's seed or pass comes before the first roll

    def verify_roll(self, side: str, character: PoolCharacter, count: object, trait: str | None,
                    entered: Sequence[int] | None) -> dict[str, Any]:
        """The roll as it will be recorded (PL-2, PL-3; C-3, C-7 for the dice)."""
        self._verify_may_roll(side)
        count = _count(count, character.pool)
        trait_name, rating = character.rating_of(trait)
        dice = self.draw_dice([["round", self.round, side, i] for i in range(count)], entered)
        total, outcome = rules.read(dice, rating)
        lost, _ = rules.charge(rules.losses(dice), character.pool, 0)
        return {"round": self.round, "count": count, "trait": trait_name, "rating": rating, "dice": dice,
                "total": total, "outcome": outcome, "lost": lost}

    def roll(self, side: str, character: PoolCharacter, count: object, trait: str | None,
             entered: Sequence[int] | None, actor: str) -> None:
        self._rolled(side=side, actor=actor, **self.verify_roll(side, character, count, trait, entered))

    @event("Rolled")
    def _rolled(self, side: str, round: int, count: int, trait: str | None, rating: int, dice: list[int],
                total: int, outcome: str, lost: int, actor: str) -> None:
        for i, value in enumerate(dice):
            self.record_result(["round", round, side, i], value, self.table)
        data = self.sides[side]
        data.update(rolled=True, last={"dice": list(dice), "trait": trait, "rating": rating, "total": total,
                                       "outcome": outcome, "lost": lost})
        # every roll of the side so far, by round: a rewind restores it with ``sides``, so the sheets show the
        # rolls of the step rewound to, whichever timeline it is in (C-6; not kept by contests opened before)
        if "rolls" in data:
            data["rolls"] = [*data["rolls"], {"round": round, "dice": list(dice)}]
        data["lost"] += lost
        if all(self.sides[s]["rolled"] for s in self.sides):
            self._evaluate()

    def _evaluate(self) -> None:
        a, b = self.sides[CHALLENGER]["last"], self.sides[OPPONENT]["last"]
        if self.mode == "highest":
            if a["total"] == b["total"]:
                self.phase = "tie"  # PL-8: the House asks for a reroll or interrupts
            else:
                self._settle(CHALLENGER if a["total"] > b["total"] else OPPONENT, "higher", {})  # PL-9: no gains
            return
        hit_a, hit_b = a["outcome"] != "miss", b["outcome"] != "miss"
        if hit_a and hit_b:
            self.phase = "stalemate"  # PL-8: both hit; dice lost as usual, none gained
        elif hit_a or hit_b:
            winner = CHALLENGER if hit_a else OPPONENT
            self._settle(winner, "hit beats miss", {self.sides[self._other(winner)]["seat"]: 2})  # PL-9
        else:
            self._settle(None, "both missed: the House narrates", {d["seat"]: 2 for d in self.sides.values()})

    def _settle(self, winner: str | None, reason: str, gains: dict[str, int]) -> None:
        self.phase = "settled"
        self.result = {"winner": winner, "reason": reason, "gains": gains}

    def _next_round(self) -> None:
        self.round += 1
        self.phase = "rolling"
        for data in self.sides.values():
            data.update(rolled=False, answer=None)

    # -- PL-8: stalemates and ties ---------------------------------------------------------------------
    def verify_answer(self, side: str, answer: object) -> None:
        """PL-8 stalemate: fold (and gain 2 dice, as on a miss) or push on."""
        if self.phase != "stalemate":
            raise RuleViolation("fold or push answers a stalemate", ruling="PL-8")
        if answer not in ("fold", "push"):
            raise RuleViolation("in a stalemate each side folds or pushes on", ruling="PL-8")
        if self.sides[side]["answer"]:
            raise RuleViolation("this side has answered already", ruling="PL-8")

    def answer(self, side: str, answer: str, actor: str) -> None:
        self.verify_answer(side, answer)
        self._answered(side=side, answer=answer, actor=actor)

    @event("Answered")
    def _answered(self, side: str, answer: str, actor: str) -> None:
        self.sides[side]["answer"] = answer
        if answer == "fold":
            self._settle(self._other(side), "the other side folded", {self.sides[side]["seat"]: 2})
        elif all(d["answer"] == "push" for d in self.sides.values()):
            self._next_round()

    def verify_tie(self, decision: object) -> None:
        """PL-8 (highest): on an exact tie the House asks for a reroll or interrupts; nobody gains dice."""
        if self.phase != "tie":
            raise RuleViolation("there is no tie to break", ruling="PL-8")
        if decision not in ("reroll", "interrupt"):
            raise RuleViolation("the House asks for a 'reroll' or narrates an 'interrupt'", ruling="PL-8")

    def break_tie(self, decision: str, actor: str) -> None:
        self.verify_tie(decision)
        self._tie_broken(decision=decision, actor=actor)

    @event("TieBroken")
    def _tie_broken(self, decision: str, actor: str) -> None:
        if decision == "reroll":
            self._next_round()
        else:
            self._settle(None, "the House interrupted", {})

    # -- C-6, C-7: undo ------------------------------------------------------------------------------
    @event("Rewound")
    def _rewound(self, to_step: int, reason: str, state: dict[str, Any], actor: str) -> None:
        self.restore(state)

    def verify_overturn(self, reason: object) -> str:
        reason = clean_text(reason, "a reason", max_length=500, ruling="C-6")
        if self.phase != "settled":
            raise RuleViolation("only a settled contest is overturned; an open one is rewound", ruling="C-6")
        if self.overturned:
            raise RuleViolation("this contest was overturned already", ruling="C-6")
        return reason

    def net_effects(self) -> dict[str, int]:
        """Per seat, the dice the contest took from the pool net of those it gave (PL-3, PL-9)."""
        gains = (self.result or {}).get("gains", {})
        return {d["seat"]: d["lost"] - gains.get(d["seat"], 0) for d in self.sides.values()}

    def overturn(self, reason: str, back: dict[str, int], actor: str) -> None:
        """C-6: the House voids a settled contest; each side's pool gets back what the contest took and gives
        back what it gained (``back``: per seat, as far as the floor of two dice allows)."""
        self._overturned(reason=self.verify_overturn(reason), back=dict(back), actor=actor)

    @event("Overturned")
    def _overturned(self, reason: str, back: dict[str, int], actor: str) -> None:
        self.overturned = {"reason": reason, "back": dict(back)}

    # -- C-10, C-1: the House abandons an open contest -------------------------------------------------------
    def draw_to_come(self) -> bool:
        """C-10: a side has yet to roll in this round (its dice are fixed once a seed is given)."""
        return self.phase == "rolling" and not all(d["rolled"] for d in self.sides.values())

    def would_be_draws(self, **inputs: Any) -> dict[str, Any]:
        """C-10: a seed is given and a side has not rolled in this round: the dice it would have rolled, as many
        as its pool holds now (``pools``, by side), for every seat to see."""
        pools: dict[str, int] = inputs.get("pools") or {}
        slots = [["round", self.round, side, i] for side, data in self.sides.items() if not data["rolled"]
                 for i in range(pools.get(side, 0))]
        return {"draws": self.abandoned_dice(slots)}

    def close_abandoned(self, reason: str, actor: str) -> None:
        self._abandoned(reason=reason, actor=actor)

    @event("DrawAbandoned")
    def _draw_abandoned(self, draws: list[dict[str, Any]], actor: str) -> None:
        """C-10: recorded for every seat to see; the contest's state is unchanged (those dice were not rolled) but for
        the draws it keeps to show."""
        self.keep_would_have_drawn(draws)

    @event("Abandoned")
    def _abandoned(self, reason: str, actor: str) -> None:
        """C-10: the House ended the contest with a reason: no winner, nothing gained; dice already lost in a
        roll stay lost (they were the roll's, PL-3)."""
        self.phase = "settled"
        self.abandoned = reason
        self.result = {"winner": None, "reason": "abandoned", "gains": {}}

    # -- C-5: what a seat may do and see -------------------------------------------------------------------
    def legal_actions(self, seat: str, pool: int) -> list[dict[str, Any]]:
        """The moves ``seat`` may make now, built from the verify functions; ``pool``: the seat's pool."""
        if seat == HOUSE:
            return [*({"action": a} for a in ("reroll", "interrupt") if passes(self.verify_tie, a)),
                    *self.abandon_actions(seat)]  # C-10
        side = self.side_of(seat)
        if side is None:
            return []
        out: list[dict[str, Any]] = []
        if passes(self.verify_may_seed, side):
            out.append({"action": "seed"})
        if passes(self.verify_pass_seed, side):
            out.append({"action": "pass"})  # C-10: either input lets the other side's first roll come
        if passes(self._verify_may_roll, side) and passes(_count, 2, pool):
            entry: dict[str, Any] = {"action": "roll", "min": 2, "max": pool}
            if self.table:  # C-3: the roll's d6s are entered as ``dice``, as many as its ``count``
                entry.update(count_of=["count"], faces=6)
            if self.table:  # C-7: the dice this round showed before a rewind, die by die, entered the same again
                fixed = self.fixed_before([["round", self.round, side, i] for i in range(pool)])
                if fixed is not None:  # as many as were rolled then; the count is the player's to choose
                    while fixed[-1] is None:
                        fixed.pop()
                    entry["fixed"] = fixed
            out.append(entry)
        out += [{"action": a} for a in ("fold", "push") if passes(self.verify_answer, side, a)]
        return out

    def seen_before_rewind(self) -> list[dict[str, Any]]:
        """C-8: the dice of each side's round that every seat saw (a contest's dice are public when rolled) and a
        rewind took back, by round and side, die by die: the same slots show them again when rolled (C-7)."""
        by_roll: dict[tuple[int, str], dict[int, int]] = {}
        for slot, value in self.taken_back():
            if slot[0] == "round":
                by_roll.setdefault((slot[1], slot[2]), {})[slot[3]] = value
        return [{"round": round_, "side": side, "dice": [dice[i] for i in sorted(dice)]}
                for (round_, side), dice in sorted(by_roll.items())]

    def view_for(self, seat: str, reveal: bool = False, settled: bool = False) -> dict[str, Any]:
        return {"kind": "contest", "adventure": self.adventure, "mode": self.mode, "round": self.round,
                "phase": self.phase, "seed_hash": self.seed_hash, "table": self.table,
                "secret_seed": self.secret_seed if self.settled or settled else None,
                "sides": copy.deepcopy(self.sides), "result": copy.deepcopy(self.result),
                "overturned": copy.deepcopy(self.overturned), "abandoned": self.abandoned,
                "seen_before_rewind": self.seen_before_rewind()}
