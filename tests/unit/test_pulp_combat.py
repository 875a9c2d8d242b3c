"""Scripted Pulp combats, one per branch, with cards entered at the table (PU-5, PU-9, C-3, C-6 … C-8)."""

from __future__ import annotations

import copy
from uuid import uuid4

import pytest

from domain.errors import RuleViolation
from domain.systems.pulp_cards.combat import PulpCombat

SECRET = "b2" * 32
CRITICAL = ["B4", "BA", "B2", "P1", "P2", "P3", "P4"]  # raw +7
FUMBLE = ["RA1", "RA2", "R21", "R22", "P1", "P2", "P3"]  # raw -6
PLAIN = ["BA", "P1", "P2", "P3", "P4", "P5", "P6"]  # raw +1
COLE_FIRST = ["P1", "P2", "P3", "B4"]  # Ilse 0, Cole 4
ILSE_FIRST = ["B4", "P2", "P3", "P1"]  # Ilse 4, Cole 0


def combat(table: bool = True) -> PulpCombat:
    return PulpCombat.open(campaign_id=uuid4(), adventure=1, secret_seed=SECRET, table=table, actor="house",
                           combatants=[{"name": "Ilse", "seat": "ilse"}, {"name": "Sheriff Cole", "seat": "house"}])


def cycle(unit: PulpCombat, cards: list[str]) -> None:
    for _ in unit.order:
        up = unit.up()
        unit.attack(unit.controller(up), None, 0, None, cards, unit.controller(up))


def test_a_successful_surprise_gives_the_ambusher_a_free_attack_pu5():
    unit = combat()
    unit.deal_surprise("house", "sheriff cole", 1, None, CRITICAL, "house")
    assert unit.phase == "free-attack" and unit.up() == "Sheriff Cole" and unit.surprise["result"]["critical"]
    with pytest.raises(RuleViolation, match="PU-5"):
        unit.attack("ilse", None, 0, None, PLAIN, "ilse")
    unit.attack("house", "Ilse", 0, None, PLAIN, "house")
    assert unit.attacks[0]["free"] and unit.phase == "opened"
    unit.deal_initiative("house", None, COLE_FIRST, "house")
    assert unit.order == ["Sheriff Cole", "Ilse"] and unit.cycle == 1


def test_a_failed_surprise_gives_nobody_a_free_attack_and_comes_once_pu5():
    unit = combat()
    unit.deal_surprise("house", "Ilse", 0, None, FUMBLE, "house")
    assert unit.phase == "opened" and unit.free_attack is None
    with pytest.raises(RuleViolation, match="PU-5"):
        unit.deal_surprise("house", "Ilse", 0, None, PLAIN, "house")


def test_the_house_keeps_the_order_for_the_next_cycle_pu5():
    unit = combat()
    unit.deal_initiative("house", None, COLE_FIRST, "house")
    cycle(unit, PLAIN)
    assert unit.phase == "cycle-end" and unit.up() is None
    unit.keep_order("house", "house")
    assert unit.cycle == 2 and unit.order == ["Sheriff Cole", "Ilse"] and unit.up() == "Sheriff Cole"
    assert unit.initiative["kept"]


def test_the_house_redoes_the_order_each_cycle_pu5():
    unit = combat()
    unit.deal_initiative("house", None, COLE_FIRST, "house")
    cycle(unit, PLAIN)
    unit.deal_initiative("house", None, ILSE_FIRST, "house")
    assert unit.cycle == 2 and unit.order == ["Ilse", "Sheriff Cole"]
    with pytest.raises(RuleViolation, match="PU-5"):
        unit.keep_order("house", "house")


