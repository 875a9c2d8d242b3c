"""The Pulp board's words and controls (issue 31): every card reads as a card, black against red, with words for
a screen reader; a result says what it means (PU-2, PU-3, PU-4, PU-8); units are named by who takes part;
one advantage stepper per combatant posts a mapping the command validates (PU-9)."""

from __future__ import annotations

import pytest

from api.web import forms
from api.web.systems.pulp_cards import BOARD, card, outcome
from domain.errors import RuleViolation
from domain.systems.pulp_cards import commands, rules


def test_each_of_the_fourteen_cards_reads_as_its_colour_suit_and_points():
    cards = [card(code) for code in rules.DECK]
    assert [c["colour"] for c in cards].count("black") == 3 and [c["colour"] for c in cards].count("red") == 4
    assert [c["colour"] for c in cards].count("picture") == 7
    for c in cards:
        assert c["points"] == rules.points(c["code"])
        assert f"{c['points']} point" in c["label"] if c["points"] else "no points" in c["label"]
        if c["colour"] == "black":
            assert c["suit"] == "♠" and c["label"].startswith("black")
        elif c["colour"] == "red":
            assert c["suit"] in "♥♦" and c["label"].startswith("red")
        else:
            assert c["label"] == "picture card, no points"
    assert card("B4")["label"] == "black four of spades, 4 points" and card("RA2")["label"] == "red ace of diamonds, 1 point"
    assert card(None) == {"back": True, "label": "a card face down"}  # another seat's card shows nothing (C-5)


def judged(cards: list[str], difficulty: int) -> dict:
    return rules.judge(cards, difficulty)


def test_a_result_says_how_far_above_or_below_the_difficulty_it_came():
    narrow = outcome(judged(["B2", "P1", "P2", "P3", "P4", "P5", "P6"], 1), 1)  # degree +2, difficulty +1
    assert narrow["head"] == "A narrow success, by 1" and narrow["tone"] == "success"
    assert (narrow["black"], narrow["red"], narrow["degree"]) == (2, 0, "+2")
    short = outcome(judged(["BA", "P1", "P2", "P3", "P4", "P5", "P6"], 1), 1)  # degree +1 is not above +1 (PU-2)
    assert short["head"] == "A failure, just short" and "must be above" in short["detail"]
    bad = outcome(judged(["R21", "RA1", "P2", "P3", "P4", "P5", "P6"], 2), 2)  # degree −3 against +2
    assert bad["head"] == "A bad failure, short by 6" and bad["degree"] == "−3"


def test_criticals_and_fumbles_are_named_whatever_the_difficulty():
    critical = outcome(judged(["BA", "B4", "P1", "P2", "P3", "P4", "P5"], 4), 4)  # +5 (PU-3)
    assert critical["head"] == "Critical success" and critical["tone"] == "critical" and "PU-3" in critical["detail"]
    easy = outcome(judged(["RA1", "R21", "P1", "P2", "P3", "P4", "P5"], -4), -4)  # −3 against −4: no fumble
    assert easy["head"] == "A narrow success, by 1"
    fumble = outcome(judged(["RA1", "RA2", "R21", "R22", "P1", "P2", "P3"], -4), -4)  # −6
    assert fumble["head"] == "Fumble" and fumble["tone"] == "fumble"


def test_a_resistance_deal_reads_from_the_characters_side():
    resists = outcome(judged(["RA1", "P1", "P2", "P3", "P4", "P5", "P6"], 0), 0, "resistance", "Tomas")
    assert resists["head"].startswith("Tomas resists") and "action on Tomas" in resists["detail"]
    taken = outcome(judged(["B4", "P1", "P2", "P3", "P4", "P5", "P6"], 0), 0, "resistance", "Tomas")
    assert taken["head"].startswith("Tomas does not resist")


