"""C-10 (issue 30): one-shot draws use a per-seat secret committed before the player's input, and commit the
next one in the same write (``domain/kernel/commitments.py``, docs/fairness.md "One-shot draws")."""

from __future__ import annotations

import hashlib
from uuid import UUID

import pytest

from domain.errors import RuleViolation
from domain.fairness import derive_die, derive_shuffle
from domain.kernel.commands import Context
from domain.kernel.commitments import SeatSecret
from domain.seats import Seat
from domain.systems.beast import commands as beast
from domain.systems.pool import commands as pool
from domain.systems.pulp_cards import commands as pulp
from tests.unit.beast_table import BeastTable
from tests.unit.conftest import new_app

HOUSE, ILSE = Seat.house(), Seat("ilse")


def seated(system: str, **inputs):
    app = new_app()
    cid = app.create_campaign("Committed", system, {})
    app.add_player(cid, HOUSE, "ilse", "Ilse", **inputs)
    app.start_adventure(cid, HOUSE)
    return app, cid


def secret_of(app, cid: UUID, seat: str) -> SeatSecret:
    found = app.application.seat_secret(cid, seat)
    assert found is not None
    return found


def notifications(app) -> list:
    return app.application.recorder.select_notifications(start=1, limit=100_000)


def positions(app, originator_id: UUID) -> list[int]:
    return [n.id for n in notifications(app) if n.originator_id == originator_id]


def test_a_seat_s_commitment_is_stored_before_its_one_shot_roll_and_the_roll_uses_it():
    app, cid = seated("pool", description="A brave and clever thief")
    committed = secret_of(app, cid, "ilse")
    nonce, published, _ = committed.current()
    first = positions(app, committed.id)[0]
    roll = app.repository.get(app.pool_roll(cid, ILSE, 3, "fresh for the next one", seed="my words"))
    assert roll.seed_hash == published  # the hash stored before the seed arrived
    assert first < positions(app, roll.id)[0]  # in an earlier save, so it was public first
    # Recomputed from the revealed secret, the seed and the slots, nothing else.
    assert hashlib.sha256(roll.secret_seed.encode()).hexdigest() == published
    assert roll.dice == [derive_die(roll.secret_seed, ["my words"], ["roll", "ilse", i]) for i in range(3)]
    # The next commitment in the same write, with the next nonce and another secret.
    renewed = secret_of(app, cid, "ilse")
    assert renewed.nonce == nonce + 1 and renewed.seed_hash != published
    assert renewed.last_used == {"nonce": nonce, "unit": roll.id.hex, "seed_hash": published}
    rows = notifications(app)
    roll_at = positions(app, roll.id)[0]
    renewed_at = positions(app, renewed.id)[-1]
    between = [n for n in rows if min(roll_at, renewed_at) < n.id < max(roll_at, renewed_at)]
    assert not [n for n in between if n.topic.endswith("CommandRecord.Executed")]  # one command's one save


def test_the_fresh_secret_the_adapters_draw_for_a_one_shot_draw_becomes_the_next_commitment_not_the_draw():
    app, cid = seated("pool", description="A brave and clever thief")
    published = secret_of(app, cid, "ilse").seed_hash
    roll = app.repository.get(app.pool_roll(cid, ILSE, 2, "the server's fresh secret"))
    assert roll.secret_seed != "the server's fresh secret" and roll.seed_hash == published


def test_a_pulp_deal_by_the_house_uses_a_fresh_secret_and_a_player_s_deal_his_own_commitment():
    app, cid = seated("pulp-cards")
    house, ilse = secret_of(app, cid, "house"), secret_of(app, cid, "ilse").seed_hash
    dealt = app.repository.get(app.run(cid, HOUSE, pulp.Deal(character="Bandit"), "fresh"))
    # C-9 (review of issue 30): no other party's input, and the House can read its committed secret in its
    # export: a deal drawn with it would be foreseen. The request's fresh secret, untouched commitment.
    assert dealt.secret_seed == "fresh" and dealt.seed_hash != house.seed_hash
    assert secret_of(app, cid, "house").version == house.version
    mine = app.repository.get(app.run(cid, ILSE, pulp.Deal(cut=3, seed="cut deep"), "next"))
    assert mine.seed_hash == ilse and secret_of(app, cid, "ilse").nonce == 1
    shuffled = derive_shuffle(mine.secret_seed, ["cut deep"], mine.shuffles[0]["slot"], mine.shuffles[0]["deck"])
    assert shuffled == mine.shuffles[0]["value"]


