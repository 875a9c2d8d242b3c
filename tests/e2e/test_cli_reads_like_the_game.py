"""The CLI reads like each game (issue 31, ADR 0030), embedded on both stores: each system draws its own units,
sheets and lists; no tuple, dict dump or ``None`` reaches a table; the table says whom it waits for in every
system; nothing is cut at 80 columns; Pulp combat takes seats; a lapsed loan offer is told from an open one;
a Twenty-one undo that would show cards asks first (C-8)."""

from __future__ import annotations

import re
from uuid import UUID

import pytest

from tests.e2e.test_cli_embedded import seat_the_table
from tests.e2e.test_cli_rough_edges import REPR, to_betting

NARROW = {"COLUMNS": "80"}


def headers(text: str, title: str) -> list[str]:
    """The column headers of the table titled ``title`` in ``text``."""
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.strip() == title)
    return next(line for line in lines[at + 1:] if line.strip()).split()


def pulp_table(cli) -> None:
    cli("campaign", "create", "Dust and Lead", "--system", "pulp-cards", "--table-cards")
    cli("player", "add", "ilse", "--character", "Ilse Varn")
    cli("player", "add", "tomas", "--character", "Tomas")
    cli("adventure", "start")  # C-1


def test_a_penny_ante_challenge_list_shows_ante_and_pot_and_no_log_position(cli):
    to_betting(cli)
    text = cli("challenge", "list").stdout
    assert headers(text, "Challenges") == ["id", "kind", "step", "challenger", "opponent", "ante", "pot"]
    assert "More may follow: --after" in cli("challenge", "list", "--limit", "1").stdout  # paging without "#"


def test_a_pulp_list_shows_who_takes_part_and_none_of_penny_antes_columns(cli):
    pulp_table(cli)
    cli("deal", "--difficulty", "2", "--cards", "BA,R21,P3,P1,B4,P2,P5", "--as", "ilse")
    text = cli("challenge", "list").stdout
    assert headers(text, "Challenges") == ["id", "kind", "step", "who"] and " deal " in text  # words (issue 31)
    assert "PulpDeal" not in text
    shown = cli("challenge", "show", "--as", "ilse").stdout
    assert shown.startswith("Deal ") and "PulpDeal" not in shown and "difficulty" in shown and not REPR.search(shown)


def test_a_pulp_combat_takes_seats_and_reads_as_initiative_and_attacks(cli):
    pulp_table(cli)
    cli("combat", "open", "ilse,Sheriff Cole")
    # B4 and B2 to Ilse (6), R21 and R22 to Cole (4): Ilse attacks first (PU-5)
    view = cli.json("combat", "initiative", "--cards", "B4,R21,B2,R22")
    assert view["state"]["up"] == "Ilse Varn"
    cli("combat", "attack", "--target", "sheriff cole", "--cards", "BA,R21,P3,P1,B4,P2,P5", "--as", "ilse")
    # the House's character attacks the seat, as 'combat open' takes it (issue 31)
    view = cli.json("combat", "attack", "--target", "ilse", "--cards", "RA1,B2,P4,P6,R22,RA2,P7")
    assert view["state"]["attacks"][1]["target"] == "Ilse Varn"
    text = cli("challenge", "show", env={"COLUMNS": "160"}).stdout
    assert "Initiative, cycle 1" in text and "Attacks" in text and "Ilse Varn (ilse)" in text
    assert "(number:" not in text and "Ilse Varn, B4" not in text and not REPR.search(text)  # no tuples
    assert re.search(r"Ilse Varn\s+4♠ 2♠\s+0\s+6", text)  # her initiative cards and total, in one row
    # each may show his attack (optional: nobody waits for it); the House's next initiative is what moves it on
    assert "The table waits for the House." in text
    cli("combat", "show", "--as", "ilse")
    refused = cli("combat", "show", "--as", "ilse", expect=3).stderr  # nothing of hers waits to be shown
    assert "PU-5" in refused and "None" not in refused


