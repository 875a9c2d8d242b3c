"""Scripted conflicts, one per branch of Twenty-one (TO-1 … TO-15, C-3 … C-8), with decks entered at the table
so every card is known."""

from __future__ import annotations

import copy

import pytest

from domain.errors import NotPermitted, RuleViolation
from domain.fairness import derive_shuffle
from domain.systems.twenty_one import cards
from tests.unit.twenty_one_game import Game, stacked

# ilse is dealt the first three cards, tomas the next three; the deck goes on from the seventh.


def dealt(*top: str, holds: int = 0, seats=("ilse", "tomas")) -> Game:
    game = Game(seats=seats, holds=holds)
    game.act("house", "deal", deck=stacked(*top))
    return game


def result(game: Game, index: int = -1) -> dict:
    return game.conflict.results[index]


def test_a_draw_over_21_fails_at_once():  # TO-4, TO-12
    game = dealt("10S", "9S", "5S", "2H", "3H", "4H", "5H")
    game.act("ilse", "lay", cards=["10S", "9S"])
    conflict = game.act("ilse", "draw")
    assert result(game)["outcome"] == "fail" and result(game)["how"] == "bust"
    assert result(game)["total"] == 24 and conflict.action is None
    assert conflict.hands["ilse"] == ["5S"]  # the set-aside card comes back (TO-14)
    assert conflict.discard == ["10S", "9S", "5H"]


@pytest.mark.parametrize("pair, outcome", [(["10S", "7S"], "full"), (["10S", "5S"], "mixed"), (["10S", "2S"], "fail")])
def test_standing_succeeds_fully_mixed_or_fails_against_15_and_17(pair, outcome):  # TO-4
    game = dealt(*pair, "3S", "2H", "3H", "4H")
    game.act("ilse", "lay", cards=pair)
    game.act("ilse", "stand")
    assert result(game)["outcome"] == outcome and result(game)["how"] == "stood"


def test_modifiers_move_both_targets_and_record_their_source():  # TO-6
    game = dealt("10S", "3S", "4S", "2H", "3H", "4H")
    game.act("ilse", "lay", cards=["10S", "3S"])
    for source in ("high ground", "Knives"):
        game.act("house", "modifier", value=-1, source=source)
    game.act("ilse", "stand")
    assert result(game)["targets"] == {"mixed": 13, "full": 15} and result(game)["outcome"] == "mixed"
    assert [m["source"] for m in result(game)["modifiers"]] == ["high ground", "Knives"]


def test_a_modifier_is_exactly_one_step_and_only_the_house_adds_it():  # TO-12, TO-6
    game = dealt("10S", "3S", "4S", "2H", "3H", "4H")
    game.act("ilse", "lay", cards=["10S", "3S"])
    for value in (2, 0, True):
        with pytest.raises(RuleViolation) as refused:
            game.act("house", "modifier", value=value, source="x")
        assert refused.value.ruling in ("TO-12", "TO-6")
    with pytest.raises(NotPermitted):
        game.act("tomas", "modifier", value=-1, source="my help")


def test_a_natural_21_succeeds_fully_at_once_and_nothing_changes_it():  # TO-5, TO-11
    game = dealt("AS", "KS", "4S", "2H", "3H", "4H")
    conflict = game.act("ilse", "lay", cards=["AS", "KS"])
    assert result(game)["outcome"] == "full" and result(game)["how"] == "natural" and conflict.action is None
    with pytest.raises(RuleViolation):
        game.act("tomas", "assist", replace_with="2H")
    with pytest.raises(RuleViolation):
        game.act("house", "modifier", value=1, source="storm")


def test_an_assist_replaces_the_last_card_laid_with_a_card_of_the_helpers_hand():  # TO-7
    game = dealt("10S", "3S", "4S", "7H", "3H", "4H")
    game.act("ilse", "lay", cards=["10S", "3S"])
    conflict = game.act("tomas", "assist", replace_with="7H")
    assert conflict.action["laid"] == ["10S", "7H"] and "3S" in conflict.discard and "7H" not in conflict.hands["tomas"]
    with pytest.raises(RuleViolation) as twice:
        game.act("tomas", "hinder", replace_with="3H")
    assert twice.value.ruling == "TO-13"
    game.act("ilse", "stand")
    assert result(game)["outcome"] == "full" and result(game)["replacement"] == {"seat": "tomas", "kind": "assist"}