def test_units_are_named_by_who_takes_part():
    names = {"house": "the House", "ilse": "Ilse Varn"}
    assert BOARD.unit_title({"kind": "PulpDeal", "challenger": ["ilse"]}, names) == "Ilse Varn's deal"
    assert BOARD.unit_title({"kind": "PulpDeal", "challenger": ["house"]}, names) == "The House's deal"
    assert BOARD.unit_title({"kind": "PulpCombat", "challenger": ["ilse"], "opponent": ["house"]}, names) == \
        "Combat: Ilse Varn and the House"
    assert BOARD.unit_title({"kind": "resistance", "character": "Tomas"}, names) == "Tomas's resistance deal"
    combat = {"kind": "combat", "combatants": [{"name": "Ilse Varn"}, {"name": "Tomas"}, {"name": "Sheriff Cole"}]}
    assert BOARD.unit_title(combat, names) == "Combat: Ilse Varn, Tomas and Sheriff Cole"


def test_one_advantage_stepper_per_combatant_posts_a_mapping_the_command_validates():
    posted = {"action": ["initiative"], "advantage.Ilse Varn": ["0"], "advantage.Sheriff Cole": ["2"]}
    payload = forms.payload(commands.Initiative, posted)
    assert payload == {"advantage": {"Ilse Varn": 0, "Sheriff Cole": 2}}
    assert commands.Initiative.parse({"action": "initiative", **payload}).advantage == {"Ilse Varn": 0, "Sheriff Cole": 2}
    assert forms.payload(commands.Initiative, {"action": ["initiative"]}) == {}  # no stepper: no advantage
    with pytest.raises(RuleViolation) as refused:
        forms.payload(commands.Initiative, {"advantage.Tomas": ["two"]})
    assert refused.value.ruling == "PU-9" and "whole number" in str(refused.value)


def test_the_houses_undo_list_names_the_attacker_of_an_attack_another_seats_fresh_seed_dealt_c9():
    names = {"house": "the House", "ilse": "Ilse Varn", "tomas": "Tomas"}.__getitem__
    dealt = {"number": 2, "seat": "house", "attacker": "Sheriff Cole", "target": "Tomas"}
    assert BOARD.step_words("Attacked", dealt, "ilse", names) == (
        "Sheriff Cole's attack on Tomas (dealt when Ilse Varn sent the fresh seed)")
    own = {"number": 3, "seat": "tomas", "attacker": "Tomas", "target": None}
    assert BOARD.step_words("Attacked", own, "tomas", names) == "Tomas's attack"
    assert BOARD.step_words("SeedAdded", {}, "ilse", names) == "Ilse Varn added a seed"  # the kernel's words
    # the House's call dealt by a player's seed or pass (C-10), its choice standing with a fresh seed (C-9)
    assert BOARD.step_words("InitiativeDealt", {}, "tomas", names) == (
        "Initiative dealt (the House's call, dealt with Tomas's input, C-10)")
    assert BOARD.step_words("InitiativeDealt", {}, "house", names) == "Initiative dealt, by the House"
    assert BOARD.step_words("OrderKept", {}, "ilse", names) == (
        "The order kept (the House's choice, when Ilse Varn sent the fresh seed, C-9)")


def combat_state(**state):
    return {"phase": "attacking", "cycle": 1, "turn": 0, "order": ["Ilse Varn", "Sheriff Cole"], "attacks": [],
            "combatants": [{"name": "Ilse Varn", "seat": "ilse"}, {"name": "Sheriff Cole", "seat": "house"}],
            **state}