def test_a_beast_sheet_history_and_check_reasons_read_as_sentences(cli):
    cli("campaign", "create", "Night", "--system", "beast", "--table-dice")
    cli("player", "add", "ilse", "--character", "Ilse")
    cli("adventure", "start")
    # H 7 ✓, H 3 ✗, B 6 ✓, B 6 ✓, B 4 ✗: more Beast successes than Humanity, a check is due (BE-12)
    view = cli.json("act", "--difficulty", "2", "--humanity", "2", "--beast", "3", "--dice", "7,3,6,6,4", "--as",
                    "ilse")
    if view["phase"] == "deciding":  # a Willpower reroll is offered first (BE-4): she keeps her dice
        cli("willpower", "keep", "--as", "ilse")
    shown = cli("challenge", "show").stdout
    assert "more Beast successes than Humanity" in shown and "The table waits for Ilse." in shown
    history = cli("sheet", "ilse", env={"COLUMNS": "200"}).stdout
    assert "Action, difficulty 2" in history and "Humanity check due" in history
    assert "kind: action" not in history and "success: no" not in history and not REPR.search(history)


def test_willpower_restore_answers_the_sheet_it_restored(cli):
    cli("campaign", "create", "Night", "--system", "beast")
    cli("player", "add", "ilse", "--character", "Ilse")
    cli("adventure", "start")
    view = cli.json("act", "--difficulty", "4", "--humanity", "3", "--beast", "2", "--willpower", "before",
                    "--as", "ilse")  # a Willpower point spent (BE-4)
    while view["phase"] not in ("settled", "void"):
        view = cli.json("humanity" if view["phase"] == "check" else "willpower",
                        "check" if view["phase"] == "check" else "keep", "--as", "ilse")
    spent = cli.json("sheet", "ilse")["willpower"]
    sheet = cli.json("willpower", "restore", "1", "--character", "ilse")
    assert (sheet["seat"], sheet["willpower"]) == ("ilse", spent + 1)  # the sheet, not the campaign
    text = cli("willpower", "restore", "1", "--character", "ilse", expect=3).stderr
    assert "BE-8" in text  # at its maximum again
    assert "restored by the House (BE-8)" in cli("sheet", "ilse").stdout


def test_a_pool_roll_is_a_few_readable_lines_and_player_add_shows_the_traits(cli):
    cli("campaign", "create", "Harbour", "--system", "pool", "--table-dice")
    added = cli("player", "add", "mara", "--character", "Mara Quill", "--description", "A stubborn pilot",
                "--trait", "stubborn=2").stdout
    assert "Traits" in added and "+2" in added and "(name:" not in added
    cli("adventure", "start")
    text = cli("roll", "3", "--trait", "stubborn", "--dice", "6,4,2", "--as", "mara").stdout
    assert "mara rolls 3 dice + stubborn +2: 6 4 2" in text and "Total 12: full success; 1 die lost." in text
    assert len(text.strip().splitlines()) <= 12 and "helper_dice" not in text


def test_a_penny_ante_player_add_shows_characteristics_as_a_table(cli):
    cli("campaign", "create", "Jade")
    text = cli("player", "add", "ilse", "--character", "Ilse Varn", "--characteristic", "Whip Smart").stdout
    assert "Whip Smart" in text and "acquired_at" not in text and "(name:" not in text


def test_a_twenty_one_conflict_says_whom_the_table_waits_for(cli):
    cli("campaign", "create", "Blind", "--system", "twenty-one")
    cli("player", "add", "ilse", "--character", "Ilse Varn")
    cli("player", "add", "tomas", "--character", "Tomas")
    cli("adventure", "start")
    cli("conflict", "open", "ilse,tomas")
    assert "The table waits for Ilse Varn and Tomas." in cli("challenge", "show").stdout  # their seeds first (C-4)


def test_nothing_is_cut_at_80_columns(cli):
    created = seat_the_table(cli)
    text = cli("campaign", "list", env=NARROW).stdout
    assert created in text and max(len(line.rstrip()) for line in text.splitlines()) <= 80
    cli("adventure", "start")
    seed_hash = cli.json("challenge", "announce", "--challenger", "ilse", "--opponent", "tomas", "--ante", "1",
                         "--as", "ilse", env=NARROW)["seed_hash"]
    shown = cli("challenge", "show", env=NARROW).stdout
    # issue 31: the table shows the hash's start and how to check it; --format json has it whole (C-4)
    assert f"seed hash {seed_hash[:12]} (stakes challenge verify" in shown and seed_hash not in shown


