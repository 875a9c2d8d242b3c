"""A command without an id goes to the unit it is meant for (issue 31), embedded on both stores: a move to the
seat's current unit only if that unit takes it, else to the one open unit that does; several, a refusal naming
them in words and asking for ``-C``; a refusal never names a Python class; ``verify`` and ``replay`` read the
seat's last settled unit, even while another is open, and say which."""

from __future__ import annotations

import re

CLASS_NAME = re.compile(r"\b(Pulp(Deal|Combat)|Pool(Roll|Contest)|BeastRoll)\b")


def pulp_table(cli) -> None:
    """A Pulp campaign with server cards (a deal waits for its dealer to show it, PU-1)."""
    cli("campaign", "create", "Dust and Lead", "--system", "pulp-cards")
    cli("player", "add", "ilse", "--character", "Ilse Varn")
    cli("player", "add", "tomas", "--character", "Tomas")
    cli("adventure", "start")  # C-1


def test_a_move_goes_to_the_open_unit_that_takes_it_not_to_the_seats_open_deal(cli):
    pulp_table(cli)
    deal = cli.json("deal", "--difficulty", "2", "--cut", "5", "--as", "ilse")
    assert deal["phase"] not in ("settled", "void")  # her deal waits for her to show it: her current unit
    combat = cli.json("combat", "open", "ilse,Sheriff Cole")  # the House's
    cli("combat", "initiative")  # the House's current unit: called, so the players seed or pass (C-10)
    passed = cli.json("combat", "pass", "--as", "ilse")  # C-10: a combat move, so into the combat
    assert passed["id"] == combat["id"]
    assert cli.json("challenge", "show", deal["id"][:8], "--as", "ilse")["phase"] == deal["phase"]  # untouched


def test_a_move_several_open_units_could_take_asks_for_an_id_and_names_them_in_words(cli):
    pulp_table(cli)
    first = cli.json("combat", "open", "ilse,Sheriff Cole")
    second = cli.json("combat", "open", "ilse,Deputy Hale")
    for opened in (first, second):
        cli("combat", "initiative", "-C", opened["id"][:8])  # C-10
    cli("deal", "--difficulty", "2", "--cut", "5", "--as", "ilse")  # her current unit takes no combat move
    refused = cli("combat", "pass", "--as", "ilse", expect=2).stderr
    assert "-C <id>" in refused and first["id"][:8] in refused and second["id"][:8] in refused
    assert "combat " in refused and not CLASS_NAME.search(refused)
    assert cli.json("combat", "pass", "--as", "ilse", "-C", second["id"][:8])["id"] == second["id"]


def test_a_refused_move_names_the_unit_in_words_and_never_its_class(cli):
    pulp_table(cli)
    deal = cli.json("deal", "--difficulty", "2", "--cut", "5", "--as", "ilse")
    cli("combat", "open", "ilse,Sheriff Cole")
    cli("combat", "initiative")
    refused = cli("combat", "pass", "--as", "ilse", "-C", deal["id"][:8], expect=3).stderr
    assert "This deal takes one of show" in refused and "C-1" in refused and not CLASS_NAME.search(refused)


def test_verify_and_replay_read_the_seats_last_settled_unit_while_another_is_open(cli):
    cli("campaign", "create", "Night", "--system", "beast")
    cli("player", "add", "ilse", "--character", "Ilse")
    cli("antagonist", "create", "Sheriff Cole", "--humanity", "4", "--willpower", "3")
    cli("adventure", "start")
    view = cli.json("act", "--difficulty", "4", "--humanity", "3", "--beast", "2", "--as", "ilse")
    while view["phase"] not in ("settled", "void"):
        view = cli.json("humanity" if view["phase"] == "check" else "willpower",
                        "check" if view["phase"] == "check" else "keep", "--as", "ilse")
    cli("conflict", "open", "--against", "Sheriff Cole", "--as", "ilse")  # open, her current unit now
    verified = cli("challenge", "verify", "--as", "ilse")
    assert "Not verifiable yet" not in verified.stdout
    assert f"Verifying roll {view['id'][:8]}" in verified.stderr and "last settled" in verified.stderr
    assert cli.json("challenge", "verify", "--as", "ilse")["challenge_id"] == view["id"]
    replayed = cli("replay", "--as", "ilse")
    assert f"Replaying roll {view['id'][:8]}" in replayed.stderr
    assert cli.json("replay", "--as", "ilse")["challenge_id"] == view["id"]
    assert cli.json("challenge", "verify", "--as", "house")["challenge_id"] == view["id"]  # the campaign's last
