"""Legal actions and refusals agree (verify / can / do): random seats try random moves with random arguments,
inside and outside the listed limits, on the aggregates themselves. A move within what the seat's legal
actions list is accepted; any other is refused with a RuleViolation. Pennies are conserved (PA-19) and
every game ends."""

from __future__ import annotations

from typing import Any
from uuid import uuid4

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.errors import RuleViolation
from domain.fairness import commitment
from domain.systems.penny_ante.challenge import Challenge
from domain.systems.pool.rolls import PoolContest
from tests.unit.test_challenge_rulings_pa20_24 import side

SECRET = "c3" * 32
SIDE_MOVES = ("seed", "pass", "circumstance", "double-down", "declare", "roll", "keep", "check", "call", "raise", "fold",
              "all-in")
ANY_SEAT = ("lend", "bid", "debt", "buyout")
SETUPS = [
    (side("ann"), side("bob"), False),
    (side("ann", "bob"), side("Sen", antagonist=True), False),
    (side("Sen", antagonist=True), side("ann"), False),
    (side("Sen", antagonist=True), side("ann", "bob"), True),  # indirect (PA-17)
    (side("ann"), side("bob", "cy"), False),
]
PLAYERS = ("ann", "bob", "cy", "dee", "eve")  # dee and eve sit outside every challenge
TRAITS = ("Quick", "Strong", "Sly")


class Game:
    def __init__(self, data: Any) -> None:
        challenger, opponent, indirect = data.draw(st.sampled_from(SETUPS))
        self.ante = data.draw(st.integers(1, 3), label="ante")
        self.piles = {p: data.draw(st.integers(0, 14), label=p) for p in PLAYERS}
        self.piles["Sen"] = data.draw(st.integers(self.ante, 30), label="Sen")
        self.piles["house"] = data.draw(st.integers(0, 20), label="house")
        self.lists = {p: data.draw(st.lists(st.sampled_from(TRAITS), unique=True, max_size=3)) for p in PLAYERS}
        self.lists["Sen"] = ["Poison", "Cunning"]
        stake = data.draw(st.integers(self.ante, self.piles["Sen"]), label="stake") if indirect else None
        self.ch = Challenge.announce(
            campaign_id=uuid4(), adventure=1, challenger=challenger, opponent=opponent, ante=self.ante, stake=stake,
            table=False, seed_hash=commitment(SECRET), secret_seed=SECRET, circumstance=None,
            antagonist_pennies=self.piles["Sen"], actor="x")
        self.before = self.ch.staked()
        self.total = sum(self.piles.values())
        self.paid = False

    # -- what the application would pass in ---------------------------------------------------------
    def side_lists(self, seat: str) -> dict[str, list[str]]:
        s = self.ch.side_of(seat)
        return {s: [n for m in self.ch.sides[s]["members"] for n in self.lists[m]]} if s else {}

    def legal(self, seat: str) -> list[dict[str, Any]]:
        players = {p: self.lists[p] for p in PLAYERS}
        return self.ch.legal_actions(seat, self.piles, self.piles[seat], self.side_lists(seat),
                                     characteristics=players)

    def mirror(self) -> None:
        """As ``Table.mirror`` does: what a move put in leaves the piles, what came back returns."""
        after = self.ch.staked()
        for member, amount in after.items():
            self.piles[member] -= amount - self.before.get(member, 0)
        self.before = after
        if self.ch.settled and not self.paid:
            for member, amount in self.ch.result["payouts"].items():
                self.piles[member] += amount
            self.paid = True

    def settle_if_due(self) -> None:
        if self.ch.awaiting_settlement:
            self.ch.settle(self.piles, self.piles["house"], "x", characteristics={p: self.lists[p] for p in PLAYERS})
            self.mirror()

    def conserved(self) -> bool:
        return sum(self.piles.values()) + (0 if self.ch.settled else self.ch.pot) == self.total

    # -- playing a move ----------------------------------------------------------------------------------
    def play(self, seat: str, action: str, args: dict[str, Any]) -> None:
        ch, piles, s = self.ch, self.piles, self.ch.side_of(seat)
        if action == "seed":
            ch.add_seed(s, "words", seat)
        elif action == "pass":
            ch.pass_seed(s, seat)
        elif action in ("circumstance", "double-down"):
            ch.declare_circumstance(s, "Rain", action == "double-down", piles, seat)
        elif action == "declare":
            ch.declare_characteristics(s, args["names"], self.side_lists(seat)[s], seat)
        elif action == "roll":
            ch.roll(s, piles, args.get("dice"), seat)
        elif action == "keep":
            ch.keep(s, args["cup"], seat)
        elif action in SIDE_MOVES:
            ch.bet(s, action, args.get("amount"), piles, seat)
        elif action == "lend":
            ch.record_loan_offer(uuid4(), seat, args["borrower"], seat, amount=args["amount"], lender_pile=piles[seat])
            piles[seat] -= args["amount"]  # accepted at once: the pennies move (PA-14)
            piles[args["borrower"]] += args["amount"]
        elif action == "bid":
            ch.bid(seat, args["member"], args["amount"], piles[seat], seat, characteristics=self.lists[args["member"]])
        elif action == "abandon":  # C-10, PA-19: the House ends it; the pot goes back as it came (mirror)
            ch.abandon("the scene moved on", seat)
        elif action == "debt":
            ch.verify_bankruptcy(seat)
            ch.take_debt(seat, {c: uuid4() for c in ch.creditors(seat)[0]}, seat)
        else:  # buyout
            ch.verify_bankruptcy(seat)
            best = ch.best_bid(seat)
            bidder_pile = piles[best["bidder"]] if best else 0
            best = ch.accept_buyout(seat, args["give_up"], self.lists[seat], bidder_pile, seat)
            piles[best["bidder"]] -= best["amount"]
            piles[seat] += best["amount"]
            self.lists[seat] = [c for c in self.lists[seat] if c != ch.bankrupts[seat]["surrendered"]]
        self.mirror()


