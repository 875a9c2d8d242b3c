"""Humanity and Beast, ruling by ruling (BE-1 … BE-12, C-3, C-6, C-7), on the in-memory store."""

from __future__ import annotations

import pytest

from domain.errors import NotPermitted, RuleViolation
from domain.kernel.common import Rewind
from domain.systems.beast import commands as cmd
from domain.systems.beast import rules
from domain.systems.beast.commands import Overturn
from tests.unit.beast_table import HOUSE, ILSE, TOMAS, BeastTable


@pytest.fixture
def table() -> BeastTable:
    return BeastTable(table_dice=True)


# -- BE-1, BE-9: sheets -----------------------------------------------------------------------------------
def test_a_character_splits_ten_dice_seven_and_three_by_default_with_willpower_six():
    t = BeastTable()
    assert t.sheet("tomas") == {"humanity": 7, "beast": 3, "willpower": 6, "willpower_max": 6}


@pytest.mark.parametrize("humanity, willpower", [(0, 6), (11, 6), (7, 0), (7, 11), (True, 6)])
def test_humanity_is_one_to_ten_and_the_willpower_maximum_one_to_ten_at_creation(humanity, willpower):
    t = BeastTable()
    with pytest.raises(RuleViolation, match="BE-9" if humanity is not True else "BE-1: humanity: Input should be"):
        t.run(HOUSE, t.app.parse(t.cid, "add-player", {"seat": "mara", "character": "Mara", "humanity": humanity,
                                                       "willpower": willpower}))


def test_antagonist_names_are_unique():
    t = BeastTable()
    with pytest.raises(RuleViolation, match="BE-1: the House has an antagonist named 'Sheriff Cole'"):
        t.run(HOUSE, cmd.CreateAntagonist(name="Sheriff  Cole"))


# -- BE-2: allocation --------------------------------------------------------------------------------------
@pytest.mark.parametrize("inputs, message", [
    ({"humanity": 8, "beast": 0}, "the split is 7 Humanity and 3 Beast"),
    ({"humanity": 0, "beast": 0}, "1 to 10 dice"),
    ({"humanity": 1, "beast": 1, "min_beast": 2}, "at least 0 Humanity and 2 Beast"),
    ({"humanity": 2, "beast": 1, "difficulty": 11}, "difficulty is a whole number from 2 to 10"),
])
def test_an_action_allocates_within_the_split_and_the_minimums(table, inputs, message):
    with pytest.raises(RuleViolation, match=message):
        table.action(**{"difficulty": 3, "dice": [1, 1, 1], **inputs})


# -- BE-3, BE-10: thresholds and chains ----------------------------------------------------------------------
def test_a_humanity_die_succeeds_on_seven_and_a_beast_die_on_six(table):
    roll = table.act(ILSE, table.action(difficulty=2, humanity=2, beast=2, dice=[6, 7, 5, 6]).id, action="keep")
    assert roll.sides["challenger"]["roll"]["score"] == {"humanity": 1, "beast": 1, "willpower": 0, "total": 2,
                                                         "more": "tie"}
    assert roll.outcome["success"] is True


def test_every_ten_is_rolled_again_and_each_result_of_the_chain_is_recorded(table):
    # first rolls H 10, B 10; then their re-rolls 10 (H) and 3 (B); then the H chain's third roll 7
    roll = table.action(difficulty=4, humanity=1, beast=1, dice=[10, 10, 10, 3, 7])
    assert roll.phase == "deciding" and roll.outcome is None  # a reroll is still possible (BE-4)
    roll = table.act(ILSE, roll.id, action="keep")
    dice = roll.sides["challenger"]["roll"]["dice"]
    assert [d["chain"] for d in dice] == [[10, 10, 7], [10, 3]]
    assert [rules.die_text(d) for d in dice] == ["H 10→10→7 ✓✓✓", "B 10→3 ✓"]
    assert roll.outcome["total"] == 4 and roll.outcome["success"] is True


def test_table_dice_are_entered_step_by_step_in_the_right_count(table):
    with pytest.raises(RuleViolation, match="C-3: enter 1 more d10s"):
        table.action(difficulty=2, humanity=1, beast=0, dice=[10])
    with pytest.raises(RuleViolation, match="C-3: 3 d10s entered; this roll takes exactly 2"):
        table.action(difficulty=2, humanity=1, beast=0, dice=[10, 4, 5])
    with pytest.raises(RuleViolation, match="C-3: a d10 shows 1 to 10"):
        table.action(difficulty=2, humanity=1, beast=0, dice=[11])