def test_an_attack_records_its_degree_critical_and_fumble_and_the_house_its_effect_pu5():
    unit = combat()
    unit.deal_initiative("house", None, ILSE_FIRST, "house")
    unit.attack("ilse", "Sheriff Cole", 4, None, CRITICAL, "ilse")
    unit.attack("house", "Ilse", -4, None, FUMBLE, "house")
    first, second = unit.attacks
    assert first["result"]["degree"] == 7 and first["result"]["critical"] and first["result"]["success"]
    assert second["result"]["degree"] == -6 and second["result"]["fumble"] and not second["result"]["success"]
    with pytest.raises(RuleViolation, match="C-5"):
        unit.record_effect("house", 1, "an arm lost", "house")  # not shown yet
    unit.show_attack("ilse", None, "ilse")
    unit.record_effect("house", 1, "Cole loses an arm", "house")
    assert unit.attacks[0]["effect"] == "Cole loses an arm"
    with pytest.raises(RuleViolation, match="PU-5"):
        unit.record_effect("ilse", 2, "x", "ilse")


def test_an_effect_without_a_number_goes_to_the_latest_shown_attack_as_the_legal_actions_list_it_c5_pu5():
    """The effect's default attack is one its listed choices name: an unshown later attack is passed over."""
    unit = combat()
    unit.deal_initiative("house", None, ILSE_FIRST, "house")
    unit.attack("ilse", "Sheriff Cole", 0, None, PLAIN, "ilse")
    unit.show_attack("ilse", None, "ilse")
    unit.attack("house", "Ilse", 0, None, PLAIN, "house")
    unit.keep_order("house", "house")
    unit.attack("ilse", "Sheriff Cole", 0, None, PLAIN, "ilse")  # attack 3, not shown
    for number in (2, 3):
        unit.show_attack("house", number, "house") if number == 2 else None
    effects = next(a for a in unit.legal_actions("house") if a["action"] == "effect")["choices"]
    assert effects == [1, 2]
    unit.record_effect("house", None, "a graze", "house")
    assert [a["effect"] for a in unit.attacks] == [None, "a graze", None]
    unit.record_effect("house", None, "a scratch", "house")
    assert [a["effect"] for a in unit.attacks] == ["a scratch", "a graze", None]
    with pytest.raises(RuleViolation, match="PU-5: no shown attack waits"):
        unit.record_effect("house", None, "x", "house")


def test_an_overturned_combat_takes_no_effect_and_lists_none_c6():
    unit = combat()
    unit.deal_initiative("house", None, ILSE_FIRST, "house")
    unit.attack("ilse", "Sheriff Cole", 0, None, PLAIN, "ilse")
    unit.end("house", "Cole ran", "house")
    assert any(a["action"] == "effect" for a in unit.legal_actions("house"))  # an ended combat still takes one
    unit.overturn("a dream", "house")
    assert not any(a["action"] == "effect" for a in unit.legal_actions("house"))
    with pytest.raises(RuleViolation, match="C-6: this combat was overturned"):
        unit.record_effect("house", 1, "late hat", "house")


def test_a_rewind_deals_the_same_cards_again_and_shown_ones_stay_public_c7_c8():
    unit = combat(table=False)
    unit.deal_initiative("house", {"Ilse": 4}, None, "house")
    unit.add_seed("ilse", None, "ilse")  # the players pass: the called deal comes now (C-10)
    first = unit.up()
    assert first == "Ilse"  # a player's attack: she gives the cut (PU-7)
    unit.attack(unit.controller(first), None, 1, 6, None, unit.controller(first))
    cards = unit.attacks[0]["cards"]
    unit.show_attack(unit.controller(first), 1, unit.controller(first))
    past = PulpCombat.__new__(PulpCombat)
    past.__dict__.update({k: v for k, v in unit.__dict__.items()})
    past.attacks, past.phase, past.turn, past.slots = [], "attacking", 0, unit.slots[:1]
    past._version = 4  # opened, called, passed, dealt
    unit.rewind(4, past, "misread", "house")
    assert unit.attacks == [] and unit.up() == first
    seen = unit.view_for("mara")["seen_before_the_rewind"]
    assert [s["cards"] for s in seen] == [cards] and seen[0]["seen_before_the_rewind"]
    with pytest.raises(RuleViolation, match="C-7"):
        unit.attack(unit.controller(first), None, 1, 7, None, unit.controller(first))  # another cut: no fishing
    unit.attack(unit.controller(first), None, 1, None, None, unit.controller(first))
    assert unit.attacks[0]["cards"] == cards


