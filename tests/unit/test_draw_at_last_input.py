"""C-10, C-9, C-1 (issue 30), per system: a unit whose randomness takes several parties' inputs draws in the
write of the last seed or pass; the House cannot draw before (refused, nothing stored); the House's abandon
(with a reason) shows every seat the draw a known input fixed and frees the adventure, and records no draw
before any input."""

from __future__ import annotations

from uuid import uuid4

import pytest

from domain.errors import NotPermitted, RuleViolation
from domain.kernel.commands import Context
from domain.seats import Seat
from domain.systems.pulp_cards.combat import PulpCombat
from domain.systems.twenty_one.conflict import Conflict
from tests.unit.beast_table import HOUSE as BEAST_HOUSE
from tests.unit.beast_table import ILSE as BEAST_ILSE
from tests.unit.beast_table import TOMAS as BEAST_TOMAS
from tests.unit.beast_table import BeastTable
from tests.unit.challenge_game import ILSE as PENNY_ILSE
from tests.unit.challenge_game import Game as PennyGame
from tests.unit.conftest import new_app
from tests.unit.test_challenges import SEN
from tests.unit.twenty_one_game import Game


def names(unit) -> list[str]:
    return [type(e).__name__ for e in unit.collect_events()]


def stored(game: Game) -> int:
    return game.app.recorder.max_notification_id() or 0


# -- Twenty-one ------------------------------------------------------------------------------------------------
def test_a_twenty_one_deal_is_made_in_the_write_of_the_last_seed_or_pass_and_never_by_the_house_before():
    game = Game(table=False)
    assert "deal" not in [a["action"] for a in game.conflict.legal_actions("house")]  # never by hand (C-10)
    assert {"seed", "pass"} <= {a["action"] for a in game.conflict.legal_actions("tomas")}
    game.act("ilse", "seed", seed="ilse's luck")
    assert game.conflict.phase == "seeding" and game.conflict.owed_inputs() == ["tomas"]
    before = stored(game)
    with pytest.raises(RuleViolation) as refused:
        game.act("house", "deal")
    assert refused.value.ruling == "C-10" and "tomas" in str(refused.value)
    assert stored(game) == before  # nothing stored
    version = game.conflict.version
    dealt = game.act("tomas", "pass")
    assert dealt.phase == "play" and all(len(h) == 3 for h in dealt.hands.values())
    events = list(game.app.events.get(game.unit, gt=version))
    assert [type(e).__name__ for e in events][:2] == ["SeedPassed", "Shuffled"]  # one command, one write
    assert dealt.seed_of("tomas") == "" and dealt.verify()["verifiable"] is False


def test_a_twenty_one_conflict_abandoned_after_a_seed_shows_every_seat_the_deal_and_frees_the_adventure():
    game = Game(table=False)
    game.act("ilse", "seed", seed="ilse's luck")
    with pytest.raises(NotPermitted) as player:
        game.act("ilse", "abandon", reason="mine")
    assert player.value.ruling == "C-10"
    with pytest.raises(RuleViolation) as empty:
        game.act("house", "abandon", reason="   ")
    assert empty.value.ruling == "C-10"
    gone = game.act("house", "abandon", reason="the tavern burns")
    assert gone.settled and gone.abandoned == "the tavern burns"
    events = [type(e).__name__ for e in game.app.events.get(game.unit)]
    assert events[-2:] == ["DrawAbandoned", "Abandoned"]
    campaign = game.app.campaign(game.cid)
    assert game.unit.hex not in campaign.open_challenges
    [shown] = [e for e in game.app.events.get(game.unit) if type(e).__name__ == "DrawAbandoned"]
    assert shown.hands["tomas"] == shown.draws[0]["order"][3:6]  # the hands the deal would have made
    assert "Conflict.DrawAbandoned" not in game.app.system(game.app.campaign(game.cid)).visibility  # every seat
    game.app.execute(Context(game.cid, Seat.house()), game.app.parse(game.cid, "end-adventure", {}))
    assert not game.app.campaign(game.cid).adventure_running


def test_a_twenty_one_conflict_abandoned_before_any_input_records_no_draw():
    conflict = Conflict.open(campaign_id=uuid4(), adventure=1, seats=["ilse"], secret_seed="s", table=False,
                             actor="house")
    conflict.abandon("nobody came", "house")
    assert names(conflict)[-1] == "Abandoned" and "DrawAbandoned" not in names(conflict)


# -- Pulp combat -------------------------------------------------------------------------------------------------
def combat() -> PulpCombat:
    return PulpCombat.open(campaign_id=uuid4(), adventure=1, secret_seed="b2" * 32, table=False, actor="house",
                           combatants=[{"name": "Ilse", "seat": "ilse"}, {"name": "Cole", "seat": "house"}])


def test_a_pulp_combats_first_deal_is_called_then_dealt_with_the_players_seed_or_pass():
    unit = combat()
    with pytest.raises(RuleViolation, match="C-10"):
        unit.add_seed("ilse", "early", "ilse")  # before the call: the House would choose the deal knowing it
    assert "pass" not in [a["action"] for a in unit.legal_actions("ilse")]
    assert unit.inputs_awaited() == []  # C-10: the table waits for the House's call, not for Ilse's input yet
    unit.deal_initiative("house", {"Cole": 2}, None, "house")
    assert unit.inputs_awaited() == ["ilse"]
    assert unit.initiative is None and unit.called == {"kind": "initiative", "ambusher": None, "difficulty": None,
                                                       "advantages": {"Cole": 2}}
    version = unit.version
    with pytest.raises(RuleViolation, match="C-10"):
        unit.deal_surprise("house", "Cole", 0, None, None, "house")  # no second choice
    assert unit.version == version
    assert [a["action"] for a in unit.legal_actions("ilse")][:2] == ["seed", "pass"]
    unit.add_seed("ilse", None, "ilse")  # the pass: the called initiative comes in the same write
    assert names(unit)[-2:] == ["SeedPassed", "InitiativeDealt"]
    assert unit.initiative["advantages"] == {"Cole": 2} and unit.called is None