def test_a_campaign_list_at_80_columns_cuts_no_cell_and_breaks_no_word(cli):
    cli("campaign", "create", "Dust and Lead", "--system", "pulp-cards")
    cli("campaign", "create", "penny-ante table with a long name", "--system", "penny-ante")
    cli("campaign", "create", "Twenty-one blind", "--system", "twenty-one")
    text = cli("campaign", "list", env=NARROW).stdout
    words = [w for line in text.splitlines() for w in line.split()]
    assert "…" not in text and max(len(line.rstrip()) for line in text.splitlines()) <= 80
    for whole in ("pulp-cards", "penny-ante", "twenty-one", "penny-ante", "Lead"):
        assert whole in words  # never "penny-ant" over "e"
    for c in cli.json("campaign", "list"):
        assert c["id"] in words  # whole, as --campaign takes it


def test_a_pulp_combat_at_80_columns_cuts_no_cell_and_names_no_class(cli):
    pulp_table(cli)
    cli("combat", "open", "ilse,Sheriff Cole")
    cli("combat", "initiative", "--cards", "B4,R21,B2,R22")
    # BA, B2, B4 black against nothing red: degree +7, a critical (PU-3)
    cli("combat", "attack", "--target", "sheriff cole", "--cards", "BA,B2,B4,P1,P2,P3,P5", "--as", "ilse")
    cli("combat", "show", "--as", "ilse")
    cli("combat", "attack", "--target", "ilse", "--cards", "RA1,B2,P4,P6,R22,RA2,P7")
    text = cli("challenge", "show", "--as", "ilse", env=NARROW).stdout
    assert "…" not in text and max(len(line.rstrip()) for line in text.splitlines()) <= 80
    assert "difficulty" in headers(text, "Attacks") and "(critical)," in text.split()
    assert text.startswith("Combat ") and "PulpCombat" not in text
    listed = cli("challenge", "list", env=NARROW).stdout
    assert re.search(r"\bcombat\b", listed) and "PulpCombat" not in listed and "…" not in listed


def test_a_lapsed_loan_offer_is_no_open_offer_and_nobody_is_waited_for_over_it(cli):
    from adapters.service import Stakes
    from domain.seats import Seat

    unit = UUID(to_betting(cli))
    cli("challenge", "raise", "4")
    cli("challenge", "lend", "ilse", "5", "--as", "tomas")
    assert "Open loan offers" in cli("sheet", "--as", "tomas").stdout
    cli("challenge", "call", "--as", "ilse")  # the betting round closes: the offer lapses (PA-14)
    sheet = cli("sheet", "--as", "tomas").stdout
    assert "Lapsed loan offers" in sheet and "Open loan offers" not in sheet
    assert cli.json("sheet", "--as", "ilse")["offers"][0]["open"] is False
    campaign = UUID(cli.json("campaign", "show")["id"])
    stakes = Stakes()
    try:
        seats = stakes.waiting_for(campaign, Seat.parse("tomas"), unit).seats
    finally:
        stakes.close()
    assert "tomas" not in seats and "house" in seats  # withdrawing his offer is no move the table waits for


def test_after_a_double_down_the_sides_show_the_rounds_bet_and_all_staked(cli):
    to_betting(cli)
    cli("challenge", "raise", "4")
    cli("challenge", "call", "--as", "ilse")
    cli("challenge", "double-down", "Rooftops")
    text = cli("challenge", "show", "--as", "ilse", env={"COLUMNS": "160"}).stdout
    assert headers(text, "Sides") == ["side", "who", "characteristics", "dice", "bet", "staked"]
    assert re.search(r"Lady Sen .* 6\s+12\b", text)  # bet 6 like Ilse's, 12 staked with the double down