def within(legal: list[dict[str, Any]], seat: str, action: str, args: dict[str, Any]) -> bool:
    """Whether the move and its arguments lie inside what the legal actions list."""
    entries = [e for e in legal if e["action"] == action]
    if not entries:
        return False
    e = entries[0]
    if action == "roll":
        return args.get("dice") is None
    if action == "declare":
        folded = [str(n).casefold() for n in args["names"]]
        return (len(folded) <= e["max"] and len(set(folded)) == len(folded)
                and all(n in [c.casefold() for c in e["choices"]] for n in folded))
    if action == "keep":
        cup = args["cup"]
        return (len(set(cup)) == len(cup) and all(i in e["choices"] for i in cup)
                and ("required" not in e or sorted(cup) == e["required"]))
    if action == "raise":
        return args["amount"] in range(e["min"], e["max"] + 1, e["step"])
    if action == "lend":
        return e["min"] <= args["amount"] <= e["max"] and args["borrower"] in e["borrowers"]
    if action == "bid":
        return any(b["member"] == args["member"] and b["min"] <= args["amount"] <= b["max"] for b in entries)
    if action == "buyout":
        return str(args["give_up"]).casefold() in [c.casefold() for c in e["choices"]]
    return True


def listed_arguments(data: Any, game: Game, e: dict[str, Any]) -> dict[str, Any]:
    action = e["action"]
    if action == "declare":
        return {"names": data.draw(st.lists(st.sampled_from(e["choices"]), unique=True, max_size=e["max"]))
                if e["choices"] else []}
    if action == "keep":
        return {"cup": e.get("required") or data.draw(st.lists(st.sampled_from(e["choices"]), unique=True))
                if e["choices"] else []}
    if action == "raise":
        return {"amount": data.draw(st.sampled_from(range(e["min"], e["max"] + 1, e["step"])))}
    if action in ("lend", "bid"):
        who = data.draw(st.sampled_from(e["borrowers"])) if action == "lend" else e["member"]
        return {"amount": data.draw(st.integers(e["min"], e["max"])), ("borrower" if action == "lend" else "member"): who}
    if action == "buyout":
        return {"give_up": data.draw(st.sampled_from(e["choices"]))}
    return {}


