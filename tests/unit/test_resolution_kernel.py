"""The resolution kernel on its own (C-3 … C-9), with a tiny unit of resolution; then the Challenge on it:
stored events and snapshots still replay, and values shown to every seat stay shown after a rewind (C-8)."""

from __future__ import annotations

from typing import Any

import pytest
from eventsourcing.domain import Aggregate, Snapshot, event

from domain.errors import RuleViolation
from domain.fairness import commitment
from domain.kernel.resolution import Resolution
from domain.systems.pulp_cards.rules import POINTS as PULP_14
from domain.systems.twenty_one.cards import DECK as STANDARD_52
from tests.unit.challenge_game import HOUSE, Game
from tests.unit.conftest import new_app

SECRET = "5e" * 32


class Tiny(Resolution, Aggregate):
    """A unit with dice, a deck and a hand: just enough to drive the kernel."""

    REWOUND = ("sides", "phase", "rolls", "shuffles", "turn", "hand")

    @event("Opened")
    def __init__(self, secret_seed: str, seed_hash: str, table: bool) -> None:
        self.secret_seed, self.seed_hash, self.table = secret_seed, seed_hash, table
        self.sides = {"challenger": {"seats": ["ann"], "seed": None}, "opponent": {"seats": ["house"], "seed": None}}
        self.rolls: list[dict[str, Any]] = []
        self.phase, self.turn, self.hand = "open", 0, []

    @property
    def settled(self) -> bool:
        return self.phase == "settled"

    def add_seed(self, side: str, seed: str) -> None:
        self._seed_added(side=side, seed=self.verify_seed(side, seed))

    @event("SeedAdded")
    def _seed_added(self, side: str, seed: str) -> None:
        self.put_seed(side, seed)

    def roll(self, count: int, entered: list[int] | None = None, faces: int = 6) -> list[int]:
        slots = [["turn", self.turn, i] for i in range(count)]
        dice = self.draw_dice(slots, entered, faces)
        self._rolled(slots=slots, dice=dice, faces=faces)
        return dice

    @event("Rolled")
    def _rolled(self, slots: list, dice: list[int], faces: int) -> None:
        for slot, value in zip(slots, dice, strict=True):
            self.record_result(slot, value, self.table, faces)
        self.turn += 1

    def deal(self, cards, entered: list[str] | None = None) -> list[str]:
        slot = ["deck", self.turn]
        deck = self.shuffle(slot, list(cards), entered, out=self.hand)
        self._dealt(slot=slot, cards=list(cards), deck=deck)
        return deck

    @event("Dealt")
    def _dealt(self, slot: list, cards: list[str], deck: list[str]) -> None:
        self.record_shuffle(slot, cards, deck, self.table)
        self.hand = [*self.hand, *deck[:3]]
        self.turn += 1

    def finish(self) -> None:
        self._finished()

    @event("Finished")
    def _finished(self) -> None:
        self.phase = "settled"

    def rewind(self, to_step: int, past: Tiny, reason: str) -> None:
        reason, state = self.verify_rewind(to_step, past, reason)
        self._rewound(state=state)

    @event("Rewound")
    def _rewound(self, state: dict) -> None:
        self.restore(state)


def tiny(table: bool = False) -> tuple[Tiny, list]:
    unit = Tiny(secret_seed=SECRET, seed_hash=commitment(SECRET), table=table)
    return unit, list(unit.collect_events())


def past(events: list, version: int) -> Tiny:
    state = None
    for e in events[:version]:
        state = e.mutate(state)
    return state  # type: ignore[return-value]


def step(unit: Tiny, events: list) -> None:
    events += unit.collect_events()


def test_c4_seeds_are_added_before_the_first_draw_and_locked_after_even_after_a_rewind():
    unit, events = tiny()
    unit.add_seed("challenger", "ann's words")
    with pytest.raises(RuleViolation, match="C-4: this side has already added its seed"):
        unit.add_seed("challenger", "again")
    unit.roll(2)
    step(unit, events)
    assert unit.seeds_locked and not unit.seeds_open()
    with pytest.raises(RuleViolation, match="C-4: a side adds its seed before the first roll"):
        unit.add_seed("opponent", "late")
    unit.rewind(2, past(events, 2), "before the roll")
    assert unit.rolls == [] and unit.seeds_locked and unit.side_seeds() == ["ann's words", ""]
    with pytest.raises(RuleViolation, match="C-4"):
        unit.add_seed("opponent", "fishing after the rewind")


def test_c9_the_house_seat_adds_no_seed_once_another_sides_seed_is_known():
    unit, _ = tiny()
    unit.add_seed("challenger", "ann's words")
    with pytest.raises(RuleViolation, match="C-9"):
        unit.add_seed("opponent", "house words")


