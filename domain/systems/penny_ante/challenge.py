"""A Penny Ante challenge: one small aggregate per challenge (PA-5 … PA-24, C-3 … C-9).

Every public move calls its verify function (``domain.systems.penny_ante.moves``), which refuses an illegal move
naming the ruling before anything changes and returns what the move records; then a private ``@event``
method records it. Seeds, slot-derived dice, verification, rewinds and what each seat sees come from the
resolution kernel (``domain.kernel.resolution``): dice are derived before the event from the committed
secret, the sides' seeds and the slot the die fills (or entered by hand at the table) and the event
records them, so replaying never rolls again.

Pennies live in the members' own aggregates (characters, antagonists). The application passes their
current piles in and applies the draws and payouts this aggregate computes; the aggregate keeps who put
what into the pot, and in which order (PA-18, PA-22).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any
from uuid import UUID

from eventsourcing.domain import Aggregate, event

from domain.kernel.resolution import Resolution, key_slot
from domain.systems.penny_ante.money import split
from domain.systems.penny_ante.moves import (
    ALLIANCE,
    ANTAGONIST,
    BANKRUPTCY,
    BET1,
    BET2,
    CHALLENGER,
    CHARACTER,
    DECLARE,
    FOLDED,
    HOUSE,
    KEEP,
    MAX_DICE,
    NEW_CIRCUMSTANCES,
    OPPONENT,
    REROLL,
    ROLL,
    SETTLED,
    SHOWDOWN,
    SIDES,
    ChallengeRules,
    other,
    penny_order,
    refuse,
)
from domain.systems.penny_ante.scoring import best_score
from domain.text import clean_text

__all__ = ["ALLIANCE", "ANTAGONIST", "CHALLENGER", "CHARACTER", "OPPONENT", "SIDES", "Challenge"]


class Challenge(ChallengeRules, Resolution, Aggregate):
    UNIT_LABEL = "challenge"
    #: What a rewind restores (C-6); the rest (ids, ante, seeds, the committed secret, filled slots,
    #: locked cups, values shown to everyone) never goes back.
    REWOUND = ("sides", "phase", "turn", "round", "acted", "circumstances", "rolls", "lenders", "loans",
               "bankrupts", "result", "folded")
    SETTLED_REWIND = "a settled challenge is overturned, not rewound"
    abandoned: str | None = None  # C-10: the House's reason, once it abandoned the challenge (older states: never)

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
            "drawn": [],  # PA-22: who paid each betting penny, in the order drawn
        }

    @classmethod
    def announce(
        cls, *, campaign_id: UUID, adventure: int, challenger: dict[str, Any], opponent: dict[str, Any],
        ante: int, stake: int | None, table: bool, seed_hash: str, secret_seed: str,
        circumstance: str | None, antagonist_pennies: int | None, actor: str,
    ) -> Challenge:
        text = cls.verify_announce(challenger, opponent, ante, stake, circumstance, antagonist_pennies)
        return cls(
            campaign_id=campaign_id, adventure=adventure, challenger=challenger, opponent=opponent, ante=ante,
            stake=stake, table=table, seed_hash=seed_hash, secret_seed=secret_seed, circumstance=text or None,
            actor=actor,
        )

    @staticmethod
    def verify_announce(challenger: dict[str, Any], opponent: dict[str, Any], ante: object, stake: object,
                        circumstance: str | None, antagonist_pennies: int | None) -> str:
        """The sides, ante and stake of a new challenge (PA-5, PA-6, PA-17); returns the first circumstance."""
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
                short = antagonist_pennies is not None and antagonist_pennies < ante
                raise refuse("PA-17", f"the devoted stake must cover at least the ante ({ante})" + (
                    f"; the antagonist holds {antagonist_pennies} pennies: fund it from the House budget first"
                    if short else ""))
            if antagonist_pennies is not None and stake > antagonist_pennies:
                raise refuse("PA-17", f"the antagonist holds {antagonist_pennies} pennies, less than the stake")
        return clean_text(circumstance or "", "a circumstance", max_length=120, ruling="PA-7", required=False)

    # -- C-4, C-9: side seeds ---------------------------------------------------------------
    def add_seed(self, side: str, seed: str, actor: str) -> None:
        """A first seed, or the fresh seed the reroll waits for (C-9): the kernel's ``give_input`` says which."""
        self.give_input(side, seed, actor)

    @event("SeedAdded")
    def _seed_added(self, side: str, seed: str, actor: str) -> None:
        self.put_seed(side, seed)

    @event("SeedPassed")
    def _seed_passed(self, side: str, actor: str) -> None:
        """C-10: the side gives no seed text; the House's side may roll once no player's input is owed."""
        self.put_pass(side)

    # -- PA-7, PA-13, PA-23: circumstances -----------------------------------------------------
    def declare_circumstance(
        self, side: str, text: str, double_down: bool, piles: Mapping[str, int], actor: str
    ) -> None:
        effects = self.verify_circumstance(side, double_down, piles, text)
        self._circumstance_declared(side=side, double_down=double_down, actor=actor, **effects)

    @event("CircumstanceDeclared")
    def _circumstance_declared(
        self, side: str, step: int, text: str, double_down: bool, draws: dict[str, int], actor: str
    ) -> None:
        self.circumstances.append(
            {"step": step, "side": side, "text": text, "die": None, "barred": other(side) if double_down else None})
        for member, amount in draws.items():
            self.sides[side]["contributions"][member] += amount
        self.sides[side]["doubled"] += sum(draws.values())

    # -- PA-8: characteristics ---------------------------------------------------------------
    def declare_characteristics(self, side: str, names: Sequence[str], available: Sequence[str], actor: str) -> None:
        chosen = self.verify_declare(side, names, available)
        self._characteristics_declared(side=side, characteristics=chosen, actor=actor)

    @event("CharacteristicsDeclared")
    def _characteristics_declared(self, side: str, characteristics: list[str], actor: str) -> None:
        self.sides[side]["characteristics"] = list(characteristics)
        self.sides[side]["declared"] = True
        if HOUSE in self.sides[side]["seats"] and side not in self.house_declared:  # C-9: kept through rewinds
            self.house_declared = {**self.house_declared, side: list(characteristics)}
        if all(self.sides[s]["declared"] for s in SIDES):
            self.phase = ROLL

    # -- rolling (PA-6, PA-8, PA-20, C-3, C-4, C-7) -----------------------------------------------
    def roll(self, side: str, piles: Mapping[str, int], entered: Sequence[int] | None, actor: str) -> None:
        """Roll this side's dice: the first roll pays the ante (PA-6, PA-20); in step 4 the cup is rerolled."""
        effects = self.verify_roll(side, piles, entered)
        if self.phase == ROLL:
            self._dice_rolled(side=side, entered=self.table, actor=actor, **effects)
        elif self.fresh_reroll:
            self._reroll_called(side=side, actor=actor)  # C-9: the dice wait for the players' fresh seed
            stage = self.fresh_stage()
            if stage is not None and self.fresh_in(stage):
                self.draw_at_fresh_input(stage, actor)  # C-7, C-9: the fresh seed was kept through a rewind
        else:
            self._cup_rerolled(side=side, entered=self.table, actor=actor, **effects)

    @event("RerollCalled")
    def _reroll_called(self, side: str, actor: str) -> None:
        """C-9: the side's step-2 choices are made; its reroll comes with the players' fresh seed. The House's
        second circumstance is recorded as its choice of the stage (kept through rewinds)."""
        self.sides[side]["called"] = True
        if HOUSE in self.sides[side]["seats"]:
            self.put_house_choice(REROLL, "circumstance", self.second_circumstance(side))

    @event("FreshSeedAdded")
    def _fresh_seed_added(self, stage: str, side: str, seed: str, actor: str) -> None:
        """C-9, C-10: a player's fresh seed for ``stage``, given after the House's choices."""
        self.put_fresh(stage, side, seed)

    def draw_at_fresh_input(self, stage: str, actor: str) -> None:
        """C-10: every die of step 2 (each side's cup and second circumstance die, PA-7, PA-8), from slots
        carrying the fresh seed, in the write of the last fresh seed (or of the last call after a rewind)."""
        for side in SIDES:
            own, circumstance = self.roll_slots(side)
            values = self.draw_dice(own + circumstance, None)
            self._cup_rerolled(side=side, dice=values[: len(own)],
                               circumstance_die=values[len(own)] if circumstance else None, entered=False,
                               actor=actor)

    def _record_rolls(self, side: str, dice: list[int], circumstance_die: int | None, entered: bool) -> None:
        own, circumstance = self.roll_slots(side)
        values = dice + ([circumstance_die] if circumstance_die is not None else [])
        for slot, value in zip(own + circumstance, values, strict=True):
            self.record_result(slot, value, entered)
            if slot[0] == "circumstance":
                for c in self.circumstances_of(side, slot[1]):
                    c["die"] = value
                self.show([slot])  # a circumstance die is public when rolled: a rewind keeps it shown (C-8)
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

    def _add(self, side: str, draws: Mapping[str, int]) -> None:
        data = self.sides[side]
        for member, amount in draws.items():
            data["contributions"][member] += amount
        if "drawn" in data:  # PA-22 (absent from a state begun before the order was kept)
            data["drawn"].extend(penny_order(draws, data["members"]))

    def _give_back(self, side: str, returned: Mapping[str, int]) -> None:
        data = self.sides[side]
        for member, amount in returned.items():
            data["contributions"][member] -= amount
        if "drawn" in data and returned:  # PA-22: the last pennies drawn go back first
            left, kept = dict(returned), []
            for member in reversed(data["drawn"]):
                if left.get(member, 0) > 0:
                    left[member] -= 1
                else:
                    kept.append(member)
            data["drawn"] = kept[::-1]

    # -- PA-8: keep or cup ------------------------------------------------------------------
    def keep(self, side: str, cup: Sequence[int], actor: str) -> None:
        chosen, revealed = self.verify_keep(side, cup)
        self._dice_kept(side=side, cup=chosen, revealed=revealed, actor=actor)

    @event("DiceKept")
    def _dice_kept(self, side: str, cup: list[int], revealed: list[int], actor: str) -> None:
        self.locked_cups.setdefault(side, list(cup))
        if HOUSE in self.sides[side]["seats"] and self.fresh_reroll:
            self.put_house_choice(REROLL, "cup", list(cup))  # C-9: bound once the fresh seed is in
        self.sides[side]["cup"] = list(cup)
        self.sides[side]["kept"] = True
        self.show([["roll", side, i] for i in range(len(self.sides[side]["dice"])) if i not in cup])  # C-8
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

    # -- PA-9, PA-10, PA-12, PA-17, PA-21: betting ----------------------------------------------
    def bet(self, side: str, action: str, amount: int | None, piles: Mapping[str, int], actor: str) -> None:
        effects = self.verify_bet(side, action, amount, piles)
        if action == "check":
            self._checked(side=side, actor=actor)
        elif action == "call":
            self._called(side=side, actor=actor, **effects)
        elif action == "raise":
            self._raised(side=side, actor=actor, **effects)
        elif action == "fold":
            self._folded(side=side, actor=actor)
        else:
            self._went_all_in(side=side, actor=actor, **effects)

    def _next(self, side: str, round_over: bool) -> None:
        self.acted.append(side)
        if round_over:
            self.turn = None
            self.phase = NEW_CIRCUMSTANCES if self.phase == BET1 else SHOWDOWN
        else:
            self.turn = other(side)

    @event("Checked")
    def _checked(self, side: str, actor: str) -> None:
        equal = self.betting_wager(side) == self.betting_wager(other(side))
        self._next(side, round_over=equal and other(side) in self.acted)  # PA-21: the higher side may stand

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

    # -- PA-11: showdown and settlement ------------------------------------------------------------
    def scores(self) -> dict[str, dict[str, Any]]:
        out = {}
        for side in SIDES:
            score, hand, category = best_score(self.usable_dice(side))
            out[side] = {"score": score, "hand": list(hand), "category": category}
        return out

    def verify_settle(self, piles: Mapping[str, int], characteristics: Mapping[str, Sequence[str]] | None = None
                      ) -> dict[str, Any]:
        """The winner (PA-10, PA-11) and the bankrupts: losing members left with nothing, judged member by
        member (PA-15, PA-24); antagonists never go bankrupt (PA-23). A bankrupt whose ``characteristics``
        are given and empty is offered no buyout (PA-24)."""
        if not self.awaiting_settlement:
            raise refuse("PA-11", "the challenge is not ready to settle")
        scores = None
        winner: str | None
        if self.phase == FOLDED:
            winner, reason = other(self.folded), "fold"  # type: ignore[arg-type]
        else:
            scores = self.scores()
            a, b = scores[CHALLENGER]["score"], scores[OPPONENT]["score"]
            winner, reason = (CHALLENGER if a > b else OPPONENT if b > a else None), "showdown"
        bankrupt: list[str] = []
        if winner is not None and self.sides[other(winner)]["kind"] != ANTAGONIST:
            bankrupt = [m for m in self.sides[other(winner)]["members"] if piles[m] == 0]
        no_buyout = [m for m in bankrupt if characteristics is not None and m in characteristics
                     and not characteristics[m]]
        return {"winner": winner, "reason": reason, "scores": scores, "bankrupt": bankrupt,
                "payouts": {} if bankrupt else self._payouts(winner, {}), "no_buyout": no_buyout or None}

    def settle(self, piles: Mapping[str, int], house_pile: int, actor: str, *,
               characteristics: Mapping[str, Sequence[str]] | None = None) -> None:
        """Decide the winner (PA-10, PA-11); a losing character left with nothing goes bankrupt (PA-15).
        ``characteristics``: each losing member's own list, so that no buyout is offered to a bankrupt
        with none (PA-24)."""
        effects = self.verify_settle(piles, characteristics)
        self._decided(house_bid=bool(effects["bankrupt"]) and house_pile > 1, actor=actor, **effects)

    def _payouts(self, winner: str | None, debts: Mapping[str, int]) -> dict[str, int]:
        """What each member takes from the pot (PA-10, PA-11, PA-15, PA-18)."""
        if winner is None:  # a draw: each side takes back its own wager
            return {m: n for s in SIDES for m, n in self.sides[s]["contributions"].items() if n}
        out = dict(debts)  # PA-15: after a debt the winner gives back what the loser lost
        members = self.sides[winner]["members"]
        # PA-18: the won pot is split evenly once, the remainder to the declarer; a bankrupt's debt is part of
        # each winner's share (owed as ``creditors`` splits it), and the pennies left in the pot make up the rest
        # (two separate splits gave the declarer the remainder twice: found by an independent check)
        owed: dict[str, int] = {}
        for lost in debts.values():
            for m, n in split(lost, members).items():
                owed[m] = owed.get(m, 0) + n
        shares = {m: n - owed.get(m, 0) for m, n in split(self.pot, members).items()}
        if min(shares.values(), default=0) < 0:  # a debt larger than a share (not met with matched bets)
            shares = split(self.pot - sum(debts.values()), members)
        for member, amount in shares.items():
            out[member] = out.get(member, 0) + amount
        return {m: n for m, n in out.items() if n}

    @event("Decided")
    def _decided(
        self, winner: str | None, reason: str, scores: dict[str, Any] | None, bankrupt: list[str],
        house_bid: bool, payouts: dict[str, int], actor: str, no_buyout: list[str] | None = None,
    ) -> None:
        # ``no_buyout`` (PA-24) came after the first stored campaigns: absent, every bankrupt may be bought out.
        self.result = {"winner": winner, "reason": reason, "scores": scores}
        if bankrupt:
            self.phase = BANKRUPTCY
            self.show()  # C-5, C-8: the showdown shows every die to every seat
            for member in bankrupt:
                lost = self.sides[other(winner)]["contributions"].get(member, 0)  # type: ignore[arg-type]
                offered = house_bid and member not in (no_buyout or [])
                bids = [{"bidder": "house", "amount": 1}] if offered else []  # PA-15: the House must bid
                self.bankrupts[member] = {"lost": lost, "status": "pending", "bids": bids}
        else:
            self._close(payouts)

    def _close(self, payouts: dict[str, int]) -> None:
        self.phase = SETTLED
        self.turn = None
        winner = self.result["winner"] if self.result else None
        if any(b["status"] == "debt" for b in self.bankrupts.values()):
            narrator = winner  # PA-15, PA-24: after a debt the winner narrates, even after a fold
        elif self.result and self.result["reason"] == "fold":
            narrator = self.folded  # PA-10: the side that folded narrates its defeat
        elif winner is None:
            narrator = None
        else:
            narrator = other(winner)
        self.result = {**(self.result or {}), "narrator": narrator, "payouts": payouts}

    # -- PA-15, PA-16, PA-24: bankruptcy -----------------------------------------------------------------
    def bid(self, bidder: str, member: str, amount: int, bidder_pile: int, actor: str, *,
            characteristics: Sequence[str] | None = None) -> None:
        """A player outside the challenge bids once to buy ``member`` out (PA-15); ``characteristics``:
        the bankrupt's own, when known (PA-24: none, no buyout)."""
        self.verify_bid(bidder, member, amount, bidder_pile, characteristics)
        self._bid_placed(member=member, bidder=bidder, amount=amount, actor=actor)

    @event("BidPlaced")
    def _bid_placed(self, member: str, bidder: str, amount: int, actor: str) -> None:
        self.bankrupts[member]["bids"].append({"bidder": bidder, "amount": amount})

    def take_debt(self, member: str, debt_ids: Mapping[str, UUID], actor: str) -> None:
        """The bankrupt takes the debt (PA-15, PA-16); ``debt_ids``: the debt recorded for each creditor."""
        creditors, amount = self.verify_debt(member)
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

    def accept_buyout(self, member: str, give_up: str, characteristics: Sequence[str], bidder_pile: int,
                      actor: str) -> dict[str, Any]:
        best, match = self.verify_buyout(member, give_up, characteristics, bidder_pile)
        self._buyout_accepted(member=member, bidder=best["bidder"], amount=best["amount"], characteristic=match,
                              payouts=self._closing_payouts(member, 0), actor=actor)
        return best

    @event("BuyoutAccepted")
    def _buyout_accepted(
        self, member: str, bidder: str, amount: int, characteristic: str, payouts: dict[str, int], actor: str
    ) -> None:
        self.bankrupts[member].update(status="bought", bidder=bidder, amount=amount, surrendered=characteristic)
        self._maybe_close(payouts)

    def _maybe_close(self, payouts: dict[str, int]) -> None:
        if all(b["status"] != "pending" for b in self.bankrupts.values()):
            self._close(payouts)

    # -- PA-14: loans during a betting round ------------------------------------------------------
    def record_loan_offer(self, loan_id: UUID, lender: str, borrower: str, actor: str, *,
                          amount: int | None = None, lender_pile: int | None = None) -> None:
        """Note a loan offered during a betting round (PA-14); ``amount`` and ``lender_pile`` are
        checked when given (the application checks them itself before it creates the loan)."""
        self.verify_loan(lender, borrower, amount, lender_pile)
        self._loan_offered(loan_id=loan_id.hex, lender=lender, borrower=borrower, round=self.round, actor=actor)

    @event("LoanOffered")
    def _loan_offered(self, loan_id: str, lender: str, borrower: str, round: int, actor: str) -> None:
        self.lenders[str(round)].append(lender)
        self.loans.append(loan_id)

    # -- what a seat may see (C-5, C-8; pokerkit-style censored view) ----------------------------------
    def _die_slots(self, side: str) -> dict[int, list[Any]]:
        """The slot each of a side's dice last came from."""
        slots: dict[int, list[Any]] = {}
        for record in self.rolls:
            slot = record["slot"]
            if slot[0] in ("roll", "reroll") and slot[1] == side:
                slots[slot[2]] = slot
        return slots

    def _circumstances_seen(self) -> list[dict[str, Any]]:
        """The circumstances, each die every seat saw before a rewind took it back shown, marked (C-8); a die
        whose circumstance the rewind took back too is listed with no text, still shown."""
        # each circumstance die shown, by its step and side: its slot may carry the players' fresh seeds after
        # them (C-9: ``fresh_slot``), so a circumstance is matched by where it was called, not by a bare slot
        # (a step-2 die drawn with a fresh seed was listed twice, once as if a rewind had taken it back)
        shown: dict[tuple[Any, Any], int] = {}
        for key, die in self.shown.items():
            slot = key_slot(key)
            if slot[0] == "circumstance":
                shown.setdefault((slot[1], slot[2]), die)
        out, called = [], set()
        for c in self.circumstances:
            where = (c["step"], c["side"])
            called.add(where)
            if c["die"] is None and where in shown:
                c = {**c, "die": shown[where], "seen_before_rewind": True}
            out.append(dict(c))
        for (step, side), die in shown.items():  # the shown slots outlive the rolls a rewind took back (C-8)
            if (step, side) not in called:
                out.append({"step": step, "side": side, "text": None, "die": die, "barred": None,
                            "seen_before_rewind": True})
        return out

    def _dice_seen_before_rewind(self, side: str) -> list[dict[str, Any]]:
        """C-8: ``side``'s dice every seat saw (kept and shown, or at the showdown) whose roll a rewind took back,
        die by die, the first roll's before the reroll's: they stay shown, and the same slots bring them again
        when rolled (C-7). A die rolled again at its slot is among the side's dice instead, marked."""
        seen = [{"die": int(slot[2]) + 1, "value": value, "rolled": slot[0]} for slot, value in self.taken_back()
                if slot[0] in ("roll", "reroll") and slot[1] == side and self.was_shown(slot)]
        return sorted(seen, key=lambda d: (d["rolled"] != "roll", d["die"]))

    def view_for(self, seat: str, reveal: bool = False, settled: bool = False) -> dict[str, Any]:
        """The challenge as ``seat`` may see it (C-5): own dice, revealed dice, never another's cup; a die
        shown to every seat before a rewind stays shown, marked ``seen_before_rewind`` (C-8).

        ``reveal``/``settled``: a replay of a challenge that has since been revealed (every die
        shown) or settled (the secret seed too).
        """
        mine = self.side_of(seat)
        open_book = self.revealed or reveal
        sides = {}
        for side in SIDES:
            data = self.sides[side]
            visible = open_book or self.owner_sees(side, seat)
            slots = self._die_slots(side)
            dice = []
            for i, value in enumerate(data["dice"]):
                # Rolled dice are hidden until the side keeps some: the kept ones are revealed, the cup stays hidden.
                seen = visible or (data["kept"] and i not in data["cup"])
                die: dict[str, Any] = {"value": value if seen else None, "in_cup": i in data["cup"]}
                if not seen and i in slots and self.was_shown(slots[i]):
                    die.update(value=value, seen_before_rewind=True)
                dice.append(die)
            sides[side] = {
                "kind": data["kind"], "members": data["members"], "seed": data["seed"],
                "characteristics": data["characteristics"], "declared": data["declared"],
                "dice": dice, "wager": self.wager(side), "betting_wager": self.betting_wager(side),
                "all_in": data["all_in"], "contributions": data["contributions"],
                "seen_before_rewind": self._dice_seen_before_rewind(side),
            }
        return {
            "phase": self.phase, "adventure": self.adventure, "round": self.round, "turn": self.turn,
            "ante": self.ante, "stake": self.stake, "table": self.table, "pot": self.pot,
            "seed_hash": self.seed_hash, "secret_seed": self.secret_seed if self.settled or settled else None,
            "your_side": mine, "sides": sides, "circumstances": self._circumstances_seen(),
            "result": self.result, "bankrupts": self.bankrupts,
        }

    # -- C-10, C-1, PA-19: the House abandons an open challenge ------------------------------------------------
    def verify_abandonable(self) -> None:
        """A bankruptcy already resolved (a debt taken, a buyout accepted) moved pennies and characteristics
        outside the pot: the challenge is settled through its remaining bankruptcies, then overturned (C-6)."""
        if any(b["status"] != "pending" for b in self.bankrupts.values()):
            raise refuse("C-10", "a bankruptcy of this challenge was already resolved; resolve the others, then "
                                 "overturn it if need be (C-6)")

    def draw_to_come(self) -> bool:
        """C-10: a side's roll is still to come whose dice the seeds given fix: its first roll, or its step-2
        reroll while no fresh seed is owed for it (a challenge the House plays draws step 2 from the players'
        fresh seed, given after its choices: nothing of it is known before)."""
        if self.phase in (DECLARE, ROLL):
            return not all(self.sides[s]["rolled"] for s in SIDES)
        return (self.phase in (KEEP, BET1, NEW_CIRCUMSTANCES) and not self.fresh_reroll
                and not all(self.sides[s]["step_done"] for s in SIDES))

    def would_be_draws(self, **inputs: Any) -> dict[str, Any]:
        """C-10: for every seat to see, the dice a side still to roll would have shown: its first roll (as many
        dice as a side may ever roll, PA-8, and its circumstance die), or its step-2 reroll (each of its dice
        rerolled, or those in its cup once kept, and its second circumstance die)."""
        if self.phase in (DECLARE, ROLL):
            slots = [slot for side in SIDES if not self.sides[side]["rolled"]
                     for slot in ([["roll", side, i] for i in range(MAX_DICE)] + [["circumstance", 1, side]])]
        else:
            slots = [slot for side in SIDES if not self.sides[side]["step_done"]
                     for slot in ([["reroll", side, i] for i in (
                         self.sides[side]["cup"] if self.phase == NEW_CIRCUMSTANCES
                         else range(len(self.sides[side]["dice"])))] + [["circumstance", 2, side]])]
        return {"draws": self.abandoned_dice(slots)}

    def close_abandoned(self, reason: str, actor: str) -> None:
        self._abandoned(reason=reason, payouts=self._payouts(None, {}), actor=actor)

    @event("DrawAbandoned")
    def _draw_abandoned(self, draws: list[dict[str, Any]], actor: str) -> None:
        """C-10: recorded for every seat to see; the challenge's state is unchanged (those dice were not rolled) but for
        the draws it keeps to show."""
        self.keep_would_have_drawn(draws)

    @event("Abandoned")
    def _abandoned(self, reason: str, payouts: dict[str, int], actor: str) -> None:
        """C-10, PA-19: the House ended the challenge with a reason. No winner, no bankruptcy: every penny in
        the pot goes back to the member who put it in (``payouts``). Everything is public now (C-5)."""
        self.abandoned = reason
        self.bankrupts = {}
        self.result = {"winner": None, "reason": "abandoned", "scores": None, "abandoned": reason}
        self.show()
        self._close(dict(payouts))

    # -- C-6, C-7: undoing a disputed ruling ------------------------------------------------------------
    def verify_rewindable(self) -> None:
        if any(b["status"] != "pending" for b in self.bankrupts.values()):
            raise refuse("C-6", "a bankruptcy was already resolved; settle the challenge and overturn it instead")

    def mid_move(self) -> bool:
        """A showdown or a fold is settled in the same move (``settle_if_due``): not a step to stop at (C-6)."""
        return self.awaiting_settlement or self.drawing_fresh()  # C-10: the reroll's fresh seed is in

    def kept_through_rewind(self) -> dict[str, Any]:
        """C-9: the characteristics a side the House plays first declared, besides the kernel's seeds and shown
        values."""
        return {**super().kept_through_rewind(), "house_declared": dict(self.house_declared)}

    @event("Rewound")
    def _rewound(self, to_step: int, reason: str, state: dict[str, Any], actor: str) -> None:
        self.restore(state)

    @property
    def was_overturned(self) -> bool:
        """C-6: a challenge keeps its overturns in its result (it may be overturned more than once)."""
        return bool((self.result or {}).get("overturned"))

    def verify_overturn(self, winner: str | None, reason: str) -> dict[str, int]:
        """Verify an overturn (C-6) before anything moves; returns the payouts as ruled."""
        clean_text(reason, "a reason", max_length=500, ruling="C-6")
        if not self.settled:
            raise refuse("C-6", "only a settled challenge is overturned; rewind an open one")
        if winner is not None and winner not in SIDES:
            raise refuse("C-6", f"the winner is 'challenger' or 'opponent', not {winner!r}")
        if winner is not None and self.abandoned is not None:
            raise refuse("C-6", "this challenge was abandoned (C-10): it has no result to give another winner")
        if winner is not None and winner == (self.result or {}).get("winner"):
            raise refuse("C-6", f"the {winner} already wins this challenge: an overturn names the other side, or "
                                "voids the result")
        if any(b["status"] == "bought" for b in self.bankrupts.values()):
            raise refuse("C-6", "a buyout was accepted in this challenge and cannot be reversed; it stands")
        return self._payouts(winner, {})

    def debts_to_void(self) -> tuple[list[str], list[str]]:
        """The debts the current result created: (bankruptcy debts, shortfalls). A result never overturned
        created its bankruptcy debts (PA-15); an overturned one, the shortfalls its last overturn recorded
        (C-6). An earlier result's debts went with the overturn that replaced it: undoing them again would
        give back twice what was repaid on them (a voided debt owes nothing, as if repaid in full)."""
        history = (self.result or {}).get("overturned", [])
        if history:
            return [], list(history[-1].get("debts", []))
        return [d for b in self.bankrupts.values() for d in b.get("debt_ids", [])], []

    def overturn(self, winner: str | None, reason: str, debts: list[str], actor: str) -> dict[str, int]:
        """Reverse a settled result and apply it again as ruled: a winner, or void (C-6).

        ``debts``: the shortfall debts this overturn records. Returns the new payouts.
        """
        payouts = self.verify_overturn(winner, reason)
        reason = clean_text(reason, "a reason", max_length=500, ruling="C-6")
        previous = dict((self.result or {})["payouts"])
        self._overturned(winner=winner, reason=reason, payouts=payouts, previous=previous, debts=debts, actor=actor)
        return payouts

    @event("Overturned")
    def _overturned(self, winner: str | None, reason: str, payouts: dict[str, int], previous: dict[str, int],
                    debts: list[str], actor: str) -> None:
        history = [*(self.result or {}).get("overturned", []), {"reason": reason, "previous": previous,
                                                                "debts": debts}]
        narrator = None if winner is None else other(winner)
        self.result = {**(self.result or {}), "winner": winner, "reason": "overturned" if winner else "void",
                       "narrator": narrator, "payouts": payouts, "overturned": history}
