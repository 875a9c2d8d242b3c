"""Twenty-one under random play (TO-1 … TO-15): what a seat's legal actions list is accepted, any other move is
refused with nothing recorded; the 52 cards are conserved and never in two places; random legal play ends."""

from __future__ import annotations

from typing import Any
from uuid import uuid4

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.errors import StakesError
from domain.seats import Seat
from domain.systems.twenty_one.cards import DECK
from domain.systems.twenty_one.conflict import Conflict
from domain.systems.twenty_one.system import TwentyOne

SYSTEM = TwentyOne()

MOVES = ("seed", "pass", "deal", "order", "order-card", "lay", "draw", "stand", "hold", "keep", "assist", "hinder",
         "modifier", "end", "abandon")


def do(conflict: Conflict, seat: str, move: dict[str, Any], holds: dict[str, int]) -> None:
    """A move as the application runs it: who may issue it (the command's class), then the handler
    (``domain/systems/twenty_one/play.py``)."""
    name = move["action"]
    SYSTEM.action(conflict, name).authorize(Seat(seat))
    if name == "seed":
        conflict.add_seed(seat, move["seed"], seat)
    elif name == "pass":
        conflict.pass_seed(seat, seat)
    elif name == "deal":
        conflict.deal(None, seat)
    elif name == "order":
        conflict.call_order(None, seat)
    elif name == "order-card":
        conflict.lay_for_order(seat, move["card"], None, seat)
    elif name == "lay":
        conflict.lay(seat, move["cards"], None, seat)
    elif name in ("draw", "stand"):
        getattr(conflict, name)(seat, None, seat)
    elif name == "hold":
        conflict.use_hold(seat, move["use"], holds.get(seat, 0), None, seat)
        holds[seat] -= 1
    elif name == "keep":
        conflict.keep(seat, move["keep"], None, seat)
    elif name in ("assist", "hinder"):
        conflict.replace(seat, name, move["card"], None, seat)
    elif name == "modifier":
        conflict.add_modifier(move["value"], "the ground", seat)
    elif name == "abandon":
        conflict.abandon("the scene moved on", seat)
    else:
        conflict.end(seat)


def inputs(data: Any, conflict: Conflict, seat: str, listed: dict[str, Any] | None, name: str) -> dict[str, Any]:
    """Inputs for a move: drawn from what the listing offers, or from the seat's hand when it is not listed."""
    offered = (listed or {}).get("choices")
    hand = list(conflict.hands.get(seat, [])) or ["AS"]
    def pick(xs: list[Any]) -> Any:
        return data.draw(st.sampled_from(xs))

    move: dict[str, Any] = {"action": name, "seed": "mine"}
    if name in ("order-card", "assist", "hinder"):
        move["card"] = pick(offered or hand)
    elif name == "lay":
        count = listed["min"] if listed else min(2, len(hand))
        move["cards"] = data.draw(st.permutations(offered or hand))[:count]
    elif name == "hold":
        move["use"] = pick(offered or ["set-aside", "draw"])
    elif name == "keep":
        move["keep"] = pick([True, False])
    elif name == "modifier":
        move["value"] = pick([-1, 1])
    return move


def assert_cards_conserved(conflict: Conflict) -> None:
    every = [x for cards in conflict.places().values() for x in cards]
    assert len(every) == len(DECK) and set(every) == set(DECK), conflict.places()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_listed_moves_are_accepted_unlisted_refused_and_the_52_cards_are_conserved(data):
    seats = ["ann", "bob", "cy"][: data.draw(st.integers(1, 3), label="players")]
    conflict = Conflict.open(campaign_id=uuid4(), adventure=1, seats=seats, secret_seed=data.draw(st.text(max_size=8)),
                             table=False, actor="house")
    holds = {s: data.draw(st.integers(0, 2), label=f"holds {s}") for s in seats}
    everyone = ["house", *seats, "outsider"]
    for _ in range(90):
        if conflict.settled:
            break
        offers = {s: conflict.legal_actions(s, holds.get(s, 0)) for s in everyone}
        assert any(offers.values()), "an open conflict always offers someone a move"
        seat = data.draw(st.sampled_from(everyone), label="seat")
        listed = {m["action"]: m for m in offers[seat]}
        unlisted = [m for m in MOVES if m not in listed]
        if unlisted and data.draw(st.integers(0, 3), label="try an unlisted move") == 0:
            name = data.draw(st.sampled_from(unlisted))
            version = conflict.version
            try:
                do(conflict, seat, inputs(data, conflict, seat, None, name), holds)
            except StakesError:
                assert conflict.version == version and not conflict.collect_events()[version:]
                continue
            raise AssertionError(f"{seat}: unlisted {name} was accepted")
        if not listed:
            continue
        names = [n for n in listed if n not in ("end", "abandon") or data.draw(st.integers(0, 15), label="end now") == 0]
        if not names:
            continue
        name = data.draw(st.sampled_from(names), label="move")
        do(conflict, seat, inputs(data, conflict, seat, listed[name], name), holds)
        assert_cards_conserved(conflict)
    # however play went, it can be brought to an end from what is listed
    for _ in range(60):
        if conflict.settled:
            break
        actor = conflict.action["actor"] if conflict.action else None
        if actor:
            listed = {m["action"]: m for m in conflict.legal_actions(actor, holds.get(actor, 0))}
            move = {"action": "keep", "keep": False} if "keep" in listed else {"action": "stand"}
            do(conflict, actor, move, holds)
        elif conflict.ordering is not None:
            seat = next(s for s in conflict.ordering["actors"] if s not in conflict.ordering["laid"])
            do(conflict, seat, {"action": "order-card", "card": conflict.hands[seat][0]}, holds)
        else:
            do(conflict, "house", {"action": "end"}, holds)
        assert_cards_conserved(conflict)
    assert conflict.settled
