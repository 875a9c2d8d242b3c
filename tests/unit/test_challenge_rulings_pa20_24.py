"""PA-20 … PA-24 and C-9, on the Challenge aggregate itself (no application): piles are kept here and the
pennies each move puts in or gives back are mirrored onto them, as the application does."""

from __future__ import annotations

from typing import Any
from uuid import uuid4

import pytest

from domain.errors import RuleViolation
from domain.fairness import commitment
from domain.systems.penny_ante.challenge import ALLIANCE, ANTAGONIST, CHARACTER, Challenge

SECRET = "ab" * 32


def side(*members: str, antagonist: bool = False) -> dict[str, Any]:
    kind = ANTAGONIST if antagonist else ALLIANCE if len(members) > 1 else CHARACTER
    return {"kind": kind, "members": list(members)}


class Desk:
    """One challenge, the piles of everyone at the table, and the events recorded so far."""

    def __init__(self, challenger: dict, opponent: dict, ante: int, piles: dict[str, int], *, stake: int | None = None,
                 table: bool = True, lists: dict[str, list[str]] | None = None, house: int = 40) -> None:
        self.piles, self.house = dict(piles), house
        self.lists = {m: list(v) for m, v in (lists or {}).items()}
        self.ch = Challenge.announce(
            campaign_id=uuid4(), adventure=1, challenger=challenger, opponent=opponent, ante=ante, stake=stake,
            table=table, seed_hash=commitment(SECRET), secret_seed=SECRET, circumstance=None,
            antagonist_pennies=None, actor="house")
        self.events = list(self.ch.collect_events())
        self.before = self.ch.staked()

    def mirror(self) -> Challenge:
        after = self.ch.staked()
        for member in self.piles:
            self.piles[member] -= after.get(member, 0) - self.before.get(member, 0)
        self.before = after
        self.events += self.ch.collect_events()
        return self.ch

    def side_list(self, s: str) -> list[str]:
        return [n for m in self.ch.sides[s]["members"] for n in self.lists.get(m, [])]

    def declare(self, s: str, names=()) -> Challenge:
        self.ch.declare_characteristics(s, list(names), self.side_list(s), "x")
        return self.mirror()

    def roll(self, s: str, dice: list[int] | None = None) -> Challenge:
        self.ch.roll(s, self.piles, dice, "x")
        return self.mirror()

    def keep(self, s: str, cup=()) -> Challenge:
        self.ch.keep(s, list(cup), "x")
        return self.mirror()

    def bet(self, s: str, action: str, amount: int | None = None) -> Challenge:
        self.ch.bet(s, action, amount, self.piles, "x")
        return self.mirror()

    def circumstance(self, s: str, text: str = "Rain", double_down: bool = False) -> Challenge:
        self.ch.declare_circumstance(s, text, double_down, self.piles, "x")
        return self.mirror()

    def settle(self, *, characteristics: bool = True) -> Challenge:
        self.ch.settle(self.piles, self.house, "x", characteristics=self.lists if characteristics else None)
        self.mirror()
        self.pay_out()
        return self.ch

    def pay_out(self) -> None:
        if self.ch.settled:
            for member, amount in self.ch.result["payouts"].items():
                self.piles[member] += amount

    def legal(self, seat: str, **kw: Any) -> list[dict[str, Any]]:
        s = self.ch.side_of(seat)
        side_lists = {s: self.side_list(s)} if s else {}
        return self.ch.legal_actions(seat, self.piles, self.piles.get(seat, self.house), side_lists, **kw)

    def actions(self, seat: str, **kw: Any) -> list[str]:
        return [a["action"] for a in self.legal(seat, **kw)]

    def to_betting(self, first=(1,), second=(1,)) -> Challenge:
        self.declare("challenger")
        self.declare("opponent")
        self.roll("challenger", list(first))
        self.roll("opponent", list(second))
        self.keep("challenger")
        return self.keep("opponent")


# -- PA-20: every member owes the ante, drawn like a bet -------------------------------------------------
def test_pa20_a_member_short_of_his_ante_is_covered_by_his_partner_and_no_all_in_follows():
    desk = Desk(side("ann", "bob"), side("cy"), 4, {"ann": 2, "bob": 25, "cy": 25})
    ch = desk.to_betting()
    assert ch.sides["challenger"]["contributions"] == {"ann": 2, "bob": 6}  # the side owes 8 (PA-6, PA-18)
    assert not ch.sides["challenger"]["all_in"] and ch.phase == "betting-1"  # betting follows
    assert desk.piles == {"ann": 0, "bob": 19, "cy": 21}


