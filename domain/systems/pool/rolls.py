"""Pool rolls and opposed contests: the Pool's units of resolution (PL-2 … PL-4, PL-7, PL-8, C-3, C-4, C-7).

Dice are derived before each event from the committed secret, the roller's seed text and the die's slot
(or entered by hand at the table) and recorded in it. The application mirrors what a roll costs or gives
onto the characters' pools in the same save.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any
from uuid import UUID

from eventsourcing.domain import Aggregate, event

from domain.dice import check_entered_dice
from domain.errors import RuleViolation
from domain.fairness import commitment, derive_die
from domain.systems.pool import rules
from domain.systems.pool.character import PoolCharacter
from domain.text import clean_text

CHALLENGER, OPPONENT = "challenger", "opponent"


def _dice(table: bool, secret: str, seeds: list[str], slots: list[list[Any]], entered: Sequence[int] | None) -> list[int]:
    if table:
        if entered is None:
            raise RuleViolation(f"this roll uses table dice: enter {len(slots)} dice", ruling="C-3")
        return check_entered_dice(entered, count=len(slots))
    if entered is not None:
        raise RuleViolation("dice are entered by hand only in table mode", ruling="C-3")
    return [derive_die(secret, seeds, slot) for slot in slots]


def _count(count: object, pool: int) -> int:
    if isinstance(count, bool) or not isinstance(count, int) or count < 2:
        raise RuleViolation(f"a roll takes at least 2 dice, not {count!r}", ruling="PL-2")
    if count > pool:
        raise RuleViolation(f"a roll takes at most the pool's {pool} dice, not {count}", ruling="PL-2")
    return count


def _verify(secret: str, seed_hash: str, settled: bool, rolls: list[dict[str, Any]], seeds: list[str]) -> dict:
    if not settled:
        return {"verifiable": False, "reason": "the secret seed is revealed at settlement", "checked": 0,
                "entered": 0, "mismatches": []}
    mismatches, checked, entered = [], 0, 0
    for roll in rolls:
        if roll["entered"]:
            entered += 1
            continue
        checked += 1
        expected = derive_die(secret, seeds, roll["slot"])
        if expected != roll["value"]:
            mismatches.append({"slot": roll["slot"], "recorded": roll["value"], "derived": expected})
    return {"verifiable": True, "commitment_matches": commitment(secret) == seed_hash, "checked": checked,
            "entered": entered, "mismatches": mismatches, "secret_seed": secret, "side_seeds": seeds}


class PoolRoll(Aggregate):
    """One roll (PL-2, PL-3), maybe with help (PL-7); on a hit the player's choice is pending (PL-4)."""

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

    @classmethod
    def roll(
        cls, *, campaign_id: UUID, adventure: int, roller: PoolCharacter, count: object, trait: str | None,
        helper: PoolCharacter | None, helper_dice: int, secret_seed: str, seed: str | None, table: bool,
        entered: Sequence[int] | None, actor: str,
    ) -> PoolRoll:
        count = _count(count, roller.pool)
        trait_name, rating = roller.rating_of(trait)
        if helper is not None:
            if helper.seat == roller.seat:
                raise RuleViolation("a character does not help himself", ruling="PL-7")
            if isinstance(helper_dice, bool) or not isinstance(helper_dice, int) or helper_dice < 1:
                raise RuleViolation("a helper gives at least one die", ruling="PL-7")
            if helper.pool - helper_dice < rules.FLOOR:
                raise RuleViolation(f"{helper.name} gives at most {helper.pool - rules.FLOOR} dice, keeping two",
                                    ruling="PL-7")
        else:
            helper_dice = 0
        seed = clean_text(seed or "", "a seed", max_length=200, ruling="C-4", required=False)
        slots = [["roll", roller.seat, i] for i in range(count + helper_dice)]
        dice = _dice(table, secret_seed, [seed], slots, entered)
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

    def choose(self, choice: str, actor: str) -> None:
        """PL-4: on a hit, narrate, or let the House narrate and gain one die."""
        if self.phase != "choice":
            raise RuleViolation("there is no choice pending on this roll", ruling="PL-4")
        if choice not in ("narrate", "house"):
            raise RuleViolation("on a hit choose 'narrate' or 'house' (the House narrates, +1 die)", ruling="PL-4")
        self._chosen(choice=choice, gained=1 if choice == "house" else 0, actor=actor)

    @event("Chosen")
    def _chosen(self, choice: str, gained: int, actor: str) -> None:
        self.gained = gained
        self.narrator = self.roller if choice == "narrate" else "house"
        self.phase = "settled"

    def overturn(self, reason: str, roller_back: int, helper_back: int, actor: str) -> None:
        """C-6: the House voids a settled roll; its effects on the pools are reversed (as far as the floor allows)."""
        reason = clean_text(reason, "a reason", max_length=500, ruling="C-6")
        if self.phase != "settled":
            raise RuleViolation("only a settled roll is overturned", ruling="C-6")
        if self.overturned:
            raise RuleViolation("this roll was overturned already", ruling="C-6")
        self._overturned(reason=reason, roller_back=roller_back, helper_back=helper_back, actor=actor)

    @event("Overturned")
    def _overturned(self, reason: str, roller_back: int, helper_back: int, actor: str) -> None:
        self.overturned = {"reason": reason, "roller": roller_back, "helper": helper_back}

    def legal_actions(self, seat: str, pool: int) -> list[dict[str, Any]]:
        if self.phase == "choice" and seat == self.roller:
            return [{"action": "choose", "choices": ["narrate", "house"]}]
        return []

    def view_for(self, seat: str, reveal: bool = False, settled: bool = False) -> dict[str, Any]:
        keys = ("adventure", "roller", "count", "trait", "rating", "helper", "helper_dice", "seed_hash", "seed",
                "table", "dice", "total", "outcome", "lost", "helper_lost", "gained", "narrator", "phase",
                "overturned")
        view = {k: copy.deepcopy(getattr(self, k)) for k in keys}
        view["kind"] = "roll"
        view["secret_seed"] = self.secret_seed if self.settled or settled else None
        return view

    def verify(self) -> dict[str, Any]:
        rolls = [{"slot": ["roll", self.roller, i], "value": v, "entered": self.table} for i, v in enumerate(self.dice)]
        return _verify(self.secret_seed, self.seed_hash, self.settled, rolls, [self.seed])