def test_a_hinder_may_bust_the_actor():  # TO-7, TO-13
    game = dealt("10S", "9S", "4S", "KH", "3H", "4H", "2C")
    game.act("ilse", "lay", cards=["10S", "9S"])
    game.act("ilse", "draw")
    game.act("tomas", "hinder", replace_with="KH")
    assert result(game)["how"] == "bust" and result(game)["laid"] == ["10S", "9S", "KH"]


def test_a_player_assists_or_hinders_once_per_round():  # TO-7
    game = dealt("10S", "3S", "4S", "7H", "3H", "4H", "2C", "2D", "9C", "8C", "5C", "5D",
                 seats=("ilse", "tomas", "mara"))
    game.act("ilse", "lay", cards=["10S", "3S"])
    game.act("tomas", "assist", replace_with="7H")
    game.act("ilse", "stand")
    game.act("mara", "lay", cards=["2C", "2D"])
    with pytest.raises(RuleViolation) as again:
        game.act("tomas", "hinder", replace_with="3H")
    assert again.value.ruling == "TO-7"


def test_a_hold_replaces_the_last_card_laid_with_the_set_aside_card():  # TO-8
    game = dealt("10S", "2S", "7S", "2H", "3H", "4H", holds=2)
    conflict = game.act("ilse", "lay", cards=["10S", "2S"])
    assert conflict.action["set_aside"] == "7S"
    conflict = game.act("ilse", "hold", set_aside=True)
    assert conflict.action["laid"] == ["10S", "7S"] and conflict.action["set_aside"] is None
    with pytest.raises(RuleViolation) as twice:
        game.act("ilse", "hold", draw=True)
    assert twice.value.ruling == "TO-8"
    game.act("ilse", "stand")
    assert result(game)["outcome"] == "full" and game.holds("ilse") == 1


def test_a_hold_draws_a_card_kept_in_place_of_the_last_one_or_discarded():  # TO-8, TO-13
    game = dealt("10S", "2S", "7S", "2H", "3H", "4H", "8D", holds=1)
    game.act("ilse", "lay", cards=["10S", "2S"])
    conflict = game.act("ilse", "hold", draw=True)
    assert conflict.action["pending"] == "8D"
    with pytest.raises(RuleViolation):
        game.act("ilse", "stand")  # first keep it or not
    conflict = game.act("ilse", "keep", keep=True)
    assert conflict.action["laid"] == ["10S", "8D"] and conflict.discard == ["2S"]
    game.act("ilse", "stand")
    assert result(game)["outcome"] == "full" and game.holds("ilse") == 0

    other = dealt("10S", "2S", "7S", "2H", "3H", "4H", "8D", holds=1)
    other.act("ilse", "lay", cards=["10S", "2S"])
    other.act("ilse", "hold", draw=True)
    conflict = other.act("ilse", "keep", keep=False)
    assert conflict.action["laid"] == ["10S", "2S"] and conflict.discard == ["8D"]


def test_a_hold_needs_a_hold_on_the_sheet():  # TO-8
    game = dealt("10S", "2S", "7S", "2H", "3H", "4H")
    game.act("ilse", "lay", cards=["10S", "2S"])
    with pytest.raises(RuleViolation) as none:
        game.act("ilse", "hold", set_aside=True)
    assert none.value.ruling == "TO-8"


def test_every_hand_is_dealt_back_up_to_three_when_the_round_ends():  # TO-9, TO-14
    game = dealt("10S", "9S", "5S", "7H", "8H", "4H", "KD", "2C", "3C")
    game.act("ilse", "lay", cards=["10S", "9S"])
    game.act("ilse", "stand")
    with pytest.raises(RuleViolation) as twice:
        game.act("ilse", "lay", cards=["5S"])
    assert twice.value.ruling == "TO-14"
    game.act("tomas", "lay", cards=["7H", "8H"])
    assert game.conflict.hands["tomas"] == []  # 4H set aside
    conflict = game.act("tomas", "stand")
    assert conflict.round == 2 and conflict.acted == []
    assert conflict.hands == {"ilse": ["5S", "KD", "2C"], "tomas": ["4H", "3C", "2S"]}
    game.conserved()


