"""C-9, C-10 with PA-7, PA-8, PA-13: the reroll of a challenge the House plays waits for a fresh seed.

Once the players' first seeds are in, the House can compute every die from its secret; its cup (PA-8) and its
second circumstance (PA-7, PA-13) would be chosen knowing the reroll and second circumstance dice. Those dice
are therefore drawn from slots carrying the players' fresh seed, given after both sides called their reroll,
in the same write as that seed (ADR 0029, addendum). Through the service, on both stores."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any
from uuid import UUID

import pytest

from domain.errors import RuleViolation
from tests.integration.conformance import HOUSE, Recipe, Step, Table

HOUSE_CHALLENGES = Step(HOUSE, "announce-challenge", {"challenger": {"antagonist": "Lady Sen"},
                                                      "opponent": {"players": ["ilse"]}, "ante": 1})


@pytest.fixture
def table(conformance_table: Callable[[str], Table]) -> Table:
    return conformance_table("penny-ante")


def listed(table: Table, unit: UUID, seat: str) -> list[dict[str, Any]]:
    return [a for s, a in table.legal(unit) if s == seat]


def to_the_calls(table: Table, cup: list[int], *, house_circumstance: str | None = None,
                 double_down: bool = False) -> UUID:
    """Lady Sen (Poison: two dice) against Ilse; both roll, cup, check twice; the House declares its second
    circumstance (or none), both call their reroll."""
    unit = table.send(HOUSE_CHALLENGES).id
    table.act(HOUSE, unit, {"action": "declare", "characteristics": ["Poison"]})
    table.act("ilse", unit, {"action": "declare", "characteristics": ["Sly"]})
    table.act("ilse", unit, {"action": "seed", "seed": "ilse's first words"})
    table.act(HOUSE, unit, {"action": "roll"})
    table.act("ilse", unit, {"action": "roll"})
    table.act(HOUSE, unit, {"action": "keep", "cup": cup})
    table.act("ilse", unit, {"action": "keep", "cup": [0]})
    table.act(HOUSE, unit, {"action": "check"})
    table.act("ilse", unit, {"action": "check"})
    if house_circumstance is not None:
        table.act(HOUSE, unit, {"action": "double-down" if double_down else "circumstance",
                                "text": house_circumstance})
    table.act(HOUSE, unit, {"action": "roll"})
    table.act("ilse", unit, {"action": "roll"})
    return unit


def to_the_checks(table: Table) -> UUID:
    """Lady Sen against Ilse, nothing declared, Ilse's pass; both roll, cup one die and check: the reroll is next."""
    unit = table.send(HOUSE_CHALLENGES).id
    for seat, body in [(HOUSE, {"action": "declare", "characteristics": []}),
                       ("ilse", {"action": "declare", "characteristics": []}), ("ilse", {"action": "pass"}),
                       (HOUSE, {"action": "roll"}), ("ilse", {"action": "roll"}),
                       (HOUSE, {"action": "keep", "cup": [0]}), ("ilse", {"action": "keep", "cup": [0]}),
                       (HOUSE, {"action": "check"}), ("ilse", {"action": "check"})]:
        table.act(seat, unit, body)
    return unit


def step_two(table: Table, unit: UUID) -> list[dict[str, Any]]:
    return [r for r in table.unit(unit).rolls if r["slot"][0] == "reroll" or r["slot"][:2] == ["circumstance", 2]]


def test_the_house_cannot_know_the_reroll_dice_when_choosing_the_same_choice_with_two_fresh_seeds_differs_c9(
        table: Table) -> None:
    unit = to_the_calls(table, [0, 1], house_circumstance="the fog rolls in")
    assert step_two(table, unit) == []  # nothing drawn before the fresh seed (C-10)
    table.act("ilse", unit, {"action": "seed", "seed": "ilse's fresh words"})
    records = step_two(table, unit)
    assert sorted(r["slot"][0] for r in records) == ["circumstance", "reroll", "reroll", "reroll"]
    assert all(r["slot"][-2:] == ["fresh", "ilse's fresh words"] for r in records)  # the slot is recorded whole
    assert table.unit(unit).phase == "betting-2"
    found = table.unit(unit)
    recipe = Recipe(found.secret_seed, found.side_seeds())
    assert [recipe.die(r["slot"]) for r in records] == [r["value"] for r in records]
    # same secret, seeds and choices; another fresh seed: other dice (four d6 come out equal once in 1,296 by
    # chance, so three other seeds are tried and one of them must differ: the CI met that chance once)
    others = [[recipe.die([*r["slot"][:-1], words]) for r in records]
              for words in ("quite other words", "other words again", "a third seed")]
    assert any(other != [r["value"] for r in records] for other in others)