def test_the_houses_cut_is_drawn_for_the_slot_never_chosen_c9():
    unit = combat(table=False)
    with pytest.raises(RuleViolation, match="C-9"):
        unit.deal_surprise("house", "Sheriff Cole", 0, 5, None, "house")
    unit.deal_initiative("house", None, None, "house")
    unit.add_seed("ilse", None, "ilse")  # the players pass: the called deal comes now (C-10)
    assert unit.controller(unit.up()) == "house"
    with pytest.raises(RuleViolation, match="C-9: the House's cut is drawn"):
        unit.attack("house", None, 0, 5, None, "house")  # it knows the secret: a cut of its choosing picks the hand
    unit.attack("house", None, 0, None, None, "house")
    unit.add_seed("ilse", "fresh words", "ilse")  # C-9: the House's attack is dealt with the players' fresh seed
    assert unit.hands[-1]["cut_by"] == "drawn" and unit.hands[-1]["dealer"] == "house"


def undo_the_first_attack(unit: PulpCombat) -> None:
    """The House rewinds to step 4 (opened, called, passed, dealt): the first attack is taken back."""
    past = PulpCombat.__new__(PulpCombat)
    past.__dict__.update(unit.__dict__)
    past.attacks, past.turn, past.slots = [], 0, unit.slots[:1]
    past._version = 4
    unit.rewind(4, past, "misread", "house")


def test_a_drawn_cut_is_made_again_after_a_rewind_c7():
    unit = combat(table=False)
    unit.deal_initiative("house", {"Ilse": 4}, None, "house")
    unit.add_seed("ilse", None, "ilse")  # the players pass: the called deal comes now (C-10)
    first = unit.up()
    dealer = unit.controller(first)
    assert dealer == "ilse"
    unit.attack(dealer, None, 0, None, None, dealer)
    drawn, cards = unit.hands[-1]["cut"], unit.attacks[0]["cards"]
    undo_the_first_attack(unit)
    attack = next(a for a in unit.legal_actions(dealer) if a["action"] == "attack")
    assert attack["required"] == [drawn]
    with pytest.raises(RuleViolation, match="C-7"):
        unit.attack(dealer, None, 0, drawn % 13 + 1, None, dealer)  # another cut would fish for cards
    unit.attack(dealer, None, 0, drawn, None, dealer)
    assert unit.attacks[0]["cards"] == cards


def test_after_an_undo_a_players_attack_is_dealt_again_at_its_target_and_difficulty_c7():
    """Found on a phone walk: after an undo Ilse dealt her attack again, saw the same cards (her cut kept, C-7)
    and turned "a failure, just short" into "a great success" by moving the difficulty from 0 to -4. Her cards are
    known to her, so her inputs come again with them (an undo is not a reroll)."""
    unit = combat(table=False)
    unit.deal_initiative("house", {"Ilse": 4}, None, "house")
    unit.add_seed("ilse", None, "ilse")  # the players pass: the called deal comes now (C-10)
    dealer = unit.controller(unit.up())
    assert dealer == "ilse"
    unit.attack(dealer, "Sheriff Cole", 0, 6, None, dealer)
    cards, result = unit.attacks[0]["cards"], unit.attacks[0]["result"]
    undo_the_first_attack(unit)
    attack = next(a for a in unit.legal_actions(dealer) if a["action"] == "attack")
    assert (attack["min"], attack["max"], attack["bound"]) == (0, 0, {"target": "Sheriff Cole", "difficulty": 0})
    for target, difficulty in (("Sheriff Cole", -4), (None, 0)):
        with pytest.raises(RuleViolation, match="C-7: Ilse's attack was dealt before the undo against Sheriff Cole"):
            unit.attack(dealer, target, difficulty, None, None, dealer)
    assert unit.attacks == []  # nothing recorded by a refusal
    unit.attack(dealer, "Sheriff Cole", 0, None, None, dealer)
    assert (unit.attacks[0]["cards"], unit.attacks[0]["result"]) == (cards, result)
    assert unit.kept_through_rewind()["dealt_with"]  # the conformance suite's "what a rewind keeps"