def test_a_table_roll_lists_d10s_as_many_first_as_its_split_and_one_more_for_each_ten(table):  # C-3, BE-10
    """Issue 30: the listing alone says what the table enters: d10s, one first per die of the split picked, and
    each 10 adds the re-roll of that die (up to the chain's cap); a Willpower reroll enters its one die so too."""
    unit = table.conflict()
    sheets = {"challenger": table.sheet("ilse"), "opponent": table.cole()}
    roll = next(a for a in table.unit(unit).legal_actions("ilse", sheets) if a["action"] == "roll")
    assert {k: roll[k] for k in ("faces", "explode_on", "chain_max", "count_of")} == {
        "faces": 10, "explode_on": 10, "chain_max": rules.MAX_CHAIN, "count_of": ["humanity", "beast"]}
    assert "dice" not in roll and "fixed_chains" not in roll  # the count follows the split picked
    rolled = table.act(ILSE, unit, action="roll", humanity=2, beast=0, dice=[10, 4, 3])
    reroll = next(a for a in rolled.legal_actions("ilse", sheets) if a["action"] == "reroll")
    assert {k: reroll[k] for k in ("dice", "faces", "explode_on")} == {"dice": 1, "faces": 10, "explode_on": 10}


def test_after_a_rewind_a_table_roll_lists_the_chain_each_die_showed_and_takes_them_again():  # C-7
    t = BeastTable(table_dice=True)
    unit = t.conflict()
    t.act(ILSE, unit, action="roll", humanity=3, beast=0, dice=[10, 4, 10, 8, 10, 2])  # chains 10→8, 4, 10→10→2
    t.run(HOUSE, Rewind(unit=unit, to_step=1, reason="wrong allocation"))
    sheets = {"challenger": t.sheet("ilse"), "opponent": t.cole()}
    roll = next(a for a in t.unit(unit).legal_actions("ilse", sheets) if a["action"] == "roll")
    assert roll["fixed_chains"] == [[10, 8], [4], [10, 10, 2]]
    with pytest.raises(RuleViolation, match="C-7"):
        t.act(ILSE, unit, action="roll", humanity=2, beast=1, dice=[10, 5, 10, 8, 10, 2])
    again = t.act(ILSE, unit, action="roll", humanity=1, beast=2, dice=[10, 4, 10, 8, 10, 2])  # another split
    assert [d["chain"] for d in again.sides["challenger"]["roll"]["dice"]] == [[10, 8], [4], [10, 10, 2]]


def test_a_chain_stops_at_its_cap():
    assert not rules.goes_on([10] * rules.MAX_CHAIN) and rules.goes_on([10] * (rules.MAX_CHAIN - 1))


# -- BE-4, BE-11: Willpower --------------------------------------------------------------------------------
def test_willpower_before_the_roll_is_one_success_of_neither_kind(table):
    roll = table.action(difficulty=2, humanity=1, beast=1, willpower="before", dice=[7, 1])
    assert roll.sides["challenger"]["roll"]["score"] == {"humanity": 1, "beast": 0, "willpower": 1, "total": 2,
                                                         "more": "humanity"}
    assert table.sheet("ilse")["willpower"] == 5 and roll.settled  # no reroll left: kept at once


def test_a_second_willpower_point_on_one_roll_is_refused(table):
    roll = table.action(difficulty=9, humanity=1, beast=1, willpower="before", dice=[1, 1])
    with pytest.raises(RuleViolation, match="BE-4|BE-11"):
        table.act(ILSE, roll.id, action="reroll", die=1, dice=[9])


def test_a_reroll_replaces_the_whole_chain_of_a_ten_and_keeps_its_kind(table):
    roll = table.action(difficulty=3, humanity=1, beast=1, dice=[10, 2, 8])
    roll = table.act(ILSE, roll.id, action="reroll", die=1, dice=[6])
    die = roll.sides["challenger"]["roll"]["dice"][0]
    assert die["kind"] == "H" and die["chain"] == [6] and die["was"] == [10, 8]
    assert rules.die_text(die) == "H 6 ✗ (was 10→8 ✓✓)"
    assert roll.outcome["success"] is False and table.sheet("ilse")["willpower"] == 5
    with pytest.raises(RuleViolation):
        table.act(ILSE, roll.id, action="reroll", die=2, dice=[9])


