"""What each Penny Ante move requires (PA-5 … PA-24): verify, can, do.

After pokerkit: every move has one ``verify_*`` function that raises the refusal (a ``RuleViolation``
naming the ruling) or returns what the move will record. The public move of ``Challenge`` calls it and
then records the event; :meth:`ChallengeRules.legal_actions` lists a move exactly when its verify function
passes, and takes the limits of a move with an argument (raise, call, all-in, loan, bid, dice, cup) from
the same helpers the verify function uses. So a listed move is never refused and an unlisted one is never
accepted. Nothing here changes the challenge.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

from domain.errors import RuleViolation, passes
from domain.kernel.resolution import slot_key
from domain.systems.penny_ante.money import draw, split
from domain.text import clean_text

CHALLENGER, OPPONENT = "challenger", "opponent"
SIDES = (CHALLENGER, OPPONENT)
CHARACTER, ALLIANCE, ANTAGONIST = "character", "alliance", "antagonist"
HOUSE = "house"

DECLARE, ROLL, KEEP, BET1, NEW_CIRCUMSTANCES, BET2, SHOWDOWN, FOLDED, BANKRUPTCY, SETTLED = (
    "declare", "roll", "keep", "betting-1", "new-circumstances", "betting-2", "showdown", "folded",
    "bankruptcy", "settled",
)
BETTING = (BET1, BET2)
BETS = ("check", "call", "raise", "fold", "all-in")
MAX_CHARACTERISTICS = 5  # PA-8
MAX_DICE = 6  # PA-8
REROLL = "reroll"  # C-9: the stage whose dice wait for the players' fresh seed (``fresh_stage``)


def other(side: str) -> str:
    return OPPONENT if side == CHALLENGER else CHALLENGER


def refuse(ruling: str, message: str) -> RuleViolation:
    return RuleViolation(message, ruling=ruling)


def penny_order(draws: Mapping[str, int], members: Sequence[str]) -> list[str]:
    """The order ``draw`` took these pennies in: one from each member in joining order, round after round,
    each member dropping out when his share is paid (PA-18)."""
    out: list[str] = []
    rounds = max(draws.values(), default=0)
    for r in range(rounds):
        out += [m for m in members if draws.get(m, 0) > r]
    return out


class ChallengeRules:
    """Reading a challenge's state and verifying moves; mixed into ``Challenge``."""

    ante: int
    stake: int | None
    table: bool
    sides: dict[str, dict[str, Any]]
    phase: str
    turn: str | None
    round: int
    circumstances: list[dict[str, Any]]
    rolls: list[dict[str, Any]]
    lenders: dict[str, list[str]]
    bankrupts: dict[str, dict[str, Any]]
    locked_cups: dict[str, list[int]]
    #: C-9, kept through rewinds: the characteristics each side the House plays first declared (how many dice it
    #: rolls, an input to the draw); older states hold none.
    house_declared: Mapping[str, list[str]] = MappingProxyType({})
    filled: Mapping[str, Any]
    draw_dice: Callable[..., list[int]]
    verify_may_seed: Callable[[str], None]
    verify_first_roll_waits: Callable[[str], None]
    result: dict[str, Any] | None

    # -- reading state --------------------------------------------------------------------------
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

    @property
    def awaiting_settlement(self) -> bool:
        return self.phase in (SHOWDOWN, FOLDED)

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

    def staked(self) -> dict[str, int]:
        """Each member's pennies in the pot (what settlement takes out of play for him)."""
        return {m: n for s in SIDES for m, n in self.sides[s]["contributions"].items()}

    def party_members(self) -> list[str]:
        return [m for s in SIDES for m in self.sides[s]["members"] if self.sides[s]["kind"] != ANTAGONIST]

    def house_indirect(self, side: str) -> bool:
        return self.sides[side]["kind"] == ANTAGONIST and self.indirect

    def stake_left(self, side: str) -> int:
        return self.stake - self.wager(side)  # type: ignore[operator]

    def available(self, side: str, piles: Mapping[str, int]) -> int:
        """What a side can still put in: its members' piles, and for an indirect challenge the stake left."""
        total = sum(piles[m] for m in self.sides[side]["members"])
        return min(total, self.stake_left(side)) if self.house_indirect(side) else total

    def usable_dice(self, side: str) -> list[int]:
        """A side's own dice and every circumstance die not barred for it (PA-11, PA-13)."""
        own = list(self.sides[side]["dice"])
        shared = [c["die"] for c in self.circumstances if c["die"] is not None and c["barred"] != side]
        return own + shared

    def circumstances_of(self, side: str, step: int) -> list[dict[str, Any]]:
        return [c for c in self.circumstances if c["side"] == side and c["step"] == step]

    def dice_count(self, side: str) -> int:
        return min(MAX_DICE, 1 + len(self.sides[side]["characteristics"]))

    def roll_slots(self, side: str) -> tuple[list[list[Any]], list[list[Any]]]:
        """The slots this side's next roll fills: its own dice, then its circumstance die (C-7)."""
        if self.phase == ROLL:
            own = [["roll", side, i] for i in range(self.dice_count(side))]
            step = 1
        else:
            own = [["reroll", side, i] for i in self.sides[side]["cup"]]
            step = 2
        circumstance = [["circumstance", step, side]] if self.circumstances_of(side, step) else []
        if step == 2 and self.fresh_reroll:  # C-9: the slots carry the players' fresh seed (docs/fairness.md)
            fresh = self.fresh_slot  # type: ignore[attr-defined]
            return [fresh(REROLL, s) for s in own], [fresh(REROLL, s) for s in circumstance]
        return own, circumstance

    def round_lenders(self) -> list[str]:
        """Who offered a loan in the betting round open now (PA-14): their offers may be accepted now."""
        return list(self.lenders[str(self.round)]) if self.phase in BETTING else []

    def round_open(self, number: int) -> bool:
        return self.phase in BETTING and self.round == number

    def best_bid(self, member: str) -> dict[str, Any] | None:
        bids = self.bankrupts[member]["bids"]
        return max(bids, key=lambda b: b["amount"]) if bids else None  # max() keeps the earliest on a tie

    def _declared_by_side_of(self, member: str) -> list[str]:
        for side in SIDES:
            if member in self.sides[side]["members"]:
                return list(self.sides[side]["characteristics"])
        return []

    def _require_phase(self, *phases: str, doing: str, ruling: str = "PA-5") -> None:
        if self.phase == SETTLED:
            raise refuse("C-1", f"the challenge is settled; nothing more can be {doing}")
        if self.phase not in phases:
            raise refuse(ruling, f"cannot be {doing} now: the challenge is at step '{self.phase}'")

    # -- PA-12, PA-20, PA-22: pennies in and back ---------------------------------------------------
    def uncalled(self, side: str, excess: int) -> dict[str, int]:
        """PA-12, PA-22: ``side``'s uncalled excess goes back penny by penny in the reverse of the order it
        was drawn in (the last penny drawn is the first to go back)."""
        if excess <= 0:
            return {}
        data = self.sides[side]
        drawn = data.get("drawn")
        if drawn is not None and excess <= len(drawn) == self.betting_wager(side):
            back = drawn[len(drawn) - excess:]
            return {m: back.count(m) for m in data["members"] if m in back}
        # A challenge begun before the draw order was kept: the last to join gives back first.
        return draw(excess, list(reversed(data["members"])), data["contributions"])

    def ante_draws(self, side: str, piles: Mapping[str, int]) -> tuple[dict[str, int], bool, dict[str, int]]:
        """What the side's first roll puts in (PA-6, PA-20): the ante once per member, drawn like any bet
        (PA-18), so a member short of it is covered by his partners; all-in only when the members together
        cannot pay it (PA-12), within the stake left for the House (PA-17). Once both antes are in and a
        side is all-in, the wagers are brought level (PA-12): never above an all-in wager, and the other
        side's excess goes back (PA-22). Returns (draws, all in, given back to the other side)."""
        data, them = self.sides[side], self.sides[other(side)]
        need = self.ante * len(data["members"])
        can = self.available(side, piles)
        all_in = can < need
        pay = min(need, can)
        level = them["rolled"] and (all_in or them["all_in"])
        if level:
            pay = min(pay, self.betting_wager(other(side)))
        returned = self.uncalled(other(side), self.betting_wager(other(side)) - pay) if level else {}
        return draw(pay, data["members"], piles), all_in, returned

    # -- C-4, C-9: seeds -------------------------------------------------------------------------
    def seed_phase_open(self) -> bool:
        return self.phase in (DECLARE, ROLL)

    def house_owes(self) -> list[str]:
        """C-9: a side the House plays declares its characteristics (how many dice it rolls) before a
        player's seed or pass."""
        return [f"its characteristics (the {side})" for side in SIDES
                if HOUSE in self.sides[side]["seats"] and not self.sides[side]["declared"]]

    # -- C-9, C-10: the reroll waits for a fresh seed after the House's choices --------------------------------
    @property
    def fresh_reroll(self) -> bool:
        """C-9: a side the House plays, with service dice (C-3: table dice are physical). The House can compute
        every die from its secret once the players' first seeds are in, so its cup (PA-8), its bets and its
        second circumstance (PA-7, PA-13) would be chosen knowing the reroll and the second circumstance dice:
        those dice wait for the players' fresh seed, given after both sides called their reroll. A challenge
        stored with a side already rerolled the old way goes on as it was."""
        return (not self.table and any(HOUSE in self.sides[s]["seats"] for s in SIDES)
                and not any(self.sides[s]["step_done"] and not self.reroll_called(s) for s in SIDES))

    def reroll_called(self, side: str) -> bool:
        return bool(self.sides[side].get("called"))

    def fresh_stage(self) -> str | None:
        """C-9, C-10: the stage ``reroll`` is owed once both sides called their reroll (every House choice of the
        round is made then: cup, bets, second circumstance) and before any die of step 2 is drawn. It is owed
        whatever the House chose, an empty cup and no circumstance too (C-5: its cup stays its secret)."""
        if self.phase == NEW_CIRCUMSTANCES and self.fresh_reroll and all(self.reroll_called(s) for s in SIDES):
            return REROLL
        return None

    def second_circumstance(self, side: str) -> str:
        """What a side declared at step 2: ``none``, ``circumstance`` or ``double-down`` (PA-7, PA-13)."""
        declared = self.circumstances_of(side, 2)
        if not declared:
            return "none"
        return "double-down" if declared[0]["barred"] else "circumstance"

    # -- PA-7, PA-13, PA-23: circumstances ----------------------------------------------------------------
    def verify_circumstance(self, side: str, double_down: bool, piles: Mapping[str, int],
                            text: object = "a circumstance") -> dict[str, Any]:
        """The circumstance's text, the step it is declared at and, for a double down, what it draws (PA-7,
        PA-13, PA-23)."""
        text = clean_text(text, "a circumstance", max_length=120, ruling="PA-7")
        data = self.sides[side]
        if self.phase in (DECLARE, ROLL) and not data["rolled"]:
            step = 1  # PA-23: a side's first circumstance, until that side's first roll
        elif self.phase == NEW_CIRCUMSTANCES and not data["step_done"]:
            step = 2
        else:
            self._require_phase(DECLARE, ROLL, NEW_CIRCUMSTANCES, doing="declared (circumstances come at the "
                                "announcement and again before the reroll)", ruling="PA-7")
            raise refuse("PA-7", "this side has already rolled at this step")
        if self.circumstances_of(side, step):
            raise refuse("PA-7", "a side declares at most one circumstance at each step")
        if step == 1 and slot_key(["circumstance", 1, side]) not in self.filled:
            # C-9: the House's first circumstance (a die of its roll) precedes the players' input; after a
            # rewind, one it declared before comes back with the same die (C-7)
            self.verify_house_input_open(side, "the House's first circumstance")  # type: ignore[attr-defined]
        if step == 2 and self.reroll_called(side):  # PA-7: the second circumstance comes before the reroll
            raise refuse("PA-7", "this side has called its reroll; its circumstance came before")
        if step == 2 and HOUSE in data["seats"] and self.fresh_reroll:
            # C-9: after a rewind that kept the fresh seed, the House knows the step's dice: it declares as before
            self.verify_house_choice(REROLL, "circumstance", "double-down" if double_down else "circumstance",  # type: ignore[attr-defined]
                                     "its second circumstance otherwise")
        draws: dict[str, int] = {}
        if double_down:
            if step != 2:
                raise refuse("PA-13", "a side doubles down only when declaring its second circumstance")
            cost = self.wager(side)
            if self.house_indirect(side) and cost > self.stake_left(side):
                raise refuse("PA-23", f"doubling down costs {cost} pennies, beyond the {self.stake_left(side)} "
                                      "left of the House's stake")
            if cost > self.available(side, piles):
                raise refuse("PA-13", f"doubling down costs {cost} pennies, more than this side can put in")
            draws = draw(cost, data["members"], piles)
        return {"text": text, "step": step, "draws": draws}

    # -- PA-8: characteristics and dice ----------------------------------------------------------------------
    @staticmethod
    def nameable(available: Sequence[str]) -> dict[str, str]:
        """The characteristics a side may name, by their case-folded name (the first spelling wins)."""
        known: dict[str, str] = {}
        for name in available:
            known.setdefault(" ".join(str(name).split()).casefold(), name)
        return known

    def verify_declare(self, side: str, names: Sequence[str], available: Sequence[str]) -> list[str]:
        """The characteristics named, as spelled on the side's list (PA-8)."""
        self._require_phase(DECLARE, doing="declared", ruling="PA-8")
        if self.sides[side]["declared"]:
            raise refuse("PA-8", "this side has already declared its characteristics")
        if side == OPPONENT and not self.sides[CHALLENGER]["declared"]:
            raise refuse("PA-8", "the challenger declares characteristics first")
        if len(names) > MAX_CHARACTERISTICS:
            raise refuse("PA-8", f"a side names at most {MAX_CHARACTERISTICS} characteristics, not {len(names)}")
        known = self.nameable(available)
        chosen: list[str] = []
        for name in names:
            canonical = known.get(" ".join(str(name).split()).casefold())
            if canonical is None:
                raise refuse("PA-8", f"{name!r} is not on this side's list of characteristics")
            if canonical in chosen:
                raise refuse("PA-8", f"{canonical!r} is named twice")
            chosen.append(canonical)
        kept = self.house_declared.get(side)
        if kept is not None and sorted(chosen) != sorted(kept):
            # C-9: the House knows the service's secret and, after a rewind, every seed already given: naming
            # other characteristics would choose how many of the known dice it rolls
            raise refuse("C-9", "after a rewind a side the House plays declares the characteristics it first "
                                f"declared: {', '.join(kept) or 'none'}")
        return chosen

    def _verify_may_roll(self, side: str) -> None:
        """May this side roll now: its first roll, or the reroll of its cup (PA-8, PA-13)."""
        data = self.sides[side]
        if self.phase == ROLL:
            if data["rolled"]:
                raise refuse("PA-8", "this side has already rolled")
            self.verify_first_roll_waits(side)  # C-10, C-4: another player's seed or pass comes before a first roll
        elif self.phase == NEW_CIRCUMSTANCES:
            if data["step_done"]:
                raise refuse("PA-13", "this side has already rerolled its cup")
            if self.fresh_reroll and self.reroll_called(side):
                raise refuse("C-9", "this side has called its reroll; the dice come with the players' fresh seed, "
                                    "given after both sides called")
            if self.fresh_reroll and HOUSE in data["seats"]:
                # C-9: after a rewind that kept the fresh seed, the House's second circumstance stands as made
                self.verify_house_choice(REROLL, "circumstance", self.second_circumstance(side),  # type: ignore[attr-defined]
                                         "its second circumstance otherwise")
        else:
            self._require_phase(ROLL, NEW_CIRCUMSTANCES, doing="rolled", ruling="PA-8")

    def verify_roll(self, side: str, piles: Mapping[str, int], entered: Sequence[int] | None) -> dict[str, Any]:
        """The dice of this side's roll (C-3, C-7) and, for its first roll, the ante it pays (PA-20)."""
        self._verify_may_roll(side)
        if self.phase == NEW_CIRCUMSTANCES and self.fresh_reroll:
            if entered is not None:
                raise refuse("C-3", "dice are entered by hand only in table mode")
            return {}  # C-9: the side calls its reroll; its dice come with the players' fresh seed
        own, circumstance = self.roll_slots(side)
        values = self.draw_dice(own + circumstance, entered, what="dice (your own, then your circumstance die)")
        out: dict[str, Any] = {"dice": values[: len(own)],
                               "circumstance_die": values[len(own)] if circumstance else None}
        if self.phase == ROLL:
            ante, all_in, returned = self.ante_draws(side, piles)
            out.update(ante=ante, all_in=all_in, returned=returned)
        return out

    def verify_keep(self, side: str, cup: Sequence[int]) -> tuple[list[int], list[int]]:
        """The dice that go back in the cup and the ones revealed (PA-8); the same cup after a rewind (C-7)."""
        self._require_phase(KEEP, doing="kept", ruling="PA-8")
        data = self.sides[side]
        if data["kept"]:
            raise refuse("PA-8", "this side has already chosen its cup")
        chosen = sorted(set(cup))
        if len(chosen) != len(list(cup)) or any(
                isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < len(data["dice"]) for i in chosen):
            raise refuse("PA-8", f"the cup takes distinct dice at positions 1 to {len(data['dice'])} (in a request, indices 0 to "
                                 f"{len(data['dice']) - 1})")
        if HOUSE in data["seats"] and self.fresh_reroll:
            self.verify_house_choice(REROLL, "cup", chosen, "its cup")  # type: ignore[attr-defined]  # C-9
        locked = self.locked_cup(side)
        if locked is not None and locked != chosen:
            raise refuse("C-7", f"this side cupped {_dice_at(data['dice'], locked)} before the rewind, and keeps the "
                                f"same dice again (in a request, cup {locked})")
        return chosen, [v for i, v in enumerate(data["dice"]) if i not in chosen]

    def locked_cup(self, side: str) -> list[int] | None:
        """C-7: the cup a side chose before a rewind, among the dice it rolls now. A die comes from its slot,
        so die i is the same die again; a die the new roll no longer has (fewer characteristics declared
        after the rewind) leaves the cup with it, so the same choice can always be made again."""
        locked = self.locked_cups.get(side)
        return None if locked is None else [i for i in locked if i < len(self.sides[side]["dice"])]

    # -- PA-9, PA-12, PA-17, PA-21: betting -------------------------------------------------------------
    def _verify_turn(self, side: str) -> None:
        self._require_phase(*BETTING, doing="bet", ruling="PA-9")
        if self.turn != side:
            raise refuse("PA-9", f"it is the {self.turn}'s turn to bet")

    def bet_limits(self, side: str, piles: Mapping[str, int]) -> dict[str, int]:
        """``diff``: what a call costs (≤ 0: nothing to call, PA-21); ``can``: what the side can put in;
        ``raise_max``: the largest raise, a multiple of the ante, that it can pay after calling (PA-9)."""
        diff = self.betting_wager(other(side)) - self.betting_wager(side)
        can = self.available(side, piles)
        return {"diff": diff, "can": can, "raise_max": (can - max(diff, 0)) // self.ante * self.ante}

    def verify_bet(self, side: str, action: str, amount: object, piles: Mapping[str, int]) -> dict[str, Any]:
        """What a bet draws and gives back (PA-9, PA-10, PA-12, PA-17, PA-21)."""
        self._verify_turn(side)
        limits = self.bet_limits(side, piles)
        diff, can, members = limits["diff"], limits["can"], self.sides[side]["members"]
        house = self.house_indirect(side)
        if action == "check":
            if diff > 0:
                raise refuse("PA-9", f"a check needs equal wagers; facing {diff} more, call, raise, fold or go all-in")
            return {}
        if action == "call":
            if diff <= 0:
                raise refuse("PA-9", "there is nothing to call; check or raise")
            if diff > can:
                if house:
                    raise refuse("PA-17", "the call exceeds the House's devoted stake; it may only fold")
                raise refuse("PA-12", f"calling needs {diff} pennies and this side has {can}: go all-in or fold")
            return {"draws": draw(diff, members, piles)}
        if action == "raise":
            if isinstance(amount, bool) or not isinstance(amount, int) or amount < self.ante or amount % self.ante:
                raise refuse("PA-9", f"a raise is a whole multiple of the ante ({self.ante}), not {amount}")
            total = max(diff, 0) + amount  # call what is owed, then the raise
            if total > can:
                raise refuse("PA-17" if house else "PA-9", f"a bet of {total} is above what this side can put in ({can})")
            return {"amount": amount, "draws": draw(total, members, piles)}
        if action == "fold":
            return {}
        if action == "all-in":
            if house:
                raise refuse("PA-17", "the House cannot go all-in in an indirect challenge")
            if can >= diff:
                raise refuse("PA-12", "all-in is for a side that cannot cover the call; call, raise or fold")
            return {"draws": draw(can, members, piles), "returned": self.uncalled(other(side), diff - can)}
        raise refuse("PA-9", f"unknown bet {action!r}: check, call, raise, fold or all-in")

    # -- PA-14: loans --------------------------------------------------------------------------------
    def verify_loan(self, lender: str, borrower: str, amount: object = None, lender_pile: int | None = None) -> None:
        """A loan offered during a betting round by a player outside the challenge (PA-14)."""
        self._require_phase(*BETTING, doing="lent into (loans come during a betting round)", ruling="PA-14")
        if lender == HOUSE:
            raise refuse("PA-14", "loans are between players; the House does not lend")
        if lender in self.party_members():
            raise refuse("PA-14", "only players outside the challenge lend during it")
        if borrower not in self.party_members():
            raise refuse("PA-14", "a loan during a challenge goes to a player on one of its sides")
        if lender in self.lenders[str(self.round)]:
            raise refuse("PA-14", "each player offers one loan per betting round")
        if amount is not None:
            if isinstance(amount, bool) or not isinstance(amount, int) or amount < 1:
                raise refuse("PA-14", "a loan is a whole number of at least 1 penny")
            if lender_pile is not None and amount > lender_pile:
                raise refuse("PA-14", f"a loan is at most the lender's pile ({lender_pile}), not {amount}")

    # -- PA-15, PA-24: bankruptcy ---------------------------------------------------------------------
    def verify_bankruptcy(self, member: str) -> dict[str, Any]:
        """``member``'s bankruptcy still to resolve (by debt or buyout), or the refusal (PA-15)."""
        self._require_phase(BANKRUPTCY, doing="done (there is no bankruptcy)", ruling="PA-15")
        info = self.bankrupts.get(member)
        if info is None or info["status"] != "pending":
            raise refuse("PA-15", f"{member} has no bankruptcy to resolve")
        return info

    def verify_debt(self, member: str) -> tuple[dict[str, int], int]:
        """The creditors of a bankrupt who takes the debt, and the amount: what he lost (PA-15)."""
        self.verify_bankruptcy(member)
        return self.creditors(member)[0], self.bankrupts[member]["lost"]

    def creditors(self, member: str) -> tuple[dict[str, int], bool]:
        """Who a bankruptcy debt is owed to (PA-15): the winners share the giveback as they share the pot
        (PA-18); and whether the winner is an antagonist."""
        winner = self.sides[self.result["winner"]]  # type: ignore[index]
        return split(self.bankrupts[member]["lost"], winner["members"]), winner["kind"] == ANTAGONIST

    def buyout_choices(self, member: str, characteristics: Sequence[str]) -> list[str]:
        """What a bought-out bankrupt may give up: one he used in the challenge, else any of his (PA-15)."""
        used = [c for c in self._declared_by_side_of(member) if c in characteristics]
        return used or list(characteristics)

    def verify_bid(self, bidder: str, member: str, amount: object, bidder_pile: int,
                   characteristics: Sequence[str] | None = None) -> None:
        """One bid per player outside the challenge, within his pile (PA-15), for a bankrupt who has a
        characteristic to give up (PA-24; unchecked when ``characteristics`` is not given)."""
        info = self.verify_bankruptcy(member)
        if bidder in self.party_members() or bidder == HOUSE:
            raise refuse("PA-15", "only players outside the challenge bid to buy a bankrupt out")
        if any(b["bidder"] == bidder for b in info["bids"]):
            raise refuse("PA-15", "each player bids once")
        if characteristics is not None and not characteristics:
            raise refuse("PA-24", f"{member} has no characteristic to give up, so no buyout is offered")
        if isinstance(amount, bool) or not isinstance(amount, int) or amount < 1:
            raise refuse("PA-15", "a bid is a whole number of at least 1 penny")
        if amount > bidder_pile:
            raise refuse("PA-15", f"a bid of {amount} is more than the bidder's pile of {bidder_pile}")

    def verify_buyout(self, member: str, give_up: str, characteristics: Sequence[str],
                      bidder_pile: int | None) -> tuple[dict[str, Any], str]:
        """The best bid and the characteristic given up (PA-15); only with one to give up (PA-24).
        ``bidder_pile``: the best bidder's pile, None when unknown (then not checked)."""
        self.verify_bankruptcy(member)
        choices = self.buyout_choices(member, characteristics)
        if not choices:
            raise refuse("PA-24", f"{member} has no characteristic to give up: no buyout, only the debt")
        best = self.best_bid(member)
        if best is None:
            raise refuse("PA-15", "nobody has bid; take the debt instead")
        if bidder_pile is not None and best["amount"] > bidder_pile:
            raise refuse("PA-15", f"{best['bidder']} no longer holds the {best['amount']} pennies bid")
        wanted = " ".join(str(give_up).split()).casefold()
        match = next((c for c in choices if c.casefold() == wanted), None)
        if match is None:
            raise refuse("PA-15", f"give up one of: {', '.join(choices)}")
        return best, match

    # -- what a seat may do now (pokerkit-style) -----------------------------------------------------------
    def legal_actions(self, seat: str, piles: Mapping[str, int], seat_pile: int,
                      side_lists: Mapping[str, Sequence[str]], *,
                      characteristics: Mapping[str, Sequence[str]] | None = None) -> list[dict[str, Any]]:
        """The moves ``seat`` may make now, with their limits, so a client offers only those; built from
        the verify functions, so a listed move is accepted and an unlisted one refused.

        ``piles``: every member's pile (and, for an exact buyout listing, the bidders' piles by seat,
        ``"house"`` for the House); ``seat_pile``: the viewer's own pile (for loans and bids);
        ``side_lists``: each side's characteristics it may name (only shown to that side);
        ``characteristics``: each bankrupt member's own characteristics (PA-24: no buyout without one).
        Without it a lone character's list is read from ``side_lists`` and an alliance member is assumed
        to hold one unless his side's list is empty.
        """
        side = self.side_of(seat)
        out = self._side_actions(side, piles, side_lists.get(side, [])) if side is not None else []
        borrowers = [b for b in self.party_members() if passes(self.verify_loan, seat, b, 1, seat_pile)]
        if borrowers:
            out.append({"action": "lend", "min": 1, "max": seat_pile, "borrowers": borrowers})
        for member in self.bankrupts:
            own = self._own_list(member, side_lists, characteristics)
            if passes(self.verify_bid, seat, member, 1, seat_pile, own):
                out.append({"action": "bid", "member": member, "min": 1, "max": seat_pile})
        if seat in self.bankrupts and passes(self.verify_debt, seat):
            out.append({"action": "debt", "member": seat})
            own = self._own_list(seat, side_lists, characteristics)
            assumed = own if own is not None else ["(not told)"]  # not told: assume he holds one (see above)
            best = self.best_bid(seat)
            bidder_pile = piles.get(best["bidder"]) if best else None
            choices = self.buyout_choices(seat, assumed)
            if passes(self.verify_buyout, seat, choices[0] if choices else "", assumed, bidder_pile):
                entry: dict[str, Any] = {"action": "buyout", "member": seat, "best_bid": best}
                if own is not None:
                    entry["choices"] = choices
                out.append(entry)
        return out + self.abandon_actions(seat)  # type: ignore[attr-defined]  # C-10

    def _own_list(self, member: str, side_lists: Mapping[str, Sequence[str]],
                  characteristics: Mapping[str, Sequence[str]] | None) -> Sequence[str] | None:
        """A bankrupt's own characteristics, as far as the caller told (see ``legal_actions``)."""
        if characteristics is not None and member in characteristics:
            return characteristics[member]
        side = next(s for s in SIDES if member in self.sides[s]["members"])
        listed = side_lists.get(side)
        if listed is None or (len(self.sides[side]["members"]) > 1 and listed):
            return None
        return listed

    def _side_actions(self, side: str, piles: Mapping[str, int], names: Sequence[str]) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        if side in self.owed_fresh():  # type: ignore[attr-defined]
            # C-9, C-10: a fresh seed, after the House's choices; never a pass (the House knew what none draws)
            out.append({"action": "seed", "member": side, "fresh": True, "required": ["seed"]})
        elif passes(self.verify_may_seed, side):
            out += [{"action": "seed"}, {"action": "pass"}]  # C-10: either input
        step_one = self.phase in (DECLARE, ROLL)
        kept = self.house_declared.get(side)
        if passes(self.verify_declare, side, kept or [], names):  # first: a House side owes it (C-9)
            if kept is None:
                out.append({"action": "declare", "max": MAX_CHARACTERISTICS,
                            "choices": list(self.nameable(names).values())})
            else:  # C-9: after a rewind, the House names what it first named, no other
                out.append({"action": "declare", "min": len(kept), "max": len(kept), "choices": list(kept),
                            "required": list(kept)})
        if step_one and passes(self.verify_circumstance, side, False, piles):
            out.append({"action": "circumstance"})
        if self.phase == ROLL and passes(self._verify_may_roll, side):
            out.append(self._roll_entry(side))
        locked = self.locked_cup(side)
        if passes(self.verify_keep, side, locked or []):
            entry: dict[str, Any] = {"action": "keep", "choices": list(range(len(self.sides[side]["dice"])))}
            if locked is not None:
                entry["required"] = locked  # C-7: the same cup as before the rewind
            out.append(entry)
        if not step_one and passes(self.verify_circumstance, side, False, piles):
            out.append({"action": "circumstance"})
        if passes(self.verify_circumstance, side, True, piles):
            out.append({"action": "double-down", "cost": self.wager(side)})
        if self.phase == NEW_CIRCUMSTANCES and passes(self._verify_may_roll, side):
            out.append(self._roll_entry(side))
        if passes(self._verify_turn, side):
            out += self._bets(side, piles)
        return out

    def _roll_entry(self, side: str) -> dict[str, Any]:
        """``dice``: how many to enter in table mode (None: the service rolls); ``fixed``: the values slots
        showed before a rewind, which must be entered again (C-7)."""
        if not self.table:
            # C-9, C-10: the roll only calls the reroll; its dice come with the fresh seed, unless a rewind kept
            # that seed and this is the last call, which draws them at once
            drawn_now = self.fresh_in(REROLL) and all(self.reroll_called(s) for s in SIDES if s != side)  # type: ignore[attr-defined]
            if self.fresh_reroll and not drawn_now:
                return {"action": "roll", "dice": None, "drawn_with_fresh_seed": True}
            return {"action": "roll", "dice": None}
        own, circumstance = self.roll_slots(side)
        slots = own + circumstance
        entry: dict[str, Any] = {"action": "roll", "dice": len(slots), "faces": 6}  # C-3: d6s entered as ``dice``
        fixed = self.fixed_before(slots)  # type: ignore[attr-defined]
        if fixed is not None:
            entry["fixed"] = fixed
        return entry

    def _bets(self, side: str, piles: Mapping[str, int]) -> list[dict[str, Any]]:
        limits = self.bet_limits(side, piles)
        entries: dict[str, dict[str, Any]] = {
            "check": {"action": "check"},
            "call": {"action": "call", "amount": limits["diff"]},
            "raise": {"action": "raise", "min": self.ante, "max": limits["raise_max"], "step": self.ante},
            "fold": {"action": "fold"},
            "all-in": {"action": "all-in", "amount": limits["can"]},
        }
        listed: list[dict[str, Any]] = [entries[a] for a in BETS
                if passes(self.verify_bet, side, a, limits["raise_max"] if a == "raise" else None, piles)]
        return listed


def _dice_at(dice: list[Any], positions: list[int]) -> str:
    """Dice by their positions from 1 and what they show, as the table says them: ``the dice at positions 1 and 3
    (6 and 2)``; ``no die``."""
    if not positions:
        return "no die"
    shown = [dice[i].get("value") if isinstance(dice[i], dict) else dice[i] for i in positions]
    where = " and ".join(", ".join(str(i + 1) for i in positions).rsplit(", ", 1))
    what = " and ".join(", ".join(str(v) for v in shown).rsplit(", ", 1))
    return f"the die at position {where} ({what})" if len(positions) == 1 else f"the dice at positions {where} ({what})"
