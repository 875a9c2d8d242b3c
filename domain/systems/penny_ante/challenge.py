"""A Penny Ante challenge: one small aggregate per challenge (PA-5 … PA-18, C-3, C-4, C-5, C-7).

Every public method verifies the move and refuses an illegal one (naming the
ruling) before anything changes; then a private ``@event`` method records it.
Dice are derived before the event from the committed secret, the sides' seeds
and the slot the die fills (or entered by hand at the table) and the event
records them, so replaying never rolls again.

Pennies live in the members' own aggregates (characters, antagonists). The
application passes their current piles in and applies the draws and payouts
this aggregate computes; the aggregate keeps who put what into the pot.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any
from uuid import UUID

from eventsourcing.domain import Aggregate, event

from domain.dice import check_entered_dice
from domain.errors import RuleViolation
from domain.fairness import commitment, derive_die
from domain.systems.penny_ante.money import draw, split
from domain.systems.penny_ante.scoring import best_score
from domain.text import clean_text

CHALLENGER, OPPONENT = "challenger", "opponent"
SIDES = (CHALLENGER, OPPONENT)
CHARACTER, ALLIANCE, ANTAGONIST = "character", "alliance", "antagonist"

DECLARE, ROLL, KEEP, BET1, NEW_CIRCUMSTANCES, BET2, SHOWDOWN, FOLDED, BANKRUPTCY, SETTLED = (
    "declare", "roll", "keep", "betting-1", "new-circumstances", "betting-2", "showdown", "folded",
    "bankruptcy", "settled",
)
BETTING = (BET1, BET2)
MAX_CHARACTERISTICS = 5  # PA-8
MAX_DICE = 6  # PA-8


def other(side: str) -> str:
    return OPPONENT if side == CHALLENGER else CHALLENGER


def refuse(ruling: str, message: str) -> RuleViolation:
    return RuleViolation(message, ruling=ruling)


class Challenge(Aggregate):
    # -- announcement (PA-5, PA-6, PA-7, PA-17, C-4) ----------------------------------
    @event("Announced")
    def __init__(
        self,
        campaign_id: UUID,
        adventure: int,
        challenger: dict[str, Any],
        opponent: dict[str, Any],
        ante: int,
        stake: int | None,
        table: bool,
        seed_hash: str,
        secret_seed: str,
        circumstance: str | None,
        actor: str,
    ) -> None:
        self.campaign_id = campaign_id
        self.adventure = adventure
        self.ante = ante
        self.stake = stake  # PA-17: what the House devotes to an indirect challenge
        self.table = table  # C-3: dice are entered by hand
        self.seed_hash = seed_hash
        self.secret_seed = secret_seed  # hidden from every seat until settled (C-4, C-5)
        self.sides: dict[str, dict[str, Any]] = {
            CHALLENGER: self._new_side(challenger),
            OPPONENT: self._new_side(opponent),
        }
        self.phase = DECLARE
        self.turn: str | None = None
        self.round = 0
        self.acted: list[str] = []
        self.circumstances: list[dict[str, Any]] = []
        self.rolls: list[dict[str, Any]] = []  # every die with its slot (C-7)
        self.lenders: dict[str, list[str]] = {"1": [], "2": []}  # PA-14: one loan per lender per round
        self.loans: list[str] = []  # ids of loans offered during the challenge (a rewind reverses later ones)
        self.bankrupts: dict[str, dict[str, Any]] = {}
        self.result: dict[str, Any] | None = None
        self.folded: str | None = None
        self.seeds_locked = False  # C-7: once dice were rolled, a rewind never reopens the seeds
        # C-7, kept through rewinds: what each slot showed and which dice each side cupped, so that
        # playing a step again cannot fish for better dice.
        self.filled: dict[str, int] = {}
        self.locked_cups: dict[str, list[int]] = {}
        if circumstance:
            self.circumstances.append(
                {"step": 1, "side": CHALLENGER, "text": circumstance, "die": None, "barred": None})

    @staticmethod
    def _new_side(spec: dict[str, Any]) -> dict[str, Any]:
        members = list(spec["members"])
        return {
            "kind": spec["kind"], "members": members,
            "seats": ["house"] if spec["kind"] == ANTAGONIST else members,
            "seed": None, "characteristics": [], "declared": False, "dice": [], "cup": [],
            "rolled": False, "kept": False, "step_done": False, "all_in": False, "doubled": 0,
            "contributions": {m: 0 for m in members},
        }

    @classmethod
    def announce(
        cls, *, campaign_id: UUID, adventure: int, challenger: dict[str, Any], opponent: dict[str, Any],
        ante: int, stake: int | None, table: bool, seed_hash: str, secret_seed: str,
        circumstance: str | None, antagonist_pennies: int | None, actor: str,
    ) -> Challenge:
        if isinstance(ante, bool) or not isinstance(ante, int) or ante < 1:
            raise refuse("PA-6", "the ante is a whole number of at least 1 penny")
        for spec in (challenger, opponent):
            if spec["kind"] == ALLIANCE and len(spec["members"]) < 2:
                raise refuse("PA-5", "an alliance has at least two player characters")
        if challenger["kind"] == ANTAGONIST and opponent["kind"] == ANTAGONIST:
            raise refuse("PA-5", "the House plays one side at most; the other side is players")
        if set(challenger["members"]) & set(opponent["members"]):
            raise refuse("PA-5", "nobody can be on both sides of a challenge")
        if stake is not None:
            if challenger["kind"] != ANTAGONIST:
                raise refuse("PA-17", "only the House devotes a stake, when it issues an indirect challenge")
            if isinstance(stake, bool) or not isinstance(stake, int) or stake < ante:
                raise refuse("PA-17", f"the devoted stake must cover at least the ante ({ante})")
            if antagonist_pennies is not None and stake > antagonist_pennies:
                raise refuse("PA-17", f"the antagonist holds {antagonist_pennies} pennies, less than the stake")
        text = clean_text(circumstance or "", "a circumstance", max_length=120, ruling="PA-7", required=False)
        return cls(
            campaign_id=campaign_id, adventure=adventure, challenger=challenger, opponent=opponent, ante=ante,
            stake=stake, table=table, seed_hash=seed_hash, secret_seed=secret_seed, circumstance=text or None,
            actor=actor,
        )

    # -- reading state ------------------------------------------------------------
    @property
    def indirect(self) -> bool:
        return self.stake is not None

    @property
    def settled(self) -> bool:
        return self.phase == SETTLED

    @property
    def revealed(self) -> bool:
        """After the showdown (or a settlement) every hidden value is public (C-5)."""
        return self.phase in (BANKRUPTCY, SETTLED)

    def side_of(self, seat: str) -> str | None:
        for name, side in self.sides.items():
            if seat in side["seats"]:
                return name
        return None

    def wager(self, side: str) -> int:
        """Everything a side has in the pot."""
        return sum(self.sides[side]["contributions"].values())

    def betting_wager(self, side: str) -> int:
        """What counts when betting: a double down is not a raise and needs no answer (PA-13)."""
        return self.wager(side) - self.sides[side]["doubled"]

    @property
    def pot(self) -> int:
        return self.wager(CHALLENGER) + self.wager(OPPONENT)

    def party_members(self) -> list[str]:
        return [m for s in SIDES for m in self.sides[s]["members"] if self.sides[s]["kind"] != ANTAGONIST]

    def available(self, side: str, piles: Mapping[str, int]) -> int:
        """What a side can still put in: its members' piles, and for an indirect challenge the stake left."""
        data = self.sides[side]
        total = sum(piles[m] for m in data["members"])
        if data["kind"] == ANTAGONIST and self.indirect:
            total = min(total, self.stake - self.wager(side))  # type: ignore[operator]
        return total

    def usable_dice(self, side: str) -> list[int]:
        """A side's own dice and every circumstance die not barred for it (PA-11, PA-13)."""
        own = list(self.sides[side]["dice"])
        shared = [c["die"] for c in self.circumstances if c["die"] is not None and c["barred"] != side]
        return own + shared

    def circumstances_of(self, side: str, step: int) -> list[dict[str, Any]]:
        return [c for c in self.circumstances if c["side"] == side and c["step"] == step]

    def _require_phase(self, *phases: str, doing: str, ruling: str = "PA-5") -> None:
        if self.phase == SETTLED:
            raise refuse("C-1", f"the challenge is settled; nothing more can be {doing}")
        if self.phase not in phases:
            raise refuse(ruling, f"cannot be {doing} now: the challenge is at step '{self.phase}'")

    # -- C-4: side seeds ------------------------------------------------------------
    def add_seed(self, side: str, seed: str, actor: str) -> None:
        seed = clean_text(seed, "a seed", max_length=200, ruling="C-4")
        if self.rolls or self.seeds_locked or self.phase not in (DECLARE, ROLL):
            raise refuse("C-4", "a side adds its seed before the first roll")
        if self.sides[side]["seed"] is not None:
            raise refuse("C-4", "this side has already added its seed")
        self._seed_added(side=side, seed=seed, actor=actor)

    @event("SeedAdded")
    def _seed_added(self, side: str, seed: str, actor: str) -> None:
        self.sides[side]["seed"] = seed

    def side_seeds(self) -> list[str]:
        return [self.sides[s]["seed"] or "" for s in SIDES]

    # -- PA-7, PA-13: circumstances --------------------------------------------------
    def declare_circumstance(
        self, side: str, text: str, double_down: bool, piles: Mapping[str, int], actor: str
    ) -> None:
        text = clean_text(text, "a circumstance", max_length=120, ruling="PA-7")
        data = self.sides[side]
        if self.phase in (DECLARE, ROLL) and not data["rolled"]:
            step = 1
        elif self.phase == NEW_CIRCUMSTANCES and not data["step_done"]:
            step = 2
        else:
            self._require_phase(DECLARE, ROLL, NEW_CIRCUMSTANCES, doing="declared (circumstances come at the "
                                "announcement and again before the reroll)", ruling="PA-7")
            raise refuse("PA-7", "this side has already rolled at this step")
        if self.circumstances_of(side, step):
            raise refuse("PA-7", "a side declares at most one circumstance at each step")
        draws: dict[str, int] = {}
        if double_down:
            if step != 2:
                raise refuse("PA-13", "a side doubles down only when declaring its second circumstance")
            cost = self.wager(side)
            if cost > self.available(side, piles):
                raise refuse("PA-13", f"doubling down costs {cost} pennies, more than this side can put in")
            draws = draw(cost, data["members"], piles)
        self._circumstance_declared(side=side, step=step, text=text, double_down=double_down, draws=draws,
                                    actor=actor)

    @event("CircumstanceDeclared")
    def _circumstance_declared(
        self, side: str, step: int, text: str, double_down: bool, draws: dict[str, int], actor: str
    ) -> None:
        self.circumstances.append(
            {"step": step, "side": side, "text": text, "die": None, "barred": other(side) if double_down else None})
        for member, amount in draws.items():
            self.sides[side]["contributions"][member] += amount
        self.sides[side]["doubled"] += sum(draws.values())

    # -- PA-8: characteristics ---------------------------------------------------------
    def declare_characteristics(self, side: str, names: Sequence[str], available: Sequence[str], actor: str) -> None:
        self._require_phase(DECLARE, doing="declared", ruling="PA-8")
        data = self.sides[side]
        if data["declared"]:
            raise refuse("PA-8", "this side has already declared its characteristics")
        if side == OPPONENT and not self.sides[CHALLENGER]["declared"]:
            raise refuse("PA-8", "the challenger declares characteristics first")
        if len(names) > MAX_CHARACTERISTICS:
            raise refuse("PA-8", f"a side names at most {MAX_CHARACTERISTICS} characteristics, not {len(names)}")
        known = {n.casefold(): n for n in available}
        chosen: list[str] = []
        for name in names:
            canonical = known.get(" ".join(str(name).split()).casefold())
            if canonical is None:
                raise refuse("PA-8", f"{name!r} is not on this side's list of characteristics")
            if canonical in chosen:
                raise refuse("PA-8", f"{canonical!r} is named twice")
            chosen.append(canonical)
        self._characteristics_declared(side=side, characteristics=chosen, actor=actor)

    @event("CharacteristicsDeclared")
    def _characteristics_declared(self, side: str, characteristics: list[str], actor: str) -> None:
        self.sides[side]["characteristics"] = list(characteristics)
        self.sides[side]["declared"] = True
        if all(self.sides[s]["declared"] for s in SIDES):
            self.phase = ROLL

    def dice_count(self, side: str) -> int:
        return min(MAX_DICE, 1 + len(self.sides[side]["characteristics"]))

    # -- rolling (PA-6, PA-8, C-3, C-4, C-7) ------------------------------------------
    def _dice(self, slots: list[list[Any]], entered: Sequence[int] | None, what: str) -> list[int]:
        if self.table:
            if entered is None and not slots:
                return []
            if entered is None:
                raise refuse("C-3", f"this challenge is played with table dice: enter {len(slots)} {what}")
            dice = check_entered_dice(entered, count=len(slots))
            for slot, value in zip(slots, dice, strict=True):
                before = self.filled.get(repr(list(slot)))
                if before is not None and before != value:
                    raise refuse("C-7", f"slot {slot} showed {before} before the rewind; the same die is entered")
            return dice
        if entered is not None:
            raise refuse("C-3", "dice are entered by hand only in table mode")
        return [derive_die(self.secret_seed, self.side_seeds(), slot) for slot in slots]

    def roll_slots(self, side: str) -> tuple[list[list[Any]], list[list[Any]]]:
        """The slots this side's next roll fills: its own dice, then its circumstance die (C-7)."""
        if self.phase == ROLL:
            own = [["roll", side, i] for i in range(self.dice_count(side))]
            step = 1
        else:
            own = [["reroll", side, i] for i in self.sides[side]["cup"]]
            step = 2
        circumstance = [["circumstance", step, side]] if self.circumstances_of(side, step) else []
        return own, circumstance

    def roll(self, side: str, piles: Mapping[str, int], entered: Sequence[int] | None, actor: str) -> None:
        """Roll this side's dice: the first roll pays the ante (PA-6); in step 4 the cup is rerolled."""
        data = self.sides[side]
        if self.phase == ROLL:
            if data["rolled"]:
                raise refuse("PA-8", "this side has already rolled")
        elif self.phase == NEW_CIRCUMSTANCES:
            if data["step_done"]:
                raise refuse("PA-13", "this side has already rerolled its cup")
        else:
            self._require_phase(ROLL, NEW_CIRCUMSTANCES, doing="rolled", ruling="PA-8")
        own, circumstance = self.roll_slots(side)
        values = self._dice(own + circumstance, entered, "dice (your own, then your circumstance die)")
        dice, circumstance_die = values[: len(own)], (values[len(own)] if circumstance else None)
        if self.phase == ROLL:
            need = self.ante * len(data["members"])
            can = self.available(side, piles)
            # PA-6: every member pays the ante from his own pile; PA-12: one who cannot puts in all he has.
            draws = {m: min(self.ante, piles[m]) for m in data["members"]}
            if data["kind"] == ANTAGONIST and self.indirect:
                draws = {m: min(n, can) for m, n in draws.items()}
            all_in = sum(draws.values()) < need
            them = self.sides[other(side)]
            if them["rolled"] and them["all_in"] and sum(draws.values()) > self.wager(other(side)):
                draws = draw(self.wager(other(side)), data["members"], draws)  # never above an all-in wager
            draws = {m: n for m, n in draws.items() if n}
            pay = sum(draws.values())
            returned: dict[str, int] = {}
            if all_in and them["rolled"]:
                returned = self._excess_of(other(side), self.wager(other(side)) - pay)
            self._dice_rolled(side=side, dice=dice, circumstance_die=circumstance_die, entered=self.table,
                              ante=draws, all_in=all_in, returned=returned, actor=actor)
        else:
            self._cup_rerolled(side=side, dice=dice, circumstance_die=circumstance_die, entered=self.table,
                               actor=actor)

    def _record_rolls(self, side: str, dice: list[int], circumstance_die: int | None, entered: bool) -> None:
        own, circumstance = self.roll_slots(side)
        values = dice + ([circumstance_die] if circumstance_die is not None else [])
        for slot, value in zip(own + circumstance, values, strict=True):
            self.rolls.append({"slot": list(slot), "value": value, "entered": entered})
            self.filled.setdefault(repr(list(slot)), value)
            if slot[0] == "circumstance":
                for c in self.circumstances_of(side, slot[1]):
                    c["die"] = value
            elif slot[0] == "roll":
                self.sides[side]["dice"].append(value)
            else:
                self.sides[side]["dice"][slot[2]] = value

    @event("DiceRolled")
    def _dice_rolled(
        self, side: str, dice: list[int], circumstance_die: int | None, entered: bool, ante: dict[str, int],
        all_in: bool, returned: dict[str, int], actor: str,
    ) -> None:
        data = self.sides[side]
        self._record_rolls(side, dice, circumstance_die, entered)
        self._add(side, ante)
        data["rolled"] = True
        data["all_in"] = all_in
        self._give_back(other(side), returned)
        if all(self.sides[s]["rolled"] for s in SIDES):
            self.phase = KEEP

    @event("CupRerolled")
    def _cup_rerolled(
        self, side: str, dice: list[int], circumstance_die: int | None, entered: bool, actor: str
    ) -> None:
        self._record_rolls(side, dice, circumstance_die, entered)
        self.sides[side]["step_done"] = True
        if all(self.sides[s]["step_done"] for s in SIDES):
            if any(self.sides[s]["all_in"] for s in SIDES):
                self.phase = SHOWDOWN  # PA-12: no betting follows an all-in
            else:
                self._open_round(BET2, 2)

    def _excess_of(self, giver: str, excess: int) -> dict[str, int]:
        """PA-12: the uncalled excess goes back to the members who bet it, the last to join first."""
        if excess <= 0:
            return {}
        members = self.sides[giver]["members"]
        return draw(excess, list(reversed(members)), self.sides[giver]["contributions"])

    def _give_back(self, side: str, returned: Mapping[str, int]) -> None:
        for member, amount in returned.items():
            self.sides[side]["contributions"][member] -= amount

    # -- PA-8: keep or cup ------------------------------------------------------------
    def keep(self, side: str, cup: Sequence[int], actor: str) -> None:
        self._require_phase(KEEP, doing="kept", ruling="PA-8")
        data = self.sides[side]
        if data["kept"]:
            raise refuse("PA-8", "this side has already chosen its cup")
        chosen = sorted(set(cup))
        if len(chosen) != len(list(cup)) or any(
                isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < len(data["dice"]) for i in chosen):
            raise refuse("PA-8", f"the cup takes distinct dice numbered 0 to {len(data['dice']) - 1}")
        locked = self.locked_cups.get(side)
        if locked is not None and locked != chosen:
            raise refuse("C-7", f"this side cupped {locked} before the rewind; it keeps the same dice again")
        revealed = [v for i, v in enumerate(data["dice"]) if i not in chosen]
        self._dice_kept(side=side, cup=chosen, revealed=revealed, actor=actor)

    @event("DiceKept")
    def _dice_kept(self, side: str, cup: list[int], revealed: list[int], actor: str) -> None:
        self.locked_cups.setdefault(side, list(cup))
        self.sides[side]["cup"] = list(cup)
        self.sides[side]["kept"] = True
        if all(self.sides[s]["kept"] for s in SIDES):
            if any(self.sides[s]["all_in"] for s in SIDES):
                self.phase = NEW_CIRCUMSTANCES  # PA-12: circumstances and reroll still happen
            else:
                self._open_round(BET1, 1)

    def _open_round(self, phase: str, number: int) -> None:
        self.phase = phase
        self.round = number
        self.turn = CHALLENGER  # PA-9: the challenger acts first
        self.acted = []

    # -- PA-9, PA-10, PA-12, PA-17: betting ------------------------------------------------
    def bet(self, side: str, action: str, amount: int | None, piles: Mapping[str, int], actor: str) -> None:
        self._require_phase(*BETTING, doing="bet", ruling="PA-9")
        if self.turn != side:
            raise refuse("PA-9", f"it is the {self.turn}'s turn to bet")
        data = self.sides[side]
        diff = self.betting_wager(other(side)) - self.betting_wager(side)
        can = self.available(side, piles)
        house_indirect = data["kind"] == ANTAGONIST and self.indirect
        if action == "check":
            if diff > 0:
                raise refuse("PA-9", f"a check needs equal wagers; facing {diff} more, call, raise, fold or go all-in")
            self._checked(side=side, actor=actor)
        elif action == "call":
            if diff <= 0:
                raise refuse("PA-9", "there is nothing to call; check or raise")
            if diff > can:
                if house_indirect:
                    raise refuse("PA-17", "the call exceeds the House's devoted stake; it may only fold")
                raise refuse("PA-12", f"calling needs {diff} pennies and this side has {can}: go all-in or fold")
            self._called(side=side, draws=draw(diff, data["members"], piles), actor=actor)
        elif action == "raise":
            if isinstance(amount, bool) or not isinstance(amount, int) or amount < self.ante or amount % self.ante:
                raise refuse("PA-9", f"a raise is a whole multiple of the ante ({self.ante}), not {amount}")
            total = max(diff, 0) + amount  # call what is owed, then the raise
            if total > can:
                ruling = "PA-17" if house_indirect else "PA-9"
                raise refuse(ruling, f"a bet of {total} is above what this side can put in ({can})")
            self._raised(side=side, amount=amount, draws=draw(total, data["members"], piles), actor=actor)
        elif action == "fold":
            self._folded(side=side, actor=actor)
        elif action == "all-in":
            if house_indirect:
                raise refuse("PA-17", "the House cannot go all-in in an indirect challenge")
            if can >= diff:
                raise refuse("PA-12", "all-in is for a side that cannot cover the call; call, raise or fold")
            returned = self._excess_of(other(side), diff - can)
            self._went_all_in(side=side, draws=draw(can, data["members"], piles), returned=returned, actor=actor)
        else:
            raise refuse("PA-9", f"unknown bet {action!r}: check, call, raise, fold or all-in")

    def _next(self, side: str, round_over: bool) -> None:
        self.acted.append(side)
        if round_over:
            self.turn = None
            self.phase = NEW_CIRCUMSTANCES if self.phase == BET1 else SHOWDOWN
        else:
            self.turn = other(side)

    def _add(self, side: str, draws: Mapping[str, int]) -> None:
        for member, amount in draws.items():
            self.sides[side]["contributions"][member] += amount

    @event("Checked")
    def _checked(self, side: str, actor: str) -> None:
        equal = self.betting_wager(side) == self.betting_wager(other(side))
        self._next(side, round_over=equal and other(side) in self.acted)

    @event("Called")
    def _called(self, side: str, draws: dict[str, int], actor: str) -> None:
        self._add(side, draws)
        self._next(side, round_over=other(side) in self.acted)  # PA-9: both sides act in every round

    @event("Raised")
    def _raised(self, side: str, amount: int, draws: dict[str, int], actor: str) -> None:
        self._add(side, draws)
        self._next(side, round_over=False)

    @event("WentAllIn")
    def _went_all_in(self, side: str, draws: dict[str, int], returned: dict[str, int], actor: str) -> None:
        self._add(side, draws)
        self.sides[side]["all_in"] = True
        self._give_back(other(side), returned)
        self._next(side, round_over=True)  # PA-12: no betting follows an all-in

    @event("Folded")
    def _folded(self, side: str, actor: str) -> None:
        self.turn = None
        self.phase = FOLDED
        self.folded = side

    # -- PA-11: showdown and settlement ------------------------------------------------------
    @property
    def awaiting_settlement(self) -> bool:
        return self.phase in (SHOWDOWN, FOLDED)

    def scores(self) -> dict[str, dict[str, Any]]:
        out = {}
        for side in SIDES:
            score, hand, category = best_score(self.usable_dice(side))
            out[side] = {"score": score, "hand": list(hand), "category": category}
        return out

    def settle(self, piles: Mapping[str, int], house_pile: int, actor: str) -> None:
        """Decide the winner (PA-10, PA-11); a losing character left with nothing goes bankrupt (PA-15)."""
        if not self.awaiting_settlement:
            raise refuse("PA-11", "the challenge is not ready to settle")
        scores = None
        if self.phase == FOLDED:
            winner, reason = other(self.folded), "fold"  # type: ignore[arg-type]
        else:
            scores = self.scores()
            a, b = scores[CHALLENGER]["score"], scores[OPPONENT]["score"]
            winner, reason = (CHALLENGER if a > b else OPPONENT if b > a else None), "showdown"
        bankrupt: list[str] = []
        if winner is not None and self.sides[other(winner)]["kind"] != ANTAGONIST:
            bankrupt = [m for m in self.sides[other(winner)]["members"] if piles[m] == 0]
        payouts = {} if bankrupt else self._payouts(winner, {})
        self._decided(winner=winner, reason=reason, scores=scores, bankrupt=bankrupt,
                      house_bid=bool(bankrupt) and house_pile > 1, payouts=payouts, actor=actor)

    def _payouts(self, winner: str | None, debts: Mapping[str, int]) -> dict[str, int]:
        """What each member takes from the pot (PA-10, PA-11, PA-15, PA-18)."""
        if winner is None:  # a draw: each side takes back its own wager
            return {m: n for s in SIDES for m, n in self.sides[s]["contributions"].items() if n}
        out = dict(debts)  # PA-15: after a debt the winner gives back what the loser lost
        for member, amount in split(self.pot - sum(debts.values()), self.sides[winner]["members"]).items():
            out[member] = out.get(member, 0) + amount
        return {m: n for m, n in out.items() if n}

    def staked(self) -> dict[str, int]:
        """Each member's pennies in the pot (what settlement takes out of play for him)."""
        return {m: n for s in SIDES for m, n in self.sides[s]["contributions"].items()}

    @event("Decided")
    def _decided(
        self, winner: str | None, reason: str, scores: dict[str, Any] | None, bankrupt: list[str],
        house_bid: bool, payouts: dict[str, int], actor: str,
    ) -> None:
        self.result = {"winner": winner, "reason": reason, "scores": scores}
        if bankrupt:
            self.phase = BANKRUPTCY
            for member in bankrupt:
                lost = self.sides[other(winner)]["contributions"].get(member, 0)  # type: ignore[arg-type]
                bids = [{"bidder": "house", "amount": 1}] if house_bid else []  # PA-15: the House must bid
                self.bankrupts[member] = {"lost": lost, "status": "pending", "bids": bids}
        else:
            self._close(payouts)

    def _close(self, payouts: dict[str, int]) -> None:
        self.phase = SETTLED
        self.turn = None
        winner = self.result["winner"] if self.result else None
        if any(b["status"] == "debt" for b in self.bankrupts.values()):
            narrator = winner  # PA-15: after a debt the winner narrates
        elif self.result and self.result["reason"] == "fold":
            narrator = self.folded  # PA-10: the side that folded narrates its defeat
        elif winner is None:
            narrator = None
        else:
            narrator = other(winner)
        self.result = {**(self.result or {}), "narrator": narrator, "payouts": payouts}

    # -- PA-15, PA-16: bankruptcy --------------------------------------------------------------
    def _pending(self, member: str) -> dict[str, Any]:
        self._require_phase(BANKRUPTCY, doing="done (there is no bankruptcy)", ruling="PA-15")
        info = self.bankrupts.get(member)
        if info is None or info["status"] != "pending":
            raise refuse("PA-15", f"{member} has no bankruptcy to resolve")
        return info

    def bid(self, bidder: str, member: str, amount: int, bidder_pile: int, actor: str) -> None:
        info = self._pending(member)
        if bidder in self.party_members() or bidder == "house":
            raise refuse("PA-15", "only players outside the challenge bid to buy a bankrupt out")
        if any(b["bidder"] == bidder for b in info["bids"]):
            raise refuse("PA-15", "each player bids once")
        if isinstance(amount, bool) or not isinstance(amount, int) or amount < 1:
            raise refuse("PA-15", "a bid is a whole number of at least 1 penny")
        if amount > bidder_pile:
            raise refuse("PA-15", f"a bid of {amount} is more than the bidder's pile of {bidder_pile}")
        self._bid_placed(member=member, bidder=bidder, amount=amount, actor=actor)

    @event("BidPlaced")
    def _bid_placed(self, member: str, bidder: str, amount: int, actor: str) -> None:
        self.bankrupts[member]["bids"].append({"bidder": bidder, "amount": amount})

    def creditors(self, member: str) -> tuple[dict[str, int], bool]:
        """Who a bankruptcy debt is owed to (PA-15): the winners share the giveback as they share the pot
        (PA-18); and whether the winner is an antagonist."""
        winner = self.sides[self.result["winner"]]  # type: ignore[index]
        return split(self.bankrupts[member]["lost"], winner["members"]), winner["kind"] == ANTAGONIST

    def take_debt(self, member: str, debt_ids: Mapping[str, UUID], actor: str) -> None:
        self._pending(member)
        creditors, _ = self.creditors(member)
        amount = self.bankrupts[member]["lost"]
        payouts = self._closing_payouts(member, amount)
        self._debt_taken(member=member, creditors=creditors, amount=amount,
                         debt_ids=[debt_ids[c].hex for c in creditors], payouts=payouts, actor=actor)

    def _closing_payouts(self, member: str, debt: int) -> dict[str, int]:
        """The payouts if resolving ``member`` (with ``debt`` pennies given back) is the last resolution."""
        pending = [m for m, b in self.bankrupts.items() if b["status"] == "pending" and m != member]
        if pending:
            return {}
        debts = {m: b["lost"] for m, b in self.bankrupts.items() if b["status"] == "debt"}
        if debt:
            debts[member] = debt
        return self._payouts(self.result["winner"], debts)  # type: ignore[index]

    @event("DebtTaken")
    def _debt_taken(self, member: str, creditors: dict[str, int], amount: int, debt_ids: list[str],
                    payouts: dict[str, int], actor: str) -> None:
        self.bankrupts[member].update(status="debt", creditors=creditors, debt_ids=debt_ids)
        self._maybe_close(payouts)

    def best_bid(self, member: str) -> dict[str, Any] | None:
        bids = self.bankrupts[member]["bids"]
        return max(bids, key=lambda b: b["amount"]) if bids else None  # max() keeps the earliest on a tie

    def accept_buyout(self, member: str, give_up: str, characteristics: Sequence[str], bidder_pile: int,
                      actor: str) -> dict[str, Any]:
        self._pending(member)
        best = self.best_bid(member)
        if best is None:
            raise refuse("PA-15", "nobody has bid; take the debt instead")
        if best["amount"] > bidder_pile:
            raise refuse("PA-15", f"{best['bidder']} no longer holds the {best['amount']} pennies bid")
        used = [c for c in self._declared_by_side_of(member) if c in characteristics]
        choices = used or list(characteristics)
        match = next((c for c in choices if c.casefold() == " ".join(give_up.split()).casefold()), None)
        if match is None:
            raise refuse("PA-15", f"give up one of: {', '.join(choices)}")
        self._buyout_accepted(member=member, bidder=best["bidder"], amount=best["amount"], characteristic=match,
                              payouts=self._closing_payouts(member, 0), actor=actor)
        return best

    def _declared_by_side_of(self, member: str) -> list[str]:
        for side in SIDES:
            if member in self.sides[side]["members"]:
                return list(self.sides[side]["characteristics"])
        return []

    @event("BuyoutAccepted")
    def _buyout_accepted(
        self, member: str, bidder: str, amount: int, characteristic: str, payouts: dict[str, int], actor: str
    ) -> None:
        self.bankrupts[member].update(status="bought", bidder=bidder, amount=amount, surrendered=characteristic)
        self._maybe_close(payouts)

    def _maybe_close(self, payouts: dict[str, int]) -> None:
        if all(b["status"] != "pending" for b in self.bankrupts.values()):
            self._close(payouts)

    # -- PA-14: loans during a betting round ------------------------------------------------
    def record_loan_offer(self, loan_id: UUID, lender: str, borrower: str, actor: str) -> None:
        self._require_phase(*BETTING, doing="lent into (loans come during a betting round)", ruling="PA-14")
        if lender in self.party_members():
            raise refuse("PA-14", "only players outside the challenge lend during it")
        if borrower not in self.party_members():
            raise refuse("PA-14", "a loan during a challenge goes to a player on one of its sides")
        if lender in self.lenders[str(self.round)]:
            raise refuse("PA-14", "each player offers one loan per betting round")
        self._loan_offered(loan_id=loan_id.hex, lender=lender, borrower=borrower, round=self.round, actor=actor)

    @event("LoanOffered")
    def _loan_offered(self, loan_id: str, lender: str, borrower: str, round: int, actor: str) -> None:
        self.lenders[str(round)].append(lender)
        self.loans.append(loan_id)

    def round_open(self, number: int) -> bool:
        return self.phase in BETTING and self.round == number

    # -- what a seat may see and do (C-5; pokerkit-style censored view) -----------------------
    def legal_actions(self, seat: str, piles: Mapping[str, int], seat_pile: int,
                      side_lists: Mapping[str, Sequence[str]]) -> list[dict[str, Any]]:
        """The moves ``seat`` may make now, with their limits, so a client offers only those.

        ``piles``: every member's pile; ``seat_pile``: the viewer's own pile (for loans and bids);
        ``side_lists``: each side's characteristics it may name (only shown to that side).
        """
        actions: list[dict[str, Any]] = []
        side = self.side_of(seat)
        if side is not None:
            actions += self._side_actions(side, piles, side_lists.get(side, []))
        elif seat != "house":
            if self.phase in BETTING and seat not in self.lenders[str(self.round)] and seat_pile >= 1:
                actions.append({"action": "lend", "min": 1, "max": seat_pile, "borrowers": self.party_members()})
            if self.phase == BANKRUPTCY and seat_pile >= 1:
                for member, info in self.bankrupts.items():
                    if info["status"] == "pending" and all(b["bidder"] != seat for b in info["bids"]):
                        actions.append({"action": "bid", "member": member, "min": 1, "max": seat_pile})
        if self.phase == BANKRUPTCY and seat in self.bankrupts and self.bankrupts[seat]["status"] == "pending":
            actions.append({"action": "debt", "member": seat})
            if self.bankrupts[seat]["bids"]:
                actions.append({"action": "buyout", "member": seat, "best_bid": self.best_bid(seat)})
        return actions

    def _side_actions(self, side: str, piles: Mapping[str, int], names: Sequence[str]) -> list[dict[str, Any]]:
        data, out = self.sides[side], []
        if self.phase in (DECLARE, ROLL) and not self.rolls and not self.seeds_locked and data["seed"] is None:
            out.append({"action": "seed"})
        if self.phase in (DECLARE, ROLL) and not data["rolled"] and not self.circumstances_of(side, 1):
            out.append({"action": "circumstance"})
        if self.phase == DECLARE and not data["declared"] and (side == CHALLENGER or self.sides[CHALLENGER]["declared"]):
            out.append({"action": "declare", "max": MAX_CHARACTERISTICS, "choices": list(names)})
        if self.phase == ROLL and not data["rolled"]:
            out.append({"action": "roll", "dice": sum(len(s) for s in self.roll_slots(side)) if self.table else None})
        if self.phase == KEEP and not data["kept"]:
            out.append({"action": "keep", "choices": list(range(len(data["dice"])))})
        if self.phase == NEW_CIRCUMSTANCES and not data["step_done"]:
            if not self.circumstances_of(side, 2):
                out.append({"action": "circumstance"})
                if self.wager(side) <= self.available(side, piles):
                    out.append({"action": "double-down", "cost": self.wager(side)})
            out.append({"action": "roll", "dice": sum(len(s) for s in self.roll_slots(side)) if self.table else None})
        if self.phase in BETTING and self.turn == side:
            out += self._bets(side, piles)
        return out

    def _bets(self, side: str, piles: Mapping[str, int]) -> list[dict[str, Any]]:
        diff = self.betting_wager(other(side)) - self.betting_wager(side)
        can = self.available(side, piles)
        house_indirect = self.sides[side]["kind"] == ANTAGONIST and self.indirect
        out: list[dict[str, Any]] = []
        if diff <= 0:
            out.append({"action": "check"})
        elif diff <= can:
            out.append({"action": "call", "amount": diff})
        most = (can - max(diff, 0)) // self.ante * self.ante
        if most >= self.ante:
            out.append({"action": "raise", "min": self.ante, "max": most, "step": self.ante})
        out.append({"action": "fold"})
        if can < diff and not house_indirect:
            out.append({"action": "all-in", "amount": can})
        return out

    def view_for(self, seat: str, reveal: bool = False, settled: bool = False) -> dict[str, Any]:
        """The challenge as ``seat`` may see it (C-5): own dice, revealed dice, never another's cup.

        ``reveal``/``settled``: a replay of a challenge that has since been revealed (every die
        shown) or settled (the secret seed too).
        """
        mine = self.side_of(seat)
        open_book = self.revealed or reveal
        sides = {}
        for side in SIDES:
            data = self.sides[side]
            visible = open_book or side == mine
            # Rolled dice are hidden until the side keeps some: the kept ones are revealed, the cup stays hidden.
            dice = [
                {"value": v if visible or (data["kept"] and i not in data["cup"]) else None, "in_cup": i in data["cup"]}
                for i, v in enumerate(data["dice"])
            ]
            sides[side] = {
                "kind": data["kind"], "members": data["members"], "seed": data["seed"],
                "characteristics": data["characteristics"], "declared": data["declared"],
                "dice": dice, "wager": self.wager(side), "betting_wager": self.betting_wager(side),
                "all_in": data["all_in"], "contributions": data["contributions"],
            }
        return {
            "phase": self.phase, "adventure": self.adventure, "round": self.round, "turn": self.turn,
            "ante": self.ante, "stake": self.stake, "table": self.table, "pot": self.pot,
            "seed_hash": self.seed_hash, "secret_seed": self.secret_seed if self.settled or settled else None,
            "your_side": mine, "sides": sides, "circumstances": self.circumstances,
            "result": self.result, "bankrupts": self.bankrupts,
        }

    def verify(self) -> dict[str, Any]:
        """Recompute every server-rolled die from the revealed seed (C-4); report any mismatch."""
        if not self.settled:
            return {"verifiable": False, "reason": "the secret seed is revealed at settlement", "checked": 0,
                    "entered": 0, "mismatches": []}
        mismatches, checked, entered = [], 0, 0
        seeds = self.side_seeds()
        for roll in self.rolls:
            if roll["entered"]:
                entered += 1
                continue
            checked += 1
            expected = derive_die(self.secret_seed, seeds, roll["slot"])
            if expected != roll["value"]:
                mismatches.append({"slot": roll["slot"], "recorded": roll["value"], "derived": expected})
        commitment_ok = commitment(self.secret_seed) == self.seed_hash
        return {"verifiable": True, "commitment_matches": commitment_ok, "checked": checked, "entered": entered,
                "mismatches": mismatches, "secret_seed": self.secret_seed, "side_seeds": seeds}


    # -- C-6, C-7: undoing a disputed ruling ------------------------------------------------
    #: What a rewind restores; the rest (ids, ante, seeds, the committed secret) never changes.
    REWOUND = ("sides", "phase", "turn", "round", "acted", "circumstances", "rolls", "lenders", "loans",
               "bankrupts", "result", "folded")

    def rewind(self, to_step: int, past: Challenge, reason: str, actor: str) -> None:
        """Go back to the state after step ``to_step`` (C-6). Dice rolled again come from the same
        seeds and slots, so they come up the same (C-7)."""
        reason = clean_text(reason, "a reason", max_length=500, ruling="C-6")
        if self.settled:
            raise refuse("C-6", "a settled challenge is overturned, not rewound")
        if any(b["status"] != "pending" for b in self.bankrupts.values()):
            raise refuse("C-6", "a bankruptcy was already resolved; settle the challenge and overturn it instead")
        if isinstance(to_step, bool) or not isinstance(to_step, int) or not 1 <= to_step < self.version:
            raise refuse("C-6", f"rewind to a step from 1 to {self.version - 1}, not {to_step}")
        if past.version != to_step:
            raise ValueError("the past state does not match the step")
        state = {key: getattr(past, key) for key in self.REWOUND}
        self._rewound(to_step=to_step, reason=reason, state=state, actor=actor)

    @event("Rewound")
    def _rewound(self, to_step: int, reason: str, state: dict[str, Any], actor: str) -> None:
        seeds = {side: self.sides[side]["seed"] for side in SIDES}
        locked = self.seeds_locked or bool(self.rolls)
        for key in self.REWOUND:
            setattr(self, key, copy.deepcopy(state[key]))
        for side in SIDES:  # a seed, once given, stays: nobody fishes with a new one (C-7)
            self.sides[side]["seed"] = seeds[side]
        self.seeds_locked = locked

    def check_overturn(self, winner: str | None, reason: str) -> dict[str, int]:
        """Verify an overturn (C-6) before anything moves; returns the payouts as ruled."""
        clean_text(reason, "a reason", max_length=500, ruling="C-6")
        if not self.settled:
            raise refuse("C-6", "only a settled challenge is overturned; rewind an open one")
        if winner is not None and winner not in SIDES:
            raise refuse("C-6", f"the winner is 'challenger' or 'opponent', not {winner!r}")
        if any(b["status"] == "bought" for b in self.bankrupts.values()):
            raise refuse("C-6", "a buyout was accepted in this challenge and cannot be reversed; it stands")
        return self._payouts(winner, {})

    def debts_to_void(self) -> tuple[list[str], list[str]]:
        """The debts this result created: (bankruptcy debts, shortfalls of earlier overturns)."""
        bankruptcy = [d for b in self.bankrupts.values() for d in b.get("debt_ids", [])]
        return bankruptcy, [d for o in (self.result or {}).get("overturned", []) for d in o.get("debts", [])]

    def overturn(self, winner: str | None, reason: str, debts: list[str], actor: str) -> dict[str, int]:
        """Reverse a settled result and apply it again as ruled: a winner, or void (C-6).

        ``debts``: the shortfall debts this overturn records. Returns the new payouts.
        """
        payouts = self.check_overturn(winner, reason)
        reason = clean_text(reason, "a reason", max_length=500, ruling="C-6")
        self._overturned(winner=winner, reason=reason, payouts=payouts, previous=dict(self.result["payouts"]),
                         debts=debts, actor=actor)  # type: ignore[index]
        return payouts

    @event("Overturned")
    def _overturned(self, winner: str | None, reason: str, payouts: dict[str, int], previous: dict[str, int],
                    debts: list[str], actor: str) -> None:
        history = [*(self.result or {}).get("overturned", []), {"reason": reason, "previous": previous,
                                                                "debts": debts}]
        narrator = None if winner is None else other(winner)
        self.result = {**(self.result or {}), "winner": winner, "reason": "overturned" if winner else "void",
                       "narrator": narrator, "payouts": payouts, "overturned": history}