def test_a_pool_contest_reads_as_the_rounds_two_rolls_and_its_result_in_words(cli):
    cli("campaign", "create", "Harbour", "--system", "pool", "--table-dice")
    cli("player", "add", "mara", "--character", "Mara Quill", "--description", "A stubborn pilot",
        "--trait", "stubborn=2")
    cli("player", "add", "tom", "--character", "Tom Reyes", "--description", "An old smuggler")
    cli("adventure", "start")
    cli("oppose", "tom", "--as", "mara")
    cli("contest", "roll", "2", "--trait", "stubborn", "--dice", "6,4", "--as", "mara")
    waiting = cli("challenge", "show", "--as", "mara").stdout
    assert waiting.startswith("Contest ") and "PoolContest" not in waiting and "mara against tom, round 1; tiers" in waiting
    assert re.search(r"mara\s+6 4\s+stubborn \+2\s+12\s+full success\s+1 \(1 in all\)", waiting)  # PL-2, PL-3
    assert re.search(r"tom\s+not rolled yet", waiting) and "The table waits for Tom Reyes." in waiting
    assert "'seat'" not in waiting and "last" not in waiting and not REPR.search(waiting)  # not the generic dump
    cli("contest", "roll", "2", "--dice", "3,4", "--as", "tom")  # 7: a hit too (PL-8: a stalemate)
    stalemate = " ".join(cli("challenge", "show", "--as", "tom").stdout.split())  # wrapped to the width
    assert "Both hit: a stalemate" in stalemate and "mara has not answered, tom has not answered" in stalemate
    cli("contest", "push", "--as", "mara")
    cli("contest", "fold", "--as", "tom")
    settled = cli("challenge", "show", "--as", "tom", env=NARROW).stdout
    assert "Result: mara wins: tom folded; tom gains 2 dice." in " ".join(settled.split())  # PL-8, PL-9
    assert max(len(line.rstrip()) for line in settled.splitlines()) <= 80
    assert "Offers" not in cli("sheet", "tom").stdout
    cli("help-roll", "mara", "3", "--as", "tom")
    assert "Offers mara 3 dice for that character's next roll (PL-7)." in cli("sheet", "tom", env={"COLUMNS": "120"}).stdout


# -- replay and log read as words in every system (issue 31) ------------------------------------------------------
#: A tuple or a key=value dump (``minimum=(humanity: 0, …)``, ``(kind: B, chain: 3 …)``).
TUPLE = re.compile(r"=\(|\(\w[\w ]*: ")
#: A Python class name of a unit or an event (``BeastRoll``, ``BeastCharacter.Adjusted``, ``.Rolled``).
CLASS_NAME = re.compile(r"\b[A-Z][a-z]+(?:[A-Z][a-z]+)+\b|\w\.[A-Z][a-z]+")


def reads_as_words(text: str) -> str:
    assert not TUPLE.search(text), TUPLE.search(text)
    assert not CLASS_NAME.search(text), CLASS_NAME.search(text)
    assert not REPR.search(text), REPR.search(text)
    assert max(len(line.rstrip()) for line in text.splitlines()) <= 80
    return text


def played(cli, system: str):
    """A unit of ``system`` played to the end, the seat that reads it, and the names its replay must show
    (those the unit itself carries: a seat's side is answered by its seat) and its log must show."""
    from tests.e2e.test_cli_every_unit import PLAYS, Table
    from tests.e2e.test_cli_rough_edges import settle

    if system == "penny-ante":
        unit = to_betting(cli)
        settle(cli)
        return unit, ["Lady Sen"], ["Ilse Varn", "Brother Tomas", "Lady Sen"]
    play, replayed, logged = {
        "pool": ("a pool contest", [], ["Ilse", "Tomas"]),
        "twenty-one": ("a twenty-one conflict", [], ["Ilse Varn", "Brother Tomas"]),
        "beast": ("a beast conflict", ["Ilse", "Sheriff Cole"], ["Ilse", "Tomas", "Sheriff Cole"]),
        "pulp-cards": ("a pulp deal", ["Ilse Varn"], ["Ilse Varn", "Tomas"]),
    }[system]
    return PLAYS[play](Table(cli)).id, replayed, logged