def test_no_willpower_is_spent_at_zero():
    t = BeastTable(table_dice=True)
    for _ in range(6):
        t.action(difficulty=2, humanity=1, beast=0, willpower="before", dice=[1])
    assert t.sheet("ilse")["willpower"] == 0
    with pytest.raises(RuleViolation, match="BE-11: no Willpower can be spent at 0"):
        t.action(difficulty=2, humanity=1, beast=0, willpower="before", dice=[1])


# -- BE-6: conflicts -----------------------------------------------------------------------------------------
def test_the_loser_loses_the_difference_in_willpower_never_below_zero(table):
    unit = table.conflict()
    table.act(ILSE, unit, action="roll", humanity=5, beast=0, dice=[7, 8, 9, 7, 8])
    table.act(ILSE, unit, action="keep")
    table.act(HOUSE, unit, action="roll", humanity=1, beast=0, dice=[1])
    done = table.act(HOUSE, unit, action="keep")
    assert done.outcome["winner"] == "challenger" and done.outcome["difference"] == 5
    assert done.outcome["damage"] == {"opponent": 3} and not done.settled
    # C-5, table dice: the House confirms its antagonist's check, due or not (this one is not: no die)
    assert next(a for a in done.legal_actions("house", {"opponent": table.cole(), "challenger": table.sheet("ilse")})
                if a["action"] == "check") == {"action": "check", "member": "opponent", "dice": 0, "faces": 10}
    done = table.act(HOUSE, unit, action="check", side="opponent")
    assert done.settled and done.sides["opponent"]["check"]["outcome"] == "none" and table.cole()["willpower"] == 0


def test_a_tie_does_no_harm_and_difficulty_plays_no_part_in_a_conflict(table):
    assert "difficulty" not in cmd.OpenConflict.model_fields  # BE-12
    unit = table.conflict(against="tomas")
    table.act(ILSE, unit, action="roll", humanity=1, beast=0, dice=[8])
    table.act(TOMAS, unit, action="roll", humanity=1, beast=0, dice=[9])
    table.act(ILSE, unit, action="keep")
    done = table.act(TOMAS, unit, action="keep")
    assert done.outcome["winner"] is None and done.outcome["damage"] == {}
    assert table.sheet("ilse")["willpower"] == table.sheet("tomas")["willpower"] == 6


def test_only_the_two_sides_play_a_conflict(table):
    unit = table.conflict()
    with pytest.raises(NotPermitted, match="C-1"):
        table.act(TOMAS, unit, action="roll", humanity=1, beast=0, dice=[8])


# -- BE-7, BE-12: Humanity checks ---------------------------------------------------------------------------
def test_beast_successes_above_current_willpower_trigger_a_check(table):
    # Beast 3 successes, Humanity 4: only the Willpower trigger can hold; Willpower 6 -> spend down to 2
    for _ in range(4):
        table.action(difficulty=2, humanity=1, beast=0, willpower="before", dice=[1])
    roll = table.action(difficulty=2, humanity=4, beast=3, dice=[7, 7, 7, 7, 6, 6, 6])
    roll = table.act(ILSE, roll.id, action="keep")
    assert roll.outcome["checks"] == {"challenger": ["beast above willpower"]} and roll.phase == "check"


def test_beast_successes_above_humanity_successes_trigger_a_check_the_willpower_point_counting_for_neither(table):
    roll = table.action(difficulty=2, humanity=1, beast=1, willpower="before", dice=[1, 6])
    assert roll.outcome["checks"] == {"challenger": ["beast above humanity"]}


def test_an_auto_check_with_no_seven_turns_one_humanity_die_into_a_beast_die(table):
    roll = table.action(difficulty=2, humanity=1, beast=1, dice=[1, 6])
    roll = table.act(ILSE, roll.id, action="keep") if not roll.outcome else roll
    with pytest.raises(RuleViolation, match="C-3: expected 7 dice"):
        table.act(ILSE, roll.id, action="check", dice=[1, 2])  # one d10 per point of Humanity (BE-12)
    done = table.act(ILSE, roll.id, action="check", dice=[1, 2, 3, 4, 5, 6, 6])
    assert done.sides["challenger"]["check"]["outcome"] == "slipped" and done.settled
    assert table.sheet("ilse") == {"humanity": 6, "beast": 4, "willpower": 6, "willpower_max": 6}


