"""Campaigns stored before the rule systems moved into ``domain/systems/`` (ADR 0009) still load.

Their events and snapshots name the classes by the old module paths (``domain.penny_ante.…``,
``domain.pool.…``). The events here are made by playing on a scratch in-memory application, then
written to the store under test directly through its recorder, each as the transcoder encodes it
but with the topic (and a created event's ``originator_topic``) it had before the move.
"""

from __future__ import annotations

import copy
from typing import Any

from eventsourcing.domain import Snapshot
from eventsourcing.persistence import StoredEvent

from domain.seats import Seat
from domain.systems.penny_ante import economy
from domain.systems.penny_ante import play as penny_ante_play
from domain.systems.pool import play as pool_play
from tests.unit.challenge_game import Game
from tests.unit.conftest import new_app
from tests.unit.test_challenges import open_round

HOUSE, ILSE, TOMAS = Seat.house(), Seat("ilse"), Seat("tomas")
MOVED = {"domain.systems.penny_ante.": "domain.penny_ante.", "domain.systems.pool.": "domain.pool."}


def old_topic(topic: str) -> str:
    for new, old in MOVED.items():
        if topic.startswith(new):
            return old + topic.removeprefix(new)
    return topic


def as_stored_before_the_move(mapper: Any, event: Any) -> StoredEvent:
    """The stored event as a campaign written before the move holds it."""
    if getattr(event, "originator_topic", None):  # a created event names its aggregate's class too
        event = copy.copy(event)
        object.__setattr__(event, "originator_topic", old_topic(event.originator_topic))
    stored = mapper.to_stored_event(event)
    return StoredEvent(originator_id=stored.originator_id, originator_version=stored.originator_version,
                       topic=old_topic(stored.topic), state=stored.state)


def play_before_the_move():
    """A Penny Ante campaign with a settled challenge and a Pool campaign with a roll, in memory."""
    game = Game(new_app())
    game.announce("ilse", {"players": ["ilse"]}, {"players": ["tomas"]}, 1)
    open_round(game, "ilse", "tomas")
    game.act("ilse", "raise", amount=2)
    game.act("tomas", "fold")
    app = game.app
    pool = app.create_campaign("Pool night", "pool")
    app.add_player(pool, HOUSE, "ilse", "Ilse", description="A brave thief with quick hands", traits={"brave": 1})
    app.add_player(pool, HOUSE, "tomas", "Tomas", description="A stubborn monk")
    app.start_adventure(pool, HOUSE)  # C-1: units of resolution happen during an adventure
    roll = app.pool_roll(pool, TOMAS, 4, "a secret seed", seed="monk's luck")
    if app.repository.get(roll).phase == "choice":
        app.act(pool, TOMAS, roll, "choose", {"choice": "house"})
    return game, pool, roll


def test_events_stored_under_the_old_system_paths_still_load(stakes, monkeypatch):
    game, pool, roll = play_before_the_move()
    scratch, cid, challenge_id = game.app, game.cid, game.challenge_id
    events = [scratch.mapper.to_domain_event(n) for n in scratch.recorder.select_notifications(1, 10_000)]
    stakes.app.recorder.insert_events([as_stored_before_the_move(stakes.app.mapper, e) for e in events])
    # A snapshot of the challenge taken half way, naming the challenge class by its old path.
    middle = scratch.repository.get(challenge_id, version=scratch.repository.get(challenge_id).version // 2)
    taken = Snapshot.take(middle)
    assert taken.topic == "domain.systems.penny_ante.challenge:Challenge"
    snapshot = Snapshot(originator_id=taken.originator_id, originator_version=taken.originator_version,
                        timestamp=taken.timestamp, topic=old_topic(taken.topic), state=taken.state)
    stakes.app.snapshots.recorder.insert_events([stakes.app.mapper.to_stored_event(snapshot)])

    stored = {n.topic for n in stakes.app.recorder.select_notifications(1, 10_000)}
    assert {"domain.penny_ante.character:Character.Created", "domain.penny_ante.challenge:Challenge.Announced",
            "domain.pool.character:PoolCharacter.Created", "domain.pool.rolls:PoolRoll.Rolled"} <= stored
    assert not any(t.startswith("domain.systems.") for t in stored)
    (kept,) = stakes.app.snapshots.get(challenge_id, desc=True, limit=1)
    assert kept.topic == "domain.penny_ante.challenge:Challenge"

    # The application loads every aggregate, through the public loaders.
    app = stakes.app.application
    campaign, pool_campaign = app.campaign(cid), app.campaign(pool)
    for seat in ("ilse", "tomas", "mara"):
        assert economy.character(app, campaign, seat).pile == game.pile(seat)
    house = economy.house(app, campaign)
    assert house.pile == game.pile("house")
    assert economy.antagonist(app, campaign, house, "Lady Sen").pennies == game.pile("Lady Sen")
    for seat in ("ilse", "tomas"):
        assert pool_play.character(app, pool_campaign, seat).pool == scratch.repository.get(
            pool_campaign.character_id(seat)).pool
    assert app.unit(pool_campaign, roll).verify()["commitment_matches"]
    reads: list[Any] = []
    real_get = app.repository.event_store.get

    def spying_get(originator_id, *args, **kwargs):
        reads.append(kwargs.get("gt"))
        return real_get(originator_id, *args, **kwargs)

    monkeypatch.setattr(app.repository.event_store, "get", spying_get)
    loaded = penny_ante_play.challenge(app, campaign, challenge_id)
    monkeypatch.undo()
    assert reads == [snapshot.originator_version]  # the old snapshot was used, then the later events
    assert Snapshot.take(loaded).state == Snapshot.take(game.state).state
    assert loaded.settled and loaded.result["winner"] == "challenger"

    # The projection applies them, and a rebuild gives the same read models.
    assert stakes.catch_up() == len(events)
    incremental = stakes.views.dump()
    assert stakes.rebuild().events == len(events)
    assert stakes.views.dump() == incremental
    assert stakes.sheet(cid, HOUSE, "ilse").pile == game.pile("ilse")
    assert stakes.budget(cid, HOUSE).pile == game.pile("house")
    assert stakes.sheet(pool, HOUSE, "tomas").pool == pool_play.character(app, pool_campaign, "tomas").pool
    view = stakes.challenge(cid, TOMAS, challenge_id)
    assert view.phase == "settled" and stakes.verify_challenge(cid, TOMAS, challenge_id).mismatches == []
    assert stakes.audit(cid, HOUSE).intact and stakes.audit(pool, HOUSE).intact

    # And play goes on: new events join the old streams.
    stakes.end_adventure(cid, HOUSE)
    assert stakes.buy_characteristic(cid, ILSE, None, "Quick").pile == game.pile("ilse") - 5
    assert stakes.raise_trait(pool, ILSE, None, "thief").traits == {"brave": 1, "thief": 1}