def test_a_beast_action_uses_its_seat_s_commitment():
    table = BeastTable()
    published = secret_of(table.app, table.cid, "ilse").seed_hash
    action = table.action(difficulty=3, humanity=4, beast=2, seed="howl")
    assert action.seed_hash == published and action.secret_seed != "fixed secret"
    assert secret_of(table.app, table.cid, "ilse").nonce == 1


def test_a_rewind_of_a_one_shot_unit_draws_no_new_secret():
    table = BeastTable()
    action = table.action(difficulty=3, humanity=4, beast=2, seed="howl")
    committed = secret_of(table.app, table.cid, "ilse")
    table.run(HOUSE, table.app.parse(table.cid, "rewind", {"unit": action.id, "to_step": 1, "reason": "fishing?"}))
    again = table.act(ILSE, action.id, action="roll", humanity=4, beast=2)  # the same roll, after the rewind
    assert (again.secret_seed, again.seed_hash) == (action.secret_seed, action.seed_hash)
    assert [r["value"] for r in again.rolls] == [r["value"] for r in action.rolls]  # C-7: not a reroll
    assert secret_of(table.app, table.cid, "ilse").version == committed.version  # the commitment untouched


def test_a_refused_one_shot_draw_stores_nothing_and_keeps_the_commitment():
    app, cid = seated("pool", description="A brave and clever thief")
    before = len(notifications(app))
    with pytest.raises(RuleViolation) as refused:
        app.pool_roll(cid, ILSE, 1, "next", seed="too few dice")
    assert refused.value.ruling == "PL-2" and len(notifications(app)) == before
    assert secret_of(app, cid, "ilse").nonce == 0


# -- campaigns stored before the scheme -----------------------------------------------------------------------
def old_campaign():
    """A campaign as an older release stored it: seats seated with no commitment (no ``SeatSecret``)."""
    app = new_app()
    cid = app.create_campaign("Stored before", "pool", {})
    app.application.execute(Context(cid, HOUSE, None), app.parse(cid, "add-player", {
        "seat": "ilse", "character": "Ilse", "description": "A brave and clever thief"}))
    assert app.application.seat_secret(cid, "ilse") is None and app.application.seat_secret(cid, "house") is None
    return app, cid


def test_a_seat_of_an_older_campaign_gets_its_commitment_when_the_house_starts_an_adventure():
    app, cid = old_campaign()
    app.start_adventure(cid, HOUSE)
    published = secret_of(app, cid, "ilse").seed_hash
    assert secret_of(app, cid, "house").nonce == 0
    assert app.repository.get(app.pool_roll(cid, ILSE, 2, "next", seed="mine")).seed_hash == published


def test_a_seat_with_no_commitment_yet_may_not_add_a_seed_to_a_one_shot_draw_but_may_draw_without_one():
    app, cid = old_campaign()
    app.application.execute(Context(cid, HOUSE, None), app.parse(cid, "start-adventure", {}))  # as stored before
    before = len(notifications(app))
    with pytest.raises(RuleViolation) as refused:
        app.pool_roll(cid, ILSE, 2, "next", seed="mine")
    assert refused.value.ruling == "C-10" and len(notifications(app)) == before
    roll = app.repository.get(app.pool_roll(cid, ILSE, 2, "next"))  # the service's secret alone, as always
    committed = secret_of(app, cid, "ilse")
    assert committed.nonce == 1 and committed.last_used["seed_hash"] == roll.seed_hash
    assert app.repository.get(app.pool_roll(cid, ILSE, 2, "again", seed="mine")).seed_hash == committed.seed_hash