def test_a_seven_holds_the_check(table):
    roll = table.act(ILSE, table.action(difficulty=2, humanity=1, beast=1, dice=[1, 6]).id, action="keep")
    table.act(ILSE, roll.id, action="check", dice=[1, 2, 3, 4, 5, 6, 7])
    assert table.sheet("ilse")["humanity"] == 7


def test_at_humanity_zero_the_character_is_lost_and_refuses_to_roll():
    t = BeastTable(ilse_humanity=1, table_dice=True)
    roll = t.act(ILSE, t.action(difficulty=2, humanity=0, beast=1, dice=[6]).id, action="keep")
    done = t.act(ILSE, roll.id, action="check", dice=[3])
    assert done.sides["challenger"]["check"]["lost"] is True and t.sheet("ilse")["humanity"] == 0
    with pytest.raises(RuleViolation, match=r"BE-9: Ilse is lost to the Beast \(Humanity 0\) and cannot roll"):
        t.action(difficulty=2, humanity=0, beast=1, dice=[6])


def test_in_manual_mode_the_house_records_the_check():
    t = BeastTable(table_dice=True, check_mode="manual")
    roll = t.act(ILSE, t.action(difficulty=2, humanity=1, beast=1, dice=[1, 6]).id, action="keep")
    with pytest.raises(RuleViolation, match="BE-7: in manual mode the House records"):
        t.act(ILSE, roll.id, action="check")
    t.act(HOUSE, roll.id, action="check", side="challenger", outcome="slipped")
    assert t.sheet("ilse")["humanity"] == 6


# -- BE-8 --------------------------------------------------------------------------------------------------
def test_the_house_restores_willpower_up_to_the_maximum(table):
    table.action(difficulty=2, humanity=1, beast=0, willpower="before", dice=[1])
    table.run(HOUSE, cmd.RestoreWillpower(amount=3, character="ilse"))
    assert table.sheet("ilse")["willpower"] == 6
    with pytest.raises(RuleViolation, match="BE-8: Ilse's Willpower is at its maximum of 6"):
        table.run(HOUSE, cmd.RestoreWillpower(amount=1, character="ilse"))


# -- C-6, C-7: undo -----------------------------------------------------------------------------------------
def test_a_rewind_restores_willpower_and_the_same_dice_come_again():
    t = BeastTable()
    unit = t.conflict()
    t.act(HOUSE, unit, action="prepare", humanity=0, beast=3)  # C-9: before the players' input
    first = t.act(ILSE, unit, action="roll", humanity=3, beast=2, willpower="before")
    dice = first.sides["challenger"]["roll"]["dice"]
    assert t.sheet("ilse")["willpower"] == 5
    t.run(HOUSE, Rewind(unit=unit, to_step=1, reason="wrong allocation"))
    assert t.sheet("ilse")["willpower"] == 6
    again = t.act(ILSE, unit, action="roll", humanity=3, beast=2)
    assert again.sides["challenger"]["roll"]["dice"] == dice  # C-7: no fishing


def test_a_rewind_never_stops_between_a_roll_and_the_keep_it_forces():  # C-6, BE-11 (issue 30, ADR 0032)
    """A player who has no Willpower left once he rolled keeps his dice in the same move: the step between the
    roll and the keep is inside one move, and a rewind to it is refused; a roll stored before lacks ``keeps``."""
    t = BeastTable()
    unit = t.conflict()
    t.act(HOUSE, unit, action="prepare", humanity=0, beast=3)
    rolled = t.act(ILSE, unit, action="roll", humanity=3, beast=2, willpower="before")  # BE-11: no reroll left
    assert rolled.sides["challenger"]["decided"]
    past = t.app.repository.get(unit, version=rolled.version - 1)
    assert past.sides["challenger"]["roll"] is not None and not past.sides["challenger"]["decided"]
    assert past.mid_move()
    with pytest.raises(RuleViolation) as refused:
        t.run(HOUSE, Rewind(unit=unit, to_step=past.version, reason="back to the roll"))
    assert refused.value.ruling == "C-6"
    old = t.app.repository.get(unit, version=past.version)
    old.sides["challenger"]["roll"].pop("keeps")  # as stored before issue 30
    old.sides["challenger"]["roll"]["willpower_before"] = False
    assert not old.keeps_at_once("challenger")