def test_the_fresh_seed_is_listed_for_the_player_even_when_the_house_returned_no_die_c5_c9(table: Table) -> None:
    unit = to_the_calls(table, [])
    assert {"action": "seed", "member": "opponent", "fresh": True, "required": ["seed"]} in listed(table, unit, "ilse")
    assert not any(a["action"] == "pass" for a in listed(table, unit, "ilse"))
    assert not any(a["action"] in ("roll", "seed", "circumstance") for a in listed(table, unit, HOUSE))
    table.act("ilse", unit, {"action": "seed", "seed": "fresh"})
    assert [r["slot"][0] for r in step_two(table, unit)] == ["reroll"]  # only Ilse's cup


def test_a_pass_of_the_fresh_seed_is_refused_c9(table: Table) -> None:
    unit = to_the_calls(table, [0])
    before = table.events()
    with pytest.raises(RuleViolation, match="C-9: a fresh seed is given, not passed"):
        table.act("ilse", unit, {"action": "pass"})
    assert table.events() == before


def test_the_dice_wait_until_both_sides_called_and_the_house_seeds_nothing_c9(table: Table) -> None:
    unit = to_the_checks(table)
    table.act("ilse", unit, {"action": "roll"})
    assert not any(a["action"] == "seed" for a in listed(table, unit, "ilse"))  # the House has not called
    table.act(HOUSE, unit, {"action": "roll"})
    assert step_two(table, unit) == []
    with pytest.raises(RuleViolation):
        table.act(HOUSE, unit, {"action": "seed", "seed": "the House's words"})


def test_after_a_rewind_with_the_fresh_seed_kept_the_house_makes_the_same_choice_and_the_draw_comes_at_once_c9(
        table: Table) -> None:
    unit = to_the_calls(table, [1], house_circumstance="the fog rolls in", double_down=True)
    table.act("ilse", unit, {"action": "seed", "seed": "fresh words"})
    drawn = step_two(table, unit)
    version = table.unit(unit).version
    # back to the start of step 2 (both had checked): the fresh seed stays given (C-7)
    start = next(v for v in range(version - 1, 0, -1) if _phase_at(table, unit, v) == "betting-1") + 1
    table.rewind(unit, start)
    assert table.unit(unit).phase == "new-circumstances"
    assert not any(a["action"] in ("roll", "circumstance") for a in listed(table, unit, HOUSE))
    assert any(a["action"] == "double-down" for a in listed(table, unit, HOUSE))  # only the bound choice
    before = table.events()
    with pytest.raises(RuleViolation, match="C-9: the House chose its second circumstance otherwise"):
        table.act(HOUSE, unit, {"action": "circumstance", "text": "another one"})
    with pytest.raises(RuleViolation, match="C-9"):
        table.act(HOUSE, unit, {"action": "roll"})
    assert table.events() == before
    table.act(HOUSE, unit, {"action": "double-down", "text": "the fog again"})
    # the House's call still only calls (Ilse has not called); Ilse's, the last, draws at once: not so listed
    assert [a.get("drawn_with_fresh_seed") for a in listed(table, unit, HOUSE) if a["action"] == "roll"] == [True]
    table.act(HOUSE, unit, {"action": "roll"})
    assert not any(a["action"] == "seed" for a in listed(table, unit, "ilse"))
    assert [a.get("drawn_with_fresh_seed") for a in listed(table, unit, "ilse") if a["action"] == "roll"] == [None]
    table.act("ilse", unit, {"action": "roll"})  # the last call draws at once, the same dice (C-7)
    again = step_two(table, unit)
    assert [(r["slot"], r["value"]) for r in again[-len(drawn):]] == [(r["slot"], r["value"]) for r in drawn]
    assert table.unit(unit).phase == "betting-2"


def test_after_a_rewind_before_the_cup_with_the_fresh_seed_kept_the_house_cups_the_same_dice_c9(
        table: Table) -> None:
    unit = to_the_calls(table, [0])
    table.act("ilse", unit, {"action": "seed", "seed": "fresh words"})
    keep_step = next(v for v in range(1, table.unit(unit).version) if _phase_at(table, unit, v) == "keep")
    table.rewind(unit, keep_step)
    with pytest.raises(RuleViolation, match="C-9: the House chose its cup"):
        table.act(HOUSE, unit, {"action": "keep", "cup": [0, 1]})


def test_a_rewind_to_the_step_that_waited_for_the_fresh_seed_is_refused_once_it_is_kept_c6(table: Table) -> None:
    unit = to_the_calls(table, [0])
    waiting = table.unit(unit).version
    table.act("ilse", unit, {"action": "seed", "seed": "fresh words"})
    with pytest.raises(RuleViolation, match="C-6: at step .* fresh seeds that were given since"):
        table.rewind(unit, waiting)


def test_verify_recomputes_every_die_with_the_fresh_slots_c4(table: Table) -> None:
    unit = to_the_calls(table, [0, 1], house_circumstance="rain")
    table.act("ilse", unit, {"action": "seed", "seed": "fresh words"})
    table.act(HOUSE, unit, {"action": "check"})
    table.act("ilse", unit, {"action": "check"})
    found = table.unit(unit)
    assert found.settled
    report = found.verify()
    assert report["mismatches"] == [] and report["checked"] == len(found.rolls)
    recipe = Recipe(report["secret_seed"], report["side_seeds"])
    assert all(recipe.die(r["slot"]) == r["value"] for r in found.rolls)
    assert any(r["slot"][-2:] == ["fresh", "fresh words"] for r in found.rolls)


