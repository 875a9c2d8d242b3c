"""C-9, C-10 (issue 30): an antagonist's Willpower reroll is chosen before the players' fresh seed and drawn with it.

Once the players' first seeds are in, the House can compute every die from its secret; a reroll it chose then
would be chosen knowing the die it brings. So, once every side of a conflict against an antagonist has kept or
chosen its reroll, each player's side adds a fresh seed (never a pass), and the antagonist's reroll is drawn with
it, its slot carrying it, then the outcome, in the same write. A rewind keeps the fresh seed (C-7), so the
House's choice made before it stands.
"""

from __future__ import annotations

import json
import re
from typing import Any
from uuid import UUID

import pytest

from domain.errors import RuleViolation
from domain.fairness import derive_die
from domain.kernel.common import Rewind
from domain.systems.beast import play
from domain.systems.beast.commands import Overturn
from tests.unit.beast_table import HOUSE, ILSE, TOMAS, BeastTable


def both_rolled(t: BeastTable, cole_willpower: str | None = None, first: str = "Ilse's first words") -> UUID:
    """A conflict of Ilse against Sheriff Cole, both sides rolled, nobody decided yet."""
    unit = t.conflict()
    t.act(HOUSE, unit, action="prepare", humanity=2, beast=2, willpower=cole_willpower)
    t.act(ILSE, unit, action="seed", seed=first)
    t.act(HOUSE, unit, action="roll", humanity=2, beast=2, willpower=cole_willpower)
    t.act(ILSE, unit, action="roll", humanity=4, beast=3)
    return unit


def listing(t: BeastTable, unit: UUID, seat: Any) -> list[dict[str, Any]]:
    """The seat's legal actions, from the sheets as the rules see them now (what the adapters list)."""
    found = t.unit(unit)
    ones = play.sheets_of(t.app.application, found)
    listed: list[dict[str, Any]] = found.legal_actions(seat.name, found.values_now(
        {side: one.values() for side, one in ones.items()}))
    return listed


def seen_by(t: BeastTable, unit: UUID, seat: Any) -> str:
    """What ``seat`` reads of the unit: its view and its legal actions, as text (ids, new per table, blanked)."""
    text = json.dumps([t.unit(unit).view_for(seat.name), listing(t, unit, seat)], sort_keys=True, default=str)
    return re.sub(r"[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}", "<id>", text)


def reroll_records(t: BeastTable, unit: UUID) -> list[dict[str, Any]]:
    return [r for r in t.unit(unit).rolls if r["slot"][:2] == ["opponent", "reroll"]]


def test_an_antagonists_reroll_waits_for_the_players_fresh_seed_and_is_drawn_with_it():
    t = BeastTable()
    unit = both_rolled(t)
    t.act(HOUSE, unit, action="reroll", die=1)
    t.act(ILSE, unit, action="keep")
    waiting = t.unit(unit)
    assert waiting.outcome is None and waiting.owed_fresh() == ["challenger"] and not reroll_records(t, unit)
    assert {"action": "seed", "member": "challenger", "fresh": True, "required": ["seed"]} in listing(t, unit, ILSE)
    assert not [a for a in listing(t, unit, ILSE) if a["action"] == "pass"]
    assert not [a for a in listing(t, unit, HOUSE) if a["action"] not in ("reveal", "abandon")]  # it has chosen
    done = t.act(ILSE, unit, action="seed", seed="fresh words")
    assert done.outcome is not None  # the reroll and the outcome in the same write (C-10)
    first = reroll_records(t, unit)[0]
    assert first["slot"] == ["opponent", "reroll", "fresh", "fresh words", 0]
    assert first["value"] == derive_die(done.secret_seed, done.side_seeds(), first["slot"], 10)
    assert done.sides["opponent"]["roll"]["dice"][0]["chain"][0] == first["value"]
    assert done.sides["opponent"]["roll"]["reroll"]["die"] == 1


def test_the_same_house_choice_with_other_fresh_seeds_draws_other_dice_so_the_house_cannot_foresee_it():
    values = set()
    for words in ("one", "two", "three", "four", "five", "six"):
        t = BeastTable()  # the same secret, the same first seeds, the same House choice: only the fresh seed differs
        unit = both_rolled(t)
        t.act(HOUSE, unit, action="reroll", die=2)
        t.act(ILSE, unit, action="keep")
        t.act(ILSE, unit, action="seed", seed=words)
        values.add(tuple(r["value"] for r in reroll_records(t, unit)))
    assert len(values) > 1


