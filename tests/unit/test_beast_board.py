"""Humanity and Beast's web board (issue 31) drawn from real units on the in-memory store: dice of two kinds that
say what they show, tens as chains, the split's steppers bounded by the legal action, moves as controls, the
House's secret roll and declared split kept off a player's board (C-5, C-9), difficulties by name (BE-13) and
a sheet's history in sentences."""

from __future__ import annotations

import html as markup
import re
from typing import Any
from uuid import UUID

from api.web import forms
from api.web.systems import Move, TableView
from api.web.systems.beast import BOARD, history
from domain.kernel.common import Rewind
from domain.kernel.registry import system_of_unit
from domain.seats import Seat
from domain.systems.beast import play
from domain.systems.beast.rules import DIFFICULTIES
from tests.unit.beast_table import HOUSE, ILSE, TOMAS, BeastTable


def table_of(t: BeastTable, unit_id: UUID, seat: Seat) -> TableView:
    """The unit as ``seat`` reads it, with its legal moves: what ``api.web.pages.table_view`` builds."""
    unit = t.unit(unit_id)
    ones = play.sheets_of(t.app.application, unit)
    values = unit.values_now({side: one.values() for side, one in ones.items()})
    moves = []
    for legal in unit.legal_actions(seat.name, values):
        cls = system_of_unit(unit).action(unit, legal["action"])
        moves.append(Move(legal["action"], cls.summary(), legal, forms.fields(cls, limits=legal), cls))
    sheets = [{"seat": s, "name": s.title(), **t.sheet(s)} for s in ("ilse", "tomas")]
    return TableView(unit_id=unit_id, campaign_id=t.cid, kind="BeastRoll", phase=unit.phase,
                     state=unit.view_for(seat.name), moves=moves, waiting={}, seat=seat.name, is_house=seat.is_house,
                     names={"house": "the House", "ilse": "Ilse", "tomas": "Tomas"}, sheets=sheets)


def drawn(t: BeastTable, unit_id: UUID, seat: Seat) -> str:
    """The board's markup, entities read back (``Ilse's``, not ``Ilse&#39;s``)."""
    return markup.unescape(str(BOARD.table(table_of(t, unit_id, seat))))


def side_of(html: str, side: str) -> str:
    """The markup of one side's block of the board."""
    found = re.search(rf'<section class="beast-side[^"]*" data-side="{side}".*?</section>', html, re.S)
    assert found, side
    return found.group(0)


def faces(html: str) -> list[int]:
    return [int(v) for v in re.findall(r'class="d10 [^"]*"[^>]*data-value="(\d+)"', html)]


def test_a_ten_and_its_re_roll_are_one_chain_and_every_die_says_its_kind_and_face():
    t = BeastTable(table_dice=True)
    unit = t.action(difficulty=3, humanity=2, beast=1, dice=[10, 3, 6, 7])  # BE-10: the 10 is rolled again: 7
    html = drawn(t, unit.id, ILSE)
    assert side_of(html, "challenger").count('class="chain exploded"') == 1
    assert 'aria-label="humanity die showing 10, a success, rolled again"' in html
    assert 'aria-label="humanity die showing 7, the re-roll of a 10, a success"' in html
    assert 'aria-label="humanity die showing 3, no success"' in html
    assert 'aria-label="beast die showing 6, a success"' in html  # a Beast die scores on 6 (BE-3)
    assert faces(side_of(html, "challenger")) == [10, 7, 3, 6]
    assert "3 successes: 2 Humanity, 1 Beast." in html


def test_the_reroll_is_picked_by_tapping_a_die_and_keeping_is_one_tap():
    t = BeastTable(table_dice=True)
    unit = t.action(difficulty=3, humanity=2, beast=1, dice=[10, 3, 6, 7])
    html = drawn(t, unit.id, ILSE)
    radios = re.findall(r'<input type="radio" name="die" value="(\d)" required( checked)?>', html)
    assert [v for v, _ in radios] == ["1", "2", "3"]  # the legal action's choices, each drawn as its die
    assert [v for v, checked in radios if checked] == ["2"]  # the first die that scored nothing
    assert 'data-action="keep"' in html and "Keep these dice" in html
    assert 'name="dice"' in html  # table dice: the re-rolled die is entered as it fell (C-3)


