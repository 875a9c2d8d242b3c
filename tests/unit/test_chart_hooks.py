"""Each system's chart hook (issue 31, ADR 0035: ``TRACKED`` in its adapter module): what it tracks, the line a
character's first event starts, and how each event moves it; every event it names is one the system's own
projection follows, so the chart and the sheet read the same events."""

from __future__ import annotations

from types import SimpleNamespace as Event

import pytest

from adapters.plugin import Line, Tracked
from adapters.systems import edge
from domain.kernel.registry import supported


@pytest.mark.parametrize("system", [s.id for s in supported()])
def test_every_system_declares_what_its_sheets_track_from_events_its_projection_follows(system: str) -> None:
    module = edge(system)
    tracked = module.TRACKED
    assert isinstance(tracked, Tracked) and tracked.label and tracked.ruling
    assert tracked.starts and set(tracked.starts) | set(tracked.moves) <= set(module.PROJECTION.handlers)


def test_penny_ante_charts_a_players_pile_pa_1() -> None:
    t = edge("penny-ante").TRACKED
    assert t.starts["Character.Created"](Event(seat="ilse", name="Ilse Varn", pile=30)) == Line("ilse", "Ilse Varn", 30)
    moves = {name: move(Event(amount=4, cost=5, received=9, staked=3)) for name, move in t.moves.items()}
    assert moves["Character.CharacteristicBought"] == -5 and moves["Character.PenniesWagered"] == -4
    assert moves["Character.LoanReceived"] == 4 and moves["Character.StakesSettled"] == 9  # what came back
    assert not any(name.startswith("Antagonist.") for name in t.moves)  # the House's purses are not a seat's


def test_the_pool_charts_the_dice_left_after_creation_pl_1() -> None:
    t = edge("pool").TRACKED
    line = t.starts["PoolCharacter.Created"](Event(seat="ilse", name="Ilse", pool=12, traits={"Brave": 1}))
    assert line.value == 10  # +1 costs 2 dice
    assert t.moves["PoolCharacter.DiceLost"](Event(count=3)) == -3
    assert t.moves["PoolCharacter.TraitCashedIn"](Event(rating=2)) == 2


def test_twenty_one_charts_holds_from_zero_to_8() -> None:
    t = edge("twenty-one").TRACKED
    assert t.starts["TwentyOneCharacter.Created"](Event(seat="ilse", name="Ilse")).value == 0
    assert t.moves["TwentyOneCharacter.HoldSpent"](Event()) == -1
    assert t.moves["TwentyOneCharacter.HoldsRetaken"](Event(count=2)) == -2


def test_beast_charts_willpower_and_an_antagonists_line_is_the_houses_c_5() -> None:
    t = edge("beast").TRACKED
    player = t.starts["BeastCharacter.Created"](Event(seat="ilse", name="Ilse", willpower_max=6))
    foe = t.starts["BeastAntagonist.Created"](Event(name="Sheriff Cole", willpower_max=3))
    assert (player.value, player.seen_by) == (6, None)
    assert (foe.seat, foe.value, foe.seen_by) == ("house", 3, ("house",))
    assert t.moves["BeastAntagonist.Adjusted"](Event(willpower=-2, humanity=0)) == -2
    assert t.moves["BeastCharacter.WillpowerRestored"](Event(amount=1)) == 1


def test_pulp_counts_the_conditions_the_house_notes_pu_6() -> None:
    t = edge("pulp-cards").TRACKED
    assert t.moves["PulpCharacter.NoteAdded"](Event(kind="condition")) == 1
    assert t.moves["PulpCharacter.NoteAdded"](Event(kind="note")) == 0  # no point recorded