def test_the_fresh_seed_is_owed_whether_the_antagonist_rerolled_or_kept_and_the_player_reads_nothing_of_it():  # C-5
    seen = []
    for house in ({"action": "reroll", "die": 3}, {"action": "keep"}):
        t = BeastTable()
        unit = both_rolled(t)
        t.act(HOUSE, unit, **house)
        t.act(ILSE, unit, action="keep")
        seen.append(seen_by(t, unit, ILSE))
    assert seen[0] == seen[1]  # byte-identical: the House's choice is its own until the outcome
    assert '"fresh": true' in seen[0]


def test_a_fresh_seed_is_given_not_passed_and_has_words():  # C-9
    t = BeastTable()
    unit = both_rolled(t)
    t.act(HOUSE, unit, action="keep")
    t.act(ILSE, unit, action="keep")
    with pytest.raises(RuleViolation, match="C-9"):
        t.act(ILSE, unit, action="pass")
    with pytest.raises(RuleViolation, match="C-4"):
        t.act(ILSE, unit, action="seed", seed="   ")
    assert t.unit(unit).outcome is None


def test_a_player_reroll_is_drawn_at_once_and_the_fresh_seed_still_follows():  # BE-4, C-9
    t = BeastTable()
    unit = both_rolled(t)
    t.act(ILSE, unit, action="reroll", die=1)
    assert [r for r in t.unit(unit).rolls if r["slot"][:2] == ["challenger", "reroll"]]  # no House choice in it
    t.act(HOUSE, unit, action="keep")
    assert t.unit(unit).outcome is None
    assert t.act(ILSE, unit, action="seed", seed="fresh words").outcome is not None


def test_after_a_rewind_that_kept_the_fresh_seed_the_antagonist_makes_its_choice_again_and_the_die_comes_at_once():
    t = BeastTable()
    unit = both_rolled(t)
    before = t.unit(unit).version
    t.act(HOUSE, unit, action="reroll", die=2)
    t.act(ILSE, unit, action="keep")
    t.act(ILSE, unit, action="seed", seed="fresh words")
    # the unit is resolved, not settled, while a Humanity check is due; otherwise it cannot be rewound
    if t.unit(unit).settled:
        pytest.skip("settled at once")
    drawn = [r["value"] for r in reroll_records(t, unit)]
    t.run(HOUSE, Rewind(unit=unit, to_step=before, reason="Ilse misread her sheet"))
    assert t.unit(unit).fresh["reroll"] == {"challenger": "fresh words"}  # kept (C-7)
    assert [a for a in listing(t, unit, HOUSE) if a["action"] in ("reroll", "keep")] == \
        [{"action": "reroll", "member": "opponent", "choices": [2]}]
    with pytest.raises(RuleViolation, match="C-9"):
        t.act(HOUSE, unit, action="keep")
    with pytest.raises(RuleViolation, match="C-9"):
        t.act(HOUSE, unit, action="reroll", die=1)
    t.act(HOUSE, unit, action="reroll", die=2)
    done = t.act(ILSE, unit, action="keep")
    assert done.outcome is not None  # no fresh seed owed again: drawn at once, with the kept one
    assert [r["value"] for r in reroll_records(t, unit)][-len(drawn):] == drawn


def test_before_the_fresh_seed_a_rewind_leaves_the_house_free_to_choose_again():  # C-9: it learnt nothing
    t = BeastTable()
    unit = both_rolled(t)
    before = t.unit(unit).version
    t.act(HOUSE, unit, action="reroll", die=2)
    t.run(HOUSE, Rewind(unit=unit, to_step=before, reason="a ruling"))
    t.act(HOUSE, unit, action="keep")
    t.act(ILSE, unit, action="keep")
    assert t.act(ILSE, unit, action="seed", seed="fresh words").outcome is not None


def test_a_rewind_to_the_wait_for_a_fresh_seed_given_since_is_refused():  # C-6, C-7
    t = BeastTable()
    unit = both_rolled(t)
    t.act(HOUSE, unit, action="reroll", die=2)
    waiting = t.act(ILSE, unit, action="keep").version
    t.act(ILSE, unit, action="seed", seed="fresh words")
    if t.unit(unit).settled:
        pytest.skip("settled at once")
    version = t.unit(unit).version
    with pytest.raises(RuleViolation, match="C-6: at step .* fresh seeds"):
        t.run(HOUSE, Rewind(unit=unit, to_step=waiting, reason="a ruling"))
    assert t.unit(unit).version == version


def test_table_dice_and_two_players_owe_no_fresh_seed():  # C-3: physical dice; C-9: no House choice
    t = BeastTable()
    unit = t.conflict(against="Tomas")
    t.act(ILSE, unit, action="pass")
    assert t.unit(unit).fresh_stage() is None


