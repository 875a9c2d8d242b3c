"""Issue 30: a rewind to step k of a Twenty-one conflict is the state of replaying steps 1..k of the timeline
that step belongs to, the holds on the character's sheet included (C-6, TO-8), whichever timeline that is."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.errors import RuleViolation
from domain.kernel.commands import Context
from domain.seats import Seat
from domain.systems.twenty_one import commands as cmd
from tests.unit.test_twenty_one_property import inputs
from tests.unit.twenty_one_game import Game


def test_a_rewind_to_a_step_of_an_abandoned_timeline_takes_the_hold_spent_there_again():  # C-6, TO-8
    game = Game(holds=1, table=False)
    game.inputs()
    hand = game.conflict.hands["ilse"]
    game.act("ilse", "lay", cards=hand[:2])
    before = game.conflict.version
    game.act("ilse", "hold", draw=True)
    spent = game.conflict.version  # the abandoned timeline: the hold is spent, its card pending
    assert game.holds("ilse") == 0 and game.conflict.action["pending"] is not None
    game.rewind(before)
    assert game.holds("ilse") == 1 and game.conflict.action["pending"] is None
    game.rewind(before - 1)  # back before the lay, and lay again: a second timeline
    game.act("ilse", "lay", cards=hand[:2])
    assert game.holds("ilse") == 1
    conflict = game.rewind(spent)  # the step after the hold spent in the abandoned timeline
    assert conflict.action["pending"] is not None and conflict.holds_spent == {"ilse": 1}
    assert game.holds("ilse") == 0  # the sheet says what replaying steps 1..spent says
    with pytest.raises(RuleViolation) as twice:  # the hold of that step is the one spent: no second one
        game.act("ilse", "hold", set_aside=True)
    assert twice.value.ruling == "TO-8"


def test_a_rewind_to_a_step_whose_hold_the_sheet_no_longer_holds_is_refused_and_nothing_stored():  # C-6, TO-8
    game = Game(seats=("ilse",), holds=1, table=False)
    game.inputs()
    hand = game.conflict.hands["ilse"]
    game.act("ilse", "lay", cards=hand[:2])
    before = game.conflict.version
    game.act("ilse", "hold", draw=True)
    spent = game.conflict.version
    game.rewind(before)
    assert game.holds("ilse") == 1
    other = Game.__new__(Game)  # a second conflict of the same campaign, where the returned hold is spent
    other.app, other.cid, other.seats, other._read = game.app, game.cid, ["ilse"], None
    other.unit = game.app.execute(Context(game.cid, Seat.house(), secret="another"), cmd.OpenConflict(characters=["ilse"]))
    other.inputs()
    other.act("ilse", "lay", cards=other.conflict.hands["ilse"][:2])
    other.act("ilse", "hold", draw=True)
    assert game.holds("ilse") == 0
    stored = game.conflict.version
    with pytest.raises(RuleViolation) as refused:
        game.rewind(spent)
    assert refused.value.ruling == "C-6" and "grant the holds first" in str(refused.value)
    assert game.conflict.version == stored and game.holds("ilse") == 0


KEPT = ("deck", "discard", "hands", "epochs", "phase", "round", "acted", "assisted", "action", "ordering",
        "turn_order", "results", "shuffled", "holds_spent", "last_order")


def _payload(move: dict) -> dict:
    """A move as ``tests/unit/test_twenty_one_property.py`` draws it, as the action's request body."""
    name = move["action"]
    body: dict = {"action": name}
    if name == "seed":
        body["seed"] = move["seed"]
    elif name in ("order-card",):
        body["card"] = move["card"]
    elif name in ("assist", "hinder"):
        body["replace_with"] = move["card"]
    elif name == "lay":
        body["cards"] = move["cards"]
    elif name == "hold":
        body["set_aside" if move["use"] == "set-aside" else "draw"] = True
    elif name == "keep":
        body["keep"] = move["keep"]
    elif name == "modifier":
        body.update(value=move["value"], source="the ground")
    return body


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_rewind_to_any_step_is_the_replay_of_the_kept_steps_and_a_step_inside_a_move_is_refused(data):
    # C-6, C-7, TO-8 (issue 30): random legal play with random rewinds. Every step a command ended at is
    # remembered with the conflict and the holds on each sheet; a rewind to it gives exactly that, whichever
    # timeline it belongs to. Every other step lies inside one move: the rewind is refused and nothing stored.
    seats = ["ilse", "tomas"][: data.draw(st.integers(1, 2), label="players")]
    game = Game(seats=seats, holds=data.draw(st.integers(1, 2), label="holds"), table=False)

    def state() -> tuple:
        conflict = game.conflict
        return {k: getattr(conflict, k) for k in KEPT}, {s: game.holds(s) for s in seats}

    stops = {game.conflict.version: state()}
    for _ in range(data.draw(st.integers(5, 30), label="commands")):
        conflict = game.conflict
        if conflict.settled:
            break
        if conflict.version > 2 and data.draw(st.integers(0, 3), label="rewind now") == 0:
            step = data.draw(st.integers(1, conflict.version - 1), label="step")
            if step not in stops:
                with pytest.raises(RuleViolation) as refused:
                    game.rewind(step)
                assert refused.value.ruling == "C-6" and "inside one move" in str(refused.value)
                assert game.conflict.version == conflict.version
                continue
            game.rewind(step)
            assert state() == stops[step], f"rewind to {step}"
            stops[game.conflict.version] = stops[step]
            continue
        holds = {s: game.holds(s) for s in seats}
        offers = {s: conflict.legal_actions(s, holds.get(s, 0)) for s in ["house", *seats]}
        choices = [(s, m) for s, listed in offers.items() for m in listed
                   if m["action"] not in ("end", "abandon")]
        if not choices:
            break
        seat, listed = data.draw(st.sampled_from(choices), label="move")
        game.act(seat, listed["action"], **{k: v for k, v in _payload(
            inputs(data, conflict, seat, listed, listed["action"])).items() if k != "action"})
        stops[game.conflict.version] = state()