def test_pa20_only_a_side_whose_members_together_cannot_pay_the_ante_goes_all_in():
    desk = Desk(side("ann", "bob"), side("cy"), 4, {"ann": 2, "bob": 3, "cy": 25})
    desk.declare("challenger")
    desk.declare("opponent")
    ch = desk.roll("challenger", [1])
    assert ch.sides["challenger"]["all_in"] and ch.wager("challenger") == 5
    ch = desk.roll("opponent", [1])
    # PA-12, PA-22: wagers brought level; the last penny drawn (bob's) goes back first
    assert ch.wager("challenger") == ch.wager("opponent") == 4
    assert ch.sides["challenger"]["contributions"] == {"ann": 2, "bob": 2} and desk.piles["bob"] == 1
    desk.keep("challenger")
    assert desk.keep("opponent").phase == "new-circumstances"  # PA-12: no betting after an all-in


def test_pa20_a_side_never_antes_above_the_other_sides_all_in_wager():
    desk = Desk(side("ann", "bob"), side("cy"), 4, {"ann": 1, "bob": 1, "cy": 25})
    desk.declare("challenger")
    desk.declare("opponent")
    desk.roll("challenger", [1])
    ch = desk.roll("opponent", [1])
    assert ch.wager("opponent") == 2 and desk.piles["cy"] == 23 and not ch.sides["opponent"]["all_in"]


@pytest.mark.parametrize("alliance_first", [False, True])
def test_pa20_an_all_in_ante_above_the_other_sides_full_ante_is_brought_level(alliance_first):
    desk = Desk(side("cy"), side("ann", "bob", "dee"), 4, {"ann": 1, "bob": 1, "dee": 5, "cy": 25})
    desk.declare("challenger")
    desk.declare("opponent")
    order = ["opponent", "challenger"] if alliance_first else ["challenger", "opponent"]
    desk.roll(order[0], [1])
    ch = desk.roll(order[1], [1])
    # the alliance owes 12 and holds 7: all in, and never more in than cy's 4 (PA-12), the last drawn back first
    assert ch.sides["opponent"]["all_in"] and ch.wager("opponent") == ch.wager("challenger") == 4
    assert desk.piles == {"ann": 0, "bob": 0, "dee": 3, "cy": 21}


def test_pa20_an_indirect_house_antes_from_its_stake_and_bets_no_more_than_is_left():
    desk = Desk(side("Sen", antagonist=True), side("ilse"), 2, {"Sen": 40, "ilse": 25}, stake=6)
    desk.to_betting()
    (raise_,) = [a for a in desk.legal("house") if a["action"] == "raise"]
    assert raise_["max"] == 4  # PA-17: 6 devoted, 2 anted


# -- PA-21: unequal wagers at the opening of a round --------------------------------------------------------
def test_pa21_the_side_with_the_higher_wager_may_check_and_the_other_must_then_answer():
    desk = Desk(side("ann", "bob"), side("cy"), 1, {"ann": 10, "bob": 10, "cy": 10})
    desk.to_betting()
    assert "check" in desk.actions("ann")
    ch = desk.bet("challenger", "check")
    assert ch.turn == "opponent" and desk.actions("cy") == ["call", "raise", "fold"]
    with pytest.raises(RuleViolation, match="PA-9: a check needs equal wagers"):
        desk.bet("opponent", "check")
    assert desk.bet("opponent", "call").phase == "new-circumstances"


def test_pa21_the_side_with_the_lower_wager_acting_first_cannot_check():
    desk = Desk(side("cy"), side("ann", "bob"), 1, {"ann": 10, "bob": 10, "cy": 10})
    desk.to_betting()
    assert "check" not in desk.actions("cy")
    ch = desk.bet("challenger", "call")
    assert ch.phase == "betting-1" and ch.turn == "opponent"  # the other side has not acted yet
    assert desk.bet("opponent", "check").phase == "new-circumstances"


# -- PA-22: the uncalled excess goes back in the reverse of the order drawn ------------------------------------
def test_pa22_an_alliances_uncalled_excess_goes_back_last_drawn_first():
    desk = Desk(side("ann", "bob"), side("cy"), 1, {"ann": 2, "bob": 25, "cy": 5})
    desk.to_betting()
    desk.bet("challenger", "raise", 6)  # drawn ann, bob, bob, bob, bob, bob after the antes ann, bob
    ch = desk.bet("opponent", "all-in")  # cy calls 4 of 7: three pennies go back, all bob's
    assert ch.sides["challenger"]["contributions"] == {"ann": 2, "bob": 3}
    assert desk.piles == {"ann": 0, "bob": 22, "cy": 0}


# -- PA-23 ------------------------------------------------------------------------------------------------------
def test_pa23_a_sides_first_circumstance_may_be_declared_until_its_own_first_roll():
    desk = Desk(side("ann"), side("cy"), 1, {"ann": 10, "cy": 10})
    desk.declare("challenger")
    desk.declare("opponent")
    desk.roll("challenger", [3])
    assert "circumstance" in desk.actions("cy") and "circumstance" not in desk.actions("ann")
    with pytest.raises(RuleViolation, match="PA-7: this side has already rolled at this step"):
        desk.circumstance("challenger", "Late")
    desk.circumstance("opponent", "Fog")
    ch = desk.roll("opponent", [2, 6])  # its own die, then the fog's
    assert ch.circumstances[0]["die"] == 6