def test_after_a_rewind_the_table_dice_control_spells_out_the_chains_to_enter_again():  # C-3, C-7 (issue 30)
    t = BeastTable(table_dice=True)
    unit = t.conflict()
    t.act(ILSE, unit, action="roll", humanity=2, beast=0, dice=[10, 4, 8])
    t.run(HOUSE, Rewind(unit=unit, to_step=1, reason="wrong split"))
    html = drawn(t, unit, ILSE)
    assert "A rewind fixed these (C-7): enter the same again: die 1 10→8, die 2 4." in html
    assert 'id="roll-challenger-dice"' in html


def test_a_side_lost_to_the_beast_is_asked_for_no_table_dice():  # BE-9, C-3: its listing enters no die
    t = BeastTable(table_dice=True, ilse_humanity=1)
    unit = t.conflict()
    action = t.action(difficulty=2, humanity=1, beast=9, dice=[1] + [9] * 9).id
    t.act(ILSE, action, action="keep")
    t.act(ILSE, action, action="check", dice=[1])  # slipped: Humanity 0, lost to the Beast
    html = drawn(t, unit, ILSE)
    assert "rolls no die (BE-9)" in html and 'id="roll-challenger-dice"' not in html


def test_an_antagonists_secret_roll_and_declared_split_stay_off_a_players_board_until_shown():
    t = BeastTable(cole_humanity=4, cole_willpower=3)
    unit = t.conflict()
    t.act(HOUSE, unit, action="prepare", humanity=3, beast=5, willpower="before")
    declared = "3 Humanity and 5 Beast dice"
    assert declared not in drawn(t, unit, ILSE) and f"Declared: {declared}" in drawn(t, unit, HOUSE)
    assert "split is declared, in secret" in drawn(t, unit, ILSE)
    t.act(ILSE, unit, action="pass")
    t.act(ILSE, unit, action="roll", humanity=4, beast=2)
    t.act(HOUSE, unit, action="roll", humanity=3, beast=5, willpower="before")
    for seat in (ILSE, TOMAS):
        html = drawn(t, unit, seat)
        assert faces(side_of(html, "opponent")) == [] and 'class="beast-dice cup"' in html  # backs, uncounted
        assert declared not in html and "sure success" not in side_of(html, "opponent")
        assert len(faces(side_of(html, "challenger"))) >= 6
    house = drawn(t, unit, HOUSE)
    assert len(faces(side_of(house, "opponent"))) >= 8 and 'data-action="reveal"' in house
    t.act(HOUSE, unit, action="reveal")  # its dice are public now; the declaration is read once it settles
    html = drawn(t, unit, TOMAS)
    assert len(faces(side_of(html, "opponent"))) >= 8 and f"Declared: {declared}" not in html
    t.act(HOUSE, unit, action="keep")
    t.act(ILSE, unit, action="keep")
    t.act(ILSE, unit, action="seed", seed="fresh words")  # C-9: the players' fresh seed, then the outcome
    if t.unit(unit).phase == "check":
        t.act(ILSE, unit, action="check")
    html = drawn(t, unit, TOMAS)  # settled: every die and the declaration are public (C-5)
    assert len(faces(side_of(html, "opponent"))) >= 8 and f"Declared: {declared}, with 1 Willpower for a sure success." in html


def test_the_split_is_chosen_with_steppers_bounded_by_the_legal_actions_ranges():
    t = BeastTable(ilse_humanity=6)
    unit = t.conflict()
    house = drawn(t, unit, HOUSE)
    assert re.search(r'name="humanity" min="0" max="4"', house) and re.search(r'name="beast" min="0" max="6"', house)
    assert "Declare Sheriff Cole's split in secret" in house
    assert 'name="willpower" value="before"' in house  # Cole has Willpower to spend (BE-4)
    t.act(HOUSE, unit, action="prepare", humanity=2, beast=1)
    ilse = drawn(t, unit, ILSE)
    assert re.search(r'name="humanity" min="0" max="6"\s+step="1" value="6"', ilse)  # all Humanity, no Beast
    assert re.search(r'name="beast" min="0" max="4"\s+step="1" value="0"', ilse)
    assert 'data-random-seed="seed-challenger"' in ilse and 'data-action="pass"' in ilse  # C-4, C-10
    t.act(ILSE, unit, action="pass")
    house = drawn(t, unit, HOUSE)  # the declared split is rolled as declared (C-9): no stepper to change it
    assert 'name="humanity" value="2"' in house and 'name="beast" value="1"' in house
    assert "stepper" not in house.split('data-action="roll"')[1].split("</form>")[0]