def test_a_hand_of_fewer_than_two_is_made_up_from_the_deck():  # TO-4, TO-11
    game = dealt("KS", "9S", "5S", "QH", "8H", "4H", "AD", "2C", "3C")
    game.act("house", "order")
    game.act("ilse", "order-card", card="KS")
    game.act("tomas", "order-card", card="QH")  # ilse first; hands of two, not refilled (TO-3)
    game.act("ilse", "lay", cards=["9S", "5S"])
    game.act("tomas", "assist", replace_with="8H")  # tomas keeps one card
    game.act("ilse", "stand")
    with pytest.raises(RuleViolation) as two:
        game.act("tomas", "lay", cards=["4H", "AD"])
    assert two.value.ruling == "TO-4"
    conflict = game.act("tomas", "lay", cards=["4H"])
    assert conflict.action["laid"] == ["4H", "AD"] and conflict.action["set_aside"] is None
    assert conflict.view_for("ilse")["action"]["total"] == 15


def test_the_order_of_play_king_nines_and_five_deals_the_nines_a_card_each():  # TO-3, TO-15
    seats = ("p1", "p2", "p3", "p4")
    game = Game(seats=seats)  # the tie cards come from the deck's top in seat order: 10 for p2, 2 for p3
    game.act("house", "deal", deck=stacked("KS", "2S", "3S", "9H", "2H", "3H", "9D", "2D", "3D", "5C", "4C", "6C",
                                           "10D", "2C"))
    game.act("house", "order")
    for seat, card in zip(seats, ("KS", "9H", "9D", "5C"), strict=True):
        conflict = game.act(seat, "order-card", card=card)
    assert conflict.turn_order == ["p1", "p4", "p2", "p3"]
    assert conflict.last_order["ties"] == [{"p2": "10D", "p3": "2C"}]
    assert conflict.last_order["round"] == conflict.round == 1  # the board says which round's order it was
    assert {"KS", "9H", "9D", "5C", "10D", "2C"} <= set(conflict.discard)  # laid for order: discarded, no refill
    assert [len(conflict.hands[s]) for s in seats] == [2, 2, 2, 2]
    with pytest.raises(RuleViolation) as early:
        game.act("p2", "lay", cards=["2H", "3H"])
    assert early.value.ruling == "TO-3"
    game.act("p1", "lay", cards=["2S", "3S"])


def test_a_card_laid_for_the_order_stays_hidden_until_all_are_laid():  # TO-3, C-5
    game = dealt("KS", "2S", "3S", "9H", "2H", "3H")
    game.act("house", "order")
    conflict = game.act("ilse", "order-card", card="KS")
    assert conflict.view_for("tomas")["ordering"]["laid"] == {"ilse": {"card": None}}
    assert conflict.view_for("ilse")["ordering"]["laid"] == {"ilse": {"card": "KS"}}


def test_a_table_deck_must_be_52_real_cards_each_once():  # C-3
    game = Game()
    for deck, why in ((stacked()[:51], "52"), ([*stacked()[:51], "AS"], "twice"), ([*stacked()[:51], "ZZ"], "not a card")):
        with pytest.raises(RuleViolation) as refused:
            game.act("house", "deal", deck=deck)
        assert refused.value.ruling == "C-3" and why in str(refused.value)
    with pytest.raises(RuleViolation):
        game.act("house", "deal")
    game.act("house", "deal", deck=stacked())
    assert game.conflict.verify() == {"verifiable": False, "reason": "the secret seed is revealed at settlement",
                                      "checked": 0, "entered": 0, "mismatches": []}
    game.act("house", "end")
    assert game.conflict.verify()["entered"] == 1