def test_a_combat_ended_mid_cycle_says_who_did_not_attack_and_the_status_follows_the_surprise_pu5():
    from api.web.systems import TableView

    def table(**state):
        return TableView(unit_id=None, campaign_id=None, kind="PulpCombat", phase=state.get("phase", "attacking"),
                         state=combat_state(**state), moves=[], waiting=[], seat="house", is_house=True,
                         names={}, sheets=[], rulings=[], abandoned=False)

    attack = {"number": 1, "cycle": 1, "attacker": "Ilse Varn", "dealer": "ilse", "target": "Sheriff Cole",
              "free": False, "difficulty": 0, "cards": [], "result": None, "shown": True, "effect": None}
    ended = BOARD.combat(table(phase="settled", attacks=[attack]))
    assert [(r["name"], r["status"]) for r in ended["track"]] == [("Ilse Varn", "done"), ("Sheriff Cole", "ended")]
    surprised = {"phase": "opened", "surprise": {"ambusher": "Sheriff Cole"}, "order": []}
    assert BOARD.status(combat_state(**surprised), table(**surprised)).startswith("The surprise is dealt")
    assert BOARD.seeds(combat_state(phase="settled", seeds={})) == "The table ended before the players gave their seed."
    assert BOARD.seeds({"combatants": [{"name": "Sheriff Cole", "seat": "house"}]}) == "No player in this combat: no seed."
    assert BOARD.seeds(combat_state(seeds={"players": "words"}, fresh_seeds={"cycle-1": {"players": "more"}})) == (
        "The players added a seed of their own. Since then, a fresh seed of theirs has dealt what the House chose (C-9).")


def test_an_abandoned_combats_would_be_deals_read_as_cards_by_what_they_would_have_dealt_c10():
    from api.web.systems import TableView
    from domain.systems.pulp_cards import rules

    order = list(rules.DECK)
    view = TableView(unit_id=None, campaign_id=None, kind="PulpCombat", phase="settled", state=combat_state(
        phase="settled"), moves=[], waiting=[], seat="ilse", is_house=False, names={}, sheets=[], rulings=[],
        would_have_drawn=[{"slot": ["surprise"], "deck": order, "order": order, "cut": 3, "cards": order[3:10]},
                          {"slot": ["initiative", 1], "deck": order, "order": order},
                          {"slot": ["attack", "Ilse Varn", 1, "fresh", "x"], "deck": order, "order": order,
                           "cut": 5, "cut_by": "drawn", "cards": order[5:12]}])
    lines = BOARD.abandoned_lines(view)
    assert lines == [("The surprise deal", rules.faces(order[3:10]) + " (cut at 3)"),
                     ("The initiative deal", rules.faces(order)),
                     ("Ilse Varn's attack up next", rules.faces(order[5:12]) + " (cut at 5)")]
    assert "would have drawn" in str(BOARD.abandoned_draw(view))


def test_the_combats_steps_say_which_attack_and_what_the_house_chose_or_called():
    """Found on a phone walk: "House chose, by the House", "Deal called, by the House", "Attack shown"."""
    from api.web.systems import of

    pulp, names = of("pulp-cards"), {"house": "the House", "ilse": "Ilse Varn"}.__getitem__
    assert pulp.step_words("AttackShown", {"number": 3}, "ilse", names) == "Attack 3 shown to every seat, by Ilse Varn"
    assert pulp.step_words("EffectRecorded", {"number": 3, "effect": "a graze"}, "house", names) == \
        "The House recorded the effect of attack 3: “a graze”"
    assert pulp.step_words("DealCalled", {"kind": "surprise", "ambusher": "Sheriff Cole", "difficulty": 1}, "house",
                           names) == "The House called for the surprise deal by Sheriff Cole at difficulty 1 (PU-5, C-10)"
    chose = {"stage": "attack-2", "choice": {"kind": "attack", "attacker": "Sheriff Cole", "target": "Ilse",
                                             "difficulty": 2}}
    assert pulp.step_words("HouseChose", chose, "house", names) == \
        "The House chose Sheriff Cole's attack on Ilse at difficulty 2, dealt with the players' fresh seed (C-9)"
    assert pulp.step_words("HouseChose", {"stage": "attack-2"}, "house", names) == \
        "The House made its choice, dealt with the players' fresh seed (C-9)"  # what a player may not read yet
