"""Undo in Twenty-one: a rewind deals and reshuffles the same cards again (C-6, C-7), what every seat saw stays
public (C-8), holds spent come back, an overturn voids an action (C-6), and verify recomputes every shuffle (C-4)."""

from __future__ import annotations

import pytest

from domain.errors import RuleViolation
from domain.systems.twenty_one.cards import pretty
from tests.unit.twenty_one_game import Game, stacked


def _try(game: Game, seat: str, action: str, **inputs):
    """A move; with table cards, when the deck runs out, again with the discards entered as reshuffled (C-3)."""
    conflict = game.conflict
    # the move's own draws take the discards as they lie; a refill's reshuffle is the House's step
    for reshuffle in (None, conflict.discard[::-1]):
        try:
            after = game.act(seat, action, **inputs, **({"reshuffle": reshuffle} if reshuffle else {}))
        except RuleViolation as refused:
            if refused.ruling != "C-3":
                raise
            continue
        if after.phase == "reshuffle":  # TO-9: the refill waits for the House's reshuffle
            after = game.act("house", "reshuffle", reshuffle=after.discard[::-1])
        return after
    raise AssertionError("no reshuffle was accepted")


def _move(game: Game, seat: str) -> None:
    """One whole action: lay the first cards of the hand, then draw until bust (or stand on an empty table)."""
    hand = game.conflict.hands[seat]
    conflict = _try(game, seat, "lay", cards=hand[:min(2, len(hand))])
    while conflict.action is not None:
        moves = [m["action"] for m in conflict.legal_actions(seat)]
        conflict = _try(game, seat, "draw" if "draw" in moves else "stand")


def play_until_reshuffled(game: Game) -> int:
    """Plays whole rounds until the discards were reshuffled once; returns the step before that move."""
    for _ in range(60):
        for seat in game.seats:
            before = game.conflict.version
            _move(game, seat)
            if game.conflict.shuffled:
                return before
    raise AssertionError("the deck never ran out")


def test_a_rewind_deals_the_same_cards_again():  # C-6, C-7
    game = Game(table=False)
    game.act("ilse", "seed", seed="ilse's luck")
    dealt = game.inputs().hands
    assert game.rewind(2).phase == "seeding"
    with pytest.raises(RuleViolation) as closed:
        game.act("tomas", "seed", seed="now that I know")
    assert closed.value.ruling == "C-4"
    assert game.act("house", "deal").hands == dealt


def test_a_reshuffle_mid_conflict_is_its_own_slot_and_a_rewind_reshuffles_identically():  # TO-1, C-7
    game = Game(table=False)
    game.inputs()
    step = play_until_reshuffled(game)
    first = game.conflict
    assert [s["slot"] for s in first.shuffles] == [["shuffle", 0], ["shuffle", 1]]
    deck, hands = list(first.deck), {k: list(v) for k, v in first.hands.items()}
    game.conserved()
    game.rewind(step)
    assert game.conflict.shuffled == 0
    seat = first.results[-1]["seat"] if first.action is None else first.action["actor"]
    _move(game, seat)
    again = game.conflict
    assert again.shuffles[-1]["value"] == first.shuffles[-1]["value"]
    assert (again.deck, again.hands) == (deck, hands)
    game.act("house", "end")
    checked = game.conflict.verify()
    assert checked["mismatches"] == [] and checked["commitment_matches"] and checked["checked"] == 3


def test_a_table_deck_is_reshuffled_as_entered_when_it_runs_out():  # TO-1, C-3
    game = Game(table=True)
    game.act("house", "deal", deck=stacked())
    play_until_reshuffled(game)
    record = game.conflict.shuffles[-1]
    assert record["entered"] and record["slot"] == ["shuffle", 1]
    game.conserved()


def test_cards_every_seat_saw_stay_public_after_a_rewind_marked_as_such():  # C-8
    game = Game(table=False)
    game.inputs()
    step = game.conflict.version
    hand = list(game.conflict.hands["ilse"])
    game.act("ilse", "lay", cards=hand[:2])
    conflict = game.rewind(step)
    assert conflict.hands["ilse"] == hand
    for viewer in ("tomas", "house"):
        seen = conflict.view_for(viewer)["hands"]["ilse"]
        assert seen == [{"card": hand[0], "seen_before_rewind": True}, {"card": hand[1], "seen_before_rewind": True},
                        {"card": None}]
    assert conflict.view_for("ilse")["hands"]["ilse"][2] == {"card": hand[2]}


def test_holds_spent_after_the_step_come_back_on_a_rewind():  # C-6, TO-8
    game = Game(holds=1)
    game.act("house", "deal", deck=stacked("10S", "2S", "7S"))
    game.act("ilse", "lay", cards=["10S", "2S"])
    step = game.conflict.version
    game.act("ilse", "hold", set_aside=True)
    assert game.holds("ilse") == 0
    game.rewind(step)
    assert game.holds("ilse") == 1 and game.conflict.action["laid"] == ["10S", "2S"]