class PoolContest(Aggregate):
    """Two characters opposed (PL-8): rounds of rolls until the outcome is clear."""

    @event("Opened")
    def __init__(self, campaign_id: UUID, adventure: int, challenger: str, opponent: str, mode: str,
                 seed_hash: str, secret_seed: str, table: bool, actor: str) -> None:
        self.campaign_id, self.adventure, self.mode = campaign_id, adventure, mode
        self.seed_hash, self.secret_seed, self.table = seed_hash, secret_seed, table
        self.sides = {side: {"seat": seat, "seats": [seat], "seed": None, "rolled": False, "answer": None,
                             "last": None, "lost": 0}
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
        return [self.sides[s]["seed"] or "" for s in (CHALLENGER, OPPONENT)]

    def add_seed(self, side: str, seed: str, actor: str) -> None:
        seed = clean_text(seed, "a seed", max_length=200, ruling="C-4")
        if self.rolls or getattr(self, "seeds_locked", False) or self.sides[side]["seed"] is not None:
            raise RuleViolation("a side adds its seed once, before the first roll", ruling="C-4")
        self._seed_added(side=side, seed=seed, actor=actor)

    @event("SeedAdded")
    def _seed_added(self, side: str, seed: str, actor: str) -> None:
        self.sides[side]["seed"] = seed

    def roll(self, side: str, character: PoolCharacter, count: object, trait: str | None,
             entered: Sequence[int] | None, actor: str) -> None:
        if self.phase != "rolling":
            raise RuleViolation(f"the contest is at '{self.phase}', not rolling", ruling="PL-8")
        if self.sides[side]["rolled"]:
            raise RuleViolation("this side has rolled in this round", ruling="PL-8")
        count = _count(count, character.pool)
        trait_name, rating = character.rating_of(trait)
        slots = [["round", self.round, side, i] for i in range(count)]
        dice = _dice(self.table, self.secret_seed, self.seeds(), slots, entered)
        total, outcome = rules.read(dice, rating)
        lost, _ = rules.charge(rules.losses(dice), character.pool, 0)
        self._rolled(side=side, round=self.round, count=count, trait=trait_name, rating=rating, dice=dice,
                     total=total, outcome=outcome, lost=lost, actor=actor)

    @event("Rolled")
    def _rolled(self, side: str, round: int, count: int, trait: str | None, rating: int, dice: list[int],
                total: int, outcome: str, lost: int, actor: str) -> None:
        for i, value in enumerate(dice):
            self.rolls.append({"slot": ["round", round, side, i], "value": value, "entered": self.table})
        data = self.sides[side]
        data.update(rolled=True, last={"dice": list(dice), "trait": trait, "rating": rating, "total": total,
                                       "outcome": outcome, "lost": lost})
        data["lost"] += lost
        if all(self.sides[s]["rolled"] for s in self.sides):
            self._evaluate()

    def _evaluate(self) -> None:
        a, b = self.sides[CHALLENGER]["last"], self.sides[OPPONENT]["last"]
        if self.mode == "highest":
            if a["total"] == b["total"]:
                self.phase = "tie"  # PL-8: the House asks for a reroll or interrupts
            else:
                self._settle(CHALLENGER if a["total"] > b["total"] else OPPONENT, "higher", {})
            return
        hit_a, hit_b = a["outcome"] != "miss", b["outcome"] != "miss"
        if hit_a and hit_b:
            self.phase = "stalemate"  # PL-8: both hit; dice lost as usual, none gained
        elif hit_a or hit_b:
            winner = CHALLENGER if hit_a else OPPONENT
            self._settle(winner, "hit beats miss", {self.sides[self._other(winner)]["seat"]: 2})
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

    def answer(self, side: str, answer: str, actor: str) -> None:
        """PL-8 stalemate: fold (and gain 2 dice, as on a miss) or push on."""
        if self.phase != "stalemate":
            raise RuleViolation("fold or push answers a stalemate", ruling="PL-8")
        if answer not in ("fold", "push"):
            raise RuleViolation("in a stalemate each side folds or pushes on", ruling="PL-8")
        if self.sides[side]["answer"]:
            raise RuleViolation("this side has answered already", ruling="PL-8")
        self._answered(side=side, answer=answer, actor=actor)

    @event("Answered")
    def _answered(self, side: str, answer: str, actor: str) -> None:
        self.sides[side]["answer"] = answer
        if answer == "fold":
            self._settle(self._other(side), "the other side folded", {self.sides[side]["seat"]: 2})
        elif all(d["answer"] == "push" for d in self.sides.values()):
            self._next_round()

    def break_tie(self, decision: str, actor: str) -> None:
        """PL-8 (highest): on an exact tie the House asks for a reroll or interrupts; nobody gains dice."""
        if self.phase != "tie":
            raise RuleViolation("there is no tie to break", ruling="PL-8")
        if decision not in ("reroll", "interrupt"):
            raise RuleViolation("the House asks for a 'reroll' or narrates an 'interrupt'", ruling="PL-8")
        self._tie_broken(decision=decision, actor=actor)

    @event("TieBroken")
    def _tie_broken(self, decision: str, actor: str) -> None:
        if decision == "reroll":
            self._next_round()
        else:
            self._settle(None, "the House interrupted", {})

    REWOUND = ("sides", "round", "phase", "rolls", "result")

    def rewind(self, to_step: int, past: PoolContest, reason: str, actor: str) -> None:
        """C-6: back to an earlier step of an open contest; the same slots give the same dice (C-7)."""
        reason = clean_text(reason, "a reason", max_length=500, ruling="C-6")
        if self.settled:
            raise RuleViolation("a settled contest is not rewound", ruling="C-6")
        if isinstance(to_step, bool) or not isinstance(to_step, int) or not 1 <= to_step < self.version:
            raise RuleViolation(f"rewind to a step from 1 to {self.version - 1}, not {to_step}", ruling="C-6")
        self._rewound(to_step=to_step, reason=reason, state={k: getattr(past, k) for k in self.REWOUND},
                      actor=actor)

    @event("Rewound")
    def _rewound(self, to_step: int, reason: str, state: dict[str, Any], actor: str) -> None:
        seeds = {s: d["seed"] for s, d in self.sides.items()}
        locked = getattr(self, "seeds_locked", False) or bool(self.rolls)
        for key in self.REWOUND:
            setattr(self, key, copy.deepcopy(state[key]))
        for side, seed in seeds.items():
            self.sides[side]["seed"] = seed
        self.seeds_locked = locked

    def legal_actions(self, seat: str, pool: int) -> list[dict[str, Any]]:
        if seat == "house":
            return [{"action": a} for a in ("reroll", "interrupt")] if self.phase == "tie" else []
        side = self.side_of(seat)
        if side is None:
            return []
        data, out = self.sides[side], []
        if not self.rolls and not getattr(self, "seeds_locked", False) and data["seed"] is None:
            out.append({"action": "seed"})
        if self.phase == "rolling" and not data["rolled"] and pool >= 2:
            out.append({"action": "roll", "min": 2, "max": pool})
        if self.phase == "stalemate" and not data["answer"]:
            out += [{"action": "fold"}, {"action": "push"}]
        return out

    def view_for(self, seat: str, reveal: bool = False, settled: bool = False) -> dict[str, Any]:
        return {"kind": "contest", "adventure": self.adventure, "mode": self.mode, "round": self.round,
                "phase": self.phase, "seed_hash": self.seed_hash, "table": self.table,
                "secret_seed": self.secret_seed if self.settled or settled else None,
                "sides": copy.deepcopy(self.sides), "result": copy.deepcopy(self.result)}

    def verify(self) -> dict[str, Any]:
        return _verify(self.secret_seed, self.seed_hash, self.settled, self.rolls, self.seeds())