def test_the_houses_cup_stays_hidden_from_the_player_whatever_it_chose_c5(table: Table) -> None:
    listings = []
    for cup in ([], [0, 1]):
        unit = to_the_calls(table, cup)
        view = table.view("ilse", unit).model_dump(mode="json")
        assert all(d["value"] is None for d in view["sides"]["challenger"]["dice"] if d["in_cup"])
        listings.append(json.dumps(listed(table, unit, "ilse"), sort_keys=True))
        assert {"action": "seed", "member": "opponent", "fresh": True, "required": ["seed"]} in listed(table, unit, "ilse")
        table.abandon(unit)
    assert listings[0] == listings[1]  # the player's listing is byte-identical whatever the House cupped


def _phase_at(table: Table, unit: UUID, version: int) -> str:
    stakes = table.stakes
    return str(stakes.app.repository.get(table.unit(unit).id, version=version).phase)


def test_the_reroll_is_listed_as_only_called_while_its_dice_wait_for_the_fresh_seed_c9(table: Table) -> None:
    """The board's button says "Call the reroll" from this field alone: the roll draws nothing yet (C-10)."""
    unit = to_the_checks(table)
    for seat in (HOUSE, "ilse"):
        rolls = [a for a in listed(table, unit, seat) if a["action"] == "roll"]
        assert [a.get("drawn_with_fresh_seed") for a in rolls] == [True]


def test_a_side_that_called_its_reroll_declares_no_second_circumstance_after_pa7(table: Table) -> None:
    """PA-7: the second circumstance comes before the reroll; a call fixes it, for the players' side too."""
    unit = to_the_checks(table)
    table.act("ilse", unit, {"action": "roll"})
    assert not any(a["action"] in ("circumstance", "double-down") for a in listed(table, unit, "ilse"))
    before = table.events()
    with pytest.raises(RuleViolation, match="PA-7: this side has called its reroll"):
        table.act("ilse", unit, {"action": "circumstance", "text": "too late"})
    assert table.events() == before


def test_after_a_rewind_binds_the_houses_double_down_the_table_waits_for_the_house_to_make_it_again_c9(
        table: Table) -> None:
    """A double-down is optional (PA-13) until a rewind binds the House to the one it made before the players'
    fresh seeds (C-9): then it is how the challenge goes on, and the House is waited for, never nobody."""
    unit = to_the_calls(table, [1], house_circumstance="the fog rolls in", double_down=True)
    table.act("ilse", unit, {"action": "seed", "seed": "fresh words"})
    version = table.unit(unit).version
    start = next(v for v in range(version - 1, 0, -1) if _phase_at(table, unit, v) == "betting-1") + 1
    seen = {(c["step"], c["side"]): c["die"] for c in table.unit(unit).circumstances if c["die"] is not None}
    table.rewind(unit, start)
    # C-8: a circumstance die every seat saw stays shown after the undo, to every seat, marked
    for seat in ("ilse", "tomas", HOUSE):
        after = {(c["step"], c["side"]): c for c in table.view(seat, unit).model_dump()["circumstances"]}
        for key, die in seen.items():
            assert after[key]["die"] == die, (seat, after)
        assert any(c["seen_before_rewind"] for c in after.values()), after
    table.act("ilse", unit, {"action": "roll"})
    assert [a["action"] for a in listed(table, unit, "ilse")] == []
    assert "double-down" in [a["action"] for a in listed(table, unit, HOUSE)]
    assert table.unit(unit).phase == "new-circumstances"
    assert table.view(HOUSE, unit).waiting_for == [HOUSE]
    assert table.view("ilse", unit).waiting_for == [HOUSE]


def test_a_second_circumstance_drawn_with_the_fresh_seed_is_listed_once_and_not_as_seen_before_a_rewind_pa7_c8(
        table: Table) -> None:
    """Found by an independent check of the rulings: the step-2 circumstance die, drawn at a slot that carries
    the fresh seed (C-9), was listed twice, the second time with no text, as if a rewind had taken it back."""
    unit = to_the_calls(table, [0], house_circumstance="the fog rolls in", double_down=True)
    table.act("ilse", unit, {"action": "seed", "seed": "fresh words"})
    for seat in ("ilse", HOUSE):
        said = table.view(seat, unit).model_dump()["circumstances"]
        assert len(said) <= 4 and all(c["text"] is not None and not c["seen_before_rewind"] for c in said), said
        second = [c for c in said if c["step"] == 2]
        assert [c["text"] for c in second] == ["the fog rolls in"] and second[0]["die"] is not None
        assert second[0]["barred"] == "opponent"  # the double down bars Ilse from it (PA-13)