def test_a_pulp_combat_abandoned_before_the_players_input_records_no_draw_and_ends_with_the_reason():
    unit = combat()
    unit.deal_surprise("house", "Cole", 1, None, None, "house")
    with pytest.raises(NotPermitted):
        unit.abandon("mine", "ilse")
    unit.abandon("the posse rode off", "house")
    assert unit.settled and unit.ended == "the posse rode off" and "DrawAbandoned" not in names(unit)


# -- Penny Ante ----------------------------------------------------------------------------------------------------
def first_roll_refused(game: PennyGame, seat: str, piles: dict[str, int]) -> str:
    """C-10: the seat's first roll is not listed and is refused, storing nothing; returns the refusal."""
    assert "roll" not in [a["action"] for a in game.state.legal_actions(seat, piles, 0, {})]
    before = game.events()
    with pytest.raises(RuleViolation) as refused:
        game.act(seat, "roll")
    assert refused.value.ruling == "C-10" and game.events() == before
    return str(refused.value)


def test_a_penny_ante_house_side_rolls_only_once_the_players_side_seeded_or_passed():
    game = PennyGame(new_app())
    game.announce("house", SEN, {"players": [PENNY_ILSE.name]}, 2)
    game.act("house", "declare", characteristics=[])
    game.act("ilse", "declare", characteristics=[])
    piles = {"Lady Sen": game.pile("Lady Sen"), "ilse": game.pile("ilse")}
    first_roll_refused(game, "house", piles)
    assert "pass" in [a["action"] for a in game.state.legal_actions("ilse", piles, 0, {})]
    game.act("ilse", "pass")
    assert game.state.seed_of("opponent") == "" and game.act("house", "roll").rolls


# -- Beast ---------------------------------------------------------------------------------------------------------
def test_a_beast_antagonist_rolls_only_once_the_players_side_seeded_or_passed():
    t = BeastTable()
    unit = t.conflict()
    with pytest.raises(RuleViolation) as refused:
        t.act(BEAST_HOUSE, unit, action="roll", humanity=0, beast=3)
    assert refused.value.ruling == "C-10"
    t.act(BEAST_HOUSE, unit, action="prepare", humanity=0, beast=3)  # C-9: the split before the players' input
    t.act(BEAST_ILSE, unit, action="pass")
    assert t.act(BEAST_HOUSE, unit, action="roll", humanity=0, beast=3).rolls


# -- between players (C-10, C-4) -------------------------------------------------------------------------------
def test_a_penny_ante_challenge_between_players_rolls_only_once_the_other_side_seeded_or_passed():
    """C-10, C-4: neither player's first roll draws while the other player's side still owes its seed or pass
    (its roll would close the seed that side may add before the first roll); the roller's own roll stands
    for its own input."""
    game = PennyGame(new_app())
    game.announce("ilse", {"players": ["ilse"]}, {"players": ["tomas"]}, 2)
    game.act("ilse", "declare", characteristics=[])
    game.act("tomas", "declare", characteristics=[])
    piles = {"ilse": game.pile("ilse"), "tomas": game.pile("tomas")}
    assert "opponent" in first_roll_refused(game, "ilse", piles)
    game.act("tomas", "seed", seed="Tomas's words")
    assert "roll" in [a["action"] for a in game.state.legal_actions("ilse", piles, 0, {})]
    assert game.act("ilse", "roll").rolls and game.state.side_seeds() == ["", "Tomas's words"]


def test_a_beast_conflict_between_players_rolls_only_once_the_other_player_seeded_or_passed():
    t = BeastTable()
    unit = t.conflict(against="tomas")
    with pytest.raises(RuleViolation) as refused:
        t.act(BEAST_ILSE, unit, action="roll", humanity=3, beast=2)
    assert refused.value.ruling == "C-10" and not t.unit(unit).rolls
    t.act(BEAST_TOMAS, unit, action="pass")
    assert t.act(BEAST_ILSE, unit, action="roll", humanity=3, beast=2).rolls


def test_a_pool_contest_rolls_only_once_the_other_player_seeded_or_passed():
    from tests.unit.test_pool import ILSE, TOMAS, Table

    table = Table()
    contest = table.app.open_contest(table.cid, ILSE, "tomas", "secret")
    unit = table.app.repository.get(contest)
    assert {a["action"] for a in unit.legal_actions("ilse", 12)} == {"seed", "pass"}
    with pytest.raises(RuleViolation) as refused:
        table.app.act(table.cid, ILSE, contest, "roll", {"count": 3})
    assert refused.value.ruling == "C-10"
    table.app.act(table.cid, TOMAS, contest, "pass", {})
    assert table.app.repository.get(contest).seed_of("opponent") == ""
    table.app.act(table.cid, ILSE, contest, "roll", {"count": 3})  # Ilse's roll is her input: no seed of hers
    assert table.app.repository.get(contest).side_seeds() == ["", ""]