def test_a_card_a_player_does_not_hold_is_refused_without_saying_where_it_is():  # C-3, C-5
    answers = []
    for deck in (stacked("10S", "9S", "5S", "7H", "8H", "4H"), stacked("10S", "9S", "5S", "2H", "8H", "4H")):
        game = dealt(*deck[:6])  # 7H in tomas's hand, then 7H in the deck
        for move in ({"action": "lay", "cards": ["10S", "7H"]}, {"action": "order-card", "card": "7H"}):
            with pytest.raises(RuleViolation) as refused:
                game.act("ilse", **move)
            answers.append(str(refused.value))
    assert answers[:2] == answers[2:] and "7♥" in answers[0] and "tomas" not in " ".join(answers)


def test_only_engaged_characters_play_and_the_house_never_lays_cards():  # TO-2
    game = Game(seats=("ilse",))
    game.act("house", "deal", deck=stacked())
    with pytest.raises(NotPermitted) as house:
        game.act("house", "lay", cards=["AS", "2S"])
    assert house.value.ruling == "TO-2"


def test_the_order_is_listed_for_every_actor_with_a_card_though_another_holds_none():  # TO-3
    game = Game(seats=("ilse", "tomas", "vera", "otto"), table=False)
    game.inputs()
    for _ in range(3):  # ilse and tomas lay their whole hands for three orders nobody acts on
        game.act("house", "order", actors=["ilse", "tomas"])
        for seat in ("ilse", "tomas"):
            game.act(seat, "order-card", card=game.conflict.hands[seat][0])
    assert game.conflict.hands["ilse"] == [] and game.conflict.hands["tomas"] == []
    order = next(a for a in game.conflict.legal_actions("house") if a["action"] == "order")
    assert order["choices"] == ["vera", "otto"]  # the two who may lay; the empty-handed are not offered
    assert game.act("house", "order").ordering["actors"] == ["vera", "otto"]


def test_cards_laid_for_the_order_stay_out_of_a_reshuffle_the_tie_needs():  # TO-14, TO-15
    game = Game(seats=("ilse", "tomas"), table=False, secret="t412")
    game.inputs()
    while True:  # plain play until a round starts with fewer than 2 cards in the deck and a pair to tie with
        conflict = game.conflict
        if not conflict.acted and len(conflict.deck) < 2:
            pairs = [(a, b) for a in conflict.hands["ilse"] for b in conflict.hands["tomas"]
                     if cards.rank_of(a) == cards.rank_of(b)]
            if pairs:
                break
        seat = next(s for s in conflict.seats if s not in conflict.acted)
        game.act(seat, "lay", cards=conflict.hands[seat][:2])
        while game.conflict.action and cards.total(game.conflict.action["laid"]) < 15 and game.conflict.deck:
            game.act(seat, "draw")
        if game.conflict.action:
            game.act(seat, "stand")
    a, b = pairs[0]
    game.act("house", "order")
    game.act("ilse", "order-card", card=a)
    conflict = game.act("tomas", "order-card", card=b)
    ties = [x for dealt in conflict.last_order["ties"] for x in dealt.values()]
    assert ties and a not in ties and b not in ties  # never dealt again as tie cards
    assert a not in conflict.shuffles[-1]["deck"] and b not in conflict.shuffles[-1]["deck"]
    everywhere = conflict.deck + conflict.discard + [x for h in conflict.hands.values() for x in h]
    assert sorted(everywhere) == sorted(cards.DECK)  # no card in two places


def test_an_order_settled_before_held_was_recorded_still_loads():  # the old shape: no `held` (events.md)
    import json

    from eventsourcing.persistence import StoredEvent

    game = dealt("KS", "5S", "9S", "QH", "5H", "4H")
    game.act("house", "order")
    game.act("ilse", "order-card", card="KS")
    now = game.act("tomas", "order-card", card="QH")
    mapper, stored = game.app.mapper, game.app.recorder.select_events(game.unit)
    old = []
    for s in stored:
        if s.topic.endswith("Conflict.OrderSettled"):
            state = json.loads(s.state)
            assert state.pop("held") is True
            s = StoredEvent(originator_id=s.originator_id, originator_version=s.originator_version, topic=s.topic,
                            state=json.dumps(state).encode())
        old.append(s)
    loaded = None
    for s in old:
        loaded = mapper.to_domain_event(s).mutate(loaded)
    assert loaded.discard == now.discard and loaded.turn_order == now.turn_order == ["ilse", "tomas"]


