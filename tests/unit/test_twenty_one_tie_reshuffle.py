"""TO-16 (issue 30): a tie for the order of play that the deck cannot deal reshuffles the discards into the deck
first, with table cards too (then the House enters the reshuffle as its own step, every card laid for the order
face up); only when the deck and the discards together cannot deal the tied group is it ordered by seat."""

from __future__ import annotations

from uuid import uuid4

import pytest

from domain.errors import RuleViolation
from domain.systems.twenty_one.cards import DECK
from domain.systems.twenty_one.conflict import Conflict

ILSE, TOMAS = ["KS", "2S", "3S"], ["KH", "4S", "5S"]  # both lay a king: a tie


def _dealt(table: bool, seats=("ilse", "tomas")) -> Conflict:
    conflict = Conflict.open(campaign_id=uuid4(), adventure=1, seats=list(seats), secret_seed="s3cret", table=table,
                             actor="house")
    top = [*ILSE, *TOMAS]
    if table:
        conflict.deal([*top, *(x for x in DECK if x not in top)], "house")
    for seat in conflict.owed_inputs():  # with derived cards, the last pass deals (C-10)
        conflict.pass_seed(seat, seat)
    return conflict


def _short_deck(conflict: Conflict, left: list[str], keep_out: list[str] = ()) -> None:
    """Play has run the deck down to ``left``: every other card not in a hand lies on the discard pile (except
    ``keep_out``, which the caller puts in a hand)."""
    held = {x for hand in conflict.hands.values() for x in hand}
    conflict.deck = list(left)
    conflict.discard = [x for x in DECK if x not in held and x not in left and x not in keep_out]


def _lay_kings(conflict: Conflict) -> None:
    if conflict.table:  # the hands as dealt from the stacked deck
        assert conflict.hands["ilse"] == ILSE and conflict.hands["tomas"] == TOMAS
    conflict.call_order(["ilse", "tomas"], "house")
    ilse_king = next(x for x in conflict.hands["ilse"] if x.startswith("K"))
    tomas_king = next(x for x in conflict.hands["tomas"] if x.startswith("K"))
    conflict.lay_for_order("ilse", ilse_king, None, "ilse")
    conflict.lay_for_order("tomas", tomas_king, None, "tomas")


def _conserved(conflict: Conflict) -> None:
    every = [x for cards in conflict.places().values() for x in cards]
    assert sorted(every) == sorted(DECK)


def test_with_table_cards_a_tie_the_deck_cannot_deal_waits_for_the_house_to_enter_the_reshuffle():  # TO-16
    conflict = _dealt(table=True)
    _short_deck(conflict, ["7C"])
    _lay_kings(conflict)
    assert conflict.phase == "reshuffle" and conflict.turn_order == []
    seen = conflict.view_for("tomas")["ordering"]["laid"]
    assert seen == {"ilse": {"card": "KS"}, "tomas": {"card": "KH"}}  # face up: the reshuffle hides nothing
    assert [m["action"] for m in conflict.legal_actions("house") if m["action"] == "reshuffle"] == ["reshuffle"]
    with pytest.raises(RuleViolation) as wrong:  # the discards, exactly: the laid kings stay on the table
        conflict.reshuffle(["KS", *conflict.discard[1:]], "house")
    assert wrong.value.ruling == "C-3"
    entered = ["AD", *(x for x in conflict.discard if x != "AD")]
    conflict.reshuffle(entered, "house")
    # the deck's last card to Ilse (7C), then the reshuffled deck's top to Tomas (AD): Tomas goes first
    assert conflict.phase == "play" and conflict.turn_order == ["tomas", "ilse"]
    assert conflict.last_order["ties"] == [{"ilse": "7C", "tomas": "AD"}]
    assert conflict.shuffles[-1]["value"] == entered and conflict.shuffles[-1]["entered"]
    _conserved(conflict)


def test_with_derived_cards_a_tie_the_deck_cannot_deal_reshuffles_the_discards_at_once():  # TO-16
    conflict = _dealt(table=False)
    kings = [x for x in DECK if x.startswith("K")]
    ilse = [*[x for x in conflict.hands["ilse"] if not x.startswith("K")][:2], kings[0]]
    tomas = [*[x for x in conflict.hands["tomas"] if not x.startswith("K")][:2], kings[1]]
    conflict.hands = {"ilse": ilse, "tomas": tomas}
    left = next(x for x in DECK if x not in ilse + tomas)
    _short_deck(conflict, [left])
    shuffles = len(conflict.shuffles)
    _lay_kings(conflict)
    assert conflict.phase == "play" and len(conflict.shuffles) == shuffles + 1  # reshuffled, not seat order
    assert len(conflict.last_order["ties"]) >= 1 and conflict.last_order["ties"][0]["ilse"] == left
    _conserved(conflict)


@pytest.mark.parametrize("table", [True, False], ids=["table cards", "derived cards"])
def test_a_tie_that_deck_and_discards_together_cannot_deal_is_ordered_by_seat(table):  # TO-16
    conflict = _dealt(table=table, seats=("ilse", "tomas", "cy"))
    if not table:
        conflict.hands["ilse"], conflict.hands["tomas"] = ["KS", "2S", "3S"], ["KH", "4S", "5S"]
    rest = [x for x in DECK if x not in ILSE + TOMAS and x != "7C"]
    conflict.hands["cy"] = rest  # everything else is out of reach (in a hand): one card left in all
    conflict.deck, conflict.discard = ["7C"], []
    _lay_kings(conflict)
    assert conflict.phase == "play" and conflict.turn_order == ["ilse", "tomas"]  # seat order
    assert conflict.last_order["ties"] == []
    _conserved(conflict)


def test_after_a_rewind_the_listed_reshuffle_is_the_order_entered_before_and_is_accepted_as_listed():  # C-7
    """Found by an independent check: after a rewind to the step that awaited a table reshuffle, the listing
    offered the discards as they lay, and that entry was refused (C-7: the slot was dealt otherwise before).
    The listing names the one order the slot takes again, so the move plays as listed."""
    import copy

    conflict = _dealt(table=True)
    _short_deck(conflict, ["7C"])
    _lay_kings(conflict)
    awaiting = copy.deepcopy(conflict)  # the state at the step that awaits the reshuffle
    entered = ["AD", *(x for x in conflict.discard if x != "AD")]
    conflict.reshuffle(entered, "house")
    conflict.rewind(awaiting.version, awaiting, "the reshuffle was entered too early", "house")
    assert conflict.phase == "reshuffle"
    (listed,) = [m for m in conflict.legal_actions("house") if m["action"] == "reshuffle"]
    assert listed["reshuffle"] == entered and listed["required"] == ["reshuffle"]
    with pytest.raises(RuleViolation) as other:  # any other order of the same pile is fishing (C-7)
        conflict.reshuffle(sorted(entered), "house")
    assert other.value.ruling == "C-7"
    conflict.reshuffle(listed["reshuffle"], "house")
    assert conflict.phase == "play" and conflict.turn_order == ["tomas", "ilse"]