SYSTEMS = ("penny-ante", "pool", "twenty-one", "beast", "pulp-cards")


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_replay_reads_as_steps_in_words_and_the_table_as_challenge_show_draws_it(cli, system):
    unit, names, _ = played(cli, system)
    text = reads_as_words(cli("replay", unit, "--as", "ilse", env=NARROW).stdout)
    assert text.startswith("Replay of ") and f" {unit[:8]}: " in text and unit not in text  # ids short
    assert "Step 1/" in text and "State after step" in text and all(name in text for name in names)
    one = reads_as_words(cli("replay", unit, "--step", "1", "--as", "ilse", env=NARROW).stdout)
    assert "state after this step" in one and "Step 2/" not in one
    seed_hash = cli.json("challenge", "show", unit, "--as", "ilse")
    seed_hash = seed_hash.get("seed_hash") or seed_hash["state"]["seed_hash"]
    assert seed_hash not in text.replace("\n", "")  # shortened where shown: whole only in the verify panel


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_log_says_each_event_in_words_and_names_the_characters(cli, system):
    _, _, names = played(cli, system)
    text = reads_as_words(cli("log", "--limit", "1000", "--as", "ilse", env=NARROW).stdout)
    assert all(name in text for name in names)
    entries = cli.json("log", "--limit", "1000", "--as", "ilse")["entries"]
    assert not any(f"{e['stream'].split(':')[0]}.{e['event']}" in text for e in entries)


def test_the_log_and_the_replay_show_only_what_the_api_answered_for_the_seat(cli):
    played(cli, "beast")
    mine = cli.json("log", "--limit", "1000", "--as", "ilse")["entries"]
    created = next(e for e in mine if e["stream"].startswith("BeastAntagonist") and e["event"] == "Created")
    assert "humanity" in created["hidden"]  # the House's numbers stay the House's (C-5) …
    text = cli("log", "--limit", "1000", "--as", "ilse", env=NARROW).stdout
    assert "Sheriff Cole joins, Humanity" not in text and "humanity, willpower max hidden" in text  # … and say so
    assert "Sheriff Cole joins, Humanity 4" in cli("log", "--limit", "1000", env=NARROW).stdout  # the House's log


def test_a_pulp_combat_replays_and_logs_in_words_as_does_a_rewound_penny_ante_challenge(cli):
    pulp_table(cli)
    cli("combat", "open", "ilse,Sheriff Cole")
    cli("combat", "initiative", "--cards", "B4,R21,B2,R22")
    cli("combat", "attack", "--target", "sheriff cole", "--cards", "BA,R21,P3,P1,B4,P2,P5", "--as", "ilse")
    text = " ".join(reads_as_words(cli("replay", "--as", "ilse", env=NARROW).stdout).split())
    assert "Initiative, cycle 1: Ilse Varn 6, Sheriff Cole 4" in text  # names as typed (PU-5)
    assert "Ilse Varn attacks Sheriff Cole: A♠" in text
    reads_as_words(cli("log", "--limit", "1000", env=NARROW).stdout)
    to_betting(cli)
    cli("undo", "--to-step", "4", "--reason", "Poison does not apply here")
    text = reads_as_words(cli("replay", env=NARROW).stdout)
    assert "Rewound, sent by the House" in text and "Poison does not apply here" in text
    assert "The challenger rolls, circumstance die" not in text and "rolls ," not in text
    reads_as_words(cli("log", "--limit", "1000", env=NARROW).stdout)


def test_a_log_page_that_starts_inside_a_challenge_still_names_who_plays_each_side_and_each_character(cli):
    """``stakes log --after``: the page begins after the challenge was announced and the characters joined;
    its moves are still said by the characters' names (the unit's opening step, the campaign's players). An
    antagonist whose creation is on an earlier page is still "a character" on its own stream's lines."""
    to_betting(cli)
    entries = cli.json("log", "--limit", "1000")["entries"]
    announced = next(e["position"] for e in entries if e["event"] == "Announced")
    text = " ".join(reads_as_words(cli("log", "--after", str(announced), "--as", "ilse", env=NARROW).stdout).split())
    assert "Ilse Varn" in text
    assert "Ilse Varn rolls" in text and "Lady Sen shows" in text
    assert not re.search(r"\b[Tt]he (?:challenger|opponent)\b", text), text


def test_a_characteristic_bought_does_not_rename_its_buyer_in_the_log(cli):
    """The log's who is the stream's character, named at its creation: a later event's ``name`` (a Penny Ante
    characteristic bought) is what that event records, not who the character is."""
    seat_the_table(cli)
    cli("characteristic", "buy", "Lucky [red]Necklace[/]", "--as", "ilse")
    cli("adventure", "start")
    text = reads_as_words(cli("log", "--limit", "1000", "--as", "tomas", env=NARROW).stdout)
    assert "Ilse Varn joins adventure 1" in text, text
    assert "Necklace[/] joins" not in text and "Necklace[/] wagers" not in text