def test_a_reshuffle_made_from_another_pile_after_a_rewind_shows_nobody_where_the_cards_seen_before_lie():
    # C-5, C-8: what every seat saw came from one reshuffle's order; the same slot reshuffled from another
    # pile is another order, and nothing seen in the first tells where a card now lies
    game = Game(seats=("ilse", "tomas"), table=True)
    game.act("house", "deal", deck=stacked())

    def low_first(pile):
        return sorted(pile, key=cards.value)

    while True:  # plain play until an action is under way with an empty deck
        conflict = game.conflict
        if conflict.phase == "reshuffle":
            game.act("house", "reshuffle", reshuffle=low_first(conflict.discard))
            continue
        seat = next(s for s in conflict.seats if s not in conflict.acted)
        game.act(seat, "lay", cards=conflict.hands[seat][:2])
        while game.conflict.action is not None and game.conflict.deck and \
                cards.total(game.conflict.action["laid"]) < 12:
            game.act(seat, "draw")
        if game.conflict.action is not None and not game.conflict.deck:
            break
        if game.conflict.action is not None:
            game.act(seat, "stand")
    before = game.conflict.version
    game.act(seat, "draw", reshuffle=low_first(game.conflict.discard))  # a card every seat sees, face up
    game.rewind(before)
    other = "tomas" if seat == "ilse" else "ilse"
    game.act(other, "assist", replace_with=game.conflict.hands[other][0])  # the pile is another one now
    game.act(seat, "draw", reshuffle=sorted(game.conflict.discard, key=lambda x: -cards.value(x)))
    for viewer in ("house", other):
        assert game.conflict.view_for(viewer)["deck_known"] == []


def _stored_before_issue_30() -> Game:
    """A service-deck conflict as stored before issue 30: Opened, then a SeedAdded for every engaged seat, and no
    deal (the House dealt by hand then). The old events are recorded as they were, without the draw at the last
    input."""
    game = Game(table=False)
    conflict = game.conflict
    for seat in game.seats:
        conflict._seed_added(side=seat, seed=f"{seat}'s seed", actor=seat)
    game.app.save(conflict)
    return game


def test_a_conflict_stored_with_every_seed_and_no_deal_is_dealt_by_the_house_c10():  # review finding 3
    game = _stored_before_issue_30()
    stored = game.conflict
    assert stored.phase == "seeding" and stored.owed_inputs() == [] and not stored.seeds_locked
    assert {"action": "deal"} in stored.legal_actions("house")  # nothing owed: the cards are fixed
    dealt = game.act("house", "deal")
    assert dealt.phase == "play" and all(len(hand) == 3 for hand in dealt.hands.values())
    expected = derive_shuffle(dealt.secret_seed, dealt.side_seeds(), ["shuffle", 0], list(cards.DECK))
    assert dealt.shuffles[0]["value"] == expected and dealt.side_seeds() == ["ilse's seed", "tomas's seed"]


def test_a_service_deal_by_hand_is_refused_while_a_seed_or_pass_is_owed_c10():
    game = Game(table=False)
    game.act("ilse", "pass")
    with pytest.raises(RuleViolation, match="C-10: .*still owed by tomas"):
        game.act("house", "deal")
    assert game.conflict.phase == "seeding" and all(m["action"] != "deal" for m in game.conflict.legal_actions("house"))


def test_a_stored_conflict_dealt_late_rewinds_to_before_its_deal_and_deals_the_same_cards_c6_c7():
    game = _stored_before_issue_30()
    hands = copy.deepcopy(game.act("house", "deal").hands)
    # the step of the last seed looks like the state inside the new seed-and-deal move (C-6): the step before it
    # gives the same conflict, seeds kept and locked (C-7)
    with pytest.raises(RuleViolation, match="C-6: step .* is inside one move"):
        game.rewind(3)
    again = game.rewind(2)
    assert again.phase == "seeding" and again.seeds_locked and {"action": "deal"} in again.legal_actions("house")
    assert game.act("house", "deal").hands == hands