def test_a_manual_humanity_check_is_ruled_by_the_house_with_a_choice_of_words():
    t = BeastTable(check_mode="manual", table_dice=True)
    unit = t.conflict(against="tomas")
    t.act(ILSE, unit, action="roll", humanity=0, beast=3, dice=[6, 6, 6])  # Beast above Humanity: due (BE-7)
    t.act(TOMAS, unit, action="roll", humanity=1, beast=3, dice=[1, 6, 6, 6])
    for seat in (ILSE, TOMAS):
        if "keep" in [m.name for m in table_of(t, unit, seat).moves]:
            t.act(seat, unit, action="keep")
    view = table_of(t, unit, HOUSE)
    checks = [m for m in view.moves if m.name == "check"]
    html = markup.unescape(str(BOARD.table(view)))
    assert len(checks) == 2  # manual mode: the House rules on each side's check, due or not (C-5)
    for m in checks:  # one form per check due, each naming whose Humanity it rules on
        assert f"Rule on {view.state['sides'][m.limits['member']]['name']}'s Humanity check" in html
    assert 'name="outcome" value="held"' in html


def test_difficulties_carry_the_designers_names_beside_the_number():
    assert DIFFICULTIES == {2: "Easy", 3: "Average", 4: "Challenging", 5: "Difficult", 6: "Hard",  # BE-13
                            7: "Extremely Hard", 8: "Almost Impossible", 9: "Epic", 10: "Legendary"}
    t = BeastTable()
    unit = t.action(difficulty=7, humanity=2, beast=1, seed="words")
    view = table_of(t, unit.id, ILSE)
    assert view.state["difficulty_name"] == "Extremely Hard"
    assert BOARD.unit_title({"kind": "BeastRoll", **view.state}, view.names) == "Ilse's action, Extremely Hard (7)"
    assert "An action at <strong>Extremely Hard (7)</strong>" in str(BOARD.table(view))


def history_line(unit: str | None, what: str, at: str, **detail: Any) -> dict[str, Any]:
    return {"at": at, "unit": unit, "what": what, "detail": detail}


def test_a_sheets_history_reads_as_sentences_with_the_dice_one_entry_per_roll():
    unit = "8f9d1c1e-0000-4000-8000-000000000001"
    score = {"humanity": 2, "beast": 1, "willpower": 1, "total": 4, "more": "humanity"}
    lines = [  # newest first, as the sheet's read answers them
        history_line(None, "restored", "2026-01-01T10:05:00Z", willpower=2),
        history_line(unit, "adjusted", "2026-01-01T10:00:03Z", willpower=-1, humanity=0, why="roll"),
        history_line(unit, "outcome", "2026-01-01T10:00:03Z", kind="action", success=True, winner=None, won=None,
                     willpower_lost=0, check=None, score=score),
        history_line(unit, "reroll", "2026-01-01T10:00:02Z", die=2, was=[3], chain=[8]),
        history_line(unit, "roll", "2026-01-01T10:00:01Z", kind="action", difficulty=4, difficulty_name="Challenging",
                     humanity=2, beast=1, willpower_before=True, dice=["H 10→7 ✓✓", "H 3 ✗", "B 6 ✓"], score=score),
    ]
    restored, action = history(lines)
    assert restored["result"] == "The House restored 2 Willpower (BE-8)."
    assert action["title"] == "Action, Challenging (4)" and action["result"] == "Success with 4 successes."
    assert action["rolled"] == "Rolled 2 Humanity and 1 Beast dice, and 1 Willpower for a sure success."
    assert [[f["value"] for f in d["faces"]] for d in action["dice"]] == [[10, 7], [3], [6]]
    assert [d["kind"] for d in action["dice"]] == ["humanity", "humanity", "beast"]
    reroll = action["rerolls"][0]["die"]
    assert reroll["kind"] == "humanity" and [f["value"] for f in reroll["faces"]] == [8]
    assert [f["value"] for f in reroll["was"]] == [3]
    assert action["changes"] == ["Willpower −1 (spent on a roll)"]