def test_a_roll_made_again_after_a_rewind_with_another_split_shows_the_same_faces():
    t = BeastTable()
    unit = t.conflict()
    t.act(HOUSE, unit, action="prepare", humanity=0, beast=3)  # C-9: before the players' input
    first = t.act(ILSE, unit, action="roll", humanity=3, beast=0)
    faces = [d["chain"][0] for d in first.sides["challenger"]["roll"]["dice"]]
    t.run(HOUSE, Rewind(unit=unit, to_step=1, reason="wrong allocation"))
    again = t.act(ILSE, unit, action="roll", humanity=0, beast=3)
    dice = again.sides["challenger"]["roll"]["dice"]
    # C-7: a die's slot is its number in the roll, not its kind: the split changes, the faces do not
    assert [d["chain"][0] for d in dice] == faces and [d["kind"] for d in dice] == ["B", "B", "B"]


def test_an_overturned_conflict_gives_back_the_damage_and_the_humanity_lost(table):
    unit = table.conflict()
    table.act(ILSE, unit, action="roll", humanity=0, beast=2, dice=[6, 6])
    table.act(ILSE, unit, action="keep")
    table.act(HOUSE, unit, action="roll", humanity=4, beast=0, dice=[7, 7, 7, 8])
    done = table.act(HOUSE, unit, action="keep")
    assert done.outcome["damage"] == {"challenger": 2}
    table.act(ILSE, unit, action="check", dice=[1] * 7)
    table.act(HOUSE, unit, action="check", side="opponent")  # confirmed, not due (C-5)
    assert table.sheet("ilse") == {"humanity": 6, "beast": 4, "willpower": 4, "willpower_max": 6}
    table.run(HOUSE, Overturn(unit=unit, void=True, reason="the sheriff was not there"))
    assert table.sheet("ilse") == {"humanity": 7, "beast": 3, "willpower": 6, "willpower_max": 6}
    with pytest.raises(RuleViolation, match="C-6: this was overturned already"):
        table.run(HOUSE, Overturn(unit=unit, void=True, reason="again"))


def test_an_overturned_conflict_with_a_new_winner_moves_the_damage(table):
    unit = table.conflict()
    table.act(ILSE, unit, action="roll", humanity=1, beast=0, dice=[9])
    table.act(ILSE, unit, action="keep")
    table.act(HOUSE, unit, action="roll", humanity=1, beast=0, dice=[1])
    table.act(HOUSE, unit, action="keep")
    table.act(HOUSE, unit, action="check", side="opponent")  # confirmed, not due (C-5)
    assert table.cole()["willpower"] == 2
    table.run(HOUSE, Overturn(unit=unit, winner="opponent", reason="the sheriff cheated"))
    assert table.cole()["willpower"] == 3 and table.sheet("ilse")["willpower"] == 5


def test_a_conflict_in_manual_mode_the_house_records_both_checks_and_a_rewind_gives_the_humanity_back():
    t = BeastTable(table_dice=True, check_mode="manual")
    unit = t.conflict()
    t.act(ILSE, unit, action="seed", seed="Ilse's words")
    with pytest.raises(RuleViolation, match="C-9"):
        t.act(HOUSE, unit, action="seed", seed="the House's words")
    t.act(ILSE, unit, action="roll", humanity=0, beast=2, dice=[6, 6])
    t.act(ILSE, unit, action="keep")
    t.act(HOUSE, unit, action="roll", humanity=1, beast=1, dice=[1, 6])
    resolved = t.act(HOUSE, unit, action="keep")
    assert set(resolved.outcome["checks"]) == {"challenger", "opponent"} and resolved.outcome["damage"] == {
        "opponent": 1}
    step = resolved.version
    t.act(HOUSE, unit, action="check", side="challenger", outcome="slipped")
    assert t.sheet("ilse")["humanity"] == 6
    t.run(HOUSE, Rewind(unit=unit, to_step=step, reason="the slip was ruled too soon"))
    assert t.sheet("ilse")["humanity"] == 7  # C-6: the Humanity lost to the check comes back
    t.act(HOUSE, unit, action="check", side="challenger", outcome="held")
    done = t.act(HOUSE, unit, action="check", side="opponent", outcome="slipped")
    assert done.settled and t.sheet("ilse")["humanity"] == 7 and t.cole() == {
        "humanity": 3, "beast": 7, "willpower": 2, "willpower_max": 3}