def test_table_cards_after_a_rewind_are_entered_the_same_c7():
    unit = combat()
    unit.deal_initiative("house", None, COLE_FIRST, "house")
    unit.attack("house", None, 0, None, PLAIN, "house")
    past = PulpCombat.__new__(PulpCombat)
    past.__dict__.update(unit.__dict__)
    past.attacks, past.turn, past.slots = [], 0, unit.slots[:1]
    past._version = 2
    unit.rewind(2, past, "wrong target", "house")
    attack = next(a for a in unit.legal_actions("house") if a["action"] == "attack")
    assert attack["required"] == PLAIN  # the legal move says what must be entered again
    with pytest.raises(RuleViolation, match="C-7"):
        unit.attack("house", None, 0, None, CRITICAL, "house")
    unit.attack("house", None, 0, None, PLAIN, "house")


def test_a_combat_has_two_to_seven_distinct_combatants_pu5():
    with pytest.raises(RuleViolation, match="PU-5"):
        PulpCombat.open(campaign_id=uuid4(), adventure=1, secret_seed=SECRET, table=False, actor="house",
                        combatants=[{"name": "A", "seat": "house"}, {"name": "a", "seat": "house"}])
    with pytest.raises(RuleViolation, match="PU-5"):
        PulpCombat.open(campaign_id=uuid4(), adventure=1, secret_seed=SECRET, table=False, actor="house",
                        combatants=[{"name": f"n{i}", "seat": "house"} for i in range(8)])


def test_an_attack_every_seat_saw_stays_public_after_a_rewind_to_before_it_was_shown_c8():
    unit = combat()
    unit.deal_initiative("house", None, ILSE_FIRST, "house")
    unit.attack("ilse", None, 0, None, PLAIN, "ilse")
    past = copy.deepcopy(unit)  # the step after the attack, before it was shown
    unit.show_attack("ilse", 1, "ilse")
    unit.rewind(past.version, past, "misread", "house")
    assert unit.view_for("mara")["attacks"][0]["cards"] == PLAIN  # C-8: seen by every seat, public for good
    assert all(a["action"] != "show" for a in unit.legal_actions("ilse"))


def surprised(unit: PulpCombat) -> PulpCombat:
    """The House calls a surprise deal and the players pass: it is dealt (C-10); a free attack it gives is made."""
    unit.deal_surprise("house", "Sheriff Cole", 4, None, None, "house")
    unit.add_seed("ilse", None, "ilse")
    if unit.phase == "free-attack":
        unit.attack("house", "Ilse", 0, None, None, "house")
        unit.add_seed("ilse", "fresh for the free attack", "ilse")  # C-9: a House choice, then a fresh seed
    return unit


def test_initiative_after_a_rewind_is_the_houses_bound_choice_and_deals_nobody_anothers_unshown_attack_c5_c7_c9():
    """The attack slots are per attacker (C-5, C-7); the initiative after the first deal is the House's choice,
    drawn with the players' fresh seed, so after a rewind that kept that seed it is the same choice (C-9)."""
    unit = surprised(combat(table=False))  # the first deal; the initiative after it is a stage (C-9)
    before_initiative = copy.deepcopy(unit)
    unit.deal_initiative("house", {"Ilse": 4}, None, "house")
    unit.add_seed("ilse", "fresh words", "ilse")
    order = list(unit.order)
    if unit.up() == "Sheriff Cole":
        unit.attack("house", None, 0, None, None, "house")
        unit.add_seed("ilse", "more words", "ilse")
    unit.attack("ilse", None, 0, 6, None, "ilse")  # not shown: Ilse's alone
    hidden = next(a for a in unit.attacks if a["attacker"] == "Ilse")["cards"]
    unit.rewind(before_initiative.version, before_initiative, "wrong advantage", "house")
    with pytest.raises(RuleViolation, match="C-9: the House chose initiative for cycle 1 with advantages Ilse 4"):
        unit.deal_initiative("house", None, None, "house")
    unit.deal_initiative("house", {"Ilse": 4}, None, "house")  # the same: dealt at once, the same order
    assert unit.order == order and unit.owed_fresh() == []
    if unit.up() == "Sheriff Cole":
        attack = next(a for a in unit.legal_actions("house") if a["action"] == "attack")
        assert "required" not in attack  # neither Ilse's cut nor her cards
        unit.attack("house", None, 0, None, None, "house")  # bound, seed kept: dealt at once
        assert unit.attacks[-1]["cards"] != hidden
    unit.attack("ilse", None, 0, None, None, "ilse")  # her first attack again: the same cards (C-7)
    assert unit.attacks[-1]["cards"] == hidden