def test_the_antagonists_humanity_check_set_off_by_its_reroll_is_rolled_with_the_fresh_seed_too():  # C-9, BE-12
    """Spending the point on a reroll can set off the antagonist's check (BE-12: Willpower after the point), so
    the House's choice decides whether those dice are rolled: they carry the fresh seed, unknown when it chose.
    (Found by the review: with `s374` the check dice the House could compute before choosing would slip.)"""
    t = BeastTable(cole_willpower=2)
    unit = both_rolled(t, first="s374")
    before = t.unit(unit)
    foreseen = [derive_die(before.secret_seed, before.side_seeds(), ["opponent", "check", j], 10) for j in range(4)]
    t.act(HOUSE, unit, action="reroll", die=1)
    t.act(ILSE, unit, action="keep")
    done = t.act(ILSE, unit, action="seed", seed="ilse's fresh words")
    check = [r for r in done.rolls if r["slot"][:2] == ["opponent", "check"]]
    assert done.sides["opponent"]["check"]["triggers"] and check
    assert all(r["slot"][2:4] == ["fresh", "ilse's fresh words"] for r in check)
    assert [r["value"] for r in check] != foreseen
    assert done.sides["opponent"]["check"]["dice"] == [r["value"] for r in check]


def test_a_conflict_is_not_overturned_while_its_antagonist_is_in_another_still_open():  # C-6, C-9
    """Its sheet would move under the open conflict, where a reroll bound by a rewind could become one it cannot
    make (no Willpower left) with nothing else allowed: the table stuck."""
    t = BeastTable(cole_willpower=1)
    first = both_rolled(t)
    t.act(HOUSE, first, action="keep")
    t.act(ILSE, first, action="keep")
    t.act(ILSE, first, action="seed", seed="fresh words")
    while not t.unit(first).settled:
        t.act(HOUSE if t.unit(first).sides["opponent"]["check"] and
              t.unit(first).sides["opponent"]["check"]["outcome"] is None else ILSE, first, action="check")
    second = t.conflict(seat=TOMAS)
    with pytest.raises(RuleViolation, match="C-6: Sheriff Cole is in a conflict still open"):
        t.run(HOUSE, Overturn(unit=first, void=True, reason="a dream"))
    t.act(HOUSE, second, action="abandon", reason="called off")
    t.run(HOUSE, Overturn(unit=first, void=True, reason="a dream"))


def test_a_reroll_drawn_at_once_before_the_fresh_seed_rule_is_drawn_at_its_old_slot_after_a_rewind(monkeypatch):
    """C-7: a unit open when the rule shipped drew the antagonist's reroll at ``[side, "reroll", 0]``; after a
    rewind, the same choice (bound once the fresh seed is in) draws the same die there, not a new one."""
    from domain.systems.beast.roll import BeastRoll

    t = BeastTable()
    unit = both_rolled(t)
    before = t.unit(unit).version
    with monkeypatch.context() as old:
        old.setattr(BeastRoll, "rerolls_fresh", lambda self, side: False)  # the code before the rule
        t.act(HOUSE, unit, action="reroll", die=2)
    drawn = [(r["slot"], r["value"]) for r in reroll_records(t, unit)]
    assert drawn and drawn[0][0] == ["opponent", "reroll", 0]
    t.act(ILSE, unit, action="keep")
    t.act(ILSE, unit, action="seed", seed="fresh words")
    if t.unit(unit).settled:
        pytest.skip("settled at once")
    t.run(HOUSE, Rewind(unit=unit, to_step=before, reason="a ruling"))
    t.act(HOUSE, unit, action="reroll", die=2)
    t.act(ILSE, unit, action="keep")
    assert [(r["slot"], r["value"]) for r in reroll_records(t, unit)][-len(drawn):] == drawn


def test_verify_names_a_fresh_slot_whose_seeds_are_not_those_the_log_shows_given():  # C-4, C-9
    t = BeastTable()
    unit = both_rolled(t)
    t.act(HOUSE, unit, action="reroll", die=1)
    t.act(ILSE, unit, action="keep")
    done = t.act(ILSE, unit, action="seed", seed="fresh words")
    while not done.settled:
        side = next(s for s, d in done.sides.items() if d["check"] and d["check"]["outcome"] is None)
        done = t.act(HOUSE if side == "opponent" else ILSE, unit, action="check")
    assert done.verify()["mismatches"] == []
    record = next(r for r in done.rolls if r["slot"][:2] == ["opponent", "reroll"])
    record["slot"][3] = "other words"  # a service that drew with a seed of its own choosing
    record["value"] = derive_die(done.secret_seed, done.side_seeds(), record["slot"], 10)
    assert [m["slot"] for m in done.verify()["mismatches"]] == [record["slot"]]