def test_c7_the_same_slot_gives_the_same_die_after_a_rewind():
    unit, events = tiny()
    first = unit.roll(4)
    d10 = unit.roll(5, faces=10)
    step(unit, events)
    assert all(1 <= d <= 10 for d in d10)
    unit.rewind(1, past(events, 1), "again")
    assert unit.roll(4) == first and unit.roll(5, faces=10) == d10
    assert [r.get("faces", 6) for r in unit.rolls] == [6] * 4 + [10] * 5


def test_c3_entered_dice_are_validated_and_marked_and_c7_entered_the_same_after_a_rewind():
    unit, events = tiny(table=True)
    with pytest.raises(RuleViolation, match="C-3: this challenge is played with table dice: enter 2 dice"):
        unit.roll(2)
    with pytest.raises(RuleViolation, match="C-3: expected 2 dice"):
        unit.roll(2, [3])
    with pytest.raises(RuleViolation, match="C-3: a d6 shows 1 to 6, not 7"):
        unit.roll(2, [3, 7])
    unit.roll(2, [3, 4])
    unit.roll(1, [10], faces=10)
    step(unit, events)
    assert [(r["value"], r["entered"]) for r in unit.rolls] == [(3, True), (4, True), (10, True)]
    unit.rewind(1, past(events, 1), "again")
    with pytest.raises(RuleViolation, match=r"C-7: slot \['turn', 0, 1\] showed 4 before the rewind"):
        unit.roll(2, [3, 5])
    unit.roll(2, [3, 4])


def test_c3_server_dice_are_not_entered_by_hand():
    unit, _ = tiny()
    with pytest.raises(RuleViolation, match="C-3: dice are entered by hand only in table mode"):
        unit.roll(1, [6])


def test_c4_verify_recomputes_every_result_and_reports_a_tampered_value():
    unit, _ = tiny()
    unit.add_seed("challenger", "ann's words")
    unit.roll(3)
    unit.deal(PULP_14)
    assert unit.verify()["verifiable"] is False  # the secret is revealed at settlement
    unit.finish()
    report = unit.verify()
    assert report["commitment_matches"] and report["checked"] == 4 and report["mismatches"] == []
    assert report["side_seeds"] == ["ann's words", ""] and report["secret_seed"] == SECRET
    unit.rolls[1]["value"] = unit.rolls[1]["value"] % 6 + 1
    unit.shuffles[0]["value"] = unit.shuffles[0]["value"][::-1]
    report = unit.verify()
    assert [m["slot"] for m in report["mismatches"]] == [["turn", 0, 1], ["deck", 1]]
    unit.seed_hash = "0" * 64
    assert unit.verify()["commitment_matches"] is False


def test_c4_entered_results_are_counted_not_checked():
    unit, _ = tiny(table=True)
    unit.roll(2, [1, 2])
    unit.finish()
    report = unit.verify()
    assert (report["checked"], report["entered"], report["mismatches"]) == (0, 2, [])


def test_c7_a_shuffle_is_a_permutation_deterministic_per_slot_and_a_reshuffle_is_its_own_slot():
    unit, events = tiny()
    deck = unit.deal(STANDARD_52)
    again = unit.deal(STANDARD_52)  # a reshuffle: the next slot
    step(unit, events)
    assert sorted(deck) == sorted(STANDARD_52) and len(set(deck)) == 52
    assert deck != list(STANDARD_52) and again != deck
    unit.rewind(1, past(events, 1), "deal again")
    assert unit.deal(STANDARD_52) == deck and unit.deal(STANDARD_52) == again


def test_c3_entered_cards_exist_in_the_deck_and_are_not_already_out():
    unit, _ = tiny(table=True)
    with pytest.raises(RuleViolation, match="C-3.*not one of the cards this table plays with"):
        unit.deal(PULP_14, ["XX"])
    unit.deal(PULP_14, ["BA", "B2", "B4"])
    with pytest.raises(RuleViolation, match="C-3.*already out"):
        unit.deal(PULP_14, ["B2"])
    assert unit.shuffles[0]["entered"] and unit.hand == ["BA", "B2", "B4"]


def test_c5_a_cup_belongs_to_a_side_a_hand_to_a_seat_and_secrets_to_the_house():
    unit, _ = tiny()
    assert unit.seats_of("opponent") == ["house"]
    assert unit.owner_sees("challenger", "ann") and not unit.owner_sees("challenger", "house")
    assert unit.owner_sees("ann", "ann") and not unit.owner_sees("ann", "bob")
    assert unit.owner_sees("house", "house") and not unit.owner_sees("house", "ann")
    unit.finish()
    assert unit.owner_sees("ann", "bob")  # after the end everything is public


def test_c8_a_value_shown_to_every_seat_stays_shown_through_a_rewind():
    unit, events = tiny()
    unit.roll(2)
    step(unit, events)
    unit.show([["turn", 0, 0]])
    assert unit.was_shown(["turn", 0, 0]) and not unit.was_shown(["turn", 0, 1])
    unit.rewind(1, past(events, 1), "again")
    assert unit.was_shown(["turn", 0, 0]) and Tiny.shown == {}  # the class default is never written


