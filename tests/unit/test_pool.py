"""The Pool, Powered by the Apocalypse (PL-1 … PL-8), on the in-memory store."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.errors import NotPermitted, RuleViolation, StakesError
from domain.seats import Seat
from domain.systems.pool import play, rules
from tests.unit.conftest import new_app

HOUSE, ILSE, TOMAS = Seat.house(), Seat("ilse"), Seat("tomas")
ILSE_TEXT = "A brave and clever thief with quick hands and a quicker tongue"
TOMAS_TEXT = "A stubborn old monk who never lies"


class Table:
    def __init__(self, **settings_) -> None:
        self.app = new_app()
        self.cid = self.app.create_campaign("Pool night", "pool", settings_)
        self.app.add_player(self.cid, HOUSE, "ilse", "Ilse", description=ILSE_TEXT, traits={"brave": 1})
        self.app.add_player(self.cid, HOUSE, "tomas", "Tomas", description=TOMAS_TEXT)
        self.app.start_adventure(self.cid, HOUSE)  # units of resolution happen during an adventure (C-1)

    def pool(self, seat: str) -> int:
        return play.character(self.app.application, self.app.campaign(self.cid), seat).pool

    def roll(self, seat: Seat, count: int, dice=None, **kw):
        rid = self.app.pool_roll(self.cid, seat, count, "secret", dice=dice, **kw)
        return self.app.repository.get(rid)


@pytest.fixture
def table() -> Table:
    return Table(table_dice=True)


# -- PL-1 ---------------------------------------------------------------------------------------
def test_traits_bought_at_creation_cost_2_5_or_10_dice():
    assert [rules.creation_cost({"a": r}) for r in (1, 2, 3)] == [2, 5, 10]
    t = Table()
    assert t.pool("ilse") == 12 - 2 and t.pool("tomas") == 12


def test_a_description_has_at_most_fifty_words_and_the_count_is_named():
    app = new_app()
    cid = app.create_campaign("Pool", "pool")
    with pytest.raises(RuleViolation, match="PL-1: a description has at most 50 words; this one has 51"):
        app.add_player(cid, HOUSE, "ilse", "Ilse", description=" ".join(["word"] * 51))


def test_a_trait_is_named_after_words_of_the_description():
    app = new_app()
    cid = app.create_campaign("Pool", "pool")
    with pytest.raises(RuleViolation, match="PL-1: a trait is named after words of the description; 'strong' is not in it"):
        app.add_player(cid, HOUSE, "ilse", "Ilse", description=ILSE_TEXT, traits={"strong": 1})
    app.add_player(cid, HOUSE, "ilse", "Ilse", description=ILSE_TEXT, traits={"Quick Hands": 2})


def test_at_least_two_dice_remain_at_creation():
    app = new_app()
    cid = app.create_campaign("Pool", "pool")
    with pytest.raises(RuleViolation, match="PL-1: these traits cost 15 dice of 12"):
        app.add_player(cid, HOUSE, "ilse", "Ilse", description=ILSE_TEXT, traits={"brave": 3, "clever": 2})
    app.add_player(cid, HOUSE, "ilse", "Ilse", description=ILSE_TEXT, traits={"brave": 3})  # 12 - 10 = 2


def test_a_pool_campaign_has_no_characteristics_and_penny_ante_no_traits():
    app = new_app()
    cid = app.create_campaign("Pool", "pool")
    with pytest.raises(RuleViolation, match="PL-1"):
        app.add_player(cid, HOUSE, "ilse", "Ilse", characteristic="Whip Smart", description=ILSE_TEXT)


# -- PL-5, PL-6 --------------------------------------------------------------------------------
def test_the_escalation_example_three_traits_at_plus_one_make_a_new_one_cost_five():
    assert rules.step_cost(1, [1, 1, 1]) == 5
    assert rules.step_cost(3, [1, 2]) == 10
    assert rules.step_cost(1, []) + rules.step_cost(2, []) + rules.step_cost(3, []) == 17


def test_a_new_trait_starts_at_plus_one_and_rises_one_step_at_a_time(table):
    table.app.raise_trait(table.cid, ILSE, None, "Clever")  # +1 with one other at +1: 2 + 1
    assert table.pool("ilse") == 10 - 3
    table.app.raise_trait(table.cid, ILSE, None, "brave")  # +2, none other at +2: 5
    assert table.pool("ilse") == 2
    with pytest.raises(RuleViolation, match="PL-5: Clever at \\+2 costs 7 dice and Ilse has 2"):
        table.app.raise_trait(table.cid, ILSE, None, "clever")


def test_a_trait_cashed_in_adds_its_rating_to_the_pool(table):
    table.app.cash_in_trait(table.cid, ILSE, None, "Brave")
    assert table.pool("ilse") == 11
    with pytest.raises(RuleViolation, match="PL-5: Ilse has no trait 'Brave'"):
        table.app.cash_in_trait(table.cid, ILSE, None, "Brave")


def test_moves_cost_2_5_or_10_dice_leaving_two(table):
    table.app.buy_move(table.cid, ILSE, None, "Read a Sitch", 5)
    with pytest.raises(RuleViolation, match="PL-6: a move costs 2, 5 or 10 dice"):
        table.app.buy_move(table.cid, ILSE, None, "Cheap", 3)
    with pytest.raises(RuleViolation, match="PL-6"):
        table.app.buy_move(table.cid, ILSE, None, "Unique", 10)
    assert table.pool("ilse") == 5


def test_a_player_changes_only_his_own_character(table):
    with pytest.raises(NotPermitted):
        table.app.raise_trait(table.cid, TOMAS, "ilse", "Clever")


# -- PL-2, PL-3, PL-4 ---------------------------------------------------------------------------
@pytest.mark.parametrize(("dice", "trait", "total", "outcome"), [
    ([6, 4, 1], 0, 10, "full"), ([3, 4], 0, 7, "mixed"), ([3, 2, 1], 1, 6, "miss"), ([5, 3], 1, 9, "mixed"),
])
def test_a_roll_reads_the_two_highest_dice_plus_one_trait(dice, trait, total, outcome):
    assert rules.read(dice, trait) == (total, outcome)


def test_a_roll_takes_at_least_two_dice_and_at_most_the_pool(table):
    with pytest.raises(RuleViolation, match="PL-2: a roll takes at least 2 dice"):
        table.roll(TOMAS, 1, [3])
    with pytest.raises(RuleViolation, match="PL-2: a roll takes at most the pool's 12 dice"):
        table.roll(TOMAS, 13, [3] * 13)


def test_fives_and_sixes_are_lost_but_never_below_two_dice(table):
    roll = table.roll(TOMAS, 12, [6] * 11 + [1])
    assert roll.lost == 10 and table.pool("tomas") == 2  # PL-3: the floor of two
    assert roll.phase == "choice"


def test_a_miss_lets_the_house_narrate_and_adds_two_dice(table):
    roll = table.roll(TOMAS, 3, [1, 2, 3])
    assert roll.outcome == "miss" and roll.narrator == "house" and roll.settled
    assert table.pool("tomas") == 14


def test_on_a_hit_the_choice_stays_pending_until_the_player_makes_it(table):
    roll = table.roll(TOMAS, 2, [6, 4])
    assert roll.phase == "choice" and table.pool("tomas") == 11
    with pytest.raises(NotPermitted):
        table.app.act(table.cid, ILSE, roll.id, "choose", {"choice": "house"})
    table.app.act(table.cid, TOMAS, roll.id, "choose", {"choice": "house"})
    assert table.pool("tomas") == 12 and table.app.repository.get(roll.id).narrator == "house"
    with pytest.raises(RuleViolation, match="PL-4: there is no choice pending"):
        table.app.act(table.cid, TOMAS, roll.id, "choose", {"choice": "narrate"})


# -- PL-7 --------------------------------------------------------------------------------------
def test_help_charges_fives_and_sixes_to_the_helpers_dice_first():
    assert rules.charge(2, 10, 3) == (0, 2)  # gave three, two sixes: one comes back
    assert rules.charge(4, 10, 3) == (1, 3)  # three or more: none back, the rest from the roller
    assert rules.charge(5, 3, 2) == (1, 2)  # the roller's floor of two still holds


def test_a_helped_roll_uses_the_helpers_own_offer(table):
    with pytest.raises(RuleViolation, match="PL-7: tomas has not offered you dice"):
        table.roll(ILSE, 2, [1, 1], helper="tomas")
    with pytest.raises(RuleViolation, match="PL-7: Tomas gives at most 10 dice, keeping two"):
        table.app.offer_help(table.cid, TOMAS, "ilse", 11)
    table.app.offer_help(table.cid, TOMAS, "ilse", 3)
    roll = table.roll(ILSE, 2, [6, 6, 1, 2, 5], helper="tomas")
    assert (roll.helper_lost, roll.lost) == (3, 0) and table.pool("tomas") == 9 and table.pool("ilse") == 10
    with pytest.raises(RuleViolation, match="PL-7"):  # the offer was used up
        table.roll(ILSE, 2, [1, 1], helper="tomas")


# -- PL-8 --------------------------------------------------------------------------------------
def contest(table: Table, a: list[int], b: list[int]):
    cid = table.app.open_contest(table.cid, ILSE, "tomas", "secret")
    table.app.act(table.cid, ILSE, cid, "roll", {"count": len(a), "dice": a})
    table.app.act(table.cid, TOMAS, cid, "roll", {"count": len(b), "dice": b})
    return cid


def test_a_hit_beats_a_miss_and_the_miss_gains_two_dice(table):
    cid = contest(table, [6, 4], [1, 2])
    result = table.app.repository.get(cid).result
    assert result["winner"] == "challenger" and result["gains"] == {"tomas": 2}
    assert table.pool("tomas") == 14 and table.pool("ilse") == 10 - 1


def test_two_misses_let_the_house_narrate(table):
    cid = contest(table, [1, 2], [1, 3])
    assert table.app.repository.get(cid).result == {"winner": None, "reason": "both missed: the House narrates",
                                                     "gains": {"ilse": 2, "tomas": 2}}


def test_a_stalemate_loses_dice_as_usual_gains_none_and_ends_when_someone_folds(table):
    cid = contest(table, [6, 4], [5, 5])
    state = table.app.repository.get(cid)
    assert state.phase == "stalemate" and table.pool("ilse") == 9 and table.pool("tomas") == 10
    table.app.act(table.cid, ILSE, cid, "push", {})
    table.app.act(table.cid, TOMAS, cid, "push", {})
    assert table.app.repository.get(cid).phase == "rolling" and table.app.repository.get(cid).round == 2
    table.app.act(table.cid, ILSE, cid, "roll", {"count": 2, "dice": [4, 4]})
    table.app.act(table.cid, TOMAS, cid, "roll", {"count": 2, "dice": [6, 1]})
    table.app.act(table.cid, TOMAS, cid, "fold", {})
    state = table.app.repository.get(cid)
    assert state.result["winner"] == "challenger" and state.result["gains"] == {"tomas": 2}
    assert table.pool("tomas") == 10 - 1 + 2


def test_in_highest_mode_the_higher_wins_and_a_tie_is_the_houses_to_break():
    table = Table(table_dice=True, opposed_mode="highest")
    cid = contest(table, [1, 2], [1, 3])
    state = table.app.repository.get(cid)
    assert state.result["winner"] == "opponent" and state.result["gains"] == {}  # nobody gains dice
    cid = contest(table, [3, 4], [4, 3])
    assert table.app.repository.get(cid).phase == "tie"
    with pytest.raises(NotPermitted):
        table.app.act(table.cid, ILSE, cid, "reroll", {})
    table.app.act(table.cid, HOUSE, cid, "interrupt", {})
    assert table.app.repository.get(cid).result["reason"] == "the House interrupted"


# -- C-6, C-7 on Pool rolls and contests ----------------------------------------------------------
def test_overturning_a_settled_roll_reverses_its_pool_effects(table):
    roll = table.roll(TOMAS, 4, [1, 2, 1, 3])  # a miss: +2
    assert table.pool("tomas") == 14
    with pytest.raises(NotPermitted):
        table.app.overturn(table.cid, TOMAS, roll.id, None, True, "mine")
    table.app.overturn(table.cid, HOUSE, roll.id, None, True, "the roll was not needed")
    assert table.pool("tomas") == 12 and table.app.repository.get(roll.id).overturned["reason"]


def test_rewinding_a_contest_returns_the_dice_lost_since_and_the_same_dice_come_again():
    table = Table()
    cid = table.app.open_contest(table.cid, ILSE, "tomas", "secret")
    table.app.act(table.cid, TOMAS, cid, "pass", {})  # C-10: Tomas's input before the first roll
    table.app.act(table.cid, ILSE, cid, "roll", {"count": 6})
    first = table.app.repository.get(cid).sides["challenger"]["last"]["dice"]
    pool_after = table.pool("ilse")
    table.app.rewind(table.cid, HOUSE, cid, 1, "rolled too early")
    assert table.pool("ilse") == 10
    table.app.act(table.cid, ILSE, cid, "roll", {"count": 6})
    assert table.app.repository.get(cid).sides["challenger"]["last"]["dice"] == first  # C-7
    assert table.pool("ilse") == pool_after


def test_a_rewind_stored_before_contests_kept_their_rolls_still_replays_and_later_rewinds_work():  # C-6
    """A ``Rewound`` stored before issue 30 holds sides without ``rolls``: it replays, and the contest goes on
    (its sides keep no rolls from then on; the sheets fall back to dropping the later rolls)."""
    table = Table()
    cid = table.app.open_contest(table.cid, ILSE, "tomas", "secret")
    table.app.act(table.cid, TOMAS, cid, "pass", {})  # C-10: Tomas's input before the first roll
    table.app.act(table.cid, ILSE, cid, "roll", {"count": 3})
    contest = table.app.repository.get(cid)
    past = table.app.repository.get(cid, version=1)
    old = {key: getattr(past, key) for key in contest.REWOUND}
    old["sides"] = {side: {k: v for k, v in data.items() if k != "rolls"} for side, data in old["sides"].items()}
    contest._rewound(to_step=1, reason="the old shape", state=old, actor="house")  # as stored before
    table.app.application.save(contest)
    replayed = table.app.repository.get(cid)
    assert all("rolls" not in data for data in replayed.sides.values())
    table.app.act(table.cid, ILSE, cid, "roll", {"count": 3})
    table.app.rewind(table.cid, HOUSE, cid, replayed.version, "once more")
    assert not table.app.repository.get(cid).sides["challenger"]["rolled"]


def test_a_table_contest_rewound_lists_the_dice_to_enter_again():  # C-3, C-7
    table = Table(table_dice=True)
    cid = table.app.open_contest(table.cid, ILSE, "tomas", "secret")
    table.app.act(table.cid, ILSE, cid, "roll", {"count": 3, "dice": [4, 1, 6]})
    table.app.rewind(table.cid, HOUSE, cid, 1, "rolled too early")
    roll = next(a for a in table.app.repository.get(cid).legal_actions("ilse", 10) if a["action"] == "roll")
    assert roll["fixed"] == [4, 1, 6]
    with pytest.raises(RuleViolation, match="C-7"):
        table.app.act(table.cid, ILSE, cid, "roll", {"count": 3, "dice": [4, 1, 5]})
    table.app.act(table.cid, ILSE, cid, "roll", {"count": 3, "dice": roll["fixed"]})


def test_a_pool_roll_verifies_against_its_revealed_seed():
    table = Table()
    roll = table.roll(TOMAS, 5, seed="monk's luck")
    if roll.phase == "choice":
        table.app.act(table.cid, TOMAS, roll.id, "choose", {"choice": "narrate"})
    report = table.app.repository.get(roll.id).verify()
    assert report["verifiable"] and report["commitment_matches"] and report["checked"] == 5 and not report["mismatches"]


# -- hypothesis: pools never below two, dice only where a ruling says ----------------------------------
commands = st.lists(st.one_of(
    st.tuples(st.just("roll"), st.sampled_from(["ilse", "tomas"]), st.integers(0, 15)),
    st.tuples(st.just("choose"), st.sampled_from(["narrate", "house"])),
    st.tuples(st.just("raise"), st.sampled_from(["ilse", "tomas"]), st.sampled_from(["brave", "monk", "clever"])),
    st.tuples(st.just("cash"), st.sampled_from(["ilse", "tomas"]), st.sampled_from(["brave", "monk"])),
    st.tuples(st.just("help"), st.sampled_from(["ilse", "tomas"]), st.integers(0, 12)),
    st.tuples(st.just("move"), st.sampled_from(["ilse", "tomas"]), st.sampled_from([2, 5, 10])),
), max_size=25)


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(commands)
def test_no_sequence_of_commands_takes_a_pool_below_two_and_dice_are_accounted_for(sequence):
    table = Table()
    expected = {"ilse": table.pool("ilse"), "tomas": table.pool("tomas")}
    last_roll = None
    for command in sequence:
        kind, *args = command
        before = {s: table.pool(s) for s in expected}
        try:
            if kind == "roll":
                other = "tomas" if args[0] == "ilse" else "ilse"
                campaign = table.app.campaign(table.cid)
                helper = other if play.character(table.app.application, campaign, other).offered_to(args[0]) else None
                last_roll = table.roll(Seat(args[0]), args[1], helper=helper)
                roll = last_roll
                expected[args[0]] += roll.gained - roll.lost
                if roll.helper:
                    expected[roll.helper] -= roll.helper_lost
            elif kind == "choose" and last_roll is not None:
                table.app.act(table.cid, Seat(last_roll.roller), last_roll.id, "choose", {"choice": args[0]})
                expected[last_roll.roller] += 1 if args[0] == "house" else 0
            elif kind == "raise":
                table.app.raise_trait(table.cid, Seat(args[0]), None, args[1])
                expected[args[0]] = table.pool(args[0])
            elif kind == "cash":
                table.app.cash_in_trait(table.cid, Seat(args[0]), None, args[1])
                expected[args[0]] = table.pool(args[0])
            elif kind == "help":
                table.app.offer_help(table.cid, Seat(args[0]), "tomas" if args[0] == "ilse" else "ilse", args[1])
            elif kind == "move":
                table.app.buy_move(table.cid, Seat(args[0]), None, f"move {len(sequence)} {args[1]}", args[1])
                expected[args[0]] = table.pool(args[0])
        except StakesError:
            assert {s: table.pool(s) for s in expected} == before  # a refusal changes nothing
        for seat in expected:
            assert table.pool(seat) >= 2  # PL-1, PL-3, PL-5, PL-7
            assert table.pool(seat) == expected[seat]  # only the rulings add or remove dice


def test_buying_a_trait_never_raises_one_and_raising_never_buys(table):
    with pytest.raises(RuleViolation, match="PL-5: Ilse already has brave; raise it instead"):
        table.app.raise_trait(table.cid, ILSE, None, "Brave", new=True)
    with pytest.raises(RuleViolation, match="PL-5: Ilse has no trait 'Clevr' to raise"):
        table.app.raise_trait(table.cid, ILSE, None, "Clevr", new=False)


def test_the_house_has_no_pool_to_roll_from(table):
    with pytest.raises(NotPermitted, match="the House has no character"):
        table.roll(HOUSE, 2, [1, 1])


def test_adventures_start_and_end_in_a_pool_campaign_without_a_budget(table):
    assert table.app.end_adventure(table.cid, HOUSE) == 1  # the table's first, started with it
    assert table.app.start_adventure(table.cid, HOUSE) == 2
    with pytest.raises(RuleViolation, match="C-1: a pool campaign has no House budget"):
        table.app.start_adventure(table.cid, HOUSE, 5, "agreed")
    assert table.app.end_adventure(table.cid, HOUSE) == 2


def test_a_unit_its_system_does_not_rewind_is_refused_naming_c6_and_nothing_is_stored():  # C-6, ADR 0032
    """The kernel's rewind takes only the units a system lists in ``rewinds``: a Pool roll has one step and is
    overturned instead."""
    table = Table()
    roll = table.roll(ILSE, 3)
    head = table.app.application.recorder.max_notification_id()
    with pytest.raises(RuleViolation) as refused:
        table.app.rewind(table.cid, HOUSE, roll.id, 1, "too early")
    assert refused.value.ruling == "C-6"
    assert table.app.application.recorder.max_notification_id() == head


def test_a_contest_rewound_to_a_step_of_an_abandoned_timeline_loses_its_dice_again():  # C-6, PL-3, ADR 0032
    table = Table()
    cid = table.app.open_contest(table.cid, ILSE, "tomas", "secret")
    table.app.act(table.cid, TOMAS, cid, "pass", {})  # C-10: Tomas's input before the first roll
    table.app.act(table.cid, ILSE, cid, "roll", {"count": 8})
    rolled = table.app.repository.get(cid).version
    lost = table.app.repository.get(cid).sides["challenger"]["lost"]
    assert lost  # some of the eight dice showed 5 or 6 (PL-3)
    table.app.rewind(table.cid, HOUSE, cid, 1, "rolled too early")
    assert table.pool("ilse") == 10
    table.app.rewind(table.cid, HOUSE, cid, rolled, "the roll stood after all")  # a step of the first timeline
    assert table.pool("ilse") == 10 - lost and table.app.repository.get(cid).sides["challenger"]["rolled"]


def test_a_contests_dice_rewound_stay_shown_to_every_seat_by_round_and_side_c8():
    """C-8 (found on a phone walk): a contest's dice are public when rolled; a rewind that takes a roll back
    keeps them shown, marked, so no seat knows the dice to come better than another (C-7 brings them again)."""
    table = Table()
    cid = table.app.open_contest(table.cid, ILSE, "tomas", "secret")
    table.app.act(table.cid, TOMAS, cid, "pass", {})  # C-10: Tomas's input before the first roll
    table.app.act(table.cid, ILSE, cid, "roll", {"count": 4})
    first = table.app.repository.get(cid).sides["challenger"]["last"]["dice"]
    assert table.app.repository.get(cid).view_for("tomas")["seen_before_rewind"] == []
    table.app.rewind(table.cid, HOUSE, cid, 1, "rolled too early")
    for seat in ("tomas", "ilse", "house"):
        assert table.app.repository.get(cid).view_for(seat)["seen_before_rewind"] == [
            {"round": 1, "side": "challenger", "dice": first}]
    table.app.act(table.cid, ILSE, cid, "roll", {"count": 2})  # two of the four again: the other two stay marked
    assert table.app.repository.get(cid).view_for("tomas")["seen_before_rewind"] == [
        {"round": 1, "side": "challenger", "dice": first[2:]}]


def test_dice_a_rewind_took_back_are_derived_again_by_verify_marked_taken_back_c7_c8():
    """C-4, C-7, C-8: every seat saw the dice a rewind took back, and the same seeds drew them, so the settled
    contest's verify derives them again with the rest (marked ``taken_back``), and a changed one is a mismatch."""
    table = Table()
    cid = table.app.open_contest(table.cid, ILSE, "tomas", "secret")
    table.app.act(table.cid, TOMAS, cid, "pass", {})
    table.app.act(table.cid, ILSE, cid, "roll", {"count": 4})
    table.app.rewind(table.cid, HOUSE, cid, 1, "rolled too early")
    table.app.act(table.cid, ILSE, cid, "roll", {"count": 2})  # two of the four again
    table.app.act(table.cid, TOMAS, cid, "roll", {"count": 2})
    contest = table.app.repository.get(cid)
    while not contest.settled:
        moves = {a["action"] for seat in ("ilse", "tomas") for a in contest.legal_actions(seat, 12)}
        side, move = next(((s, m) for s in ("ilse", "tomas") for m in ("fold", "roll")
                           if m in {a["action"] for a in contest.legal_actions(s, 12)}), (None, None))
        if side is None:
            table.app.act(table.cid, HOUSE, cid, "interrupt", {})
        else:
            table.app.act(table.cid, Seat(side), cid, move, {"count": 2} if move == "roll" else {})
        contest = table.app.repository.get(cid)
        assert moves or contest.settled
    report = contest.verify()
    back = [r for r in report["results"] if r.get("taken_back")]
    assert [r["slot"] for r in back] == [["round", 1, "challenger", 2], ["round", 1, "challenger", 3]]
    assert report["mismatches"] == [] and report["checked"] == len(report["results"])
    contest.filled[repr(["round", 1, "challenger", 3])] = 7  # a value no d6 derives: caught
    assert [m["slot"] for m in contest.verify()["mismatches"]] == [["round", 1, "challenger", 3]]
