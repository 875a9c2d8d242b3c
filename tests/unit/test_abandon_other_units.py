"""C-10, C-1 (issue 30) for the units that gained the kernel's abandon: a Penny Ante challenge, a Pool contest
and a Beast conflict. House only (a player is refused, nothing stored), a reason required, listed among the
House's legal actions while the unit is open; the pot goes back penny for penny to whoever put it in (PA-19),
a Pool contest gains or gives back nothing, a Beast conflict deals no Willpower damage; a seed known before any
die shows every seat the dice it fixed; the adventure may end afterwards."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.errors import NotPermitted, RuleViolation
from domain.fairness import derive_die
from domain.seats import Seat
from domain.systems.penny_ante import economy
from tests.unit.beast_table import HOUSE as BEAST_HOUSE
from tests.unit.beast_table import ILSE as BEAST_ILSE
from tests.unit.beast_table import BeastTable
from tests.unit.challenge_game import HOUSE, ILSE, START_TOTAL, Game
from tests.unit.conftest import new_app
from tests.unit.test_challenge_property import SETUPS, arguments, legal_moves
from tests.unit.test_pool import Table

PEOPLE = ("house", "ilse", "tomas", "mara", "Lady Sen", "Rockslide")


def event_names(app: Any, unit: UUID) -> list[str]:
    return [type(e).__name__ for e in app.events.get(unit)]


def abandon_listed(actions: list[dict[str, Any]]) -> bool:
    return {"action": "abandon", "required": ["reason"]} in actions


# -- Penny Ante ----------------------------------------------------------------------------------------------
def _to_betting(game: Game) -> Game:
    game.announce("ilse", {"players": ["ilse"]}, {"antagonist": "Lady Sen"}, 2)
    game.act("ilse", "declare", characteristics=[])
    game.act("house", "declare", characteristics=[])  # C-9: the House's dice count is fixed before the seed
    game.act("ilse", "seed", seed="my words")
    game.act("ilse", "roll")
    game.act("house", "roll")
    game.act("ilse", "keep", cup=[])
    game.act("house", "keep", cup=[])
    game.act("ilse", "raise", amount=4)
    return game


def test_a_penny_ante_challenge_abandoned_gives_every_penny_back_to_whoever_put_it_in_and_frees_the_adventure():
    game = Game(new_app())
    before = {w: game.pile(w) for w in PEOPLE}
    _to_betting(game)
    ch = game.state
    assert ch.sides["challenger"]["contributions"]["ilse"] > 0 and ch.sides["opponent"]["contributions"]["Lady Sen"] > 0
    game.act("mara", "lend", borrower="ilse", amount=3)  # PA-14: accepted, it stays (between players)
    accepted = UUID(game.state.loans[-1])
    game.app.accept_loan(game.cid, ILSE, accepted)
    game.act("tomas", "lend", borrower="ilse", amount=2)  # left unanswered: it lapses with the round
    offered = UUID(game.state.loans[-1])
    piles = {"house": game.pile("house"), "Lady Sen": game.pile("Lady Sen"), "ilse": game.pile("ilse")}
    assert abandon_listed(game.state.legal_actions("house", piles, game.pile("house"), {}))
    assert not abandon_listed(game.state.legal_actions("ilse", piles, game.pile("ilse"), {}))
    stored = game.events()
    with pytest.raises(NotPermitted) as player:
        game.act("ilse", "abandon", reason="mine")
    assert player.value.ruling == "C-10" and game.events() == stored
    with pytest.raises(RuleViolation) as blank:
        game.act("house", "abandon", reason="  ")
    assert blank.value.ruling == "C-10" and game.events() == stored
    gone = game.act("house", "abandon", reason="the palace burns")
    assert gone.settled and gone.abandoned == "the palace burns" and gone.bankrupts == {}
    assert gone.result["winner"] is None and gone.result["narrator"] is None
    assert event_names(game.app, game.challenge_id)[-1] == "Abandoned"
    assert "DrawAbandoned" not in event_names(game.app, game.challenge_id)  # dice were rolled: nothing to show
    after = {w: game.pile(w) for w in PEOPLE}
    assert after == {**before, "ilse": before["ilse"] + 3, "mara": before["mara"] - 3}  # PA-19, the loan stays
    assert game.total() == START_TOTAL
    with pytest.raises(RuleViolation) as lapsed:
        game.app.accept_loan(game.cid, ILSE, offered)
    assert lapsed.value.ruling == "PA-14"
    view = gone.view_for("ilse")
    assert all(d["value"] is not None for d in view["sides"]["opponent"]["dice"])  # C-5: all public now
    assert view["secret_seed"] is not None
    campaign = game.app.campaign(game.cid)
    assert campaign.open_challenges == []
    app, house = game.app.application, economy.house(game.app.application, campaign)
    assert economy.antagonist(app, campaign, house, "Lady Sen").engaged is None  # it left the challenge
    game.app.end_adventure(game.cid, HOUSE)
    assert not game.app.campaign(game.cid).adventure_running


def test_a_penny_ante_challenge_abandoned_after_a_seed_before_any_die_shows_every_seat_the_dice_it_fixed():
    game = Game(new_app())
    game.announce("ilse", {"players": ["ilse"]}, {"players": ["tomas"]}, 1)
    game.act("ilse", "seed", seed="lucky")
    gone = game.act("house", "abandon", reason="nobody wanted it")
    [shown] = [e for e in game.app.events.get(game.challenge_id) if type(e).__name__ == "DrawAbandoned"]
    assert len(shown.draws) == 2 * (6 + 1)
    for draw in shown.draws:
        assert draw["value"] == derive_die(gone.secret_seed, ["lucky", ""], draw["slot"], 6)
    assert event_names(game.app, game.challenge_id)[-2:] == ["DrawAbandoned", "Abandoned"]
    assert "Challenge.DrawAbandoned" not in game.app.system(game.app.campaign(game.cid)).visibility


def test_a_penny_ante_challenge_is_not_abandoned_once_a_bankruptcy_of_it_was_resolved():
    game = Game(new_app())
    game.announce("house", {"antagonist": "Lady Sen"}, {"players": ["ilse"]}, 1)
    ch = game.state
    ch.bankrupts = {"ilse": {"lost": 3, "status": "debt", "bids": []}}
    with pytest.raises(RuleViolation) as refused:
        ch.abandon("too late", "house")
    assert refused.value.ruling == "C-10"
    assert not abandon_listed(ch.legal_actions("house", {"Lady Sen": 1, "ilse": 0}, 0, {}))


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data(), setup=st.sampled_from(SETUPS), ante=st.integers(1, 3), moves=st.integers(0, 30))
def test_an_abandoned_challenge_leaves_every_pile_as_it_was_before_the_announcement(data, setup, ante, moves):
    """PA-19: whatever was bet, drawn for circumstances or given back, every penny returns to its owner
    (offers made through the challenge are never accepted here, so no penny changed hands by a loan)."""
    game = Game(new_app())
    before = {w: game.pile(w) for w in PEOPLE}
    by, challenger, opponent, extra = setup
    game.announce(by, challenger, opponent, ante, **extra)
    for _ in range(moves):
        if game.state.settled:
            return
        listed = [m for m in legal_moves(game) if m[1]["action"] != "abandon"]
        if not listed:
            break
        seat, move = data.draw(st.sampled_from(listed))
        game.act(seat, move["action"], **arguments(data, game, seat, move))
    state = game.state
    if state.settled or any(b["status"] != "pending" for b in state.bankrupts.values()):
        return
    game.act("house", "abandon", reason="the scene moved on")
    assert {w: game.pile(w) for w in PEOPLE} == before
    assert game.total() == START_TOTAL and game.app.campaign(game.cid).open_challenges == []


# -- Pool contests ----------------------------------------------------------------------------------------------
def test_a_pool_contest_abandoned_gains_nothing_and_dice_lost_in_a_roll_stay_lost():
    table = Table(table_dice=True)
    before = {s: table.pool(s) for s in ("ilse", "tomas")}
    unit = table.app.open_contest(table.cid, ILSE, "tomas", "secret")
    table.app.act(table.cid, ILSE, unit, "roll", {"count": 2, "dice": [6, 6]})  # PL-3: both dice lost
    contest = table.app.repository.get(unit)
    assert abandon_listed(contest.legal_actions("house", 0))
    assert not abandon_listed(contest.legal_actions("ilse", table.pool("ilse")))
    stored = table.app.recorder.max_notification_id()
    with pytest.raises(NotPermitted):
        table.app.act(table.cid, ILSE, unit, "abandon", {"reason": "I would rather not"})
    with pytest.raises(RuleViolation, match="C-10"):
        table.app.act(table.cid, HOUSE, unit, "abandon", {})
    assert table.app.recorder.max_notification_id() == stored
    table.app.act(table.cid, HOUSE, unit, "abandon", {"reason": "the bridge fell"})
    gone = table.app.repository.get(unit)
    assert gone.settled and gone.abandoned == "the bridge fell"
    assert gone.result == {"winner": None, "reason": "abandoned", "gains": {}}
    assert {s: table.pool(s) for s in ("ilse", "tomas")} == {"ilse": before["ilse"] - 2, "tomas": before["tomas"]}
    assert not abandon_listed(gone.legal_actions("house", 0))
    with pytest.raises(RuleViolation, match="C-10"):
        table.app.act(table.cid, HOUSE, unit, "abandon", {"reason": "again"})
    table.app.end_adventure(table.cid, HOUSE)
    assert not table.app.campaign(table.cid).adventure_running


def test_a_pool_contest_abandoned_after_a_seed_shows_the_first_rounds_dice_for_each_whole_pool():
    table = Table()
    unit = table.app.open_contest(table.cid, ILSE, "tomas", "secret")
    table.app.act(table.cid, ILSE, unit, "seed", {"seed": "ilse's words"})
    table.app.act(table.cid, HOUSE, unit, "abandon", {"reason": "night fell"})
    gone = table.app.repository.get(unit)
    [shown] = [e for e in table.app.events.get(unit) if type(e).__name__ == "DrawAbandoned"]
    assert len(shown.draws) == table.pool("ilse") + table.pool("tomas")
    for draw in shown.draws:
        assert draw["value"] == derive_die(gone.secret_seed, ["ilse's words", ""], draw["slot"], 6)


# -- Beast conflicts ----------------------------------------------------------------------------------------------
def test_a_beast_conflict_abandoned_deals_no_damage_keeps_willpower_spent_and_frees_the_antagonist():
    t = BeastTable()
    unit = t.conflict()
    ilse_before, cole_before = t.sheet("ilse"), t.cole()
    t.act(BEAST_HOUSE, unit, action="prepare", humanity=0, beast=3, willpower="before")  # C-9: declared first
    t.act(BEAST_ILSE, unit, action="pass")
    t.act(BEAST_ILSE, unit, action="roll", humanity=3, beast=2, willpower="before")
    t.act(BEAST_HOUSE, unit, action="roll", humanity=0, beast=3, willpower="before")  # spent in secret (C-5)
    assert t.cole()["willpower"] == cole_before["willpower"]
    current = t.unit(unit)
    sheets = {s: t.app.repository.get(UUID(d["character"])).values() for s, d in current.sides.items()}
    assert abandon_listed(current.legal_actions("house", sheets))
    assert not abandon_listed(current.legal_actions("ilse", sheets))
    with pytest.raises(NotPermitted):
        t.act(BEAST_ILSE, unit, action="abandon", reason="mine")
    gone = t.act(BEAST_HOUSE, unit, action="abandon", reason="dawn came")
    assert gone.settled and gone.abandoned == "dawn came" and gone.outcome is None
    assert t.sheet("ilse")["willpower"] == ilse_before["willpower"] - 1  # spent stays spent; no damage
    assert t.cole()["willpower"] == cole_before["willpower"] - 1  # its spending reaches its sheet now
    assert gone.view_for("ilse")["sides"]["opponent"]["roll"]["dice"]  # C-5: public now
    cole = t.app.repository.get(UUID(gone.sides["opponent"]["character"]))
    assert unit.hex not in cole.engaged
    t.app.end_adventure(t.cid, BEAST_HOUSE)
    assert not t.app.campaign(t.cid).adventure_running


def test_a_beast_conflict_abandoned_after_a_seed_shows_the_d10s_it_fixed_and_only_a_void_overturns_it():
    t = BeastTable()
    unit = t.conflict()
    t.act(BEAST_HOUSE, unit, action="prepare", humanity=0, beast=3)  # C-9: the House declares first
    t.act(BEAST_ILSE, unit, action="seed", seed="blood moon")
    gone = t.act(BEAST_HOUSE, unit, action="abandon", reason="the sheriff left town")
    [shown] = [e for e in t.app.events.get(unit) if type(e).__name__ == "DrawAbandoned"]
    assert {tuple(d["slot"][:3]) for d in shown.draws} == {(s, "die", i) for s in gone.sides for i in range(10)}
    for draw in shown.draws:
        assert draw["value"] == derive_die(gone.secret_seed, gone.side_seeds(), draw["slot"], 10)
    with pytest.raises(RuleViolation, match="C-6"):
        t.app.overturn(t.cid, BEAST_HOUSE, unit, "challenger", False, "no")



def test_an_abandoned_unit_takes_no_seed_or_pass_afterwards_so_its_recorded_draw_stays_verifiable():
    """C-10 / C-4: the abandoned draw was derived from the seeds known at the abandon; a seed or pass after it
    would change `side_seeds()` and break that record."""
    t = BeastTable()
    unit = t.conflict(against="tomas")
    t.act(BEAST_ILSE, unit, action="seed", seed="blood moon")
    gone = t.act(BEAST_HOUSE, unit, action="abandon", reason="the night ended")
    seeds, stored = gone.side_seeds(), len(list(t.app.events.get(unit)))
    sheets = {s: t.app.repository.get(UUID(d["character"])).values() for s, d in gone.sides.items()}
    assert not {a["action"] for a in gone.legal_actions("tomas", sheets)} & {"seed", "pass"}
    for payload in ({"action": "seed", "seed": "late"}, {"action": "pass"}):
        with pytest.raises(RuleViolation):
            t.act(Seat("tomas"), unit, **payload)
    assert len(list(t.app.events.get(unit))) == stored and t.unit(unit).side_seeds() == seeds


def test_an_abandoned_conflicts_unrevealed_antagonist_roll_is_not_revealed_again_by_hand():
    """C-5: once the unit is settled (abandoned) everything is public; a House reveal is refused, not stored."""
    t = BeastTable()
    unit = t.conflict()
    t.act(BEAST_HOUSE, unit, action="prepare", humanity=0, beast=3)
    t.act(BEAST_ILSE, unit, action="pass")
    t.act(BEAST_ILSE, unit, action="roll", humanity=3, beast=2)
    t.act(BEAST_HOUSE, unit, action="roll", humanity=0, beast=3)
    gone = t.act(BEAST_HOUSE, unit, action="abandon", reason="the night ended")
    stored = len(list(t.app.events.get(unit)))
    sheets = {s: t.app.repository.get(UUID(d["character"])).values() for s, d in gone.sides.items()}
    assert "reveal" not in {a["action"] for a in gone.legal_actions("house", sheets)}
    with pytest.raises(RuleViolation, match="C-5"):
        t.act(BEAST_HOUSE, unit, action="reveal", side="opponent")
    assert len(list(t.app.events.get(unit))) == stored