def test_pa23_the_house_may_not_double_down_beyond_the_stake_it_has_left():
    desk = Desk(side("Sen", antagonist=True), side("ilse"), 1, {"Sen": 40, "ilse": 25}, stake=6)
    desk.to_betting()
    desk.bet("challenger", "raise", 3)
    desk.bet("opponent", "call")  # the House has 4 in, 2 of its stake left
    assert "double-down" not in desk.actions("house") and "circumstance" in desk.actions("house")
    with pytest.raises(RuleViolation, match="PA-23: doubling down costs 4 pennies, beyond the 2 left"):
        desk.circumstance("challenger", "Rooftops", double_down=True)


def test_pa23_an_antagonist_left_with_nothing_never_goes_bankrupt():
    desk = Desk(side("ilse"), side("Rock", antagonist=True), 1, {"ilse": 25, "Rock": 5})
    desk.to_betting(first=[6], second=[1])
    desk.bet("challenger", "raise", 10)
    desk.bet("opponent", "all-in")
    desk.roll("challenger", [])
    desk.roll("opponent", [])
    ch = desk.settle()
    assert desk.piles["Rock"] == 0 and ch.settled and ch.bankrupts == {}


# -- PA-24 ------------------------------------------------------------------------------------------------------
def test_pa24_after_a_fold_that_leaves_the_folder_bankrupt_and_taking_debt_the_winner_narrates():
    desk = Desk(side("ilse"), side("tomas"), 1, {"ilse": 3, "tomas": 25}, lists={"ilse": ["Whip"]})
    desk.to_betting()
    desk.bet("challenger", "raise", 2)  # Ilse has nothing left
    desk.bet("opponent", "raise", 1)
    desk.bet("challenger", "fold")
    ch = desk.settle()
    assert ch.phase == "bankruptcy" and list(ch.bankrupts) == ["ilse"]
    ch.take_debt("ilse", {"tomas": uuid4()}, "ilse")
    desk.mirror()
    desk.pay_out()
    assert ch.result["narrator"] == "opponent"  # PA-15 over PA-10: the winner narrates
    assert desk.piles == {"ilse": 3, "tomas": 25}


def test_pa24_bankruptcy_is_judged_member_by_member():
    desk = Desk(side("ann", "bob"), side("cy"), 2, {"ann": 2, "bob": 25, "cy": 25}, lists={"ann": ["A"], "bob": ["B"]})
    desk.to_betting(first=[1], second=[6])
    desk.bet("challenger", "check")
    desk.bet("opponent", "call")
    desk.roll("challenger", [])
    desk.roll("opponent", [])
    desk.bet("challenger", "check")
    ch = desk.bet("opponent", "check")
    ch = desk.settle()
    assert ch.phase == "bankruptcy" and list(ch.bankrupts) == ["ann"] and desk.piles["bob"] > 0


def bankrupt_without_characteristics(house: int = 40, **kw: Any) -> Desk:
    desk = Desk(side("ilse"), side("tomas"), 1, {"ilse": 3, "tomas": 25, "mara": 30}, house=house,
                lists={"ilse": []}, **kw)
    desk.to_betting(first=[1], second=[6])
    desk.bet("challenger", "raise", 2)
    desk.bet("opponent", "call")
    desk.roll("challenger", [])
    desk.roll("opponent", [])
    desk.bet("challenger", "check")
    desk.bet("opponent", "check")
    return desk


def test_pa24_a_bankrupt_with_no_characteristic_is_offered_no_buyout_only_the_debt():
    desk = bankrupt_without_characteristics()
    ch = desk.settle()
    assert ch.bankrupts["ilse"]["bids"] == []  # the House's one-penny bid is not placed
    assert desk.actions("ilse", characteristics={"ilse": []}) == ["debt"]
    assert desk.actions("ilse") == ["debt"]  # a lone character's list is his side's list
    assert "bid" not in desk.actions("mara", characteristics={"ilse": []})
    with pytest.raises(RuleViolation, match="PA-24: ilse has no characteristic to give up"):
        ch.bid("mara", "ilse", 2, 30, "mara", characteristics=[])