def test_an_ended_conflict_is_voided_with_a_reason_once_and_its_holds_come_back():  # C-6 (issue 30, item 4)
    game = Game(holds=1)
    game.act("house", "deal", deck=stacked("10S", "7S", "2S"))
    game.act("ilse", "lay", cards=["10S", "7S"])
    game.act("ilse", "hold", set_aside=True)
    game.act("ilse", "stand")
    with pytest.raises(RuleViolation) as open_one:  # an open conflict is rewound, not voided
        game.app.execute(*_overturn(game, "too soon"))
    assert open_one.value.ruling == "C-6"
    game.act("house", "end")
    assert game.holds("ilse") == 0
    game.app.execute(*_overturn(game, "the guard was asleep"))
    assert game.conflict.voided == "the guard was asleep"
    assert [r["overturned"] for r in game.conflict.results] == ["the guard was asleep"]
    assert game.holds("ilse") == 1  # the sheet follows the void (C-6)
    with pytest.raises(RuleViolation) as again:
        game.app.execute(*_overturn(game, "once more"))
    assert again.value.ruling == "C-6"


def test_a_conflict_ended_before_any_action_is_voided():  # C-6 (issue 30, item 4)
    game = Game()
    game.act("house", "deal", deck=stacked("10S", "7S", "2S"))
    game.act("house", "end")
    game.app.execute(*_overturn(game, "it never happened"))
    assert game.conflict.voided == "it never happened" and game.conflict.settled


def _overturn(game: Game, reason: str):
    from domain.kernel.commands import Context
    from domain.kernel.common import Overturn
    from domain.seats import Seat

    return Context(game.cid, Seat.house()), Overturn(unit=game.unit, void=True, reason=reason)


def test_an_ended_conflict_is_not_rewound():  # C-6
    game = Game(table=False)
    game.inputs()
    game.act("house", "end")
    with pytest.raises(RuleViolation) as refused:
        game.rewind(2)
    assert refused.value.ruling == "C-6"


def test_a_rewind_between_the_last_order_card_and_the_order_it_settles_is_refused():  # C-6, TO-3
    """The last order card and the order it settles are one move: stopping between them would leave a
    conflict where nobody can act."""
    game = Game(table=False)
    game.inputs()
    game.act("house", "order", actors=["ilse", "tomas"])
    game.act("ilse", "order-card", card=game.conflict.hands["ilse"][0])
    inside = game.act("tomas", "order-card", card=game.conflict.hands["tomas"][0]).version - 1
    assert game.conflict.phase == "play"
    with pytest.raises(RuleViolation, match="C-6: step .* is inside one move"):
        game.rewind(inside)
    assert game.rewind(inside - 1).phase == "ordering"
    assert [m["action"] for m in game.conflict.legal_actions("tomas")] == ["order-card"]


def test_a_rewind_that_would_show_cards_every_seat_saw_is_refused_naming_them_until_the_house_says_so():  # C-8
    game = Game(table=False)
    game.inputs()  # the last pass deals (C-10): a service deal is never the House's by hand
    step = game.conflict.version
    hand = list(game.conflict.hands["ilse"])
    game.act("ilse", "lay", cards=hand[:2])
    version = game.conflict.version
    with pytest.raises(RuleViolation) as refused:
        game.rewind(step, reveal=False)
    assert refused.value.ruling == "C-8" and all(pretty(card) in str(refused.value) for card in hand[:2])  # as written
    assert pretty(hand[2]) not in str(refused.value)  # only what every seat saw is named, never where it goes (C-5)
    assert game.conflict.version == version  # nothing stored
    assert game.rewind(step, reveal=True).hands["ilse"] == hand


def test_a_rewind_that_shows_no_card_anew_goes_ahead_without_a_warning():  # C-8
    game = Game(table=False)
    game.inputs()  # the last pass deals (C-10): a service deal is never the House's by hand
    step = game.conflict.version
    hand = list(game.conflict.hands["ilse"])
    game.act("ilse", "lay", cards=hand[:2])
    game.rewind(step, reveal=True)  # the laid cards are public from now on, wherever they go (C-8)
    later = game.conflict.version
    game.act("ilse", "lay", cards=hand[:2])
    assert game.rewind(later, reveal=False).version > later  # the same cards, seen already: no warning


def test_an_action_overturned_in_a_stored_log_still_replays():  # C-6: the shape stored before issue 30
    game = Game()
    game.act("house", "deal", deck=stacked("10S", "7S", "2S"))
    game.act("ilse", "lay", cards=["10S", "7S"])
    game.act("ilse", "stand")
    stored = game.conflict
    stored._action_overturned(index=0, reason="the old overturn", actor="house")  # as the old code recorded it
    game.app.save(stored)
    replayed = game.app.repository.get(game.unit)
    assert replayed.results[0]["overturned"] == "the old overturn" and replayed.voided is None
    assert not replayed.settled
