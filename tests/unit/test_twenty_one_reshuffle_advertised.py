"""Twenty-one with table cards: a listed move is never refused for its reshuffle (C-3, TO-1, TO-14).

When the deck runs out, a move whose own draws outrun it (a draw, a hold's draw, a short hand laid) is listed
with the discards to enter as reshuffled; a move listed without them needs none. The round's refill never
asks the move for a reshuffle: it waits for the House to enter one as its own step (TO-9), so whether a move
is accepted never hangs on a card the seat cannot see (C-5). Random games follow only what is listed, entering
the listed cards in a random order, and nothing listed is ever refused.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.errors import RuleViolation
from domain.systems.twenty_one.cards import DECK, total
from tests.unit.twenty_one_game import Game

INPUTS = {
    "lay": lambda m, rnd: {"cards": list(m["choices"])[:m["min"]] if len(m["choices"]) == m["min"]
                           else rnd.sample(list(m["choices"]), m["min"])},
    "draw": lambda m, rnd: {},
    "stand": lambda m, rnd: {},
    "order-card": lambda m, rnd: {"card": rnd.choice(m["choices"])},
    "assist": lambda m, rnd: {"replace_with": rnd.choice(m["choices"])},
    "hinder": lambda m, rnd: {"replace_with": rnd.choice(m["choices"])},
    "hold": lambda m, rnd: {rnd.choice(m["choices"]).replace("-", "_"): True},
    "keep": lambda m, rnd: {"keep": rnd.choice(m["choices"])},
    "reshuffle": lambda m, rnd: {},
}


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10_000), seats=st.integers(1, 3))
def test_a_listed_move_with_table_cards_is_never_refused_for_its_reshuffle(seed, seats):
    rnd = random.Random(seed)
    names = ["ilse", "tomas", "mara"][:seats]
    game = Game(seats=names, table=True, holds=1)
    deck = list(DECK)
    rnd.shuffle(deck)
    game.act("house", "deal", deck=deck)
    reshuffled = 0
    for _ in range(300):
        conflict = game.conflict
        listed = [(seat, m) for seat in [*names, "house"] for m in conflict.legal_actions(seat, 0 if seat == "house" else game.holds(seat))
                  if m["action"] in INPUTS]
        if not listed:
            break
        seat, move = rnd.choice(listed)
        inputs = INPUTS[move["action"]](move, rnd)
        if move.get("reshuffle") is not None:
            inputs["reshuffle"] = rnd.sample(move["reshuffle"], len(move["reshuffle"]))
            reshuffled += 1
        try:
            game.act(seat, move["action"], **inputs)
        except RuleViolation as refused:
            raise AssertionError(f"{seat} {move} {inputs}: listed, then refused: {refused}") from refused
        game.conserved()
    assert game.conflict.shuffled == reshuffled  # every reshuffle made was one the view listed


def _to_the_last_card(seed: int) -> Game:
    """One player, table cards: whole rounds (lay two, stand) until one card is left, then two laid."""
    deck = list(DECK)
    random.Random(seed).shuffle(deck)
    game = Game(seats=["ilse"], table=True)
    game.act("house", "deal", deck=deck)
    while len(game.conflict.deck) > 1:
        game.act("ilse", "lay", cards=game.conflict.hands["ilse"][:2])
        if game.conflict.action is not None:
            game.act("ilse", "stand")
    game.act("ilse", "lay", cards=game.conflict.hands["ilse"][:2])
    return game


def test_a_draw_that_ends_the_round_is_not_refused_for_the_refill_reshuffle():  # C-3, C-5, TO-9
    """Whether the last card busts the actor (and so ends the round and needs the discards for the refill)
    is hidden until it is drawn: the draw is listed the same and accepted either way, and a refill that runs
    out of deck waits for the House to enter the reshuffle."""
    found: dict[bool, Game] = {}
    for seed in range(400):
        game = _to_the_last_card(seed)
        action = game.conflict.action
        if action is None or action["natural"]:
            continue
        busts = total(action["laid"] + game.conflict.deck[:1]) > 21
        found.setdefault(busts, game)
        if len(found) == 2:
            break
    assert set(found) == {True, False}
    listings = {busts: game.conflict.legal_actions("ilse") for busts, game in found.items()}
    assert listings[True] == listings[False] == [{"action": "draw"}, {"action": "stand"}]
    for busts, game in found.items():
        after = game.act("ilse", "draw")  # no reshuffle entered, none refused
        if not busts:
            assert after.action is not None and after.phase == "action"
            continue
        assert after.phase == "reshuffle" and after.results[-1]["how"] == "bust"
        listed = after.legal_actions("house")
        assert {"action": "reshuffle", "required": ["reshuffle"], "reshuffle": after.discard} in listed
        with pytest.raises(RuleViolation) as waiting:
            game.act("ilse", "lay", cards=after.hands["ilse"][:1])
        assert "reshuffle" in str(waiting.value)
        refilled = game.act("house", "reshuffle", reshuffle=list(reversed(after.discard)))
        assert refilled.phase == "play" and len(refilled.hands["ilse"]) == 3
        assert refilled.shuffles[-1]["entered"] and refilled.shuffles[-1]["slot"] == ["shuffle", 1]
        game.conserved()


def test_only_the_discards_as_they_lie_are_entered_for_the_refill():  # C-3
    for seed in range(400):
        game = _to_the_last_card(seed)
        action = game.conflict.action
        if action is not None and not action["natural"] and total(action["laid"] + game.conflict.deck[:1]) > 21:
            break
    after = game.act("ilse", "draw")
    with pytest.raises(RuleViolation) as wrong:
        game.act("house", "reshuffle", reshuffle=after.discard[1:])
    assert wrong.value.ruling == "C-3"
    with pytest.raises(RuleViolation) as missing:
        game.act("house", "reshuffle")
    assert missing.value.ruling == "C-3"
    assert game.conflict.version == after.version  # nothing stored


def _busting_last_card() -> Game:
    for seed in range(400):
        game = _to_the_last_card(seed)
        action = game.conflict.action
        if action is not None and not action["natural"] and total(action["laid"] + game.conflict.deck[:1]) > 21:
            return game
    raise AssertionError("no game busts on its last card")


def test_after_a_rewind_the_same_discards_are_reshuffled_in_the_same_order_without_being_told_it():  # C-7, C-5
    game = _busting_last_card()
    step = game.conflict.version
    discards = game.act("ilse", "draw").discard
    first = list(reversed(discards))
    game.act("house", "reshuffle", reshuffle=first)
    game.rewind(step)
    game.act("ilse", "draw")  # the same card comes up again (C-7): the same discards wait for the reshuffle
    with pytest.raises(RuleViolation) as other_order:
        game.act("house", "reshuffle", reshuffle=list(discards))
    assert other_order.value.ruling == "C-7"
    assert not any(card in str(other_order.value) for card in discards)  # the order stays nobody's (C-5)
    assert game.act("house", "reshuffle", reshuffle=first).shuffles[-1]["value"] == first


def test_after_a_rewind_and_other_play_the_listed_reshuffle_of_other_discards_is_accepted():  # C-7, TO-9
    game = _busting_last_card()
    step = game.conflict.version
    game.act("house", "reshuffle", reshuffle=list(reversed(game.act("ilse", "draw").discard)))
    game.rewind(step)
    waiting = game.act("ilse", "stand")  # other play: the drawn card stays in the deck, other discards
    assert waiting.phase == "reshuffle"
    listed = next(m for m in waiting.legal_actions("house") if m["action"] == "reshuffle")
    refilled = game.act("house", "reshuffle", reshuffle=listed["reshuffle"])
    assert refilled.phase == "play" and len(refilled.hands["ilse"]) == 3
    game.conserved()


def test_a_reshuffle_no_move_asks_for_is_refused_not_ignored():  # C-3
    plain = Game(table=False)
    plain.inputs()
    with pytest.raises(RuleViolation) as untabled:
        plain.act("ilse", "lay", cards=plain.conflict.hands["ilse"][:2], reshuffle=["AS", "2S"])
    assert untabled.value.ruling == "C-3" and "table" in str(untabled.value)
    table = Game(table=True)
    table.act("house", "deal", deck=list(DECK))
    table.act("house", "order", actors=["ilse", "tomas"])
    before = table.conflict.version
    with pytest.raises(RuleViolation) as unasked:  # an order card that is not the last one
        table.act("ilse", "order-card", card=table.conflict.hands["ilse"][0], reshuffle=["ZZ", "junk"])
    assert unasked.value.ruling == "C-3" and table.conflict.version == before