def test_a_commitment_needs_a_secret_and_a_renewal_the_hash_it_committed():
    with pytest.raises(ValueError):
        SeatSecret.commit(UUID(int=1), "ilse", "", "house")
    committed = SeatSecret.commit(UUID(int=1), "ilse", "s0", "house")
    with pytest.raises(RuleViolation) as refused:
        committed.renew(UUID(int=2), "another hash", "s1", "ilse")
    assert refused.value.ruling == "C-10"
    assert SeatSecret.create_id(UUID(int=1), "ilse") == committed.id != SeatSecret.create_id(UUID(int=1), "tomas")


@pytest.mark.parametrize("command", [pool.RollDice, pulp.Deal, beast.Act])
def test_every_one_shot_draw_is_declared_so(command):
    assert command.one_shot and command.draws_secret


# -- C-10: abandoned draws, only where a seed is known and nothing was drawn yet ---------------------------------
def _events(unit) -> list[str]:
    return [type(e).__name__ for e in unit.collect_events()]


def _combat(table: bool = False):
    from domain.systems.pulp_cards.combat import PulpCombat

    return PulpCombat.open(campaign_id=UUID(int=7), adventure=1, secret_seed="abandon me", table=table,
                           actor="house", combatants=[{"name": "Ilse", "seat": "ilse"}, {"name": "Cole", "seat": "house"}])


def _conflict(table: bool = False):
    from domain.systems.twenty_one.conflict import Conflict

    return Conflict.open(campaign_id=UUID(int=7), adventure=1, seats=["ilse", "tomas"], secret_seed="abandon me",
                         table=table, actor="house")


def test_a_pulp_combat_ended_after_its_first_card_or_with_table_cards_abandons_no_draw():
    dealt = _combat()
    dealt.deal_surprise("house", "Cole", 0, None, None, "house")  # called (C-10) ...
    dealt.add_seed("ilse", "lucky", "ilse")  # ... and dealt with the players' seed
    dealt.end("house", "over", "house")
    assert "DrawAbandoned" not in _events(dealt)
    table = _combat(table=True)
    table.add_seed("ilse", "lucky", "ilse")
    table.end("house", None, "house")
    assert "DrawAbandoned" not in _events(table)
    called = _combat()
    called.deal_surprise("house", "Cole", 0, None, None, "house")
    called.end("house", None, "house")  # no input known: nothing to show
    assert "DrawAbandoned" not in _events(called)
    seeded = _combat()  # a combat stored before issue 30: the players' seed came before any call
    seeded._seed_added(side="players", seed="lucky", actor="ilse")
    seeded.end("house", None, "house")
    assert _events(seeded)[-2:] == ["DrawAbandoned", "Ended"]


def test_a_twenty_one_conflict_ended_after_the_deal_abandons_no_draw_and_one_ended_seeding_shows_the_deal():
    dealt = _conflict()
    dealt.add_seed("tomas", "mine", "tomas")
    dealt.pass_seed("ilse", "ilse")  # the last input deals (C-10)
    dealt.end("house")
    assert "DrawAbandoned" not in _events(dealt)
    seeded = _conflict()
    seeded.add_seed("tomas", "mine", "tomas")
    seeded.end("house")
    abandoned = [e for e in seeded.collect_events() if type(e).__name__ == "DrawAbandoned"]
    assert len(abandoned) == 1 and seeded.settled
    order = derive_shuffle("abandon me", ["", "mine"], ["shuffle", 0], abandoned[0].draws[0]["deck"])
    assert abandoned[0].draws[0]["order"] == order
    assert abandoned[0].hands == {"ilse": order[:3], "tomas": order[3:6]}
    # had it been dealt, the same cards would have gone to the same hands (C-7: the slot decides)
    twin = _conflict()
    twin.add_seed("tomas", "mine", "tomas")
    twin.pass_seed("ilse", "ilse")
    assert twin.hands == abandoned[0].hands