def test_after_a_rewind_the_house_is_offered_no_cut_to_repeat_and_initiative_no_required_c7_c9():
    unit = surprised(combat(table=False))
    before = copy.deepcopy(unit)
    unit.deal_initiative("house", None, None, "house")
    unit.rewind(before.version, before, "misread", "house")
    assert "required" not in next(a for a in unit.legal_actions("house") if a["action"] == "initiative")
    assert unit.hands[0]["cut_by"] == "drawn"  # the House's surprise cut was drawn for the slot (C-9)


def _called_and_dealt() -> tuple[PulpCombat, list[PulpCombat]]:
    """The review's case (finding 1): the House calls initiative with an advantage, Ilse passes, it is dealt."""
    unit = combat(table=False)
    steps = [copy.deepcopy(unit)]
    unit.deal_initiative("house", {"sheriff cole": 2}, None, "house")  # DealCalled
    steps.append(copy.deepcopy(unit))
    unit._seed_passed(side="players", actor="ilse")  # the pass, alone: the state inside that move
    steps.append(copy.deepcopy(unit))
    unit.draw_at_last_input("ilse")  # and the deal it makes, in the same write (C-10)
    steps.append(copy.deepcopy(unit))
    return unit, steps


def test_a_rewind_to_before_the_first_deal_is_refused_once_the_players_input_is_known_c9_c10():
    unit, steps = _called_and_dealt()
    assert unit.initiative["advantages"] == {"Sheriff Cole": 2} and unit.cycle == 1
    for past in steps[:3]:  # before the call, at the call, and between the pass and its deal
        with pytest.raises(RuleViolation, match="C-9: a rewind to a step before the first deal") as refused:
            unit.rewind(past.version, past, "misread", "house")
        assert "ADR 0029" in str(refused.value)
    assert unit.version == steps[-1].version and unit.initiative["advantages"] == {"Sheriff Cole": 2}
    with pytest.raises(RuleViolation, match="PU-5"):  # and no surprise deal of the House's choosing after it
        unit.deal_surprise("house", "Sheriff Cole", -4, None, None, "house")
    assert unit.surprise is None


def test_a_rewind_to_the_first_deal_or_later_still_deals_the_same_cards_c6_c7():
    unit, steps = _called_and_dealt()
    dealt = copy.deepcopy(unit.initiative)
    unit.attack(unit.controller(unit.up()), None, 0, None, None, unit.controller(unit.up()))
    unit.rewind(steps[-1].version, steps[-1], "misread", "house")
    assert unit.initiative == dealt and unit.attacks == [] and unit.phase == "attacking"


def test_a_table_combat_still_rewinds_to_before_its_first_deal_c3_c6():
    unit = combat()  # table cards: no seed takes part, the cards are the table's (C-3)
    opened = copy.deepcopy(unit)
    unit.deal_initiative("house", None, COLE_FIRST, "house")
    unit.rewind(opened.version, opened, "misread", "house")
    assert unit.phase == "opened" and unit.cycle == 0
    unit.deal_initiative("house", None, COLE_FIRST, "house")  # the same cards again (C-7)
    assert unit.order == ["Sheriff Cole", "Ilse"]


def test_a_combatant_named_twice_among_the_advantages_is_refused_pu9():  # review finding 6
    unit = combat(table=False)
    with pytest.raises(RuleViolation, match="PU-9: Ilse is named twice among the advantages"):
        unit.deal_initiative("house", {"ilse": 2, "Ilse": 4}, None, "house")  # her seat and her name
    assert unit.called is None and unit.version == 1  # nothing recorded
    unit.deal_initiative("house", {"ilse": 2}, None, "house")
    assert unit.called["advantages"] == {"Ilse": 2}