def any_arguments(data: Any, game: Game, seat: str, action: str) -> dict[str, Any]:
    ch, pile = game.ch, game.piles[seat]
    if action == "declare":
        names = st.sampled_from([*TRAITS, "Poison", "cunning", "Bogus"])
        return {"names": data.draw(st.lists(names, max_size=6))}
    if action == "roll":
        return {"dice": data.draw(st.sampled_from([None, None, [3]]))}
    if action == "keep":
        s = ch.side_of(seat)
        return {"cup": data.draw(st.lists(st.integers(-1, len(ch.sides[s]["dice"])), max_size=3))}
    if action == "raise":
        return {"amount": data.draw(st.integers(-1, 2 * game.ante + sum(game.piles.values()) // 4))}
    if action == "lend":
        return {"borrower": data.draw(st.sampled_from([*PLAYERS, "house"])), "amount": data.draw(st.integers(-1, pile + 2))}
    if action == "bid":
        return {"member": data.draw(st.sampled_from(PLAYERS)), "amount": data.draw(st.integers(-1, pile + 2))}
    if action == "buyout":
        return {"give_up": data.draw(st.sampled_from([*TRAITS, "Bogus"]))}
    return {}


@settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_a_listed_move_is_accepted_an_unlisted_one_refused_pennies_are_conserved_and_the_game_ends(data):
    game = Game(data)
    seats = [*PLAYERS, "house"]
    for turn in range(400):
        game.settle_if_due()
        if game.ch.settled:
            break
        if turn >= 150:  # wind down: a listed move, a fold where there is one
            seat = data.draw(st.sampled_from([s for s in seats if game.legal(s)]), label="seat")
        else:
            seat = data.draw(st.sampled_from(seats), label="seat")
        legal = game.legal(seat)
        if turn >= 150:
            e = next((e for e in legal if e["action"] in ("fold", "debt")), None) or legal[0]
            action, args = e["action"], listed_arguments(data, game, e)
        elif legal and data.draw(st.integers(0, 9), label="listed?") < 6:
            e = data.draw(st.sampled_from(legal), label="move")
            action, args = e["action"], listed_arguments(data, game, e)
        else:
            moves = [*SIDE_MOVES, *ANY_SEAT] if game.ch.side_of(seat) else list(ANY_SEAT)
            action = data.draw(st.sampled_from(moves), label="move")
            args = any_arguments(data, game, seat, action)
        expected = within(legal, seat, action, args)
        try:
            game.play(seat, action, args)
        except RuleViolation as refusal:
            assert not expected, f"{seat} {action} {args} was listed in {legal} but refused: {refusal}"
            assert refusal.ruling
        else:
            assert expected, f"{seat} {action} {args} was not listed in {legal} but accepted"
        assert game.conserved(), "PA-19"
        assert all(n >= 0 for n in game.piles.values())
    assert game.ch.settled


# -- the Pool's opposed contest (PL-8) ------------------------------------------------------------------------
class Stub:
    """What a contest reads of a character: his seat, pool and traits."""

    def __init__(self, seat: str, pool: int) -> None:
        self.seat, self.name, self.pool = seat, seat, pool

    def rating_of(self, trait: str | None) -> tuple[str | None, int]:
        return None, 0


def contest_within(legal: list[dict[str, Any]], action: str, args: dict[str, Any]) -> bool:
    entry = next((e for e in legal if e["action"] == action), None)
    if entry is None:
        return False
    return action != "roll" or (isinstance(args["count"], int) and entry["min"] <= args["count"] <= entry["max"])


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data(), mode=st.sampled_from(["tiers", "highest"]))
def test_a_contests_listed_moves_are_accepted_and_the_others_refused_and_it_ends(data, mode):
    pools = {"ann": data.draw(st.integers(0, 8)), "bob": data.draw(st.integers(0, 8))}
    contest = PoolContest.open(campaign_id=uuid4(), adventure=1, challenger="ann", opponent="bob", mode=mode,
                               secret_seed=SECRET, table=False, actor="ann")
    if min(pools.values()) < 2:
        pools = {seat: max(n, 2) for seat, n in pools.items()}  # PL-1: a pool never below two
    for turn in range(300):
        if contest.settled:
            break
        seats = ["ann", "bob", "house"]
        if turn >= 100:  # wind down: a listed move, ending the contest where one can
            seats = [s for s in seats if contest.legal_actions(s, pools.get(s, 0))]
        seat = data.draw(st.sampled_from(seats))
        legal = contest.legal_actions(seat, pools.get(seat, 0))
        if turn >= 100:
            action = next((e["action"] for e in legal if e["action"] in ("fold", "interrupt")), legal[-1]["action"])
            args = {"count": 2}
        else:
            moves = ["reroll", "interrupt", "abandon"] if seat == "house" else ["seed", "pass", "roll", "fold", "push"]
            action = data.draw(st.sampled_from(moves))
            pool = pools.get(seat, 0)
            args = {"count": data.draw(st.sampled_from([0, 1, 2, 3, pool, pool + 1, True]))}
        expected = contest_within(legal, action, args)
        side_ = contest.side_of(seat)
        try:
            if action in ("reroll", "interrupt"):
                contest.break_tie(action, seat)
            elif action == "abandon":  # C-10: the House's, at any step of an open contest
                contest.abandon("the scene moved on", seat, pools={s: pools[d["seat"]]
                                                                   for s, d in contest.sides.items()})
            elif action == "seed":
                contest.add_seed(side_, "words", seat)
            elif action == "pass":  # C-10: either input lets the other side's first roll come
                contest.pass_seed(side_, seat)
            elif action == "roll":
                contest.roll(side_, Stub(seat, pools[seat]), args["count"], None, None, seat)
                pools[seat] -= contest.sides[side_]["last"]["lost"]
            else:
                contest.answer(side_, action, seat)
        except RuleViolation:
            assert not expected, f"{seat} {action} {args} listed in {legal} but refused"
        else:
            assert expected, f"{seat} {action} {args} not listed in {legal} but accepted"
        assert all(n >= 2 for n in pools.values())
    assert contest.settled