# -- one character in several open units (BE-6, BE-8, BE-9, C-5) ------------------------------------------------
def test_an_antagonist_is_in_one_open_conflict_at_a_time_and_its_willpower_is_restored_when_it_settles():
    t = BeastTable(table_dice=True, cole_willpower=1)
    first = t.conflict()
    t.act(HOUSE, first, action="roll", humanity=1, beast=0, willpower="before", dice=[1])
    # what the open conflict did to Cole is on no sheet yet (C-5): a second conflict would count it or show it
    with pytest.raises(RuleViolation, match="BE-6: Sheriff Cole is in a conflict still open"):
        t.conflict(seat=TOMAS)
    assert t.cole()["willpower"] == 1
    with pytest.raises(RuleViolation, match="BE-8: Sheriff Cole spent or lost Willpower in a roll or conflict"):
        t.run(HOUSE, cmd.RestoreWillpower(amount=1, character="Sheriff Cole"))
    t.act(HOUSE, first, action="keep")
    t.act(ILSE, first, action="roll", humanity=1, beast=0, dice=[1])
    t.act(ILSE, first, action="keep")
    t.act(HOUSE, first, action="check", side="opponent")  # table dice: the House confirms it (C-5)
    assert t.unit(first).settled and t.cole()["willpower"] == 0
    t.conflict(seat=TOMAS)  # settled: Cole may face another
    t.run(HOUSE, cmd.RestoreWillpower(amount=1, character="Sheriff Cole"))


def test_a_check_made_at_humanity_zero_after_another_slipped_changes_nothing_and_a_void_gives_back_one():
    t = BeastTable(table_dice=True, ilse_humanity=1)
    a = t.action(difficulty=2, humanity=1, beast=1, dice=[1, 6]).id
    b = t.action(difficulty=2, humanity=1, beast=1, dice=[1, 6]).id
    t.act(ILSE, a, action="keep")
    t.act(ILSE, b, action="keep")
    t.act(ILSE, a, action="check", dice=[1])
    assert t.sheet("ilse")["humanity"] == 0
    checked = t.act(ILSE, b, action="check")
    assert checked.sides["challenger"]["check"]["outcome"] == "lost" and checked.effects()["challenger"]["humanity"] == 0
    t.run(HOUSE, Overturn(unit=b, void=True, reason="never happened"))
    t.run(HOUSE, Overturn(unit=a, void=True, reason="never happened"))
    assert t.sheet("ilse")["humanity"] == 1  # BE-1: exactly the Humanity she had


def test_an_antagonists_check_made_with_the_result_is_not_shown_by_a_rewind_before_it():  # C-5, C-8
    t = BeastTable(cole_humanity=4)
    unit = t.conflict()
    t.act(HOUSE, unit, action="prepare", humanity=0, beast=6)  # C-9: the House's split before the players' input
    t.act(ILSE, unit, action="pass")  # C-10: the House's side rolls once the players' input is in
    t.act(HOUSE, unit, action="roll", humanity=0, beast=6)
    kept = t.act(HOUSE, unit, action="keep").version
    t.act(ILSE, unit, action="roll", humanity=0, beast=3)
    t.act(ILSE, unit, action="keep")
    done = t.act(ILSE, unit, action="seed", seed="fresh words")  # C-9: the players' fresh seed, then the outcome
    assert done.sides["opponent"]["check"]["dice"] and done.phase == "check"  # its check, made in Resolved
    t.run(HOUSE, Rewind(unit=unit, to_step=kept, reason="a ruling"))
    seen = t.unit(unit).view_for("tomas")["seen_before_rewind"]
    assert seen and all(s["slot"][1] != "check" for s in seen)  # the dice every seat saw; not its check's


def test_a_player_opening_a_conflict_learns_nothing_of_an_antagonists_hidden_check_in_another():  # C-5
    t = BeastTable(cole_humanity=1)
    first = t.conflict()
    t.act(HOUSE, first, action="prepare", humanity=0, beast=9)  # C-9: the House's split before the players' input
    t.act(ILSE, first, action="pass")  # C-10: the House's side rolls once the players' input is in
    t.act(HOUSE, first, action="roll", humanity=0, beast=9)
    t.act(HOUSE, first, action="keep")
    t.act(ILSE, first, action="roll", humanity=0, beast=3)
    t.act(ILSE, first, action="keep")
    done = t.act(ILSE, first, action="seed", seed="fresh words")  # C-9: the players' fresh seed, then the outcome
    assert done.phase == "check" and done.sides["opponent"]["check"]["humanity"] == 0  # Cole slipped, in secret
    with pytest.raises(RuleViolation, match="BE-6: Sheriff Cole is in a conflict still open") as refused:
        t.conflict(seat=TOMAS)  # what everyone knows (the open conflict), not what only the House knows
    assert "BE-9" not in str(refused.value)