def test_pa24_a_buyout_is_neither_listed_nor_accepted_without_a_characteristic_to_give_up():
    desk = bankrupt_without_characteristics()
    ch = desk.settle(characteristics=False)  # settled without the lists: the House still bids
    assert ch.bankrupts["ilse"]["bids"] == [{"bidder": "house", "amount": 1}]
    legal = desk.ch.legal_actions("ilse", desk.piles, 0, {}, characteristics={"ilse": []})
    assert [a["action"] for a in legal] == ["debt"]
    with pytest.raises(RuleViolation, match="PA-24: ilse has no characteristic to give up"):
        ch.accept_buyout("ilse", "", [], 40, "ilse")
    legal = desk.ch.legal_actions("ilse", desk.piles, 0, {}, characteristics={"ilse": ["Whip"]})
    assert legal[-1] == {"action": "buyout", "member": "ilse", "best_bid": {"bidder": "house", "amount": 1},
                         "choices": ["Whip"]}


def test_pa24_the_old_positional_legal_actions_signature_still_works():
    desk = bankrupt_without_characteristics()
    desk.settle(characteristics=False)
    assert [a["action"] for a in desk.ch.legal_actions("ilse", desk.piles, 0, {})] == ["debt", "buyout"]


# -- C-9: a side the House plays adds no seed, first or last ----------------------------------------------------
def test_c9_the_house_adds_no_seed_after_a_players_seed_is_known():
    desk = Desk(side("Sen", antagonist=True), side("ilse"), 1, {"Sen": 40, "ilse": 25})
    desk.declare("challenger")  # C-9: the House's characteristics come before the player's seed
    desk.ch.add_seed("opponent", "ilse's words", "ilse")
    assert "seed" not in desk.actions("house")
    with pytest.raises(RuleViolation, match="C-9: the House can read the service's secret seed"):
        desk.ch.add_seed("challenger", "fishing", "house")


def test_c9_the_house_adds_no_seed_even_first_and_the_player_still_may():
    desk = Desk(side("Sen", antagonist=True), side("ilse"), 1, {"Sen": 40, "ilse": 25})
    assert "seed" not in desk.actions("house")
    with pytest.raises(RuleViolation, match="C-9"):
        desk.ch.add_seed("challenger", "house words chosen knowing the secret", "house")
    desk.declare("challenger")  # C-9: the House's characteristics come before the player's seed
    assert "seed" in desk.actions("ilse")
    desk.ch.add_seed("opponent", "ilse's words", "ilse")
    assert desk.ch.side_seeds() == ["", "ilse's words"]


# -- C-9: the House fixes what goes into its roll (characteristics, first circumstance) before a player's input --
def service_desk() -> Desk:
    return Desk(side("ilse"), side("Sen", antagonist=True), 1, {"Sen": 40, "ilse": 25}, table=False,
                lists={"ilse": ["Whip"], "Sen": ["Poison", "Cunning"]})


def test_c9_a_players_seed_or_pass_is_refused_and_not_offered_while_the_house_owes_its_characteristics():
    desk = service_desk()
    desk.declare("challenger", ["Whip"])
    assert desk.actions("house")[0] == "declare"
    assert not {"seed", "pass"} & set(desk.actions("ilse"))
    for give in (lambda: desk.ch.add_seed("challenger", "ilse's words", "ilse"),
                 lambda: desk.ch.give_input("challenger", None, "ilse")):
        with pytest.raises(RuleViolation, match=r"C-9: the House declares its characteristics \(the opponent\)"):
            give()
    assert desk.ch.seed_of("challenger") is None and not list(desk.ch.collect_events())  # nothing stored
    desk.declare("opponent", ["Poison"])
    assert {"seed", "pass"} <= set(desk.actions("ilse"))
    desk.ch.add_seed("challenger", "ilse's words", "ilse")
    assert desk.ch.side_seeds() == ["ilse's words", ""]


def test_c9_the_houses_first_circumstance_is_refused_and_not_offered_once_a_players_input_is_known():
    for player_input in ("ilse's words", None):
        desk = service_desk()
        desk.declare("challenger", ["Whip"])
        desk.declare("opponent", ["Poison"])
        assert "circumstance" in desk.actions("house")
        desk.ch.give_input("challenger", player_input, "ilse")
        desk.mirror()
        assert "circumstance" not in desk.actions("house")
        with pytest.raises(RuleViolation, match="C-9: the House's first circumstance comes before a player's seed"):
            desk.circumstance("opponent", "Fog")
        assert desk.ch.circumstances == [] and not list(desk.ch.collect_events())
        desk.circumstance("challenger", "Rain")  # a player's circumstance is no input the House chose
        assert [c["side"] for c in desk.ch.circumstances] == ["challenger"]


def test_c9_the_houses_first_circumstance_before_any_players_input_is_accepted_and_rolled():
    desk = service_desk()
    desk.declare("challenger", ["Whip"])
    desk.declare("opponent", ["Poison"])
    desk.circumstance("opponent", "Fog")
    desk.ch.add_seed("challenger", "ilse's words", "ilse")
    desk.mirror()
    desk.roll("opponent")
    assert desk.ch.circumstances[0]["die"] is not None
