"""C-6, C-7: the House rewinds an open challenge or overturns a settled one; undo is not a reroll."""

from __future__ import annotations

import pytest

from domain.errors import NotPermitted, RuleViolation
from domain.kernel.registry import system_of_unit
from domain.systems.penny_ante import economy
from tests.unit.challenge_game import HOUSE, ILSE, START_TOTAL, TOMAS, Game
from tests.unit.conftest import new_app
from tests.unit.test_challenges import SEN, open_round

SCRIPT = [
    ("house", "circumstance", {"text": "A dark alley"}),
    ("house", "declare", {"characteristics": ["Poison", "Cunning"]}),
    ("ilse", "seed", {"seed": "four leaf clover"}),  # C-9: after the House's declarations
    ("ilse", "declare", {"characteristics": ["Whip Smart"]}),
    ("house", "roll", {}),
    ("ilse", "roll", {}),
    ("house", "keep", {"cup": [0, 2]}),
    ("ilse", "keep", {"cup": [1]}),
    ("house", "raise", {"amount": 2}),
    ("tomas", "lend", {"borrower": "ilse", "amount": 4}),
    ("ilse", "call", {}),
    ("house", "circumstance", {"text": "Rooftops"}),
    ("house", "roll", {}),
    ("ilse", "roll", {}),  # both called the reroll: its dice wait for Ilse's fresh seed (C-9)
    FRESH := ("ilse", "seed", {"seed": "fresh clover"}),
    ("house", "raise", {"amount": 2}),
]



def play(game: Game, actions) -> list[int]:
    versions = []
    for seat, action, args in actions:
        versions.append(game.act(seat, action, **args).version)
    return versions


def dice(game: Game) -> list[tuple]:
    return [(tuple(r["slot"]), r["value"]) for r in game.state.rolls]


def test_rewinding_to_every_step_and_playing_on_gives_the_same_dice():
    reference = Game(new_app())
    reference.announce("house", SEN, {"players": ["ilse"]}, 2)
    versions = [1, *play(reference, SCRIPT)]
    expected = dice(reference)
    for index, step in enumerate(versions[:-1]):
        game = Game(new_app())
        game.announce("house", SEN, {"players": ["ilse"]}, 2)
        play(game, SCRIPT)
        if SCRIPT[index] == FRESH:
            # the step that waited for the fresh seed lies inside one move once it is kept (C-6, C-9)
            with pytest.raises(RuleViolation, match="C-6: at step .* fresh seeds that were given since"):
                game.app.rewind_challenge(game.cid, HOUSE, game.challenge_id, step, "the ninjas were not there")
            continue
        game.app.rewind_challenge(game.cid, HOUSE, game.challenge_id, step, "the ninjas were not there")
        assert game.state.version == versions[-1] + 1  # the rewind is itself a step of the history (C-6)
        play(game, [a for a in SCRIPT[index:] if a[1] not in ("seed", "lend")])
        assert dice(game) == expected, f"rewound to step {step}"
        assert game.total() == START_TOTAL


def test_a_rewind_returns_the_pennies_bet_since_and_reverses_loans_accepted_since():
    game = Game(new_app())
    game.announce("house", SEN, {"players": ["ilse"]}, 2)
    play(game, SCRIPT[:9])  # up to the House's raise
    step = game.state.version
    game.act("tomas", "lend", borrower="ilse", amount=4)
    loan_id = game.state.loans[-1]
    from uuid import UUID

    game.app.accept_loan(game.cid, ILSE, UUID(loan_id))
    game.act("ilse", "call")
    assert game.pile("ilse") == 25 - 4 + 4 and game.pile("tomas") == 26
    game.app.rewind_challenge(game.cid, HOUSE, game.challenge_id, step, "the loan came too late")
    state = game.state
    assert state.phase == "betting-1" and state.turn == "opponent" and state.wager("opponent") == 2
    assert game.pile("ilse") == 23 and game.pile("tomas") == 30  # the call and the loan are undone
    assert game.app.repository.get(UUID(loan_id)).status == "reversed"
    assert game.total() == START_TOTAL
    assert "tomas" not in state.lenders["1"]  # Tomas may lend again in the round played again


def test_a_rewind_never_lets_a_side_change_its_seed_after_the_dice_were_rolled():
    game = Game(new_app())
    game.announce("house", SEN, {"players": ["ilse"]}, 2)
    play(game, [SCRIPT[1], ("ilse", "pass", {}), *SCRIPT[3:6]])  # no seeds (Ilse passes, C-10), dice rolled
    game.app.rewind_challenge(game.cid, HOUSE, game.challenge_id, 1, "start over")
    with pytest.raises(RuleViolation, match="C-4: a side adds its seed before the first roll"):
        game.act("ilse", "seed", seed="fishing for better dice")


def test_after_a_rewind_another_cup_is_refused_in_the_tables_words_positions_from_one_and_what_they_show():
    game = Game(new_app())
    game.announce("house", SEN, {"players": ["ilse"]}, 2)
    play(game, SCRIPT[:8])  # both cups kept: the House cupped its dice at indices 0 and 2, Ilse hers at 1
    game.app.rewind_challenge(game.cid, HOUSE, game.challenge_id, 1, "the ninjas were not there")
    play(game, [a for a in SCRIPT[:6] if a[1] not in ("seed", "lend")])
    shown = game.state.sides["opponent"]["dice"][1]
    value = shown.get("value") if isinstance(shown, dict) else shown
    with pytest.raises(RuleViolation, match=rf"C-7: this side cupped the die at position 2 \({value}\) before the "
                                            r"rewind, and keeps the same dice again \(in a request, cup \[1\]\)"):
        game.act("ilse", "keep", cup=[0])