def test_a_player_lost_to_the_beast_while_his_conflict_is_open_rolls_no_die_and_the_conflict_goes_on():  # BE-9
    t = BeastTable(table_dice=True, ilse_humanity=1)
    unit = t.conflict()
    action = t.action(difficulty=2, humanity=1, beast=9, dice=[1] + [9] * 9).id
    t.act(ILSE, action, action="keep")
    t.act(ILSE, action, action="check", dice=[1])  # slipped: Humanity 0, lost to the Beast
    assert t.sheet("ilse")["humanity"] == 0
    with pytest.raises(RuleViolation, match="BE-9: Ilse is lost to the Beast"):
        t.action(difficulty=2, humanity=0, beast=1, dice=[9])
    conflict = t.unit(unit)
    roll = next(a for a in conflict.legal_actions("ilse", {"challenger": t.sheet("ilse"), "opponent": t.cole()})
                if a["action"] == "roll")
    assert (roll["min"], roll["max"], roll["dice"]) == (0, 0, 0)  # the table enters no die (C-3)
    with pytest.raises(RuleViolation, match="BE-9: a character lost to the Beast cannot roll"):
        t.act(ILSE, unit, action="roll", humanity=0, beast=3, dice=[9, 9, 9])
    rolled = t.act(ILSE, unit, action="roll", humanity=0, beast=0)
    assert rolled.sides["challenger"]["roll"]["dice"] == [] and rolled.sides["challenger"]["decided"]
    t.act(HOUSE, unit, action="roll", humanity=1, beast=0, dice=[8])
    done = t.act(HOUSE, unit, action="keep")
    assert done.outcome["winner"] == "opponent"
    t.act(HOUSE, unit, action="check", side="opponent")  # table dice: confirmed (C-5)
    assert t.unit(unit).settled
    t.conflict(seat=TOMAS)  # Cole was released: he faces the next conflict (BE-6)


def test_a_players_roll_every_seat_saw_stays_listed_for_every_seat_after_an_undo_before_it_c8():
    """Found on a phone walk: a player's roll is public the moment it is made, yet after an undo to before it
    his side read "Not rolled yet", as if nobody had seen it. Its dice stay listed, the same for every seat;
    rolled again, the slots it fills are its own again and only the others stay listed."""
    t = BeastTable()
    unit = t.conflict()
    t.act(HOUSE, unit, action="prepare", humanity=0, beast=6)  # C-9: the House's split before the players' input
    t.act(ILSE, unit, action="pass")
    before = t.act(HOUSE, unit, action="roll", humanity=0, beast=6).version
    rolled = t.act(ILSE, unit, action="roll", humanity=2, beast=3)
    dice = [d["chain"] for d in rolled.sides["challenger"]["roll"]["dice"]]
    t.run(HOUSE, Rewind(unit=unit, to_step=before, reason="she rolled out of turn"))
    views = {seat: t.unit(unit).view_for(seat) for seat in ("tomas", "ilse", HOUSE)}
    assert views["tomas"]["seen_before_rewind"] == views["ilse"]["seen_before_rewind"] \
        == views[HOUSE]["seen_before_rewind"]
    mine = [s for s in views["tomas"]["seen_before_rewind"] if s["slot"][0] == "challenger"]
    assert [s["value"] for s in mine] == [v for chain in dice for v in chain]
    assert not [s for s in views["tomas"]["seen_before_rewind"] if s["slot"][0] == "opponent"]  # Cole's: hidden
    again = t.act(ILSE, unit, action="roll", humanity=1, beast=1)  # two dice: the same first two slots (C-7)
    assert [d["chain"] for d in again.sides["challenger"]["roll"]["dice"]] == dice[:2]
    left = [s for s in t.unit(unit).view_for("tomas")["seen_before_rewind"] if s["slot"][0] == "challenger"]
    assert {s["slot"][2] for s in left} == {2, 3, 4}
