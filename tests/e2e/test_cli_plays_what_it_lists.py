"""Every listed legal move is playable from its listing alone, from the CLI too: ``challenge show`` gives each
move the command line that plays it, with the values the listing fixes, and that line, run as shown (a
placeholder filled), is accepted. A Pulp combat's ``show`` of an attack (an option, not an argument) and the
House's ``effect``, and a move of every unit the CLI reads in ``test_cli_every_unit``."""

from __future__ import annotations

import re
import shlex

from tests.e2e.test_cli_reads_like_the_game import NARROW, pulp_table


def listed(cli, *args: str) -> dict[str, str]:
    """The move -> its command line, as ``challenge show`` prints them (one row a move, the line last)."""
    out = cli("challenge", "show", *args, env={**NARROW, "COLUMNS": "240"}).stdout
    rows = {}
    for line in out.splitlines():
        found = re.search(r"^\s*(\S+)\s.*?(stakes \S.*?)\s*$", line)
        if found:
            rows[found.group(1)] = found.group(2)
    return rows


def run(cli, line: str, *extra: str, **fill: str) -> str:
    """The listed line run as a player would type it, its placeholders filled."""
    for name, value in fill.items():
        line = line.replace(f"<{name}>", shlex.quote(value))
    words = shlex.split(line)
    assert words[0] == "stakes" and "<" not in line, line
    return cli(*words[1:], *extra).stdout


def test_a_pulp_attack_is_shown_and_its_effect_recorded_by_the_lines_the_listing_gives(cli):
    pulp_table(cli)
    cli("combat", "open", "ilse,Sheriff Cole")
    cli("combat", "initiative", "--cards", "B4,R21,B2,R22")
    cli("combat", "attack", "--target", "sheriff cole", "--cards", "BA,R21,P3,P1,B4,P2,P5", "--as", "ilse")
    mine = listed(cli, "--as", "ilse")
    # the one choice, as the option takes it, and the seat it is Ilse's (typed as shown, it acts as her, not the House)
    assert mine["show"] == "stakes combat show --number 1 --as ilse", mine
    run(cli, mine["show"])
    house = listed(cli)
    assert house["effect"].startswith("stakes combat effect <effect>"), house
    run(cli, house["effect"], effect="a graze on the sheriff's arm")
    assert cli.json("challenge", "show")["state"]["attacks"][0]["effect"] == "a graze on the sheriff's arm"


def test_a_loan_offered_into_a_challenge_is_answered_by_the_line_the_borrowers_listing_gives_pa14(cli):
    """A move a unit lists that is a campaign command (answering a loan, issue 31) names that command, with the
    loan's id the listing carries: ``stakes loan accept <id>``, not a ``challenge accept-loan`` that is none."""
    from tests.e2e.test_cli_rough_edges import to_betting

    to_betting(cli)
    lender = listed(cli, "--as", "tomas")
    assert lender["lend"] == "stakes challenge lend <borrower> <amount> --as tomas", lender
    run(cli, lender["lend"], borrower="ilse", amount="5")
    borrower = listed(cli, "--as", "ilse")
    assert re.fullmatch(r"stakes loan accept [0-9a-f]{8} --as ilse", borrower["accept-loan"]), borrower
    assert re.fullmatch(r"stakes loan decline [0-9a-f]{8} --as ilse", borrower["decline-loan"]), borrower
    pile = cli.json("sheet", "ilse", "--as", "ilse")["pile"]
    run(cli, borrower["accept-loan"])
    assert cli.json("sheet", "ilse", "--as", "ilse")["pile"] == pile + 5  # PA-14: the pennies moved at once
    assert "withdraw-loan" not in listed(cli, "--as", "tomas")


def test_a_commands_help_is_for_people_not_for_developers(cli):
    """``--help`` says the command's first paragraph and its options' meaning, no issue numbers and no notes on
    the wire format (a CLI flag is no JSON boolean)."""
    for args in (("overturn", "--help"), ("undo", "--help")):
        text = cli(*args).stdout
        assert "issue 3" not in text and "JSON boolean" not in text and "subclasses" not in text, text


def test_a_twenty_one_conflict_of_three_lists_all_three_seats(cli):
    cli("campaign", "create", "Saloon", "--system", "twenty-one")
    for seat in ("ilse", "tomas", "mara"):
        cli("player", "add", seat, "--character", seat.title())
    cli("adventure", "start")
    cli("conflict", "open", "ilse,tomas,mara")
    listed = cli.json("challenge", "list")
    assert listed[0]["sides"] == [["ilse"], ["tomas"], ["mara"]]
    assert re.search(r"conflict\s+\S+\s+ilse, tomas, mara", cli("challenge", "list").stdout)