def test_c6_a_settled_unit_is_not_rewound_and_the_step_is_checked():
    unit, events = tiny()
    unit.roll(1)
    step(unit, events)
    with pytest.raises(RuleViolation, match="C-6: rewind to a step from 1 to 1, not 5"):
        unit.rewind(5, past(events, 1), "too far")
    with pytest.raises(RuleViolation, match="C-6: a reason must not be empty"):
        unit.rewind(1, past(events, 1), " ")
    unit.finish()
    with pytest.raises(RuleViolation, match="C-6: a settled challenge is not rewound"):
        unit.rewind(1, past(events, 1), "no")


# -- the Challenge on the kernel ---------------------------------------------------------------------------
SEN = {"antagonist": "Lady Sen"}


def challenge_to_betting(game: Game):
    game.announce("ilse", {"players": ["ilse"]}, {"players": ["tomas"]}, 1, table=True)
    game.act("ilse", "seed", seed="ilse's words")
    game.act("ilse", "declare", characteristics=["Whip Smart"])
    game.act("tomas", "declare", characteristics=[])
    game.act("ilse", "roll", dice=[1, 1])
    game.act("tomas", "roll", dice=[6])
    game.act("ilse", "keep", cup=[1])
    return game.act("tomas", "keep", cup=[])


def test_a_challenge_replays_the_same_from_its_stored_events_and_from_a_snapshot():
    game = Game(new_app())
    challenge_to_betting(game)
    game.act("ilse", "raise", amount=3)
    stored = game.state
    events = [game.app.mapper.to_domain_event(s) for s in game.app.recorder.select_events(game.challenge_id)]
    replayed = past(events, len(events))
    game.app.take_snapshot(game.challenge_id)
    from_snapshot = game.app.repository.get(game.challenge_id)
    for copy in (replayed, from_snapshot):
        assert vars(copy) == vars(stored)
        assert copy.view_for("tomas") == stored.view_for("tomas")
    game.act("tomas", "call")
    assert game.state.phase == "new-circumstances"


def test_a_challenge_snapshot_from_before_the_kernel_plays_on():
    """A snapshot taken before the draw order (PA-22) and shown values (C-8) were kept still plays on."""
    game = Game(new_app())
    challenge_to_betting(game)
    snapshot = Snapshot.take(game.state)
    state = dict(snapshot.state)
    for data in state["sides"].values():
        del data["drawn"]
    state.pop("shown", None)
    old = Snapshot(originator_id=snapshot.originator_id, originator_version=snapshot.originator_version,
                   timestamp=snapshot.timestamp, topic=snapshot.topic, state=state).mutate(None)
    piles = {"ilse": 24, "tomas": 29}
    old.bet("challenger", "raise", 3, piles, "ilse")
    old.bet("opponent", "all-in", None, {"ilse": 21, "tomas": 2}, "tomas")
    assert old.wager("challenger") == old.wager("opponent") == 3 and old.shown == {}


def test_c8_dice_shown_at_the_showdown_stay_shown_after_a_rewind_marked_as_seen_before():
    game = Game(new_app())
    challenge_to_betting(game)
    betting = game.state.version
    assert game.state.view_for("tomas")["sides"]["challenger"]["dice"][1] == {"value": None, "in_cup": True}
    game.act("ilse", "check")
    game.act("tomas", "raise", amount=29)
    game.act("ilse", "all-in")
    game.act("ilse", "roll", dice=[1])
    state = game.act("tomas", "roll", dice=[])
    assert state.phase == "bankruptcy"  # revealed to every seat (C-5)
    game.app.rewind_challenge(game.cid, HOUSE, game.challenge_id, betting, "the raise was misheard")
    dice = game.state.view_for("tomas")["sides"]["challenger"]["dice"]
    assert dice == [{"value": 1, "in_cup": False}, {"value": 1, "in_cup": True, "seen_before_rewind": True}]
    assert game.state.view_for("mara")["sides"]["challenger"]["dice"][1]["seen_before_rewind"]
    assert game.state.view_for("ilse")["sides"]["challenger"]["dice"][1] == {"value": 1, "in_cup": True}


def test_c8_a_die_revealed_at_the_keep_stays_shown_after_a_rewind_to_before_the_keep():
    game = Game(new_app())
    challenge_to_betting(game)
    rolled = game.state.version - 2
    game.app.rewind_challenge(game.cid, HOUSE, game.challenge_id, rolled, "keep again")
    dice = game.state.view_for("tomas")["sides"]["challenger"]["dice"]
    assert dice == [{"value": 1, "in_cup": False, "seen_before_rewind": True}, {"value": None, "in_cup": False}]