def test_an_overturned_conflict_says_the_result_that_stands_now_and_what_it_first_read_c6():
    unit = "8f9d1c1e-0000-4000-8000-000000000002"
    score = {"humanity": 1, "beast": 1, "willpower": 0, "total": 2, "more": "humanity"}
    lines = [  # newest first
        history_line(unit, "adjusted", "2026-01-01T11:00:00Z", willpower=1, humanity=0, why="overturned"),
        history_line(unit, "overturned", "2026-01-01T11:00:00Z", kind="conflict", void=False,
                     reason="the sheriff was drunk", won=True),
        history_line(unit, "outcome", "2026-01-01T10:00:03Z", kind="conflict", success=None, winner="opponent",
                     won=False, willpower_lost=1, check=None, score=score),
    ]
    (conflict,) = history(lines)
    assert conflict["result"] == ("The House overturned the result: won the conflict now (“the sheriff was drunk”, "
                                  "C-6). It first read: Lost the conflict with 2 successes.")
    assert conflict["good"] is True
    voided = history([history_line(unit, "overturned", "2026-01-01T11:00:00Z", kind="conflict", void=True,
                                   reason="a dream", won=None), lines[2]])[0]
    assert voided["result"].startswith("The House overturned the result: the conflict no longer stands")
    assert voided["good"] is None


def test_a_commands_answer_is_said_in_words():
    from api.web.systems import CampaignView

    view = CampaignView(campaign={}, seat="house", is_house=True, names={}, own=[], others=[], books=[], units=[],
                        open=[])
    sheet = {"name": "Mara Quill", "humanity": 5, "beast": 5, "willpower": 4, "willpower_max": 4}
    seated = markup.unescape(str(BOARD.answer("add-player", {"sheet": sheet, "invite": "inv_abc"}, view)))
    assert "Mara Quill is seated: Humanity 5, Beast 5, Willpower 4." in seated and 'href="/web/invite#inv_abc"' in seated
    restored = markup.unescape(str(BOARD.answer("restore-willpower", {**sheet, "willpower": 3}, view)))
    assert "Mara Quill's Willpower is now 3 of 4." in restored and 'aria-label="Willpower 3 of 4"' in restored


def test_an_action_short_of_its_difficulty_is_drawn_as_a_failure_not_in_a_winners_colours_be5():
    from api.web.systems.beast import table_model

    def model(success: bool) -> dict[str, Any]:
        state = {"kind": "action", "difficulty": 4, "sides": {}, "outcome": {"success": success, "total": 1}}
        return table_model(TableView(unit_id=None, campaign_id=None, kind="BeastRoll", phase="settled",
                                     state=state, moves=[], waiting=[], seat="ilse", is_house=False, names={},
                                     sheets=[]))

    assert model(False)["failed"] is True and model(True)["failed"] is False


def test_dice_seen_before_an_undo_are_said_side_by_side_by_name_a_ten_with_the_die_it_rolled_again_c8():
    from api.web.systems.beast import _seen_before

    state = {"seen_before_rewind": [
        {"slot": ["challenger", "die", 0, 0], "value": 10}, {"slot": ["challenger", "die", 0, 1], "value": 4},
        {"slot": ["challenger", "die", 1, 0], "value": 7}, {"slot": ["opponent", "check", 0], "value": 3},
        {"slot": ["opponent", "check", 1], "value": 9}]}
    assert _seen_before(state, {"challenger": "Ilse Varn", "opponent": "Brother Tomas"}) == [
        ("Ilse Varn", "10→4, 7"), ("Brother Tomas", "3, 9")]


def test_a_conflict_in_a_sheets_history_says_whom_it_was_against_be6():
    """Found on a phone walk: "Lost the conflict with 3 successes", against whom the sheet did not say."""
    unit = "8f9d1c1e-0000-4000-8000-000000000003"
    score = {"humanity": 1, "beast": 2, "willpower": 0, "total": 3, "more": "beast"}
    (conflict,) = history([history_line(unit, "outcome", "2026-01-01T10:00:03Z", kind="conflict", success=None,
                                        winner="opponent", won=False, willpower_lost=1, check=None, score=score,
                                        against="Sheriff Cole")])
    assert conflict["result"] == "Lost the conflict against Sheriff Cole with 3 successes."


def test_a_loss_of_willpower_capped_at_what_was_left_says_so_be6():
    """Found on a phone walk: 'wins by 4 successes. Jon Hale loses 3 Willpower.' read as a miscount."""
    from api.web.systems.beast import _outcome

    state = {"kind": "conflict", "outcome": {"winner": "challenger", "difference": 4, "damage": {"opponent": 3}}}
    said = _outcome(state, {"challenger": "Ilse Varn", "opponent": "Jon Hale"})
    assert said == ["Ilse Varn wins by 4 successes.", "Jon Hale loses 3 Willpower, all there was left (it never goes "
                                                      "below 0)."]
    state["outcome"]["damage"] = {"opponent": 4}
    assert _outcome(state, {"opponent": "Jon Hale"})[-1] == "Jon Hale loses 4 Willpower."