def test_only_the_house_undoes_and_only_open_challenges_are_rewound():
    game = Game(new_app())
    game.announce("house", SEN, {"players": ["ilse"]}, 2)
    play(game, SCRIPT[:5])
    with pytest.raises(NotPermitted, match="C-6"):
        game.app.rewind_challenge(game.cid, ILSE, game.challenge_id, 2, "I want a reroll")
    with pytest.raises(RuleViolation, match="C-6: rewind to a step from 1 to"):
        game.app.rewind_challenge(game.cid, HOUSE, game.challenge_id, 99, "too far")
    with pytest.raises(RuleViolation, match="C-6: a reason must not be empty"):
        game.app.rewind_challenge(game.cid, HOUSE, game.challenge_id, 2, " ")
    with pytest.raises(RuleViolation, match="C-6: only a settled challenge is overturned"):
        game.app.overturn_challenge(game.cid, HOUSE, game.challenge_id, "opponent", False, "early")
    with pytest.raises(NotPermitted, match="C-6"):
        game.app.overturn_challenge(game.cid, TOMAS, game.challenge_id, "opponent", False, "mine")


def settle_with_ilse_winning(game: Game) -> None:
    game.announce("ilse", {"players": ["ilse"]}, {"players": ["tomas"]}, 1, table=True)
    open_round(game, "ilse", "tomas", dice=([6], [1]))
    game.act("ilse", "raise", amount=9)
    game.act("tomas", "call")
    game.act("ilse", "roll", dice=[])
    game.act("tomas", "roll", dice=[])
    game.act("ilse", "check")
    state = game.act("tomas", "check")
    assert state.result["winner"] == "challenger"
    assert game.pile("ilse") == 25 + 10 and game.pile("tomas") == 20


def test_overturning_a_settled_challenge_moves_the_pot_as_ruled():
    game = Game(new_app())
    settle_with_ilse_winning(game)
    game.app.overturn_challenge(game.cid, HOUSE, game.challenge_id, "opponent", False, "Tomas had the high ground")
    state = game.state
    assert state.result["winner"] == "opponent" and state.result["overturned"][0]["previous"] == {"ilse": 20}
    assert game.pile("ilse") == 15 and game.pile("tomas") == 40
    game.app.overturn_challenge(game.cid, HOUSE, game.challenge_id, None, True, "neither, on reflection")
    assert game.pile("ilse") == 25 and game.pile("tomas") == 30  # void: each takes back its own wager
    assert game.total() == START_TOTAL


def test_an_overturn_naming_the_side_that_already_wins_is_refused_and_moves_nothing_c6():
    game = Game(new_app())
    settle_with_ilse_winning(game)
    piles = game.pile("ilse"), game.pile("tomas")
    with pytest.raises(RuleViolation, match="already wins") as refused:
        game.app.overturn_challenge(game.cid, HOUSE, game.challenge_id, "challenger", False, "Ilse won anyway")
    assert refused.value.ruling == "C-6" and (game.pile("ilse"), game.pile("tomas")) == piles
    assert not game.state.result.get("overturned")
    assert system_of_unit(game.state).overturn_winners(game.state) == ("opponent",)  # the page offers only it
    game.app.overturn_challenge(game.cid, HOUSE, game.challenge_id, "opponent", False, "the high ground")
    with pytest.raises(RuleViolation, match="already wins"):  # the side the last overturn named, too
        game.app.overturn_challenge(game.cid, HOUSE, game.challenge_id, "opponent", False, "again")


def test_an_overturn_after_the_pennies_were_spent_creates_the_right_debt():
    game = Game(new_app())
    settle_with_ilse_winning(game)  # Ilse holds 35, 20 of it from the pot
    game.app.end_adventure(game.cid, HOUSE)
    for name in ("Quick", "Strong", "Sly Grin", "Iron Will", "Luck"):  # 25 pennies spent
        game.app.buy_characteristic(game.cid, ILSE, "ilse", name)
    assert game.pile("ilse") == 10
    game.app.overturn_challenge(game.cid, HOUSE, game.challenge_id, "opponent", False, "a bad call")
    assert game.pile("ilse") == 0 and game.pile("tomas") == 20 + 10  # what she still had
    campaign = game.app.campaign(game.cid)
    ilse = economy.character(game.app.application, campaign, "ilse")
    (debt_id, owed), = ilse.owes.items()
    debt = game.app.repository.get(__import__("uuid").UUID(debt_id))
    assert (debt.lender, debt.borrower, debt.outstanding, owed) == ("tomas", "ilse", 10, 10)


def test_an_undo_of_a_settled_challenge_is_refused_as_settled_whatever_step_it_names_c6():
    """Found on a CLI walk: ``undo --to-step 0`` on a settled challenge answered a step range, not "overturn it"."""
    game = Game(new_app())
    settle_with_ilse_winning(game)
    for step in (0, 1, 10_000):
        with pytest.raises(RuleViolation, match="C-6: a settled challenge is overturned, not rewound"):
            game.app.rewind_challenge(game.cid, HOUSE, game.challenge_id, step, "a misread")
